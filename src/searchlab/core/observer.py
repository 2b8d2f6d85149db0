"""Search events and observers: how a caller watches a search.

An observer is any callable that takes one event. Searches call it for each event when one is
given, and skip all event work when ``observer is None`` (the compiled tier has no per-node
overhead then). :class:`TraceRecorder` keeps the events in a list.

>>> recorder = TraceRecorder()
>>> recorder(Expand(state=(0, 0), g=0.0, h=3.0))
>>> recorder.count("expand")
1
>>> recorder.events[0]
Expand(state=(0, 0), g=0.0, h=3.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Expand",
    "Generate",
    "Observer",
    "Reopen",
    "SearchEvent",
    "TraceRecorder",
]


@dataclass(frozen=True, slots=True)
class Expand:
    """A node was taken from the open list and its successors are about to be generated."""

    state: Any
    g: float
    h: float
    kind: Literal["expand"] = field(default="expand", repr=False)


@dataclass(frozen=True, slots=True)
class Generate:
    """A successor was generated (whether or not it was added to the open list)."""

    state: Any
    parent: Any
    g: float
    h: float
    kind: Literal["generate"] = field(default="generate", repr=False)


@dataclass(frozen=True, slots=True)
class Reopen:
    """A closed node was reached by a cheaper path and put back on the open list."""

    state: Any
    old_g: float
    new_g: float
    kind: Literal["reopen"] = field(default="reopen", repr=False)


SearchEvent = Expand | Generate | Reopen
"""Every event a path search can emit; later algorithm families add their own."""

Observer = Callable[[Any], None]
"""An observer receives each event as it happens."""


class TraceRecorder:
    """An observer that records every event it receives, in order."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def __call__(self, event: Any) -> None:
        self.events.append(event)

    def count(self, kind: str) -> int:
        """Number of recorded events of one kind (``"expand"``, ``"generate"``, ...)."""
        return self.counts()[kind]

    def counts(self) -> Counter[str]:
        """Number of recorded events of every kind."""
        return Counter(event.kind for event in self.events)

    def states(self, kind: str) -> list[Any]:
        """The states of the recorded events of one kind, in order."""
        return [event.state for event in self.events if event.kind == kind]
