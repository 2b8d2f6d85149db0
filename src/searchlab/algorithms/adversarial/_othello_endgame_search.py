"""The numba kernels of the exact Othello endgame solver (see :mod:`.othello_endgame`).

A search is fail-soft negamax alpha-beta on two ``uint64`` bitboards (side to move first),
scoring the final disc difference with empties to the winner. The state it shares across
calls is one tuple
``context = (stats, table, move_buffer, key_buffer, edge_table, sort_depths)``:

* ``stats`` (``int64[3]``): nodes visited, the node budget, and an abort flag raised past it;
* ``table`` (``uint64[size, 3]``): the transposition table, buckets of two entries
  ``(player, opponent, data)``; ``data`` packs the lower bound + 64, the upper bound + 64, the
  best square (64 = none) and the empties, a byte each (:func:`pack_entry`);
* ``move_buffer`` (``uint64[65, 40, 3]``), ``key_buffer`` (``int64[65, 40]``): the moves of
  each node (the square and the position after it) and their ordering keys, one row per
  number of empties (a pass keeps the row, as it has no moves to sort);
* ``edge_table``: :func:`~._othello_endgame_stability.edge_stability_table`;
* ``sort_depths`` (``int64[65]``): by empties, the depth of the shallow search that orders
  the moves (:func:`~._othello_endgame_order.deep_key`), or -1 for the fast key alone.

>>> import numpy as np
>>> entry = pack_entry(np.int64(-2), np.int64(4), np.int64(19), np.int64(22))
>>> [int(x) for x in unpack_entry(entry)]
[-2, 4, 19, 22]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.algorithms.adversarial._othello_endgame_flips import moves_at
from searchlab.algorithms.adversarial._othello_endgame_last import play_bit, search_few
from searchlab.algorithms.adversarial._othello_endgame_order import (
    deep_key,
    fast_key,
    odd_regions,
    square_of,
)
from searchlab.algorithms.adversarial._othello_endgame_stability import (
    STABILITY_THRESHOLD,
    stable_count,
)
from searchlab.domains.games.othello.bits import final_score

__all__ = [
    "ABORTED",
    "BUDGET",
    "MAX_MOVES",
    "NODES",
    "SHALLOW_EMPTIES",
    "TABLE_EMPTIES",
    "pack_entry",
    "probe",
    "search",
    "unpack_entry",
]

NODES, BUDGET, ABORTED = 0, 1, 2
MAX_MOVES = 40  # the most legal moves known in an Othello position is 33
SHALLOW_EMPTIES = 7
"""Positions with at most this many empties are searched without table or sorting."""
TABLE_EMPTIES = 8
"""Positions with at least this many empties use the transposition table. Measured (CPU
seconds, the least of 2-3 runs, FFO #33, #37, #41 / #43, #47): shallow search to 7 empties and
table from 8, 5.0 / 12.0; to 6 and from 7, 5.2 / 13.6; to 6 and from 8, 5.4 / 12.4."""
ETC_EMPTIES = 12
DEFER_EMPTIES = 12
"""With helper threads, positions with at least this many empties defer the younger moves
that another thread is searching (ABDADA)."""
"""Positions with at least this many empties look up their children in the table before
searching them (enhanced transposition cutoff); below, the lookups cost more than they save."""

_U0, _U1, _S8, _S16, _S24, _S29 = (np.uint64(n) for n in (0, 1, 8, 16, 24, 29))
_BYTE = np.uint64(0xFF)
_NO_SQUARE = 64
_HASH_A = np.uint64(0x9E3779B97F4A7C15)
_HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
_TABLE_MOVE_KEY = np.int64(1 << 50)
_DEFERRED = np.int64(-(1 << 60))


@njit(cache=True)
def pack_entry(lower, upper, square, empties):  # pragma: no cover - compiled
    """The ``data`` word of a table entry."""
    return (
        np.uint64(lower + 64)
        | (np.uint64(upper + 64) << _S8)
        | (np.uint64(square) << _S16)
        | (np.uint64(empties) << _S24)
    )


@njit(cache=True)
def unpack_entry(data):  # pragma: no cover - compiled
    """``(lower, upper, square, empties)`` of a ``data`` word."""
    lower = np.int64(data & _BYTE) - 64
    upper = np.int64((data >> _S8) & _BYTE) - 64
    square = np.int64((data >> _S16) & _BYTE)
    empties = np.int64((data >> _S24) & _BYTE)
    return lower, upper, square, empties


@njit(cache=True)
def _bucket(player, opponent, size):  # pragma: no cover - compiled
    h = player * _HASH_A ^ opponent * _HASH_B
    return np.int64((h ^ (h >> _S29)) & np.uint64(size - 2))


@njit(cache=True)
def _matches(table, row, player, opponent):  # pragma: no cover - compiled
    """The ``data`` word of ``row`` when it holds the position, else 0: the keys are stored
    xor-ed with the data (lockless hashing), so an entry torn by a concurrent write of another
    thread fails the test instead of lending its bounds to the wrong position."""
    data = table[row, 2]
    if table[row, 0] ^ data == player and table[row, 1] ^ data == opponent:
        return data
    return _U0


@njit(cache=True)
def lookup(table, player, opponent):  # pragma: no cover - compiled
    """The ``data`` word of the position's entry, or 0 (a stored entry is never 0: its
    empties are at least ``TABLE_EMPTIES``)."""
    row = _bucket(player, opponent, table.shape[0])
    data = _matches(table, row, player, opponent)
    if data != _U0:
        return data
    return _matches(table, row + 1, player, opponent)


@njit(cache=True)
def probe(table, player, opponent):  # pragma: no cover - compiled
    """Row of the entry of the position, or -1."""
    row = _bucket(player, opponent, table.shape[0])
    if _matches(table, row, player, opponent) != _U0:
        return row
    if _matches(table, row + 1, player, opponent) != _U0:
        return row + 1
    return -1


@njit(cache=True)
def _write(table, slot, player, opponent, data):  # pragma: no cover - compiled
    table[slot, 2] = data
    table[slot, 0] = player ^ data
    table[slot, 1] = opponent ^ data


@njit(cache=True)
def _store(table, player, opponent, lower, upper, square, empties):  # pragma: no cover
    """Keep the bounds proved for a position (met with those known); the bucket keeps the
    deeper of its two entries in its first slot and lets the newest evict the second."""
    row = _bucket(player, opponent, table.shape[0])
    for slot in (row, row + 1):
        data = _matches(table, slot, player, opponent)
        if data != _U0:
            old_lower, old_upper, _, _ = unpack_entry(data)
            lower = max(lower, old_lower)
            upper = min(upper, old_upper)
            _write(table, slot, player, opponent, pack_entry(lower, upper, square, empties))
            return
    first = table[row, 2]
    first_empties = np.int64((first >> _S24) & _BYTE)
    if empties >= first_empties:
        table[row + 1, 0] = table[row, 0]
        table[row + 1, 1] = table[row, 1]
        table[row + 1, 2] = first
        slot = row
    else:
        slot = row + 1
    _write(table, slot, player, opponent, pack_entry(lower, upper, square, empties))


@njit(cache=True)
def _busy_key(player, opponent):  # pragma: no cover - compiled
    """A nonzero 64-bit key of a position for the ``busy`` array."""
    h = player * _HASH_B ^ opponent * _HASH_A
    return (h ^ (h >> _S29)) | _U1


@njit(cache=True, nogil=True)
def search(player, opponent, alpha, beta, empties, context):  # pragma: no cover - compiled
    """Fail-soft principal variation search of ``(player, opponent)`` with ``empties`` empty
    squares within ``(alpha, beta)``; 0 once ``stats[ABORTED]`` is raised."""
    stats, table, move_buffer, key_buffer, edge_table, sort_depths, busy = context
    # Step 1. Count the node; stop past the budget.
    stats[NODES] += 1
    if stats[NODES] > stats[BUDGET]:
        stats[ABORTED] = 1
        return np.int64(0)
    # Step 2. Few empties: no table, no sorting.
    if empties <= SHALLOW_EMPTIES:
        stats[NODES] -= 1  # the shallow search counts this node itself
        return search_few(player, opponent, alpha, beta, empties, stats, edge_table)
    # Step 3. No move: pass, or the game is over.
    moves = moves_at(player, opponent)
    if moves == _U0:
        if moves_at(opponent, player) == _U0:
            return final_score(player, opponent)
        stats[NODES] -= 1  # the pass is not a node of its own
        return -search(opponent, player, -beta, -alpha, empties, context)
    # Step 4. Stability cutoff: the opponent's stable discs bound the score from above.
    if alpha >= STABILITY_THRESHOLD[empties]:
        upper = 64 - 2 * stable_count(opponent, player, edge_table)
        if upper <= alpha:
            return upper
        if upper < beta:
            beta = upper
    # Step 5. Transposition table: bounds narrow the window or answer; its move first.
    use_table = empties >= TABLE_EMPTIES
    table_square = _NO_SQUARE
    if use_table:
        data = lookup(table, player, opponent)
        if data != _U0:
            lower, upper, table_square, _ = unpack_entry(data)
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    # Step 6. Move ordering (fast_key, or deep_key near the root); a child whose stored bound
    # already refutes this node cuts off at once (enhanced transposition cutoff).
    probe_children = empties >= ETC_EMPTIES
    odd = odd_regions(~(player | opponent))
    sort_depth = sort_depths[empties]
    known_best = np.int64(-65)  # the best upper bound of the moves skipped as failing low
    count = 0
    while moves:
        square = moves & (~moves + _U1)
        moves ^= square
        child_player, child_opponent = play_bit(square, player, opponent)
        if probe_children:
            child = lookup(table, child_player, child_opponent)
            if child != _U0:
                child_upper = np.int64((child >> _S8) & _BYTE) - 64
                if -child_upper >= beta:
                    return -child_upper
                child_lower = np.int64(child & _BYTE) - 64
                if -child_lower <= alpha:  # the move is known to fail low: not searched
                    if -child_lower > known_best:
                        known_best = -child_lower
                    continue
        if square_of(square) == table_square:
            key = _TABLE_MOVE_KEY
        elif sort_depth < 0:
            key = fast_key(square, child_player, child_opponent, odd)
        else:
            key = deep_key(square, child_player, child_opponent, odd, sort_depth, stats)
        move_buffer[empties, count, 0] = square
        move_buffer[empties, count, 1] = child_player
        move_buffer[empties, count, 2] = child_opponent
        key_buffer[empties, count] = key
        count += 1
    # Step 7. Principal variation search, best key first (selection sort). With helper
    # threads (``busy`` longer than 1), a younger move that another thread is searching now is
    # deferred to the end (ABDADA), so that the threads spread over the moves.
    alpha_start = alpha
    best = known_best
    best_square = _NO_SQUARE
    may_defer = busy.shape[0] > 1 and empties >= DEFER_EMPTIES
    deferred = 0
    for i in range(count):
        pick = i
        for j in range(i + 1, count):
            if key_buffer[empties, j] > key_buffer[empties, pick]:
                pick = j
        square = move_buffer[empties, pick, 0]
        child_player = move_buffer[empties, pick, 1]
        child_opponent = move_buffer[empties, pick, 2]
        for field in range(3):
            move_buffer[empties, pick, field] = move_buffer[empties, i, field]
        key_buffer[empties, pick] = key_buffer[empties, i]
        if may_defer:  # keep the move at its place, for the deferred pass
            move_buffer[empties, i, 0] = square
            move_buffer[empties, i, 1] = child_player
            move_buffer[empties, i, 2] = child_opponent
            key_buffer[empties, i] = 0
        if i == 0:
            score = -search(child_player, child_opponent, -beta, -alpha, empties - 1, context)
        else:
            mark = _U0
            slot = 0
            if may_defer:
                mark = _busy_key(child_player, child_opponent)
                slot = np.int64(mark & np.uint64(busy.shape[0] - 1))
                if busy[slot] == mark:
                    key_buffer[empties, i] = _DEFERRED
                    deferred += 1
                    continue
                busy[slot] = mark
            score = -search(child_player, child_opponent, -alpha - 1, -alpha, empties - 1, context)
            if alpha < score < beta:
                score = -search(child_player, child_opponent, -beta, -score, empties - 1, context)
            if may_defer and busy[slot] == mark:
                busy[slot] = _U0
        if stats[ABORTED]:
            return np.int64(0)
        if score > best:
            best = score
            best_square = square_of(square)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    if deferred and alpha < beta:
        for i in range(count):
            if key_buffer[empties, i] != _DEFERRED:
                continue
            square = move_buffer[empties, i, 0]
            child_player = move_buffer[empties, i, 1]
            child_opponent = move_buffer[empties, i, 2]
            score = -search(child_player, child_opponent, -alpha - 1, -alpha, empties - 1, context)
            if alpha < score < beta:
                score = -search(child_player, child_opponent, -beta, -score, empties - 1, context)
            if stats[ABORTED]:
                return np.int64(0)
            if score > best:
                best = score
                best_square = square_of(square)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
    # Step 8. Store the bounds proved and the best move.
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
        _store(table, player, opponent, lower, upper, best_square, empties)
    return best
