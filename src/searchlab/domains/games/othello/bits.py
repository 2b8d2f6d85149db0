"""Compiled Othello bitboard kernels: move generation, flips, disc counts, perft.

A board is two ``uint64`` bitboards, ``player`` (the side to move) and ``opponent``. Bit ``i``
is the square ``i = 8 * (rank - 1) + file`` (``a1`` = bit 0, ``h1`` = bit 7, ``a8`` = bit 56,
``h8`` = bit 63), the order of an OBF board string.

Move generation is shift based (the "dumb7fill" form of Kogge-Stone flood fill): for each of
the eight directions, the opponent discs adjacent to a run starting at a player disc are filled
six times, and one more shift lands on the squares that close the run. Horizontal and diagonal
directions mask out the a- and h-files of the opponent so no run wraps around an edge.

Every constant is a ``numpy.uint64`` so that numba never mixes signed and unsigned integers
(which it would widen to ``float64``).

>>> import numpy as np
>>> black = np.uint64((1 << 28) | (1 << 35))   # e4, d5
>>> white = np.uint64((1 << 27) | (1 << 36))   # d4, e5
>>> moves = legal_moves(black, white)
>>> sorted(i for i in range(64) if int(moves) >> i & 1)   # d3, c4, f5, e6
[19, 26, 37, 44]
>>> int(flips(np.uint64(1 << 19), black, white)) == 1 << 27   # d3 flips d4
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["count_discs", "final_score", "flips", "legal_moves", "perft_bits"]

_U0, _U1, _S1, _S2, _S4, _S7, _S8, _S9, _S56 = (np.uint64(n) for n in (0, 1, 1, 2, 4, 7, 8, 9, 56))
_NOT_EDGE_FILES = np.uint64(0x7E7E7E7E7E7E7E7E)  # files b..g
_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def count_discs(bits):  # pragma: no cover - compiled
    """Number of set bits of a ``uint64`` (SWAR population count)."""
    x = bits - ((bits >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True)
def _fill_up(player, mask, shift):  # pragma: no cover - compiled
    """Squares closing a run of ``mask`` discs that starts at a player disc, shifting left."""
    t = mask & (player << shift)
    t |= mask & (t << shift)
    t |= mask & (t << shift)
    t |= mask & (t << shift)
    t |= mask & (t << shift)
    t |= mask & (t << shift)
    return t << shift


@njit(cache=True)
def _fill_down(player, mask, shift):  # pragma: no cover - compiled
    """As :func:`_fill_up`, shifting right."""
    t = mask & (player >> shift)
    t |= mask & (t >> shift)
    t |= mask & (t >> shift)
    t |= mask & (t >> shift)
    t |= mask & (t >> shift)
    t |= mask & (t >> shift)
    return t >> shift


@njit(cache=True)
def legal_moves(player, opponent):  # pragma: no cover - compiled
    """Bitboard of the squares where ``player`` may move (each flips at least one disc)."""
    inner = opponent & _NOT_EDGE_FILES
    moves = _fill_up(player, inner, _S1) | _fill_down(player, inner, _S1)
    moves |= _fill_up(player, opponent, _S8) | _fill_down(player, opponent, _S8)
    moves |= _fill_up(player, inner, _S7) | _fill_down(player, inner, _S7)
    moves |= _fill_up(player, inner, _S9) | _fill_down(player, inner, _S9)
    return moves & ~(player | opponent)


@njit(cache=True)
def _ray_up(move, player, mask, shift):  # pragma: no cover - compiled
    flipped = _U0
    x = move << shift
    while x & mask:
        flipped |= x
        x = x << shift
    if x & player:
        return flipped
    return _U0


@njit(cache=True)
def _ray_down(move, player, mask, shift):  # pragma: no cover - compiled
    flipped = _U0
    x = move >> shift
    while x & mask:
        flipped |= x
        x = x >> shift
    if x & player:
        return flipped
    return _U0


@njit(cache=True)
def flips(move, player, opponent):  # pragma: no cover - compiled
    """Discs of ``opponent`` that ``player`` turns by playing the single-bit square ``move``
    (0 when the move is not legal; the square is assumed empty)."""
    inner = opponent & _NOT_EDGE_FILES
    flipped = _ray_up(move, player, inner, _S1) | _ray_down(move, player, inner, _S1)
    flipped |= _ray_up(move, player, opponent, _S8) | _ray_down(move, player, opponent, _S8)
    flipped |= _ray_up(move, player, inner, _S7) | _ray_down(move, player, inner, _S7)
    flipped |= _ray_up(move, player, inner, _S9) | _ray_down(move, player, inner, _S9)
    return flipped


@njit(cache=True)
def final_score(player, opponent):  # pragma: no cover - compiled
    """Disc difference for ``player`` at the end of the game, empty squares counted for the
    winner (World Othello Federation rule, Edax's convention)."""
    mine = count_discs(player)
    theirs = count_discs(opponent)
    empties = 64 - mine - theirs
    difference = mine - theirs
    if difference > 0:
        difference += empties
    elif difference < 0:
        difference -= empties
    return difference


@njit(cache=True)
def perft_bits(player, opponent, depth):  # pragma: no cover - compiled
    """Move sequences of ``depth`` plies: a forced pass is a ply, finished games before
    ``depth`` are not counted (the convention of OEIS A124004)."""
    if depth == 0:
        return np.int64(1)
    moves = legal_moves(player, opponent)
    if moves == _U0:
        if legal_moves(opponent, player) == _U0:
            return np.int64(0)
        return perft_bits(opponent, player, depth - 1)
    if depth == 1:
        return count_discs(moves)
    total = np.int64(0)
    while moves:
        move = moves & (~moves + _U1)
        moves ^= move
        flipped = flips(move, player, opponent)
        total += perft_bits(opponent & ~flipped, player | flipped | move, depth - 1)
    return total
