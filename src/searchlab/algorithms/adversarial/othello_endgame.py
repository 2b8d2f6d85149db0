"""Compiled exact Othello endgame solver: the final disc difference under perfect play.

The score of a position is the final disc count of the side to move minus the opponent's,
empty squares counted for the winner (World Othello Federation rule, the convention of Edax
and of the FFO test suite); it lies in ``-64..64`` and is even. The search is negamax
alpha-beta over the bitboards of :mod:`searchlab.domains.games._othello_bits`, in numba, as
a numbered recipe per node (:func:`_search_deep`):

1. count the node; past the node budget, raise the abort flag and unwind;
2. no legal move: pass (the opponent moves), or, when the opponent cannot move either, the
   game is over and the final score is exact;
3. few empties (``<= SHALLOW_EMPTIES``): hand over to :func:`_search_shallow`, which keeps no
   table and no sorting: it tries the squares of the regions (quadrants) with an odd number of
   empties first ("parity"), and :func:`_last_move` scores the last empty square directly;
4. transposition table lookup (positions with ``>= TABLE_EMPTIES`` empties): exact lower and
   upper bounds of the score narrow the window or answer at once; the stored best move is
   tried first;
5. move ordering, "fastest first": after each move, the opponent's mobility (corners counted
   twice), fewest first; corners before other squares;
6. principal variation search: the first move with the window ``(alpha, beta)``, the others
   with a null window ``(alpha, alpha + 1)``, searched again when they land inside;
7. store the bounds this search proved (intersected with those already stored) and the best
   move.

Bounds in the table are exact facts about a position (there is no depth), so one table serves
any number of solves. :func:`solve_endgame` (or :class:`EndgameSolver`, to keep the table)
returns a :class:`~searchlab.core.search_result.SearchResult` whose ``value`` is the score.

>>> from searchlab.domains.games.othello import Othello
>>> board = "OOOOOOOO" * 3 + "XXXXXXXX" * 4 + "XXXXXX--"
>>> result = solve_endgame(Othello().state_from_board(board, "O"))
>>> result.value, result.depth, result.is_proven
(0.0, 2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games._othello_bits import count_discs, final_score, flips, legal_moves
from searchlab.domains.games.othello import PASS, OthelloState

__all__ = [
    "SHALLOW_EMPTIES",
    "TABLE_EMPTIES",
    "EndgameSolver",
    "solve_endgame",
]

SHALLOW_EMPTIES = 6
"""Positions with at most this many empties are searched without table or sorting."""
TABLE_EMPTIES = 7
"""Positions with at least this many empties use the transposition table."""

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_CORNERS = np.uint64(0x8100000000000081)
_QUADRANTS = (
    np.uint64(0x000000000F0F0F0F),
    np.uint64(0x00000000F0F0F0F0),
    np.uint64(0x0F0F0F0F00000000),
    np.uint64(0xF0F0F0F000000000),
)
_Q0, _Q1, _Q2, _Q3 = _QUADRANTS
_HASH_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
_S29 = np.uint64(29)
_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)
_NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
_NODES, _BUDGET, _ABORTED = 0, 1, 2
_MAX_MOVES = 40  # the most legal moves known in an Othello position is 33


@njit(cache=True)
def _square_of(bit):  # pragma: no cover - compiled
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
def _last_move(player, opponent, square, stats):  # pragma: no cover - compiled
    """Score of a position with one empty ``square`` (a single bit)."""
    stats[_NODES] += 1
    turned = flips(square, player, opponent)
    if turned:
        return final_score(player | turned | square, opponent & ~turned)
    turned = flips(square, opponent, player)
    if turned:
        return -final_score(opponent | turned | square, player & ~turned)
    return final_score(player, opponent)


@njit(cache=True)
def _odd_regions(empty):  # pragma: no cover - compiled
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
def _search_shallow(player, opponent, alpha, beta, empties, stats):  # pragma: no cover
    """Fail-soft alpha-beta for few empties: parity order, no table, no sorting."""
    empty = ~(player | opponent)
    if empties == 1:
        return _last_move(player, opponent, empty, stats)
    stats[_NODES] += 1
    best = np.int64(-65)
    odd = _odd_regions(empty)
    for phase in range(2):
        squares = odd if phase == 0 else empty & ~odd
        while squares:
            square = squares & (~squares + _U1)
            squares ^= square
            turned = flips(square, player, opponent)
            if turned == _U0:
                continue
            score = -_search_shallow(
                opponent & ~turned, player | turned | square, -beta, -alpha, empties - 1, stats
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        return best
    if best == -65:  # no move: pass, or the game is over
        if legal_moves(opponent, player) == _U0:
            return final_score(player, opponent)
        return -_search_shallow(opponent, player, -beta, -alpha, empties, stats)
    return best


@njit(cache=True)
def _table_index(player, opponent, mask):  # pragma: no cover - compiled
    h = player * _HASH_A ^ opponent * _HASH_B
    return np.int64((h ^ (h >> _S29)) & mask)


@njit(cache=True)
def _search_deep(
    player,
    opponent,
    alpha,
    beta,
    stats,
    table_player,
    table_opponent,
    table_lower,
    table_upper,
    table_move,
    move_buffer,
    key_buffer,
):  # pragma: no cover - compiled
    """Fail-soft principal variation search with table and fastest-first ordering."""
    # Step 1. Count the node; stop past the budget.
    stats[_NODES] += 1
    if stats[_NODES] > stats[_BUDGET]:
        stats[_ABORTED] = 1
        return np.int64(0)
    empty = ~(player | opponent)
    empties = count_discs(empty)
    # Step 2. No move: pass or end.
    moves = legal_moves(player, opponent)
    if moves == _U0:
        if legal_moves(opponent, player) == _U0:
            return final_score(player, opponent)
        return -_search_deep(
            opponent,
            player,
            -beta,
            -alpha,
            stats,
            table_player,
            table_opponent,
            table_lower,
            table_upper,
            table_move,
            move_buffer,
            key_buffer,
        )
    # Step 3. Few empties.
    if empties <= SHALLOW_EMPTIES:
        stats[_NODES] -= 1  # the shallow search counts this node itself
        return _search_shallow(player, opponent, alpha, beta, empties, stats)
    # Step 4. Transposition table.
    use_table = empties >= TABLE_EMPTIES
    table_square = -1
    index = 0
    if use_table:
        index = _table_index(player, opponent, np.uint64(table_player.shape[0] - 1))
        if table_player[index] == player and table_opponent[index] == opponent:
            lower = np.int64(table_lower[index])
            upper = np.int64(table_upper[index])
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
            table_square = np.int64(table_move[index])
    # Step 5. Move ordering: fastest first (opponent mobility, corners twice), corners first;
    # a child whose stored upper bound already refutes this node cuts off at once (enhanced
    # transposition cutoff).
    count = 0
    probe_children = empties - 1 >= TABLE_EMPTIES
    mask = np.uint64(table_player.shape[0] - 1)
    while moves:
        square = moves & (~moves + _U1)
        moves ^= square
        turned = flips(square, player, opponent)
        child_player = opponent & ~turned
        child_opponent = player | turned | square
        if probe_children:
            child = _table_index(child_player, child_opponent, mask)
            if (
                table_player[child] == child_player
                and table_opponent[child] == child_opponent
                and -np.int64(table_upper[child]) >= beta
            ):
                return -np.int64(table_upper[child])
        reply = legal_moves(child_player, child_opponent)
        key = 16 * (count_discs(reply) + count_discs(reply & _CORNERS))
        key += 4 * count_discs(_neighbours(child_opponent) & empty & ~square)
        if square & _CORNERS:
            key -= 24
        if _square_of(square) == table_square:
            key = -1000
        move_buffer[empties, count] = square
        key_buffer[empties, count] = key
        count += 1
    # Step 6. Principal variation search (moves picked by selection sort).
    alpha_start = alpha
    best = np.int64(-65)
    best_square = -1
    for i in range(count):
        pick = i
        for j in range(i + 1, count):
            if key_buffer[empties, j] < key_buffer[empties, pick]:
                pick = j
        square = move_buffer[empties, pick]
        move_buffer[empties, pick] = move_buffer[empties, i]
        key_buffer[empties, pick] = key_buffer[empties, i]
        turned = flips(square, player, opponent)
        child_player = opponent & ~turned
        child_opponent = player | turned | square
        if i == 0:
            score = -_search_deep(
                child_player,
                child_opponent,
                -beta,
                -alpha,
                stats,
                table_player,
                table_opponent,
                table_lower,
                table_upper,
                table_move,
                move_buffer,
                key_buffer,
            )
        else:
            score = -_search_deep(
                child_player,
                child_opponent,
                -alpha - 1,
                -alpha,
                stats,
                table_player,
                table_opponent,
                table_lower,
                table_upper,
                table_move,
                move_buffer,
                key_buffer,
            )
            if alpha < score < beta:
                score = -_search_deep(
                    child_player,
                    child_opponent,
                    -beta,
                    -score,
                    stats,
                    table_player,
                    table_opponent,
                    table_lower,
                    table_upper,
                    table_move,
                    move_buffer,
                    key_buffer,
                )
        if stats[_ABORTED]:
            return np.int64(0)
        if score > best:
            best = score
            best_square = _square_of(square)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    # Step 7. Store the proven bounds.
    if use_table:
        lower = np.int64(-64)
        upper = np.int64(64)
        if best <= alpha_start:
            upper = best
        elif best >= beta:
            lower = best
        else:
            lower = best
            upper = best
        if table_player[index] == player and table_opponent[index] == opponent:
            lower = max(lower, np.int64(table_lower[index]))
            upper = min(upper, np.int64(table_upper[index]))
        table_player[index] = player
        table_opponent[index] = opponent
        table_lower[index] = lower
        table_upper[index] = upper
        table_move[index] = best_square
    return best


@dataclass(frozen=True, slots=True)
class _Ordered:
    action: int
    child_player: int
    child_opponent: int
    key: int


class EndgameSolver:
    """An exact endgame solver with its own transposition table (``2**table_bits`` entries,
    about 19 bytes each), kept between solves.

    >>> from searchlab.domains.games.othello import Othello
    >>> solver = EndgameSolver(table_bits=10)
    >>> state = Othello().state_from_board("X" * 60 + "O---", "O")
    >>> result = solver.solve(state, move_scores=True)
    >>> result.value, result.stats["move_scores"]   # O must pass; X takes f8
    (-64.0, {64: -64})
    """

    def __init__(self, *, table_bits: int = 20) -> None:
        if isinstance(table_bits, bool) or not isinstance(table_bits, int):
            raise InvalidParameterError(f"table_bits must be an integer, got {table_bits!r}")
        if not 4 <= table_bits <= 28:
            raise InvalidParameterError(f"table_bits must be in 4..28, got {table_bits}")
        size = 1 << table_bits
        self.table_player = np.zeros(size, dtype=np.uint64)
        self.table_opponent = np.zeros(size, dtype=np.uint64)
        self.table_lower = np.zeros(size, dtype=np.int8)
        self.table_upper = np.zeros(size, dtype=np.int8)
        self.table_move = np.zeros(size, dtype=np.int8)
        self.move_buffer = np.zeros((65, _MAX_MOVES), dtype=np.uint64)
        self.key_buffer = np.zeros((65, _MAX_MOVES), dtype=np.int64)
        for array in (self.table_player, self.table_opponent):
            array.fill(0)  # touch the pages now, not inside the first timed solve

    def score(self, player: int, opponent: int, alpha: int, beta: int, stats: np.ndarray) -> int:
        """Fail-soft score of ``(player, opponent)`` (bitboards, side to move first) within
        ``(alpha, beta)``; ``stats`` is ``[nodes, node budget, aborted]`` (int64)."""
        return int(
            _search_deep(
                np.uint64(player),
                np.uint64(opponent),
                np.int64(alpha),
                np.int64(beta),
                stats,
                self.table_player,
                self.table_opponent,
                self.table_lower,
                self.table_upper,
                self.table_move,
                self.move_buffer,
                self.key_buffer,
            )
        )

    def solve(
        self, state: OthelloState, *, limits: Limits | None = None, move_scores: bool = False
    ) -> SearchResult:
        """The exact score of ``state`` for the side to move and a best move.

        With ``move_scores``, ``stats["move_scores"]`` maps every legal action to its exact
        score (the score after it, seen by the mover). ``limits.nodes`` caps the search: a
        search stopped by it has ``stopped_by == "nodes"``, ``is_proven`` False and the score
        of the moves finished so far (``action`` may then be ``None``). ``limits.time`` is
        not supported by the compiled kernel (it cannot read the clock): use ``nodes``.
        """
        limits = limits or Limits()
        if limits.time is not None:
            raise InvalidParameterError(
                "the Othello endgame solver takes a node limit, not a time limit "
                f"(got Limits.time={limits.time!r}); use Limits(nodes=...)"
            )
        budget = limits.nodes if limits.nodes is not None else np.iinfo(np.int64).max
        stats = np.array([0, budget, 0], dtype=np.int64)
        start = time.perf_counter()
        empties = state.empties()
        if state.is_terminal():
            return SearchResult(
                action=None,
                value=float(state.score()),
                nodes=1,
                depth=0,
                elapsed=time.perf_counter() - start,
                is_proven=True,
                plies_to_end=0,
                algorithm="othello_endgame",
                tier="compiled",
                stats={"score": state.score(), "empties": empties},
            )
        best, action, scores = self._root(state, stats, move_scores)
        aborted = bool(stats[_ABORTED])
        extra: dict[str, object] = {"score": best, "empties": empties}
        if move_scores:
            extra["move_scores"] = scores
        return SearchResult(
            action=action,
            value=float(best),
            principal_variation=(action,) if action is not None else (),
            nodes=int(stats[_NODES]),
            depth=empties,
            elapsed=time.perf_counter() - start,
            is_proven=not aborted,
            stopped_by="nodes" if aborted else None,
            algorithm="othello_endgame",
            tier="compiled",
            stats=extra,
        )

    def _root(
        self, state: OthelloState, stats: np.ndarray, move_scores: bool
    ) -> tuple[int, int | None, dict[int, int]]:
        """Principal variation search over the root moves (ordered like the kernel's)."""
        children = sorted(_ordered_children(state), key=lambda child: child.key)
        best, action, alpha, beta = -65, None, -64, 64
        scores: dict[int, int] = {}
        for index, child in enumerate(children):
            mine, theirs = child.child_player, child.child_opponent
            if move_scores:
                score = -self.score(mine, theirs, -64, 64, stats)
            elif index == 0:
                score = -self.score(mine, theirs, -beta, -alpha, stats)
            else:
                score = -self.score(mine, theirs, -alpha - 1, -alpha, stats)
                if alpha < score < beta:
                    score = -self.score(mine, theirs, -beta, -score, stats)
            if stats[_ABORTED]:
                break
            scores[child.action] = score
            if score > best:
                best, action = score, child.action
                alpha = max(alpha, score)
        return best, action, scores


def _ordered_children(state: OthelloState) -> list[_Ordered]:
    """Root moves with the positions after them (side to move first) and the kernel's key."""
    mine, theirs = state.mover_bits()
    children = []
    for action in state.legal_actions():
        if action == PASS:
            children.append(_Ordered(PASS, theirs, mine, 0))
            continue
        bit = 1 << action
        turned = int(flips(np.uint64(bit), np.uint64(mine), np.uint64(theirs)))
        child_player, child_opponent = theirs & ~turned, mine | turned | bit
        reply = int(legal_moves(np.uint64(child_player), np.uint64(child_opponent)))
        key = 16 * (reply.bit_count() + (reply & int(_CORNERS)).bit_count())
        key -= 24 if bit & int(_CORNERS) else 0
        children.append(_Ordered(action, child_player, child_opponent, key))
    return children


def solve_endgame(
    state: OthelloState,
    *,
    limits: Limits | None = None,
    move_scores: bool = False,
    table_bits: int = 20,
) -> SearchResult:
    """Solve ``state`` exactly with a fresh :class:`EndgameSolver` (see
    :meth:`EndgameSolver.solve`)."""
    return EndgameSolver(table_bits=table_bits).solve(state, limits=limits, move_scores=move_scores)
