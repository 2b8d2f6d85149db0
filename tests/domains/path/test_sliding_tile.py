"""The sliding-tile domain: rules, solvability, heuristics, against ground truth.

Ground truth: the 8-puzzle and 15-puzzle distance distributions (OEIS A089473, A089484) in
../shared/data/small_game_facts, the 51 8-puzzle boards with exact optimal lengths in
../shared/data/sliding_tile, and brute-force computations written here.
"""

from __future__ import annotations

import csv
import itertools
import random
from collections import deque
from pathlib import Path

import pytest

from searchlab.core.errors import (
    IllegalMoveError,
    InvalidParameterError,
    InvalidStateError,
    UnknownNameError,
    UnsolvableError,
)
from searchlab.core.problem import HeuristicProblem, Problem, ReversibleProblem
from searchlab.domains.path.sliding_tile import (
    SlidingTilePuzzle,
    apply_moves,
    goal_tiles,
    is_solvable,
    line_conflict_removals,
    moves_between,
    parse_tiles,
    render,
    swap_goal_convention,
)

GOAL_3_FIRST = tuple(range(9))


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def bfs_distances(puzzle: SlidingTilePuzzle, start: tuple[int, ...], max_depth: int | None = None):
    """Distances from ``start`` by breadth-first search over the puzzle's successors."""
    distance = {start: 0}
    frontier = deque([start])
    while frontier:
        state = frontier.popleft()
        depth = distance[state]
        if max_depth is not None and depth == max_depth:
            continue
        for child, cost in puzzle.successors(state):
            assert cost == 1.0
            if child not in distance:
                distance[child] = depth + 1
                frontier.append(child)
    return distance


@pytest.fixture(scope="module")
def eight_distances() -> dict[tuple[int, ...], int]:
    """Exact distance of every reachable 8-puzzle board to the blank-first goal."""
    puzzle = SlidingTilePuzzle(GOAL_3_FIRST)
    return bfs_distances(puzzle, GOAL_3_FIRST)


@pytest.fixture(scope="module")
def eight_boards(shared_data: Path) -> list[dict[str, str]]:
    return read_tsv(shared_data / "sliding_tile" / "eight_puzzle.tsv")


# -- the successor function against the published distance distributions ---------------------


def test_eight_puzzle_distance_distribution_matches_oeis(eight_distances, shared_data):
    rows = read_tsv(shared_data / "small_game_facts" / "eight_puzzle_distance_distribution.tsv")
    expected = {
        int(r["distance"]): int(r["blank_in_corner_goal"]) for r in rows if r["distance"] != "total"
    }
    counts: dict[int, int] = {}
    for depth in eight_distances.values():
        counts[depth] = counts.get(depth, 0) + 1
    assert len(eight_distances) == 181_440
    assert counts == {d: c for d, c in expected.items() if c}


def test_fifteen_puzzle_distance_distribution_first_rows(shared_data):
    rows = read_tsv(shared_data / "small_game_facts" / "fifteen_puzzle_distance_distribution.tsv")
    expected = {int(r["distance"]): int(r["configurations"]) for r in rows}
    goal = goal_tiles(4, "blank-last")  # a corner goal, like A089484
    distances = bfs_distances(SlidingTilePuzzle(goal, goal="blank-last"), goal, max_depth=14)
    counts: dict[int, int] = {}
    for depth in distances.values():
        counts[depth] = counts.get(depth, 0) + 1
    assert counts == {d: expected[d] for d in range(15)}


def test_blank_last_goal_gives_the_same_corner_distribution(shared_data):
    goal = goal_tiles(3, "blank-last")
    distances = bfs_distances(SlidingTilePuzzle(goal, goal="blank-last"), goal, max_depth=12)
    rows = read_tsv(shared_data / "small_game_facts" / "eight_puzzle_distance_distribution.tsv")
    for row in rows[:13]:
        assert sum(1 for d in distances.values() if d == int(row["distance"])) == int(
            row["blank_in_corner_goal"]
        )


def test_eight_puzzle_optimal_lengths_match_the_data_file(eight_distances, eight_boards):
    assert len(eight_boards) == 51
    for row in eight_boards:
        board = parse_tiles(row["tiles"])
        assert eight_distances[board] == int(row["optimal_goal_blank_first"]), row["id"]
        # README: rotating 180 degrees and renaming v -> 9 - v maps one goal onto the other.
        assert eight_distances[swap_goal_convention(board)] == int(
            row["optimal_goal_blank_last"]
        ), row["id"]


def test_successors_and_predecessors_are_the_blank_moves():
    puzzle = SlidingTilePuzzle("1 2 3 4 0 5 6 7 8")
    assert [s for s, _ in puzzle.successors(puzzle.initial_state())] == [
        (1, 0, 3, 4, 2, 5, 6, 7, 8),  # U
        (1, 2, 3, 4, 7, 5, 6, 0, 8),  # D
        (1, 2, 3, 0, 4, 5, 6, 7, 8),  # L
        (1, 2, 3, 4, 5, 0, 6, 7, 8),  # R
    ]
    assert puzzle.predecessors(puzzle.initial_state()) == puzzle.successors(puzzle.initial_state())
    corner = SlidingTilePuzzle(GOAL_3_FIRST)
    assert len(corner.successors(GOAL_3_FIRST)) == 2


def test_protocols():
    puzzle = SlidingTilePuzzle(GOAL_3_FIRST)
    assert isinstance(puzzle, Problem)
    assert isinstance(puzzle, HeuristicProblem)
    assert isinstance(puzzle, ReversibleProblem)
    assert puzzle.is_goal(puzzle.goal_state())
    assert puzzle.heuristic(puzzle.goal_state()) == 0.0


# -- solvability: the parity rule against reachability ---------------------------------------


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_parity_rule_matches_reachability_on_2x2_and_3x3(goal, eight_distances):
    reachable_2 = bfs_distances(
        SlidingTilePuzzle(goal_tiles(2, goal), goal=goal), goal_tiles(2, goal)
    )
    for board in itertools.permutations(range(4)):
        assert is_solvable(board, goal) == (board in reachable_2), board
    # 3x3: both goals are in one class (README), so the BFS from blank-first covers both.
    rng = random.Random(7)
    boards = [tuple(rng.sample(range(9), 9)) for _ in range(3000)]
    for board in boards:
        assert is_solvable(board, goal) == (board in eight_distances), board


def test_parity_rule_on_4x4_uses_the_blank_row():
    goal = goal_tiles(4, "blank-last")
    # Sam Loyd's 14-15 puzzle: one swap, blank in place -> unsolvable.
    loyd = (*goal[:13], 15, 14, 0)
    assert not is_solvable(loyd, "blank-last")
    # One swap plus the blank one row up -> solvable (odd permutation, odd blank distance).
    board = list(goal)
    board[11], board[15] = 0, 12  # the blank moves up: a legal move, still solvable
    assert is_solvable(board, "blank-last")
    board[0], board[1] = board[1], board[0]
    assert not is_solvable(board, "blank-last")


def test_random_walks_stay_solvable_for_every_size():
    rng = random.Random(3)
    for size in range(2, 7):
        for goal in ("blank-first", "blank-last"):
            state = goal_tiles(size, goal)
            puzzle = SlidingTilePuzzle(state, goal=goal)
            for _ in range(200):
                state = rng.choice(puzzle.successors(state))[0]
            assert is_solvable(state, goal)
            swapped = list(state)
            a, b = [cell for cell, tile in enumerate(state) if tile][:2]
            swapped[a], swapped[b] = swapped[b], swapped[a]
            assert not is_solvable(swapped, goal)


# -- heuristics ------------------------------------------------------------------------------


def brute_force_removals(positions: list[int]) -> int:
    """Fewest tiles to drop so the rest are increasing, by trying every subset."""
    for kept in range(len(positions), -1, -1):
        for subset in itertools.combinations(positions, kept):
            if list(subset) == sorted(subset):
                return len(positions) - kept
    raise AssertionError("unreachable")


def test_line_conflict_removals_is_the_minimum_by_brute_force():
    for length in range(0, 6):
        for positions in itertools.permutations(range(6), length):
            assert line_conflict_removals(list(positions)) == brute_force_removals(list(positions))


def test_linear_conflict_counts_a_reversed_row_once_per_removed_tile():
    # Row 0 holds 2 1 (both belong there, swapped): one of them must leave -> +2.
    puzzle = SlidingTilePuzzle(GOAL_3_FIRST)
    state = (0, 2, 1, 3, 4, 5, 6, 7, 8)
    assert puzzle.linear_conflict(state) == puzzle.manhattan(state) + 2
    # A 4x4 row reversed 3 2 1: pairwise counting gives +6, the minimum is 2 tiles (+4).
    puzzle = SlidingTilePuzzle(goal_tiles(4, "blank-first"))
    board = (0, 3, 2, 1, *range(4, 16))
    assert puzzle.linear_conflict(board) == puzzle.manhattan(board) + 4
    # Columns count too: 4 and 8 swapped in column 0.
    board = (0, 1, 2, 3, 8, 5, 6, 7, 4, *range(9, 16))
    assert puzzle.linear_conflict(board) == puzzle.manhattan(board) + 2


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_heuristics_are_admissible_consistent_and_ordered_on_every_8_puzzle_board(
    goal, eight_distances
):
    """h <= true distance for all 181,440 boards; |h(s) - h(s')| <= 1 along every move;
    misplaced <= manhattan <= linear_conflict."""
    puzzle = SlidingTilePuzzle(goal_tiles(3, goal), goal=goal)
    boards = list(eight_distances) if goal == "blank-first" else list(eight_distances)[::4]
    h_conflict = {}
    for board in boards:
        # distance of `board` to the chosen goal (blank-last via the isomorphism).
        true = eight_distances[board if goal == "blank-first" else swap_goal_convention(board)]
        misplaced, manhattan = puzzle.misplaced(board), puzzle.manhattan(board)
        conflict = puzzle.linear_conflict(board)
        assert misplaced <= manhattan <= conflict <= true, board
        assert (conflict - true) % 2 == 0, board  # every move changes h by exactly 1
        h_conflict[board] = conflict
    for board in boards[:20000]:
        for child, _ in puzzle.successors(board):
            if child in h_conflict:
                assert abs(h_conflict[child] - h_conflict[board]) == 1, (board, child)


def test_linear_conflict_is_admissible_on_random_4x4_walks():
    """On the 15-puzzle, BFS distances up to depth 12 bound the heuristic from above."""
    goal = goal_tiles(4, "blank-first")
    puzzle = SlidingTilePuzzle(goal)
    distances = bfs_distances(puzzle, goal, max_depth=12)
    for board, distance in distances.items():
        assert puzzle.manhattan(board) <= puzzle.linear_conflict(board) <= distance


# -- construction and bad input ---------------------------------------------------------------


def test_string_and_sequence_inputs_are_equivalent():
    assert SlidingTilePuzzle("1,2,3 4 5 6 7 8 0", goal="blank-last").tiles == tuple(
        [1, 2, 3, 4, 5, 6, 7, 8, 0]
    )
    assert parse_tiles(" 1\t2\n3 0 ") == (1, 2, 3, 0)


@pytest.mark.parametrize(
    ("tiles", "quoted"),
    [
        ([1, 2, 3, 4, 5, 6, 7, 8], "'1 2 3 4 5 6 7 8'"),  # 8 numbers: not a square
        ([0, 1, 2], "'0 1 2'"),
        ([0], "'0'"),
        ([1, 1, 2, 3], "'1 1 2 3'"),  # repeated
        ([0, 1, 2, 4], "'0 1 2 4'"),  # out of range
        ([0, 1, 2, -3], "'0 1 2 -3'"),
        ([0, 1, 2, 3.5], "3.5"),
        ([0, 1, 2, "3"], "'3'"),
        ([0, 1, 2, True], "True"),
    ],
)
def test_bad_boards_raise_invalid_state_quoting_the_tiles(tiles, quoted):
    with pytest.raises(InvalidStateError) as info:
        SlidingTilePuzzle(tiles)
    assert quoted in str(info.value)
    assert "\n" not in str(info.value)


def test_not_a_permutation_message_names_what_is_wrong():
    with pytest.raises(InvalidStateError, match="repeated: 1; missing: 0"):
        SlidingTilePuzzle([1, 1, 2, 3])


@pytest.mark.parametrize("text", ["", "   ", "1 2 three 0", "1;2;3;0", "1.0 2 3 0", "0x1 2 3 0"])
def test_unparsable_text_raises_quoting_the_text(text):
    with pytest.raises(InvalidStateError) as info:
        parse_tiles(text)
    assert repr(text) in str(info.value)


def test_unsolvable_board_raises_with_a_one_line_reason():
    with pytest.raises(UnsolvableError) as info:
        SlidingTilePuzzle("1 2 3 4 5 6 8 7 0", goal="blank-last")
    message = str(info.value)
    assert "'1 2 3 4 5 6 8 7 0'" in message and "blank-last" in message and "parit" in message
    assert "\n" not in message
    # Solvable for no goal of the same class: it is unsolvable for blank-first as well.
    with pytest.raises(UnsolvableError):
        SlidingTilePuzzle("1 2 3 4 5 6 8 7 0")


def test_bad_goal_and_heuristic():
    with pytest.raises(InvalidParameterError, match=r"'blank-middle'.*blank-first, blank-last"):
        SlidingTilePuzzle(GOAL_3_FIRST, goal="blank-middle")
    with pytest.raises(UnknownNameError, match=r"'euclid'.*manhattan, linear_conflict, misplaced"):
        SlidingTilePuzzle(GOAL_3_FIRST, heuristic="euclid")
    with pytest.raises(InvalidParameterError):
        goal_tiles(3, "start")
    with pytest.raises(InvalidParameterError):
        is_solvable(GOAL_3_FIRST, "nowhere")


# -- moves, notation, rendering ---------------------------------------------------------------


def test_moves_between_and_apply_moves_round_trip(eight_distances):
    puzzle = SlidingTilePuzzle("8 6 7 2 5 4 3 0 1", goal="blank-last")
    rng = random.Random(11)
    path = [puzzle.initial_state()]
    for _ in range(30):
        path.append(rng.choice(puzzle.successors(path[-1]))[0])
    moves = moves_between(path)
    assert len(moves.tiles) == len(moves.blank_directions) == 30
    assert set(moves.blank_directions) <= set("UDLR")
    assert apply_moves(path[0], moves.blank_directions) == path[-1]
    assert apply_moves(path[0], moves.tiles) == path[-1]
    assert apply_moves(path[0], " ".join(moves.blank_directions).lower()) == path[-1]
    # The tile slid is where the blank went to.
    for (before, after), tile in zip(itertools.pairwise(path), moves.tiles, strict=True):
        assert after.index(0) == before.index(tile)


def test_blank_direction_meaning():
    # U: the blank moves up, so the tile above it (2) slides down.
    assert moves_between([(1, 2, 3, 4, 0, 5, 6, 7, 8), (1, 0, 3, 4, 2, 5, 6, 7, 8)]) == (
        (2,),
        "U",
    )
    assert apply_moves((1, 2, 3, 4, 0, 5, 6, 7, 8), "L") == (1, 2, 3, 0, 4, 5, 6, 7, 8)


def test_illegal_moves_raise():
    start = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    with pytest.raises(IllegalMoveError, match="bottom edge"):
        apply_moves(start, "D")
    with pytest.raises(IllegalMoveError, match="not a blank direction"):
        apply_moves(start, "X")
    with pytest.raises(IllegalMoveError, match="not next to the blank"):
        apply_moves(start, [1])
    with pytest.raises(IllegalMoveError, match="no such tile"):
        apply_moves(start, [9])
    with pytest.raises(IllegalMoveError, match="step 1"):
        moves_between([start, (0, 2, 3, 4, 5, 6, 7, 8, 1)])


def test_render_pads_to_the_widest_tile():
    assert render((1, 2, 3, 0)) == "1 2\n3 ."
    assert render(goal_tiles(4, "blank-last")).splitlines()[-1] == "13 14 15  ."


def test_fifteen_puzzle_goals_are_in_opposite_classes(shared_data):
    """A Korf board (blank-first) cannot reach blank-last as it stands; the error says so and
    names the goal it can reach; the README's isomorphism converts it."""
    rows = read_tsv(shared_data / "sliding_tile" / "korf100_15puzzle.tsv")
    for row in rows:
        board = parse_tiles(row["tiles"])
        assert is_solvable(board, "blank-first") and not is_solvable(board, "blank-last")
        assert is_solvable(swap_goal_convention(board), "blank-last")
    with pytest.raises(UnsolvableError, match="it can reach the blank-first goal instead"):
        SlidingTilePuzzle(rows[0]["tiles"], goal="blank-last")
    # On the 8-puzzle both goals are one class: no such hint is possible.
    with pytest.raises(UnsolvableError) as info:
        SlidingTilePuzzle("1 2 3 4 5 6 8 7 0", goal="blank-last")
    assert "instead" not in str(info.value)
