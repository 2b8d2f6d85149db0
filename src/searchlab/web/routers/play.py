"""The Play lab's route: ``POST /api/play/state``, a position's view (its searches go through
the ``/ws/search`` websocket, :mod:`searchlab.web.search_socket`)."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.models import GameRequest, ViewAnswer

__all__ = ["router"]

router = APIRouter(prefix="/api/play", tags=["play"], route_class=StrictJSONRoute)


@router.post("/state", response_model=ViewAnswer)
async def play_state(request: GameRequest, lab: Lab) -> Response:
    """The position's view: text, board grid, legal moves with their labels and cells,
    ``to_move``, ``terminal``, ``result``."""
    return await lab.run_quick("view", request.position(lab.caps))
