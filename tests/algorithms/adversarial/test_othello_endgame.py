"""The compiled Othello endgame solver: FFO positions with 14-16 empties (exact scores from
shared/data/othello_ffo) and differential tests against the reference solver and negamax."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver, solve_endgame
from searchlab.algorithms.adversarial.solver import solve
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.othello import PASS, Othello, OthelloState
from searchlab.domains.games.othello.obf import ObfPosition, read_obf


@pytest.fixture(scope="module")
def solver() -> EndgameSolver:
    return EndgameSolver(table_bits=18)


def ffo_positions(shared_data: Path) -> list[ObfPosition]:
    return list(read_obf(shared_data / "othello_ffo" / "ffo_endgame.obf"))


def test_ffo_14_to_16_empties_exact_score_and_best_move(
    shared_data: Path, solver: EndgameSolver
) -> None:
    easy = [p for p in ffo_positions(shared_data) if p.state().empties() <= 16]
    assert len(easy) == 11  # #1..#21
    for position in easy:
        result = solver.solve(position.state())
        assert result.is_proven and result.stopped_by is None
        assert result.value == position.best_score, position.source
        assert result.action in position.best_moves, position.source
        assert result.nodes > 0 and result.tier == "compiled"


def test_ffo_every_move_score_of_the_14_empties_positions(shared_data: Path) -> None:
    # the strong check: the exact score of every legal move, as listed in the file
    positions = [p for p in ffo_positions(shared_data) if p.state().empties() == 14]
    assert len(positions) == 4
    for position in positions:
        result = solve_endgame(position.state(), move_scores=True, table_bits=18)
        assert result.stats["move_scores"] == dict(position.move_scores), position.source


def random_positions(
    empties: int, count: int, seed: int, *, want_pass: bool = False
) -> list[OthelloState]:
    """Seeded random playouts stopped at ``empties`` empty squares (not finished); with
    ``want_pass``, only positions whose line to the end can contain a pass near the root."""
    rng = random.Random(seed)
    found: list[OthelloState] = []
    while len(found) < count:
        state = Othello().initial_state()
        while not state.is_terminal() and state.empties() > empties:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        if want_pass and state.legal_actions() != (PASS,):
            continue
        found.append(state)
    return found


@pytest.mark.parametrize(("empties", "count", "seed"), [(4, 30, 1), (7, 20, 2), (9, 6, 3)])
def test_compiled_solver_equals_the_reference_solver(
    empties: int, count: int, seed: int, solver: EndgameSolver
) -> None:
    game = Othello()
    for state in random_positions(empties, count, seed):
        reference = solve(game, state)
        compiled = solver.solve(state, move_scores=True)
        assert compiled.value == reference.value, repr(state)
        assert compiled.stats["move_scores"] == {
            action: int(value) for action, value in reference.stats["action_values"].items()
        }, repr(state)
        best = {a for a, v in reference.stats["action_values"].items() if v == reference.value}
        assert compiled.action in best, repr(state)
        # the null-window search (no move_scores) finds the same value and a best move
        plain = solve_endgame(state, table_bits=12)
        assert plain.value == reference.value and plain.action in best, repr(state)


def test_compiled_solver_at_a_forced_pass(solver: EndgameSolver) -> None:
    states = random_positions(8, 3, 11, want_pass=True)
    game = Othello()
    for state in states:
        reference = solve(game, state)
        compiled = solver.solve(state, move_scores=True)
        assert compiled.action == PASS and compiled.value == reference.value, repr(state)


def test_compiled_solver_equals_reference_negamax(solver: EndgameSolver) -> None:
    game = Othello()
    for state in random_positions(6, 5, 5):
        reference = negamax(game, state)
        assert reference.is_proven
        assert solver.solve(state).value == reference.value, repr(state)


def test_finished_game_and_pass_only_positions() -> None:
    board = "X" * 62 + "OO"
    finished = Othello().state_from_board(board, "O")
    assert finished.is_terminal()
    result = solve_endgame(finished, table_bits=8)
    assert result.action is None and result.value == -(62 - 2)
    # O cannot move, X plays f8 turning e8: 62 X, 0 O, 2 empties to X
    state = Othello().state_from_board("X" * 60 + "O---", "O")
    result = solve_endgame(state, move_scores=True, table_bits=8)
    assert result.action == PASS and result.value == -64
    assert result.stats["move_scores"] == {PASS: -64}


def test_node_limit_stops_the_search(shared_data: Path) -> None:
    state = ffo_positions(shared_data)[0].state()
    result = solve_endgame(state, limits=Limits(nodes=1000), table_bits=12)
    assert result.stopped_by == "nodes" and not result.is_proven
    assert result.nodes <= 1000 + 64  # the budget, plus the unwinding of the stopped line


def test_time_limit_stops_the_search(shared_data: Path) -> None:
    # FFO #53 (28 empties) takes far longer than 0.3 s: the search must stop at the limit
    hard = next(p for p in ffo_positions(shared_data) if p.state().empties() >= 28)
    result = solve_endgame(hard.state(), limits=Limits(time=0.3), table_bits=16)
    assert result.stopped_by == "time" and not result.is_proven
    lower, upper = result.stats["bounds"]
    assert lower <= hard.best_score <= upper


def test_time_limit_with_time_to_spare_is_exact(shared_data: Path) -> None:
    position = ffo_positions(shared_data)[0]
    result = solve_endgame(position.state(), limits=Limits(time=60.0), table_bits=16)
    assert result.is_proven and result.stopped_by is None
    assert result.value == position.best_score and result.action in position.best_moves


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"table_bits": 40}, "table_bits must be in 4..28, got 40"),
        ({"table_bits": "20"}, "table_bits must be an integer, got '20'"),
    ],
)
def test_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    state = Othello().state_from_board("X" * 60 + "O---", "O")
    with pytest.raises(InvalidParameterError, match=message):
        solve_endgame(state, **kwargs)  # type: ignore[arg-type]


def test_table_is_kept_between_solves(shared_data: Path) -> None:
    state = ffo_positions(shared_data)[2].state()
    solver = EndgameSolver(table_bits=16)
    first = solver.solve(state)
    second = solver.solve(state)
    assert first.value == second.value == 32
    assert second.nodes < first.nodes
