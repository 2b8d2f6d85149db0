"""``solve`` through the kernel registry (compiled on the built-in Connect4 and Othello, the
reference on subclasses), the solvers' native score in ``SearchResult.score``, and the compiled
solvers' limits: a node budget, a time limit and ``stop()`` from another thread, each with the
bounds proved so far. Ground truth: Pons' scores (shared data) and the FFO table."""

from __future__ import annotations

import csv
import random
import threading
from pathlib import Path

import pytest
from hang_guard import hang_guard

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver
from searchlab.algorithms.adversarial.solver import solve
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.othello import Othello


class MyConnect4(Connect4):
    """A user's variant of Connect Four (same rules, not the built-in type)."""


class MyOthello(Othello):
    """A user's variant of Othello (same rules, not the built-in type)."""


def pons(shared_data: Path, name: str) -> list[tuple[str, int]]:
    rows = (shared_data / "connect4_pons" / name).read_text().split()
    return [(rows[i], int(rows[i + 1])) for i in range(0, len(rows), 2)]


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


# -- tiers ------------------------------------------------------------------------------------
def test_connect4_solve_is_compiled_and_a_subclass_runs_the_reference(shared_data: Path) -> None:
    for moves, expected in random.Random(5).sample(pons(shared_data, "Test_L3_R1"), 6):
        compiled = solve(Connect4(), Connect4().from_moves(moves))
        reference = solve(MyConnect4(), MyConnect4().from_moves(moves))
        assert (compiled.tier, reference.tier) == ("compiled", "reference")
        assert compiled.algorithm == reference.algorithm == "solve"
        assert compiled.value == reference.value == sign(expected)
        assert compiled.score == expected and reference.score is None
        assert compiled.plies_to_end == reference.plies_to_end
        with pytest.raises(InvalidParameterError, match="no compiled tier for the game 'connect4'"):
            solve(MyConnect4(), MyConnect4().from_moves(moves), tier="compiled")


def test_othello_solve_is_compiled_and_a_subclass_runs_the_reference() -> None:
    board = "X" * 56 + "OOXO-O--"  # 3 empties: the reference solves it at once
    compiled = solve(Othello(), Othello().state_from_board(board, "O"))
    reference = solve(MyOthello(), MyOthello().state_from_board(board, "O"))
    assert (compiled.tier, reference.tier) == ("compiled", "reference")
    assert compiled.value == reference.value and compiled.score == compiled.value
    assert compiled.plies_to_end == reference.plies_to_end
    assert compiled.stats["action_values"] == reference.stats["action_values"]


def test_finished_games_answer_the_same_in_both_tiers() -> None:
    for game, state in [
        (Connect4(), Connect4().from_moves("1212121")),  # X won
        (Othello(), Othello().state_from_board("X" * 62 + "OO", "X")),  # full board
    ]:
        compiled, reference = solve(game, state), solve(game, state, tier="reference")
        assert compiled.tier == "compiled" and reference.tier == "reference"
        for result in (compiled, reference):
            assert result.action is None and result.is_proven and result.plies_to_end == 0
            assert result.value == state.returns()[state.current_player()]
            assert result.stats["action_values"] == {}


# -- the score field --------------------------------------------------------------------------
def test_connect4_score_is_pons_score_and_value_the_games_returns(shared_data: Path) -> None:
    solver = Connect4Solver(table_log2=18)
    for moves, expected in pons(shared_data, "Test_L2_R1")[:40]:
        result = solver.solve(moves)
        assert result.score == expected
        assert result.value == sign(expected)  # +1 win, 0 draw, -1 loss: the units of returns()
        state = parse_moves(moves)
        line_end = state
        for column in solver.solve(moves, principal_variation=True).principal_variation:
            line_end = line_end.apply(column)
        assert line_end.returns()[state.current_player()] == result.value


def test_othello_score_is_the_disc_difference(shared_data: Path) -> None:
    with (shared_data / "othello_ffo" / "ffo_endgame.tsv").open() as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if int(row["empties"]) <= 14]
    solver = EndgameSolver(table_bits=16)
    for row in rows[:3]:
        state = Othello().state_from_board(row["board"], row["side_to_move"])
        result = solver.solve(state)
        assert result.score == int(row["best_score"]) == result.value
        win_loss = Othello("win_loss").state_from_board(row["board"], row["side_to_move"])
        scored = solver.solve(win_loss)
        assert scored.score == result.score and scored.value == sign(result.score)


# -- limits and stop --------------------------------------------------------------------------
def hard_connect4(shared_data: Path) -> tuple[str, int]:
    return min(pons(shared_data, "Test_L1_R3"), key=lambda line: len(line[0]))


def test_connect4_node_budget_is_exact_and_its_bounds_hold(shared_data: Path) -> None:
    moves, expected = hard_connect4(shared_data)
    solver = Connect4Solver(table_log2=20)
    for budget in (1, 1000, 200_000):
        result = solver.solve(moves, limits=Limits(nodes=budget))
        assert result.stopped_by == "nodes" and not result.is_proven
        assert result.nodes == budget and result.score is None and result.action is None
        low, high = result.stats["bounds"]
        assert low <= expected <= high
    # the solver is usable (unlimited) after a stopped solve
    assert solver.score("4455") == 18 and solver.solve("4455").score == 18


def test_connect4_time_limit(shared_data: Path) -> None:
    moves, expected = hard_connect4(shared_data)
    solver = Connect4Solver(table_log2=20)
    with hang_guard("a connect4 solve with a 0.3 s budget"):
        result = solver.solve(moves, limits=Limits(time=0.3))
    assert result.stopped_by == "time" and result.outcome == "unknown"
    low, high = result.stats["bounds"]
    assert low <= expected <= high
    # with time to spare, a limited solve is exact and counts the same nodes
    easy, score = "2252576253462244111563365343671351441", -1
    timed = solver.solve(easy, limits=Limits(time=30))
    plain = solver.solve(easy)
    assert timed.score == plain.score == score and timed.stopped_by is None
    assert timed.nodes == plain.nodes


def test_connect4_stop_from_another_thread(shared_data: Path) -> None:
    moves, expected = hard_connect4(shared_data)
    solver = Connect4Solver(table_log2=20)
    stopper = threading.Timer(0.3, solver.stop)
    stopper.start()
    with hang_guard("a connect4 solve stopped from another thread"):
        result = solver.solve(moves)  # no limit: only stop() ends it within the guard
    stopper.join()
    assert result.stopped_by == "stop" and not result.is_proven
    low, high = result.stats["bounds"]
    assert low <= expected <= high
    solver.stop()  # no solve running: nothing happens
    assert solver.solve("4455").score == 18


def test_othello_stop_from_another_thread(shared_data: Path) -> None:
    with (shared_data / "othello_ffo" / "ffo_endgame.tsv").open() as handle:
        row = max(csv.DictReader(handle, delimiter="\t"), key=lambda row: int(row["empties"]))
    state = Othello().state_from_board(row["board"], row["side_to_move"])
    solver = EndgameSolver()
    threading.Timer(0.3, solver.stop).start()
    with hang_guard("an othello solve stopped from another thread"):
        result = solver.solve(state)  # no limit: one long kernel call, ended by stop()
    assert result.stopped_by == "stop" and result.score is None and not result.is_proven
    low, high = result.stats["bounds"]
    assert low <= int(row["best_score"]) <= high


def test_bad_limits_are_refused() -> None:
    with pytest.raises(InvalidParameterError, match="limits must be a searchlab Limits"):
        Connect4Solver(table_log2=10).solve("4455", limits={"time": 1})  # type: ignore[arg-type]
