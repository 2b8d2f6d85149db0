"""Zobrist keys for Go positions, written once for both tiers (Zobrist 1970).

``ZOBRIST[colour - 1, p]`` is the 64-bit key of a stone of ``colour`` (1 black, 2 white) on
point ``p = row * size + col`` of the board in use (``p < size * size <= 361``). The hash of a
board is the XOR of the keys of its stones, so the empty board hashes to 0 and a move or a
capture updates the hash incrementally. Keys are drawn from a fixed seed and lie in
``1..2**63 - 1``, so hashes fit numba's int64 and uint64 alike.

:data:`SIDE_TO_MOVE_KEY` is XORed into the hash when white is to move, for situational
superko (the reference tier's ``GoState.history`` stores board hashes, or board hash ^ this key
for white to move under ``superko="situational"``).

>>> board_hash(bytes(81))
0
>>> board = bytearray(81); board[40] = 1; board[0] = 2
>>> board_hash(bytes(board)) == int(ZOBRIST[0, 40]) ^ int(ZOBRIST[1, 0])
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_POINTS", "SIDE_TO_MOVE_KEY", "ZOBRIST", "board_hash"]

MAX_POINTS = 361
"""Points on the largest board (19x19)."""

ZOBRIST: np.ndarray = np.random.default_rng(0x60_2026).integers(
    1, 2**63, size=(2, MAX_POINTS), dtype=np.uint64
)
"""``uint64`` keys, shape ``(2, 361)``: ``[colour - 1, point]``."""
ZOBRIST.setflags(write=False)

SIDE_TO_MOVE_KEY: int = 0x5BD1E9955BD1E995
"""A fixed odd 63-bit key XORed in when white is to move (situational superko)."""

_KEYS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(int(k) for k in ZOBRIST[0]),
    tuple(int(k) for k in ZOBRIST[1]),
)


def board_hash(board: bytes) -> int:
    """XOR of the keys of the stones of ``board`` (one byte per point: 0 empty, 1 black,
    2 white); 0 for the empty board.

    >>> board_hash(bytes([1, 0, 0, 0])) == int(ZOBRIST[0, 0])
    True
    """
    black, white = _KEYS
    value = 0
    for point, colour in enumerate(board):
        if colour == 1:
            value ^= black[point]
        elif colour == 2:
            value ^= white[point]
    return value
