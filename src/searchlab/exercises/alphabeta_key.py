"""The answer key of an alpha-beta exercise, read from the library's own alpha-beta engine.

:func:`answer_key` runs :func:`~searchlab.algorithms.adversarial.alphabeta.alphabeta` on an
explicit tree (children left to right, MAX at ``max`` nodes, pruning when ``alpha >= beta``,
equality included) with a :class:`~searchlab.core.observer.TraceRecorder`, and turns its
observer events (:class:`~searchlab.core.game_events.Visit`, ``Prune``, ``Backup``) into what a
teacher writes on the board:

* the root value and the best move (the first child reaching it) and the principal variation;
* for every visited node: the ``alpha``/``beta`` it was entered with, those it returned with,
  its value (fail-soft: a node that pruned keeps the best value it had), and, child by child,
  the window after each child;
* every cut: the node, the child after which ``alpha >= beta``, that ``alpha`` and ``beta``,
  and the children skipped (the pruned branches; their subtrees are never visited).

Nothing is computed twice: the window after a child is the window the engine gave the next
child (its ``Visit``), or the ``Prune`` event's, or, after the last child, the node's entry
window updated by its value (``alpha = max(alpha, value)`` at MAX, ``beta = min(beta, value)``
at MIN).

>>> from searchlab.domains.games.explicit_tree import ExplicitTree
>>> key = answer_key(ExplicitTree.from_text(
...     "max A: B C D\\nmin B: b1=3 b2=12 b3=8\\nmin C: c1=2 c2=4 c3=6\\nmin D: d1=14 d2=5 d3=2"))
>>> key.value, key.best_move, key.pruned
(3.0, 'B', ('c2', 'c3'))
>>> cut = key.cuts[0]
>>> cut.node, cut.after, cut.alpha, cut.beta, cut.pruned
('C', 'c1', 3.0, 2.0, ('c2', 'c3'))
>>> key.nodes["D"].alpha_in, key.nodes["D"].beta_out, key.nodes["D"].value
(3.0, 2.0, 2.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.core.game_events import Backup, Prune, Visit
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame, ExplicitTreeState

__all__ = ["AnswerKey", "ChildStep", "Cut", "NodeAnswer", "answer_key", "json_number"]


@dataclass(frozen=True, slots=True)
class ChildStep:
    """One searched child of a node: its value and the node's window right after it."""

    child: str
    value: float
    alpha: float
    beta: float


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut: at ``node``, after its child ``after``, ``alpha >= beta``; the children in
    ``pruned`` (the pruned branches) are skipped. ``order`` is the event's index in the
    engine's trace (the order a student meets it)."""

    node: str
    kind: str
    after: str
    after_value: float
    alpha: float
    beta: float
    pruned: tuple[str, ...]
    order: int


@dataclass(frozen=True, slots=True)
class NodeAnswer:
    """A visited node: its kind (``max``, ``min``, ``leaf``), depth, the window it was entered
    with and returned with, its value, the children searched (with the window after each), and
    the trace indices of its visit and its backup."""

    name: str
    kind: str
    depth: int
    alpha_in: float
    beta_in: float
    alpha_out: float
    beta_out: float
    value: float
    steps: tuple[ChildStep, ...]
    visit_order: int
    backup_order: int


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """Everything alpha-beta did on ``tree`` (see the module docs)."""

    value: float
    best_move: str | None
    principal_variation: tuple[str, ...]
    nodes: dict[str, NodeAnswer]
    cuts: tuple[Cut, ...]
    pruned_leaves: tuple[str, ...]
    leaves_evaluated: int
    tree: ExplicitTree

    @property
    def pruned(self) -> tuple[str, ...]:
        """The pruned branches (children skipped by a cut), in the order they were cut."""
        return tuple(name for cut in self.cuts for name in cut.pruned)

    @property
    def visited(self) -> tuple[str, ...]:
        """The visited nodes, in the order alpha-beta entered them."""
        return tuple(sorted(self.nodes, key=lambda name: self.nodes[name].visit_order))

    def cut_of(self, name: str) -> Cut | None:
        """The cut that skipped the branch ``name`` (``None`` when it was not pruned)."""
        for cut in self.cuts:
            if name in cut.pruned:
                return cut
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (infinities as ``"inf"``/``"-inf"``, whole numbers as ints)."""
        n = json_number
        return {
            "value": n(self.value),
            "best_move": self.best_move,
            "principal_variation": list(self.principal_variation),
            "pruned": list(self.pruned),
            "pruned_leaves": list(self.pruned_leaves),
            "leaves_evaluated": self.leaves_evaluated,
            "cuts": [
                {
                    "node": c.node,
                    "kind": c.kind,
                    "after": c.after,
                    "after_value": n(c.after_value),
                    "alpha": n(c.alpha),
                    "beta": n(c.beta),
                    "pruned": list(c.pruned),
                }
                for c in self.cuts
            ],
            "nodes": [
                {
                    "name": a.name,
                    "kind": a.kind,
                    "depth": a.depth,
                    "alpha_in": n(a.alpha_in),
                    "beta_in": n(a.beta_in),
                    "alpha_out": n(a.alpha_out),
                    "beta_out": n(a.beta_out),
                    "value": n(a.value),
                    "steps": [
                        {
                            "child": s.child,
                            "value": n(s.value),
                            "alpha": n(s.alpha),
                            "beta": n(s.beta),
                        }
                        for s in a.steps
                    ],
                }
                for a in (self.nodes[name] for name in self.visited)
            ],
        }


def json_number(value: float) -> int | float | str:
    """A number for JSON: ``"inf"``/``"-inf"`` for infinities, an int when whole.

    >>> json_number(3.0), json_number(-math.inf), json_number(2.5)
    (3, '-inf', 2.5)
    """
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def answer_key(tree: ExplicitTree) -> AnswerKey:
    """Run the library's alpha-beta on ``tree`` and read its answer key from the events."""
    game = ExplicitTreeGame(tree)
    root = game.initial_state()
    recorder = TraceRecorder()
    result = alphabeta(game, observer=recorder)
    names: dict[tuple[int, ...], str] = {(): tree.root}

    def name_of(path: tuple[int, ...]) -> str:
        if path not in names:
            names[path] = tree.children(name_of(path[:-1]))[path[-1]]
        return names[path]

    visits: dict[str, tuple[int, Visit]] = {}
    backups: dict[str, tuple[int, Backup]] = {}
    prunes: dict[str, tuple[int, Prune]] = {}
    for index, event in enumerate(recorder.events):
        if isinstance(event, Visit):
            visits[name_of(event.path)] = (index, event)
        elif isinstance(event, Backup):
            backups[name_of(event.path)] = (index, event)
        elif isinstance(event, Prune):
            prunes[name_of(event.path)] = (index, event)
    nodes: dict[str, NodeAnswer] = {}
    cuts: list[Cut] = []
    for name, (visit_index, visit) in visits.items():
        kind = tree.kind(name)
        backup_index, backup = backups[name]
        searched = [c for c in tree.children(name) if c in visits]
        steps = []
        for i, child in enumerate(searched):
            if i + 1 < len(searched):
                window = visits[searched[i + 1]][1]
                alpha, beta = window.alpha, window.beta
            elif name in prunes:
                alpha, beta = prunes[name][1].alpha, prunes[name][1].beta
            else:
                alpha, beta = _window_after(kind, visit.alpha, visit.beta, backup.value)
            steps.append(ChildStep(child, backups[child][1].value, alpha, beta))
        if kind == "leaf":
            alpha_out, beta_out = visit.alpha, visit.beta
        else:
            alpha_out, beta_out = steps[-1].alpha, steps[-1].beta
        nodes[name] = NodeAnswer(
            name,
            kind,
            visit.depth,
            visit.alpha,
            visit.beta,
            alpha_out,
            beta_out,
            backup.value,
            tuple(steps),
            visit_index,
            backup_index,
        )
        if name in prunes:
            prune_index, prune = prunes[name]
            state = _walk(root, prune.path)
            skipped = tuple(state.action_to_string(a) for a in prune.pruned)
            cuts.append(
                Cut(
                    name,
                    kind,
                    searched[-1],
                    steps[-1].value,
                    prune.alpha,
                    prune.beta,
                    skipped,
                    prune_index,
                )
            )
    cuts.sort(key=lambda cut: cut.order)
    pruned_leaves = tuple(
        leaf for cut in cuts for branch in cut.pruned for leaf in tree.subtree_leaves(branch)
    )
    pv, state = [], root
    for action in result.principal_variation:
        pv.append(state.action_to_string(action))
        state = state.apply(action)
    return AnswerKey(
        value=float(result.stats["max_value"]),
        best_move=pv[0] if pv else None,
        principal_variation=tuple(pv),
        nodes=nodes,
        cuts=tuple(cuts),
        pruned_leaves=pruned_leaves,
        leaves_evaluated=sum(1 for a in nodes.values() if a.kind == "leaf"),
        tree=tree,
    )


def _window_after(kind: str, alpha: float, beta: float, value: float) -> tuple[float, float]:
    """The window of a node after its last child: the bound of its own side moves."""
    if kind == "max":
        return max(alpha, value), beta
    if kind == "min":
        return alpha, min(beta, value)
    return alpha, beta


def _walk(state: ExplicitTreeState, path: tuple[int, ...]) -> ExplicitTreeState:
    for action in path:
        state = state.apply(action)
    return state
