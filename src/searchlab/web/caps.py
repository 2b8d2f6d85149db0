"""Server-side caps on what one request may ask: :class:`ServerCaps`.

A client cannot ask for more than a cap: a request over one is refused with one line naming
the cap (HTTP 400, or an ``error`` message on the search websocket); a request that gives no
budget gets :meth:`ServerCaps.default_limits`, within the caps. Every search also runs under the
time cap (the library stops it there), and a worker that overruns the cap by
:attr:`ServerCaps.grace` seconds is killed and replaced.

>>> caps = ServerCaps()
>>> caps.time, caps.simulations, caps.depth
(10.0, 50000, 12)
>>> caps.check("simulations", 60_000)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: simulations 60000 is over the server's cap of 50000
>>> ServerCaps(time=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: ServerCaps.time must be a finite number > 0, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from searchlab.core.errors import InvalidParameterError

__all__ = ["ServerCaps"]


@dataclass(frozen=True, slots=True)
class ServerCaps:
    """The most one request may ask of the server.

    Attributes:
        time: seconds one search may run (also the default time budget's ceiling).
        simulations: Monte Carlo simulations per search.
        nodes: nodes (game-tree search) or expansions (path search) per search.
        depth: plies of a depth-limited search.
        map_cells: ``width * height`` of a grid map sent or chosen for a path search.
        tree_leaves: leaves of an explicit game tree (the Trees lab, exercises).
        concurrent: searches one client (one websocket) may run at once.
        moves: moves in one position's move list.
        queue: searches waiting for a worker before new ones are refused (HTTP 429).
        grace: seconds past a search's time cap before its worker is killed and replaced.
        memory_mb: address space of a worker process (a runaway request fails with an error
            instead of exhausting the machine).
    """

    time: float = 10.0
    simulations: int = 50_000
    nodes: int = 2_000_000
    depth: int = 12
    map_cells: int = 1_000_000
    tree_leaves: int = 2_000
    concurrent: int = 2
    moves: int = 2_000
    queue: int = 256
    grace: float = 3.0
    memory_mb: int = 4096

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidParameterError(
                    f"ServerCaps.{field.name} must be a number, got {value!r}"
                )
            if field.type in ("float", float):
                if not (math.isfinite(value) and value > 0):
                    raise InvalidParameterError(
                        f"ServerCaps.{field.name} must be a finite number > 0, got {value!r}"
                    )
            elif not isinstance(value, int) or value < 1:
                raise InvalidParameterError(
                    f"ServerCaps.{field.name} must be a whole number >= 1, got {value!r}"
                )

    def check(self, name: str, value: float | int | None) -> None:
        """Raise ``InvalidParameterError`` naming the cap when ``value`` is over cap ``name``
        (``None``: nothing asked, nothing to check).

        >>> ServerCaps().check("time", 10.0) is None
        True
        """
        if value is None:
            return
        cap = getattr(self, name)
        if value > cap:
            unit = " s" if name == "time" else ""
            raise InvalidParameterError(
                f"{name} {value:g}{unit} is over the server's cap of {cap:g}{unit}"
                if isinstance(value, float)
                else f"{name} {value} is over the server's cap of {cap}{unit}"
            )

    @property
    def hard_seconds(self) -> float:
        """Seconds after which a running job's worker is killed: the time cap plus the grace."""
        return self.time + self.grace
