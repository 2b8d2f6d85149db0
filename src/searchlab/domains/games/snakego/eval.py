"""A hand-written evaluation of Snake Go positions, for depth-limited search (alpha-beta).

A half is scored by cells: a player's snake cells plus the wall cells they own. The evaluation
estimates the final score margin of the player to move (mover minus opponent), in cells:

* **material** — snake cells + owned wall cells (the score now) + ``bank`` x the length bank
  (cells the snakes will grow by) + ``ray`` x the melt rays held;
* **territory** (Voronoi by breadth-first search) — the empty cells (no wall, no snake) that
  one player's snake heads reach in strictly fewer 4-connected steps over empty cells than the
  other's; cells both reach in the same number of steps are nobody's. Territory is room to move, eat
  and enclose, worth ``territory`` cells per cell, fading out over the last ``size`` rounds
  (``x min(1, rounds left / size)``) since it turns into score only with time.

The margin is turned into the units of the game's returns (the
:data:`~searchlab.core.game.Evaluation` contract), for the player to move:

* ``scoring="win_loss"`` (returns +-1): ``0.99 * tanh((margin + tie) / scale)``, where ``tie``
  is ``+0.5`` for player 1 and ``-0.5`` for player 0 (an equal score is player 1's win) and
  ``scale`` defaults to ``size / 2`` cells;
* ``scoring="score_difference"`` (returns in ``[-size^2, size^2]``):
  ``0.99 * U * tanh(margin / U)`` with ``U = size^2``: about the margin itself, strictly inside
  the bounds.

>>> from searchlab.domains.games.snakego import SnakeGo
>>> state = SnakeGo(seed=0, size=8).initial_state()  # one cell each, opposite corners
>>> territory(state)  # 62 empty cells, less the 8 of the diagonal x == y (reached together)
(27, 27)
>>> round(SnakeGoEvaluation()(state), 3)  # symmetric: only the tie rule, against player 0
-0.123
>>> SnakeGoEvaluation()(SnakeGo(seed=0, size=8, scoring="score_difference").initial_state())
0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.snakego import SnakeGoState

__all__ = ["SnakeGoEvaluation", "material", "territory"]

_SQUASH = 0.99  # an estimate stays strictly inside the utility bounds, below a proven result


@lru_cache(maxsize=16)
def _edges(size: int) -> tuple[int, int, int]:
    """Bitboards (bit ``y * size + x``) of a ``size`` board: every cell, every cell but the
    right column, every cell but the left column."""
    full = (1 << (size * size)) - 1
    left = sum(1 << (y * size) for y in range(size))
    return full, full & ~(left << (size - 1)), full & ~left


_WALL_BITS: dict[int, tuple[tuple[int, ...], int]] = {}


def _wall_bits(walls: tuple[int, ...]) -> int:
    """The wall cells as a bitboard, cached per walls tuple (moves pass the same tuple on)."""
    entry = _WALL_BITS.get(id(walls))
    if entry is not None and entry[0] is walls:
        return entry[1]
    bits = int("".join("0" if owner == -1 else "1" for owner in reversed(walls)), 2)
    if len(_WALL_BITS) >= 64:
        _WALL_BITS.clear()
    _WALL_BITS[id(walls)] = (walls, bits)  # the tuple is kept: its id is not reused meanwhile
    return bits


def territory(state: SnakeGoState) -> tuple[int, int]:
    """Empty cells each player's snake heads reach strictly first (see the module docstring).

    Breadth-first, one layer at a time for both players at once, on bitboards: a layer is the
    previous one shifted to its 4 neighbours, less the cells seen. A cell both reach in the
    same layer counts for neither and leads on for both (the opponent's path may pass it).
    """
    size = state.game.size
    full, no_right, no_left = _edges(size)
    seen = _wall_bits(state.walls)
    fronts = [0, 0]
    for player, snakes in enumerate(state.snakes):
        for snake in snakes:
            for x, y in snake.cells:
                seen |= 1 << (y * size + x)
            x, y = snake.cells[0]
            fronts[player] |= 1 << (y * size + x)
    mine, theirs = fronts
    counts = [0, 0]
    while mine | theirs:
        free = full & ~seen
        mine = (
            ((mine & no_right) << 1) | ((mine & no_left) >> 1) | (mine << size) | (mine >> size)
        ) & free
        theirs = (
            ((theirs & no_right) << 1)
            | ((theirs & no_left) >> 1)
            | (theirs << size)
            | (theirs >> size)
        ) & free
        both = mine & theirs
        counts[0] += (mine ^ both).bit_count()
        counts[1] += (theirs ^ both).bit_count()
        seen |= mine | theirs
    return counts[0], counts[1]


def material(state: SnakeGoState, bank: float = 1.0, ray: float = 2.0) -> tuple[float, float]:
    """Per player: snake cells + owned wall cells + ``bank`` x length bank + ``ray`` x rays."""
    totals = [float(state.walls.count(0)), float(state.walls.count(1))]
    for player, snakes in enumerate(state.snakes):
        for snake in snakes:
            totals[player] += len(snake.cells) + bank * snake.bank + (ray if snake.ray else 0)
    return totals[0], totals[1]


@dataclass(frozen=True, slots=True)
class SnakeGoEvaluation:
    """The estimated final score margin of the player to move, in the game's units (see the
    module docstring).

    Attributes:
        territory: worth of one territory cell, in score cells.
        bank: worth of one unit of length bank.
        ray: worth of a melt ray held.
        scale: win/loss scoring only: the margin (cells) at which ``tanh`` reaches 0.76;
            ``None``: half the board's side.
    """

    territory: float = 0.5
    bank: float = 1.0
    ray: float = 2.0
    scale: float | None = None

    def __post_init__(self) -> None:
        weights = (self.territory, self.bank, self.ray)
        if any(not isinstance(w, int | float) or isinstance(w, bool) or w < 0 for w in weights):
            raise InvalidParameterError(
                f"SnakeGoEvaluation weights must be numbers >= 0, got {weights!r}"
            )
        if self.scale is not None and (
            not isinstance(self.scale, int | float)
            or isinstance(self.scale, bool)
            or not self.scale > 0
        ):
            raise InvalidParameterError(
                f"SnakeGoEvaluation scale must be a number > 0 or None, got {self.scale!r}"
            )

    def margin(self, state: SnakeGoState) -> float:
        """The estimated final score of the player to move minus the opponent's, in cells."""
        game = state.game
        own = material(state, self.bank, self.ray)
        mover = state.player
        margin = own[mover] - own[1 - mover]
        if self.territory:
            left = game.rounds - state.round + 1
            weight = self.territory * min(1.0, left / game.size)
            if weight > 0:
                reach = territory(state)
                margin += weight * (reach[mover] - reach[1 - mover])
        return margin

    def __call__(self, state: SnakeGoState) -> float:
        """The value of the non-terminal ``state`` for the player to move."""
        game = state.game
        margin = self.margin(state)
        if game.scoring == "score_difference":
            bound = float(game.size * game.size)
            return _SQUASH * bound * math.tanh(margin / bound)
        tie = 0.5 if state.player == 1 else -0.5
        scale = self.scale if self.scale is not None else game.size / 2
        return _SQUASH * math.tanh((margin + tie) / scale)
