"""Seeded random positions of a game, for the tests that check a property over many of them."""

from __future__ import annotations

import random
from typing import Any


def random_positions(
    game: Any, count: int, seed: int, plies: range, *, terminal: bool = False
) -> list[Any]:
    """``count`` positions of ``game``, each reached from its start by uniformly random moves,
    as many as drawn from ``plies`` (fewer when the game ends first); a finished game's
    position is kept only when ``terminal``. The same arguments give the same positions."""
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(plies.start, plies.stop)):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if terminal or not state.is_terminal():
            positions.append(state)
    return positions
