"""searchlab's games as PettingZoo AEC environments, checked by PettingZoo itself: its
``api_test`` on every game of the registry (a game added to the registry is tested here without
a new line), and its own Connect Four environment played move for move beside searchlab's."""

from __future__ import annotations

import importlib
import itertools
import random
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from needs import require_module

require_module("pettingzoo", "pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from searchlab.core.errors import (  # noqa: E402
    IllegalMoveError,
    InvalidParameterError,
    UnknownNameError,
)
from searchlab.games import game_names, make  # noqa: E402
from searchlab.interop.pettingzoo import AGENTS, env, raw_env  # noqa: E402

WAIVED_FOR_DICT_OBSERVATIONS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}
"""The two warnings ``api_test`` gives every environment whose observation is a dict with an
action mask: it leaves them out only for PettingZoo's own such games, by name (its lists
``env_obs_dicts`` and ``env_obs_space``: chess, Go, Connect Four, tic-tac-toe...)."""


def _api_test_warnings(environment: Any) -> set[str]:
    """Run PettingZoo's ``api_test`` (which fails by assertion) and return the warnings it
    gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=1000)
    return {str(w.message) for w in caught if w.filename.endswith("api_test.py")}


@pytest.mark.parametrize("name", game_names())
def test_pettingzoo_api_test_passes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every registered game with its default parameters (Go on its 9x9 board, Gomoku on
    15x15, Snake Go on 16x16: a random game of each takes a moment)."""
    assert _api_test_warnings(env(name)) <= WAIVED_FOR_DICT_OBSERVATIONS
    assert "Passed API test" in capsys.readouterr().out


def _random_game(environment: Any, seed: int) -> list[tuple[str, int]]:
    """Play ``environment`` to the end with seeded random legal actions from the masks;
    returns ``(agent, action)`` per move."""
    rng = random.Random(seed)
    environment.reset()
    moves = []
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        moves.append((agent, action))
        environment.step(action)
    return moves


@pytest.mark.parametrize("name", game_names())
def test_rewards_are_the_sign_of_the_returns(name: str) -> None:
    """Played with searchlab's state beside it: the agent to move is the player to move, the
    mask is the legal actions, and the rewards at the end are +1 / -1 / 0 as the returns say
    (Othello's disc difference too)."""
    environment = raw_env(name)
    totals = dict.fromkeys(AGENTS, 0.0)
    state = make(name).initial_state()
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        assert agent == AGENTS[state.current_player()]
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == sorted(state.legal_actions())
        other = AGENTS[1 - AGENTS.index(agent)]
        assert not environment.observe(other)["action_mask"].any()
        action = legal[len(legal) // 2]
        environment.step(action)
        state = state.apply(action)
    assert state.is_terminal() and not environment.agents
    assert [totals[agent] for agent in AGENTS] == [float(np.sign(r)) for r in state.returns()]


def test_a_player_who_moves_again_is_selected_again() -> None:
    """Snake Go: a player with two snakes moves twice in a row; the environment selects that
    player's agent for both plies."""
    environment = raw_env("snakego", items="2 2 1 0 3", size=5, rounds=10)
    selected = []
    for agent in environment.agent_iter():
        if environment.terminations[agent]:
            environment.step(None)
            continue
        selected.append(agent)
        state = environment.game_state
        # split as soon as the snake may, otherwise go the first legal way
        actions = list(state.legal_actions())
        environment.step(4 if 4 in actions else actions[0])
    runs = [a for a, b in itertools.pairwise(selected) if a == b]
    assert runs, selected  # some agent was selected twice in a row


@pytest.fixture(scope="module")
def pettingzoo_connect_four() -> Any:
    """PettingZoo's own Connect Four environment. Its module imports pygame for drawing, which
    is never used without a render mode: a stand-in module takes its place when pygame is not
    installed."""
    if "pygame" not in sys.modules:
        try:
            import pygame  # noqa: F401
        except ImportError:
            sys.modules["pygame"] = types.ModuleType("pygame")
    return importlib.import_module("pettingzoo.classic.connect_four.connect_four")


@pytest.mark.parametrize("seed", range(4))
def test_connect_four_plays_as_pettingzoos_own(pettingzoo_connect_four: Any, seed: int) -> None:
    """The same random game in both environments: after every step the same agent is to move
    with the same legal columns, the same terminations and the same rewards."""
    ours, theirs = env("connect4"), pettingzoo_connect_four.env()
    moves = _random_game(env("connect4"), seed)
    for environment in (ours, theirs):
        environment.reset()
    for agent, action in moves:
        for environment in (ours, theirs):
            assert environment.agent_selection == agent
            environment.step(action)
        assert ours.rewards == theirs.rewards and ours.terminations == theirs.terminations
        if not any(ours.terminations.values()):
            assert (
                ours.observe(ours.agent_selection)["action_mask"].tolist()
                == theirs.observe(theirs.agent_selection)["action_mask"].tolist()
            )
    assert all(ours.terminations.values()) and any(ours.rewards.values()) == any(
        theirs.rewards.values()
    )


def test_an_illegal_action() -> None:
    """The raw environment raises one line; the wrapped one ends the game with -1 for the
    player who played it, as PettingZoo's classic games do."""
    environment = raw_env("connect4")
    for _ in range(6):
        environment.step(0)  # column 0 is full
    with pytest.raises(IllegalMoveError, match=r"illegal action 0 for player_0 .* legal: \[1,"):
        environment.step(0)
    wrapped = env("connect4")
    wrapped.reset()
    for _ in range(6):
        wrapped.step(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about the illegal move
        wrapped.step(0)
    assert wrapped.rewards == {"player_0": -1, "player_1": 0}
    assert all(wrapped.terminations.values())


def test_render_and_its_modes() -> None:
    environment = env("nim", render_mode="ansi", piles=(1, 2))
    environment.reset()
    environment.step(environment.unwrapped.encoder.num_actions - 1)  # take both from pile 2
    assert environment.render() == str(environment.unwrapped.game_state)
    assert environment.render() == "piles 1 0, player 1 to move"
    assert raw_env("nim").render() is None
    with pytest.raises(InvalidParameterError, match="render_mode must be None or one of ansi"):
        env("nim", render_mode="human")


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_game_of_your_own_with_an_encoder_is_an_environment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """examples/breakthrough.py has an encoder (its ``encoder()`` method): it gets an
    environment that passes api_test; examples/custom_game.py has none: one line saying so."""
    game = f"{EXAMPLES / 'breakthrough.py'}:Breakthrough"
    assert _api_test_warnings(env(game)) <= WAIVED_FOR_DICT_OBSERVATIONS
    assert "Passed API test" in capsys.readouterr().out
    with pytest.raises(UnknownNameError, match="no encoder for the game 'subtraction'"):
        env(f"{EXAMPLES / 'custom_game.py'}:Subtraction")
