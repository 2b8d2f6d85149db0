"""What the lab's routes share: :class:`LabState` (the caps, the two worker pools, the maps).

Searches run in the search pool, under the time cap; views and exercises in the quick pool (one
process, :data:`QUICK_SECONDS`), so that a click on the board never waits behind a long search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.responses import Response

from searchlab.web.caps import ServerCaps
from searchlab.web.maps import MapEntry
from searchlab.web.workers import WorkerPool

__all__ = ["QUICK_SECONDS", "LabState", "json_response"]

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

    async def run(
        self, kind: str, payload: dict[str, Any], seconds: float | None = None
    ) -> Response:
        """Run a search job in the search pool (its time budget: ``seconds`` or the cap); its
        answer as a JSON response."""
        budget = self.caps.time if seconds is None else min(seconds, self.caps.time)
        return json_response(await self.searches.run(kind, payload, budget))

    async def run_quick(self, kind: str, payload: dict[str, Any]) -> Response:
        """Run a short job (a view, an exercise) in the quick pool."""
        seconds = min(QUICK_SECONDS, self.caps.time)
        return json_response(await self.quick.run(kind, payload, seconds))


def json_response(text: str) -> Response:
    """A response whose body is the JSON text a worker made."""
    return Response(content=text, media_type="application/json")
