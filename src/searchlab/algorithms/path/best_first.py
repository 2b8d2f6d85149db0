"""Best-first search: one engine, and A*, weighted A*, Dijkstra, breadth-first and greedy on top.

Every algorithm of the family is one setting of :func:`best_first_search`, which orders its
open list by ``f(n) = g_weight * g(n) + h_weight * h(n)``:

========================  ========  ========  =========  ======
algorithm                 g_weight  h_weight  unit_cost  reopen
========================  ========  ========  =========  ======
A*                        1         1         no         yes
weighted A* (w >= 1)      1         w         no         yes
Dijkstra / uniform cost   1         0         no         (never needed)
breadth-first             1         0         yes        (never needed)
greedy best-first         0         1         no         no
========================  ========  ========  =========  ======

>>> from searchlab.domains.path.graph import GraphProblem
>>> roads = GraphProblem({"s": {"a": 1, "b": 4}, "a": {"b": 1, "t": 5}, "b": {"t": 1}}, "s", "t")
>>> astar(roads).path, astar(roads).cost
(['s', 'a', 'b', 't'], 3.0)
>>> breadth_first_search(roads).path
['s', 'a', 't']

The engine's exact semantics (key, tie-breaking, counters, reopening) are shared with the
compiled grid tier, which must reproduce them node for node: see ``docs/algorithms/path_search.md``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Hashable
from typing import Any

from searchlab.algorithms.kernels import KERNELS
from searchlab.algorithms.path.best_first_options import SAME_COST, BestFirstOptions, check_weight
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Observer, Reopen
from searchlab.core.problem import Problem, ReversibleProblem, zero_heuristic
from searchlab.core.results import PathResult, finished_search
from searchlab.core.tier import Tier, check_tier

_KEEP_BELOW = 1.0 - SAME_COST

__all__ = [
    "astar",
    "best_first_search",
    "breadth_first_search",
    "dijkstra",
    "greedy_best_first_search",
    "uniform_cost_search",
    "weighted_astar",
]

# How many expansions pass between two looks at the clock (Limits.time).
_CLOCK_INTERVAL = 1024


# --- validation shared by the path-search family ----------------------------------------


def check_problem(problem: Any, algorithm: str) -> None:
    """Raise :class:`InvalidParameterError` unless ``problem`` follows the Problem protocol."""
    if not isinstance(problem, Problem):
        missing = [
            name
            for name in ("initial_state", "is_goal", "successors")
            if not callable(getattr(problem, name, None))
        ]
        raise InvalidParameterError(
            f"{algorithm}: {type(problem).__name__} is not a Problem (missing {', '.join(missing)})"
        )


def check_limits(limits: Any, algorithm: str) -> Limits | None:
    """Return ``limits`` if it is ``None`` or a :class:`Limits`; raise otherwise."""
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidParameterError(
            f"{algorithm}: limits must be a searchlab Limits object, got {limits!r}"
        )
    return limits


def check_reversible(problem: Any, algorithm: str) -> None:
    """Raise unless ``problem`` has ``goal_state`` and ``predecessors`` (a ReversibleProblem)."""
    if isinstance(problem, ReversibleProblem):
        return
    missing = [
        name
        for name in ("initial_state", "is_goal", "successors", "goal_state", "predecessors")
        if not callable(getattr(problem, name, None))
    ]
    raise InvalidParameterError(
        f"{algorithm} needs a ReversibleProblem; {type(problem).__name__} lacks "
        f"{', '.join(missing)}"
    )


def resolve_heuristic(problem: Any, heuristic: Any, algorithm: str) -> Callable[[Any], float]:
    """The heuristic to use: the one given, else the problem's own, else :func:`zero_heuristic`."""
    if heuristic is not None:
        if not callable(heuristic):
            raise InvalidParameterError(
                f"{algorithm}: heuristic must be callable (state -> float), got {heuristic!r}"
            )
        given: Callable[[Any], float] = heuristic
        return given
    own = getattr(problem, "heuristic", None)
    return own if callable(own) else zero_heuristic


def checked_h(heuristic: Callable[[Any], float], state: Any, algorithm: str) -> float:
    """Evaluate ``heuristic(state)``; raise :class:`InvalidParameterError` if negative or NaN."""
    h = heuristic(state)
    if not h >= 0:
        raise InvalidParameterError(
            f"{algorithm}: heuristic returned {h!r} for state {state!r}; "
            "heuristic values must be >= 0"
        )
    return h


def negative_cost_error(algorithm: str, state: Any, child: Any, cost: Any) -> InvalidParameterError:
    """The error for a step cost that is negative (or NaN) on the edge ``state -> child``."""
    return InvalidParameterError(
        f"{algorithm}: step cost {cost!r} on edge {state!r} -> {child!r} is negative; "
        "step costs must be >= 0"
    )


def path_from_parents(
    parents: dict[Hashable, tuple[Any, float] | None], goal: Any
) -> tuple[list[Any], float]:
    """Follow ``parents`` (state -> (parent, step cost), ``None`` at the start) back from ``goal``.

    Returns the path start..goal and its cost, summed from the start in path order (for real
    step costs this is exactly the ``g`` the search computed, float for float).
    """
    path = [goal]
    steps: list[float] = []
    link = parents[goal]
    while link is not None:
        previous, step = link
        path.append(previous)
        steps.append(step)
        link = parents[previous]
    path.reverse()
    cost = 0.0
    for step in reversed(steps):
        cost += step
    return path, cost


# --- the engine --------------------------------------------------------------------------


def best_first_search(
    problem: Problem[Any],
    *,
    heuristic: Callable[[Any], float] | None = None,
    g_weight: float = 1.0,
    h_weight: float = 1.0,
    unit_cost: bool = False,
    reopen: bool = True,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
    algorithm: str = "best_first",
) -> PathResult:
    """Best-first search ordered by ``f = g_weight * g + h_weight * h``: the family's one engine.

    Parameters
    ----------
    problem : Problem
        Any object with ``initial_state()``, ``is_goal(state)`` and ``successors(state)``
        (yielding ``(state, step cost)`` pairs, costs >= 0). States must be hashable.
    heuristic : callable, optional
        ``state -> float``, an estimate (>= 0) of the cost to a goal. ``None``: the problem's
        own ``heuristic`` method if it has one, else 0. Not evaluated when ``h_weight == 0``
        (and reported as ``h = 0.0`` in events then).
    g_weight, h_weight : float
        Weights (>= 0, finite) of the path cost ``g`` and the estimate ``h`` in ``f``.
    unit_cost : bool
        Order by the number of steps instead of their costs (``g`` counts steps). The reported
        ``cost`` is still the sum of the real step costs along the returned path.
    reopen : bool
        Put a closed node back on the open list when a cheaper path to it is found.
    limits : Limits, optional
        ``expansions`` (stops before expansion number ``expansions + 1``) and ``time`` (seconds,
        checked every 1024 expansions). Other fields are ignored.
    observer : callable, optional
        Receives :class:`Expand` (before a node's successors are generated), :class:`Generate`
        (per successor) and :class:`Reopen` events. ``None``: no event work at all.
    tier : {"auto", "reference", "compiled"}
        ``"auto"`` runs the compiled kernel when the problem has one (a grid with its own
        heuristic) and this plain-Python engine otherwise.
    algorithm : str
        The name written into the result and into error messages.

    Returns
    -------
    PathResult
        ``status`` is ``"solved"`` (``path`` runs from the initial state to a goal, ``cost``
        is the sum of its step costs), ``"no_path"`` (every reachable state was expanded) or
        ``"limit"``; plus ``expanded``, ``generated``, ``reopened``, ``max_open``, ``elapsed``.

    Raises
    ------
    InvalidParameterError
        ``problem`` is not a Problem; a weight, ``limits``, ``tier`` or ``heuristic`` is
        invalid; ``tier="compiled"`` for a problem without a compiled kernel; a generated step
        cost is negative (the message quotes the edge); a heuristic value is negative.

    Examples
    --------
    >>> from searchlab.domains.path.graph import GraphProblem
    >>> line = GraphProblem({0: {1: 1.0, 2: 3.0}, 1: {2: 1.0}}, start=0, goal=2)
    >>> result = best_first_search(line, g_weight=1.0, h_weight=0.0)
    >>> result.status, result.path, result.cost, result.expanded
    ('solved', [0, 1, 2], 2.0, 2)

    Notes
    -----
    * The open list is a binary heap with lazy deletion keyed by
      ``(f, 0 if goal else 1, -g, insertion counter)``: ties on ``f`` go to goal nodes, then
      to deeper nodes (larger ``g``), then first in, first out.
    * The goal test happens when a node is popped; a popped goal ends the search and is not
      counted as expanded.
    * ``expanded`` counts expansions (a reopened node counts again), ``generated`` every
      successor pair produced, ``reopened`` closed nodes put back on the open list,
      ``max_open`` the most distinct states open at once.
    """
    check_tier(tier, algorithm)
    check_problem(problem, algorithm)
    options = BestFirstOptions.checked(
        algorithm,
        g_weight=g_weight,
        h_weight=h_weight,
        unit_cost=unit_cost,
        reopen=reopen,
        heuristic=heuristic,
    )
    return run_best_first(problem, options, limits=check_limits(limits, algorithm),
                          observer=observer, tier=tier)  # fmt: skip


def run_best_first(
    problem: Problem[Any],
    options: BestFirstOptions,
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Run a best-first search whose arguments are already checked: the compiled kernel
    registered for ``type(problem)`` when ``tier`` allows and it accepts ``options`` (a grid
    searched with its own heuristic), else the plain-Python loop; both read ``options`` as is.

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> line = GraphProblem({0: {1: 1.0}}, start=0, goal=1)
    >>> run_best_first(line, BestFirstOptions.checked("dijkstra", h_weight=0)).algorithm
    'dijkstra'
    """
    return KERNELS.run(
        "best_first",
        problem,
        tier,
        reference=lambda: _reference_best_first(problem, options, limits, observer),
        why_not="the compiled grid kernel searches with the grid's own heuristic",
        name=options.algorithm,
        options=options,
        limits=limits,
        observer=observer,
    )


def _reference_best_first(
    problem: Any,
    options: BestFirstOptions,
    limits: Limits | None,
    observer: Observer | None,
) -> PathResult:
    """The engine's loop (plain Python); arguments already validated."""
    started = time.perf_counter()
    algorithm = options.algorithm
    g_weight, h_weight = options.g_weight, options.h_weight
    unit_cost, reopen = options.unit_cost, options.reopen
    heuristic = options.heuristic_for(problem)
    max_expansions = None if limits is None else limits.expansions
    time_limit = None if limits is None else limits.time
    is_goal = problem.is_goal
    successors = problem.successors
    heappush, heappop = heapq.heappush, heapq.heappop

    def describe(state: Any) -> tuple[float, int]:
        """(h, 0 if goal else 1) of a state, computed once per state."""
        h = 0.0 if heuristic is None else checked_h(heuristic, state, algorithm)
        return h, 0 if is_goal(state) else 1

    # Step 1. Put the initial state on the open list.
    start = problem.initial_state()
    best_g: dict[Any, float] = {start: 0.0}  # best known g (steps when unit_cost)
    parents: dict[Any, tuple[Any, float] | None] = {start: None}  # state -> (parent, step cost)
    described: dict[Any, tuple[float, int]] = {start: describe(start)}
    closed: set[Any] = set()
    h0, goal0 = described[start]
    counter = 0
    heap: list[tuple[float, int, float, int, Any, float]] = [
        (h_weight * h0, goal0, -0.0, counter, start, 0.0)
    ]
    open_count = max_open = 1
    expanded = generated = reopened = 0
    status = "no_path"
    goal: Any = None

    while heap:
        # Step 2. Pop the best entry; skip stale ones (state closed, or reached more cheaply).
        _, is_not_goal, _, _, state, g = heappop(heap)
        if state in closed or g > best_g[state]:
            continue
        # Step 3. Goal test at pop: a popped goal ends the search, unexpanded.
        if not is_not_goal:
            status, goal = "solved", state
            break
        # Step 4. Limits, checked before each expansion.
        if max_expansions is not None and expanded >= max_expansions:
            status = "limit"
            break
        if (
            time_limit is not None
            and expanded % _CLOCK_INTERVAL == 0
            and time.perf_counter() - started > time_limit
        ):
            status = "limit"
            break
        # Step 5. Expand: close the node and generate its successors.
        closed.add(state)
        open_count -= 1
        expanded += 1
        if observer is not None:
            observer(Expand(state, g, described[state][0]))
        for child, cost in successors(state):
            generated += 1
            if not cost >= 0:
                raise negative_cost_error(algorithm, state, child, cost)
            child_g = g + (1.0 if unit_cost else cost)
            info = described.get(child)
            if info is None:
                info = described[child] = describe(child)
            if observer is not None:
                observer(Generate(child, state, child_g, info[0]))
            # Step 6. Keep the successor only if it improves on its best known g.
            old_g = best_g.get(child)
            if old_g is None:
                open_count += 1
                if open_count > max_open:
                    max_open = open_count
            elif child_g >= old_g * _KEEP_BELOW:  # not cheaper (SAME_COST: float rounding)
                continue
            elif child in closed:
                if not reopen:
                    continue
                closed.discard(child)
                reopened += 1
                open_count += 1
                if open_count > max_open:
                    max_open = open_count
                if observer is not None:
                    observer(Reopen(child, old_g, child_g))
            best_g[child] = child_g
            parents[child] = (state, cost)
            counter += 1
            heappush(
                heap,
                (
                    g_weight * child_g + h_weight * info[0],
                    info[1],
                    -child_g,
                    counter,
                    child,
                    child_g,
                ),
            )

    path, cost = path_from_parents(parents, goal) if status == "solved" else (None, None)
    counts = (expanded, generated, reopened, max_open)
    return finished_search(status, path, cost, counts, started, algorithm)


# --- the named algorithms ----------------------------------------------------------------

_NAMED_SETTINGS: dict[str, dict[str, Any]] = {
    "astar": {"g_weight": 1.0, "h_weight": 1.0},
    "weighted_astar": {"g_weight": 1.0},
    "dijkstra": {"g_weight": 1.0, "h_weight": 0.0},
    "breadth_first": {"g_weight": 1.0, "h_weight": 0.0, "unit_cost": True},
    "greedy_best_first": {"g_weight": 0.0, "h_weight": 1.0, "reopen": False},
}
"""The fixed settings of each named algorithm below (the caller's own come on top)."""


def _run_named(
    algorithm: str,
    problem: Problem[Any],
    limits: Limits | None,
    observer: Observer | None,
    tier: Tier,
    settings: dict[str, Any],
) -> PathResult:
    """:func:`best_first_search` named ``algorithm``, with its fixed settings and ``settings``."""
    return best_first_search(
        problem, limits=limits, observer=observer, tier=tier, algorithm=algorithm,
        **_NAMED_SETTINGS[algorithm], **settings,
    )  # fmt: skip


def astar(
    problem: Problem[Any],
    heuristic: Callable[[Any], float] | None = None,
    *,
    reopen: bool = True,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """A* search (Hart, Nilsson and Raphael 1968): best-first on ``f = g + h``.

    Parameters are those of :func:`best_first_search`; ``heuristic=None`` uses the problem's
    own ``heuristic`` method, or 0 when it has none.

    Returns a :class:`PathResult`; raises :class:`InvalidParameterError` on bad input
    (negative step cost or heuristic value, bad limits or tier).

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> h = {"s": 3, "a": 3, "b": 1, "t": 0}
    >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1}}, "s", "t",
    ...                      heuristic=h)
    >>> result = astar(roads)
    >>> result.path, result.cost, result.expanded
    (['s', 'b', 't'], 3.0, 2)

    Notes
    -----
    * Admissible ``h`` (never above the true cost to a goal): the returned path is optimal,
      provided ``reopen=True`` when ``h`` is inconsistent.
    * Consistent ``h`` (``h(n) <= c(n, n') + h(n')``): no node is ever reopened, so
      ``reopened == 0`` and every node is expanded at most once.
    * An inadmissible ``h`` can return a suboptimal path.
    """
    settings = {"heuristic": heuristic, "reopen": reopen}
    return _run_named("astar", problem, limits, observer, tier, settings)


def weighted_astar(
    problem: Problem[Any],
    weight: float,
    heuristic: Callable[[Any], float] | None = None,
    *,
    reopen: bool = True,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Weighted A* (Pohl 1970): best-first on ``f = g + weight * h`` with ``weight >= 1``.

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1}}, "s", "t")
    >>> weighted_astar(roads, 2.0).cost
    3.0
    >>> try:
    ...     weighted_astar(roads, 0.5)
    ... except ValueError as error:
    ...     print(error)
    weighted_astar: weight must be a finite number >= 1, got 0.5

    Notes
    -----
    With an admissible ``h`` the returned cost is at most ``weight`` times the optimal cost
    (with ``reopen=True``; also without reopening when ``h`` is consistent). Larger weights
    usually expand fewer nodes.
    """
    weight = check_weight("weight", weight, "weighted_astar", minimum=1.0)
    settings = {"heuristic": heuristic, "h_weight": weight, "reopen": reopen}
    return _run_named("weighted_astar", problem, limits, observer, tier, settings)


def dijkstra(
    problem: Problem[Any],
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Dijkstra's algorithm (uniform-cost search): best-first on ``f = g``; optimal.

    The heuristic is ignored (never evaluated).

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1}}, "s", "t")
    >>> dijkstra(roads).path
    ['s', 'b', 't']
    """
    return _run_named("dijkstra", problem, limits, observer, tier, {})


uniform_cost_search = dijkstra
"""Another name of :func:`dijkstra`."""


def breadth_first_search(
    problem: Problem[Any],
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Breadth-first search: ordered by the number of steps; returns a fewest-steps path.

    The reported ``cost`` is the real cost of that path, not necessarily the cheapest.

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1}}, "s", "t")
    >>> result = breadth_first_search(roads)
    >>> result.path, result.cost
    (['s', 'a', 't'], 4.0)
    """
    return _run_named("breadth_first", problem, limits, observer, tier, {})


def greedy_best_first_search(
    problem: Problem[Any],
    heuristic: Callable[[Any], float] | None = None,
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    tier: Tier = "auto",
) -> PathResult:
    """Greedy best-first search: ordered by ``h`` alone, no reopening. No optimality guarantee.

    It finds a path whenever one exists in a finite state space.

    >>> from searchlab.domains.path.graph import GraphProblem
    >>> h = {"s": 3, "a": 1, "b": 2, "t": 0}
    >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 9}, "b": {"t": 1}}, "s", "t",
    ...                      heuristic=h)
    >>> greedy_best_first_search(roads).cost  # the optimal cost is 3
    10.0
    """
    return _run_named(
        "greedy_best_first", problem, limits, observer, tier, {"heuristic": heuristic}
    )
