"""What the lab's routes share: :class:`LabState` (the caps, the two worker pools, the maps).

Searches run in the search pool, under the time cap; views and exercises in the quick pool (one
process, :data:`QUICK_SECONDS`), so that a click on the board never waits behind a long search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from searchlab.web.caps import ServerCaps
from searchlab.web.maps import MapEntry
from searchlab.web.workers import WorkerPool

__all__ = ["QUICK_SECONDS", "LabState"]

QUICK_SECONDS = 5.0
"""The time cap of a view or an exercise (the quick pool)."""


@dataclass(eq=False)
class LabState:
    """What the routes share: the caps, the two pools, the maps."""

    caps: ServerCaps
    searches: WorkerPool
    quick: WorkerPool
    map_dirs: list[tuple[str, Path]] | None = None
    maps: dict[str, MapEntry] = field(default_factory=dict)
    errors_500: int = 0

    async def run(self, kind: str, payload: dict[str, Any], seconds: float | None = None) -> Any:
        """Run a search job in the search pool (its time budget: ``seconds`` or the cap)."""
        budget = self.caps.time if seconds is None else min(seconds, self.caps.time)
        return await self.searches.run(kind, payload, budget)

    async def run_quick(self, kind: str, payload: dict[str, Any]) -> Any:
        """Run a short job (a view, an exercise) in the quick pool."""
        return await self.quick.run(kind, payload, min(QUICK_SECONDS, self.caps.time))
