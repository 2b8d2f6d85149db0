"""The final move: which root child is played once the budget is spent.

Chaslot et al. (2008, "Progressive strategies for MCTS") name the classical rules:

* ``"most_visits"`` (their *robust child*, the default): the most visited child; its mean is
  the best-estimated one and it is the least disturbed by a lucky last simulation. Ties: the
  better mean.
* ``"best_value"`` (their *max child*): the best mean among the visited children. Ties: more
  visits.
* ``"robust"`` (their *robust-max child*): the child that has both the most visits and the best
  mean; when no child has both, the search goes on (see
  :class:`~searchlab.algorithms.mcts.search.MCTS`: up to half the budget again), then falls
  back to the most visited child.

With proofs (MCTS-Solver, or exact endgame search), proven values replace means, a child
proven to win for the root's player is played whatever its visits (the most visited of them),
and children proven to lose are played only when nothing else is left. Remaining ties go to the
smaller action.

>>> from searchlab.algorithms.mcts.tree import Node
>>> from searchlab.domains.games.nim import Nim
>>> root = Node(Nim((3,)).initial_state(), mover=1)
>>> root.children = [Node(root.state.apply(a), mover=0) for a in root.actions]
>>> for child, (visits, total) in zip(root.children, [(10, 2.0), (5, 3.0), (1, 1.0)]):
...     child.visits, child.value_sum = visits, total
>>> choose_final(root, "most_visits", use_proofs=False), choose_final(root, "best_value", False)
(0, 2)
>>> choose_final(root, "robust", use_proofs=False) is None  # they disagree: search on
True
"""

from __future__ import annotations

from searchlab.algorithms.mcts.tree import Node

__all__ = ["child_value", "choose_final"]


def child_value(child: Node, use_proofs: bool) -> float:
    """The child's value for the player who chose it: proven if known, else its mean."""
    if use_proofs and child.proven is not None:
        return child.proven
    return child.value_sum / child.visits if child.visits else 0.0


def choose_final(root: Node, final_move: str, use_proofs: bool) -> int | None:
    """The index of the root edge to play (``None``: no child has been visited yet, or, for
    ``"robust"``, the most visited and the best valued children differ)."""
    visited = [
        index
        for index, child in enumerate(root.children)
        if child is not None and (child.visits > 0 or (use_proofs and child.proven is not None))
    ]
    if not visited:
        return None
    actions = root.actions
    children = root.children

    def by_visits(index: int) -> tuple[int, float, int]:
        child = children[index]
        assert child is not None
        return (child.visits, child_value(child, use_proofs), -actions[index])

    def by_value(index: int) -> tuple[float, int, int]:
        child = children[index]
        assert child is not None
        return (child_value(child, use_proofs), child.visits, -actions[index])

    if use_proofs:
        proven = {
            index: child.proven
            for index in visited
            if (child := children[index]) is not None and child.proven is not None
        }
        wins = [index for index in visited if proven.get(index, 0.0) > 0]
        if wins:
            return max(wins, key=by_visits)
        not_lost = [index for index in visited if proven.get(index, 0.0) >= 0]
        if not not_lost:
            unvisited = [index for index, child in enumerate(children) if child is None]
            return unvisited[0] if unvisited else max(visited, key=by_visits)
        visited = not_lost
    most_visited = max(visited, key=by_visits)
    if final_move == "most_visits":
        return most_visited
    best_valued = max(visited, key=by_value)
    if final_move == "best_value":
        return best_valued
    return most_visited if most_visited == best_valued else None
