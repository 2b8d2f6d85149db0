"""The goal boards of sliding-tile puzzles, in the two conventions a puzzle accepts.

* ``"blank-first"``: ``0 1 2 ... n*n-1`` (blank top-left; Korf's convention);
* ``"blank-last"``: ``1 2 ... n*n-1 0`` (blank bottom-right).

Shared by the puzzle (:mod:`searchlab.domains.path.sliding_tile`) and its pattern databases
(:mod:`searchlab.domains.path.sliding_tile_pdb`), which import this module and not each other.

>>> goal_tiles(3, "blank-first")
(0, 1, 2, 3, 4, 5, 6, 7, 8)
>>> goal_tiles(3, "blank-last")
(1, 2, 3, 4, 5, 6, 7, 8, 0)
"""

from __future__ import annotations

from typing import Literal

from searchlab.core.errors import InvalidParameterError

__all__ = ["GOALS", "Goal", "check_goal", "goal_tiles"]

Goal = Literal["blank-first", "blank-last"]

GOALS: tuple[str, ...] = ("blank-first", "blank-last")
"""The goal conventions a puzzle accepts."""


def check_goal(goal: str) -> None:
    """Raise ``InvalidParameterError`` unless ``goal`` is one of :data:`GOALS`."""
    if goal not in GOALS:
        raise InvalidParameterError(f"unknown goal {goal!r}: expected one of {', '.join(GOALS)}")


def goal_tiles(size: int, goal: str = "blank-first") -> tuple[int, ...]:
    """The goal board of an ``size x size`` puzzle (row-major, ``0`` the blank)."""
    check_goal(goal)
    cells = size * size
    if goal == "blank-first":
        return tuple(range(cells))
    return (*range(1, cells), 0)
