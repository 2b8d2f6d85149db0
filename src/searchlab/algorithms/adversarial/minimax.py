"""Minimax: the value of a game tree when both players play perfectly (textbook MAX/MIN form).

Player 0 is MAX, player 1 is MIN; internally values are player 0's, and the returned
:class:`~searchlab.core.search_result.SearchResult` gives them for the player to move at the
root. A node maximises or minimises by its own player to move (``state.current_player()``),
not by its depth, so a player who moves several plies in a row (Snake Go) is searched as such.
Every node of the tree is visited (see alpha-beta for the same value with fewer nodes). With
``depth``, non-terminal nodes at that ply are scored by ``evaluate`` (value for the player to
move there) and the result is not proven. Ties go to the first action in ``legal_actions()``
order; this textbook version does not prefer faster wins (the negamax engine and the solver
do).

>>> from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
>>> game = ExplicitTreeGame(ExplicitTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
>>> result = minimax(game)
>>> result.value, result.action, result.nodes, result.is_proven
(3.0, 0, 13, True)
"""

from __future__ import annotations

import math
import time

from searchlab.algorithms.adversarial._common import TextbookEngine, prepare_search, result_of
from searchlab.core.game import Evaluation, Game, State
from searchlab.core.observer import Observer
from searchlab.core.search_result import SearchResult

__all__ = ["minimax"]


class _Minimax(TextbookEngine):
    def search(self, state: State, path: tuple[int, ...], ply: int) -> tuple[float, list[int]]:
        leaf = self.enter(state, path, ply, -math.inf, math.inf)
        if leaf is not None:
            return self.leave(state, path, *leaf)
        maximizing = state.current_player() == 0
        value = -math.inf if maximizing else math.inf
        line: list[int] = []
        for action in state.legal_actions():
            child_value, child_line = self.search(state.apply(action), (*path, action), ply + 1)
            if (child_value > value) if maximizing else (child_value < value):
                value, line = child_value, [action, *child_line]
        return self.leave(state, path, value, line)


def minimax(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluation | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """Minimax value and best action of ``state`` (default: the initial state).

    Args:
        game: a two-player, zero-sum, deterministic, perfect-information game.
        state: the root position.
        depth: plies to search before calling ``evaluate`` (``None``: to the end of the game).
        evaluate: horizon estimate for the player to move (required with ``depth``).
        observer: receives :class:`~searchlab.core.game_events.Visit` and ``Backup`` events.

    Raises:
        InvalidParameterError: the game lacks a capability, or a bad depth / no evaluate.
    """
    root = prepare_search(game, state, "minimax", depth, evaluate)
    engine = _Minimax(depth, evaluate, observer)
    start = time.perf_counter()
    value, line = engine.search(root, (), 0)
    return result_of("minimax", root, value, line, engine, time.perf_counter() - start, depth)
