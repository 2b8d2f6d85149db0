"""Search results as objects.

A path search returns a :class:`PathResult`: what was found (``path``, ``cost``), how it ended
(``status``) and what it cost to find (``expanded``, ``generated``, ``reopened``, ``max_open``,
``elapsed``). Failing to find a path is a result, not an exception; call
:meth:`PathResult.raise_for_status` to turn it into one.

>>> result = PathResult(status="solved", path=[(0, 0), (1, 1)], cost=1.4142135623730951,
...                     expanded=2, generated=5, algorithm="astar")
>>> result.is_solved, result.length
(True, 1)
>>> PathResult(status="no_path", algorithm="astar").raise_for_status()
Traceback (most recent call last):
...
searchlab.core.errors.NoPathError: astar: no path exists (search space exhausted after 0 expansions)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from searchlab.core.errors import NoPathError, SearchlabError

__all__ = ["PathResult", "SearchStatus", "finished_search"]

SearchStatus = Literal["solved", "no_path", "limit"]
"""``solved``: a goal was reached; ``no_path``: the space was exhausted without one (the goal
is unreachable); ``limit``: a :class:`~searchlab.core.limits.Limits` budget ran out first."""


@dataclass(slots=True)
class PathResult:
    """The outcome of one path search.

    Attributes:
        status: how the search ended (see :data:`SearchStatus`).
        path: the states from the initial state to the goal, both included; ``None`` unless
            solved.
        cost: the sum of the step costs along ``path``; ``None`` unless solved.
        expanded: nodes expanded (successors generated), reopened nodes counted again.
        generated: successors generated.
        reopened: closed nodes put back on the open list because a cheaper path was found.
        max_open: largest size the open list (frontier) reached.
        elapsed: wall-clock seconds of the search.
        algorithm: the name of the algorithm that produced it.
        tier: ``"reference"`` (plain Python) or ``"compiled"`` (numba).
        stats: algorithm-specific extras (IDA* iterations, thresholds, ...).
    """

    status: SearchStatus
    path: Sequence[Any] | None = None
    cost: float | None = None
    expanded: int = 0
    generated: int = 0
    reopened: int = 0
    max_open: int = 0
    elapsed: float = 0.0
    algorithm: str = ""
    tier: Literal["reference", "compiled"] = "reference"
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def is_solved(self) -> bool:
        """True when a path to a goal was found."""
        return self.status == "solved"

    @property
    def length(self) -> int | None:
        """Number of steps (edges) on the path; ``None`` unless solved."""
        return None if self.path is None else len(self.path) - 1

    @property
    def expansions_per_second(self) -> float:
        """Expansion rate of this search (0 when it took no measurable time)."""
        return self.expanded / self.elapsed if self.elapsed > 0 else 0.0

    def raise_for_status(self) -> PathResult:
        """Return ``self`` if solved; raise :class:`NoPathError` or :class:`SearchlabError`."""
        name = self.algorithm or "search"
        if self.status == "no_path":
            raise NoPathError(
                f"{name}: no path exists (search space exhausted after {self.expanded} expansions)"
            )
        if self.status == "limit":
            raise SearchlabError(
                f"{name}: stopped by its limits after {self.expanded} expansions "
                f"and {self.elapsed:.3f} s without reaching a goal"
            )
        return self


def finished_search(
    status: str,
    path: Sequence[Any] | None,
    cost: float | None,
    counts: tuple[int, int, int, int],
    started: float,
    algorithm: str,
    stats: dict[str, Any] | None = None,
) -> PathResult:
    """The result of a plain-Python search that ends now: ``counts`` is ``(expanded,
    generated, reopened, max_open)`` and ``elapsed`` the time since ``started``, a
    :func:`time.perf_counter` reading.

    >>> result = finished_search("no_path", None, None, (3, 5, 0, 2), time.perf_counter(), "bfs")
    >>> result.status, result.expanded, result.max_open, result.tier
    ('no_path', 3, 2, 'reference')
    """
    elapsed = time.perf_counter() - started
    # counts stand where PathResult's fields expanded, generated, reopened, max_open do
    tail = (elapsed, algorithm, "reference", {} if stats is None else stats)
    return PathResult(status, path, cost, *counts, *tail)  # type: ignore[arg-type]
