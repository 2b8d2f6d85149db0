"""The ``Problem`` protocol: an implicit state space that a path search explores.

A problem needs three methods: its initial state, a goal test, and the successors of a state
with their step costs. States must be hashable. A problem may also offer a ``heuristic`` (an
estimate of the cost to a goal), and, for bidirectional search and the perfect heuristic, a
single ``goal_state`` and the ``predecessors`` of a state.

Ten lines are enough (a tiny graph; step costs are the numbers):

>>> class Line:
...     '''Walk from 0 to 3 on the integers, steps of +1 (cost 1) or +2 (cost 3).'''
...     def initial_state(self): return 0
...     def is_goal(self, state): return state == 3
...     def successors(self, state):
...         return [(state + 1, 1.0), (state + 2, 3.0)] if state < 3 else []
...     def heuristic(self, state): return float(max(0, 3 - state))
>>> isinstance(Line(), Problem), isinstance(Line(), HeuristicProblem)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Protocol, TypeVar, runtime_checkable

__all__ = [
    "Heuristic",
    "HeuristicProblem",
    "Problem",
    "ReversibleProblem",
    "State",
    "zero_heuristic",
]

State = TypeVar("State", bound=Hashable)

Heuristic = Callable[[State], float]
"""A heuristic maps a state to an estimate of its cost-to-goal (never negative)."""


@runtime_checkable
class Problem(Protocol[State]):
    """A search problem: initial state, goal test, successors with step costs."""

    def initial_state(self) -> State:
        """The state the search starts from."""
        ...

    def is_goal(self, state: State) -> bool:
        """True when ``state`` is a goal."""
        ...

    def successors(self, state: State) -> Iterable[tuple[State, float]]:
        """The states one step from ``state``, each with the (non-negative) cost of that step."""
        ...


@runtime_checkable
class HeuristicProblem(Problem[State], Protocol[State]):
    """A problem that brings its own heuristic."""

    def heuristic(self, state: State) -> float:
        """An estimate of the cheapest cost from ``state`` to a goal."""
        ...


@runtime_checkable
class ReversibleProblem(Problem[State], Protocol[State]):
    """A problem with one goal state whose edges can be walked backwards."""

    def goal_state(self) -> State:
        """The single goal state."""
        ...

    def predecessors(self, state: State) -> Iterable[tuple[State, float]]:
        """The states one step before ``state``, each with the cost of the step into it."""
        ...


def zero_heuristic(state: object) -> float:
    """The heuristic that knows nothing: h = 0 (turns A* into Dijkstra)."""
    return 0.0
