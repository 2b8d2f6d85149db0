"""The compiled sliding-tile IDA*: optimal lengths against the shared ground truth, solutions
checked move by move, node counts against a plain-Python IDA* using the domain's heuristics,
limits, and other board sizes against the reference A*."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from tile_oracle import python_idastar

from searchlab.algorithms.path import tile_idastar
from searchlab.algorithms.path.best_first import astar
from searchlab.algorithms.path.idastar import idastar
from searchlab.algorithms.path.tile_idastar import compiled_tile_idastar
from searchlab.core.limits import Limits
from searchlab.domains.path.sliding_tile import (
    SlidingTilePuzzle,
    apply_moves,
    goal_tiles,
    moves_between,
    parse_tiles,
    swap_goal_convention,
)

# Korf's easiest instances in the shared half (README): 42, 42, 45, 46, 46, 46 moves.
KORF_CI_IDS = ("16", "42", "12", "9", "13", "19")
GOAL_COLUMNS = {"blank-first": "optimal_goal_blank_first", "blank-last": "optimal_goal_blank_last"}


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.fixture(scope="module")
def eight_boards(shared_data: Path) -> list[dict[str, str]]:
    return read_tsv(shared_data / "sliding_tile" / "eight_puzzle.tsv")


@pytest.fixture(scope="module")
def korf(shared_data: Path) -> dict[str, dict[str, str]]:
    return {
        row["id"]: row for row in read_tsv(shared_data / "sliding_tile" / "korf100_15puzzle.tsv")
    }


def assert_valid_solution(puzzle: SlidingTilePuzzle, path, length: int) -> None:
    """The path starts at the start, ends at the goal, and every step is one legal move."""
    assert len(path) == length + 1
    assert path[0] == puzzle.tiles
    assert path[-1] == puzzle.goal_state()
    board = puzzle.tiles
    for letter, after in zip(moves_between(path).blank_directions, path[1:], strict=True):
        board = apply_moves(board, letter)
        assert board == after
    assert apply_moves(puzzle.tiles, moves_between(path).tiles) == puzzle.goal_state()


# -- optimal lengths against the shared data ----------------------------------------------------


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
@pytest.mark.parametrize("heuristic", ["linear_conflict", "manhattan"])
def test_all_51_eight_puzzle_boards_are_solved_optimally(eight_boards, goal, heuristic):
    for row in eight_boards:
        puzzle = SlidingTilePuzzle(row["tiles"], goal=goal, heuristic=heuristic)
        result = compiled_tile_idastar(puzzle)
        assert result.status == "solved" and result.tier == "compiled", row["id"]
        assert result.algorithm == "idastar"
        assert result.length == int(row[GOAL_COLUMNS[goal]]), row["id"]
        assert result.cost == float(result.length)
        assert_valid_solution(puzzle, result.path, result.length)


def test_misplaced_tiles_heuristic_is_optimal_too(eight_boards):
    for row in eight_boards[:12]:
        puzzle = SlidingTilePuzzle(row["tiles"], goal="blank-last", heuristic="misplaced")
        assert compiled_tile_idastar(puzzle).length == int(row["optimal_goal_blank_last"])


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_reference_tier_agrees_with_the_shared_data(eight_boards, goal):
    """The plain-Python IDA* and A* (another engineer's code) on the same puzzles."""
    for row in eight_boards:
        puzzle = SlidingTilePuzzle(row["tiles"], goal=goal)
        expected = int(row[GOAL_COLUMNS[goal]])
        reference = idastar(puzzle, tier="reference")
        assert reference.tier == "reference" and reference.length == expected, row["id"]
        assert astar(puzzle).length == expected, row["id"]


@pytest.mark.parametrize("instance", KORF_CI_IDS)
def test_korf_instances_exact_optimal_length_and_checked_solution(korf, instance):
    row = korf[instance]
    puzzle = SlidingTilePuzzle(row["tiles"], goal="blank-first")
    result = compiled_tile_idastar(puzzle)
    assert result.status == "solved"
    assert result.length == int(row["optimal_length"])
    assert_valid_solution(puzzle, result.path, result.length)
    assert result.expanded > 0 and result.generated >= result.expanded
    assert result.stats["iterations"] == len(result.stats["thresholds"])
    assert result.stats["thresholds"][-1] == result.length
    assert result.stats["nodes_per_second"] > 0


@pytest.mark.parametrize("instance", ["12", "42"])
def test_korf_blank_last_isomorphism_gives_the_same_length(korf, instance):
    row = korf[instance]
    mirrored = SlidingTilePuzzle(swap_goal_convention(parse_tiles(row["tiles"])), goal="blank-last")
    result = compiled_tile_idastar(mirrored)
    assert result.length == int(row["optimal_length"])
    assert_valid_solution(mirrored, result.path, result.length)


def test_public_idastar_dispatches_to_the_compiled_tier(korf):
    puzzle = SlidingTilePuzzle(korf["12"]["tiles"])
    result = idastar(puzzle)
    assert result.tier == "compiled" and result.length == 45


# -- the kernel's incremental heuristic against a plain-Python IDA* (tests/tile_oracle.py) -----


@pytest.mark.parametrize("heuristic", ["linear_conflict", "manhattan", "misplaced"])
def test_node_counts_equal_a_plain_python_idastar_on_8_puzzles(eight_boards, heuristic):
    """Same expansions, generations, thresholds and path: the kernel's incremental h equals the
    domain's h on every node it generates."""
    if heuristic == "misplaced":  # weak: up to millions of nodes, so the 6 shortest boards
        boards = sorted(eight_boards, key=lambda row: int(row["optimal_goal_blank_last"]))[:6]
    else:
        boards = eight_boards
    for row in boards:
        for goal in ("blank-first", "blank-last"):
            puzzle = SlidingTilePuzzle(row["tiles"], goal=goal, heuristic=heuristic)
            path, expanded, generated, thresholds = python_idastar(puzzle)
            result = compiled_tile_idastar(puzzle)
            assert (result.expanded, result.generated) == (expanded, generated), row["id"]
            assert result.stats["thresholds"] == thresholds
            assert result.path == path


def test_node_counts_equal_a_plain_python_idastar_on_a_15_puzzle(korf):
    puzzle = SlidingTilePuzzle(korf["9"]["tiles"])
    path, expanded, generated, thresholds = python_idastar(puzzle)
    result = compiled_tile_idastar(puzzle)
    assert (result.expanded, result.generated, result.stats["thresholds"]) == (
        expanded,
        generated,
        thresholds,
    )
    assert result.path == path


def test_pausing_and_resuming_the_kernel_changes_nothing(korf, monkeypatch):
    puzzle = SlidingTilePuzzle(korf["13"]["tiles"])
    whole = compiled_tile_idastar(puzzle)
    monkeypatch.setattr(tile_idastar, "CHUNK_EXPANSIONS", 997)
    chunked = compiled_tile_idastar(puzzle)
    assert chunked.path == whole.path
    assert (chunked.expanded, chunked.generated) == (whole.expanded, whole.generated)


# -- other sizes against the reference A* --------------------------------------------------------


def random_walk(size: int, goal: str, steps: int, seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    puzzle = SlidingTilePuzzle(goal_tiles(size, goal), goal=goal)
    state = puzzle.initial_state()
    for _ in range(steps):
        state = rng.choice(puzzle.successors(state))[0]
    return state


@pytest.mark.parametrize(
    ("size", "steps", "seeds"), [(2, 30, range(6)), (5, 40, range(4)), (6, 30, range(2))]
)
def test_other_board_sizes_match_the_reference_astar(size, steps, seeds):
    for seed in seeds:
        for goal in ("blank-first", "blank-last"):
            puzzle = SlidingTilePuzzle(random_walk(size, goal, steps, seed), goal=goal)
            result = compiled_tile_idastar(puzzle)
            assert result.stats["heuristic"] == "linear_conflict"
            assert result.length == astar(puzzle).length, (size, seed, goal)
            assert_valid_solution(puzzle, result.path, result.length)


def test_large_boards_fall_back_to_manhattan_and_say_so():
    puzzle = SlidingTilePuzzle(random_walk(7, "blank-last", 24, 5), goal="blank-last")
    result = compiled_tile_idastar(puzzle)
    assert result.stats["heuristic"] == "manhattan"
    assert result.length == astar(puzzle).length
    assert_valid_solution(puzzle, result.path, result.length)


def test_start_at_the_goal():
    puzzle = SlidingTilePuzzle(goal_tiles(4, "blank-last"), goal="blank-last")
    result = compiled_tile_idastar(puzzle)
    assert result.status == "solved" and result.path == [puzzle.tiles] and result.length == 0
    assert result.expanded == 0


# -- limits ---------------------------------------------------------------------------------------


def test_expansion_limit_stops_with_status_limit(korf):
    puzzle = SlidingTilePuzzle(korf["17"]["tiles"])  # 66 moves: far beyond this budget
    result = compiled_tile_idastar(puzzle, limits=Limits(expansions=50_000))
    assert result.status == "limit" and result.path is None and result.cost is None
    assert result.expanded == 50_000


def test_expansion_limit_reached_across_chunks(korf, monkeypatch):
    monkeypatch.setattr(tile_idastar, "CHUNK_EXPANSIONS", 1000)
    puzzle = SlidingTilePuzzle(korf["17"]["tiles"])
    result = compiled_tile_idastar(puzzle, limits=Limits(expansions=12_345))
    assert result.status == "limit" and result.expanded == 12_345


def test_time_limit_stops_a_hard_instance(korf, monkeypatch):
    monkeypatch.setattr(tile_idastar, "CHUNK_EXPANSIONS", 10_000)
    puzzle = SlidingTilePuzzle(korf["17"]["tiles"])  # needs billions of expansions
    result = compiled_tile_idastar(puzzle, limits=Limits(time=0.2))
    assert result.status == "limit" and result.path is None
    assert result.expanded > 0


def test_depth_limit_bounds_the_thresholds():
    puzzle = SlidingTilePuzzle("8 6 7 2 5 4 3 0 1", goal="blank-last")  # 31 moves
    limited = compiled_tile_idastar(puzzle, limits=Limits(depth=30))
    assert limited.status == "limit" and max(limited.stats["thresholds"]) <= 30
    assert compiled_tile_idastar(puzzle, limits=Limits(depth=31)).length == 31
