"""Budgets for a search, as one immutable object.

Every field is optional; ``None`` means unbounded. A search stops at the first limit it reaches
and reports that in its result (``status == "limit"``) instead of raising.

>>> Limits(expansions=10_000, time=2.5)
Limits(expansions=10000, time=2.5)
>>> Limits(time=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: Limits.time must be > 0 seconds, got 0
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from searchlab.core.errors import InvalidParameterError

__all__ = ["Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one search.

    Attributes:
        expansions: most nodes a best-first or depth-first search may expand.
        time: most wall-clock seconds.
        depth: deepest ply or cost bound a depth-limited search may reach.
        nodes: most nodes a game-tree search may visit.
        simulations: most simulations (playouts) a Monte Carlo search may run.
    """

    expansions: int | None = None
    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidParameterError(f"Limits.{field.name} must be a number, got {value!r}")
            if field.name != "time" and not float(value).is_integer():
                raise InvalidParameterError(
                    f"Limits.{field.name} must be a whole number, got {value!r}"
                )
            if value <= 0:
                unit = " seconds" if field.name == "time" else ""
                raise InvalidParameterError(f"Limits.{field.name} must be > 0{unit}, got {value!r}")

    def __repr__(self) -> str:
        parts = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) is not None
        ]
        return f"Limits({', '.join(parts)})"


UNLIMITED = Limits()
