"""Server-side caps on what one request may ask: :class:`ServerCaps`, and the budget a search
runs under: :class:`SearchBudget`.

A search runs under its agent's **own** budget (the spec's ``simulations=``, ``time=``,
``depth=``, ``nodes=``, or the kind's default: ``az`` 800 simulations, ``mcts`` 1,000,
``alphabeta`` depth 6), bounded by the caps (:meth:`ServerCaps.budget`): a value over a cap is
lowered to it, with a note saying so (``capped at 5,000 simulations by the server
(--max-simulations)``); the time, nodes and depth caps bound what the agent leaves open (a
ceiling, not a replacement: ``az`` still stops at its 800 simulations), and a search that one of
those stopped gets a note too. A time budget is not bounded by the simulations cap (``time=1``
means one second); the nodes cap bounds the tree's memory. Other requests over a cap (a map, a
tree, an exercise) are refused with one line naming the cap (HTTP 400); a worker that overruns
the time cap by :attr:`ServerCaps.grace` seconds is killed and replaced.

>>> caps = ServerCaps()
>>> caps.time, caps.simulations, caps.nodes, caps.depth
(10.0, 4000000, 4000000, 12)
>>> budget = ServerCaps(simulations=5000).budget(Limits(simulations=6000))
>>> budget.limits
Limits(time=10.0, depth=12, nodes=4000000, simulations=5000)
>>> budget.notes
('capped at 5,000 simulations by the server (--max-simulations)',)
>>> caps.budget(Limits(time=1.0)).limits  # no simulations cap on a time budget
Limits(time=1.0, depth=12, nodes=4000000)
>>> caps.check("depth", 13)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: depth 13 is over the server's cap of 12
>>> ServerCaps(time=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: ServerCaps.time must be a finite number > 0, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits

__all__ = ["BUDGET_CAPS", "SearchBudget", "ServerCaps"]

BUDGET_CAPS: dict[str, str] = {
    "time": "--max-time",
    "simulations": "--max-simulations",
    "nodes": "--max-nodes",
    "depth": "--max-depth",
}
"""The caps that bound a search's budget (each a :class:`~searchlab.core.limits.Limits`
field), with the ``searchlab serve`` option that sets each."""


def _amount(name: str, value: float) -> str:
    """``10 s``, ``depth 12``, ``5,000 simulations``: a budget's value for people."""
    if name == "time":
        return f"{value:g} s"
    if name == "depth":
        return f"depth {value}"
    return f"{value:,} {name}"


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """The budget one search runs under (:meth:`ServerCaps.budget`).

    Attributes:
        limits: what the search gets.
        notes: one line for each of the agent's own values that a cap lowered.
        open: the caps set where the agent's own budget had no value (``time``, ``nodes``,
            ``depth``): the ceilings that may stop it (see :meth:`stop_note`).
    """

    limits: Limits
    notes: tuple[str, ...] = ()
    open: frozenset[str] = frozenset()

    def stop_note(self, stopped_by: str | None) -> str | None:
        """The line to show when a search ``stopped_by`` a limit (``"time"``, ``"nodes"``,
        ``"depth"``) that only the server set; ``None`` when the agent's own budget (or
        nothing) stopped it.

        >>> budget = ServerCaps().budget(Limits(simulations=800))
        >>> budget.stop_note("time")
        "stopped by the server's cap of 10 s (--max-time)"
        >>> budget.stop_note("simulations") is None, budget.stop_note(None) is None
        (True, True)
        """
        if stopped_by is None or stopped_by not in self.open:
            return None
        cap = _amount(stopped_by, getattr(self.limits, stopped_by))
        return f"stopped by the server's cap of {cap} ({BUDGET_CAPS[stopped_by]})"


@dataclass(frozen=True, slots=True)
class ServerCaps:
    """The most one request may ask of the server.

    Attributes:
        time: seconds one search may run (a ceiling over the agent's own budget).
        simulations: Monte Carlo simulations of a simulation budget (a time budget is bounded
            by the time and nodes caps only).
        nodes: nodes (game-tree search: the MCTS tree's nodes, which bound its memory) or
            expansions (path search) per search.
        depth: plies of a depth-limited search.
        map_cells: ``width * height`` of a grid map sent or chosen for a path search.
        tree_leaves: leaves of an explicit game tree (the Trees lab, exercises).
        concurrent: searches one client (one websocket) may run at once.
        moves: moves in one position's move list.
        queue: searches waiting for a worker before new ones are refused (HTTP 429).
        grace: seconds past a search's time cap before its worker is killed and replaced.
        memory_mb: address space of a worker process (a runaway request fails with an error
            instead of exhausting the machine); with PyTorch loaded a worker holds about
            1 GB of it, and a tree at the nodes cap about 1.6 GB more (Othello, the largest
            nodes of the compiled games).
    """

    time: float = 10.0
    simulations: int = 4_000_000
    nodes: int = 4_000_000
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

    def budget(self, own: Limits | None) -> SearchBudget:
        """The budget a search runs under: the agent's ``own`` budget (``None``: it has none),
        each value over its cap lowered to the cap (with a note), and the time, nodes and
        depth caps where ``own`` leaves them open. ``simulations`` stays open when ``own``
        has none (the time and nodes caps bound such a search).

        >>> ServerCaps(time=2.0).budget(Limits(time=5.0)).notes
        ('capped at 2 s by the server (--max-time)',)
        >>> ServerCaps().budget(None).open == {"time", "nodes", "depth"}
        True
        """
        own = own or Limits()
        values: dict[str, Any] = {"expansions": own.expansions}
        notes: list[str] = []
        open_caps: set[str] = set()
        for name, option in BUDGET_CAPS.items():
            cap = getattr(self, name)
            asked = getattr(own, name)
            if asked is None:
                if name != "simulations":
                    values[name] = cap
                    open_caps.add(name)
            elif asked > cap:
                values[name] = cap
                notes.append(f"capped at {_amount(name, cap)} by the server ({option})")
            else:
                values[name] = asked
        return SearchBudget(Limits(**values), tuple(notes), frozenset(open_caps))

    def budget_caps(self) -> dict[str, float | int]:
        """The caps that bound a search's budget, by name (what a worker needs to rebuild
        them: ``ServerCaps(**caps.budget_caps())``).

        >>> ServerCaps(time=2.0).budget_caps()["time"]
        2.0
        """
        return {name: getattr(self, name) for name in BUDGET_CAPS}

    @property
    def hard_seconds(self) -> float:
        """Seconds after which a running job's worker is killed: the time cap plus the grace."""
        return self.time + self.grace
