"""Events of a game-tree search, for observers (any callable taking one event).

Minimax and alpha-beta report, in the textbook MAX/MIN form (player 0 is MAX, values are
player 0's):

* :class:`Visit` — a node is entered, with the ``alpha`` and ``beta`` it was given;
* :class:`Prune` — after a child, ``alpha >= beta``: the remaining children are skipped;
* :class:`Backup` — a node's value is final and goes back to its parent.

Monte Carlo tree search adds, per simulation:

* :class:`Select` — the edge the selection rule (UCT, PUCT) follows out of a node, with the
  child's visits and mean (for the player moving at the node) before this simulation;
* :class:`Playout` — the result credited at the leaf (a rollout, an evaluator, a proof).

``alpha``/``beta`` are ``-inf``/``+inf`` for minimax, which never prunes. A node is named by
its ``path``: the actions from the root, so identical positions reached by different lines stay
apart. Record them with :class:`~searchlab.core.observer.TraceRecorder`:

>>> from searchlab.core.observer import TraceRecorder
>>> recorder = TraceRecorder()
>>> recorder(Visit(path=(), key="A", alpha=float("-inf"), beta=float("inf"), depth=0))
>>> recorder(Prune(path=(1,), key="C", alpha=3, beta=2, pruned=(1, 2)))
>>> recorder.counts()["prune"], recorder.events[1].pruned
(1, (1, 2))
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Backup", "GameSearchEvent", "Playout", "Prune", "Select", "Visit"]


@dataclass(frozen=True, slots=True)
class _NodeEvent:
    """What the minimax and alpha-beta events share: the node's ``path`` (the actions from the
    root) and ``key`` (its state's key), which is also its ``state``."""

    path: tuple[int, ...]
    key: Hashable

    @property
    def state(self) -> Hashable:
        """The node's key (so ``TraceRecorder.states("visit")`` works)."""
        return self.key


@dataclass(frozen=True, slots=True)
class Visit(_NodeEvent):
    """A node is entered with the window ``(alpha, beta)``; ``depth`` is its ply from the root."""

    alpha: float
    beta: float
    depth: int
    kind: Literal["visit"] = field(default="visit", repr=False)


@dataclass(frozen=True, slots=True)
class Prune(_NodeEvent):
    """``alpha >= beta`` at a node after one of its children: the actions in ``pruned`` (the
    remaining children, in order) are not searched."""

    alpha: float
    beta: float
    pruned: tuple[int, ...]
    kind: Literal["prune"] = field(default="prune", repr=False)


@dataclass(frozen=True, slots=True)
class Backup(_NodeEvent):
    """A node's value (player 0's view) is final; ``action`` is the child it came from
    (``None`` at a leaf)."""

    value: float
    action: int | None
    kind: Literal["backup"] = field(default="backup", repr=False)


@dataclass(frozen=True, slots=True)
class Select:
    """MCTS follows ``action`` out of the node at ``path``; ``visits`` and ``mean`` are the
    child's statistics before this simulation (``mean`` for the player moving at the node).

    >>> Select(path=(3,), key=17, action=4, visits=12, mean=0.25).kind
    'select'
    """

    path: tuple[int, ...]
    key: Hashable
    action: int
    visits: int
    mean: float
    kind: Literal["select"] = field(default="select", repr=False)


@dataclass(frozen=True, slots=True)
class Playout:
    """The returns (players 0 and 1) credited to a simulation at the leaf ``path``."""

    path: tuple[int, ...]
    key: Hashable
    returns: tuple[float, ...]
    kind: Literal["playout"] = field(default="playout", repr=False)


GameSearchEvent = Visit | Prune | Backup | Select | Playout
"""Every event a game-tree search emits."""
