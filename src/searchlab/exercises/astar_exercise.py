"""Random A* exercises (the course's): a small weighted graph from ``S`` to ``T`` with
heuristic values, and the answer key of the library's A* on it.

The graph: ``S``, ``nodes`` nodes named ``A``, ``B``, ``C``, ... (skipping ``S`` and ``T``) and
``T``; undirected edges with whole costs 1..9: a random spanning tree (so ``T`` is reachable
from ``S``) plus about ``nodes / 2 + 1`` random extra edges, never ``S``-``T`` directly (the
path has at least two steps). Heuristic values are whole numbers with ``h(T) = 0``:

* admissible (the default): each ``h(n)`` drawn from ``0..h*(n)`` (the true distance to
  ``T``, by Dijkstra); the graph is drawn again (a few times at most) until the heuristic is
  *not* consistent on some edge, so that the exercise shows the difference;
* consistent (``consistent=True``): drawn the same way, then lowered until
  ``h(u) <= c(u, v) + h(v)`` on every edge (still admissible).

The key is what :func:`~searchlab.algorithms.path.best_first.astar` did, read from its observer
events (:class:`~searchlab.core.observer.Expand`, ``Generate``, ``Reopen``): step by step the
node expanded with its ``g``, ``h`` and ``f``, each successor and what became of it (new on the
open list, a better path to an open node, a closed node reopened, or no improvement), the open
list (in the engine's order: ``f``, then the goal first, then larger ``g``, then first in) and
the closed list; then the path and its cost.

>>> exercise = generate_astar(nodes=5, consistent=True, seed=4)
>>> exercise.nodes[0], exercise.nodes[-1], len(exercise.nodes)
('S', 'T', 7)
>>> exercise.key.path[0], exercise.key.path[-1], exercise.key.cost == exercise.true_cost["S"]
('S', 'T', True)
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from searchlab.algorithms.path.best_first import astar
from searchlab.core.errors import InvalidParameterError
from searchlab.core.observer import Expand, Generate, Reopen, TraceRecorder
from searchlab.domains.path.graph import GraphProblem

__all__ = [
    "AStarExercise",
    "AStarKey",
    "AStarStep",
    "Entry",
    "astar_key",
    "distances_to",
    "generate_astar",
]

MAX_NODES = 24
"""The most nodes between S and T (one letter each)."""
_LETTERS = [c for c in "ABCDEFGHIJKLMNOPQRUVWXYZ"]
_TRIES = 200


@dataclass(frozen=True, slots=True)
class Entry:
    """A node on the open or closed list: ``g``, ``h``, ``f = g + h`` and its parent."""

    node: str
    g: float
    h: float
    f: float
    parent: str | None


@dataclass(frozen=True, slots=True)
class AStarStep:
    """One expansion: the node taken from the open list, each successor with what happened to
    it (``"new"``, ``"better"``, ``"reopened"``, ``"no improvement"``), and the open and closed
    lists after it (open in the engine's pop order)."""

    number: int
    expanded: Entry
    successors: tuple[tuple[Entry, str], ...]
    open: tuple[Entry, ...]
    closed: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class AStarKey:
    """The answer: the open list at the start, the steps, the reopenings ``(node, old g, new
    g)``, the path, its cost, and the counts the library reports."""

    start_open: tuple[Entry, ...]
    steps: tuple[AStarStep, ...]
    reopenings: tuple[tuple[str, float, float], ...]
    path: tuple[str, ...]
    cost: float
    expanded: int
    generated: int
    reopened: int


@dataclass(frozen=True, slots=True)
class AStarExercise:
    """The graph (``edges`` as ``(u, v, cost)``, each once), the heuristic, its kind, the true
    distances to ``T``, the seed, and the key."""

    nodes: tuple[str, ...]
    edges: tuple[tuple[str, str, int], ...]
    heuristic: dict[str, int]
    consistent: bool
    true_cost: dict[str, float]
    seed: int
    key: AStarKey

    @property
    def is_consistent(self) -> bool:
        """Whether ``h(u) <= c(u, v) + h(v)`` on every edge, both ways."""
        h = self.heuristic
        return all(h[u] <= c + h[v] and h[v] <= c + h[u] for u, v, c in self.edges)

    def problem(self) -> GraphProblem:
        """The exercise as a :class:`~searchlab.domains.path.graph.GraphProblem`."""
        return _problem(self.nodes, self.edges, self.heuristic)

    def to_dict(self) -> dict[str, Any]:
        """The JSON export: graph, heuristic and key."""

        def entry(e: Entry) -> dict[str, Any]:
            return {"node": e.node, "g": _n(e.g), "h": _n(e.h), "f": _n(e.f), "parent": e.parent}

        key = self.key
        return {
            "kind": "astar",
            "seed": self.seed,
            "start": "S",
            "goal": "T",
            "nodes": list(self.nodes),
            "edges": [[u, v, c] for u, v, c in self.edges],
            "heuristic": dict(self.heuristic),
            "heuristic_kind": "consistent" if self.consistent else "admissible",
            "is_consistent": self.is_consistent,
            "true_cost": {n: _n(c) for n, c in self.true_cost.items()},
            "key": {
                "start_open": [entry(e) for e in key.start_open],
                "steps": [
                    {
                        "step": s.number,
                        "expanded": entry(s.expanded),
                        "successors": [{**entry(e), "action": a} for e, a in s.successors],
                        "open": [entry(e) for e in s.open],
                        "closed": [entry(e) for e in s.closed],
                    }
                    for s in key.steps
                ],
                "reopenings": [
                    {"node": n, "old_g": _n(old), "new_g": _n(new)}
                    for n, old, new in key.reopenings
                ],
                "path": list(key.path),
                "cost": _n(key.cost),
                "expanded": key.expanded,
                "generated": key.generated,
                "reopened": key.reopened,
            },
        }


def _n(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _problem(
    nodes: tuple[str, ...], edges: tuple[tuple[str, str, int], ...], h: dict[str, int]
) -> GraphProblem:
    adjacency: dict[Hashable, dict[Hashable, float]] = {node: {} for node in nodes}
    for u, v, cost in edges:
        adjacency[u][v] = float(cost)
    return GraphProblem(
        adjacency, "S", "T", heuristic={n: float(h[n]) for n in nodes}, directed=False
    )


def distances_to(goal: str, edges: tuple[tuple[str, str, int], ...]) -> dict[str, float]:
    """Dijkstra from ``goal`` on the undirected ``edges``: the true cost ``h*`` of every
    node it reaches.

    >>> distances_to("T", (("S", "A", 2), ("A", "T", 3), ("S", "T", 9)))
    {'T': 0.0, 'A': 3.0, 'S': 5.0}
    """
    neighbours: dict[str, list[tuple[str, int]]] = {}
    for u, v, cost in edges:
        neighbours.setdefault(u, []).append((v, cost))
        neighbours.setdefault(v, []).append((u, cost))
    best: dict[str, float] = {}
    heap = [(0.0, goal)]
    while heap:
        d, node = heapq.heappop(heap)
        if node in best:
            continue
        best[node] = d
        for other, cost in neighbours.get(node, []):
            if other not in best:
                heapq.heappush(heap, (d + cost, other))
    return best


def _draw_graph(
    count: int, rng: random.Random
) -> tuple[tuple[str, ...], tuple[tuple[str, str, int], ...]]:
    middle = _LETTERS[:count]
    nodes = ("S", *middle, "T")
    order = ["S", *rng.sample(middle, len(middle)), "T"]
    edges: dict[frozenset[str], int] = {}
    for i in range(1, len(order)):
        candidates = [n for n in order[:i] if {n, order[i]} != {"S", "T"}]
        edges[frozenset((rng.choice(candidates), order[i]))] = rng.randint(1, 9)
    extra = count // 2 + 1
    pairs = [
        (u, v)
        for i, u in enumerate(nodes)
        for v in nodes[i + 1 :]
        if frozenset((u, v)) not in edges and {u, v} != {"S", "T"}
    ]
    for u, v in rng.sample(pairs, min(extra, len(pairs))):
        edges[frozenset((u, v))] = rng.randint(1, 9)
    listed = []
    for pair, cost in edges.items():
        u, v = sorted(pair, key=nodes.index)
        listed.append((u, v, cost))
    listed.sort(key=lambda e: (nodes.index(e[0]), nodes.index(e[1])))
    return nodes, tuple(listed)


def _make_consistent(h: dict[str, int], edges: tuple[tuple[str, str, int], ...]) -> None:
    """Lower ``h`` until ``h(u) <= c + h(v)`` on every edge (a fixpoint; values only fall)."""
    changed = True
    while changed:
        changed = False
        for u, v, cost in edges:
            for a, b in ((u, v), (v, u)):
                if h[a] > cost + h[b]:
                    h[a] = cost + h[b]
                    changed = True


def generate_astar(*, nodes: int = 6, consistent: bool = False, seed: int = 0) -> AStarExercise:
    """Draw an A* exercise (see the module docs): same arguments, same exercise.

    Raises:
        InvalidParameterError: ``nodes`` is not a whole number in 1..24.
    """
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES:
        raise InvalidParameterError(
            f"nodes must be a whole number in 1..{MAX_NODES}, got {nodes!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidParameterError(f"seed must be a whole number, got {seed!r}")
    rng = random.Random(f"astar-exercise:{nodes}:{int(consistent)}:{seed}")
    for attempt in range(_TRIES):
        names, edges = _draw_graph(nodes, rng)
        true_cost = distances_to("T", edges)
        h = {n: rng.randint(0, int(true_cost[n])) for n in names}
        h["T"] = 0
        if consistent:
            _make_consistent(h, edges)
        exercise_h = dict(h)
        inconsistent = any(h[u] > c + h[v] or h[v] > c + h[u] for u, v, c in edges)
        if consistent or inconsistent or attempt == _TRIES - 1:
            key = astar_key(_problem(names, edges, exercise_h))
            return AStarExercise(names, edges, exercise_h, consistent, true_cost, seed, key)
    raise AssertionError("unreachable")  # pragma: no cover


def _order(entry: Entry, goal: str, counter: int) -> tuple[float, int, float, int]:
    """The engine's open-list key: f, the goal first, larger g first, first in first."""
    return (entry.f, 0 if entry.node == goal else 1, -entry.g, counter)


def astar_key(problem: GraphProblem) -> AStarKey:
    """Run the library's A* on ``problem`` and read the open and closed lists, step by step,
    from its events (the engine's rules: a successor is kept only when it improves the best
    known ``g``; a closed node reached more cheaply is reopened)."""
    recorder = TraceRecorder()
    result = astar(problem, observer=recorder, tier="reference")
    goal = str(problem.goal_state())
    start = str(problem.initial_state())
    h0 = problem.heuristic(start)
    open_: dict[str, tuple[Entry, int]] = {start: (Entry(start, 0.0, h0, h0, None), 0)}
    closed: dict[str, Entry] = {}
    best: dict[str, float] = {start: 0.0}
    counter = 0
    steps: list[AStarStep] = []
    reopenings: list[tuple[str, float, float]] = []
    start_open = (open_[start][0],)
    current: Entry | None = None
    successors: list[tuple[Entry, str]] = []

    def finish_step() -> None:
        if current is None:
            return
        ordered = sorted(open_.values(), key=lambda item: _order(item[0], goal, item[1]))
        steps.append(
            AStarStep(
                len(steps) + 1,
                current,
                tuple(successors),
                tuple(entry for entry, _ in ordered),
                tuple(closed.values()),
            )
        )

    for event in recorder.events:
        if isinstance(event, Expand):
            finish_step()
            node = str(event.state)
            entry, _ = open_.pop(node)
            closed[node] = entry
            current, successors = entry, []
        elif isinstance(event, Generate):
            node, parent = str(event.state), str(event.parent)
            entry = Entry(node, event.g, event.h, event.g + event.h, parent)
            known = best.get(node)
            if known is not None and known <= event.g:
                successors.append((entry, "no improvement"))
                continue
            action = "new" if known is None else "reopened" if node in closed else "better"
            best[node] = event.g
            closed.pop(node, None)
            counter += 1
            open_[node] = (entry, counter)
            successors.append((entry, action))
        elif isinstance(event, Reopen):
            reopenings.append((str(event.state), event.old_g, event.new_g))
    finish_step()
    if result.path is None or result.cost is None:  # pragma: no cover - S..T always connected
        raise InvalidParameterError("the exercise graph has no path from S to T")
    return AStarKey(
        start_open=start_open,
        steps=tuple(steps),
        reopenings=tuple(reopenings),
        path=tuple(str(n) for n in result.path),
        cost=result.cost,
        expanded=result.expanded,
        generated=result.generated,
        reopened=result.reopened,
    )
