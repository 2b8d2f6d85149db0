"""Property tests of the path-search family on random weighted graphs, against networkx.

networkx is the independent oracle: its Dijkstra gives the optimal costs and (on the reversed
graph) the exact cost-to-goal h*, from which the admissible test heuristics are built. Examples
are derandomised (the same graphs on every run) and small, so the file runs in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchlab.algorithms.path.best_first import (
    astar,
    breadth_first_search,
    dijkstra,
    greedy_best_first_search,
    weighted_astar,
)
from searchlab.algorithms.path.bidirectional import bidirectional_search
from searchlab.algorithms.path.idastar import idastar
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.core.results import PathResult
from searchlab.domains.path.graph import GraphProblem

PROPERTY = settings(
    derandomize=True,
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@dataclass
class Case:
    """A random graph as a GraphProblem and as a networkx graph, with its exact answers."""

    problem: GraphProblem
    graph: nx.Graph
    start: int
    goal: int
    integer_costs: bool
    exact: dict[int, float]  # h*: cost to the goal of every node that can reach it (networkx)

    @property
    def optimal(self) -> float | None:
        if not nx.has_path(self.graph, self.start, self.goal):
            return None
        return nx.dijkstra_path_length(self.graph, self.start, self.goal)

    def same_cost(self, a: float, b: float) -> bool:
        return a == b if self.integer_costs else math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@st.composite
def graphs(draw: Any, max_nodes: int = 10, max_cost: int = 9) -> Case:
    """A random directed or undirected graph with costs >= 0 (zero-cost edges included)."""
    n = draw(st.integers(2, max_nodes))
    directed = draw(st.booleans())
    integer_costs = draw(st.booleans())
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=3 * n))
    if integer_costs:
        cost = st.integers(0, max_cost)
    else:
        cost = st.floats(0, max_cost, allow_nan=False, allow_infinity=False)
    adjacency: dict[int, dict[int, float]] = {node: {} for node in range(n)}
    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(range(n))
    for u, v in chosen:
        c = draw(cost)
        adjacency[u][v] = c
        graph.add_edge(u, v, weight=c)
    start = draw(st.integers(0, n - 1))
    goal = draw(st.integers(0, n - 1))
    reverse = graph.reverse() if directed else graph
    exact = nx.single_source_dijkstra_path_length(reverse, goal)
    problem = GraphProblem(adjacency, start, goal, directed=directed)
    return Case(problem, graph, start, goal, integer_costs, exact)


@st.composite
def graphs_with_admissible_heuristic(draw: Any) -> tuple[Case, dict[int, float], str]:
    """A graph and an admissible heuristic: consistent (a fraction of h*) or not (per node)."""
    case = draw(graphs())
    kind = draw(st.sampled_from(["consistent", "inconsistent"]))
    finite = [value for value in case.exact.values()]
    dead_value = max(finite, default=0.0) + 1.0
    h: dict[int, float] = {}
    if kind == "consistent":
        # alpha * h* is consistent; states that cannot reach the goal get one large constant,
        # which keeps it consistent (their successors cannot reach the goal either).
        alpha = draw(st.sampled_from([0.0, 0.25, 0.5, 0.9, 1.0]))
        for node in range(case.problem.number_of_nodes()):
            h[node] = alpha * case.exact[node] if node in case.exact else dead_value
    else:
        for node in range(case.problem.number_of_nodes()):
            fraction = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
            h[node] = (
                fraction * case.exact[node] if node in case.exact else draw(st.integers(0, 50))
            )
    return case, h, kind


def assert_valid_path(case: Case, result: PathResult) -> None:
    """The path is a chain of successors from start to goal whose step costs sum to cost."""
    assert result.path is not None and result.cost is not None
    assert result.path[0] == case.start and result.path[-1] == case.goal
    total = 0.0
    for here, there in zip(result.path, result.path[1:], strict=False):
        steps = dict(case.problem.successors(here))
        assert there in steps, f"{here!r} -> {there!r} is not an edge"
        total += steps[there]
    assert result.cost == total


def assert_matches_oracle(case: Case, result: PathResult) -> None:
    optimal = case.optimal
    if optimal is None:
        assert result.status == "no_path"
        assert result.path is None and result.cost is None
    else:
        assert result.status == "solved"
        assert_valid_path(case, result)
        assert case.same_cost(result.cost, optimal), (result.cost, optimal)


@PROPERTY
@given(graphs_with_admissible_heuristic())
def test_astar_with_admissible_heuristic_is_optimal(sample: Any) -> None:
    case, h, _ = sample
    assert_matches_oracle(case, astar(case.problem, h.__getitem__))


def traced_astar(sample: Any) -> tuple[Any, Any, TraceRecorder, str]:
    """A* on a drawn graph with its drawn heuristic, recorded: (the drawn case, the result,
    the recorder, the heuristic's kind)."""
    case, h, kind = sample
    recorder = TraceRecorder()
    return case, astar(case.problem, h.__getitem__, observer=recorder), recorder, kind


@PROPERTY
@given(graphs_with_admissible_heuristic())
def test_astar_with_consistent_heuristic_never_reopens(sample: Any) -> None:
    _, result, recorder, kind = traced_astar(sample)
    if kind == "consistent":
        assert result.reopened == 0
        expanded = recorder.states("expand")
        assert len(expanded) == len(set(expanded))  # each node expanded at most once


@PROPERTY
@given(graphs_with_admissible_heuristic())
def test_observer_events_match_counters(sample: Any) -> None:
    case, result, recorder, _ = traced_astar(sample)
    counts = recorder.counts()
    assert counts["expand"] == result.expanded
    assert counts["generate"] == result.generated
    assert counts["reopen"] == result.reopened
    # Generate events are exactly the successors of the expanded states, in order.
    expected = [
        (child, state)
        for state in recorder.states("expand")
        for child, _ in case.problem.successors(state)
    ]
    assert [(e.state, e.parent) for e in recorder.events if e.kind == "generate"] == expected


@PROPERTY
@given(graphs_with_admissible_heuristic(), st.sampled_from([1.0, 1.5, 2.0, 5.0]))
def test_weighted_astar_is_within_weight_of_optimal(sample: Any, weight: float) -> None:
    case, h, _ = sample
    result = weighted_astar(case.problem, weight, h.__getitem__)
    optimal = case.optimal
    if optimal is None:
        assert result.status == "no_path"
    else:
        assert_valid_path(case, result)
        assert result.cost <= weight * optimal + 1e-9 * max(1.0, optimal)


@PROPERTY
@given(graphs_with_admissible_heuristic())
def test_astar_without_reopening_is_optimal_with_a_consistent_heuristic(sample: Any) -> None:
    case, h, kind = sample
    result = astar(case.problem, h.__getitem__, reopen=False)
    if kind == "consistent":
        assert_matches_oracle(case, result)
    elif result.is_solved:  # an inconsistent h without reopening may lose optimality only
        assert_valid_path(case, result)
        assert result.cost >= case.optimal - 1e-9


@PROPERTY
@given(graphs())
def test_dijkstra_is_optimal(case: Case) -> None:
    assert_matches_oracle(case, dijkstra(case.problem))


@PROPERTY
@given(graphs())
def test_bidirectional_cost_equals_dijkstra_cost(case: Case) -> None:
    result = bidirectional_search(case.problem)
    assert_matches_oracle(case, result)
    assert result.expanded == result.stats["expanded_forward"] + result.stats["expanded_backward"]


@PROPERTY
@given(graphs(max_nodes=7, max_cost=4), st.sampled_from([0.0, 0.5, 1.0]))
def test_idastar_is_optimal(case: Case, alpha: float) -> None:
    h = {node: alpha * case.exact.get(node, 0.0) for node in range(case.problem.number_of_nodes())}
    result = idastar(case.problem, h.__getitem__)
    assert_matches_oracle(case, result)
    thresholds = result.stats["thresholds"]
    assert result.stats["iterations"] == len(thresholds)
    assert thresholds == sorted(set(thresholds))  # strictly increasing


@PROPERTY
@given(graphs())
def test_breadth_first_returns_a_fewest_edges_path(case: Case) -> None:
    result = breadth_first_search(case.problem)
    if not nx.has_path(case.graph, case.start, case.goal):
        assert result.status == "no_path"
    else:
        assert_valid_path(case, result)
        assert result.length == nx.shortest_path_length(case.graph, case.start, case.goal)


@PROPERTY
@given(graphs_with_admissible_heuristic())
def test_greedy_finds_a_valid_path_when_one_exists(sample: Any) -> None:
    case, h, _ = sample
    result = greedy_best_first_search(case.problem, h.__getitem__)
    assert result.reopened == 0
    if case.optimal is None:
        assert result.status == "no_path"
    else:
        assert_valid_path(case, result)


@PROPERTY
@given(graphs())
def test_every_algorithm_reports_no_path_exactly_when_networkx_does(case: Case) -> None:
    reachable = nx.has_path(case.graph, case.start, case.goal)
    for search in (astar, dijkstra, breadth_first_search, greedy_best_first_search):
        assert search(case.problem).is_solved == reachable


@PROPERTY
@given(st.integers(1, 18), st.sampled_from([astar, dijkstra, breadth_first_search]))
def test_expansion_limit_stops_with_exactly_k_expansions(k: int, search: Any) -> None:
    # A chain 0 -> 1 -> ... -> 20 needs 20 expansions; a budget of k < 20 stops after k.
    chain = GraphProblem({i: {i + 1: 1.0} for i in range(20)}, start=0, goal=20)
    result = search(chain, limits=Limits(expansions=k))
    assert (result.status, result.expanded, result.path, result.cost) == ("limit", k, None, None)
    assert search(chain, limits=Limits(expansions=20)).status == "solved"


@pytest.mark.parametrize("search", [astar, dijkstra, breadth_first_search, idastar])
def test_every_search_walks_a_chain(search: Any) -> None:
    chain = GraphProblem({i: {i + 1: 1.0} for i in range(20)}, start=0, goal=20)
    result = search(chain, lambda s: 20.0 - s) if search is astar else search(chain)
    assert result.status == "solved" and result.path == list(range(21))
