"""Checks of game parameters, shared by the games' constructors: each bad value is one
:class:`~searchlab.core.errors.InvalidParameterError` naming the game, the parameter and what
it may be.

Values come from Python callers and from the command line (``-p NAME=VALUE``, where numbers
arrive as ints, ``3,4,5`` as a tuple and anything else as a string), so a sequence parameter
also takes one int or the text ``"3,4,5"``.

>>> integer("gomoku", "size", 15, 5, 26)
15
>>> integer("gomoku", "size", "big", 5, 26)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: gomoku: size must be an integer in 5..26, got 'big'
>>> integers("nim", "piles", "3,4,5", 0, 100), integers("nim", "piles", 7, 0, 100)
((3, 4, 5), (7,))
>>> boolean("nim", "misere", "maybe")
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: nim: misere must be true or false, got 'maybe'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = ["MAX_ITEMS", "boolean", "choice", "integer", "integers"]

MAX_ITEMS = 64
"""The most piles or heaps a game takes."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(game: str, name: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an int in ``low..high``; else a one-line error."""
    if not _is_int(value) or not low <= value <= high:
        raise InvalidParameterError(
            f"{game}: {name} must be an integer in {low}..{high}, got {value!r}"
        )
    return int(value)


def integers(
    game: str, name: str, value: Any, low: int, high: int, *, max_items: int = MAX_ITEMS
) -> tuple[int, ...]:
    """A non-empty tuple of at most ``max_items`` ints in ``low..high``, from a sequence, one
    int, or text like ``"3,4,5"``; else a one-line error."""
    items: Any = value
    if _is_int(value):
        items = (value,)
    elif isinstance(value, str):
        try:
            items = tuple(int(part) for part in value.split(","))
        except ValueError:
            items = None
    elif not isinstance(value, Sequence):
        items = None
    if (
        items is None
        or not 1 <= len(items) <= max_items
        or not all(_is_int(item) and low <= item <= high for item in items)
    ):
        raise InvalidParameterError(
            f"{game}: {name} must be 1 to {max_items} integers in {low}..{high} "
            f"(like 3,4,5), got {value!r}"
        )
    return tuple(int(item) for item in items)


def boolean(game: str, name: str, value: Any) -> bool:
    """``value`` if it is a bool; else a one-line error."""
    if not isinstance(value, bool):
        raise InvalidParameterError(f"{game}: {name} must be true or false, got {value!r}")
    return value


def choice(game: str, name: str, value: Any, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``; else a one-line error listing them."""
    if not isinstance(value, str) or value not in choices:
        quoted = ", ".join(repr(c) for c in choices)
        raise InvalidParameterError(f"{game}: {name} must be one of {quoted}, got {value!r}")
    return value
