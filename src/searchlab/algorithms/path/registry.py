"""The path algorithms by name: the one list ``searchlab path``, the web lab's ``/api/path``
and the docs' table of algorithms read.

Each :class:`PathAlgorithm` holds its name (and aliases), a one-line description, the options
it takes (``"heuristic"``, ``"weight"``), whether it is optimal and complete, and
:meth:`PathAlgorithm.run`, which runs it on a problem with a heuristic, a weight, limits and an
observer. :func:`path_algorithm` finds one by name or alias; an unknown name is an
:class:`~searchlab.core.errors.UnknownNameError` whose message lists the names (the same line
wherever the name came from).

>>> from searchlab.domains.path.graph import GraphProblem
>>> roads = GraphProblem({"s": {"a": 1, "b": 4}, "a": {"b": 1, "t": 5}, "b": {"t": 1}}, "s", "t")
>>> wastar = path_algorithm("wastar")
>>> wastar.name, wastar.options, wastar.optimal
('weighted_astar', ('heuristic', 'weight'), False)
>>> wastar.run(roads).cost
3.0
>>> path_algorithm("dfs")
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: unknown algorithm 'dfs': expected one of astar, \
weighted_astar (or wastar), dijkstra, bfs, greedy, jps, bidirectional, idastar
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.bidirectional import bidirectional_search
from searchlab.algorithms.path.idastar import idastar
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.core.errors import UnknownNameError
from searchlab.core.limits import Limits
from searchlab.core.observer import Observer
from searchlab.core.results import PathResult

__all__ = [
    "DEFAULT_WEIGHT",
    "PATH_ALGORITHMS",
    "PathAlgorithm",
    "accepted_names",
    "path_algorithm",
]

DEFAULT_WEIGHT = 2.0
"""Weighted A*'s weight when none is given (the command line's and the web lab's)."""

OPTIONS = ("heuristic", "weight")
"""Every option an algorithm may take."""


@dataclass(frozen=True)
class PathAlgorithm:
    """One path algorithm as the command line and the web lab name it.

    ``search`` is the library function; ``options`` the options among :data:`OPTIONS` it
    takes; ``optimal`` says it returns a cheapest path (with an admissible heuristic where it
    takes one); ``complete`` that it finds a path whenever one exists (finite state space);
    ``eight_connected`` that it runs on 8-connected grids only.
    """

    name: str
    title: str
    description: str
    search: Callable[..., PathResult]
    options: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    optimal: bool = True
    complete: bool = True
    eight_connected: bool = False

    def run(
        self,
        problem: Any,
        *,
        heuristic: Callable[[Any], float] | None = None,
        weight: float | None = None,
        limits: Limits | None = None,
        observer: Observer | None = None,
    ) -> PathResult:
        """Search ``problem``; ``heuristic`` (``None``: the problem's own) and ``weight``
        (``None``: :data:`DEFAULT_WEIGHT`) are passed only if the algorithm takes them, and
        ignored otherwise.

        >>> from searchlab.domains.path.graph import GraphProblem
        >>> roads = GraphProblem({"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1}}, "s", "t")
        >>> PATH_ALGORITHMS["bfs"].run(roads, heuristic=lambda state: 0.0).path
        ['s', 'a', 't']
        """
        settings: dict[str, Any] = {"limits": limits, "observer": observer}
        if "heuristic" in self.options:
            settings["heuristic"] = heuristic
        if "weight" in self.options:
            settings["weight"] = DEFAULT_WEIGHT if weight is None else weight
        return self.search(problem, **settings)


_ALGORITHMS = (
    PathAlgorithm(
        "astar", "A*", "best-first on f = g + h; optimal with an admissible heuristic",
        best_first.astar, options=("heuristic",),
    ),
    PathAlgorithm(
        "weighted_astar", "weighted A*",
        "best-first on f = g + W * h (W >= 1): cost <= W times optimal, usually fewer expansions",
        best_first.weighted_astar, options=("heuristic", "weight"), aliases=("wastar",),
        optimal=False,
    ),
    PathAlgorithm(
        "dijkstra", "Dijkstra", "best-first on f = g (uniform-cost search, no heuristic)",
        best_first.dijkstra,
    ),
    PathAlgorithm(
        "bfs", "breadth-first search", "fewest steps (not the cheapest with diagonal moves)",
        best_first.breadth_first_search, optimal=False,
    ),
    PathAlgorithm(
        "greedy", "greedy best-first", "best-first on h alone: fast, no cost guarantee",
        best_first.greedy_best_first_search, options=("heuristic",), optimal=False,
    ),
    PathAlgorithm(
        "jps", "jump point search",
        "A* over jump points on a uniform-cost grid (8-connected only)",
        jump_point_search, eight_connected=True,
    ),
    PathAlgorithm(
        "bidirectional", "bidirectional search",
        "Dijkstra from both ends, stopping when the frontiers prove the best meeting",
        bidirectional_search,
    ),
    PathAlgorithm(
        "idastar", "IDA*", "depth-first searches with a rising bound on g + h; little memory",
        idastar, options=("heuristic",),
    ),
)  # fmt: skip

PATH_ALGORITHMS: Mapping[str, PathAlgorithm] = MappingProxyType(
    {algorithm.name: algorithm for algorithm in _ALGORITHMS}
)
"""Every path algorithm by its name, in the order the command line and the lab list them."""

_BY_NAME = {
    name: algorithm for algorithm in _ALGORITHMS for name in (algorithm.name, *algorithm.aliases)
}


def accepted_names() -> tuple[str, ...]:
    """Every name :func:`path_algorithm` takes: the names, then the aliases.

    >>> accepted_names()[-1]
    'wastar'
    """
    return (*PATH_ALGORITHMS, *(alias for a in _ALGORITHMS for alias in a.aliases))


def _listing() -> str:
    return ", ".join(
        name + (f" (or {', '.join(a.aliases)})" if a.aliases else "")
        for name, a in PATH_ALGORITHMS.items()
    )


def path_algorithm(name: str) -> PathAlgorithm:
    """The algorithm called ``name`` (a name or an alias); raises
    :class:`~searchlab.core.errors.UnknownNameError`, one line listing the names, otherwise.

    >>> path_algorithm("jps").eight_connected
    True
    """
    found = _BY_NAME.get(name)
    if found is None:
        raise UnknownNameError(f"unknown algorithm {name!r}: expected one of {_listing()}")
    return found
