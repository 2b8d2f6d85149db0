"""The MCTS tree: one :class:`Node` per position, its edges kept as parallel lists.

A node holds a position's statistics: ``visits`` (N) and ``value_sum`` (W), the sum of the
returns of the simulations through it **for the player who moved into it** (``mover``: the
player to move at its parent). So a parent picks among its children by their own means
``W / N`` with no sign to flip, whichever player it is (the sign error between the two sides
that a single "value" field invites cannot happen). The players need not alternate: ``mover``
is the parent's player to move, read from its state, so a player who moves several plies in a
row (Snake Go) chooses among children whose ``mover`` is that player, like any other.

The edges of a node are three lists aligned by index: ``actions`` (its legal actions),
``children`` (the child :class:`Node`, or ``None`` until selection first takes that edge) and
``priors`` (PUCT's P, or ``None`` for UCT). With transpositions two edges may share a child:
the tree is then a directed acyclic graph, and the simulations are backed up along the path
they took, never along parent pointers (a node has none).

With RAVE (``rave > 0``) a node also keeps, per edge, the all-moves-as-first statistics
``amaf_visits`` and ``amaf_sums`` (the simulations through the node in which its player played
that action at any later point, and the sum of their returns for that player:
:mod:`~searchlab.algorithms.mcts.rave`); without RAVE both are ``None``.

``proven`` is ``None`` or the exact value (for ``mover``) that MCTS-Solver or the exact
endgame search established; its sign is the outcome (win > 0, loss < 0, draw 0).

>>> from searchlab.domains.games.nim import Nim
>>> root = Node(Nim((1, 2)).initial_state(), mover=1)
>>> root.player, root.actions, root.children, root.is_terminal
(0, [0, 2, 3], [None, None, None], False)
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator

from searchlab.core.game import State

__all__ = ["Node", "path_actions", "reachable_nodes"]


class Node:
    """One position in the tree.

    Attributes:
        state: the position.
        player: the player to move in ``state``.
        mover: the player who chose the edge into this node (the parent's player to move,
            which may be ``player`` itself when a player moves twice in a row; for a fresh
            root, ``1 - player`` by convention).
        visits: N, the simulations that went through this node.
        value_sum: W, the sum of their returns for ``mover``.
        actions: the legal actions (empty for a terminal position); in UCT their order is
            shuffled once, so that unvisited edges are tried in random order.
        children: per action, the child node or ``None`` while the edge is unvisited.
        priors: per action, PUCT's prior probability; ``None`` in UCT.
        proven: exact value for ``mover`` when proven, else ``None``.
        is_terminal: the game is over in ``state``.
        amaf_visits, amaf_sums: per action, RAVE's AMAF count and sum of returns for
            ``player`` (``amaf=True``), else ``None``.
    """

    __slots__ = (
        "actions",
        "amaf_sums",
        "amaf_visits",
        "children",
        "is_terminal",
        "mover",
        "player",
        "priors",
        "proven",
        "state",
        "value_sum",
        "visits",
    )

    def __init__(self, state: State, mover: int, amaf: bool = False) -> None:
        self.state = state
        self.player = state.current_player()
        self.mover = mover
        self.visits = 0
        self.value_sum = 0.0
        self.is_terminal = state.is_terminal()
        self.actions: list[int] = [] if self.is_terminal else list(state.legal_actions())
        self.children: list[Node | None] = [None] * len(self.actions)
        self.priors: list[float] | None = None
        self.proven: float | None = None
        self.amaf_visits: list[int] | None = [0] * len(self.actions) if amaf else None
        self.amaf_sums: list[float] | None = [0.0] * len(self.actions) if amaf else None

    @property
    def mean(self) -> float:
        """``W / N`` for ``mover`` (0 before the first visit)."""
        return self.value_sum / self.visits if self.visits else 0.0

    def key(self) -> Hashable:
        """The position's key (``state.key()``)."""
        return self.state.key()

    def child(self, action: int) -> Node | None:
        """The child reached by ``action``, or ``None`` if that edge was never visited."""
        for index, candidate in enumerate(self.actions):
            if candidate == action:
                return self.children[index]
        return None

    def __repr__(self) -> str:
        proven = "" if self.proven is None else f", proven={self.proven:g}"
        return (
            f"Node(player={self.player}, visits={self.visits}, mean={self.mean:.3f}, "
            f"edges={len(self.actions)}{proven})"
        )


def reachable_nodes(root: Node) -> Iterator[Node]:
    """Every node reachable from ``root``, each once (iterative, no recursion)."""
    seen = {id(root)}
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        for child in node.children:
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                stack.append(child)


def path_actions(path: list[Node]) -> tuple[int, ...]:
    """The actions leading along ``path`` (a list of nodes, each a child of the one before)."""
    line = []
    for parent, child in itertools.pairwise(path):
        for index, candidate in enumerate(parent.children):
            if candidate is child:
                line.append(parent.actions[index])
                break
    return tuple(line)
