"""What the routers share, by dependency: the lab's state (:class:`~searchlab.web.lab.LabState`:
the caps, the worker pools, the maps), set on the app by :func:`~searchlab.web.app.create_app`.

A handler asks for it by type: ``async def route(lab: Lab) -> ...``; so does the websocket.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from searchlab.web.caps import ServerCaps
from searchlab.web.lab import LabState

__all__ = ["Caps", "Lab", "get_caps", "get_lab"]


def get_lab(connection: HTTPConnection) -> LabState:
    """The app's :class:`LabState` (``app.state.lab``), for a request or a websocket."""
    lab: LabState = connection.app.state.lab
    return lab


def get_caps(lab: Annotated[LabState, Depends(get_lab)]) -> ServerCaps:
    """The caps in force."""
    return lab.caps


Lab = Annotated[LabState, Depends(get_lab)]
"""The lab's state, as a handler's parameter."""
Caps = Annotated[ServerCaps, Depends(get_caps)]
"""The caps in force, as a handler's parameter."""
