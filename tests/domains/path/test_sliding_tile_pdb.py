"""The 6-6-3 additive pattern database of the 15-puzzle and the IDA* kernel that uses it.

Checked against independent computations: a plain-Python uniform-cost search over the abstract
space for the small group, Manhattan distance for one-tile groups, BFS distances of the real
puzzle (admissibility), Korf's optimal lengths, and a plain-Python IDA* for node counts.
"""

from __future__ import annotations

import csv
import heapq
import itertools
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from tile_oracle import python_idastar

from searchlab.algorithms.path.tile_idastar import compiled_tile_idastar
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.path import sliding_tile_pdb
from searchlab.domains.path.sliding_tile import (
    SlidingTilePuzzle,
    apply_moves,
    goal_tiles,
    moves_between,
    parse_tiles,
)
from searchlab.domains.path.sliding_tile_pdb import (
    PARTITION_663,
    build_group_table,
    cache_file,
    pattern_database,
)

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory):
    """Build into a directory of this test session, never the user's cache."""
    directory = tmp_path_factory.getbasetemp() / "searchlab-cache"
    patcher = pytest.MonkeyPatch()
    patcher.setenv("SEARCHLAB_CACHE_DIR", str(directory))
    yield directory
    patcher.undo()


@pytest.fixture(scope="module")
def korf(shared_data: Path) -> dict[str, dict[str, str]]:
    path = shared_data / "sliding_tile" / "korf100_15puzzle.tsv"
    with path.open(encoding="utf-8") as handle:
        return {row["id"]: row for row in csv.DictReader(handle, delimiter="\t")}


def neighbours(cell: int):
    row, column = divmod(cell, 4)
    for dr, dc in STEPS:
        if 0 <= row + dr < 4 and 0 <= column + dc < 4:
            yield (row + dr) * 4 + column + dc


def abstract_distances(group: tuple[int, ...], goal: str) -> dict[tuple[int, ...], int]:
    """Uniform-cost search in the abstract puzzle (only the group's tiles are told apart;
    moving the blank past another tile is free): cells of the group -> fewest group moves."""
    board = goal_tiles(4, goal)
    start = (tuple(board.index(tile) for tile in group), board.index(0))
    best = {start: 0}
    heap = [(0, start)]
    result: dict[tuple[int, ...], int] = {}
    while heap:
        cost, (cells, blank) = heapq.heappop(heap)
        if best[(cells, blank)] < cost:
            continue
        result.setdefault(cells, cost)
        for there in neighbours(blank):
            if there in cells:
                moved = tuple(blank if c == there else c for c in cells)
                step = 1
            else:
                moved = cells
                step = 0
            state = (moved, there)
            if cost + step < best.get(state, 1 << 30):
                best[state] = cost + step
                heapq.heappush(heap, (cost + step, state))
    return result


def index_of(cells: tuple[int, ...]) -> int:
    return sum(cell << (4 * slot) for slot, cell in enumerate(cells))


# -- the tables -----------------------------------------------------------------------------------


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_small_group_table_equals_an_independent_uniform_cost_search(goal):
    group = PARTITION_663[goal][0]
    table = build_group_table(group, goal)
    expected = abstract_distances(group, goal)
    assert len(expected) == 16 * 15 * 14
    for cells in itertools.permutations(range(16), len(group)):
        assert table[index_of(cells)] == expected[cells], cells
    assert int((table != 255).sum()) == len(expected)  # impossible placements stay 255


def test_one_tile_groups_are_manhattan_distance():
    for goal in ("blank-first", "blank-last"):
        board = goal_tiles(4, goal)
        for tile in range(1, 16):
            table = build_group_table((tile,), goal)
            home = board.index(tile)
            for cell in range(16):
                manhattan = abs(cell // 4 - home // 4) + abs(cell % 4 - home % 4)
                assert table[cell] == manhattan, (goal, tile, cell)


def test_the_goals_tables_agree_under_the_isomorphism():
    """Rotating 180 degrees maps cell c to 15 - c and group (1, 4, 5) onto (15, 12, 11)."""
    first = build_group_table(PARTITION_663["blank-first"][0], "blank-first")
    last = build_group_table(PARTITION_663["blank-last"][0], "blank-last")
    for cells in itertools.permutations(range(16), 3):
        assert first[index_of(cells)] == last[index_of(tuple(15 - c for c in cells))]


def test_the_partition_covers_every_tile_once():
    for goal, groups in PARTITION_663.items():
        assert sorted(itertools.chain(*groups)) == list(range(1, 16)), goal
        assert sorted(map(len, groups)) == [3, 6, 6]


# -- the full database ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def database(private_cache):
    return pattern_database("blank-first")


def test_database_is_cached_on_disk_and_reloaded(database, private_cache, monkeypatch):
    path = cache_file("blank-first")
    assert path.parent == private_cache and path.is_file()
    monkeypatch.setattr(sliding_tile_pdb, "_LOADED", {})
    reloaded = pattern_database("blank-first")
    assert reloaded is not database
    for ours, theirs in zip(database.tables, reloaded.tables, strict=True):
        assert np.array_equal(ours, theirs)
    assert int((database.tables[1] != 255).sum()) == 16 * 15 * 14 * 13 * 12 * 11


def test_database_is_admissible_and_at_least_manhattan(database, korf):
    """PDB <= exact distance for every board within 12 moves of the goal (BFS), and on
    Korf's instances <= the optimal length; always >= Manhattan distance."""
    goal = goal_tiles(4, "blank-first")
    puzzle = SlidingTilePuzzle(goal, heuristic="pattern_database")
    distance = {goal: 0}
    frontier = deque([goal])
    while frontier:
        state = frontier.popleft()
        if distance[state] == 12:
            continue
        for child, _ in puzzle.successors(state):
            if child not in distance:
                distance[child] = distance[state] + 1
                frontier.append(child)
    for state, true in distance.items():
        value = database.value(state)
        assert puzzle.manhattan(state) <= value <= true, state
        assert (true - value) % 2 == 0
    for row in korf.values():
        board = parse_tiles(row["tiles"])
        assert puzzle.manhattan(board) <= database.value(board) <= int(row["optimal_length"])


def test_pattern_database_heuristic_needs_a_4x4_board():
    with pytest.raises(InvalidParameterError, match=r"15-puzzle \(4 x 4\) only"):
        SlidingTilePuzzle("8 6 7 2 5 4 3 0 1", heuristic="pattern_database")


# -- IDA* with the database ----------------------------------------------------------------------


@pytest.mark.parametrize("instance", ["16", "42", "12", "9", "13", "19", "17"])
def test_korf_instances_with_the_pattern_database(database, korf, instance):
    row = korf[instance]  # 17 is the longest in the file (66 moves): about 9 M expansions
    puzzle = SlidingTilePuzzle(row["tiles"], heuristic="pattern_database")
    result = compiled_tile_idastar(puzzle)
    assert result.stats["heuristic"] == "pattern_database"
    assert result.length == int(row["optimal_length"])
    assert result.stats["thresholds"][0] == database.value(puzzle.tiles)
    assert apply_moves(puzzle.tiles, moves_between(result.path).blank_directions) == goal_tiles(
        4, "blank-first"
    )


def test_kernel_node_counts_equal_a_plain_python_idastar(database, korf):
    for instance in ("9", "12"):
        puzzle = SlidingTilePuzzle(korf[instance]["tiles"], heuristic="pattern_database")
        path, expanded, generated, _ = python_idastar(puzzle)
        result = compiled_tile_idastar(puzzle)
        assert (result.expanded, result.generated) == (expanded, generated), instance
        assert result.path == path


def test_limits_with_the_pattern_database(database, korf):
    puzzle = SlidingTilePuzzle(korf["17"]["tiles"], heuristic="pattern_database")
    result = compiled_tile_idastar(puzzle, limits=Limits(expansions=10_000))
    assert result.status == "limit" and result.expanded == 10_000 and result.path is None


def test_cli_uses_the_pattern_database(database, korf, capsys, monkeypatch):
    import json

    from searchlab.cli import main as cli_main

    row = korf["12"]
    argv = ["puzzle", row["tiles"], "--goal", "blank-first", "--heuristic", "pattern_database"]
    assert cli_main.main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["heuristic"] == "pattern_database" and captured.err == ""  # already cached
    assert report["length"] == int(row["optimal_length"])
    assert apply_moves(parse_tiles(row["tiles"]), report["moves"]) == goal_tiles(4, "blank-first")
