"""Bidirectional Dijkstra: the stopping rule, meeting, counters, limits and errors."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import pytest
from line_problem import Line

from searchlab.algorithms.path.best_first import dijkstra
from searchlab.algorithms.path.bidirectional import bidirectional_search
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.path.graph import GraphProblem


def test_stops_by_the_sum_of_the_tops_not_at_the_first_state_settled_twice() -> None:
    # s -> m -> t costs 4 + 4 = 8; s -> a -> b -> t costs 3 + 1 + 3 = 7.
    # Forward settles s, backward t, forward a (3): relaxing a -> b meets b, labelled 3 by
    # the backward side: candidate 7. The tops are now 4 (forward: m) and 3 (backward: b),
    # 4 + 3 >= 7: stop with 7. A search that ran on until some state is settled by both
    # sides (m, after 4 + 4) and returned the path through it would answer 8.
    problem = GraphProblem(
        {"s": {"a": 3, "m": 4}, "a": {"b": 1}, "b": {"t": 3}, "m": {"t": 4}}, "s", "t"
    )
    recorder = TraceRecorder()
    result = bidirectional_search(problem, observer=recorder)
    assert result.path == ["s", "a", "b", "t"] and result.cost == 7.0
    assert recorder.states("expand") == ["s", "t", "a"]
    assert result.stats["meeting_state"] == "b"


def test_agrees_with_networkx_on_a_weighted_grid() -> None:
    graph = nx.grid_2d_graph(8, 8)
    for index, (u, v) in enumerate(graph.edges):
        graph.edges[u, v]["weight"] = 1 + (index * 7) % 5
    problem = GraphProblem.from_networkx(graph, (0, 0), (7, 5))
    result = bidirectional_search(problem)
    assert result.cost == nx.dijkstra_path_length(graph, (0, 0), (7, 5))


def test_two_half_balls_are_smaller_than_one_ball() -> None:
    # On an open unit grid Dijkstra settles about a diamond of radius 10 around the start;
    # the two sides settle two diamonds of radius about 5.
    graph = nx.grid_2d_graph(21, 21)
    problem = GraphProblem.from_networkx(graph, (5, 10), (15, 10))
    result = bidirectional_search(problem)
    assert result.cost == 10.0
    assert result.expanded < 0.7 * dijkstra(problem).expanded


def test_directed_edges_are_walked_backwards_from_the_goal() -> None:
    # One-way street: t is reachable from s but s is not reachable from t.
    problem = GraphProblem({"s": {"a": 1}, "a": {"t": 1}}, "s", "t")
    result = bidirectional_search(problem)
    assert result.path == ["s", "a", "t"]
    reverse = GraphProblem({"s": {"a": 1}, "a": {"t": 1}}, "t", "s")
    assert bidirectional_search(reverse).status == "no_path"


def test_chain_meets_in_the_middle() -> None:
    chain = GraphProblem({i: {i + 1: 1.0} for i in range(6)}, start=0, goal=6)
    recorder = TraceRecorder()
    result = bidirectional_search(chain, observer=recorder)
    # Forward settles 0, 1, 2 and backward 6, 5, 4, alternating on equal tops.
    assert recorder.states("expand") == [0, 6, 1, 5, 2, 4]
    assert result.path == list(range(7)) and result.cost == 6.0
    assert recorder.count("expand") == result.expanded == 6
    assert recorder.count("generate") == result.generated


def test_start_equals_goal() -> None:
    result = bidirectional_search(GraphProblem({"s": {"t": 1}}, "s", "s"))
    assert (result.path, result.cost, result.expanded) == (["s"], 0.0, 0)


def test_expansion_limit() -> None:
    chain = GraphProblem({i: {i + 1: 1.0} for i in range(10)}, start=0, goal=10)
    result = bidirectional_search(chain, limits=Limits(expansions=3))
    assert (result.status, result.expanded, result.path) == ("limit", 3, None)


def test_problem_without_predecessors_is_rejected_naming_what_is_missing() -> None:
    with pytest.raises(InvalidParameterError, match="lacks goal_state, predecessors"):
        bidirectional_search(Line(((1, 1.0),), goal=1))  # type: ignore[arg-type]


def test_goal_state_must_be_a_goal() -> None:
    class Liar(GraphProblem):
        def goal_state(self) -> Any:
            return "s"

    with pytest.raises(InvalidParameterError, match="goal_state\\(\\) returned 's'"):
        bidirectional_search(Liar({"s": {"t": 1}}, "s", "t"))


@pytest.mark.parametrize("cost", [-1.0, math.nan])
def test_negative_cost_in_predecessors_is_reported_with_its_edge(cost: float) -> None:
    class Bad(GraphProblem):
        def predecessors(self, state: Any) -> list[tuple[Any, float]]:
            return [("a", cost)] if state == "t" else []

    problem = Bad({"s": {"a": 1}, "a": {"t": 1}}, "s", "t")
    with pytest.raises(InvalidParameterError, match="edge 'a' -> 't'"):
        bidirectional_search(problem)


def test_bad_limits_are_rejected() -> None:
    with pytest.raises(InvalidParameterError, match="limits must be"):
        bidirectional_search(GraphProblem({"s": {"t": 1}}, "s", "t"), limits=3)  # type: ignore[arg-type]
