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
from searchlab.agents.kinds import DEFAULT_DEPTH, DEFAULT_SIMULATIONS
from searchlab.agents.spec import parse_spec
from searchlab.core.errors import SearchlabError
from searchlab.domains.games import GAMES
from searchlab.web.caps import ServerCaps
from searchlab.web.workers import JobError

__all__ = [
    "check_game",
    "get",
    "parse_body",
    "parse_json_text",
    "search_limits",
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


def search_limits(spec_text: Any, caps: ServerCaps) -> tuple[str, dict[str, Any]]:
    """The agent spec and the budget its search runs under: the spec's own budget, checked
    against the caps (one over a cap is a 400 naming it), with the time, simulations, nodes
    and depth the spec leaves open filled in within the caps."""
    if not isinstance(spec_text, str):
        raise JobError(400, "field 'agent' must be an agent spec like 'mcts:simulations=2000'")
    try:
        spec = parse_spec(spec_text)
        kind = AGENT_KINDS.lookup(spec.kind)
        text = str(spec)
        given: dict[str, Any] = {}
        for name, raw in spec.params.items():
            if name in kind.params:
                given[name] = kind.params[name].convert(name, raw, text)
    except SearchlabError as error:
        raise JobError(400, str(error)) from None
    if kind.name == "gtp":  # it would start a program of the client's choosing on the server
        raise JobError(400, f"agent {text!r}: the web lab does not start external programs")
    try:
        for name in ("time", "simulations", "nodes", "depth"):
            value = given.get(name)
            if isinstance(value, float) and not math.isfinite(value):
                raise JobError(400, f"agent {text!r}: {name} must be a finite number")
            caps.check(name, value)
        if given.get("exact"):
            caps.check("depth", given["exact"])
    except SearchlabError as error:
        raise JobError(400, f"agent {text!r}: {error}") from None
    time = float(given.get("time") or caps.time)
    limits: dict[str, Any] = {"time": time}
    if kind.name in ("mcts", "flatmc"):
        simulations = given.get("simulations")
        if simulations is None:
            simulations = caps.simulations if "time" in given else DEFAULT_SIMULATIONS
        limits["simulations"] = min(simulations, caps.simulations)
        if kind.name == "mcts":
            limits["nodes"] = caps.nodes
    elif kind.name == "alphabeta":
        depth = given.get("depth")
        if depth is None:
            depth = caps.depth if ("time" in given or "nodes" in given) else DEFAULT_DEPTH
        limits["depth"] = min(depth, caps.depth)
        limits["nodes"] = given.get("nodes") or caps.nodes
    return text, limits
