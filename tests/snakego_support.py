"""Snake Go positions the tests share: the small hand-built boards' game and positions of
played games."""

from __future__ import annotations

import random

from searchlab.domains.games.snakego import SnakeGo, SnakeGoState
from searchlab.domains.games.snakego.policy import informed_action


def small_game(**params: object) -> SnakeGo:
    """The game of the hand-built positions: 7 x 7, no items, 30 rounds, no initial growth
    (``params`` change any of them)."""
    settings: dict[str, object] = {"items": (), "size": 7, "rounds": 30, "growth_rounds": 0}
    settings.update(params)
    return SnakeGo(**settings)  # type: ignore[arg-type]


def played_positions(
    count: int, seed: int, size: int, rounds: int, *, random_share: float, **params: object
) -> list[SnakeGoState]:
    """``count`` positions of games (item seeds ``seed * 1000 + 1, + 2, ...``) played by the
    informed policy with a share ``random_share`` of uniformly random moves (so that snakes live
    long, grow, meet, split and solidify); about 30% of each game's positions, in order."""
    rng = random.Random(seed)
    positions: list[SnakeGoState] = []
    game_seed = 0
    while len(positions) < count:
        game_seed += 1
        game = SnakeGo(seed=seed * 1000 + game_seed, size=size, rounds=rounds, **params)  # type: ignore[arg-type]
        state = game.initial_state()
        while not state.is_terminal() and len(positions) < count:
            if rng.random() < 0.3:
                positions.append(state)
            action = (
                rng.choice(state.legal_actions())
                if rng.random() < random_share
                else informed_action(state, rng)
            )
            state = state.apply(action)
    return positions
