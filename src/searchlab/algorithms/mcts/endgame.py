"""Exact search near the end of the game: a shallow, budgeted proof search at MCTS leaves.

``ProofSearch(depth, node_budget).prove(state)`` answers the exact value of ``state`` for the
player to move when a search of at most ``depth`` plies settles it, and ``None`` otherwise:

* a move reaching a proven win (> 0 for the mover) proves the win at once (the other moves
  need not be searched: that is the proof's cut); a child's value is for its own player to
  move, negated only when that is the opponent (a player may move several plies in a row);
* when every move is proven, the value is the best of them;
* a line still open at the depth horizon, or a search running past ``node_budget`` positions,
  leaves the value unproven.

A finished game is worth its returns on the search's scale (``scale``, by default the
outcome: +1 / 0 / -1, see :mod:`~searchlab.algorithms.mcts.value_scale`), so a proven value
is exact. On a finer scale (``"normalised"`` disc differences) the sign is exact, and a proven
win is worth the first winning line found, a lower bound on the best one.

So ``exact_endgame=K`` in :func:`~searchlab.algorithms.mcts.mcts` solves every leaf with at
most ``K`` plies of play left exactly, and also finds forced wins and losses of up to ``K``
plies earlier on; it is the shallow minimax at leaves of Baier and Winands' MCTS-minimax
hybrids (2013). The search is memoised by ``state.key()`` across calls. It recurses to at most
``depth`` plies (keep ``K`` small: every leaf pays for it).

>>> from searchlab.domains.games.nim import Nim
>>> prover = ProofSearch(depth=4)
>>> prover.prove(Nim((1, 2)).initial_state()), prover.prove(Nim((2, 2)).initial_state())
(1.0, -1.0)
>>> ProofSearch(depth=3).prove(Nim((2, 2)).initial_state()) is None  # needs 4 plies
True
"""

from __future__ import annotations

from collections.abc import Hashable

from searchlab.algorithms.mcts.value_scale import ReturnsScale, returns_scale
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import State

__all__ = ["DEFAULT_NODE_BUDGET", "ProofSearch"]

DEFAULT_NODE_BUDGET = 5_000
"""Positions one :meth:`ProofSearch.prove` call may visit before it gives up."""


class _OutOfBudget(Exception):
    pass


class ProofSearch:
    """A depth- and node-limited exact search, memoised across calls.

    Attributes:
        depth: plies searched below the position.
        node_budget: positions one call may visit.
        nodes: positions visited over all calls.
        proofs: calls that ended with a proven value.

    ``scale`` puts the returns of a finished game on the search's value scale (default: the
    outcome, +1 / 0 / -1).
    """

    def __init__(
        self,
        depth: int,
        node_budget: int = DEFAULT_NODE_BUDGET,
        *,
        scale: ReturnsScale | None = None,
    ) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidParameterError(
                f"proof search depth must be an integer >= 1, got {depth!r}"
            )
        self.depth = depth
        self.node_budget = node_budget
        self._scale = scale if scale is not None else returns_scale(None, "outcome", "proof search")
        self.nodes = 0
        self.proofs = 0
        self._proven: dict[Hashable, float] = {}
        self._open: dict[Hashable, int] = {}  # key -> deepest search that left it unproven
        self._budget_left = 0

    def prove(self, state: State) -> float | None:
        """The exact value of ``state`` for its player to move, or ``None``."""
        self._budget_left = self.node_budget
        try:
            value = self._search(state, self.depth)
        except _OutOfBudget:
            return None
        if value is not None:
            self.proofs += 1
        return value

    def _search(self, state: State, depth: int) -> float | None:
        player = state.current_player()
        if state.is_terminal():
            return self._scale(state.returns())[player]
        key = state.key()
        proven = self._proven.get(key)
        if proven is not None:
            return proven
        if depth == 0 or self._open.get(key, -1) >= depth:
            return None
        self._budget_left -= 1
        self.nodes += 1
        if self._budget_left < 0:
            raise _OutOfBudget
        best: float | None = None
        is_open = False
        for action in state.legal_actions():
            child = state.apply(action)
            value = self._search(child, depth - 1)
            if value is None:
                is_open = True
                continue
            if child.current_player() != player:
                value = 0.0 - value  # zero-sum; 0.0 - keeps draws at +0.0
            if value > 0:
                best = value
                is_open = False
                break
            if best is None or value > best:
                best = value
        if is_open or best is None:
            self._open[key] = depth
            return None
        self._proven[key] = best
        return best
