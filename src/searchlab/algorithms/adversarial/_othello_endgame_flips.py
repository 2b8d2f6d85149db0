"""Faster bitboard kernels for the endgame solver: flips by bit scan, moves by doubling fills.

The same answers as :func:`~searchlab.domains.games.othello.bits.flips` and
:func:`~searchlab.domains.games.othello.bits.legal_moves` (the tests compare them on random
boards), cheaper where the solver spends its time:

* :func:`flips_at` looks up, for the square played, its ray in each of the eight directions
  (:data:`RAYS`); the first square of a ray that is not an opponent disc is its lowest bit
  (rays going up the board) or its highest (rays going down, found with the processor's
  count-leading-zeros instruction through :func:`leading_zeros`); when that square holds a
  disc of the mover, the squares of the ray before it turn. No loop over the discs turned:
  about half the time of the loop form (measured on random boards, 2-core AMD EPYC VM).
* :func:`moves_at` fills runs of opponent discs two squares at a time after the first
  (Kogge-Stone style, Edax's form), 5 steps per direction instead of 6: about 10% faster.

>>> import numpy as np
>>> black = np.uint64((1 << 28) | (1 << 35))   # e4, d5
>>> white = np.uint64((1 << 27) | (1 << 36))   # d4, e5
>>> int(flips_at(19, black, white)) == 1 << 27   # d3 turns d4
True
>>> int(moves_at(black, white)) == (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44)
True
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["RAYS", "flips_at", "leading_zeros", "moves_at"]

_U0, _U1, _S1, _S7, _S8, _S9, _S63 = (np.uint64(n) for n in (0, 1, 1, 7, 8, 9, 63))
_NOT_EDGE_FILES = np.uint64(0x7E7E7E7E7E7E7E7E)
# (file step, rank step) of the eight directions: the first four go up the bit indices
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))


def _rays() -> np.ndarray:
    """``RAYS[square, direction]``: the squares beyond ``square`` in that direction."""
    rays = np.zeros((64, 8), dtype=np.uint64)
    for square in range(64):
        for index, (file_step, rank_step) in enumerate(_DIRECTIONS):
            file, rank, ray = square % 8 + file_step, square // 8 + rank_step, 0
            while 0 <= file < 8 and 0 <= rank < 8:
                ray |= 1 << (8 * rank + file)
                file, rank = file + file_step, rank + rank_step
            rays[square, index] = ray
    return rays


RAYS = _rays()
"""``uint64[64, 8]``: for each square, its ray in each direction (four up, four down)."""


@intrinsic
def leading_zeros(typingctx, bits):  # pragma: no cover - compiled
    """Number of zero bits above the highest set bit of a ``uint64`` (64 for 0): one
    instruction (``lzcnt``) where the processor has it."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(cache=True)
def flips_at(square, player, opponent):  # pragma: no cover - compiled
    """Discs of ``opponent`` that ``player`` turns by playing on the empty square with index
    ``square`` (0 when none: the move is not legal)."""
    turned = _U0
    not_opponent = ~opponent
    for direction in range(4):
        ray = RAYS[square, direction]
        stop = ray & not_opponent
        stop &= ~stop + _U1  # the nearest: the lowest bit
        if stop & player:
            turned |= ray & (stop - _U1)
    for direction in range(4, 8):
        ray = RAYS[square, direction]
        stop = ray & not_opponent
        if stop:
            stop = _U1 << (_S63 - leading_zeros(stop))  # the nearest: the highest bit
            if stop & player:
                turned |= ray & ~((stop << _S1) - _U1)
    return turned


@njit(cache=True)
def _moves_along(player, mask, shift):  # pragma: no cover - compiled
    """Squares closing a run of ``mask`` discs from a player disc, both ways along ``shift``."""
    double = shift + shift
    up = mask & (player << shift)
    down = mask & (player >> shift)
    up |= mask & (up << shift)
    down |= mask & (down >> shift)
    mask_up = mask & (mask << shift)
    mask_down = mask_up >> shift
    up |= mask_up & (up << double)
    down |= mask_down & (down >> double)
    up |= mask_up & (up << double)
    down |= mask_down & (down >> double)
    return (up << shift) | (down >> shift)


@njit(cache=True)
def moves_at(player, opponent):  # pragma: no cover - compiled
    """Bitboard of the squares where ``player`` may move."""
    inner = opponent & _NOT_EDGE_FILES
    moves = _moves_along(player, inner, _S1) | _moves_along(player, opponent, _S8)
    moves |= _moves_along(player, inner, _S7) | _moves_along(player, inner, _S9)
    return moves & ~(player | opponent)
