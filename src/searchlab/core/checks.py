"""Checks of a number given as an option, and of a config table's keys, written once: every
options object and config of the searches (``MCTSOptions``, self-play, the AlphaGo pipeline,
a network's settings) checks its numbers and keys here, so a bad value or an unknown key reads
the same everywhere: one :class:`~searchlab.core.errors.InvalidParameterError` line naming who
asked, the option, the range and the value (the unknown keys and the known ones).

>>> check_number(0.5, "c", owner="mcts", low=0.0)
>>> check_number(float("nan"), "c", owner="mcts", low=0.0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: mcts: c must be a finite number >= 0, got nan
>>> check_number(0, "alpha", owner="selfplay", low=0.0, high=1.0, open_low=True)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: selfplay: alpha must be a finite number in (0, \
1], got 0
>>> check_integer(True, "batch_size", owner="puct", low=1)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: puct: batch_size must be an integer >= 1, got True
>>> check_keys({"seed": 1, "lambda": 0.5}, ["seed", "games"], owner="alphago")
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago: unknown key lambda; known: seed, games
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard

from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import MAX_COUNT

__all__ = ["check_integer", "check_keys", "check_number", "is_finite_number"]


def is_finite_number(value: Any) -> TypeGuard[int | float]:
    """True when ``value`` is a finite real number: an int or a float, not a bool, not nan or
    infinite.

    >>> is_finite_number(3), is_finite_number(True), is_finite_number(float("inf"))
    (True, False, False)
    """
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def check_number(
    value: Any,
    name: str,
    *,
    owner: str,
    low: float,
    high: float = math.inf,
    open_low: bool = False,
) -> None:
    """Nothing when ``value`` is a finite real number (not a bool) in ``[low, high]`` (``(low,
    high]`` with ``open_low``); else one ``InvalidParameterError`` line, ``owner`` first."""
    ok = is_finite_number(value) and (low < value if open_low else low <= value) and value <= high
    if not ok:
        if high == math.inf:
            bound = f"{'>' if open_low else '>='} {low:g}"
        else:
            bound = f"in {'(' if open_low else '['}{low:g}, {high:g}]"
        raise InvalidParameterError(
            f"{owner}: {name} must be a finite number {bound}, got {value!r}"
        )


def check_integer(value: Any, name: str, *, owner: str, low: int) -> None:
    """Nothing when ``value`` is an integer (not a bool) ``>= low`` that fits 64 bits (at most
    :data:`~searchlab.core.limits.MAX_COUNT`, as every count of the searches: a config's
    ``simulations = 10**20`` is a line, not an array numpy cannot make); else one
    ``InvalidParameterError`` line, ``owner`` first."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidParameterError(f"{owner}: {name} must be an integer >= {low}, got {value!r}")
    if value > MAX_COUNT:
        raise InvalidParameterError(
            f"{owner}: {name} must be at most {MAX_COUNT} (a 64-bit integer), got {value!r}"
        )


def check_keys(given: Iterable[Any], known: Iterable[str], *, owner: str) -> None:
    """Nothing when every key of ``given`` (a config table, or its keys) is in ``known``; else
    one ``InvalidParameterError`` line, ``owner`` first, naming every unknown key (``unknown
    key K`` or ``unknown keys K1, K2``) and then the known ones, in their order.

    >>> check_keys({"depth": 1, "width": 2}, ("kind", "blocks"), owner="network")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: network: unknown keys depth, width; known: \
kind, blocks
    """
    names = list(known)
    unknown = [str(key) for key in given if key not in names]
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise InvalidParameterError(
            f"{owner}: unknown key{plural} {', '.join(unknown)}; known: {', '.join(names)}"
        )
