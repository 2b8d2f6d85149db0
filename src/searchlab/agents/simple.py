"""Agents that do not search: uniformly random, and greedy (one ply).

>>> from searchlab.games import make
>>> state = make("nim", piles=(3,)).initial_state()
>>> state.action_to_string(GreedyAgent("greedy", seed=0).act(state))  # take all: a win
'1:3'
"""

from __future__ import annotations

import time

import numpy as np

from searchlab.agents.base import AgentBase
from searchlab.core.game import Evaluation, State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["GreedyAgent", "RandomAgent"]


class RandomAgent(AgentBase):
    """A uniformly random legal action (seeded).

    >>> from searchlab.games import make
    >>> state = make("connect4").initial_state()
    >>> RandomAgent("random", seed=1).act(state) == RandomAgent("random", seed=1).act(state)
    True
    """

    def __init__(self, name: str = "random", *, seed: int | None = None) -> None:
        super().__init__(name)
        self._rng = np.random.default_rng(seed)

    def act(self, state: State, limits: Limits | None = None) -> int:
        actions = list(state.legal_actions())
        return actions[int(self._rng.integers(len(actions)))]


class GreedyAgent(AgentBase):
    """One ply of look-ahead: a move that wins at once, else the move whose resulting position
    the evaluation likes best for the mover (ties broken at random, seeded). Without an
    evaluation every non-final move scores 0, so it plays a winning move when there is one and
    a random one otherwise. ``last_result`` holds the best one-ply value (proven when the move
    wins at once).
    """

    def __init__(
        self, name: str = "greedy", *, evaluate: Evaluation | None = None, seed: int | None = None
    ) -> None:
        super().__init__(name)
        self._evaluate = evaluate
        self._rng = np.random.default_rng(seed)

    def act(self, state: State, limits: Limits | None = None) -> int:
        start = time.perf_counter()
        mover = state.current_player()
        best: list[int] = []
        best_value = -np.inf
        actions = state.legal_actions()
        for action in actions:
            child = state.apply(action)
            if child.is_terminal():
                # a finished game outranks every estimate: scale its utility above (-1, 1)
                value = 2.0 * float(child.returns()[mover])
            elif self._evaluate is None:
                value = 0.0
            else:
                value = float(self._evaluate(child))
                value = value if child.current_player() == mover else -value
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        choice = best[int(self._rng.integers(len(best)))]
        decisive = abs(best_value) >= 2.0  # a finished game one ply ahead
        self.last_result = SearchResult(
            action=choice,
            value=best_value / 2.0 if decisive else best_value,
            principal_variation=(choice,),
            nodes=len(actions),
            depth=1,
            elapsed=time.perf_counter() - start,
            is_proven=decisive and best_value > 0,
            plies_to_end=1 if decisive and best_value > 0 else None,
            algorithm="greedy",
        )
        return choice
