"""Othello for the compiled MCTS: the four game functions of
:mod:`~searchlab.algorithms.mcts._kernel_loop` on the bitboards of
:mod:`searchlab.domains.games.othello.bits`, as a :class:`CompiledGame`.

A position is ``(player, opponent)`` as uint64, the side to move first. Actions are those of
:class:`~searchlab.domains.games.othello.OthelloState`: the squares ``0..63`` in increasing
order, or the single action ``PASS`` (64) when only the opponent can move. A finished game is
worth, for the player to move, the sign of the final disc difference (empty squares to the
winner): ``scoring`` :data:`OUTCOME`, the ``"outcome"`` value scale (and the ``"win_loss"``
rule's returns); or that difference over :data:`MAX_UTILITY` (``scoring`` :data:`NORMALISED`,
the ``"discs"`` rule's returns on the ``"normalised"`` scale).

>>> import numpy as np
>>> black, white = np.uint64((1 << 28) | (1 << 35)), np.uint64((1 << 27) | (1 << 36))
>>> out = np.zeros(64, dtype=np.int16)
>>> n = actions(black, white, out, 0)
>>> out[:n].tolist()   # d3, c4, f5, e6
[19, 26, 37, 44]
>>> status(*play(black, white, 19), 0)
(False, 0.0)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.core.compiled_game import CompiledGame
from searchlab.core.compiled_rng import next_below
from searchlab.domains.games.othello import OthelloState
from searchlab.domains.games.othello.bits import count_discs, final_score, flips, legal_moves

__all__ = [
    "COMPILED",
    "MAX_BRANCHING",
    "MAX_UTILITY",
    "NORMALISED",
    "OUTCOME",
    "PASS",
    "actions",
    "play",
    "rollout",
    "status",
]

PASS = 64
NORMALISED, OUTCOME = 0, 1
"""The ``scoring`` argument: the disc difference over :data:`MAX_UTILITY`, or its sign."""
MAX_UTILITY = 64.0
"""The largest disc difference (``Othello("discs").info.max_utility``)."""
MAX_BRANCHING = 64  # a bound (the most legal moves in a reachable position is 33)
_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def _lowest_square(bits):  # pragma: no cover - compiled
    """Index of the lowest set bit of a non-zero ``uint64``."""
    return count_discs((bits & (~bits + _U1)) - _U1)


@njit(cache=True)
def actions(player, opponent, out, offset):  # pragma: no cover - compiled
    """Legal squares in increasing order, or ``PASS`` alone, written from ``out[offset]``;
    their count (0 only for a finished game)."""
    moves = legal_moves(player, opponent)
    n = 0
    while moves:
        out[offset + n] = _lowest_square(moves)
        moves &= moves - _U1
        n += 1
    if n == 0 and legal_moves(opponent, player) != _U0:
        out[offset] = PASS
        n = 1
    return n


@njit(cache=True)
def play(player, opponent, square):  # pragma: no cover - compiled
    """The position after ``square`` (or ``PASS``), the other side to move."""
    if square == PASS:
        return opponent, player
    move = _U1 << np.uint64(square)
    flipped = flips(move, player, opponent)
    return opponent & ~flipped, player | flipped | move


@njit(cache=True, inline="always")
def _score(player, opponent, scoring):  # pragma: no cover - compiled
    difference = final_score(player, opponent)
    if scoring == OUTCOME:
        if difference > 0:
            return 1.0
        return -1.0 if difference < 0 else 0.0
    return difference / MAX_UTILITY


@njit(cache=True)
def status(player, opponent, scoring):  # pragma: no cover - compiled
    """``(is_terminal, return for the player to move)``: over when neither side can move."""
    if legal_moves(player, opponent) != _U0 or legal_moves(opponent, player) != _U0:
        return False, 0.0
    return True, _score(player, opponent, scoring)


@njit(cache=True)
def rollout(player, opponent, rng, scoring):  # pragma: no cover - compiled
    """Uniformly random legal moves (a pass when forced) to the end of the game from a
    non-terminal position: ``(return for the player to move here, rng)``."""
    sign = 1.0
    while True:
        moves = legal_moves(player, opponent)
        if moves == _U0:
            if legal_moves(opponent, player) == _U0:
                return sign * _score(player, opponent, scoring), rng
            player, opponent = opponent, player
            sign = -sign
            continue
        rng, r = next_below(rng, count_discs(moves))
        for _ in range(r):
            moves &= moves - _U1
        move = moves & (~moves + _U1)
        flipped = flips(move, player, opponent)
        player, opponent = opponent & ~flipped, player | flipped | move
        sign = -sign


def _encode(state: OthelloState) -> tuple[np.uint64, np.uint64]:
    mine, theirs = state.mover_bits()
    return np.uint64(mine), np.uint64(theirs)


def _config(state: OthelloState, value_scale: str, rollout: str) -> int:
    # win_loss returns are already +1 / 0 / -1: both scales are their sign
    outcome = value_scale == "outcome" or state.scoring == "win_loss"
    return OUTCOME if outcome else NORMALISED


COMPILED = CompiledGame(
    name="othello", actions=actions, play=play, status=status, rollout=rollout,
    encode=_encode, config=_config, max_branching=MAX_BRANCHING,
    num_actions=PASS + 1,
)  # fmt: skip
"""Othello's rules for the compiled MCTS, registered for
:class:`~searchlab.domains.games.othello.Othello` (:mod:`searchlab.algorithms.kernels`)."""
