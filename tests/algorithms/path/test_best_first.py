"""The best-first engine on hand-built examples: reopening, tie-breaking, limits, dispatch, errors.

Expected values are worked out by hand in the comments (the textbook rules), not printed by
the code under test.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from line_problem import Line

from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.best_first import (
    astar,
    best_first_search,
    breadth_first_search,
    dijkstra,
    greedy_best_first_search,
    uniform_cost_search,
    weighted_astar,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Reopen, TraceRecorder
from searchlab.core.results import PathResult
from searchlab.core.tier import KernelRegistry
from searchlab.domains.path.graph import GraphProblem

# The classic case for reopening: h is admissible (h(a) = 4 is a's true cost) but inconsistent
# (h(a) = 4 > c(a, c) + h(c) = 1). A* closes c through the expensive edge s -> c (f = 3) before
# a (f = 5); expanding a then finds c cheaper (g 2 < 3).
REOPEN_GRAPH = {"s": {"a": 1, "c": 3}, "a": {"c": 1}, "c": {"t": 3}}
REOPEN_H = {"s": 0, "a": 4, "c": 0, "t": 0}


def reopen_problem() -> GraphProblem:
    return GraphProblem(REOPEN_GRAPH, "s", "t", heuristic=REOPEN_H)


def test_inconsistent_heuristic_needs_reopening_for_optimality() -> None:
    recorder = TraceRecorder()
    result = astar(reopen_problem(), observer=recorder)
    assert result.path == ["s", "a", "c", "t"] and result.cost == 5.0
    assert result.reopened == 1
    assert [e for e in recorder.events if e.kind == "reopen"] == [Reopen("c", 3.0, 2.0)]
    # s, c (g 3), a, c again (g 2): the reopened node is expanded twice.
    assert recorder.states("expand") == ["s", "c", "a", "c"]
    assert result.expanded == 4


def test_without_reopening_the_inconsistent_heuristic_returns_a_worse_path() -> None:
    result = astar(reopen_problem(), reopen=False)
    assert result.path == ["s", "c", "t"] and result.cost == 6.0  # optimal is 5
    assert result.reopened == 0 and result.expanded == 3


def test_ties_on_f_go_to_the_goal_first() -> None:
    # Dijkstra from s: a and the goal t both get f = 1; a was pushed first, but the goal wins
    # the tie, so the search ends after expanding s alone (FIFO would expand a too).
    problem = GraphProblem({"s": {"a": 1, "t": 1}, "a": {"b": 1}}, "s", "t")
    recorder = TraceRecorder()
    result = dijkstra(problem, observer=recorder)
    assert result.path == ["s", "t"]
    assert recorder.states("expand") == ["s"] and result.expanded == 1


def test_ties_on_f_then_go_to_the_larger_g() -> None:
    # x (g 0, h 2) and y (g 1, h 1) tie on f = 2; x was pushed first. Larger g first expands
    # y, which reaches the goal t at f = 2: expansions s, y. FIFO would expand x as well.
    h = {"s": 2, "x": 2, "y": 1, "t": 0}
    problem = GraphProblem(
        {"s": {"x": 0, "y": 1}, "x": {"t": 2}, "y": {"t": 1}}, "s", "t", heuristic=h
    )
    recorder = TraceRecorder()
    result = astar(problem, observer=recorder)
    assert recorder.states("expand") == ["s", "y"] and result.expanded == 2
    assert result.path == ["s", "y", "t"] and result.cost == 2.0


def test_remaining_ties_are_first_in_first_out() -> None:
    # a, b, c all have f = 1 and g = 1: expanded in the order they were generated.
    problem = GraphProblem({"s": {"a": 1, "b": 1, "c": 1}, "c": {"t": 0}}, "s", "t")
    recorder = TraceRecorder()
    dijkstra(problem, observer=recorder)
    assert recorder.states("expand") == ["s", "a", "b", "c"]


def test_goal_is_tested_when_popped_not_when_generated() -> None:
    # The goal is generated first through the expensive edge (g 10); testing it there would
    # return cost 10. Popping order finds the cheap route through a.
    problem = GraphProblem({"s": {"t": 10, "a": 1}, "a": {"t": 1}}, "s", "t")
    result = dijkstra(problem)
    assert result.path == ["s", "a", "t"] and result.cost == 2.0
    assert result.expanded == 2  # s and a; the popped goal is not counted


def test_start_that_is_a_goal_is_solved_without_expanding() -> None:
    result = astar(GraphProblem({"s": {"a": 1}}, "s", "s"))
    assert (result.status, result.path, result.cost, result.expanded) == ("solved", ["s"], 0.0, 0)
    assert result.max_open == 1


def test_counters_on_a_small_graph() -> None:
    # s -> a, b; a -> b (cheaper), t; b -> t. Dijkstra: expand s (2 generated), a (2), b (1).
    problem = GraphProblem({"s": {"a": 1, "b": 4}, "a": {"b": 1, "t": 5}, "b": {"t": 1}}, "s", "t")
    result = dijkstra(problem)
    assert (result.expanded, result.generated, result.reopened) == (3, 5, 0)
    # After expanding s, a and b are open; after a, b and t: at most 2 distinct open states.
    assert result.max_open == 2
    assert result.path == ["s", "a", "b", "t"] and result.cost == 3.0
    assert result.tier == "reference" and result.algorithm == "dijkstra"
    assert result.elapsed >= 0.0


def test_max_open_counts_distinct_states_not_heap_entries() -> None:
    # After s: a, b open. Expanding a pushes b again (g 6 < 10) and c: the heap holds three
    # entries (b twice, c) but only two distinct states are open.
    problem = GraphProblem({"s": {"a": 1, "b": 10}, "a": {"b": 5, "c": 1}, "z": {}}, "s", "z")
    result = dijkstra(problem)
    assert result.status == "no_path" and result.max_open == 2
    assert result.expanded == 4  # s, a, c, b; the stale entry b (g 10) is skipped uncounted


def test_observer_events_carry_g_and_h() -> None:
    problem = GraphProblem({"s": {"t": 2}}, "s", "t", heuristic={"s": 1.5, "t": 0})
    recorder = TraceRecorder()
    astar(problem, observer=recorder)
    assert recorder.events == [Expand("s", 0.0, 1.5), Generate("t", "s", 2.0, 0.0)]


def test_dijkstra_never_evaluates_the_heuristic() -> None:
    calls: list[Any] = []

    class Counting(GraphProblem):
        def heuristic(self, state: Any) -> float:
            calls.append(state)
            return 0.0

    problem = Counting({"s": {"t": 2}}, "s", "t")
    recorder = TraceRecorder()
    dijkstra(problem, observer=recorder)
    breadth_first_search(problem)
    assert calls == []
    assert recorder.events[0] == Expand("s", 0.0, 0.0)
    astar(problem)
    assert calls == ["s", "t"]  # A* evaluates it once per state


def test_breadth_first_orders_by_steps_and_reports_the_real_cost() -> None:
    problem = GraphProblem(
        {"s": {"a": 1, "b": 1}, "a": {"t": 100}, "b": {"c": 1}, "c": {"t": 1}}, "s", "t"
    )
    result = breadth_first_search(problem)
    assert result.path == ["s", "a", "t"] and result.cost == 101.0
    assert dijkstra(problem).cost == 3.0


def test_greedy_follows_h_and_can_be_suboptimal() -> None:
    h = {"s": 3, "a": 1, "b": 2, "t": 0}
    problem = GraphProblem(
        {"s": {"a": 1, "b": 2}, "a": {"t": 9}, "b": {"t": 1}}, "s", "t", heuristic=h
    )
    assert greedy_best_first_search(problem).cost == 10.0
    assert astar(problem).cost == 3.0


def test_weighted_astar_with_weight_one_is_astar() -> None:
    a, w = astar(reopen_problem()), weighted_astar(reopen_problem(), 1.0)
    assert (a.path, a.expanded, a.reopened) == (w.path, w.expanded, w.reopened)


def test_uniform_cost_search_is_dijkstra() -> None:
    assert uniform_cost_search is dijkstra


def test_explicit_heuristic_overrides_the_problems_own() -> None:
    # With the problem's inconsistent h A* reopens; with h = 0 it cannot.
    assert astar(reopen_problem()).reopened == 1
    assert astar(reopen_problem(), lambda state: 0.0).reopened == 0


def test_problem_without_heuristic_method_uses_zero() -> None:
    result = astar(Line(((1, 1.0), (2, 3.0)), goal=3))
    assert result.path == [0, 1, 2, 3] and result.cost == 3.0


def test_time_limit_stops_an_endless_search() -> None:
    result = dijkstra(Line(((1, 1.0),)), limits=Limits(time=0.05))
    assert result.status == "limit" and result.path is None
    assert result.expanded > 0 and result.expanded % 1024 == 0  # the clock is read every 1024


def test_expansion_limit_does_not_hide_a_goal_on_top() -> None:
    # After 1 expansion the goal is on top of the open list: popping it is not an expansion.
    result = dijkstra(GraphProblem({"s": {"t": 1}}, "s", "t"), limits=Limits(expansions=1))
    assert result.status == "solved" and result.expanded == 1


def test_zero_cost_cycles_terminate() -> None:
    problem = GraphProblem({"a": {"b": 0}, "b": {"a": 0, "c": 0}}, "a", "c", directed=False)
    result = astar(problem)
    assert result.path == ["a", "b", "c"] and result.cost == 0.0


# --- tier dispatch -----------------------------------------------------------------------


def _registry_with(monkeypatch: Any, kernel: Any) -> None:
    """Make ``kernel`` the compiled best-first kernel of GraphProblem (in a fresh registry)."""
    registry = KernelRegistry()
    registry.register("best_first", GraphProblem, kernel)
    monkeypatch.setattr(best_first, "KERNELS", registry)


def test_auto_tier_returns_the_compiled_result_when_there_is_one(monkeypatch: Any) -> None:
    seen: dict[str, Any] = {}

    def fake(problem: Any, **request: Any) -> PathResult:
        seen.update(request)
        options = request["options"]
        return PathResult(
            status="solved", path=["s"], cost=0.0, tier="compiled", algorithm=options.algorithm
        )

    _registry_with(monkeypatch, fake)
    problem = GraphProblem({"s": {"t": 1}}, "s", "t")
    result = weighted_astar(problem, 2.0)
    assert result.tier == "compiled" and result.algorithm == "weighted_astar"
    options = seen["options"]
    assert (options.g_weight, options.h_weight, options.unit_cost, options.reopen) == (
        1.0,
        2.0,
        False,
        True,
    )
    assert options.heuristic is None and options.algorithm == "weighted_astar"
    assert seen["limits"] is None and seen["observer"] is None
    assert astar(problem, tier="reference").tier == "reference"
    assert breadth_first_search(problem, tier="compiled").tier == "compiled"
    assert seen["options"].unit_cost is True and seen["options"].h_weight == 0.0
    assert seen["options"].algorithm == "breadth_first"


def test_the_kernel_gets_the_options_object_the_boundary_built(monkeypatch: Any) -> None:
    # one options object, built once and passed down unchanged: the kernel gets the very
    # object that the reference loop would read
    built: list[Any] = []
    original = best_first.BestFirstOptions.checked

    def spy(*args: Any, **kwargs: Any) -> Any:
        built.append(original(*args, **kwargs))
        return built[-1]

    received: list[Any] = []
    monkeypatch.setattr(best_first.BestFirstOptions, "checked", spy)
    _registry_with(monkeypatch, lambda problem, **request: received.append(request["options"]))
    result = astar(GraphProblem({"s": {"t": 1}}, "s", "t"))
    assert result.tier == "reference" and result.path == ["s", "t"]  # the kernel said None
    assert len(built) == 1 and received == built and received[0] is built[0]


def test_dijkstra_passes_no_heuristic_to_the_compiled_tier(monkeypatch: Any) -> None:
    seen: dict[str, Any] = {}
    _registry_with(monkeypatch, lambda p, **request: seen.update(request))
    best_first_search(GraphProblem({"s": {"t": 1}}, "s", "t"), heuristic=abs, h_weight=0.0)
    assert seen["options"].heuristic is None


def test_a_kernel_returning_none_falls_back_or_explains(monkeypatch: Any) -> None:
    _registry_with(monkeypatch, lambda problem, **request: None)
    problem = GraphProblem({"s": {"t": 1}}, "s", "t")
    assert astar(problem).tier == "reference"
    with pytest.raises(InvalidParameterError) as caught:
        astar(problem, tier="compiled")
    assert str(caught.value) == (
        "astar: the compiled grid kernel searches with the grid's own heuristic; "
        'use tier="auto" or tier="reference"'
    )


def test_missing_modules_are_not_swallowed(monkeypatch: Any) -> None:
    def missing(problem: Any, **options: Any) -> None:
        raise ModuleNotFoundError("no module", name="numba")

    _registry_with(monkeypatch, missing)
    with pytest.raises(ModuleNotFoundError):
        astar(GraphProblem({"s": {"t": 1}}, "s", "t"))


def test_compiled_tier_for_a_problem_without_one_is_an_error() -> None:
    with pytest.raises(InvalidParameterError, match="no compiled tier for GraphProblem"):
        astar(GraphProblem({"s": {"t": 1}}, "s", "t"), tier="compiled")


# --- errors ------------------------------------------------------------------------------


class NegativeEdge:
    """A user problem whose edge 'a' -> 'b' costs -2 (GraphProblem would refuse it)."""

    def __init__(self, cost: float = -2.0) -> None:
        self.cost = cost

    def initial_state(self) -> str:
        return "a"

    def is_goal(self, state: str) -> bool:
        return state == "b"

    def successors(self, state: str) -> list[tuple[str, float]]:
        return [("b", self.cost)] if state == "a" else []


@pytest.mark.parametrize(
    "search", [astar, dijkstra, breadth_first_search, greedy_best_first_search]
)
def test_negative_step_cost_is_reported_with_its_edge(search: Any) -> None:
    with pytest.raises(InvalidParameterError, match=r"step cost -2\.0 on edge 'a' -> 'b'"):
        search(NegativeEdge())


def test_nan_step_cost_is_rejected() -> None:
    with pytest.raises(InvalidParameterError, match="step cost nan"):
        astar(NegativeEdge(math.nan))


@pytest.mark.parametrize("value", [-1.0, math.nan])
def test_negative_or_nan_heuristic_is_rejected(value: float) -> None:
    problem = GraphProblem({"s": {"t": 1}}, "s", "t")
    with pytest.raises(InvalidParameterError, match=r"heuristic returned .* for state 's'"):
        astar(problem, lambda state: value)


def test_infinite_heuristic_is_allowed() -> None:
    # h = inf marks a dead end; A* pushes it last and still finds the path around it.
    problem = GraphProblem({"s": {"dead": 0, "t": 5}}, "s", "t")
    result = astar(problem, lambda state: math.inf if state == "dead" else 0.0)
    assert result.path == ["s", "t"]


def test_not_a_problem_is_rejected() -> None:
    with pytest.raises(InvalidParameterError, match=r"object is not a Problem .*successors"):
        astar(object())


@pytest.mark.parametrize("weight", [0.5, 0, -1, math.nan, "2", True])
def test_weighted_astar_rejects_weights_below_one(weight: Any) -> None:
    expected = f"weighted_astar: weight must be a finite number >= 1, got {weight!r}"
    with pytest.raises(InvalidParameterError, match=re.escape(expected)):
        weighted_astar(GraphProblem({"s": {"t": 1}}, "s", "t"), weight)


@pytest.mark.parametrize("weight", [math.inf, -math.inf])
def test_weighted_astar_rejects_infinite_weight(weight: float) -> None:
    expected = f"weighted_astar: weight must be a finite number >= 1, got {weight!r}"
    with pytest.raises(InvalidParameterError, match=re.escape(expected)):
        weighted_astar(GraphProblem({"s": {"t": 1}}, "s", "t"), weight)


@pytest.mark.parametrize("name", ["g_weight", "h_weight"])
@pytest.mark.parametrize("value", [-0.5, math.nan, math.inf, -math.inf, "1", None, False])
def test_engine_rejects_bad_weights(name: str, value: Any) -> None:
    expected = f"best_first: {name} must be a finite number >= 0, got {value!r}"
    with pytest.raises(InvalidParameterError, match=re.escape(expected)):
        best_first_search(GraphProblem({"s": {"t": 1}}, "s", "t"), **{name: value})


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_named_algorithms_quote_their_own_name_for_a_bad_weight(value: float) -> None:
    # the weights are checked once, at the public boundary, under the caller's name
    with pytest.raises(InvalidParameterError, match=re.escape(f"got {value!r}")) as caught:
        best_first_search(GraphProblem({"s": {"t": 1}}, "s", "t"), g_weight=value,
                          algorithm="my_search")  # fmt: skip
    assert str(caught.value).startswith("my_search: g_weight must be a finite number")


def test_bad_limits_tier_and_heuristic_are_rejected() -> None:
    problem = GraphProblem({"s": {"t": 1}}, "s", "t")
    with pytest.raises(InvalidParameterError, match="limits must be a searchlab Limits"):
        astar(problem, limits={"expansions": 3})  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"tier must be one of .* got 'fast'"):
        astar(problem, tier="fast")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="heuristic must be callable"):
        astar(problem, {"s": 1})  # type: ignore[arg-type]


def test_reopened_states_count_as_open_again() -> None:
    # As the reopening example, with a leaf d off a. Expanding a opens d and reopens c while
    # t is open: three distinct open states.
    adjacency = {**REOPEN_GRAPH, "a": {"c": 1, "d": 100}}
    problem = GraphProblem(adjacency, "s", "t", heuristic={**REOPEN_H, "d": 0})
    result = astar(problem)
    assert result.reopened == 1 and result.max_open == 3 and result.cost == 5.0


def test_stale_entries_are_skipped_even_when_they_pop_first() -> None:
    # Greedy (f = h): b is generated with g 5, then improved to g 2 via a. Both heap entries
    # tie on f = h(b); larger g pops first, so the stale entry (g 5) comes out first and
    # must be skipped: b is expanded once, with g 2.
    h = {"s": 3, "a": 1, "b": 2, "t": 0}
    adjacency = {"s": {"b": 5, "a": 1}, "a": {"b": 1}, "b": {"t": 1}}
    recorder = TraceRecorder()
    result = greedy_best_first_search(
        GraphProblem(adjacency, "s", "t", heuristic=h), observer=recorder
    )
    expands = [e for e in recorder.events if e.kind == "expand"]
    assert expands == [Expand("s", 0.0, 3.0), Expand("a", 1.0, 1.0), Expand("b", 2.0, 2.0)]
    assert result.path == ["s", "a", "b", "t"] and result.cost == 3.0
