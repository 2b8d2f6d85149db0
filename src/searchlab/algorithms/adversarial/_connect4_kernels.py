"""Compiled (numba) Connect Four kernels on Pons' bitboards: the exact-score negamax and a
textbook alpha-beta. Private: the public calls are in
:mod:`searchlab.algorithms.adversarial.connect4_solver`.

Bitboards are int64 (bit ``7 * column + row``, 49 bits used): left shifts may overflow past
bit 63, but every such value is masked by the (positive) board before it is used, so the
arithmetic right shift of a negative number never happens.

The exact-score search shares one int64 ``counter`` array with Python: ``counter[NODES]``
counts nodes; a node that would pass ``counter[BUDGET]`` is not searched: it raises
``counter[ABORTED]`` and every caller returns at once, storing nothing (so the table holds
only proven bounds, and a stopped search can be started again). Setting the budget to 0 from
another thread stops a running search within one node: the kernels release the GIL
(``nogil``), so a timer or the main thread can do so while they run. ``solve`` leaves the
bounds it proved in ``counter[LOW]`` and ``counter[HIGH]``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from searchlab.domains.games.connect4.bits import (
    BOARD,
    BOTTOM,
    CELLS,
    WIDTH,
    can_play,
    column_mask,
    drop,
    has_four,
    playable,
    popcount,
    winning_cells,
)

__all__ = [
    "ABORTED",
    "BOARD",
    "BOTTOM",
    "BUDGET",
    "BUSY_MIN_LEFT",
    "CELLS",
    "COLUMN_ORDER_ADDED",
    "HIGH",
    "LOW",
    "MAX_SCORE",
    "MIN_SCORE",
    "NODES",
    "WIDTH",
    "alphabeta",
    "alphabeta_root",
    "negamax",
    "non_losing_moves",
    "popcount",
    "solve",
    "winning_cells",
]

NODES, BUDGET, ABORTED, LOW, HIGH = range(5)  # the slots of ``counter``
MIN_SCORE = -(CELLS // 2) + 3  # -18: the fastest possible loss
MAX_SCORE = (CELLS + 1) // 2 - 3  # 18: the fastest possible win
_UPPER_LIMIT = MAX_SCORE - MIN_SCORE + 1  # table values above this are lower bounds
# Pons' move order: centre first. The move sorter below takes moves in the reverse of the
# order they are added when scores tie, so they are added edge first.
BUSY_MIN_LEFT = 16  # ABDADA's busy marks only at nodes with more plies left than this
COLUMN_ORDER_ADDED = np.array([6, 0, 5, 1, 4, 2, 3], dtype=np.int64)


@intrinsic
def prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask the CPU to start loading ``array[index]`` into the cache (LLVM's prefetch: read,
    high locality); a hint with no effect on results."""
    signature = types.void(array, index)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, view, [args[1]], wraparound=False
        )
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        builder.call(function, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


@njit(cache=True, inline="always")
def non_losing_moves(current: int, mask: int) -> int:
    """Playable cells after which the opponent cannot win at once (Pons): the forced block
    when there is one threat to stop, nothing when there are two, and never the cell just
    under an opponent's threat."""
    possible = playable(mask)
    opponent_wins = winning_cells(current ^ mask, mask)
    forced = possible & opponent_wins
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(opponent_wins >> 1)


@njit(cache=True, nogil=True)
def negamax(
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    table: np.ndarray,
    generation: int,
    buffer: np.ndarray,
    counter: np.ndarray,
    order: np.ndarray,
    busy: np.ndarray,
) -> int:
    """Pons' negamax: the score of a position where the mover cannot win at once, exact when
    it lies in ``(alpha, beta)``, else a bound on the same side.

    ``table`` is the transposition table, one int64 per slot (one cache miss per probe):
    ``generation | (key // size) << 8 | value``, where ``key % size`` is the slot, so the
    quotient identifies the key, ``generation`` (already shifted above the quotient) tells
    this search's entries from older ones, and ``value`` is ``score - MIN_SCORE + 1`` for an
    upper bound or ``score + MAX_SCORE - 2 * MIN_SCORE + 2`` for a lower bound (Pons).
    ``buffer[moves]`` holds the sorted (move, score) pairs of the node at ply ``moves``;
    ``counter`` counts nodes and carries the budget (see the module docstring); ``order`` lists
    the columns in the order they are added to the move sorter (:data:`COLUMN_ORDER_ADDED`, or
    another order for a helper thread of a parallel search: ties go to the last added).

    The table may be shared by several threads searching at once (Lazy SMP): an entry is one
    aligned 64-bit word, read and written in one instruction, so a thread sees either a whole
    entry or another whole entry, never a torn one; the key's quotient in the entry tells a
    match, and every entry is a proven bound whoever wrote it.

    ``busy`` (empty for a single thread) is the threads' shared table of the positions being
    searched now, for simplified ABDADA: at a node with more than :data:`BUSY_MIN_LEFT` plies
    left, a move other than the first whose child another thread is searching is put off until
    the other moves are done, so the threads split the work instead of repeating it. Only the
    order of the moves changes; the result is the same bound."""
    # Step 1. Count the node (or stop: the budget is spent); every move loses at once.
    if counter[NODES] >= counter[BUDGET]:
        counter[ABORTED] = 1
        return 0
    counter[NODES] += 1
    possible = non_losing_moves(current, mask)
    if possible == 0:
        return -((CELLS - moves) // 2)
    # Step 2. A draw when the board fills up (the mover cannot win with the last stones).
    if moves >= CELLS - 2:
        return 0
    # Step 3. Bounds from the number of stones left.
    low = -((CELLS - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (CELLS - 1 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # Step 4. Transposition table: a lower or an upper bound.
    key = current + mask
    size = table.shape[0]
    quotient = key // size
    slot = key - quotient * size
    tag = generation | (quotient << 8)
    entry = table[slot]
    if entry >> 8 == tag >> 8:
        value = entry & 255
        if value > _UPPER_LIMIT:
            low = value + 2 * MIN_SCORE - MAX_SCORE - 2
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:
            high = value + MIN_SCORE - 1
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
    # Step 5. Move ordering: most threats created first, centre first among equals
    # (insertion sort; the best move ends up last).
    count = 0
    for i in range(WIDTH):
        column = order[i]
        move = possible & column_mask(column)
        if move:
            # start loading the child's table slot while this node sorts its moves: the search
            # waits on these cache misses (Middle-Medium: 7.2 -> 4.2 ms a position, same nodes)
            child_key = (current ^ mask) + (mask | move)
            prefetch(table, child_key - (child_key // size) * size)
            score = popcount(winning_cells(current | move, mask))
            pos = count
            while pos > 0 and buffer[moves, 2 * pos - 1] > score:
                buffer[moves, 2 * pos] = buffer[moves, 2 * pos - 2]
                buffer[moves, 2 * pos + 1] = buffer[moves, 2 * pos - 1]
                pos -= 1
            buffer[moves, 2 * pos] = move
            buffer[moves, 2 * pos + 1] = score
            count += 1
    # Step 6. Search the children, best first; a cutoff stores a lower bound. With helper
    # threads (``busy``), a later move whose child another thread searches now waits for a
    # second pass.
    shared = busy.shape[0] > 0 and moves < CELLS - BUSY_MIN_LEFT
    deferred = 0
    for second_pass in range(2):
        if second_pass and not deferred:
            break
        for index in range(count - 1, -1, -1):
            if second_pass and not (deferred >> index) & 1:
                continue
            move = buffer[moves, 2 * index]
            child_key = 0
            busy_slot = 0
            if shared:
                child_key = (current ^ mask) + (mask | move)
                busy_slot = child_key % busy.shape[0]
                if not second_pass and index != count - 1 and busy[busy_slot] == child_key:
                    deferred |= 1 << index
                    continue
                busy[busy_slot] = child_key
            score = -negamax(
                current ^ mask,
                mask | move,
                moves + 1,
                -beta,
                -alpha,
                table,
                generation,
                buffer,
                counter,
                order,
                busy,
            )
            if shared and busy[busy_slot] == child_key:
                busy[busy_slot] = 0
            if counter[ABORTED]:
                return 0  # stopped below: nothing proven here, nothing stored
            if score >= beta:
                table[slot] = tag | (score + MAX_SCORE - 2 * MIN_SCORE + 2)
                return score
            if score > alpha:
                alpha = score
    # Step 7. No move beat alpha: store an upper bound.
    table[slot] = tag | (alpha - MIN_SCORE + 1)
    return alpha


@njit(cache=True)
def _half_toward_zero(x: int) -> int:
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(cache=True, nogil=True)
def solve(
    current: int,
    mask: int,
    moves: int,
    low: int,
    high: int,
    table: np.ndarray,
    generation: int,
    buffer: np.ndarray,
    counter: np.ndarray,
    order: np.ndarray,
    busy: np.ndarray,
) -> int:
    """The exact score in ``[low, high]`` of a non-terminal position where the mover cannot
    win at once, by null-window searches that narrow ``[low, high]`` (Pons: probe near 0
    first, where most scores lie). Stopped by the budget, it returns the lower bound proved
    so far; ``counter[LOW]`` and ``counter[HIGH]`` hold both bounds."""
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and _half_toward_zero(low) < middle:
            middle = _half_toward_zero(low)
        elif middle >= 0 and _half_toward_zero(high) > middle:
            middle = _half_toward_zero(high)
        result = negamax(
            current,
            mask,
            moves,
            middle,
            middle + 1,
            table,
            generation,
            buffer,
            counter,
            order,
            busy,
        )
        if counter[ABORTED]:
            break
        if result <= middle:
            high = result
        else:
            low = result
    counter[LOW] = low
    counter[HIGH] = high
    return low


@njit(cache=True)
def alphabeta(
    current: int, mask: int, moves: int, depth: int, alpha: int, beta: int, counter: np.ndarray
) -> int:
    """Textbook fail-soft alpha-beta in negamax form, columns in order 0..6, no table: +1/-1
    for a won/lost game, 0 for a draw and at the depth horizon (for the player to move)."""
    counter[0] += 1
    other = current ^ mask
    if moves > 0 and has_four(other):
        return -1
    if moves == CELLS or depth == 0:
        return 0
    value = -2
    for column in range(WIDTH):
        if can_play(mask, column):
            move = drop(mask, column)
            score = -alphabeta(other, mask | move, moves + 1, depth - 1, -beta, -alpha, counter)
            if score > value:
                value = score
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
    return value


@njit(cache=True)
def alphabeta_root(
    current: int, mask: int, moves: int, depth: int, counter: np.ndarray
) -> tuple[int, int]:
    """:func:`alphabeta` at a non-terminal root with the full window; returns ``(value,
    first best column)``."""
    counter[0] += 1
    other = current ^ mask
    value, best, alpha, beta = -2, -1, -2, 2
    for column in range(WIDTH):
        if can_play(mask, column):
            move = drop(mask, column)
            score = -alphabeta(other, mask | move, moves + 1, depth - 1, -beta, -alpha, counter)
            if score > value:
                value, best = score, column
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
    return value, best
