"""What the jobs share: a number as JSON holds it, a position from its payload."""

from __future__ import annotations

import math
from typing import Any

from searchlab.core.game import Game, State, play
from searchlab.domains.games import make

__all__ = ["json_number", "position"]


def json_number(value: float | None) -> float | int | str | None:
    """A number as JSON can hold it: infinities as ``"inf"``/``"-inf"``, NaN as ``None``,
    whole floats as ints.

    >>> json_number(float("-inf")), json_number(3.0), json_number(0.25)
    ('-inf', 3, 0.25)
    """
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def position(payload: dict[str, Any]) -> tuple[Game, State]:
    """The game (registered name and parameters) and the state after the payload's moves."""
    game = make(payload["game"], **payload.get("params", {}))
    state = play(game.initial_state(), list(payload.get("moves", [])))
    return game, state
