"""Reading and checking what a client sends, before any work: one clear line per problem.

Bodies are parsed here (not by a model layer) so that every error is the contract's
``{"error": "..."}`` with the field named: malformed JSON, a non-finite number (``NaN``,
``Infinity`` are not JSON), a wrong type, an unknown name, a budget over a cap.

>>> parse_body(b'{"x": NaN}')
Traceback (most recent call last):
...
searchlab.web.workers.JobError: the request body is not valid JSON: NaN is not a number JSON allows
"""

from __future__ import annotations

import json
import math
from typing import Any

from searchlab.agents import AGENT_KINDS
from searchlab.agents.spec import parse_spec
from searchlab.core.errors import SearchlabError
from searchlab.domains.games import GAMES
from searchlab.web.caps import ServerCaps
from searchlab.web.workers import JobError

__all__ = [
    "check_agent",
    "check_game",
    "get",
    "parse_body",
    "parse_json_text",
]

MAX_BODY = 16 * 1024 * 1024
"""The largest request body read (a 1000 x 1000 map drawn by hand is about 1 MB)."""

_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "number": (int, float),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
}


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def parse_json_text(text: str | bytes) -> Any:
    """The JSON value of ``text``; :class:`JobError` (400) when it is not valid JSON or holds
    a number that is not finite (``NaN``, ``Infinity``, ``1e999``)."""
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


def get(
    body: dict[str, Any], name: str, kind: str, default: Any = ..., *, nullable: bool = False
) -> Any:
    """Field ``name`` of ``body``, checked to be of ``kind`` (str, int, number, bool, list,
    dict); ``default`` when it is absent (or null), else a 400 naming the field."""
    value = body.get(name)
    if value is None:
        if default is ... and not nullable:
            raise JobError(400, f"missing field {name!r}")
        return None if default is ... else default
    types = _TYPES[kind]
    ok = isinstance(value, types) and not (kind != "bool" and isinstance(value, bool))
    if ok and kind == "number" and not math.isfinite(value):  # pragma: no cover - JSON has none
        ok = False
    if not ok:
        expected = {"number": "a number", "int": "a whole number", "dict": "an object"}.get(
            kind, f"a {kind}"
        )
        raise JobError(400, f"field {name!r} must be {expected}, got {json.dumps(value)[:60]}")
    return value


def check_game(body: dict[str, Any], caps: ServerCaps) -> dict[str, Any]:
    """The game part of a request: a registered name, its parameters, the moves (labels)."""
    game = get(body, "game", "str")
    if game not in GAMES:
        raise JobError(400, f"unknown game {game!r}; known games: {', '.join(sorted(GAMES))}")
    params = get(body, "params", "dict", {})
    for key, value in params.items():
        if not isinstance(value, str | int | float | bool | list) or (
            isinstance(value, list) and not all(isinstance(v, int | str) for v in value)
        ):
            raise JobError(400, f"game parameter {key!r} must be a number, text or list")
    moves = get(body, "moves", "list", [])
    if len(moves) > caps.moves:
        raise JobError(400, f"{len(moves)} moves is over the server's cap of {caps.moves}")
    labels = []
    for move in moves:
        if isinstance(move, bool) or not isinstance(move, str | int):
            raise JobError(400, f"a move must be a label like 'b2', got {json.dumps(move)[:40]}")
        labels.append(str(move))
    return {"game": game, "params": params, "moves": labels}


def check_agent(spec_text: Any, caps: ServerCaps) -> tuple[str, float]:
    """The agent spec of a search request, and the seconds its job may take (the spec's
    ``time=`` within the time cap, else the cap). The budget the search runs under is the
    agent's own, bounded by the caps in the worker (:meth:`ServerCaps.budget`): a spec over a
    cap runs at the cap, with a note. Refused with one line: a spec that does not parse, an
    unknown kind or parameter, a bad value, ``gtp`` (a program of the client's choosing), an
    exact endgame (``mcts:exact=``) deeper than the depth cap. A kind of the learning layer
    (``az``) is checked by the worker that builds it (importing PyTorch would stall the
    server).

    >>> check_agent("mcts:time=60", ServerCaps(time=2.0))
    ('mcts:time=60', 2.0)
    >>> check_agent("mcts:exact=50", ServerCaps())
    Traceback (most recent call last):
    ...
    searchlab.web.workers.JobError: agent 'mcts:exact=50': depth 50 is over the server's cap of 12
    """
    if not isinstance(spec_text, str):
        raise JobError(400, "field 'agent' must be an agent spec like 'mcts:simulations=2000'")
    try:
        spec = parse_spec(spec_text)
        text = str(spec)
        given: dict[str, Any] = {}
        if not AGENT_KINDS.is_lazy(spec.kind):
            kind = AGENT_KINDS.lookup(spec.kind)
            for name, raw in spec.params.items():
                if name in kind.params:
                    given[name] = kind.params[name].convert(name, raw, text)
    except SearchlabError as error:
        raise JobError(400, str(error)) from None
    if spec.kind == "gtp":  # it would start a program of the client's choosing on the server
        raise JobError(400, f"agent {text!r}: the web lab does not start external programs")
    for name, value in given.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise JobError(400, f"agent {text!r}: {name} must be a finite number")
    try:
        caps.check("depth", given.get("exact") or None)
    except SearchlabError as error:
        raise JobError(400, f"agent {text!r}: {error}") from None
    time = given.get("time")
    return text, min(float(time), caps.time) if isinstance(time, float) else caps.time
