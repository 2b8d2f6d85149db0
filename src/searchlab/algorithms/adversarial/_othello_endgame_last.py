"""The last few empties of the exact Othello endgame solver: where most of its nodes are.

With good move ordering most nodes of an endgame tree lie within four empties of the end
(about 80% of them on FFO #37, 22 empties), so these kernels keep no table and sort nothing:

* :func:`search_shallow` (5 to ``SHALLOW_EMPTIES`` empties) generates the moves and tries
  those in the quadrants holding an odd number of empties first ("parity": the last move in
  a region is an advantage), and within each group corners first and X squares last (taking
  the moves from the generator rather than trying every empty square: 14% less time on
  FFO #33, #37, #41);
* :func:`solve_4` and :func:`solve_3` try each empty square in turn (a square that turns
  nothing is not a move), in the same order, sorted again after each move; a stability
  cutoff is tried at 4 empties as in the deeper search;
* :func:`solve_2` plays out two empties directly, and :func:`score_last` scores the last
  empty square: the mover takes it, else the opponent does, else the game ends.

Scores are fail-soft within ``(alpha, beta)``; ``stats[NODES]`` counts every position visited
(a position with one empty square included).

>>> import numpy as np
>>> board = 0x7FFFFFFFFFFFFFFF   # every square but h8 held: X on a1..g8, O on h7
>>> player, opponent = np.uint64(board & ~(1 << 55)), np.uint64(1 << 55)
>>> stats = np.zeros(3, dtype=np.int64)
>>> int(score_last(player, opponent, 63, stats))   # X plays h8, turning h7: 64-0
64
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.adversarial._othello_endgame_flips import flips_at, moves_at
from searchlab.algorithms.adversarial._othello_endgame_order import odd_regions, square_of
from searchlab.algorithms.adversarial._othello_endgame_stability import (
    STABILITY_THRESHOLD,
    stable_count,
)
from searchlab.domains.games.othello.bits import count_discs, final_score

__all__ = ["play_bit", "score_last", "search_few", "search_shallow", "solve_2"]

NODES = 0
_U0, _U1 = (np.uint64(n) for n in (0, 1))
# squares in the order tried inside a parity group: corners, then edges and the centre
# (A and B squares and the inner ones), then C squares, X squares last
_SQUARE_CLASSES = (
    np.uint64(0x8100000000000081),
    np.uint64(0x3C3CFFFFFFFF3C3C) & ~np.uint64(0x0042000000004200),
    np.uint64(0x4281000000008142),
    np.uint64(0x0042000000004200),
)


@njit(cache=True)
def score_last(player, opponent, square, stats):  # pragma: no cover - compiled
    """Final score for ``player`` of a position whose one empty square has index ``square``."""
    stats[NODES] += 1
    turned = flips_at(square, player, opponent)
    if turned:
        return 2 * count_discs(player | turned) - 62  # the mover's discs, the square too
    turned = flips_at(square, opponent, player)
    if turned:
        return 62 - 2 * count_discs(opponent | turned)
    return final_score(player, opponent)


@njit(cache=True)
def solve_2(player, opponent, alpha, beta, first, second, stats):  # pragma: no cover
    """Score of a position whose two empty squares have indices ``first`` and ``second``."""
    stats[NODES] += 1
    best = np.int64(-65)
    turned = flips_at(first, player, opponent)
    if turned:
        best = -score_last(opponent & ~turned, player | turned | (_U1 << first), second, stats)
        if best >= beta:
            return best
    turned = flips_at(second, player, opponent)
    if turned:
        score = -score_last(opponent & ~turned, player | turned | (_U1 << second), first, stats)
        if score > best:
            best = score
    if best > -65:
        return best
    # the player passes: the opponent moves, minimising the player's score
    worst = np.int64(65)
    turned = flips_at(first, opponent, player)
    if turned:
        worst = score_last(player & ~turned, opponent | turned | (_U1 << first), second, stats)
        if worst <= alpha:
            return worst
    turned = flips_at(second, opponent, player)
    if turned:
        score = score_last(player & ~turned, opponent | turned | (_U1 << second), first, stats)
        if score < worst:
            worst = score
    if worst < 65:
        return worst
    return final_score(player, opponent)


@njit(cache=True)
def play_bit(bit, player, opponent):  # pragma: no cover - compiled
    """The position after ``player`` plays the legal move ``bit`` (one square, as a bit board),
    the opponent to move: ``(opponent's discs, player's discs)``."""
    turned = flips_at(square_of(bit), player, opponent)
    return opponent & ~turned, player | turned | bit


@njit(cache=True)
def _after(square, turned, player, opponent):  # pragma: no cover - compiled
    """The position after ``player`` plays ``square`` turning ``turned``, the opponent to move."""
    return opponent & ~turned, player | turned | (_U1 << np.uint64(square))


@njit(cache=True)
def solve_3(player, opponent, alpha, beta, first, second, third, stats):  # pragma: no cover
    """Score of a position with the three empty squares ``first``, ``second``, ``third``,
    tried in that order."""
    stats[NODES] += 1
    sign = 1
    for _ in range(2):  # the player, then (after a pass) the opponent, looks for a move
        best = np.int64(-65)
        for index in range(3):
            if index == 0:
                square, rest_1, rest_2 = first, second, third
            elif index == 1:
                square, rest_1, rest_2 = second, first, third
            else:
                square, rest_1, rest_2 = third, first, second
            turned = flips_at(square, player, opponent)
            if turned:
                mine, theirs = _after(square, turned, player, opponent)
                score = -solve_2(mine, theirs, -beta, -alpha, rest_1, rest_2, stats)
                if score > best:
                    best = score
                    if score >= beta:
                        return sign * best
                    alpha = max(alpha, best)
        if best > -65:
            return sign * best
        player, opponent, alpha, beta, sign = opponent, player, -beta, -alpha, -sign
    return final_score(player, opponent)  # neither side can move: the game is over


@njit(cache=True)
def _order(empty):  # pragma: no cover - compiled
    """The empty squares, 6 bits each from the lowest bits up, in the order to try them: odd
    quadrants first, by square class (corners first, X squares last) within each."""
    odd = odd_regions(empty)
    packed = np.int64(0)
    shift = np.int64(0)
    for group in range(8):
        parity = odd if group < 4 else empty & ~odd
        squares = parity & _SQUARE_CLASSES[group & 3]
        while squares:
            bit = squares & (~squares + _U1)
            squares ^= bit
            packed |= square_of(bit) << shift
            shift += 6
    return packed


@njit(cache=True)
def solve_4(player, opponent, alpha, beta, order, stats, edge_table):  # pragma: no cover
    """Score of a position with four empty squares, tried in the packed ``order`` (see
    :func:`_order`); the three left after each move are ordered again."""
    stats[NODES] += 1
    if alpha >= STABILITY_THRESHOLD[4]:
        upper = 64 - 2 * stable_count(opponent, player, edge_table)
        if upper <= alpha:
            return upper
    sign = 1
    for _ in range(2):  # the player, then (after a pass) the opponent, looks for a move
        best = np.int64(-65)
        for index in range(4):
            square = (order >> (6 * index)) & 63
            turned = flips_at(square, player, opponent)
            if turned:
                mine, theirs = _after(square, turned, player, opponent)
                rest = _order(~(mine | theirs))
                first, second, third = rest & 63, (rest >> 6) & 63, (rest >> 12) & 63
                score = -solve_3(mine, theirs, -beta, -alpha, first, second, third, stats)
                if score > best:
                    best = score
                    if score >= beta:
                        return sign * best
                    alpha = max(alpha, best)
        if best > -65:
            return sign * best
        player, opponent, alpha, beta, sign = opponent, player, -beta, -alpha, -sign
    return final_score(player, opponent)  # neither side can move: the game is over


@njit(cache=True)
def search_shallow(player, opponent, alpha, beta, empties, stats, edge_table):  # pragma: no cover
    """Fail-soft alpha-beta of a position with ``empties`` (at least 5) empty squares."""
    stats[NODES] += 1
    if alpha >= STABILITY_THRESHOLD[empties]:
        upper = 64 - 2 * stable_count(opponent, player, edge_table)
        if upper <= alpha:
            return upper
    moves = moves_at(player, opponent)
    if moves == _U0:  # no move: pass, or the game is over
        if moves_at(opponent, player) == _U0:
            return final_score(player, opponent)
        stats[NODES] -= 1  # the pass is not a position of its own
        return -search_shallow(opponent, player, -beta, -alpha, empties, stats, edge_table)
    empty = ~(player | opponent)
    best = np.int64(-65)
    odd = odd_regions(empty)
    for group in range(8):
        parity = odd if group < 4 else empty & ~odd
        squares = parity & moves & _SQUARE_CLASSES[group & 3]
        while squares:
            bit = squares & (~squares + _U1)
            squares ^= bit
            child_player, child_opponent = play_bit(bit, player, opponent)
            if empties == 5:
                score = -solve_4(
                    child_player,
                    child_opponent,
                    -beta,
                    -alpha,
                    _order(empty ^ bit),
                    stats,
                    edge_table,
                )
            else:
                score = -search_shallow(
                    child_player, child_opponent, -beta, -alpha, empties - 1, stats, edge_table
                )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        return best
    return best


@njit(cache=True)
def search_few(player, opponent, alpha, beta, empties, stats, edge_table):  # pragma: no cover
    """The kernel of this module for ``empties`` (0 to any) empty squares."""
    if empties >= 5:
        return search_shallow(player, opponent, alpha, beta, empties, stats, edge_table)
    empty = ~(player | opponent)
    if empties == 4:
        return solve_4(player, opponent, alpha, beta, _order(empty), stats, edge_table)
    if empties == 3:
        order = _order(empty)
        first, second, third = order & 63, (order >> 6) & 63, (order >> 12) & 63
        return solve_3(player, opponent, alpha, beta, first, second, third, stats)
    if empties == 2:
        low = empty & (~empty + _U1)
        return solve_2(player, opponent, alpha, beta, square_of(low), square_of(empty ^ low), stats)
    if empties == 1:
        return score_last(player, opponent, square_of(empty), stats)
    stats[NODES] += 1
    return final_score(player, opponent)
