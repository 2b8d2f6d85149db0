"""The Path lab's routes: the maps (``/api/maps``, ``/api/maps/{name}``) and a path search
(``POST /api/path``, the path algorithms' registry, as ``searchlab path``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.lab import LabState
from searchlab.web.models import MapAnswer, MapInfo, PathAnswer, PathRequest
from searchlab.web.workers import JobError

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["path"], route_class=StrictJSONRoute)


@router.get("/maps")
async def maps(lab: Lab) -> list[MapInfo]:
    """The maps of the catalogue."""
    return [
        MapInfo(
            name=entry.name,
            width=entry.width,
            height=entry.height,
            scenarios=entry.scen is not None,
        )
        for entry in lab.maps.values()
    ]


@router.get("/maps/{name:path}", response_model=MapAnswer)
async def map_rows(name: str, lab: Lab) -> Response:
    """One map's rows and its first 50 scenarios."""
    entry = lab.maps.get(name)
    if entry is None:
        raise JobError(404, f"unknown map {name!r}; see /api/maps for the maps")
    payload = {"name": name, "file": str(entry.file),
               "scen": None if entry.scen is None else str(entry.scen)}  # fmt: skip
    return await lab.run("map", payload)


@router.post("/path", response_model=PathAnswer)
async def path(request: PathRequest, lab: Lab) -> Response:
    """A path search's events, path, cost and counters."""
    return await lab.run("path", _payload(request, lab))


def _payload(request: PathRequest, lab: LabState) -> dict[str, Any]:
    """The job's payload: the request with its map (a catalogue file or rows) within the cap."""
    payload: dict[str, Any] = {
        **request.model_dump(exclude={"map", "rows"}),
        "expansions": lab.caps.nodes,
        "file": None,
        "rows": None,
    }
    if request.map is not None:
        entry = lab.maps.get(request.map)
        if entry is None:
            raise JobError(400, f"unknown map {request.map!r}; see /api/maps for the maps")
        cells = entry.width * entry.height
        payload["file"] = str(entry.file)
    elif request.rows is not None:
        cells = len(request.rows) * max(len(row) for row in request.rows)
        payload["rows"] = request.rows
    else:
        raise JobError(400, "give a map: 'map' (a name from /api/maps) or 'rows'")
    if cells > lab.caps.map_cells:
        cap = lab.caps.map_cells
        raise JobError(400, f"the map has {cells} cells, over the server's cap of {cap}")
    return payload
