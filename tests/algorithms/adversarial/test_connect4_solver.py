"""The compiled Connect Four solver against Pons' exact scores (shared/data/connect4_pons), and
differential tests against the reference tier (memoising solver, negamax engine, alpha-beta)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.adversarial.connect4_solver import (
    Connect4Solver,
    alphabeta_connect4,
    plies_to_end,
    solve_connect4,
)
from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.algorithms.adversarial.solver import Solver
from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.domains.games.connect4 import Connect4, parse_moves


def pons_lines(shared_data: Path, name: str) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().split("\n")
    return [(m, int(s)) for m, s in (line.split() for line in lines if line)]


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return Connect4Solver(table_log2=21)


def pons_score(value: float, plies: int, num_moves: int) -> int:
    """Pons' score from a win/loss/draw value and the plies to the end (independent of the
    solver's own conversion): the stones the winner has on the board at the end."""
    if value == 0:
        return 0
    mover_now, opponent_now = num_moves // 2, num_moves - num_moves // 2
    if value > 0:
        return 22 - (mover_now + (plies + 1) // 2)
    return (opponent_now + plies // 2) - 22


# -- Pons' test sets ---------------------------------------------------------------------------
def test_every_end_easy_position(shared_data: Path, solver: Connect4Solver) -> None:
    lines = pons_lines(shared_data, "Test_L3_R1")
    assert len(lines) == 500
    wrong = [(m, s, solver.solve(m, find_move=False).score) for m, s in lines]
    assert [w for w in wrong if w[1] != w[2]] == []


@pytest.mark.parametrize(
    ("name", "sample"), [("Test_L2_R1", 150), ("Test_L2_R2", 80), ("Test_L1_R1", 150)]
)
def test_seeded_sample(shared_data: Path, solver: Connect4Solver, name: str, sample: int) -> None:
    lines = random.Random(2026).sample(pons_lines(shared_data, name), sample)
    for moves, expected in lines:
        result = solver.solve(moves)
        assert result.score == expected, moves
        # value: the game's returns (+1/0/-1), not Pons' score
        assert result.value == (expected > 0) - (expected < 0)
        assert result.is_proven and result.tier == "compiled"
        # the best move keeps the score: the child scores exactly -score
        assert solver.score(parse_moves(moves).apply(result.action)) == -expected or (
            parse_moves(moves).apply(result.action).is_terminal() and expected > 0
        ), moves


def test_weak_solve_gives_the_sign(shared_data: Path, solver: Connect4Solver) -> None:
    lines = random.Random(7).sample(pons_lines(shared_data, "Test_L2_R2"), 20)
    for moves, expected in lines:
        weak = solver.solve(moves, weak=True)
        assert weak.value == weak.score == (expected > 0) - (expected < 0), moves
        # with the table of a strong search still there (fail-soft bounds beyond the window)
        assert solver.score(moves) == expected
        assert solver.score(moves, weak=True) == (expected > 0) - (expected < 0), moves


def test_pons_page_examples() -> None:
    assert solve_connect4("4455").score == 18
    assert solve_connect4("44455554221").score == -15


def test_principal_variation_plays_out_the_score(shared_data: Path) -> None:
    solver = Connect4Solver(table_log2=18)
    for moves, expected in random.Random(3).sample(pons_lines(shared_data, "Test_L3_R1"), 25):
        result = solver.solve(moves, principal_variation=True)
        state = parse_moves(moves)
        for column in result.principal_variation:
            state = state.apply(column)
        assert state.is_terminal(), moves
        assert result.principal_variation[0] == result.action
        mover = parse_moves(moves).current_player()
        outcome = state.returns()[mover]
        assert outcome == (expected > 0) - (expected < 0), moves
        if expected != 0:
            assert len(result.principal_variation) == result.plies_to_end, moves
            assert pons_score(outcome, result.plies_to_end, len(moves)) == expected


def test_plies_to_end_inverts_pons_score() -> None:
    for num_moves in range(0, 40):
        for plies in range(1, 43 - num_moves):
            for value in (1, -1):
                if (plies % 2 == 1) != (value > 0):
                    continue  # the mover wins on odd plies, the opponent on even ones
                score = pons_score(value, plies, num_moves)
                assert plies_to_end(score, num_moves) == plies
    assert plies_to_end(0, 10) is None


# -- differential: the reference tier ----------------------------------------------------------
def late_positions(shared_data: Path, min_stones: int, count: int) -> list[tuple[str, int]]:
    lines = [(m, s) for m, s in pons_lines(shared_data, "Test_L3_R1") if len(m) >= min_stones]
    return random.Random(9).sample(lines, count)


def test_reference_solver_agrees_on_scores_and_unique_best_moves(shared_data: Path) -> None:
    game = Connect4()
    solver = Connect4Solver(table_log2=16)
    unique_checked = 0
    for moves, expected in late_positions(shared_data, 33, 20):
        state = parse_moves(moves)
        reference = Solver(game)
        value, plies, _ = reference.value(state)
        assert pons_score(value, plies, len(moves)) == expected, moves
        result = solver.solve(state)
        assert result.score == expected
        per_action = {
            action: pons_score(v, p, len(moves))
            for action, (v, p) in reference.action_values(state).items()
        }
        best = max(per_action.values())
        winners = [a for a, s in per_action.items() if s == best]
        assert best == expected
        assert result.action in winners, (moves, per_action, result.action)
        unique_checked += len(winners) == 1
    assert unique_checked >= 5


def test_reference_negamax_agrees(shared_data: Path) -> None:
    game = Connect4()
    for moves, expected in late_positions(shared_data, 35, 8):
        result = negamax(game, parse_moves(moves))
        assert result.is_proven
        plies = result.plies_to_end if result.plies_to_end is not None else 0
        assert pons_score(result.value, plies, len(moves)) == expected, moves


@pytest.mark.parametrize("moves", ["", "4", "4453", "3344", "12345671", "4444332"])
@pytest.mark.parametrize("depth", [1, 3, 5])
def test_compiled_alphabeta_is_the_reference_tree(moves: str, depth: int) -> None:
    state = parse_moves(moves)
    reference = alphabeta(Connect4(), state, depth=depth, evaluate=lambda s: 0.0)
    compiled = alphabeta_connect4(state, depth)
    assert compiled.value == reference.value
    assert compiled.action == reference.action
    assert compiled.nodes == reference.nodes


def test_compiled_alphabeta_finds_forced_results(shared_data: Path) -> None:
    for moves, expected in late_positions(shared_data, 36, 10):
        remaining = 42 - len(moves)
        result = alphabeta_connect4(moves, remaining)  # the whole game: exact sign
        assert result.value == (expected > 0) - (expected < 0), moves


# -- bad input ---------------------------------------------------------------------------------
def test_finished_games_are_rejected() -> None:
    with pytest.raises(InvalidStateError, match=r"'1212121'.*already over.*X won"):
        solve_connect4("1212121")
    with pytest.raises(InvalidStateError, match="already over"):
        alphabeta_connect4("1212121", 2)
    with pytest.raises(IllegalMoveError, match="move 8"):
        solve_connect4("12121212")
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        Connect4Solver(table_log2=10).score("1111111")


@pytest.mark.parametrize("table_log2", [9, 31, 20.0, True])
def test_bad_table_size(table_log2: object) -> None:
    with pytest.raises(InvalidParameterError, match="table_log2"):
        Connect4Solver(table_log2=table_log2)  # type: ignore[arg-type]


@pytest.mark.parametrize("depth", [0, -2, 1.5])
def test_bad_alphabeta_depth(depth: object) -> None:
    with pytest.raises(InvalidParameterError, match="depth"):
        alphabeta_connect4("4", depth)  # type: ignore[arg-type]
