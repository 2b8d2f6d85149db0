"""The steps of the compiled tile IDA* that both of its kernels take (Manhattan distance or
linear conflicts in :mod:`~searchlab.algorithms.path.tile_idastar`, the pattern database in
:mod:`~searchlab.algorithms.path.tile_idastar_pdb`): the control array a search resumes from,
and a move's making and unmaking, each written once (numba inlines them into both kernels);
and the table of neighbouring cells both read."""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.domains.path.sliding_tile import DIRECTIONS

# Slots of the control array shared by Python and the kernel.
_DEPTH, _BOUND, _NEXT_BOUND, _EXPANDED, _GENERATED, _STATUS = range(6)
_RUNNING, _FOUND, _EXHAUSTED = 0, 1, 2
_INFINITY = np.iinfo(np.int64).max


def neighbour_table(size: int) -> np.ndarray:
    """``table[cell * 4 + d]``: the cell next to ``cell`` of a ``size`` x ``size`` board in
    direction ``d`` (U, D, L, R as in ``SlidingTilePuzzle.successors``), or -1 off the board.

    >>> neighbour_table(2).reshape(4, 4).tolist()  # cells 0 1 / 2 3
    [[-1, 2, -1, 1], [-1, 3, 0, -1], [0, -1, -1, 3], [1, -1, 2, -1]]
    """
    table = np.full(size * size * 4, -1, dtype=np.int64)
    for cell in range(size * size):
        row, column = divmod(cell, size)
        for direction, (_, dr, dc) in enumerate(DIRECTIONS):
            if 0 <= row + dr < size and 0 <= column + dc < size:
                table[cell * 4 + direction] = (row + dr) * size + column + dc
    return table


@njit(cache=True, inline="always")
def _load_control(control):  # pragma: no cover - compiled
    """``(depth, bound, next_bound, expanded, generated)`` of a (resumed) iteration."""
    return (
        control[_DEPTH], control[_BOUND], control[_NEXT_BOUND], control[_EXPANDED],
        control[_GENERATED],
    )  # fmt: skip


@njit(cache=True, inline="always")
def _store_control(control, depth, next_bound, expanded, generated, status):
    # pragma: no cover - compiled
    """Write the state of a chunk back for Python and for the next call."""
    control[_DEPTH] = depth
    control[_NEXT_BOUND] = next_bound
    control[_EXPANDED] = expanded
    control[_GENERATED] = generated
    control[_STATUS] = status


@njit(cache=True, inline="always")
def _slide_back(board, blank_at, depth):  # pragma: no cover - compiled
    """Undo the move that led to ``depth`` (the tile slides back, the blank returns to
    ``blank_at[depth - 1]``); returns ``(tile, here, there)``: the tile, and the blank's cells
    before and after."""
    here = blank_at[depth]
    there = blank_at[depth - 1]
    tile = board[there]
    board[here] = tile
    board[there] = 0
    return tile, here, there


@njit(cache=True, inline="always")
def _target(next_direction, came_from, blank_at, neighbour, depth, direction):
    # pragma: no cover - compiled
    """Take ``direction`` as tried at ``depth``; returns ``(blank, cell)``: the blank's cell
    and the cell it moves to, or -1 when the move is off the board or undoes the previous
    one (not generated)."""
    next_direction[depth] = direction + 1
    blank = blank_at[depth]
    if came_from[depth] == (direction ^ 1):
        return blank, -1
    return blank, neighbour[blank * 4 + direction]


@njit(cache=True, inline="always")
def _descend(board, blank_at, came_from, next_direction, depth, tile, blank, cell, direction):
    # pragma: no cover - compiled
    """Push the child: ``tile`` slides from ``cell`` to ``blank`` (the blank's move in
    ``direction``); returns the child's depth."""
    board[blank] = tile
    board[cell] = 0
    depth += 1
    blank_at[depth] = cell
    came_from[depth] = direction
    next_direction[depth] = 0
    return depth
