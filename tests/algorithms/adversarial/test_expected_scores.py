"""Solver results checked against the scores test files expect
(``algorithms/adversarial/expected_scores.py``): Pons' Connect Four sets and the FFO endgames
are the ground truth; real solves agree, a wrong score or move does not."""

from __future__ import annotations

import csv
from pathlib import Path

from searchlab.algorithms.adversarial.expected_scores import endgame_status, score_verdict
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.othello.obf import read_obf
from searchlab.domains.games.position_files import read_pons_positions


def test_connect4_solves_agree_with_pons_scores_and_a_wrong_one_does_not(
    shared_data: Path,
) -> None:
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver

    solver = Connect4Solver()
    for position in read_pons_positions(shared_data / "connect4_pons" / "Test_L3_R1", limit=5):
        result = solver.solve(position.state)
        assert score_verdict(position.expected, result) is True
        assert score_verdict(position.expected + 1, result) is False


def test_a_stopped_solve_disagrees_only_when_its_bounds_exclude_the_score() -> None:
    stopped = SearchResult(action=None, value=0.0, stopped_by="time", stats={"bounds": (-3, 1)})
    assert [score_verdict(s, stopped) for s in (-4, -3, 0, 1, 2)] == [
        False,
        None,
        None,
        None,
        False,
    ]


def test_ffo_endgames_solved_are_ok_and_a_wrong_move_is_a_mismatch(shared_data: Path) -> None:
    folder = shared_data / "othello_ffo"
    with open(folder / "ffo_endgame.tsv", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    position = next(iter(read_obf(folder / "ffo_endgame.obf")))  # FFO #1, 14 empties
    assert position.best_score == int(rows[0]["best_score"])
    state = position.state()
    result = EndgameSolver().solve(state)
    assert state.action_to_string(result.action).upper() in rows[0]["best_moves"].split()
    assert endgame_status(position, result) == "ok"
    second_best = state.string_to_action("h1")  # +12 in the file, not the best +18
    wrong = SearchResult(action=second_best, value=1.0, score=result.score)
    assert endgame_status(position, wrong) == "mismatch"
    stopped = EndgameSolver().solve(state, limits=Limits(nodes=10))
    assert endgame_status(position, stopped) == "stopped"
