"""Ground truth past what the other tests reach, in a sample that fits CI (about 15 s here):
Pons' Begin-Medium and Begin-Hard Connect Four positions (exact scores from the test files,
and the node counts of the committed Begin-Hard run), and FFO Othello endgames with 18 to 26
empties (exact score, and a best move among the file's best moves).

The samples are fixed lists, chosen once and deterministically by cost so that the whole file
stays fast; each list says how it was chosen. Every expected value is read from the data files
in ``../shared/data`` (or, for node counts, from the committed benchmark output), never
written here.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver
from searchlab.domains.games.connect4 import parse_moves
from searchlab.domains.games.othello import Othello, parse_square

REPO_ROOT = Path(__file__).resolve().parents[3]
BEGIN_HARD_RUN = REPO_ROOT / "benchmarks" / "results" / "connect4_begin_hard_full.jsonl"

# Begin-Medium (Test_L1_R2), 1-based line numbers: the 30 positions the compiled solver
# (table 2^23) solves with the fewest nodes, then every draw of the file (12), measured on
# 2026-11-23 over all 500 lines (all 500 exact; 0.1 s for these 42 together).
BEGIN_MEDIUM_FEWEST_NODES = (
    472, 228, 456, 421, 36, 120, 56, 171, 389, 387, 433, 73, 14, 329, 253,
    197, 306, 9, 19, 234, 473, 386, 449, 351, 78, 67, 468, 385, 439, 170,
)  # fmt: skip
BEGIN_MEDIUM_DRAWS = (31, 162, 203, 215, 223, 263, 350, 353, 412, 425, 439, 477)

# Begin-Hard (Test_L1_R3), 1-based line numbers: the 20 fastest solves of the committed full
# run (benchmarks/results/connect4_begin_hard_full.jsonl, line k = position k), 19-80 ms each.
BEGIN_HARD_FASTEST = (
    380, 282, 453, 404, 276, 209, 379, 378, 328, 406,
    283, 368, 245, 358, 396, 343, 326, 307, 60, 253,
)  # fmt: skip

# FFO positions past 16 empties that the compiled solver finishes in under 3 s each
# (docs/benchmarks.md, "after" column: 0.05-2.1 s; 7 s for the ten on this 2-core machine;
# #47, 25 empties, takes 3 s alone and is left out).
FFO_FAST_DEEP = (23, 25, 27, 29, 31, 33, 35, 37, 39, 41)


def pons_lines(shared_data: Path, name: str) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().splitlines()
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


@pytest.fixture(scope="module")
def connect4_solver() -> Connect4Solver:
    """The table size of the committed runs (node counts depend on it)."""
    return Connect4Solver(table_log2=23)


def test_the_samples_are_what_their_comments_say(shared_data: Path) -> None:
    medium = pons_lines(shared_data, "Test_L1_R2")
    assert [k for k, (_, score) in enumerate(medium, 1) if score == 0] == list(BEGIN_MEDIUM_DRAWS)
    run = [json.loads(line) for line in BEGIN_HARD_RUN.read_text().splitlines()]
    assert [row["moves"] for row in run] == [
        moves for moves, _ in pons_lines(shared_data, "Test_L1_R3")
    ]
    fastest = sorted(range(1, len(run) + 1), key=lambda k: run[k - 1]["ms"])[:20]
    assert tuple(fastest) == BEGIN_HARD_FASTEST


def test_begin_medium_sample_exact_scores_and_a_best_move(
    shared_data: Path, connect4_solver: Connect4Solver
) -> None:
    lines = pons_lines(shared_data, "Test_L1_R2")
    sample = dict.fromkeys(BEGIN_MEDIUM_FEWEST_NODES + BEGIN_MEDIUM_DRAWS)
    outcomes = set()
    for number in sample:
        moves, expected = lines[number - 1]
        result = connect4_solver.solve(parse_moves(moves))
        assert result.score == expected, (number, moves)
        # The move found keeps the score: after it, the opponent's exact score is its negation.
        after = parse_moves(moves).apply(result.action)
        assert connect4_solver.score(after) == -expected, (number, moves, result.action)
        outcomes.add((expected > 0) - (expected < 0))
    assert outcomes == {-1, 0, 1}


def test_begin_hard_sample_exact_scores_and_the_committed_node_counts(
    shared_data: Path, connect4_solver: Connect4Solver
) -> None:
    lines = pons_lines(shared_data, "Test_L1_R3")
    run = [json.loads(line) for line in BEGIN_HARD_RUN.read_text().splitlines()]
    outcomes = set()
    for number in BEGIN_HARD_FASTEST:
        moves, expected = lines[number - 1]
        result = connect4_solver.solve(parse_moves(moves), find_move=False)
        assert result.score == expected, (number, moves)
        # The committed run's figures are reproduced node for node (a fresh table each time).
        assert result.stats["score_nodes"] == run[number - 1]["nodes"], (number, moves)
        outcomes.add((expected > 0) - (expected < 0))
    assert outcomes == {-1, 0, 1}


def test_ffo_past_16_empties_exact_score_and_a_best_move(shared_data: Path) -> None:
    with open(shared_data / "othello_ffo" / "ffo_endgame.tsv", newline="") as handle:
        rows = {int(row["ffo_id"]): row for row in csv.DictReader(handle, delimiter="\t")}
    game = Othello()
    empties = []
    for ffo_id in FFO_FAST_DEEP:
        row = rows[ffo_id]
        state = game.state_from_board(row["board"], row["side_to_move"])
        assert state.empties() == int(row["empties"]) > 16
        result = EndgameSolver(table_bits=22).solve(state)
        assert result.is_proven and result.stopped_by is None, ffo_id
        assert result.value == int(row["best_score"]), ffo_id
        best = {parse_square(move) for move in row["best_moves"].split(",")}
        assert result.action in best, (ffo_id, result.action, row["best_moves"])
        empties.append(state.empties())
    assert min(empties) == 18 and max(empties) == 26
