"""The compiled IDA* kernel for the 15-puzzle with the 6-6-3 additive pattern database.

Same recipe as :mod:`searchlab.algorithms.path.tile_idastar` (explicit stack, resumable, no move
undoing the previous one, U D L R order); only the heuristic differs: one table index per tile
group, updated by ``(new cell - old cell) * 16**slot`` when a tile of that group moves, and
``h`` changes by the difference of two entries of that group's table. Used by
``compiled_tile_idastar`` for puzzles built with ``heuristic="pattern_database"``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from searchlab.algorithms.path._tile_steps import (
    _EXHAUSTED,
    _FOUND,
    _RUNNING,
    _descend,
    _load_control,
    _slide_back,
    _store_control,
    _target,
    neighbour_table,
)
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle
from searchlab.domains.path.sliding_tile_pdb import pattern_database

__all__ = ["pattern_database_kernel"]


@njit(cache=True)
def _search_pdb(  # pragma: no cover - compiled; exercised through compiled_tile_idastar
    control, board, blank_at, next_direction, came_from, h_at,
    index, group_of, shift_of, offset, tables, neighbour,
    budget,
):  # fmt: skip
    """Run (or resume) one bounded depth-first iteration until found, exhausted or budget.

    Arguments, a line each: the search's state, the heuristic's state and tables, the budget.
    """
    depth, bound, next_bound, expanded, generated = _load_control(control)
    stop_at = expanded + budget
    status = _RUNNING
    while True:
        # Step 1. All directions tried: undo the move that led here (and its index change).
        direction = next_direction[depth]
        if direction == 4:
            if depth == 0:
                status = _EXHAUSTED
                break
            tile, here, there = _slide_back(board, blank_at, depth)
            index[group_of[tile]] += (here - there) << shift_of[tile]
            depth -= 1
            continue
        # Step 2. Skip the move that would undo the previous one, and moves off the board.
        blank, cell = _target(next_direction, came_from, blank_at, neighbour, depth, direction)
        if cell < 0:
            continue
        generated += 1
        # Step 3. The child's h: only the moved tile's group changes.
        tile = board[cell]
        group = group_of[tile]
        old = index[group]
        new = old + ((blank - cell) << shift_of[tile])
        h = (
            h_at[depth]
            + np.int64(tables[offset[group] + new])
            - np.int64(tables[offset[group] + old])
        )
        f = depth + 1 + h
        # Step 4. Over the threshold: prune, remember the smallest f above it.
        if f > bound:
            if f < next_bound:
                next_bound = f
            continue
        # Step 5. Push the child.
        index[group] = new
        depth = _descend(
            board, blank_at, came_from, next_direction, depth, tile, blank, cell, direction
        )
        h_at[depth] = h
        # Step 6. Goal test (h = 0 only when every group is home), count the expansion.
        if h == 0:
            status = _FOUND
            break
        expanded += 1
        if expanded >= stop_at:
            break
    _store_control(control, depth, next_bound, expanded, generated, status)


_FLAT: dict[str, tuple[np.ndarray, ...]] = {}


def _flat_tables(goal: str) -> tuple[np.ndarray, ...]:
    """(group_of, shift_of, offset, tables, neighbour) for the kernel, built once per goal."""
    if goal not in _FLAT:
        database = pattern_database(goal)
        group_of = np.zeros(16, dtype=np.int64)
        shift_of = np.zeros(16, dtype=np.int64)
        for number, group in enumerate(database.groups):
            for slot, tile in enumerate(group):
                group_of[tile] = number
                shift_of[tile] = 4 * slot
        sizes = [table.size for table in database.tables]
        offset = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        tables = np.concatenate(database.tables)
        neighbour = neighbour_table(4)
        arrays = (group_of, shift_of, offset, tables, neighbour)
        for array in arrays:
            array.setflags(write=False)
        _FLAT[goal] = arrays
    return _FLAT[goal]


def pattern_database_kernel(
    puzzle: SlidingTilePuzzle,
) -> tuple[int, Callable[..., None]]:
    """The root heuristic value and a function running the kernel for one chunk.

    The function takes ``(control, board, blank_at, next_direction, came_from, h_at,
    budget)``; the group indices live in its closure (restored by the kernel's undo steps).
    """
    group_of, shift_of, offset, tables, neighbour = _flat_tables(puzzle.goal)
    database = pattern_database(puzzle.goal)
    cell_of = {tile: cell for cell, tile in enumerate(puzzle.tiles)}
    index = np.array(
        [sum(cell_of[tile] << (4 * slot) for slot, tile in enumerate(g)) for g in database.groups],
        dtype=np.int64,
    )
    root = database.value(puzzle.tiles)

    heuristic_state = (index, group_of, shift_of, offset, tables, neighbour)

    def run(control, board, blank_at, next_direction, came_from, h_at, budget) -> None:
        _search_pdb(
            control, board, blank_at, next_direction, came_from, h_at, *heuristic_state, budget
        )

    return root, run


def is_compiled() -> bool:
    """True once the kernel has been loaded or compiled in this process."""
    return bool(_search_pdb.signatures)
