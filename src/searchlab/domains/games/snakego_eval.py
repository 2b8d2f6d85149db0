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

__all__ = ["SnakeGoEvaluation", "material", "neighbours", "territory"]

_SQUASH = 0.99  # an estimate stays strictly inside the utility bounds, below a proven result


@lru_cache(maxsize=16)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """The 4-neighbours (cell indices ``y * size + x``) of every cell of a ``size`` board.

    >>> neighbours(3)[4]
    (7, 1, 3, 5)
    """
    table = []
    for index in range(size * size):
        y, x = divmod(index, size)
        table.append(
            tuple(
                (y + dy) * size + x + dx
                for dx, dy in ((0, 1), (0, -1), (-1, 0), (1, 0))
                if 0 <= x + dx < size and 0 <= y + dy < size
            )
        )
    return tuple(table)


def territory(state: SnakeGoState) -> tuple[int, int]:
    """Empty cells each player's snake heads reach strictly first (see the module docstring)."""
    size = state.game.size
    seen = bytearray(1 if owner != -1 else 0 for owner in state.walls)
    fronts: list[set[int]] = [set(), set()]
    for player, snakes in enumerate(state.snakes):
        for snake in snakes:
            for x, y in snake.cells:
                seen[y * size + x] = 1
            x, y = snake.cells[0]
            fronts[player].add(y * size + x)
    around = neighbours(size)
    counts = [0, 0]
    while fronts[0] or fronts[1]:
        reached = [
            {cell for head in front for cell in around[head] if not seen[cell]} for front in fronts
        ]
        both = reached[0] & reached[1]
        for cell in reached[0] | reached[1]:
            seen[cell] = 1
        counts[0] += len(reached[0]) - len(both)
        counts[1] += len(reached[1]) - len(both)
        fronts = reached  # a cell reached by both at once leads on for both
    return counts[0], counts[1]


def material(state: SnakeGoState, bank: float = 1.0, ray: float = 2.0) -> tuple[float, float]:
    """Per player: snake cells + owned wall cells + ``bank`` x length bank + ``ray`` x rays."""
    totals = [0.0, 0.0]
    for owner in state.walls:
        if owner != -1:
            totals[owner] += 1
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
