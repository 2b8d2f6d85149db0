"""Flat Monte Carlo: as a one-ply search, and as the evaluation function at the horizon of
negamax and alpha-beta (judged against the exact tic-tac-toe solver)."""

from __future__ import annotations

import pytest

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.algorithms.adversarial.solver import Solver
from searchlab.algorithms.mcts import flat_monte_carlo, monte_carlo_evaluation
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import TicTacToe


def positions_where_the_horizon_matters(game, solver, max_stones: int):
    """Non-terminal tic-tac-toe positions (up to ``max_stones`` stones, each once) where some
    move is not optimal, with the set of optimal moves."""
    rows, seen, frontier = [], set(), [game.initial_state()]
    for _ in range(max_stones + 1):
        following = []
        for state in frontier:
            if state.is_terminal() or state.key() in seen:
                continue
            seen.add(state.key())
            values = solver.action_values(state)
            best = max(value for value, _ in values.values())
            optimal = {action for action, (value, _) in values.items() if value == best}
            if len(optimal) < len(values):
                rows.append((state, optimal))
            following += [state.apply(action) for action in state.legal_actions()]
        frontier = following
    return rows


def test_monte_carlo_evaluation_at_the_horizon_finds_optimal_moves() -> None:
    game = TicTacToe()
    solver = Solver(game)
    rows = positions_where_the_horizon_matters(game, solver, max_stones=2)
    assert len(rows) > 50
    depth = Limits(depth=2)
    blind = sum(negamax(game, s, limits=depth).action in best for s, best in rows)
    evaluate = monte_carlo_evaluation(50, seed=1)
    informed = sum(
        negamax(game, s, limits=depth, evaluate=evaluate).action in best for s, best in rows
    )
    assert evaluate.playouts > 0
    # With no evaluation (0 at the horizon) depth 2 plays the first safe move: optimal about
    # half the time; with playouts at the horizon far more often (58 of 69 when written).
    assert blind <= 0.55 * len(rows)
    assert informed >= 0.75 * len(rows), (informed, len(rows))


def test_monte_carlo_evaluation_works_in_alphabeta() -> None:
    game = TicTacToe()
    solver = Solver(game)
    rows = positions_where_the_horizon_matters(game, solver, max_stones=1)
    evaluate = monte_carlo_evaluation(100, seed=2)
    found = sum(alphabeta(game, s, depth=1, evaluate=evaluate).action in best for s, best in rows)
    zero = sum(
        alphabeta(game, s, depth=1, evaluate=lambda _: 0.0).action in best for s, best in rows
    )
    assert found >= 0.75 * len(rows) and found > zero, (found, zero, len(rows))


def test_evaluation_is_for_the_player_to_move() -> None:
    evaluate = monte_carlo_evaluation(20, seed=0)
    assert evaluate(Nim((1,)).initial_state()) == 1.0  # takes the last counter
    assert evaluate(Nim((1, 1)).initial_state()) == -1.0  # leaves the last one
    second = Nim((1, 1)).initial_state().apply(0)  # player 1 to move on (0, 1)
    assert evaluate(second) == 1.0
    finished = play(TicTacToe().initial_state(), "a1 b1 a2 b2 a3")  # X won, O to move
    assert evaluate(finished) == -1.0


def test_evaluation_is_reproducible_by_seed() -> None:
    state = TicTacToe().initial_state()
    values = [monte_carlo_evaluation(30, seed=s)(state) for s in (1, 1, 2)]
    assert values[0] == values[1] != values[2]


def test_flat_monte_carlo_takes_a_win_and_blocks() -> None:
    game = TicTacToe()
    win = play(game.initial_state(), "a1 b1 a2 b2")
    block = play(game.initial_state(), "a1 b1 a2")
    for state in (win, block):
        result = flat_monte_carlo(game, state, limits=Limits(simulations=900), seed=3)
        assert state.action_to_string(result.action) == "a3"
    won = flat_monte_carlo(game, win, limits=Limits(simulations=50), seed=3)
    assert won.value == 1.0


def test_flat_monte_carlo_result_shape_and_even_spread() -> None:
    game = TicTacToe()
    result = flat_monte_carlo(game, limits=Limits(simulations=905), seed=4)
    assert (result.algorithm, result.depth, result.nodes) == ("flat_monte_carlo", 1, 10)
    children = result.stats["children"]
    assert result.stats["simulations"] == 905
    assert sorted(c["visits"] for c in children) == [100] * 4 + [101] * 5
    best = max(children, key=lambda c: c["value"])
    assert (result.action, result.value) == (best["action"], best["value"])
    assert result.principal_variation == (result.action,)
    again = flat_monte_carlo(game, limits=Limits(simulations=905), seed=4)
    assert again.stats == result.stats


def test_flat_monte_carlo_on_a_finished_game_and_bad_input() -> None:
    over = play(TicTacToe().initial_state(), "a1 b1 a2 b2 a3")
    result = flat_monte_carlo(TicTacToe(), over, limits=Limits(simulations=5))
    assert (result.action, result.value, result.is_proven) == (None, -1.0, True)
    with pytest.raises(InvalidParameterError, match="needs a budget"):
        flat_monte_carlo(TicTacToe())
    with pytest.raises(UnknownNameError, match="unknown rollout 'smart'"):
        flat_monte_carlo(TicTacToe(), limits=Limits(simulations=5), rollout="smart")
    with pytest.raises(InvalidParameterError, match="num_playouts must be an integer >= 1, got 0"):
        monte_carlo_evaluation(0)
    with pytest.raises(InvalidParameterError, match="seed must be an integer or None"):
        monte_carlo_evaluation(5, seed=1.5)


def test_time_budget() -> None:
    result = flat_monte_carlo(TicTacToe(), limits=Limits(time=0.02), seed=1)
    assert result.stopped_by == "time" and result.stats["simulations"] >= 1
