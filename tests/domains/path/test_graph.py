"""GraphProblem: construction forms, networkx import, protocols, and every bad input."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import pytest

from searchlab.algorithms.path.best_first import astar, dijkstra
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.problem import HeuristicProblem, Problem, ReversibleProblem
from searchlab.domains.path.graph import GraphProblem


def test_both_adjacency_forms_give_the_same_graph() -> None:
    as_dicts = GraphProblem({"a": {"b": 1, "c": 2.5}, "b": {"c": 1}}, "a", "c")
    as_lists = GraphProblem({"a": [("b", 1), ("c", 2.5)], "b": [("c", 1)]}, "a", "c")
    assert (
        as_dicts.edges()
        == as_lists.edges()
        == [
            ("a", "b", 1.0),
            ("a", "c", 2.5),
            ("b", "c", 1.0),
        ]
    )
    assert as_dicts.nodes() == ["a", "b", "c"]


def test_successors_and_predecessors_of_a_directed_graph() -> None:
    problem = GraphProblem({"a": {"b": 1, "c": 4}, "b": {"c": 2}}, "a", "c")
    assert problem.successors("a") == [("b", 1.0), ("c", 4.0)]
    assert problem.successors("c") == []
    assert problem.predecessors("c") == [("a", 4.0), ("b", 2.0)]
    assert problem.predecessors("a") == []
    assert (problem.number_of_nodes(), problem.number_of_edges()) == (3, 3)


def test_undirected_edges_work_both_ways() -> None:
    problem = GraphProblem({"a": {"b": 3}}, "b", "a", directed=False)
    assert problem.successors("b") == [("a", 3.0)]
    assert problem.predecessors("b") == [("a", 3.0)]
    assert problem.number_of_edges() == 2
    assert astar(problem).path == ["b", "a"]
    # The same edge given from both ends with the same cost is fine.
    both = GraphProblem({"a": {"b": 3}, "b": {"a": 3}}, "a", "b", directed=False)
    assert both.number_of_edges() == 2


def test_it_follows_the_protocols() -> None:
    problem = GraphProblem({"a": {"b": 1}}, "a", "b")
    assert isinstance(problem, Problem)
    assert isinstance(problem, HeuristicProblem)
    assert isinstance(problem, ReversibleProblem)
    assert problem.initial_state() == "a" and problem.goal_state() == "b"
    assert problem.is_goal("b") and not problem.is_goal("a")
    assert problem.heuristic("a") == 0.0
    assert repr(problem) == ("GraphProblem(<2 nodes, 1 edges>, start='a', goal='b', directed=True)")


def test_heuristic_as_mapping_or_callable() -> None:
    adjacency = {"a": {"b": 1}}
    assert GraphProblem(adjacency, "a", "b", heuristic={"a": 1, "b": 0}).heuristic("a") == 1.0
    assert GraphProblem(adjacency, "a", "b", heuristic=lambda n: 7.0).heuristic("b") == 7.0


def test_isolated_nodes_and_self_loops() -> None:
    problem = GraphProblem({"a": {"a": 1}, "z": []}, "a", "z")
    assert problem.successors("a") == [("a", 1.0)]
    assert dijkstra(problem).status == "no_path"


def test_from_networkx_digraph_and_graph() -> None:
    digraph = nx.DiGraph([(1, 2, {"weight": 2}), (2, 3, {"weight": 0.5}), (3, 1, {})])
    problem = GraphProblem.from_networkx(digraph, 1, 3)
    assert problem.directed
    assert problem.successors(3) == [(1, 1.0)]  # a missing weight counts 1, as in networkx
    assert dijkstra(problem).cost == nx.dijkstra_path_length(digraph, 1, 3) == 2.5
    graph = nx.Graph(digraph)
    undirected = GraphProblem.from_networkx(graph, 3, 1)
    assert not undirected.directed
    assert dijkstra(undirected).cost == nx.dijkstra_path_length(graph, 3, 1)


def test_from_networkx_custom_weight_and_isolated_nodes() -> None:
    graph = nx.Graph()
    graph.add_edge("a", "b", length=4, weight=1)
    graph.add_node("lonely")
    problem = GraphProblem.from_networkx(graph, "a", "lonely", weight="length")
    assert problem.successors("a") == [("b", 4.0)]
    assert problem.successors("lonely") == []


@pytest.mark.parametrize("graph_type", [nx.MultiGraph, nx.MultiDiGraph])
def test_from_networkx_multigraph_keeps_the_cheapest_parallel_edge(graph_type: Any) -> None:
    graph = graph_type()
    graph.add_edge("a", "b", weight=5)
    graph.add_edge("a", "b", weight=2)
    graph.add_edge("b", "a", weight=3)
    graph.add_edge("b", "c", weight=1)
    problem = GraphProblem.from_networkx(graph, "a", "c")
    assert dijkstra(problem).cost == nx.dijkstra_path_length(graph, "a", "c") == 3.0
    expected_back = 2.0 if graph_type is nx.MultiGraph else 3.0
    assert dict(problem.successors("b"))["a"] == expected_back


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("name, start, goal", [("start", "x", "a"), ("goal", "a", "x")])
def test_unknown_start_or_goal(name: str, start: str, goal: str) -> None:
    with pytest.raises(InvalidStateError, match=f"{name} node 'x' is not a node of the graph"):
        GraphProblem({"a": {"b": 1}}, start, goal)


@pytest.mark.parametrize("cost", [-1, -0.5, math.inf, math.nan, "3", None, True])
def test_bad_edge_costs_are_quoted(cost: Any) -> None:
    with pytest.raises(InvalidParameterError, match=r"edge 'a' -> 'b': cost .* is not a finite"):
        GraphProblem({"a": {"b": cost}}, "a", "b")


def test_negative_cost_from_networkx_is_rejected() -> None:
    graph = nx.DiGraph([("a", "b", {"weight": -2})])
    with pytest.raises(InvalidParameterError, match="edge 'a' -> 'b': cost -2"):
        GraphProblem.from_networkx(graph, "a", "b")


def test_from_networkx_rejects_other_objects() -> None:
    with pytest.raises(InvalidParameterError, match="expected a networkx graph"):
        GraphProblem.from_networkx({"a": {}}, "a", "a")


def test_conflicting_duplicate_edges() -> None:
    with pytest.raises(InvalidParameterError, match="edge 'a' -> 'b' is given twice"):
        GraphProblem({"a": [("b", 1), ("b", 2)]}, "a", "b")
    with pytest.raises(InvalidParameterError, match="edge 'b' -> 'a' is given twice"):
        GraphProblem({"a": {"b": 1}, "b": {"a": 2}}, "a", "b", directed=False)


def test_malformed_adjacency() -> None:
    with pytest.raises(InvalidParameterError, match="adjacency must be a mapping"):
        GraphProblem([("a", "b")], "a", "b")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"adjacency\['a'\] must be a mapping"):
        GraphProblem({"a": 5}, "a", "a")  # type: ignore[dict-item]
    with pytest.raises(InvalidParameterError, match=r"adjacency\['a'\] must be a mapping"):
        GraphProblem({"a": "bc"}, "a", "a")  # type: ignore[dict-item]
    with pytest.raises(InvalidParameterError, match=r"expected a \(neighbour, cost\) pair"):
        GraphProblem({"a": [("b", 1, 2)]}, "a", "b")  # type: ignore[list-item]


def test_bad_heuristics() -> None:
    with pytest.raises(InvalidStateError, match="no value for node 'b'"):
        GraphProblem({"a": {"b": 1}}, "a", "b", heuristic={"a": 1})
    with pytest.raises(InvalidParameterError, match="heuristic must be callable"):
        GraphProblem({"a": {"b": 1}}, "a", "b", heuristic=3)  # type: ignore[arg-type]


def test_unknown_states_in_successors_and_predecessors() -> None:
    problem = GraphProblem({"a": {"b": 1}}, "a", "b")
    with pytest.raises(InvalidStateError, match="'q' is not a node"):
        problem.successors("q")
    with pytest.raises(InvalidStateError, match="'q' is not a node"):
        problem.predecessors("q")
