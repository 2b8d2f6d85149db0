"""IDA*: thresholds, float costs, cycles, deep paths, limits, dispatch and errors."""

from __future__ import annotations

import math
import sys
from typing import Any

import networkx as nx
import pytest
from line_problem import Line

from searchlab.algorithms.path.idastar import idastar
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.core.results import PathResult
from searchlab.core.tier import KernelRegistry
from searchlab.domains.path.graph import GraphProblem

ROADS = {"s": {"a": 1, "b": 2}, "a": {"t": 3}, "b": {"t": 1.5}}


def test_thresholds_are_the_smallest_f_above_the_previous_bound() -> None:
    # h = 0: bounds 0 (s), 1 (a), 2 (b), 3.5 (s-b-t); s-a-t costs 4 and is never reached.
    result = idastar(GraphProblem(ROADS, "s", "t"))
    assert result.stats["thresholds"] == [0.0, 1.0, 2.0, 3.5]
    assert result.stats["iterations"] == 4
    assert result.path == ["s", "b", "t"] and result.cost == 3.5
    # Expansions per iteration: {s}, {s, a}, {s, a, b}, {s, a, b}: 9 in all.
    assert result.expanded == 9


def test_float_costs_are_not_rounded() -> None:
    # 0.1 + 0.2 > 0.3 in floating point: the bound must be the exact f, or the goal is missed.
    problem = GraphProblem({"s": {"a": 0.1}, "a": {"t": 0.2}}, "s", "t")
    result = idastar(problem)
    assert result.path == ["s", "a", "t"] and result.cost == 0.1 + 0.2
    assert result.stats["thresholds"][-1] == 0.1 + 0.2


def test_cycles_on_the_current_path_are_skipped() -> None:
    # An undirected graph is full of 2-cycles; without the cycle check IDA* would loop.
    graph = nx.cycle_graph(6)
    problem = GraphProblem.from_networkx(graph, 0, 3)
    recorder = TraceRecorder()
    result = idastar(problem, observer=recorder)
    assert result.cost == 3.0 and result.length == 3
    for event in recorder.events:
        if event.kind == "generate":
            assert event.state != event.parent
    assert recorder.count("expand") == result.expanded
    assert recorder.count("generate") == result.generated


def test_admissible_heuristic_is_optimal_on_a_grid_graph() -> None:
    graph = nx.grid_2d_graph(5, 5)
    for (u, v), w in zip(graph.edges, [1, 2, 3] * 100, strict=False):
        graph.edges[u, v]["weight"] = w
    goal = (4, 4)
    manhattan = lambda cell: abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])  # noqa: E731
    result = idastar(GraphProblem.from_networkx(graph, (0, 0), goal), manhattan)
    assert result.cost == nx.dijkstra_path_length(graph, (0, 0), goal)


def test_deep_solutions_need_no_recursion() -> None:
    depth = sys.getrecursionlimit() * 3
    chain = GraphProblem({i: {i + 1: 1} for i in range(depth)}, start=0, goal=depth)
    result = idastar(chain, lambda state: float(depth - state))  # perfect: one iteration
    assert result.length == depth and result.stats["iterations"] == 1
    assert result.expanded == depth and result.max_open == depth


def test_unreachable_goal_is_no_path() -> None:
    problem = GraphProblem({"s": {"a": 1}, "a": {"s": 1}, "t": {}}, "s", "t")
    result = idastar(problem)
    assert result.status == "no_path" and result.path is None


def test_start_that_is_a_goal() -> None:
    result = idastar(GraphProblem({"s": {}}, "s", "s"))
    assert (result.path, result.cost, result.expanded) == (["s"], 0.0, 0)


@pytest.mark.parametrize("k", [1, 2, 5, 8])
def test_expansion_limit_counts_over_all_iterations(k: int) -> None:
    result = idastar(GraphProblem(ROADS, "s", "t"), limits=Limits(expansions=k))
    assert (result.status, result.expanded, result.path) == ("limit", k, None)


def test_depth_limit_caps_the_threshold() -> None:
    result = idastar(GraphProblem(ROADS, "s", "t"), limits=Limits(depth=3))
    assert result.status == "limit" and result.stats["thresholds"] == [0.0, 1.0, 2.0]
    assert idastar(GraphProblem(ROADS, "s", "t"), limits=Limits(depth=4)).cost == 3.5


def test_time_limit_stops_an_endless_search() -> None:
    # zero costs: the first iteration never ends
    result = idastar(Line(((1, 0.0),)), limits=Limits(time=0.05))
    assert result.status == "limit" and result.expanded % 1024 == 0


def test_compiled_result_is_returned_unless_reference_is_asked(monkeypatch: Any) -> None:
    compiled = PathResult(status="solved", path=["s"], cost=0.0, tier="compiled")
    registry = KernelRegistry()
    registry.register("idastar", GraphProblem, lambda problem, **request: compiled)
    monkeypatch.setattr(sys.modules[idastar.__module__], "KERNELS", registry)
    problem = GraphProblem(ROADS, "s", "t")
    assert idastar(problem) is compiled
    assert idastar(problem, tier="reference").tier == "reference"


def test_errors() -> None:
    problem = GraphProblem(ROADS, "s", "t")
    with pytest.raises(InvalidParameterError, match="no compiled tier for GraphProblem"):
        idastar(problem, tier="compiled")
    with pytest.raises(InvalidParameterError, match="tier must be one of"):
        idastar(problem, tier="gpu")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="is not a Problem"):
        idastar("s")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="limits must be"):
        idastar(problem, limits=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="heuristic must be callable"):
        idastar(problem, 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"heuristic returned -1 for state 'a'"):
        idastar(problem, lambda state: -1 if state == "a" else 0)


@pytest.mark.parametrize("cost", [-1.0, math.nan])
def test_negative_step_cost_is_reported_with_its_edge(cost: float) -> None:
    class Bad:
        def initial_state(self) -> str:
            return "a"

        def is_goal(self, state: str) -> bool:
            return state == "b"

        def successors(self, state: str) -> list[tuple[str, float]]:
            return [("b", cost)]

    with pytest.raises(InvalidParameterError, match="edge 'a' -> 'b'"):
        idastar(Bad())
