"""searchlab's games as PettingZoo AEC environments.

Needs PettingZoo (``pip install 'searchlab[pettingzoo]'``); importing this module without it is
one line saying so.

:func:`env` makes any game of the registry (or a game of your own with an encoder) a
PettingZoo ``AECEnv``, shaped like PettingZoo's classic board games:

* agents ``player_0`` and ``player_1`` (searchlab's players 0 and 1); the agent selected is
  always the player to move, so a game where a player moves several plies in a row (Snake Go)
  selects that agent again;
* observation: a dict with ``"observation"``, the position's planes (``float32 [C, H, W]``,
  searchlab's encoder of the game, :mod:`searchlab.interop.observations`) seen from **the
  player to move**, for both agents, and ``"action_mask"`` (``int8``, 1 at the legal actions
  of the agent to move, all zeros for the other agent and once the game is over);
* actions: ``Discrete(num_actions)``, the encoder's action indices (the game's own action
  numbers for every built-in game);
* rewards: at the end of the game, +1 to the winner, -1 to the loser, 0 to both for a draw (the
  sign of searchlab's returns: Othello's disc difference becomes +1/-1/0); 0 before the end;
  no truncation (every game ends by its own rules);
* ``render_mode="ansi"``: :meth:`~SearchlabEnv.render` returns the position as text (the
  game's own ``str(state)``).

:func:`env` wraps :class:`SearchlabEnv` the way PettingZoo's classic environments are wrapped
(an illegal action ends the game with -1 for the player who made it, an action outside the
action space is an error, and the calls must come in order); :class:`SearchlabEnv` itself, the
raw environment, raises :class:`~searchlab.core.errors.IllegalMoveError` on an illegal action.
The games are deterministic: ``reset(seed=...)`` changes nothing (Snake Go's items come from the
game's own ``seed`` parameter).

>>> environment = env("tictactoe", render_mode="ansi")
>>> environment.reset(seed=0)
>>> observation, reward, terminated, truncated, info = environment.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()
((3, 3, 3), [1, 1, 1, 1, 1, 1, 1, 1, 1])
>>> for action in (4, 0, 2, 1, 6):  # X: b2, c1, a3 (a diagonal); O: a1, b1
...     environment.step(action)
>>> environment.rewards, environment.terminations["player_1"]
({'player_0': 1.0, 'player_1': -1.0}, True)
>>> print(environment.render())
3 X . .
2 . X .
1 O O X
  a b c
"""

from __future__ import annotations

from typing import Any

import numpy as np

from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.domains.games.registry import make
from searchlab.interop._extras import require
from searchlab.interop.observations import observation_encoder

pettingzoo: Any = require("pettingzoo", "pettingzoo", "PettingZoo", __name__)
spaces: Any = require("gymnasium.spaces", "pettingzoo", "PettingZoo", __name__)
wrappers: Any = require("pettingzoo.utils.wrappers", "pettingzoo", "PettingZoo", __name__)

__all__ = ["AGENTS", "RENDER_MODES", "SearchlabEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
"""The agents, searchlab's players 0 and 1 in that order."""

RENDER_MODES = ("ansi",)
"""The render modes: ``"ansi"``, the position as text (print it for a person to read)."""


class SearchlabEnv(pettingzoo.AECEnv):  # type: ignore[misc]  # imported by require(): Any
    """A searchlab game as a PettingZoo ``AECEnv`` (see the module's notes).

    Args:
        game: a registered game's name (``"connect4"``), ``"module:Class"``, or a
            :class:`~searchlab.core.game.Game`.
        render_mode: ``None`` or ``"ansi"``.
        **params: the game's parameters, for a name (``size=9``).

    Raises:
        UnknownNameError: no such game, or no encoder for it (a game of your own needs one:
            :mod:`searchlab.learning.networks.encoder`).
        InvalidParameterError: a bad parameter or render mode.

    The searchlab state is :attr:`game_state`; :attr:`game` is the game.
    """

    def __init__(
        self, game: str | Game = "tictactoe", render_mode: str | None = None, **params: Any
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidParameterError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}"
            )
        if isinstance(game, str):
            game = make(game, **params)
        elif params:
            raise InvalidParameterError(
                f"parameters {', '.join(params)} are for a game given by name, not a game object"
            )
        self.game: Game = game
        self.encoder = observation_encoder(game)
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "name": f"searchlab_{game.info.name}_v0",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }
        self.possible_agents = list(AGENTS)
        size = self.encoder.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, self.encoder.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in AGENTS}
        self.reset()

    def observation_space(self, agent: str) -> Any:
        """The ``Dict`` space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The ``Discrete`` space of ``agent``'s actions (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the games are deterministic: ``seed`` and ``options`` change
        nothing)."""
        self.game_state: State = self.game.initial_state()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self.game_state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": planes, "action_mask": mask}`` for ``agent`` (the planes are the
        player to move's view; the mask is all zeros unless ``agent`` is to move)."""
        state = self.game_state
        mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
        if not state.is_terminal() and agent == AGENTS[state.current_player()]:
            mask[self.encoder.legal_mask(state)] = 1
        planes = np.asarray(self.encoder.encode(state), dtype=np.float32)
        return {"observation": planes, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an action index) for the selected agent; ``None`` for an agent
        whose game is over. Raises ``IllegalMoveError`` for an action not legal here."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        index = _index(action)
        if not 0 <= index < self.encoder.num_actions or not self.encoder.legal_mask(state)[index]:
            raise IllegalMoveError(
                f"illegal action {action!r} for {agent} in {self.game.info.name}; legal: "
                f"{np.flatnonzero(self.encoder.legal_mask(state)).tolist()}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.game_state = state = state.apply(self.encoder.index_to_action(state, index))
        if state.is_terminal():
            returns = state.returns()
            for player, name in enumerate(AGENTS):
                self.rewards[name] = float(np.sign(returns[player]))
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position as text with ``render_mode="ansi"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        return str(self.game_state)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str | Game = "tictactoe", render_mode: str | None = None, **params: Any) -> Any:
    """:class:`SearchlabEnv` itself, unwrapped (an illegal action raises
    ``IllegalMoveError``)."""
    return SearchlabEnv(game, render_mode, **params)


def env(game: str | Game = "tictactoe", render_mode: str | None = None, **params: Any) -> Any:
    """The environment of ``game`` wrapped as PettingZoo's classic environments are: an illegal
    action ends the game with -1 for its player (PettingZoo's ``TerminateIllegalWrapper``),
    an action outside the space is an error, and calls must come in order (``reset`` first)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, render_mode, **params), -1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _index(action: Any) -> int:
    """``action`` as an int (numpy integers included); ``IllegalMoveError`` otherwise."""
    try:
        index = int(action)
    except (TypeError, ValueError):
        raise IllegalMoveError(f"an action is an integer index, got {action!r}") from None
    if index != action:
        raise IllegalMoveError(f"an action is an integer index, got {action!r}")
    return index
