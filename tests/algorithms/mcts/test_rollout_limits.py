"""Every rollout ends: the reference tier's playouts stop at the game's ``max_game_length``
(or at :data:`MAX_PLAYOUT_PLIES` for a game that declares none) with one clear error, instead
of running forever on a game that never ends; games that do end play exactly as before."""

from __future__ import annotations

import random

import pytest
from endless_game import Endless

from searchlab.algorithms.mcts import flat_monte_carlo, mcts
from searchlab.algorithms.mcts.flat import MonteCarloEvaluation
from searchlab.algorithms.mcts.rollout import (
    MAX_PLAYOUT_PLIES,
    informed_policy,
    playout,
    playout_limit,
    random_policy,
    traced_playout,
)
from searchlab.core.errors import EndlessGameError
from searchlab.core.limits import Limits
from searchlab.domains.games.nim import Nim


@pytest.mark.parametrize("policy", [random_policy, informed_policy])
def test_a_rollout_stops_at_the_games_length(policy: object) -> None:
    game = Endless(40)
    with pytest.raises(EndlessGameError, match="rollout of game 'endless' did not end within 40"):
        playout(game.initial_state(), policy, random.Random(1))  # type: ignore[arg-type]
    if policy is random_policy:  # (the informed policy also tries moves it does not play)
        assert game.applied == 40  # the game's own length, read from state.game
    moves: list[tuple[int, int]] = []
    with pytest.raises(EndlessGameError, match="within 7 plies"):
        traced_playout(game.initial_state(), policy, random.Random(1), moves, 7)  # type: ignore[arg-type]
    assert len(moves) == 7


def test_a_game_that_declares_no_length_gets_the_documented_cap() -> None:
    game = Endless(None)
    assert playout_limit(game) == MAX_PLAYOUT_PLIES == 10_000  # type: ignore[arg-type]
    with pytest.raises(EndlessGameError, match=f"within {MAX_PLAYOUT_PLIES} plies"):
        playout(game.initial_state(), random_policy, random.Random(0))
    assert game.applied == MAX_PLAYOUT_PLIES


@pytest.mark.parametrize(
    "search",
    [
        lambda game: mcts(game, limits=Limits(simulations=50), seed=1, tier="reference"),
        lambda game: mcts(game, limits=Limits(simulations=50), seed=1, tier="reference", rave=50),
        lambda game: mcts(
            game, limits=Limits(simulations=50), seed=1, tier="reference",
            rollout="informed",
        ),
        lambda game: flat_monte_carlo(game, limits=Limits(simulations=50), seed=1),
        lambda game: MonteCarloEvaluation(3, game=game)(game.initial_state()),
        lambda game: MonteCarloEvaluation(3)(game.initial_state()),
    ],
)  # fmt: skip
def test_the_searches_stop_with_one_clear_error(search: object) -> None:
    game = Endless(30)
    with pytest.raises(EndlessGameError, match="did not end within 30 plies"):
        search(game)  # type: ignore[operator]
    assert game.applied < 300  # one rollout (the informed one tries every move each ply)


def test_games_that_end_play_the_same_rollouts() -> None:
    """The limit never cuts a game that keeps its word: the same draws, the same results."""
    game = Nim((3, 4, 5))
    for seed in range(20):
        moves: list[tuple[int, int]] = []
        limited = traced_playout(
            game.initial_state(), random_policy, random.Random(seed), moves, playout_limit(game)
        )
        unlimited = playout(game.initial_state(), random_policy, random.Random(seed), 10**9)
        assert tuple(limited) == tuple(unlimited)
        assert len(moves) <= 12
    exact = playout(Nim((1,)).initial_state(), random_policy, random.Random(0), 1)
    assert tuple(exact) == (1.0, -1.0)  # a game that ends on its last allowed ply is fine
