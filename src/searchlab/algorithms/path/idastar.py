"""Iterative-deepening A* (IDA*, Korf 1985): A*'s optimality in memory linear in the depth.

IDA* runs depth-first searches bounded by a threshold on ``f = g + h``. The first threshold is
``h(start)``; each next one is the smallest ``f`` that exceeded the previous threshold, so with
an admissible heuristic the first goal reached is an optimal one, and float costs are handled
exactly (no rounding of thresholds). The depth-first search keeps an explicit stack (no Python
recursion, so deep solutions are fine) and skips successors already on the current path (cycle
check); it keeps no closed list, so transpositions are searched again.

>>> from searchlab.domains.path.graph import GraphProblem
>>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1.5}}, "s", "t")
>>> result = idastar(roads)
>>> result.path, result.cost, result.stats["thresholds"]
(['s', 'b', 't'], 3.5, [0.0, 1.0, 2.0, 3.5])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from searchlab.algorithms.kernels import KERNELS
from searchlab.algorithms.path.best_first import (
    check_limits,
    check_problem,
    checked_h,
    negative_cost_error,
    resolve_heuristic,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Observer
from searchlab.core.problem import Problem
from searchlab.core.results import PathResult, finished_search
from searchlab.core.tier import Tier, check_tier

__all__ = ["idastar"]

_CLOCK_INTERVAL = 1024
_ALGORITHM = "idastar"


def idastar(
    problem: Problem[Any],
    heuristic: Callable[[Any], float] | None = None,
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Iterative-deepening A*: repeated depth-first searches with a rising bound on ``g + h``.

    Parameters
    ----------
    problem : Problem
        Any problem (``initial_state``, ``is_goal``, ``successors`` with costs >= 0).
    heuristic : callable, optional
        ``state -> float`` (>= 0). ``None``: the problem's own ``heuristic``, else 0.
    limits : Limits, optional
        ``expansions`` (over all iterations; stops before expansion ``expansions + 1``),
        ``time`` (seconds, checked every 1024 expansions) and ``depth`` (the largest
        threshold on ``f`` to try; a larger next threshold ends the search with ``"limit"``).
    observer : callable, optional
        Receives :class:`Expand` and :class:`Generate` events (IDA* never reopens: it has no
        closed list).
    tier : {"auto", "reference", "compiled"}
        ``"auto"`` runs the compiled kernel for built-in sliding-tile puzzles searched with
        their own heuristic and no observer.

    Returns
    -------
    PathResult
        As for A*; ``expanded`` and ``generated`` add up over all iterations (a node expanded
        in three iterations counts three times); ``max_open`` is the deepest path held (in
        states); ``stats["iterations"]`` is the number of depth-first iterations and
        ``stats["thresholds"]`` their bounds, in order.

    Raises
    ------
    InvalidParameterError
        ``problem`` is not a Problem; bad ``heuristic``, ``limits`` or ``tier``;
        ``tier="compiled"`` without a compiled kernel; a negative step cost (quoting the edge)
        or heuristic value.

    Examples
    --------
    >>> from searchlab.domains.path.graph import GraphProblem
    >>> triangle = GraphProblem({0: {1: 1, 2: 5}, 1: {2: 1}}, start=0, goal=2, directed=False)
    >>> result = idastar(triangle)
    >>> result.path, result.cost, result.stats["iterations"]
    ([0, 1, 2], 2.0, 3)

    Notes
    -----
    * Admissible ``h``: the returned path is optimal (consistency is not needed).
    * The goal test happens when a node within the threshold is reached; a goal is not
      counted as expanded, as in :func:`~searchlab.algorithms.path.best_first.astar`.
    * ``generated`` counts successors that pass the cycle check (successors already on the
      current path are dropped before they are counted or reported).
    * Time grows with the number of distinct ``f`` values below the optimal cost: with many
      distinct float costs, prefer A*.
    """
    check_tier(tier, _ALGORITHM)
    check_problem(problem, _ALGORITHM)
    limits = check_limits(limits, _ALGORITHM)
    heuristic = _checked_heuristic(heuristic)
    return KERNELS.run(
        _ALGORITHM,
        problem,
        tier,
        reference=lambda: _reference_idastar(
            problem, resolve_heuristic(problem, heuristic, _ALGORITHM), limits, observer
        ),
        why_not="the compiled sliding-tile kernel runs the puzzle's own heuristic, no observer",
        heuristic=heuristic,
        limits=limits,
        observer=observer,
    )


def _checked_heuristic(heuristic: object) -> Callable[[Any], float] | None:
    if heuristic is not None and not callable(heuristic):
        raise InvalidParameterError(
            f"{_ALGORITHM}: heuristic must be callable (state -> float), got {heuristic!r}"
        )
    return heuristic


def _reference_idastar(
    problem: Any,
    heuristic: Callable[[Any], float],
    limits: Limits | None,
    observer: Observer | None,
) -> PathResult:
    started = time.perf_counter()
    max_expansions = None if limits is None else limits.expansions
    time_limit = None if limits is None else limits.time
    max_threshold = None if limits is None else limits.depth
    is_goal = problem.is_goal
    successors = problem.successors
    expanded = generated = max_depth = 0
    thresholds: list[float] = []

    def expand(state: Any, g: float, h: float, on_path: set[Any]) -> list[Any]:
        """Count and report one expansion; its children as (state, g, h, step cost)."""
        nonlocal expanded, generated
        expanded += 1
        if observer is not None:
            observer(Expand(state, g, h))
        children = []
        for child, cost in successors(state):
            if not cost >= 0:
                raise negative_cost_error(_ALGORITHM, state, child, cost)
            if child in on_path:
                continue
            generated += 1
            child_g = g + cost
            child_h = checked_h(heuristic, child, _ALGORITHM)
            if observer is not None:
                observer(Generate(child, state, child_g, child_h))
            children.append((child, child_g, child_h, cost))
        return children

    def out_of_budget() -> bool:
        if max_expansions is not None and expanded >= max_expansions:
            return True
        return (
            time_limit is not None
            and expanded % _CLOCK_INTERVAL == 0
            and time.perf_counter() - started > time_limit
        )

    def finish(
        status: str, path: list[Any] | None = None, steps: Sequence[float] = ()
    ) -> PathResult:
        cost = None
        if path is not None:
            cost = 0.0
            for step in steps:
                cost += step
        counts = (expanded, generated, 0, max_depth)
        stats = {"iterations": len(thresholds), "thresholds": thresholds}
        return finished_search(status, path, cost, counts, started, _ALGORITHM, stats)

    start = problem.initial_state()
    start_h = checked_h(heuristic, start, _ALGORITHM)
    if is_goal(start):
        return finish("solved", [start])
    bound = start_h
    while True:
        # Step 1. One depth-first iteration bounded by `bound`, on an explicit stack whose
        # frames are [state, g, h, children, index of the next child, step cost into state].
        thresholds.append(bound)
        next_bound = math.inf
        if out_of_budget():
            return finish("limit")
        on_path = {start}
        stack = [[start, 0.0, start_h, expand(start, 0.0, start_h, on_path), 0, 0.0]]
        max_depth = max(max_depth, 1)
        while stack:
            frame = stack[-1]
            children = frame[3]
            index = frame[4]
            # Step 2. Every child tried: backtrack.
            if index == len(children):
                stack.pop()
                on_path.discard(frame[0])
                continue
            frame[4] = index + 1
            child, child_g, child_h, step = children[index]
            # Step 3. Over the threshold: prune, remembering the smallest f above it.
            f = child_g + child_h
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            # Step 4. Goal test when a child within the threshold is reached.
            if is_goal(child):
                path = [entry[0] for entry in stack] + [child]
                steps = [entry[5] for entry in stack[1:]] + [step]
                return finish("solved", path, steps)
            # Step 5. Descend: expand the child (within the budget).
            if out_of_budget():
                return finish("limit")
            on_path.add(child)
            stack.append(
                [child, child_g, child_h, expand(child, child_g, child_h, on_path), 0, step]
            )
            if len(stack) > max_depth:
                max_depth = len(stack)
        # Step 6. Raise the threshold to the smallest f that exceeded it.
        if next_bound == math.inf:
            return finish("no_path")
        if max_threshold is not None and next_bound > max_threshold:
            return finish("limit")
        bound = next_bound
