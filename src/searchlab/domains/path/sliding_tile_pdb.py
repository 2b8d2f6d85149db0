"""Additive pattern databases for the 15-puzzle (the 6-6-3 partition of Korf & Felner 2002).

The 15 tiles are split into three disjoint groups. For each group, a breadth-first search in
the *abstract* puzzle where only that group's tiles are told apart (the others are
interchangeable, and moving them costs 0) gives, for every placement of the group's tiles, the
fewest moves *of those tiles* needed to put them home. Summed over the groups this is an
admissible heuristic (each move moves one tile, so it is counted in one group only) that is
far better informed than Manhattan distance plus linear conflicts.

Tables are indexed by the cells of the group's tiles as base-16 digits (``sum cell_i * 16**i``),
so a move changes the index by ``(new - old) * 16**i``: no ranking in the search. A 6-tile
table has 16**6 entries (16 MiB, one byte each); the three take about 32 MiB.

Building takes a few seconds (a compiled BFS); the result is cached on disk in the user's cache
directory, ``$XDG_CACHE_HOME/searchlab`` or ``~/.cache/searchlab`` (set
``SEARCHLAB_CACHE_DIR`` to choose another), as ``15puzzle-pdb-663-<goal>-v1.npz``; delete the
file to rebuild it.

>>> PARTITION_663["blank-first"]
((1, 4, 5), (2, 3, 6, 7, 10, 11), (8, 9, 12, 13, 14, 15))
>>> table = build_group_table((1, 4, 5), "blank-first")  # the small group: milliseconds
>>> int(table[1 + 4 * 16 + 5 * 256])  # all three home
0
>>> int(table[0 + 4 * 16 + 5 * 256])  # tile 1 on the blank's goal cell: one move away
1
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from searchlab.core.cache_dir import cache_directory
from searchlab.domains.path.sliding_tile_goals import goal_tiles

__all__ = [
    "PARTITION_663",
    "PatternDatabase",
    "build_group_table",
    "cache_directory",
    "cache_file",
    "pattern_database",
]

SIZE = 4
CELLS = SIZE * SIZE
VERSION = 1

PARTITION_663: dict[str, tuple[tuple[int, ...], ...]] = {
    # Blank top-left: a 3-tile group next to the blank, a 6-tile block on the right and one at
    # the bottom-left (the geometry of Korf & Felner's 6-6-3 partition).
    "blank-first": ((1, 4, 5), (2, 3, 6, 7, 10, 11), (8, 9, 12, 13, 14, 15)),
    # The same groups under the goal isomorphism (rotate 180 degrees, tile v -> 16 - v).
    "blank-last": ((15, 12, 11), (14, 13, 10, 9, 6, 5), (8, 7, 4, 3, 2, 1)),
}
"""The tile groups of the 6-6-3 partition for each goal."""


@njit(cache=True)
def _push(queue, length, item):  # pragma: no cover - compiled
    if length == queue.size:
        bigger = np.empty(queue.size * 2, dtype=queue.dtype)
        bigger[:length] = queue[:length]
        queue = bigger
    queue[length] = item
    return queue, length + 1


@njit(cache=True)
def _group_bfs(goal_cells, blank_goal, neighbour, tile_count):  # pragma: no cover - compiled
    """Fewest moves of the group's tiles from every placement to the goal placement.

    A state is (placement, blank cell); the blank moves freely (cost 0) through cells not
    holding a group tile and pays 1 to swap with a group tile. Layer by layer: each popped
    state floods its blank region (all those states are equal), records the layer as the
    placement's value if it has none, and pushes every swap with a group tile next to the
    region into the next layer.
    """
    entries = 16**tile_count
    table = np.full(entries, 255, dtype=np.uint8)
    done = np.zeros(entries, dtype=np.uint16)  # blank cells already flooded, per placement
    queued = np.zeros(entries, dtype=np.uint16)  # (placement, blank) pairs already pushed
    start = 0
    for i in range(tile_count):
        start += goal_cells[i] << (4 * i)
    current = np.empty(1024, dtype=np.int64)
    current[0] = (start << 4) | blank_goal
    size = 1
    slot = np.full(CELLS, -1, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    depth = 0
    while size > 0:
        following = np.empty(1024, dtype=np.int64)
        following_size = 0
        for index in range(size):
            item = current[index]
            placement = item >> 4
            blank = item & 15
            if done[placement] & (1 << blank):
                continue
            occupied = 0
            for i in range(tile_count):
                cell = (placement >> (4 * i)) & 15
                occupied |= 1 << cell
                slot[cell] = i
            # Flood the blank's region through cells without a group tile.
            region = 1 << blank
            stack[0] = blank
            top = 1
            while top > 0:
                top -= 1
                here = stack[top]
                for direction in range(4):
                    there = neighbour[here * 4 + direction]
                    if there >= 0 and not (occupied >> there) & 1 and not (region >> there) & 1:
                        region |= 1 << there
                        stack[top] = there
                        top += 1
            done[placement] |= region
            if table[placement] == 255:
                table[placement] = depth
            # Swap the blank with each group tile next to the region: cost 1.
            for here in range(CELLS):
                if not (region >> here) & 1:
                    continue
                for direction in range(4):
                    there = neighbour[here * 4 + direction]
                    if there < 0 or not (occupied >> there) & 1:
                        continue
                    moved = placement + ((here - there) << (4 * slot[there]))
                    if (done[moved] >> there) & 1 or (queued[moved] >> there) & 1:
                        continue
                    queued[moved] |= 1 << there
                    following, following_size = _push(
                        following, following_size, (moved << 4) | there
                    )
        current = following
        size = following_size
        depth += 1
    return table


def _neighbour_table() -> np.ndarray:
    neighbour = np.full(CELLS * 4, -1, dtype=np.int64)
    for cell in range(CELLS):
        row, column = divmod(cell, SIZE)
        for direction, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= row + dr < SIZE and 0 <= column + dc < SIZE:
                neighbour[cell * 4 + direction] = (row + dr) * SIZE + column + dc
    return neighbour


def build_group_table(group: Sequence[int], goal: str = "blank-first") -> np.ndarray:
    """The pattern-database table of one group of 15-puzzle tiles (not cached).

    Entry ``sum(cell_of(tile_i) * 16**i)`` is the fewest moves of the group's tiles that bring
    them home, over every position of the other tiles and of the blank; placements that put two
    tiles on one cell keep 255.

    >>> table = build_group_table((1,), "blank-first")
    >>> int(table[1]), int(table[15])  # tile 1 at home, tile 1 in the far corner
    (0, 5)
    """
    goal_board = goal_tiles(SIZE, goal)
    goal_cells = np.array([goal_board.index(tile) for tile in group], dtype=np.int64)
    return _group_bfs(goal_cells, goal_board.index(0), _neighbour_table(), len(group))


def cache_file(goal: str = "blank-first") -> Path:
    """The file the 6-6-3 database for ``goal`` is cached in (it may not exist yet)."""
    return cache_directory() / f"15puzzle-pdb-663-{goal}-v{VERSION}.npz"


@dataclass(frozen=True)
class PatternDatabase:
    """An additive pattern database: disjoint tile groups and one table per group.

    Attributes:
        goal: the goal convention the tables are for.
        groups: the tile groups (each tile in exactly one).
        tables: one uint8 table per group, indexed by ``sum(cell_i * 16**i)``.
    """

    goal: str
    groups: tuple[tuple[int, ...], ...]
    tables: tuple[np.ndarray, ...]

    def value(self, state: Sequence[int]) -> int:
        """The heuristic: the sum over groups of their table entries for ``state``."""
        cell_of = {tile: cell for cell, tile in enumerate(state)}
        total = 0
        for group, table in zip(self.groups, self.tables, strict=True):
            index = sum(cell_of[tile] << (4 * i) for i, tile in enumerate(group))
            total += int(table[index])
        return total


_LOADED: dict[str, PatternDatabase] = {}


def pattern_database(goal: str = "blank-first") -> PatternDatabase:
    """The 6-6-3 additive pattern database of the 15-puzzle for ``goal``.

    Loaded from the disk cache (:func:`cache_directory`), else built (a few seconds) and saved
    there; kept in memory afterwards.
    """
    if goal in _LOADED:
        return _LOADED[goal]
    groups = PARTITION_663[goal]
    path = cache_file(goal)
    tables: tuple[np.ndarray, ...] | None = None
    if path.is_file():
        try:
            with np.load(path) as stored:
                tables = tuple(stored[f"group{i}"] for i in range(len(groups)))
        except (OSError, KeyError, ValueError):
            tables = None  # unreadable or stale: rebuild below
        if tables is not None and any(
            table.shape != (16 ** len(group),) for table, group in zip(tables, groups, strict=True)
        ):
            tables = None
    if tables is None:
        tables = tuple(build_group_table(group, goal) for group in groups)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")  # atomic replace
            arrays: dict[str, Any] = {f"group{i}": t for i, t in enumerate(tables)}
            np.savez_compressed(partial, **arrays)
            partial.replace(path)
        except OSError:
            pass  # a read-only cache is not an error: the tables are in memory
    for table in tables:
        table.setflags(write=False)
    database = PatternDatabase(goal, groups, tables)
    _LOADED[goal] = database
    return database
