"""Tier selection: the public call is the same, the compiled tier runs when the domain has one.

Each function returns ``None`` when the problem has no compiled path for the request (a user
heuristic, an unsupported domain), and the caller then runs the reference tier.
"""

from __future__ import annotations

from typing import Any

from searchlab.core.limits import Limits
from searchlab.core.results import PathResult

__all__ = ["compiled_best_first", "compiled_idastar"]


def compiled_best_first(
    problem: Any,
    *,
    heuristic: Any,
    g_weight: float,
    h_weight: float,
    unit_cost: bool,
    reopen: bool,
    limits: Limits | None,
    observer: Any,
) -> PathResult | None:
    """Run the compiled best-first engine if ``problem`` is a grid and uses its own heuristic."""
    if heuristic is not None:
        return None
    from searchlab.domains.grid import GridProblem

    if not isinstance(problem, GridProblem):
        return None
    from searchlab.algorithms.grid_astar import compiled_grid_best_first

    return compiled_grid_best_first(
        problem,
        g_weight=g_weight,
        h_weight=h_weight,
        unit_cost=unit_cost,
        reopen=reopen,
        limits=limits,
        observer=observer,
    )


def compiled_idastar(
    problem: Any, *, heuristic: Any, limits: Limits | None, observer: Any
) -> PathResult | None:
    """Run the compiled IDA* if ``problem`` is a sliding-tile puzzle using its own heuristic."""
    if heuristic is not None or observer is not None:
        return None
    from searchlab.domains.sliding_tile import SlidingTilePuzzle

    if not isinstance(problem, SlidingTilePuzzle):
        return None
    from searchlab.algorithms.tile_idastar import compiled_tile_idastar

    return compiled_tile_idastar(problem, limits=limits)
