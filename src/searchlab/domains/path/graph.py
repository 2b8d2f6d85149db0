"""Explicit weighted graphs as search problems.

A :class:`GraphProblem` wraps an adjacency mapping (or a networkx graph) with a start node and a
goal node. It is a :class:`~searchlab.core.problem.Problem`, a
:class:`~searchlab.core.problem.HeuristicProblem` (its heuristic is 0 unless one is given) and
a :class:`~searchlab.core.problem.ReversibleProblem` (it knows every node's predecessors), so
every path search in searchlab runs on it.

>>> problem = GraphProblem({"a": {"b": 2.0}, "b": [("c", 1.0)]}, start="a", goal="c")
>>> list(problem.successors("a")), list(problem.predecessors("c"))
([('b', 2.0)], [('b', 1.0)])
>>> problem.number_of_nodes(), problem.number_of_edges()
(3, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from searchlab.core.errors import InvalidParameterError, InvalidStateError

__all__ = ["GraphProblem"]

Adjacency = Mapping[Hashable, Mapping[Hashable, float] | Iterable[tuple[Hashable, float]]]


class GraphProblem:
    """A path problem on an explicit graph with non-negative edge costs.

    Parameters
    ----------
    adjacency : mapping
        ``{node: {neighbour: cost}}`` or ``{node: [(neighbour, cost), ...]}``. Nodes that appear
        only as neighbours are nodes too. Costs must be finite numbers >= 0. An edge listed
        twice must have the same cost both times (for an undirected graph, ``u -> v`` and
        ``v -> u`` are the same edge).
    start, goal : hashable
        The initial node and the single goal node; both must be nodes of the graph.
    heuristic : callable or mapping, optional
        ``node -> estimate`` or ``{node: estimate}`` (covering every node) of the cost to
        ``goal``. ``None``: 0 everywhere.
    directed : bool
        ``False`` makes every edge usable both ways at the same cost.

    Raises
    ------
    InvalidStateError
        ``start`` or ``goal`` is not a node; a heuristic mapping misses a node.
    InvalidParameterError
        An edge cost is negative, not finite or not a number; an edge is given twice with
        different costs; an adjacency entry is not a mapping or a list of pairs; the
        heuristic is neither callable nor a mapping.

    Examples
    --------
    >>> problem = GraphProblem({1: {2: 1.0}}, start=2, goal=1, directed=False)
    >>> list(problem.successors(2)), problem.is_goal(1)
    ([(1, 1.0)], True)
    >>> GraphProblem({1: {2: -1.0}}, start=1, goal=2)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: edge 1 -> 2: cost -1.0 is not a finite number >= 0
    """

    def __init__(
        self,
        adjacency: Adjacency,
        start: Hashable,
        goal: Hashable,
        *,
        heuristic: Callable[[Any], float] | Mapping[Hashable, float] | None = None,
        directed: bool = True,
    ) -> None:
        if not isinstance(adjacency, Mapping):
            raise InvalidParameterError(
                f"adjacency must be a mapping {{node: {{neighbour: cost}}}}, got {adjacency!r}"
            )
        self.directed = bool(directed)
        self._successors: dict[Hashable, dict[Hashable, float]] = {}
        self._predecessors: dict[Hashable, dict[Hashable, float]] = {}
        for node, neighbours in adjacency.items():
            self._add_node(node)
            for neighbour, cost in _pairs(node, neighbours):
                self._add_edge(node, neighbour, cost)
                if not self.directed:
                    self._add_edge(neighbour, node, cost)
        for name, node in (("start", start), ("goal", goal)):
            if node not in self._successors:
                raise InvalidStateError(f"{name} node {node!r} is not a node of the graph")
        self.start = start
        self.goal = goal
        self._heuristic = _heuristic_function(heuristic, self._successors)

    def _add_node(self, node: Hashable) -> None:
        self._successors.setdefault(node, {})
        self._predecessors.setdefault(node, {})

    def _add_edge(self, tail: Hashable, head: Hashable, cost: Any) -> None:
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not 0 <= cost < math.inf:
            raise InvalidParameterError(
                f"edge {tail!r} -> {head!r}: cost {cost!r} is not a finite number >= 0"
            )
        self._add_node(tail)
        self._add_node(head)
        cost = float(cost)
        known = self._successors[tail].get(head)
        if known is not None and known != cost:
            raise InvalidParameterError(
                f"edge {tail!r} -> {head!r} is given twice, with costs {known!r} and {cost!r}"
            )
        self._successors[tail][head] = cost
        self._predecessors[head][tail] = cost

    @classmethod
    def from_networkx(
        cls,
        graph: Any,
        start: Hashable,
        goal: Hashable,
        *,
        weight: str = "weight",
        heuristic: Callable[[Any], float] | Mapping[Hashable, float] | None = None,
    ) -> GraphProblem:
        """A problem on a networkx ``Graph``, ``DiGraph``, ``MultiGraph`` or ``MultiDiGraph``.

        Edge costs are the ``weight`` attribute (1 when absent, as in networkx); between two
        nodes joined by parallel edges the cheapest counts. Directedness follows the graph.
        networkx is imported only here (it is an optional dependency).

        >>> import networkx as nx
        >>> graph = nx.Graph([("a", "b", {"weight": 2}), ("b", "c", {"weight": 1})])
        >>> problem = GraphProblem.from_networkx(graph, "c", "a")
        >>> list(problem.successors("b"))
        [('a', 2.0), ('c', 1.0)]
        """
        try:
            import networkx as nx
        except ImportError as error:  # pragma: no cover - networkx is in the test extra
            raise InvalidParameterError(
                "GraphProblem.from_networkx needs networkx (pip install networkx)"
            ) from error
        if not isinstance(graph, nx.Graph):
            raise InvalidParameterError(f"expected a networkx graph, got {graph!r}")
        directed = graph.is_directed()
        adjacency: dict[Hashable, dict[Hashable, Any]] = {node: {} for node in graph.nodes}
        for tail, head, data in graph.edges(data=True):
            cost = data.get(weight, 1)
            if isinstance(cost, bool) or not isinstance(cost, int | float) or not cost >= 0:
                adjacency[tail][head] = cost  # the constructor reports it, quoting the edge
                break
            known = adjacency[tail].get(head)
            if not directed and known is None:
                # Parallel undirected edges may come from either end: keep one orientation.
                known = adjacency[head].pop(tail, None)
            adjacency[tail][head] = cost if known is None else min(cost, known)
        return cls(adjacency, start, goal, heuristic=heuristic, directed=directed)

    # --- the Problem protocol ------------------------------------------------------------

    def initial_state(self) -> Hashable:
        """The start node."""
        return self.start

    def is_goal(self, state: Hashable) -> bool:
        """True for the goal node."""
        return state == self.goal

    def successors(self, state: Hashable) -> list[tuple[Hashable, float]]:
        """``(neighbour, cost)`` for every edge out of ``state``, in insertion order."""
        try:
            return list(self._successors[state].items())
        except KeyError:
            raise InvalidStateError(f"{state!r} is not a node of the graph") from None

    def heuristic(self, state: Hashable) -> float:
        """The heuristic given at construction (0 when none was)."""
        return self._heuristic(state)

    def goal_state(self) -> Hashable:
        """The goal node."""
        return self.goal

    def predecessors(self, state: Hashable) -> list[tuple[Hashable, float]]:
        """``(node, cost)`` for every edge into ``state``."""
        try:
            return list(self._predecessors[state].items())
        except KeyError:
            raise InvalidStateError(f"{state!r} is not a node of the graph") from None

    # --- inspection ----------------------------------------------------------------------

    def nodes(self) -> list[Hashable]:
        """Every node, in insertion order."""
        return list(self._successors)

    def edges(self) -> list[tuple[Hashable, Hashable, float]]:
        """Every directed edge ``(tail, head, cost)`` (an undirected edge appears both ways)."""
        return [
            (tail, head, cost)
            for tail, heads in self._successors.items()
            for head, cost in heads.items()
        ]

    def number_of_nodes(self) -> int:
        """How many nodes the graph has."""
        return len(self._successors)

    def number_of_edges(self) -> int:
        """How many directed edges the graph has (an undirected edge counts twice)."""
        return sum(len(heads) for heads in self._successors.values())

    def __repr__(self) -> str:
        return (
            f"GraphProblem(<{self.number_of_nodes()} nodes, {self.number_of_edges()} edges>, "
            f"start={self.start!r}, goal={self.goal!r}, directed={self.directed})"
        )


def _pairs(node: Hashable, neighbours: Any) -> list[tuple[Hashable, Any]]:
    """The ``(neighbour, cost)`` pairs of one adjacency entry, either form."""
    if isinstance(neighbours, Mapping):
        return list(neighbours.items())
    if isinstance(neighbours, str | bytes) or not isinstance(neighbours, Iterable):
        raise InvalidParameterError(
            f"adjacency[{node!r}] must be a mapping or a list of (neighbour, cost) pairs, "
            f"got {neighbours!r}"
        )
    pairs = []
    for item in neighbours:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InvalidParameterError(
                f"adjacency[{node!r}]: expected a (neighbour, cost) pair, got {item!r}"
            )
        pairs.append((item[0], item[1]))
    return pairs


def _heuristic_function(heuristic: Any, nodes: Mapping[Hashable, Any]) -> Callable[[Any], float]:
    if heuristic is None:
        return _zero
    if isinstance(heuristic, Mapping):
        missing = [node for node in nodes if node not in heuristic]
        if missing:
            raise InvalidStateError(
                f"heuristic mapping has no value for node {missing[0]!r} "
                f"({len(missing)} node(s) missing)"
            )
        table = {node: float(heuristic[node]) for node in nodes}
        return table.__getitem__
    if callable(heuristic):
        given: Callable[[Any], float] = heuristic
        return given
    raise InvalidParameterError(
        f"heuristic must be callable (node -> float) or a mapping, got {heuristic!r}"
    )


def _zero(state: Any) -> float:
    return 0.0
