"""Move ordering for the exact Othello endgame solver: which move to search first.

An endgame search is fastest when the move that refutes a node is tried first. Two keys,
higher first, both after Edax's:

* :func:`fast_key`, "fastest first", at most nodes: few replies for the opponent (corners
  counted twice), then the mover's stable corner discs, then few empty squares next to the
  mover's discs (the opponent's potential mobility), then parity (a square in a quadrant
  with an odd number of empties), then the square's value; a wipeout first of all;
* :func:`deep_key`, near the root: the fast key plus the value of a shallow alpha-beta
  search (:func:`shallow_value`) of a small evaluation (:func:`evaluate`: mobility,
  potential mobility and stable corner discs of both sides), where a wrong first move costs
  the most.

>>> import numpy as np
>>> black = np.uint64((1 << 28) | (1 << 35))   # e4, d5
>>> white = np.uint64((1 << 27) | (1 << 36))   # d4, e5
>>> int(evaluate(black, white))   # the start position is symmetric
0
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.domains.games.othello.bits import count_discs, final_score, flips, legal_moves

__all__ = ["deep_key", "evaluate", "fast_key", "odd_regions", "shallow_value", "square_of"]

_U0, _U1, _S1, _S7, _S8, _S9 = (np.uint64(n) for n in (0, 1, 1, 7, 8, 9))
_CORNERS = np.uint64(0x8100000000000081)
_NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
_Q0 = np.uint64(0x000000000F0F0F0F)
_Q1 = np.uint64(0x00000000F0F0F0F0)
_Q2 = np.uint64(0x0F0F0F0F00000000)
_Q3 = np.uint64(0xF0F0F0F000000000)
_WIPEOUT_KEY = np.int64(1 << 40)
# square values (Edax's, after J.-C. Weill) as the last tie-break
_SQUARE_VALUE = np.array(
    [
        18, 4, 16, 12, 12, 16, 4, 18,
        4, 2, 6, 8, 8, 6, 2, 4,
        16, 6, 14, 10, 10, 14, 6, 16,
        12, 8, 10, 0, 0, 10, 8, 12,
        12, 8, 10, 0, 0, 10, 8, 12,
        16, 6, 14, 10, 10, 14, 6, 16,
        4, 2, 6, 8, 8, 6, 2, 4,
        18, 4, 16, 12, 12, 16, 4, 18,
    ],
    dtype=np.int64,
)  # fmt: skip
_EVAL_WIN = np.int64(1 << 12)  # a finished game in :func:`shallow_value`, above any estimate


@njit(cache=True)
def square_of(bit):  # pragma: no cover - compiled
    """Index of a single-bit square."""
    return count_discs(bit - _U1)


@njit(cache=True)
def _neighbours(bits):  # pragma: no cover - compiled
    """Squares next to a disc of ``bits`` in any of the eight directions."""
    side = bits & _NOT_A_FILE
    east = bits & _NOT_H_FILE
    around = (east << _S1) | (side >> _S1) | (bits << _S8) | (bits >> _S8)
    around |= (east << _S9) | (side << _S7) | (east >> _S7) | (side >> _S9)
    return around


@njit(cache=True)
def _corner_stability(bits):  # pragma: no cover - compiled
    """Corners of ``bits`` and their edge neighbours held too (cheap stable discs)."""
    near = ((bits & np.uint64(0x0100000000000001)) << _S1) | (
        (bits & np.uint64(0x8000000000000080)) >> _S1
    )
    near |= ((bits & np.uint64(0x0000000000000081)) << _S8) | (
        (bits & np.uint64(0x8100000000000000)) >> _S8
    )
    return count_discs((near | _CORNERS) & bits)


@njit(cache=True)
def odd_regions(empty):  # pragma: no cover - compiled
    """Empty squares lying in quadrants with an odd number of empties."""
    odd = _U0
    if count_discs(empty & _Q0) & 1:
        odd |= _Q0
    if count_discs(empty & _Q1) & 1:
        odd |= _Q1
    if count_discs(empty & _Q2) & 1:
        odd |= _Q2
    if count_discs(empty & _Q3) & 1:
        odd |= _Q3
    return empty & odd


@njit(cache=True)
def fast_key(square, child_player, child_opponent, odd):  # pragma: no cover - compiled
    """Key of the move ``square`` leading to ``(child_player, child_opponent)`` (the
    opponent to move), higher first; ``odd`` is :func:`odd_regions` before the move."""
    if child_player == _U0:
        return _WIPEOUT_KEY
    reply = legal_moves(child_player, child_opponent)
    empty = ~(child_player | child_opponent)
    key = (36 - count_discs(reply) - count_discs(reply & _CORNERS)) << 15
    key += _corner_stability(child_opponent) << 11
    key += (36 - count_discs(_neighbours(child_opponent) & empty)) << 5
    if square & odd:
        key += 1 << 3
    return key + _SQUARE_VALUE[square_of(square)]


@njit(cache=True)
def evaluate(player, opponent):  # pragma: no cover - compiled
    """A small estimate of the position for the side to move (antisymmetric): weighted
    mobility (corners twice), potential mobility and stable corner discs, both sides."""
    empty = ~(player | opponent)
    mine = legal_moves(player, opponent)
    theirs = legal_moves(opponent, player)
    score = 4 * (count_discs(mine) + count_discs(mine & _CORNERS))
    score -= 4 * (count_discs(theirs) + count_discs(theirs & _CORNERS))
    score += count_discs(_neighbours(opponent) & empty) - count_discs(_neighbours(player) & empty)
    score += 8 * (_corner_stability(player) - _corner_stability(opponent))
    return score


@njit(cache=True)
def shallow_value(player, opponent, alpha, beta, depth, stats):  # pragma: no cover - compiled
    """Fail-soft alpha-beta of :func:`evaluate` to ``depth`` plies (a pass is a ply); a
    finished game scores its disc difference times a large weight; ``stats[0]`` counts the
    positions visited."""
    stats[0] += 1
    if depth == 0:
        return evaluate(player, opponent)
    moves = legal_moves(player, opponent)
    if moves == _U0:
        if legal_moves(opponent, player) == _U0:
            return final_score(player, opponent) * _EVAL_WIN
        return -shallow_value(opponent, player, -beta, -alpha, depth - 1, stats)
    best = -_EVAL_WIN * 65
    while moves:
        square = moves & (~moves + _U1)
        moves ^= square
        turned = flips(square, player, opponent)
        score = -shallow_value(
            opponent & ~turned, player | turned | square, -beta, -alpha, depth - 1, stats
        )
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def deep_key(
    square, child_player, child_opponent, odd, depth, stats
):  # pragma: no cover - compiled
    """:func:`fast_key` plus the :func:`shallow_value` of the move searched ``depth`` plies."""
    key = fast_key(square, child_player, child_opponent, odd)
    if child_player == _U0:
        return key
    value = -shallow_value(
        child_player, child_opponent, -_EVAL_WIN * 65, _EVAL_WIN * 65, depth, stats
    )
    return key + (value << 13)
