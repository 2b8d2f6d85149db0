"""Evaluation functions for depth-limited Othello play: mobility, corners, discs.

An :data:`~searchlab.core.game.Evaluation` maps a non-terminal state to an estimate in
``(-1, 1)`` for the player to move. :class:`OthelloEvaluation` is a weighted sum of three
classic features, each scaled to ``[-1, 1]`` and all antisymmetric (the same board with the
other side to move gets the opposite value):

* **mobility** — legal moves of the mover minus the opponent's, over their sum: the main
  positional factor in the middle game (few moves forces bad ones);
* **corners** — corners held by the mover minus the opponent's, over 4: a corner disc can
  never be turned;
* **discs** — disc difference over the disc total: what counts at the end, misleading early.

Plug in other weights, or any function ``state -> float`` of your own, wherever an
``evaluate=`` is accepted (e.g. :func:`~searchlab.algorithms.adversarial.negamax.negamax`).

>>> from searchlab.domains.games.othello import Othello
>>> evaluate = OthelloEvaluation()
>>> state = Othello().initial_state().apply(37)  # f5: O 1 disc, X 4; 3 moves each
>>> round(evaluate(state), 3)  # 0.99 * (1 * 0 + 2 * 0 + 0.25 * -0.6) / 3.25
-0.046
>>> round(OthelloEvaluation(mobility=0, corners=0, discs=1)(state), 3)  # O's view: (1-4)/5
-0.594
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.othello import OthelloState
from searchlab.domains.games.othello.bits import legal_moves

__all__ = ["CORNERS", "OthelloEvaluation", "corner_balance", "disc_balance", "mobility_balance"]

CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
"""Bitboard of a1, h1, a8, h8."""
_SQUASH = 0.99  # keep a full-weight estimate strictly inside (-1, 1), below a proven result


def mobility_balance(state: OthelloState) -> float:
    """``(mover's moves - opponent's moves) / (sum)``, 0 when neither can move."""
    mine, theirs = state.mover_bits()
    own = int(legal_moves(np.uint64(mine), np.uint64(theirs))).bit_count()
    other = int(legal_moves(np.uint64(theirs), np.uint64(mine))).bit_count()
    return (own - other) / (own + other) if own + other else 0.0


def corner_balance(state: OthelloState) -> float:
    """``(mover's corners - opponent's corners) / 4``."""
    mine, theirs = state.mover_bits()
    return ((mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count()) / 4


def disc_balance(state: OthelloState) -> float:
    """``(mover's discs - opponent's discs) / (sum)``."""
    mine, theirs = state.mover_bits()
    own, other = mine.bit_count(), theirs.bit_count()
    return (own - other) / (own + other) if own + other else 0.0


@dataclass(frozen=True, slots=True)
class OthelloEvaluation:
    """``weighted mean of (mobility, corners, discs) * 0.99``, for the player to move.

    Weights are non-negative and not all zero; the defaults (1, 2, 0.25) favour mobility and
    corners, as a middle-game player should.
    """

    mobility: float = 1.0
    corners: float = 2.0
    discs: float = 0.25

    def __post_init__(self) -> None:
        weights = (self.mobility, self.corners, self.discs)
        if any(not isinstance(w, int | float) or isinstance(w, bool) or w < 0 for w in weights):
            raise InvalidParameterError(
                f"OthelloEvaluation weights must be numbers >= 0, got {weights!r}"
            )
        if not sum(weights):
            raise InvalidParameterError("OthelloEvaluation needs at least one weight > 0")

    def __call__(self, state: OthelloState) -> float:
        total = self.mobility + self.corners + self.discs
        value = 0.0
        if self.mobility:
            value += self.mobility * mobility_balance(state)
        if self.corners:
            value += self.corners * corner_balance(state)
        if self.discs:
            value += self.discs * disc_balance(state)
        return _SQUASH * value / total
