"""The perfect heuristic h*: distances against networkx, and A* guided by it."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import pytest
from line_problem import Line

from searchlab.algorithms.path.best_first import astar
from searchlab.algorithms.path.perfect_heuristic import PerfectHeuristic, perfect_heuristic
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.path.graph import GraphProblem


def random_digraph(seed: int, lowest_cost: int = 0) -> nx.DiGraph:
    """40 nodes, integer costs lowest_cost..lowest_cost + 6."""
    graph = nx.gnp_random_graph(40, 0.08, seed=seed, directed=True)
    for index, (u, v) in enumerate(graph.edges):
        graph.edges[u, v]["weight"] = lowest_cost + (index * 37 + seed) % 7
    return graph


@pytest.mark.parametrize("seed", range(5))
def test_distances_match_networkx(seed: int) -> None:
    graph = random_digraph(seed)
    h = perfect_heuristic(GraphProblem.from_networkx(graph, 0, 1))
    expected = nx.single_source_dijkstra_path_length(graph.reverse(), 1)
    assert dict(h.distances) == expected
    assert len(h) == len(expected)
    for node in graph.nodes:
        assert h(node) == expected.get(node, math.inf)
        assert (node in h) == (node in expected)


@pytest.mark.parametrize("lowest_cost", [0, 1])
@pytest.mark.parametrize("seed", range(5))
def test_astar_with_h_star_expands_only_nodes_on_optimal_paths(seed: int, lowest_cost: int) -> None:
    graph = random_digraph(seed, lowest_cost)
    start, goal = 0, 1
    if not nx.has_path(graph, start, goal):
        graph.add_edge(start, goal, weight=50)
    problem = GraphProblem.from_networkx(graph, start, goal)
    h = perfect_heuristic(problem)
    recorder = TraceRecorder()
    result = astar(problem, h, observer=recorder)
    optimal = nx.dijkstra_path_length(graph, start, goal)
    from_start = nx.single_source_dijkstra_path_length(graph, start)
    to_goal = nx.single_source_dijkstra_path_length(graph.reverse(), goal)
    assert result.cost == optimal
    assert recorder.states("expand")  # the start at least
    for state in recorder.states("expand"):
        # On an optimal path: the cheapest start -> state -> goal costs exactly the optimum.
        assert from_start[state] + to_goal[state] == optimal
    if lowest_cost > 0:
        # With positive costs and deeper-first ties, A* walks straight down one optimal path
        # (zero-cost edges make siblings tie on g too, and FIFO may expand them).
        assert recorder.states("expand") == result.path[:-1]


def test_dead_ends_get_infinity_and_the_object_reports_itself() -> None:
    problem = GraphProblem({"s": {"t": 2, "dead": 1}, "dead": {}}, "s", "t")
    h = perfect_heuristic(problem)
    assert h("dead") == math.inf and h("s") == 2.0 and h("t") == 0.0
    assert sorted(h) == ["s", "t"]
    assert repr(h) == "PerfectHeuristic(<2 states>, goal='t')"
    with pytest.raises(TypeError):
        h.distances["s"] = 0.0  # type: ignore[index]


def test_distances_mapping_is_a_copy() -> None:
    source = {"t": 0.0}
    h = PerfectHeuristic(source, goal="t")
    source["x"] = 1.0
    assert "x" not in h


def test_limits_that_cut_the_enumeration_short_raise() -> None:
    chain = GraphProblem({i: {i + 1: 1} for i in range(10)}, start=0, goal=10)
    with pytest.raises(SearchlabError, match="stopped by Limits\\(expansions=3\\) after 3"):
        perfect_heuristic(chain, limits=Limits(expansions=3))
    assert len(perfect_heuristic(chain, limits=Limits(expansions=11))) == 11


def test_problem_without_predecessors_is_rejected() -> None:
    with pytest.raises(InvalidParameterError, match="perfect_heuristic needs a ReversibleProblem"):
        perfect_heuristic(Line(((1, 1.0),), goal=1))  # type: ignore[arg-type]


def test_negative_cost_is_reported_with_its_edge() -> None:
    class Bad(GraphProblem):
        def predecessors(self, state: Any) -> list[tuple[Any, float]]:
            return [("a", -3.0)]

    with pytest.raises(InvalidParameterError, match=r"step cost -3\.0 on edge 'a' -> 't'"):
        perfect_heuristic(Bad({"a": {"t": 1}}, "a", "t"))


def test_bad_limits_are_rejected() -> None:
    with pytest.raises(InvalidParameterError, match="limits must be"):
        perfect_heuristic(GraphProblem({"a": {}}, "a", "a"), limits=10)  # type: ignore[arg-type]
