"""The agent interface: something that chooses an action in a position, under a budget.

An agent wraps a search (or a person) behind one call, ``act(state, limits) -> action``. After
each call, ``last_result`` holds the :class:`~searchlab.core.search_result.SearchResult` of the
search behind the choice (``None`` for agents that do not search), so a caller can show the
analysis: the principal variation and value, or the root's visit counts. ``reset()`` forgets
what an agent kept between moves (a search tree, a transposition table) before a new game.

>>> from searchlab.domains.games.nim import Nim
>>> class TakeAll(AgentBase):
...     def act(self, state, limits=None):
...         return max(state.legal_actions())
>>> agent = TakeAll("take-all")
>>> isinstance(agent, Agent), agent.act(Nim(piles=(3,)).initial_state()) >= 0
(True, True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol, runtime_checkable

from searchlab.core.game import State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["Agent", "AgentBase"]


@runtime_checkable
class Agent(Protocol):
    """Chooses actions. ``name`` is the spec it was made from (``"mcts:simulations=2000"``)."""

    name: str
    last_result: SearchResult | None

    def act(self, state: State, limits: Limits | None = None) -> int:
        """A legal action in the non-terminal ``state``; ``limits`` overrides the agent's own
        budget for this move (the arena's time control)."""
        ...

    def reset(self) -> None:
        """Forget everything kept between moves (a new game starts)."""
        ...


class AgentBase(ABC):
    """Shared plumbing: the name, ``last_result``, and a ``reset`` that clears it; subclasses
    implement :meth:`act`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.last_result: SearchResult | None = None

    @abstractmethod
    def act(self, state: State, limits: Limits | None = None) -> int:
        """A legal action in the non-terminal ``state`` (see :class:`Agent`)."""

    def reset(self) -> None:
        self.last_result = None

    def __repr__(self) -> str:
        return f"<agent {self.name}>"
