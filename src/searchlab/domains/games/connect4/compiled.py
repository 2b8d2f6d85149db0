"""Connect Four for the compiled MCTS: the four game functions of
:mod:`~searchlab.algorithms.mcts._kernel_loop` on Pons' bitboards, as a :class:`CompiledGame`.

A position is ``(current, mask)`` as int64 (see :mod:`searchlab.domains.games.connect4`):
``current`` holds the stones of the player to move, ``mask`` every stone. Actions are the
columns 0..6, as in :class:`~searchlab.domains.games.connect4.Connect4State`. A finished game
is worth -1 to the player to move when the previous player made four, else 0 (a full board).

>>> import numpy as np
>>> out = np.zeros(7, dtype=np.int16)
>>> actions(0, 0, out, 0), out.tolist()
(7, [0, 1, 2, 3, 4, 5, 6])
>>> status(*play(0, 0, 3), 0)
(False, 0.0)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.core.compiled_game import CompiledGame
from searchlab.core.compiled_rng import next_below
from searchlab.domains.games.connect4 import Connect4State
from searchlab.domains.games.connect4.bits import BOARD, WIDTH, can_play, drop, has_four

__all__ = ["COMPILED", "MAX_BRANCHING", "actions", "play", "rollout", "status"]

MAX_BRANCHING = WIDTH


@njit(cache=True)
def actions(current, mask, out, offset):  # pragma: no cover - compiled
    """The non-full columns, in increasing order, written from ``out[offset]``; their count."""
    n = 0
    for column in range(WIDTH):
        if can_play(mask, column):
            out[offset + n] = column
            n += 1
    return n


@njit(cache=True)
def play(current, mask, column):  # pragma: no cover - compiled
    """Drop the mover's stone into ``column``: the position for the other player."""
    move = drop(mask, column)
    mask = mask | move
    return (current | move) ^ mask, mask


@njit(cache=True)
def status(current, mask, scoring):  # pragma: no cover - compiled
    """``(is_terminal, return for the player to move)``."""
    if has_four(current ^ mask):
        return True, -1.0
    if mask == BOARD:
        return True, 0.0
    return False, 0.0


@njit(cache=True)
def rollout(current, mask, rng, scoring):  # pragma: no cover - compiled
    """Uniformly random columns to the end of the game from a non-terminal position:
    ``(return for the player to move here, rng)``. A column is drawn among all seven and drawn
    again while full (uniform over the open ones; fewer draws than counting them)."""
    sign = 1.0
    while True:
        while True:
            rng, column = next_below(rng, WIDTH)
            if can_play(mask, column):
                break
        move = drop(mask, column)
        mine = current | move
        if has_four(mine):
            return sign, rng
        mask |= move
        if mask == BOARD:
            return 0.0, rng
        current = mine ^ mask
        sign = -sign


def _encode(state: Connect4State) -> tuple[np.int64, np.int64]:
    return np.int64(state.current), np.int64(state.mask)


COMPILED = CompiledGame(
    name="connect4", actions=actions, play=play, status=status, rollout=rollout,
    encode=_encode, max_branching=MAX_BRANCHING,
    num_actions=MAX_BRANCHING,
)  # fmt: skip
"""Connect Four's rules for the compiled MCTS, registered for
:class:`~searchlab.domains.games.connect4.Connect4` (:mod:`searchlab.algorithms.kernels`)."""
