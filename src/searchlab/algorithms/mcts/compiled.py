"""The compiled tier of MCTS (numba kernels for the built-in games).

``compiled_mcts`` is the one entry point :func:`searchlab.algorithms.mcts.mcts` calls when
``tier`` allows it. It returns ``None`` when the game (or an option) has no compiled path, and
the reference tier runs instead.
"""

from __future__ import annotations

from searchlab.core.game import Game, State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["compiled_mcts"]


def compiled_mcts(
    game: Game,
    state: State,
    *,
    limits: Limits,
    c: float,
    seed: int | None,
    final_move: str,
    solver: bool,
) -> SearchResult | None:
    """Compiled UCT with uniform random rollouts, or ``None`` where there is no kernel."""
    return None
