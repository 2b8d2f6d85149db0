"""Tree policies: which edge selection follows from a node (UCT or PUCT), and proofs.

Both rules read a child's own statistics, which are kept for the player who chose it (the
player to move at the node, read from its state: the search keeps one node per position and
mover, so this holds through transpositions and runs of plies by one player too), so the
node's player always maximises:

* **UCT** (Kocsis and Szepesvári 2006; UCB1 of Auer et al. 2002):
  ``W/N + c * sqrt(2 ln N_parent / N)``; an unvisited edge scores infinity, so every edge is
  tried once (in the node's shuffled order) before any is tried twice.
* **PUCT** (Silver et al. 2017, AlphaZero): ``Q + c_puct * P * sqrt(N_parent) / (1 + N)``;
  an unvisited edge has ``Q = 0`` and ``N = 0``; ``N_parent`` is at least 1, so the first
  pick follows the priors.

With ``use_proofs`` (MCTS-Solver, Winands et al. 2008) a child proven to win for the chooser
is taken at once, a child proven to lose is never selected, and a proven draw scores its exact
value 0 in place of its mean. Ties go to the first edge in the node's order.

:func:`prove` is the solver's backup rule at one node: a child proven to win for the node's
player proves the node won; when every child is proven, the node's value is the best of them.

>>> from searchlab.algorithms.mcts.tree import Node
>>> from searchlab.domains.games.nim import Nim
>>> root = Node(Nim((2,)).initial_state(), mover=1)
>>> root.children = [Node(root.state.apply(a), mover=0) for a in root.actions]
>>> [child.is_terminal for child in root.children]  # take 1, take 2 (the last counter)
[False, True]
>>> root.children[1].proven = 1.0  # taking the last counter wins for player 0
>>> prove(root), root.proven  # proven for the root's mover (player 1): a loss for them
(True, -1.0)
"""

from __future__ import annotations

import math

from searchlab.algorithms.mcts.tree import Node

__all__ = ["proof_mean", "prove", "proven_value_for_player", "select_puct", "select_uct"]

_INFINITY = math.inf


def proof_mean(child: Node, use_proofs: bool) -> float:
    """The mean a tree policy reads for the visited ``child``: ``W/N``; with ``use_proofs`` and
    a proven child, ``inf`` for a proven win for the chooser (take it at once), ``-inf`` for a
    proven loss (never select it) and ``0.0`` for a proven draw.

    >>> from searchlab.algorithms.mcts.tree import Node
    >>> from searchlab.domains.games.nim import Nim
    >>> child = Node(Nim((2,)).initial_state(), mover=0)
    >>> child.visits, child.value_sum = 4, 1.0
    >>> proof_mean(child, True)
    0.25
    >>> child.proven = -1.0
    >>> proof_mean(child, True), proof_mean(child, False)
    (-inf, 0.25)
    """
    proven = child.proven
    if use_proofs and proven is not None:
        return _INFINITY if proven > 0 else -_INFINITY if proven < 0 else 0.0
    return child.value_sum / child.visits


def select_uct(node: Node, c: float, use_proofs: bool) -> int:
    """Index of the edge UCT follows from ``node`` (``-1`` if every child is a proven loss)."""
    children = node.children
    explore = c * math.sqrt(2.0 * math.log(node.visits)) if node.visits > 1 else 0.0
    best_index, best_score = -1, -_INFINITY
    for index, child in enumerate(children):
        if child is None:
            return index
        visits = child.visits
        if visits == 0:
            return index
        mean = proof_mean(child, use_proofs)
        if mean == _INFINITY:
            return index
        if mean == -_INFINITY:
            continue
        score = mean + explore / math.sqrt(visits)
        if score > best_score:
            best_index, best_score = index, score
    return best_index


def select_puct(node: Node, c_puct: float, priors: list[float], use_proofs: bool) -> int:
    """Index of the edge PUCT follows from ``node`` with ``priors`` (aligned with its edges)."""
    scale = c_puct * math.sqrt(node.visits if node.visits > 1 else 1)
    best_index, best_score = -1, -_INFINITY
    for index, child in enumerate(node.children):
        if child is None or child.visits == 0:
            score = scale * priors[index]
        else:
            mean = proof_mean(child, use_proofs)
            if mean == _INFINITY:
                return index
            if mean == -_INFINITY:
                continue
            score = mean + scale * priors[index] / (1 + child.visits)
        if score > best_score:
            best_index, best_score = index, score
    return best_index


def prove(node: Node) -> bool:
    """Set ``node.proven`` from its children if they prove it; say whether they did."""
    best: float | None = None
    is_complete = True
    player = node.player
    for child in node.children:
        if child is None or child.proven is None:
            is_complete = False
            continue
        value = child.proven if child.mover == player else 0.0 - child.proven
        if value > 0:
            best, is_complete = value, True
            break
        if best is None or value > best:
            best = value
    if not is_complete or best is None:
        return False
    node.proven = best if node.mover == player else 0.0 - best
    return True


def proven_value_for_player(node: Node) -> float | None:
    """``node.proven`` seen by the player to move at ``node`` (``None`` if unproven)."""
    if node.proven is None:
        return None
    return node.proven if node.mover == node.player else 0.0 - node.proven
