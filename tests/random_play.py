"""Random positions for tests: a seeded walk of uniformly random moves.

>>> import random
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> random_walk(TicTacToe().initial_state(), 3, random.Random(1)).stones
3
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def random_walk(
    state: Any, plies: int, rng: random.Random, moves: Callable[[Any], list[Any]] | None = None
) -> Any:
    """``state`` after ``plies`` moves drawn by ``rng`` from ``moves(state)`` (by default its
    legal actions), or the terminal state where the game ended first."""
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(moves(state) if moves else state.legal_actions()))
    return state
