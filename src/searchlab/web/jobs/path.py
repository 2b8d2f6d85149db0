"""The Path lab's jobs: a map's rows and scenarios, a path search with its events."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from searchlab.algorithms.path.registry import PATH_ALGORITHMS
from searchlab.core.limits import Limits
from searchlab.core.problem import zero_heuristic
from searchlab.domains.path.grid import GridMap, GridProblem, manhattan_distance, octile_distance
from searchlab.domains.path.movingai import load_map, load_scenarios
from searchlab.web.jobs.common import json_number

__all__ = ["MAX_EVENTS", "map_job", "path_job"]

MAX_EVENTS = 500_000
"""The most events a path search sends (about 6 MB of JSON); the counters stay exact, the
animation stops there (``events_truncated``)."""


@functools.lru_cache(maxsize=16)
def _cached_map(path: str) -> GridMap:
    return load_map(path)


def map_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/maps/{name}: the rows and the first scenarios."""
    grid = _cached_map(payload["file"])
    scenarios = []
    scen = payload.get("scen")
    if scen:
        for scenario in load_scenarios(scen)[:50]:
            scenarios.append(
                {
                    "start": list(scenario.start),
                    "goal": list(scenario.goal),
                    "optimal": scenario.optimal_length,
                }
            )
    return {
        "name": payload["name"],
        "width": grid.width,
        "height": grid.height,
        "rows": grid.to_strings(),
        "scenarios": scenarios,
    }


_HEURISTICS: dict[str, Callable[[Any, Any], float]] = {
    "octile": octile_distance,
    "manhattan": manhattan_distance,
    "euclidean": lambda a, b: math.dist(a, b),
}


def _heuristic(name: str, problem: GridProblem) -> Callable[[Any], float] | None:
    """``None`` for the grid's own heuristic (octile on 8, Manhattan on 4 neighbours: what the
    command line searches with, compiled), else a function of the cell."""
    own = "octile" if problem.connectivity == 8 else "manhattan"
    if name == own:
        return None
    if name == "zero":
        return zero_heuristic
    distance = _HEURISTICS[name]
    goal = problem.goal
    return lambda cell: distance(cell, goal)


def path_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/path: one search, with its events, by the algorithm of the registry that
    ``searchlab path`` runs (:data:`~searchlab.algorithms.path.registry.PATH_ALGORITHMS`; the
    server checked the name)."""
    if payload.get("file"):
        grid = _cached_map(payload["file"])
    else:
        grid = GridMap.from_strings(payload["rows"], name="<drawn>")
    problem = GridProblem(
        grid, tuple(payload["start"]), tuple(payload["goal"]), connectivity=payload["connectivity"]
    )
    algorithm = payload["algorithm"]
    heuristic = _heuristic(payload["heuristic"], problem)
    limits = Limits(expansions=payload["expansions"], time=context.seconds)
    record = payload.get("events", True)
    events: list[list[Any]] = []

    def observe(event: Any) -> None:
        if len(events) >= MAX_EVENTS:
            return
        kind = event.kind
        if kind == "expand":
            x, y = event.state
            events.append(["expand", x, y, json_number(event.g), json_number(event.h)])
        elif kind == "generate":
            x, y = event.state
            events.append(["generate", x, y])
        elif kind == "reopen":
            x, y = event.state
            events.append(["reopen", x, y])

    observer = observe if record else None
    result = PATH_ALGORITHMS[algorithm].run(
        problem, heuristic=heuristic, weight=payload["weight"], limits=limits, observer=observer
    )
    return {
        "algorithm": algorithm,
        "status": result.status,
        "events": events if record else None,
        "events_truncated": len(events) >= MAX_EVENTS,
        "path": None if result.path is None else [list(cell) for cell in result.path],
        "cost": result.cost,
        "length": result.length,
        "expanded": result.expanded,
        "generated": result.generated,
        "reopened": result.reopened,
        "max_open": result.max_open,
        "elapsed": result.elapsed,
    }
