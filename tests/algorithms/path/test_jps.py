"""Jump point search: optimal on the Moving AI scenarios and on random maps (networkx as the
independent check), a legal cell-by-cell path, and its bad inputs."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from test_grid_astar import (
    SAMPLE_PER_MAP,
    SMALL_MAPS,
    TOLERANCE,
    free_cells,
    load,
    map_names,
    octile_graph,
    optimal_runs,
    random_grid,
    sample,
)

from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.jps import JumpPointSearcher, jump_point_search, jump_point_searcher
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.path.grid import GridMap, GridProblem


def check_result(grid: GridMap, result, start, goal) -> None:  # type: ignore[no-untyped-def]
    problem = GridProblem(grid, start, goal)
    assert result.path[0] == start and result.path[-1] == goal
    # every step legal (no corner cutting), and the cost is the sum of the steps
    assert problem.path_cost(result.path) == pytest.approx(result.cost, abs=1e-9)
    jump_points = result.stats["jump_points"]
    assert jump_points[0] == start and jump_points[-1] == goal
    assert set(jump_points) <= set(result.path)


@pytest.mark.parametrize("name", SMALL_MAPS)
def test_every_scenario_of_the_small_maps(shared_data: Path, name: str) -> None:
    for grid, scenario, result in optimal_runs(shared_data, name, jump_point_searcher):
        check_result(grid, result, scenario.start, scenario.goal)


def test_a_seeded_sample_of_every_other_map(shared_data: Path) -> None:
    for seed, name in enumerate(map_names(shared_data)):
        if name in SMALL_MAPS:
            continue
        grid, scenarios = load(shared_data, name)
        for scenario in sample(scenarios, SAMPLE_PER_MAP, 100 + seed):
            result = jump_point_search(GridProblem(grid, scenario.start, scenario.goal))
            assert abs(result.cost - scenario.optimal_length) <= TOLERANCE, (name, scenario)
            check_result(grid, result, scenario.start, scenario.goal)


@pytest.mark.parametrize("blocked", [0.1, 0.25, 0.4])
def test_random_maps_against_networkx(blocked: float) -> None:
    """Random obstacles make every forced-neighbour case occur many times."""
    for seed in range(25):
        grid = random_grid(1000 + seed, height=20, width=27, blocked=blocked)
        graph = octile_graph(grid)
        for start, goal in zip(*[iter(free_cells(grid, 8, seed))] * 2, strict=True):
            result = jump_point_search(GridProblem(grid, start, goal))
            if nx.has_path(graph, start, goal):
                expected = nx.dijkstra_path_length(graph, start, goal)
                assert result.cost == pytest.approx(expected, abs=1e-9), (seed, start, goal)
                check_result(grid, result, start, goal)
            else:
                assert result.status == "no_path" and result.path is None


def test_corridors_and_pillars() -> None:
    """Hand-made cases: a side cell opening up forces a turn; pillars block diagonals."""
    grid = GridMap.from_strings(
        [
            "..........",
            "@@@@@.@@@.",
            "..........",
            ".@.@.@.@..",
            "..........",
        ]
    )
    graph = octile_graph(grid)
    cells = [(x, y) for y in range(5) for x in range(10) if grid.passable[y, x]]
    for start in cells[::3]:
        for goal in cells[1::4]:
            result = jump_point_search(GridProblem(grid, start, goal))
            assert result.cost == pytest.approx(
                nx.dijkstra_path_length(graph, start, goal), abs=1e-9
            )


def test_fewer_expansions_than_astar_and_same_cost(shared_data: Path) -> None:
    grid, scenarios = load(shared_data, "rooms/32room_000")
    scenario = scenarios[-1]
    problem = GridProblem(grid, scenario.start, scenario.goal)
    jps, astar = jump_point_search(problem), best_first.astar(problem)
    assert jps.cost == pytest.approx(astar.cost, abs=1e-6)
    assert jps.expanded * 10 < astar.expanded
    assert jps.algorithm == "jps" and jps.tier == "compiled"


def test_events_limits_and_trivial_queries() -> None:
    grid = GridMap.from_strings(["........", "..@@@...", "........"])
    problem = GridProblem(grid, (0, 1), (7, 1))
    recorder = TraceRecorder()
    result = jump_point_search(problem, observer=recorder)
    assert recorder.count("expand") == result.expanded
    assert recorder.count("generate") == result.generated
    assert recorder.states("expand")[0] == (0, 1)
    limited = jump_point_search(problem, limits=Limits(expansions=1))
    assert limited.status == "limit" and limited.expanded == 1
    same = jump_point_search(GridProblem(grid, (3, 0), (3, 0)))
    assert same.path == [(3, 0)] and same.cost == 0.0
    wall = GridMap.from_strings(["..@..", "..@.."])
    assert jump_point_search(GridProblem(wall, (0, 0), (4, 1))).status == "no_path"


def test_bad_inputs() -> None:
    grid = GridMap.from_strings(["...", "..."])
    with pytest.raises(InvalidParameterError, match="needs 8-connectivity"):
        jump_point_search(GridProblem(grid, (0, 0), (2, 1), connectivity=4))
    with pytest.raises(InvalidParameterError, match="needs a GridProblem"):
        jump_point_search("not a problem")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="Limits object"):
        jump_point_search(GridProblem(grid, (0, 0), (2, 1)), limits=5)  # type: ignore[arg-type]


def test_searcher_is_reused_and_reset() -> None:
    grid = GridMap(np.ones((6, 6), dtype=bool))
    searcher = JumpPointSearcher(grid)
    first = searcher.search((0, 0), (5, 5))
    second = searcher.search((5, 0), (0, 5))
    assert first.path == [(i, i) for i in range(6)]
    assert second.path == [(5 - i, i) for i in range(6)]
    assert jump_point_searcher(grid) is jump_point_searcher(grid)
