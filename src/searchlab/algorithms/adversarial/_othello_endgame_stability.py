"""Stable discs of an Othello position: discs that no sequence of moves can ever turn.

The endgame solver uses them as a bound: when the opponent of the side to move owns ``s``
stable discs, the final score of the side to move is at most ``64 - 2 * s``, so a node whose
``alpha`` is already that high is cut off before any search ("stability cutoff", as in Edax).

The set found is a subset of the truly stable discs (enough for a bound), built as Edax
builds it:

1. the four edges, exactly, from a table (:func:`edge_stability_table`) of the discs of one
   player that stay his along a line of eight squares whatever is played on the line, with
   either colour, legal or not (an edge disc can only be turned along its edge);
2. inner discs whose four lines (horizontal, vertical, both diagonals) are full;
3. then, repeatedly, inner discs that in each of the four directions lie on a full line or
   touch a stable disc of their colour.

>>> import numpy as np
>>> table = edge_stability_table()
>>> int(table[0b00000001, 0b00000010])   # a corner is stable; the disc beside it is not his
1
>>> int(table[0b00000011, 0b00000000])   # a corner and the disc beside it
3
>>> int(table[0b00000010, 0b00000000])   # an X on b1 alone can be taken from a1 or c1
0
>>> a1_h1 = np.uint64(0x81)
>>> int(stable_discs(a1_h1, np.uint64(0), table)) == 0x81
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from searchlab.domains.games.othello.bits import count_discs

__all__ = ["STABILITY_THRESHOLD", "edge_stability_table", "stable_count", "stable_discs"]

_U0, _S1, _S2, _S4, _S7, _S8, _S9, _S14, _S16, _S18, _S28, _S32, _S36, _S48, _S56 = (
    np.uint64(n) for n in (0, 1, 2, 4, 7, 8, 9, 14, 16, 18, 28, 32, 36, 48, 56)
)
_NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
_A_FILE = np.uint64(0x0101010101010101)
_CENTRAL = np.uint64(0x007E7E7E7E7E7E00)
_ROW = np.uint64(0xFF)
# a stability cutoff is tried only when alpha is at least this high (by empties, Edax's
# values): with few discs on the board few are stable, and the bound would rarely cut
STABILITY_THRESHOLD = np.array(
    [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42]
    + [44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62]
    + [64] * 27,
    dtype=np.int64,
)
# bit k of a packed file is the square of rank k + 1: (file bits) * _PACK_A >> 56 gathers the
# a-file's eight bits into the top byte (each partial product lands on its own bit)
_PACK_A = np.uint64(0x0102040810204080)


def _line_stable(player: int, opponent: int, memo: dict[tuple[int, int], int]) -> int:
    """Discs of ``player`` on an 8-square line that stay his after any sequence of moves."""
    key = (player, opponent)
    if key in memo:
        return memo[key]
    stable = player
    empty = ~(player | opponent) & 0xFF
    square = 0
    while empty and stable:
        if empty >> square & 1:
            empty &= ~(1 << square)
            for mover in (0, 1):  # the player, then the opponent, plays on the square
                mine, theirs = (player, opponent) if mover == 0 else (opponent, player)
                mine |= 1 << square
                for step in (-1, 1):
                    run, at = 0, square + step
                    while 0 <= at < 8 and theirs >> at & 1:
                        run |= 1 << at
                        at += step
                    if 0 <= at < 8 and mine >> at & 1:
                        mine, theirs = mine | run, theirs & ~run
                child = (mine, theirs) if mover == 0 else (theirs, mine)
                stable &= _line_stable(child[0], child[1], memo)
        square += 1
    memo[key] = stable
    return stable


@cache
def edge_stability_table() -> np.ndarray:
    """``table[player, opponent]`` (``uint8``, 256 x 256): the stable discs of ``player`` on a
    line of 8 squares holding the discs ``player`` and ``opponent`` (bit k = square k; entries
    with shared bits are 0). Built once per process (about 0.2 s)."""
    table = np.zeros((256, 256), dtype=np.uint8)
    memo: dict[tuple[int, int], int] = {}
    for player in range(256):
        rest = 0xFF & ~player
        opponent = rest
        while True:  # every subset of the squares not held by the player
            table[player, opponent] = _line_stable(player, opponent, memo)
            if opponent == 0:
                break
            opponent = (opponent - 1) & rest
    return table


@njit(cache=True)
def _pack_file(bits, shift):  # pragma: no cover - compiled
    """The file ``shift`` (0 = a, 7 = h) of ``bits`` as a byte, bit k = rank k + 1."""
    return ((bits >> shift) & _A_FILE) * _PACK_A >> _S56


@njit(cache=True)
def _unpack_file(byte, shift):  # pragma: no cover - compiled
    """Inverse of :func:`_pack_file`."""
    spread = _U0
    rank = 0
    while byte:
        if byte & np.uint64(1):
            spread |= np.uint64(1) << np.uint64(8 * rank)
        byte >>= np.uint64(1)
        rank += 1
    return spread << shift


@njit(cache=True)
def _stable_edges(player, opponent, table):  # pragma: no cover - compiled
    stable = np.uint64(table[player & _ROW, opponent & _ROW])
    stable |= np.uint64(table[player >> _S56, opponent >> _S56]) << _S56
    for shift in (np.uint64(0), _S7):
        byte = table[_pack_file(player, shift), _pack_file(opponent, shift)]
        if byte:
            stable |= _unpack_file(np.uint64(byte), shift)
    return stable


@njit(cache=True)
def _not_full_diagonal(empty, shift, up_mask, down_mask):  # pragma: no cover - compiled
    """Squares whose line in direction ``shift`` (7 or 9) holds an empty square: the empties
    flooded both ways along the line (Kogge-Stone, 3 doublings each way)."""
    up = empty
    mask = up_mask
    up |= mask & (up << shift)
    mask &= mask << shift
    up |= mask & (up << (shift + shift))
    mask &= mask << (shift + shift)
    up |= mask & (up << (np.uint64(4) * shift))
    down = empty
    mask = down_mask
    down |= mask & (down >> shift)
    mask &= mask >> shift
    down |= mask & (down >> (shift + shift))
    mask &= mask >> (shift + shift)
    down |= mask & (down >> (np.uint64(4) * shift))
    return up | down


@njit(cache=True)
def stable_discs(player, opponent, table):  # pragma: no cover - compiled
    """Bitboard of discs of ``player`` that can never be turned (a subset of them)."""
    discs = player | opponent
    row = discs & (discs >> _S1)
    row &= row >> _S2
    row &= row >> _S4
    full_h = (row & _A_FILE) * _ROW
    column = discs & ((discs >> _S8) | (discs << _S56))
    column &= (column >> _S16) | (column << _S48)
    full_v = column & ((column >> _S32) | (column << _S32))
    empty = ~discs
    full_d9 = ~_not_full_diagonal(empty, _S9, _NOT_A_FILE, _NOT_H_FILE)
    full_d7 = ~_not_full_diagonal(empty, _S7, _NOT_H_FILE, _NOT_A_FILE)
    central = player & _CENTRAL
    stable = _stable_edges(player, opponent, table)
    stable |= full_h & full_v & full_d7 & full_d9 & central
    if stable == _U0:
        return stable
    while True:
        before = stable
        along_h = (stable >> _S1) | (stable << _S1) | full_h
        along_v = (stable >> _S8) | (stable << _S8) | full_v
        along_d7 = (stable >> _S7) | (stable << _S7) | full_d7
        along_d9 = (stable >> _S9) | (stable << _S9) | full_d9
        stable |= along_h & along_v & along_d7 & along_d9 & central
        if stable == before:
            return stable


@njit(cache=True)
def stable_count(player, opponent, table):  # pragma: no cover - compiled
    """Number of :func:`stable_discs` of ``player``."""
    return count_discs(stable_discs(player, opponent, table))
