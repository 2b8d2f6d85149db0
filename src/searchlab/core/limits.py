"""Budgets for a search, as one immutable object, checked where they are made.

Every field is optional; ``None`` means unbounded. A search stops at the first limit it reaches
and reports that in its result (``status == "limit"``) instead of raising. Every number is
checked here, once, so that no search has to: counts are whole numbers from 1 to
:data:`MAX_COUNT` (they fit the compiled kernels' 64-bit integers), ``time`` is a finite number
of seconds > 0 (a NaN or infinite time would be a search that never ends).

>>> Limits(expansions=10_000, time=2.5)
Limits(expansions=10000, time=2.5)
>>> Limits(time=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: Limits.time must be > 0 seconds, got 0
>>> Limits(time=float("nan"))
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: Limits.time must be a finite number of seconds, got nan
>>> Limits(simulations=10**20)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: Limits.simulations must be at most 92233...
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from searchlab.core.errors import InvalidParameterError

__all__ = ["MAX_COUNT", "UNLIMITED", "Limits"]

MAX_COUNT = 2**63 - 1
"""The largest count a limit may hold: the largest signed 64-bit integer (the compiled
kernels count in int64)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one search.

    Attributes:
        expansions: most nodes a best-first or depth-first search may expand.
        time: most wall-clock seconds (finite, > 0).
        depth: deepest ply or cost bound a depth-limited search may reach.
        nodes: most nodes a game-tree search may visit.
        simulations: most simulations (playouts) a Monte Carlo search may run.

    Counts are whole numbers in ``[1, MAX_COUNT]``; any other value raises
    :class:`~searchlab.core.errors.InvalidParameterError` quoting it.
    """

    expansions: int | None = None
    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is not None:
                _check(field.name, value)

    def __repr__(self) -> str:
        parts = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) is not None
        ]
        return f"Limits({', '.join(parts)})"


def _check(name: str, value: object) -> None:
    """Raise ``InvalidParameterError`` quoting ``value`` unless it is a valid ``name``."""
    where = f"Limits.{name}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidParameterError(f"{where} must be a number, got {value!r}")
    if name == "time":
        if not math.isfinite(value):
            raise InvalidParameterError(
                f"{where} must be a finite number of seconds, got {value!r}"
            )
        if value <= 0:
            raise InvalidParameterError(f"{where} must be > 0 seconds, got {value!r}")
        return
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise InvalidParameterError(f"{where} must be a whole number, got {value!r}")
    if value <= 0:
        raise InvalidParameterError(f"{where} must be > 0, got {value!r}")
    if value > MAX_COUNT:
        raise InvalidParameterError(
            f"{where} must be at most {MAX_COUNT} (a 64-bit integer), got {value!r}"
        )


UNLIMITED = Limits()
