"""Bidirectional uniform-cost search: Dijkstra from the start and from the goal at once.

The forward search follows ``successors`` from the initial state, the backward search follows
``predecessors`` from the goal state (the problem must be a
:class:`~searchlab.core.problem.ReversibleProblem`). Whenever an edge relaxation reaches a state
the other side has labelled, the path through it is a candidate; ``mu`` is the cheapest
candidate so far. The search stops when ``top_forward + top_backward >= mu``, the sums of the
two smallest open keys (the textbook rule after Pohl 1971; see Goldberg and Harrelson 2005):
no path through an unsettled state can then beat ``mu``. Stopping at the first state settled
by both sides instead is a classic bug: that state need not be on a shortest path.

>>> from searchlab.domains.path.graph import GraphProblem
>>> roads = GraphProblem({"s": {"a": 1, "b": 4}, "a": {"t": 5}, "b": {"t": 1}}, "s", "t")
>>> result = bidirectional_search(roads)
>>> result.path, result.cost
(['s', 'b', 't'], 5.0)
"""

from __future__ import annotations

import heapq
import math
import time
from typing import Any

from searchlab.algorithms.path.best_first import (
    check_limits,
    check_reversible,
    negative_cost_error,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Observer
from searchlab.core.problem import ReversibleProblem
from searchlab.core.results import PathResult, finished_search

__all__ = ["bidirectional_search"]

_ALGORITHM = "bidirectional"
_CLOCK_INTERVAL = 1024


class _Side:
    """One direction of the search: a Dijkstra frontier with labels and parent links."""

    def __init__(self, root: Any, neighbours: Any) -> None:
        self.neighbours = neighbours
        self.distance: dict[Any, float] = {root: 0.0}
        self.parents: dict[Any, tuple[Any, float] | None] = {root: None}
        self.settled: set[Any] = set()
        self.heap: list[tuple[float, int, Any]] = [(0.0, 0, root)]
        self.counter = 0
        self.open_count = 1
        self.expanded = 0

    def top(self) -> float:
        """The smallest key on the open list (after dropping stale entries); inf when empty."""
        heap = self.heap
        while heap and (heap[0][2] in self.settled or heap[0][0] > self.distance[heap[0][2]]):
            heapq.heappop(heap)
        return heap[0][0] if heap else math.inf

    def chain(self, state: Any) -> tuple[list[Any], list[float]]:
        """States from ``state`` back to this side's root, and the step costs between them."""
        states, steps = [state], []
        link = self.parents[state]
        while link is not None:
            previous, step = link
            states.append(previous)
            steps.append(step)
            link = self.parents[previous]
        return states, steps


def bidirectional_search(
    problem: ReversibleProblem[Any],
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> PathResult:
    """Bidirectional Dijkstra: an optimal path, usually after fewer expansions than Dijkstra.

    Parameters
    ----------
    problem : ReversibleProblem
        Needs ``initial_state``, ``is_goal``, ``successors``, ``goal_state`` and
        ``predecessors``; step costs >= 0; ``is_goal(goal_state())`` must hold.
    limits : Limits, optional
        ``expansions`` (both directions together; stops before expansion ``expansions + 1``)
        and ``time`` (seconds, checked every 1024 expansions).
    observer : callable, optional
        Receives :class:`Expand` and :class:`Generate` events from both directions (``g`` is
        the distance from that direction's root, ``h`` is 0; a backward Generate's ``parent``
        is the state it was reached from, which is its successor on the path).

    Returns
    -------
    PathResult
        ``path`` from the initial state to the goal state and its ``cost``; ``expanded`` and
        ``generated`` over both directions, ``max_open`` the most states open on both sides
        together; ``stats``: ``expanded_forward``, ``expanded_backward`` and
        ``meeting_state``.

    Raises
    ------
    InvalidParameterError
        The problem lacks ``goal_state`` or ``predecessors`` (the message names what is
        missing); ``goal_state()`` is not a goal; a step cost is negative; bad ``limits``.

    Examples
    --------
    >>> from searchlab.domains.path.graph import GraphProblem
    >>> chain = GraphProblem({i: {i + 1: 1.0} for i in range(6)}, start=0, goal=6)
    >>> result = bidirectional_search(chain)
    >>> result.cost, result.stats["expanded_forward"], result.stats["expanded_backward"]
    (6.0, 3, 3)

    Notes
    -----
    The direction expanded next is the one whose smallest open key is smaller (forward on
    ties). The returned cost equals Dijkstra's (it is optimal).
    """
    check_reversible(problem, _ALGORITHM)
    limits = check_limits(limits, _ALGORITHM)
    started = time.perf_counter()
    max_expansions = None if limits is None else limits.expansions
    time_limit = None if limits is None else limits.time
    start, goal = problem.initial_state(), problem.goal_state()
    if not problem.is_goal(goal):
        raise InvalidParameterError(
            f"{_ALGORITHM}: goal_state() returned {goal!r}, which is_goal() rejects"
        )
    forward = _Side(start, problem.successors)
    backward = _Side(goal, problem.predecessors)
    best, meeting = (0.0, start) if start == goal else (math.inf, None)
    generated = 0
    max_open = 2 if start != goal else 1
    status = "no_path"

    while True:
        top_forward, top_backward = forward.top(), backward.top()
        # Step 1. Stopping rule: no unsettled state can lie on a path cheaper than `best`.
        if top_forward + top_backward >= best:
            status = "solved" if meeting is not None else "no_path"
            break
        expanded = forward.expanded + backward.expanded
        if (max_expansions is not None and expanded >= max_expansions) or (
            time_limit is not None
            and expanded % _CLOCK_INTERVAL == 0
            and time.perf_counter() - started > time_limit
        ):
            status = "limit"
            break
        # Step 2. Settle the smaller top of the two sides (forward on ties).
        side, other = (forward, backward) if top_forward <= top_backward else (backward, forward)
        distance, _, state = heapq.heappop(side.heap)
        side.settled.add(state)
        side.open_count -= 1
        side.expanded += 1
        if observer is not None:
            observer(Expand(state, distance, 0.0))
        # Step 3. Relax its edges; a state labelled by the other side gives a candidate path.
        for neighbour, cost in side.neighbours(state):
            generated += 1
            if not cost >= 0:
                tail, head = (state, neighbour) if side is forward else (neighbour, state)
                raise negative_cost_error(_ALGORITHM, tail, head, cost)
            new_distance = distance + cost
            if observer is not None:
                observer(Generate(neighbour, state, new_distance, 0.0))
            if neighbour in side.settled:
                continue
            known = side.distance.get(neighbour)
            if known is None or new_distance < known:
                if known is None:
                    side.open_count += 1
                side.distance[neighbour] = new_distance
                side.parents[neighbour] = (state, cost)
                side.counter += 1
                heapq.heappush(side.heap, (new_distance, side.counter, neighbour))
            across = other.distance.get(neighbour)
            if across is not None and side.distance[neighbour] + across < best:
                best, meeting = side.distance[neighbour] + across, neighbour
        max_open = max(max_open, forward.open_count + backward.open_count)

    path = cost = None
    if status == "solved":
        head, head_steps = forward.chain(meeting)
        tail, tail_steps = backward.chain(meeting)
        path = head[::-1] + tail[1:]
        cost = 0.0
        for step in head_steps[::-1] + tail_steps:
            cost += step
    counts = (forward.expanded + backward.expanded, generated, 0, max_open)
    stats = {
        "expanded_forward": forward.expanded,
        "expanded_backward": backward.expanded,
        "meeting_state": meeting,
    }
    return finished_search(status, path, cost, counts, started, _ALGORITHM, stats)
