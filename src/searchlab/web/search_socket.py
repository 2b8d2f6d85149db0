"""The live search websocket ``/ws/search``: an agent's move with its analysis as it grows.

The client sends ``{"type": "start", "game", "params", "moves", "agent", "seed"}`` (and may
add an ``"id"``, echoed in every message about that search); the server answers
``{"type": "queued"}`` (the search waits for a warm worker: one still warming up is never
given a search), then ``{"type": "analysis", ...}`` about every 0.2 s while the worker
searches, then ``{"type": "result", ...}`` with the budget it ran under (``limits``: the
agent's own, bounded by the server's caps) and ``notes``, one line for each cap that changed
it. ``{"type": "cancel"}`` stops the searches of the
connection (``{"type": "cancelled"}``); a closed connection stops them too. Errors are
``{"type": "error", "error": "<one line>"}`` and leave the connection open. A connection runs
at most ``ServerCaps.concurrent`` searches at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from searchlab.web.body import parse_json_text
from searchlab.web.deps import Lab
from searchlab.web.lab import LabState
from searchlab.web.models import SearchStart, check_agent, one_line
from searchlab.web.workers import Job, JobError

__all__ = ["router"]

MAX_MESSAGE = 1024 * 1024

router = APIRouter(tags=["play"])


@router.websocket("/ws/search")
async def search_socket(websocket: WebSocket, lab: Lab) -> None:
    """A connection's searches: ``start`` and ``cancel`` in, their messages out."""
    await websocket.accept()
    session = _Session(websocket, lab)
    try:
        await session.serve()
    finally:
        session.stop_all()


class _Session:
    def __init__(self, websocket: WebSocket, lab: LabState) -> None:
        self.websocket = websocket
        self.lab = lab
        self.running: dict[Job, asyncio.Task[None]] = {}
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        async with self.lock:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await self.websocket.send_text(json.dumps(message, allow_nan=False))

    async def serve(self) -> None:
        while True:
            try:
                text = await self.websocket.receive_text()
            except (WebSocketDisconnect, RuntimeError):
                return
            except KeyError:  # a binary frame
                await self.send({"type": "error", "error": "send JSON text messages"})
                continue
            try:
                await self.handle(text)
            except JobError as error:
                await self.send({"type": "error", "error": error.message})

    async def handle(self, text: str) -> None:
        if len(text) > MAX_MESSAGE:
            raise JobError(400, "the message is over 1 MB")
        message = parse_json_text(text)
        if not isinstance(message, dict):
            raise JobError(400, "expected a JSON object with a 'type'")
        kind = message.get("type")
        if kind == "cancel":
            self.stop_all()
            await self.send({"type": "cancelled", **_tag(message)})
        elif kind == "start":
            await self.start(message)
        else:
            raise JobError(400, f"unknown message type {kind!r}: expected 'start' or 'cancel'")

    async def start(self, message: dict[str, Any]) -> None:
        caps = self.lab.caps
        tag = _tag(message)
        try:
            start = SearchStart.model_validate(message)
            payload = start.position(caps)
            spec, seconds = check_agent(start.agent, caps)
            seed = start.seed
        except ValidationError as invalid:
            await self.send({"type": "error", "error": one_line(invalid.errors()[0]), **tag})
            return
        except JobError as error:
            await self.send({"type": "error", "error": error.message, **tag})
            return
        if len(self.running) >= caps.concurrent:
            await self.send(
                {
                    "type": "error",
                    **tag,
                    "error": f"this connection already runs {len(self.running)} searches "
                    f"(the server's cap is {caps.concurrent}): wait or cancel",
                }
            )
            return
        payload.update(agent=spec, seed=seed, caps=caps.budget_caps())
        try:
            job = self.lab.searches.submit("search", payload, seconds)
        except JobError as error:
            await self.send({"type": "error", "error": error.message, **tag})
            return
        self.running[job] = asyncio.create_task(self.forward(job, tag))
        await self.send({"type": "queued", "agent": spec, **tag})

    async def forward(self, job: Job, tag: dict[str, Any]) -> None:
        try:
            async for kind, data in job.stream():
                if kind == "analysis":
                    await self.send({"type": "analysis", **data, **tag})
                elif kind == "result":
                    await self.send({"type": "result", **json.loads(data), **tag})
                elif kind == "error":
                    await self.send({"type": "error", "error": data[1], **tag})
                elif kind == "cancelled":
                    pass  # the cancel message already answered it
        finally:
            self.running.pop(job, None)

    def stop_all(self) -> None:
        for job in list(self.running):
            self.lab.searches.cancel(job)


def _tag(message: dict[str, Any]) -> dict[str, Any]:
    ident = message.get("id")
    if isinstance(ident, str | int) and not isinstance(ident, bool):
        return {"id": ident}
    return {}
