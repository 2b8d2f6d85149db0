"""The parts of an MCTS result read off the tree: root children statistics, the principal
variation, and the result of a search from a finished game.

``stats["children"]`` has one entry per root action, most visited first (ties: the smaller
action): ``action``, ``visits``, ``value`` (the mean return for the root's player to move),
``prior`` (PUCT's, else ``None``) and ``proven`` (``"win"``/``"loss"``/``"draw"`` for the
root's player when proofs are on and the child is proven, else ``None``). The compiled tier
fills the same keys.

>>> outcome(1.0), outcome(0.0), outcome(None)
('win', 'draw', None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Literal

from searchlab.algorithms.mcts.tree import Node
from searchlab.core.game import State
from searchlab.core.search_result import SearchResult

__all__ = [
    "SearchSnapshot",
    "array_tree_view",
    "children_stats",
    "outcome",
    "principal_variation",
    "snapshot_of",
    "terminal_result",
]


@dataclasses.dataclass(frozen=True, slots=True)
class SearchSnapshot:
    """What a Monte Carlo search knows now, for a front end that shows it while it runs (the
    web lab's live analysis): every searcher that keeps a tree (the reference tier's
    :class:`~searchlab.algorithms.mcts.MCTS`, the compiled ``CompiledSearcher``, Go's
    ``GoSearcher`` among them) has ``snapshot()``, read between simulations or between the compiled
    kernel's slices (about 0.1 s), never mid-slice.

    Attributes:
        simulations: the simulations through the root's children (those kept from an earlier
            search included): the sum of ``children``'s visits.
        children: per root action with visits, as in ``stats["children"]`` (``action``,
            ``visits``, ``value``: the mean for the root's player), most visited first.
    """

    simulations: int
    children: tuple[dict[str, Any], ...]


EMPTY_SNAPSHOT = SearchSnapshot(0, ())
"""The snapshot of a searcher that has not searched yet."""


def array_tree_view(
    children: Callable[[int], Sequence[int]],
    stats: Callable[[int], tuple[int, int, float, float | None]],
    *,
    depth: int,
    width: int,
) -> dict[str, Any]:
    """A tree kept in arrays (node 0 the root) as nested dicts ``depth`` plies deep, the
    ``width`` most visited children of each node (ties: block order): ``action`` (into the
    node; -1 for the root), ``visits``, ``value`` (the mean for the player who moved into
    it), ``proven`` (its exact value, or ``None``), ``hidden`` (visited children left out)
    and ``children``. ``children(node)`` lists a node's made children, ``stats(node)`` gives
    ``(action, visits, mean, proven)``; pictures label the actions
    (:func:`searchlab.viz.mcts_tree_png.label_tree_view`)."""

    def convert(node: int, level: int) -> dict[str, Any]:
        visited = [child for child in children(node) if stats(child)[1] > 0]
        visited.sort(key=lambda child: -stats(child)[1])  # stable: ties keep block order
        shown = visited[:width] if level < depth else []
        action, visits, mean, proven = stats(node)
        return {
            "action": action,
            "visits": visits,
            "value": mean,
            "proven": proven,
            "hidden": len(visited) - len(shown),
            "children": [convert(child, level + 1) for child in shown],
        }

    return convert(0, 0)


def snapshot_of(children: Sequence[dict[str, Any]]) -> SearchSnapshot:
    """The snapshot of root ``children`` rows (those with visits, most visited first)."""
    rows = sorted(
        (row for row in children if row["visits"]), key=lambda row: (-row["visits"], row["action"])
    )
    return SearchSnapshot(sum(row["visits"] for row in rows), tuple(rows))


def outcome(value: float | None) -> str | None:
    """``"win"``/``"loss"``/``"draw"`` by the sign of a proven value; ``None`` if unproven."""
    if value is None:
        return None
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def children_stats(root: Node, use_proofs: bool) -> list[dict[str, Any]]:
    """Per root action: visits, mean for the root's player, prior, proof; most visited first."""
    entries: list[dict[str, Any]] = []
    for index, action in enumerate(root.actions):
        child = root.children[index]
        visits = 0 if child is None else child.visits
        entries.append(
            {
                "action": action,
                "visits": visits,
                "value": 0.0 if child is None or not visits else child.value_sum / visits,
                "prior": None if root.priors is None else root.priors[index],
                "proven": outcome(child.proven) if use_proofs and child is not None else None,
            }
        )
    entries.sort(key=lambda entry: (-entry["visits"], entry["action"]))
    return entries


def principal_variation(root: Node, index: int | None) -> tuple[int, ...]:
    """The chosen action, then the most visited child at each node below it."""
    if index is None:
        return ()
    line = [root.actions[index]]
    node = root.children[index]
    seen = {id(root)}
    while node is not None and node.visits > 0 and id(node) not in seen:
        seen.add(id(node))
        best, best_visits = -1, 0
        for position, child in enumerate(node.children):
            if child is not None and child.visits > best_visits:
                best, best_visits = position, child.visits
        if best < 0:
            break
        line.append(node.actions[best])
        node = node.children[best]
    return tuple(line)


def terminal_result(
    state: State,
    *,
    algorithm: str,
    start: float,
    scale: Callable[[Sequence[float]], Sequence[float]],
    tier: Literal["reference", "compiled"] = "reference",
    **stats: Any,
) -> SearchResult:
    """The exact result of a Monte Carlo search started on a finished game: no action, no
    simulation, the mover's return on the search's value ``scale``; ``stats`` are the
    algorithm's usual keys beside ``simulations`` and ``children``."""
    result = SearchResult.for_terminal(
        state, algorithm=algorithm, tier=tier, start=start, nodes=0, simulations=0,
        children=[], **stats,
    )  # fmt: skip
    return dataclasses.replace(result, value=scale(state.returns())[state.current_player()])
