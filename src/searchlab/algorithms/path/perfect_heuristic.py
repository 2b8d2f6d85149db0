"""The perfect heuristic h*: the exact cost from every state to the goal.

Computed by Dijkstra's algorithm run backwards from the goal state over ``predecessors``, so
the problem must be a :class:`~searchlab.core.problem.ReversibleProblem`. h* is admissible and
consistent; A* guided by it expands only nodes that lie on optimal paths, which makes it the
yardstick for how informed any other heuristic is (and a source of test heuristics:
``0.5 * h*`` is admissible and consistent).

>>> from searchlab.domains.path.graph import GraphProblem
>>> problem = GraphProblem({"s": {"a": 1, "b": 4}, "a": {"t": 5}, "b": {"t": 1}}, "s", "t")
>>> h = perfect_heuristic(problem)
>>> h("s"), h("a"), h("t"), len(h)
(5.0, 5.0, 0.0, 4)
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Hashable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from searchlab.algorithms.path.best_first import (
    check_limits,
    check_reversible,
    negative_cost_error,
)
from searchlab.core.errors import SearchlabError
from searchlab.core.limits import Limits
from searchlab.core.problem import ReversibleProblem

__all__ = ["PerfectHeuristic", "perfect_heuristic"]

_CLOCK_INTERVAL = 1024


class PerfectHeuristic:
    """Exact costs to the goal, usable as a heuristic: ``h(state)``.

    Calling it on a state that cannot reach the goal (or that it never saw) gives
    ``math.inf``. ``distances`` is a read-only mapping of every state that can reach the goal
    to its cost; ``len(h)`` is their number.

    >>> h = PerfectHeuristic({"t": 0.0, "a": 2.0}, goal="t")
    >>> h("a"), h("zzz"), "a" in h, sorted(h)
    (2.0, inf, True, ['a', 't'])
    """

    def __init__(self, distances: Mapping[Hashable, float], goal: Hashable) -> None:
        self._distances = dict(distances)
        self.goal = goal

    def __call__(self, state: Hashable) -> float:
        return self._distances.get(state, math.inf)

    @property
    def distances(self) -> Mapping[Hashable, float]:
        """Cost to the goal of every state that can reach it (read-only)."""
        return MappingProxyType(self._distances)

    def __len__(self) -> int:
        return len(self._distances)

    def __contains__(self, state: object) -> bool:
        return state in self._distances

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._distances)

    def __repr__(self) -> str:
        return f"PerfectHeuristic(<{len(self)} states>, goal={self.goal!r})"


def perfect_heuristic(
    problem: ReversibleProblem[Any], *, limits: Limits | None = None
) -> PerfectHeuristic:
    """Compute h*, the exact cost to the goal of every state that can reach it.

    Parameters
    ----------
    problem : ReversibleProblem
        Needs ``goal_state()`` and ``predecessors(state)`` (pairs ``(previous state, cost of
        the step from it)``, costs >= 0). The whole backward-reachable space is enumerated, so
        it must be finite (and fit in memory).
    limits : Limits, optional
        ``expansions`` and ``time`` bound the enumeration.

    Returns
    -------
    PerfectHeuristic
        Callable ``state -> float`` (``math.inf`` for states that cannot reach the goal).

    Raises
    ------
    InvalidParameterError
        The problem lacks ``goal_state`` or ``predecessors``; a step cost is negative.
    SearchlabError
        ``limits`` ran out before the enumeration finished (the distances would be partial).

    Examples
    --------
    >>> from searchlab.domains.path.graph import GraphProblem
    >>> h = perfect_heuristic(GraphProblem({1: {2: 1.5}, 3: {1: 1}}, start=1, goal=2))
    >>> dict(h.distances)
    {2: 0.0, 1: 1.5, 3: 2.5}
    """
    check_reversible(problem, "perfect_heuristic")
    limits = check_limits(limits, "perfect_heuristic")
    max_expansions = None if limits is None else limits.expansions
    time_limit = None if limits is None else limits.time
    started = time.perf_counter()
    goal = problem.goal_state()
    distance: dict[Hashable, float] = {goal: 0.0}
    settled: dict[Hashable, float] = {}
    heap: list[tuple[float, int, Any]] = [(0.0, 0, goal)]
    counter = 0
    while heap:
        cost, _, state = heapq.heappop(heap)
        if state in settled:
            continue
        expanded = len(settled)
        if (max_expansions is not None and expanded >= max_expansions) or (
            time_limit is not None
            and expanded % _CLOCK_INTERVAL == 0
            and time.perf_counter() - started > time_limit
        ):
            raise SearchlabError(
                f"perfect_heuristic: stopped by {limits!r} after {expanded} expansions, "
                "before every state that reaches the goal was found"
            )
        settled[state] = cost
        for previous, step in problem.predecessors(state):
            if not step >= 0:
                raise negative_cost_error("perfect_heuristic", previous, state, step)
            new_cost = cost + step
            if previous not in settled and new_cost < distance.get(previous, math.inf):
                distance[previous] = new_cost
                counter += 1
                heapq.heappush(heap, (new_cost, counter, previous))
    return PerfectHeuristic(settled, goal)
