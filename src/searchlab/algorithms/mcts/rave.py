"""RAVE: rapid action value estimation (Gelly and Silver 2007) in the MCTS tree.

**All moves as first (AMAF).** A simulation through a node where player ``p`` is to move
tells something about every action ``p`` played *later* in it, not only about the edge taken:
had ``p`` played that action first, the game might have gone much the same way. So each edge
``(s, a)`` keeps, beside its own visits ``N`` and mean ``Q``, an AMAF count ``Ñ`` and sum
``W̃``: after each simulation, for every node ``s`` on its path (root to leaf, the leaf too),
every edge of ``s`` whose action its player ``p`` played from ``s`` to the end of the game (the
tree's edges from ``s`` on, then the rollout's moves, each credited to the player who made it)
adds one to ``Ñ`` and ``p``'s return to ``W̃`` (:func:`update_amaf`). An action counts once
per simulation and node, however often ``p`` played it (a Go point can be played again after
a capture); the edge taken counts too. The player of each move is read from the position, so
runs of plies by one player (Snake Go) and transpositions need nothing special. A game's pass
(``game.pass_action``, Go's) gathers no AMAF statistics: every Go playout ends with both
players passing, so its AMAF value would be the playout's average outcome, not the pass's worth
(the pass is then tried once, as an edge nothing is known about, and valued by its own visits).

**Selection** (:func:`select_rave`) mixes both estimates, with Gelly and Silver's
hand-selected schedule and equivalence parameter ``k`` (``MCTSOptions.rave``)::

    beta = sqrt(k / (3 N + k))        (1/2 when N = k; 1 for an unvisited edge)
    Q*   = (1 - beta) * Q + beta * W̃ / Ñ
    score = Q* + c * sqrt(2 ln N_parent / max(N, 1))

``N`` is the edge's own visits (the simulations behind ``Q``). An edge with no AMAF sample yet
keeps ``Q``; an edge with neither visits nor AMAF samples scores infinity (tried first, in the
node's shuffled order, as in UCT), so an unvisited edge that the playouts already know about
waits for its turn by its AMAF value instead of being tried at once: with many moves (Go) the
search does not need to try every move once before it can prefer one. MCTS-Solver's proven
children are taken, skipped or valued exactly as in
:func:`~searchlab.algorithms.mcts.selection.select_uct`.

>>> from searchlab.algorithms.mcts.tree import Node
>>> from searchlab.domains.games.nim import Nim
>>> root = Node(Nim((1, 2)).initial_state(), mover=1, amaf=True)
>>> root.actions  # take 1 from pile 1, 1 from pile 2, 2 from pile 2
[0, 2, 3]
>>> # a simulation from the root as leaf: player 0 takes pile 1, player 1 one from pile 2,
>>> # player 0 the last counter (and wins)
>>> update_amaf([root], [], [(0, 0), (1, 2), (0, 2)], (1.0, -1.0))
>>> root.amaf_visits, root.amaf_sums  # player 0 played actions 0 and 2
([1, 1, 0], [1.0, 1.0, 0.0])
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from searchlab.algorithms.mcts.selection import proof_mean
from searchlab.algorithms.mcts.tree import Node

__all__ = ["rave_beta", "select_rave", "update_amaf"]

_INFINITY = math.inf


def rave_beta(k: float, visits: int) -> float:
    """Gelly and Silver's weight of the AMAF value after ``visits`` simulations of an edge:
    ``sqrt(k / (3 visits + k))`` (1 with no visit, 1/2 at ``visits == k``, 0 when ``k == 0``).

    >>> rave_beta(1000, 0), rave_beta(1000, 1000), rave_beta(0, 5)
    (1.0, 0.5, 0.0)
    """
    return math.sqrt(k / (3.0 * visits + k)) if k > 0 else 0.0


def select_rave(node: Node, c: float, k: float, use_proofs: bool) -> int:
    """Index of the edge UCT-RAVE follows from ``node`` (``-1`` if every child is a proven
    loss); ``node`` keeps AMAF statistics (``Node(..., amaf=True)``)."""
    amaf_visits = node.amaf_visits
    amaf_sums = node.amaf_sums
    assert amaf_visits is not None and amaf_sums is not None
    explore = c * math.sqrt(2.0 * math.log(node.visits)) if node.visits > 1 else 0.0
    best_index, best_score = -1, -_INFINITY
    for index, child in enumerate(node.children):
        visits = 0 if child is None else child.visits
        amaf = amaf_visits[index]
        if visits == 0:
            if amaf == 0:
                return index
            score = amaf_sums[index] / amaf + explore
        else:
            assert child is not None
            mean = proof_mean(child, use_proofs)
            if mean == _INFINITY:
                return index
            if mean == -_INFINITY:
                continue
            if amaf and (not use_proofs or child.proven is None):
                beta = math.sqrt(k / (3.0 * visits + k))
                mean = (1.0 - beta) * mean + beta * amaf_sums[index] / amaf
            score = mean + explore / math.sqrt(visits)
        if score > best_score:
            best_index, best_score = index, score
    return best_index


def update_amaf(
    path: Sequence[Node],
    taken: Sequence[int],
    rollout: Sequence[tuple[int, int]],
    returns: Sequence[float],
    ignore: int | None = None,
) -> None:
    """Add one simulation to the AMAF statistics of every node on ``path``.

    ``taken[d]`` is the index of the edge followed from ``path[d]`` to ``path[d + 1]`` (one
    fewer than the nodes); ``rollout`` the moves played after the leaf as
    ``(player, action)``; ``returns`` the simulation's returns by player (on the search's
    scale); ``ignore`` an action that gathers no statistics (the game's pass)."""
    played: dict[int, set[int]] = {}
    for player, action in rollout:
        if action != ignore:
            played.setdefault(player, set()).add(action)
    for depth in range(len(path) - 1, -1, -1):
        node = path[depth]
        player = node.player
        if depth < len(taken):  # every node but the leaf
            action = node.actions[taken[depth]]
            if action != ignore:
                played.setdefault(player, set()).add(action)
        later = played.get(player)
        if not later or node.amaf_visits is None or node.amaf_sums is None:
            continue
        value = returns[player]
        visits, sums = node.amaf_visits, node.amaf_sums
        for index, action in enumerate(node.actions):
            if action in later:
                visits[index] += 1
                sums[index] += value
