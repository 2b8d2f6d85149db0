"""The A* exercise: its key against an independent textbook A* written here (same tie rule as
the library's documented semantics: f, then the goal, then larger g, then first in; reopening
closed nodes), the heuristics checked against true distances (a Dijkstra written here) and
for consistency, the graphs' shape, seeds, exports and bad input."""

from __future__ import annotations

import heapq
import itertools
import json
import math

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.exercises.astar_exercise import AStarExercise, generate_astar
from searchlab.exercises.astar_render import astar_markdown

CASES = [
    (seed, nodes, consistent)
    for seed in range(150)
    for nodes in (3, 6, 9)
    for consistent in (False, True)
]


def neighbours(exercise: AStarExercise) -> dict[str, list[tuple[str, int]]]:
    """Adjacency in the order the library's GraphProblem lists successors (edge order)."""
    table: dict[str, list[tuple[str, int]]] = {n: [] for n in exercise.nodes}
    for u, v, cost in exercise.edges:
        table[u].append((v, cost))
        table[v].append((u, cost))
    return table


def dijkstra(exercise: AStarExercise, source: str) -> dict[str, float]:
    table = neighbours(exercise)
    dist = {n: math.inf for n in exercise.nodes}
    dist[source] = 0.0
    done: set[str] = set()
    while len(done) < len(exercise.nodes):
        node = min((n for n in exercise.nodes if n not in done), key=lambda n: dist[n])
        done.add(node)
        for other, cost in table[node]:
            dist[other] = min(dist[other], dist[node] + cost)
    return dist


def textbook_astar(exercise: AStarExercise) -> dict:
    """A* with an open list (heap with lazy deletion) and a closed set, reopening closed nodes
    reached more cheaply; records every expansion with the open list after it."""
    h = exercise.heuristic
    table = neighbours(exercise)
    counter = itertools.count()
    g = {"S": 0}
    parent: dict[str, str | None] = {"S": None}
    entered = {"S": next(counter)}
    heap = [(h["S"], 1, 0, entered["S"], "S")]
    closed: set[str] = set()
    steps, reopenings = [], []
    while heap:
        _, _, neg_g, _, node = heapq.heappop(heap)
        if node in closed or -neg_g > g[node]:
            continue
        if node == "T":
            break
        closed.add(node)
        for other, cost in table[node]:
            new_g = g[node] + cost
            if other in g and g[other] <= new_g:
                continue
            if other in closed:
                closed.discard(other)
                reopenings.append((other, g[other], new_g))
            g[other], parent[other] = new_g, node
            entered[other] = next(counter)
            heapq.heappush(
                heap, (new_g + h[other], 0 if other == "T" else 1, -new_g, entered[other], other)
            )
        open_nodes = {n for *_, n in heap if n not in closed and n in g}
        live = sorted((g[n] + h[n], 0 if n == "T" else 1, -g[n], entered[n], n) for n in open_nodes)
        steps.append((node, g[node], [(n, -ng, h[n]) for _, _, ng, _, n in live], sorted(closed)))
    path = ["T"]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])  # type: ignore[arg-type]
    return {"steps": steps, "reopenings": reopenings, "path": path[::-1], "cost": g["T"]}


@pytest.mark.parametrize(("seed", "nodes", "consistent"), CASES[::3])
def test_key_matches_a_textbook_astar(seed: int, nodes: int, consistent: bool) -> None:
    exercise = generate_astar(nodes=nodes, consistent=consistent, seed=seed)
    book = textbook_astar(exercise)
    key = exercise.key
    assert list(key.path) == book["path"]
    assert key.cost == book["cost"] == dijkstra(exercise, "S")["T"]
    assert [(n, old, new) for n, old, new in key.reopenings] == book["reopenings"]
    assert key.reopened == len(book["reopenings"])
    assert key.expanded == len(key.steps) == len(book["steps"])
    for step, (node, g, open_list, closed) in zip(key.steps, book["steps"], strict=True):
        assert (step.expanded.node, step.expanded.g) == (node, g)
        assert step.expanded.f == step.expanded.g + step.expanded.h
        assert [(e.node, e.g, e.h) for e in step.open] == open_list
        assert sorted(e.node for e in step.closed) == closed
        assert all(e.f == e.g + e.h for e in step.open)


def test_many_seeds_agree_with_the_textbook() -> None:
    for seed, nodes, consistent in CASES:
        exercise = generate_astar(nodes=nodes, consistent=consistent, seed=seed)
        book = textbook_astar(exercise)
        assert list(exercise.key.path) == book["path"]
        assert [s.expanded.node for s in exercise.key.steps] == [s[0] for s in book["steps"]]


def test_heuristics_are_admissible_and_consistent_when_asked() -> None:
    inconsistent = reopened = 0
    for seed, nodes, consistent in CASES:
        exercise = generate_astar(nodes=nodes, consistent=consistent, seed=seed)
        h = exercise.heuristic
        true = dijkstra(exercise, "T")
        assert h["T"] == 0
        assert all(isinstance(h[n], int) and 0 <= h[n] <= true[n] for n in exercise.nodes)
        assert exercise.true_cost == {n: true[n] for n in exercise.true_cost}
        edge_ok = all(h[u] <= c + h[v] and h[v] <= c + h[u] for u, v, c in exercise.edges)
        assert edge_ok == exercise.is_consistent
        if consistent:
            assert edge_ok
            assert exercise.key.reopened == 0  # consistent: never reopens
        else:
            inconsistent += not edge_ok
            reopened += exercise.key.reopened > 0
    admissible_cases = len(CASES) // 2
    assert inconsistent > 0.9 * admissible_cases  # the default shows the difference
    assert reopened > 0


def test_graph_shape() -> None:
    for seed, nodes, _ in CASES[::2]:
        exercise = generate_astar(nodes=nodes, seed=seed)
        assert exercise.nodes[0] == "S" and exercise.nodes[-1] == "T"
        assert len(exercise.nodes) == nodes + 2 and len(set(exercise.nodes)) == nodes + 2
        pairs = [frozenset((u, v)) for u, v, _ in exercise.edges]
        assert len(set(pairs)) == len(pairs)
        assert frozenset(("S", "T")) not in pairs
        assert all(1 <= c <= 9 and u != v for u, v, c in exercise.edges)
        dist = dijkstra(exercise, "S")
        assert all(d < math.inf for d in dist.values())  # connected
        assert len(exercise.key.path) >= 3


def test_same_seed_same_exercise() -> None:
    assert generate_astar(seed=7).to_dict() == generate_astar(seed=7).to_dict()
    graphs = {json.dumps(generate_astar(seed=s).to_dict()["edges"]) for s in range(10)}
    assert len(graphs) == 10


def test_json_and_markdown() -> None:
    exercise = generate_astar(nodes=6, seed=5)
    data = json.loads(json.dumps(exercise.to_dict()))
    assert data["kind"] == "astar" and data["start"] == "S" and data["goal"] == "T"
    assert data["heuristic_kind"] == "admissible"
    assert data["key"]["path"] == list(exercise.key.path)
    assert data["key"]["steps"][0]["expanded"]["node"] == "S"
    actions = {s["action"] for step in data["key"]["steps"] for s in step["successors"]}
    assert actions <= {"new", "better", "reopened", "no improvement"}
    text = astar_markdown(exercise)
    assert "## Answer key" in text and f"cost **{int(exercise.key.cost)}**" in text
    for step in exercise.key.steps:
        assert f"| {step.number} | {step.expanded.node}(" in text
    assert "Answer key" not in astar_markdown(exercise, answers=False)


@pytest.mark.parametrize("nodes", [0, -1, 25, 2.5, True])
def test_bad_node_counts(nodes: object) -> None:
    with pytest.raises(InvalidParameterError, match=r"nodes must be a whole number in 1\.\.24"):
        generate_astar(nodes=nodes)  # type: ignore[arg-type]
