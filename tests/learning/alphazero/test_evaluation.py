"""The training loop's evaluation games: network agents through the one match loop, seeded."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from searchlab.agents import AgentBase, make_agent
from searchlab.agents.match import play_game
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import search
from searchlab.core.game import State
from searchlab.core.limits import Limits
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero.evaluation import (
    evaluation_game,
    game_generator,
    network_agent,
    play_match,
    tally,
)
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.networks.network import PolicyValueNet

GAME = TicTacToe()
SEARCH = MCTSOptions()  # the PUCT knobs
SIMULATIONS = 16


@pytest.fixture(scope="module")
def evaluators() -> list[NetworkEvaluator]:
    encoder = encoder_for(GAME)
    return [
        NetworkEvaluator(PolicyValueNet(encoder.shape, encoder.num_actions, seed=s).eval(), encoder)
        for s in (0, 1)
    ]


def games_of(evaluators: list[NetworkEvaluator], seed: int, games: int) -> list[tuple[str, ...]]:
    """The moves of a match's games, played as the training loop's workers play them."""
    lines = []
    for number in range(games):
        rng = game_generator(seed, number)
        first, second = (network_agent(e, SEARCH, SIMULATIONS, rng=rng) for e in evaluators)
        seats = (first, second) if number % 2 == 0 else (second, first)
        lines.append(tuple(move.notation for move in play_game(GAME, seats, strict=True).moves))
    return lines


def test_the_same_seed_plays_the_same_games_and_the_openings_vary(
    evaluators: list[NetworkEvaluator],
) -> None:
    once = games_of(evaluators, seed=7, games=6)
    assert games_of(evaluators, seed=7, games=6) == once
    assert len({line[:2] for line in once}) > 1  # the first two plies are drawn, so they vary
    assert games_of(evaluators, seed=8, games=6) != once
    makers = [lambda rng, e=e: network_agent(e, SEARCH, SIMULATIONS, rng=rng) for e in evaluators]
    result = play_match(GAME, *makers, games=6, seed=7)
    assert play_match(GAME, *makers, games=6, seed=7) == result
    assert result.games == 6 and result.wins + result.draws + result.losses == 6


def test_only_the_first_move_of_a_game_is_drawn(evaluators: list[NetworkEvaluator]) -> None:
    agent = network_agent(evaluators[0], SEARCH, SIMULATIONS, rng=np.random.default_rng(0))
    state = GAME.initial_state()
    best = search(state, evaluators[0], SEARCH, num_simulations=SIMULATIONS).best_action()
    drawn = [agent.act(state)]
    assert agent.last_result is not None and agent.last_result.stats["temperature"] == 1.0
    assert [agent.act(state) for _ in range(3)] == [best] * 3
    assert agent.last_result.stats["temperature"] == 0.0
    for _ in range(20):
        agent.reset()
        drawn.append(agent.act(state))
    assert len(set(drawn)) > 1  # temperature 1 over the visits: not always the best move
    assert agent.act(state, Limits(simulations=3)) == agent.last_result.action
    assert agent.last_result.stats["simulations"] == 3


class Seat(AgentBase):
    """Records the player it moves for, and plays the first legal move."""

    def __init__(self) -> None:
        super().__init__("seat")
        self.players: set[int] = set()

    def act(self, state: State, limits: Limits | None = None) -> int:
        self.players.add(state.current_player())
        return state.legal_actions()[0]


@pytest.mark.parametrize("number", [0, 1, 2, 5])
def test_colours_alternate_and_the_outcome_is_firsts(number: int) -> None:
    first, second = Seat(), Seat()
    outcome = evaluation_game(GAME, first, second, number=number)
    assert first.players == {number % 2} and second.players == {1 - number % 2}
    # both play a1, b1, c1, ... in order: player 0 completes the top row first
    assert outcome == (1 if number % 2 == 0 else -1)


def test_a_crash_is_a_bug_not_a_loss() -> None:
    class Broken(Seat):
        def act(self, state: State, limits: Limits | None = None) -> Any:
            raise ZeroDivisionError("bug")

    with pytest.raises(ZeroDivisionError, match="bug"):
        evaluation_game(GAME, Broken(), Seat(), number=0)


def test_a_match_against_an_agent_and_the_tally() -> None:
    result = play_match(
        GAME,
        lambda rng: make_agent("alphabeta:depth=9", GAME),
        lambda rng: Seat(),
        games=4,
        seed=0,
    )
    assert (result.games, result.wins, result.losses, result.score) == (4, 4, 0, 1.0)
    counted = tally([1, 0, -1, 1])
    assert (counted.wins, counted.draws, counted.losses, counted.score) == (2, 1, 1, 0.625)
    assert tally([]).score == 0.5
