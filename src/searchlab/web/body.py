"""Reading what a client sends, before any model sees it: one JSON object, finite numbers.

Python's JSON reader (and so FastAPI's) takes ``NaN`` and ``Infinity``, which JSON does not
allow; :func:`parse_json_text` refuses them, and :class:`StrictJSONRoute`, the routers' route
class, reads every body through :func:`parse_body` first, so that a body that is not one JSON
object is the contract's one line (400, or 413 when it is too large) before FastAPI validates
it against the route's model.

>>> parse_body(b'{"x": NaN}')
Traceback (most recent call last):
...
searchlab.web.workers.JobError: the request body is not valid JSON: NaN is not a number JSON allows
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.responses import Response

from searchlab.web.workers import JobError

__all__ = ["MAX_BODY", "StrictJSONRoute", "parse_body", "parse_json_text"]

MAX_BODY = 16 * 1024 * 1024
"""The largest request body read (a 1000 x 1000 map drawn by hand is about 1 MB)."""


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def parse_json_text(text: str | bytes) -> Any:
    """The JSON value of ``text``; :class:`JobError` (400) when it is not valid JSON or holds
    a number that is not finite (``NaN``, ``Infinity``, ``1e999``).

    >>> parse_json_text('{"c": 1e999}')
    Traceback (most recent call last):
    ...
    searchlab.web.workers.JobError: the request body is not valid JSON: 1e999 is not a finite number
    """
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError) as error:
        message = error.args[0] if isinstance(error, ValueError) and error.args else str(error)
        raise JobError(400, f"the request body is not valid JSON: {message}") from None


def parse_body(body: bytes) -> dict[str, Any]:
    """A request body that must be one JSON object."""
    if len(body) > MAX_BODY:
        raise JobError(413, f"the request body is over {MAX_BODY // (1024 * 1024)} MB")
    if not body.strip():
        raise JobError(400, "the request body is empty: expected a JSON object")
    value = parse_json_text(body)
    if not isinstance(value, dict):
        raise JobError(400, f"expected a JSON object, got {type(value).__name__}")
    return value


def _as_json(request: Request) -> None:
    """Mark the request's body as JSON (it was read as JSON), whatever its content type said."""
    headers = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"content-type"]
    request.scope["headers"] = [*headers, (b"content-type", b"application/json")]
    request._headers = Headers(scope=request.scope)


class StrictJSONRoute(APIRoute):
    """An API route whose body, when it takes one, is read by :func:`parse_body` before
    FastAPI validates it (FastAPI then reads the parsed object, not the text again)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def strict_handler(request: Request) -> Response:
            request._json = parse_body(await request.body())  # FastAPI's request.json() reads it
            if "json" not in request.headers.get("content-type", ""):  # e.g. curl's -d
                _as_json(request)
            return await handler(request)

        return strict_handler
