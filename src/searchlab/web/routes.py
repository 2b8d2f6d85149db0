"""The JSON API of the lab (everything under ``/api``): each route checks its request
(:mod:`searchlab.web.requests`), runs the work in a worker process, and answers JSON."""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from searchlab.agents import AGENT_KINDS
from searchlab.algorithms.mcts.options import DEFAULT_C
from searchlab.algorithms.path.registry import DEFAULT_WEIGHT, path_algorithm
from searchlab.core.errors import UnknownNameError
from searchlab.domains.games import GAMES
from searchlab.domains.games.registry import game_parameters
from searchlab.web.lab import LabState
from searchlab.web.requests import check_game, get, parse_body
from searchlab.web.workers import JobError

__all__ = ["PATH_HEURISTICS", "add_routes"]

PATH_HEURISTICS = ("octile", "manhattan", "euclidean", "zero")
MCTS_STEP_GAMES = ("nim", "tictactoe")
MAX_MCTS_STEPS = 2_000
EXERCISE_FIELDS = {"depth": int, "branching": int, "leaves": int, "min_cuts": int, "seed": int}


def _jsonable(value: Any) -> Any:
    if value is inspect.Parameter.empty:
        return None
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def add_routes(app: FastAPI, lab: LabState) -> None:
    """Add every ``/api`` route of the contract to ``app``."""
    caps = lab.caps

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [
            {"name": name, "params": {k: _jsonable(v) for k, v in game_parameters(name).items()}}
            for name in sorted(GAMES)
        ]

    @app.get("/api/agents")
    async def agents() -> list[dict[str, Any]]:
        kinds: list[dict[str, Any]] = []
        for name in AGENT_KINDS.names():
            if AGENT_KINDS.is_lazy(name):  # the learning layer's kinds: listed, not imported
                help_text = AGENT_KINDS.help(name)  # (importing torch would stall the server)
                kinds.append({"kind": name, "params": [], "example": name, "help": help_text})
                continue
            kind = AGENT_KINDS.lookup(name)
            params = [
                {
                    "name": pname,
                    "type": param.type.__name__,
                    "default": _jsonable(param.default),
                    "help": param.help,
                    "choices": list(param.choices),
                }
                for pname, param in kind.params.items()
            ]
            example = {
                "mcts": "mcts:simulations=2000",
                "flatmc": "flatmc:simulations=1000",
                "alphabeta": "alphabeta:depth=6",
            }.get(name, name)
            kinds.append({"kind": name, "params": params, "example": example, "help": kind.help})
        return kinds

    @app.get("/api/status")
    async def status() -> dict[str, Any]:
        return {
            "workers": len(lab.searches.workers),
            "ready": lab.searches.all_ready and lab.quick.all_ready,
            "busy": lab.searches.busy,
            "queued": len(lab.searches.pending),
            "restarts": lab.searches.restarts + lab.quick.restarts,
            "errors_500": lab.errors_500,
            "caps": {name: getattr(caps, name) for name in caps.__dataclass_fields__},
        }

    @app.post("/api/play/state")
    async def play_state(request: Request) -> Response:
        body = parse_body(await request.body())
        return await lab.run_quick("view", check_game(body, caps))

    @app.get("/api/maps")
    async def maps() -> list[dict[str, Any]]:
        return [
            {
                "name": entry.name,
                "width": entry.width,
                "height": entry.height,
                "scenarios": entry.scen is not None,
            }
            for entry in lab.maps.values()
        ]

    @app.get("/api/maps/{name:path}")
    async def map_rows(name: str) -> Response:
        entry = lab.maps.get(name)
        if entry is None:
            raise JobError(404, f"unknown map {name!r}; see /api/maps for the maps")
        payload = {"name": name, "file": str(entry.file),
                   "scen": None if entry.scen is None else str(entry.scen)}  # fmt: skip
        return await lab.run("map", payload)

    @app.post("/api/path")
    async def path(request: Request) -> Response:
        body = parse_body(await request.body())
        return await lab.run("path", _path_payload(body, lab))

    @app.post("/api/tree")
    async def tree(request: Request) -> Response:
        body = parse_body(await request.body())
        text = get(body, "tree", "str")
        if len(text) > 1_000_000:
            raise JobError(400, "the tree text is over 1 MB")
        algorithm = get(body, "algorithm", "str", "alphabeta")
        if algorithm not in ("minimax", "alphabeta"):
            raise JobError(400, f"unknown algorithm {algorithm!r}: expected minimax or alphabeta")
        payload = {"tree": text, "algorithm": algorithm, "max_leaves": caps.tree_leaves}
        return await lab.run("tree", payload)

    @app.post("/api/mcts/steps")
    async def mcts_steps(request: Request) -> Response:
        body = parse_body(await request.body())
        game = check_game(body, caps)
        if game["game"] not in MCTS_STEP_GAMES:
            raise JobError(
                400,
                f"the Monte Carlo lab steps {' and '.join(MCTS_STEP_GAMES)}, not {game['game']!r}",
            )
        simulations = get(body, "simulations", "int", 100)
        if not 1 <= simulations <= MAX_MCTS_STEPS:
            raise JobError(
                400, f"simulations must be in 1..{MAX_MCTS_STEPS} here, got {simulations}"
            )
        c = get(body, "c", "number", DEFAULT_C)  # UCT's c, or PUCT's c_puct with "puct"
        if not 0 <= c <= 100:
            raise JobError(400, f"c must be a number in 0..100, got {c}")
        seed = get(body, "seed", "int", 0)
        if not 0 <= seed < 2**63:
            raise JobError(400, f"seed must be a whole number >= 0, got {seed}")
        payload = {**game, "simulations": simulations, "c": c, "seed": seed,
                   "puct": get(body, "puct", "bool", False)}  # fmt: skip
        return await lab.run("mcts_steps", payload)

    @app.get("/api/exercise/alphabeta")
    async def exercise_alphabeta(request: Request) -> Response:
        settings = _exercise_settings(dict(request.query_params), lab)
        return await lab.run_quick("exercise_alphabeta", {"settings": settings})

    @app.post("/api/exercise/alphabeta/grade")
    async def exercise_grade(request: Request) -> Response:
        body = parse_body(await request.body())
        marks = get(body, "marks", "dict")
        query = {k: str(v) for k, v in body.items() if k not in ("marks",) and v is not None}
        settings = _exercise_settings(query, lab)
        return await lab.run_quick("exercise_grade", {"settings": settings, "marks": marks})

    @app.get("/api/exercise/astar")
    async def exercise_astar(request: Request) -> Response:
        query = dict(request.query_params)
        settings: dict[str, Any] = {}
        for name in ("nodes", "seed"):
            if name in query:
                settings[name] = _whole(query[name], name)
        if "consistent" in query:
            settings["consistent"] = query["consistent"].lower() in ("1", "true", "yes", "on")
        return await lab.run_quick("exercise_astar", {"settings": settings})


def _whole(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise JobError(400, f"{name} must be a whole number, got {text!r}") from None


def _exercise_settings(query: dict[str, str], lab: LabState) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for name in EXERCISE_FIELDS:
        if name in query:
            settings[name] = _whole(query[name], name)
    if "values" in query:
        from searchlab.exercises.alphabeta_exercise import parse_value_range

        try:
            settings["low"], settings["high"] = parse_value_range(query["values"])
        except ValueError as error:
            raise JobError(400, str(error)) from None
    if settings.get("leaves", 0) > lab.caps.tree_leaves:
        raise JobError(
            400, f"leaves {settings['leaves']} is over the server's cap of {lab.caps.tree_leaves}"
        )
    if settings.get("depth", 0) > lab.caps.depth:
        raise JobError(
            400, f"depth {settings['depth']} is over the server's cap of {lab.caps.depth}"
        )
    return settings


def _cell(body: dict[str, Any], name: str) -> list[int]:
    value = get(body, name, "list")
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise JobError(400, f"field {name!r} must be [x, y] (two whole numbers), got {value}")
    return list(value)


def _path_payload(body: dict[str, Any], lab: LabState) -> dict[str, Any]:
    caps = lab.caps
    try:  # the path algorithms' registry, as `searchlab path --algorithm` (same names, message)
        algorithm = path_algorithm(get(body, "algorithm", "str", "astar")).name
    except UnknownNameError as error:
        raise JobError(400, str(error)) from None
    heuristic = get(body, "heuristic", "str", "octile")
    if heuristic not in PATH_HEURISTICS:
        raise JobError(
            400, f"unknown heuristic {heuristic!r}; expected one of {', '.join(PATH_HEURISTICS)}"
        )
    connectivity = get(body, "connectivity", "int", 8)
    if connectivity not in (4, 8):
        raise JobError(400, f"connectivity must be 4 or 8, got {connectivity}")
    weight = get(body, "weight", "number", DEFAULT_WEIGHT)
    if not 1 <= weight <= 1e6:
        raise JobError(400, f"weight must be a number >= 1, got {weight}")
    payload: dict[str, Any] = {
        "algorithm": algorithm,
        "heuristic": heuristic,
        "connectivity": connectivity,
        "weight": float(weight),
        "start": _cell(body, "start"),
        "goal": _cell(body, "goal"),
        "events": get(body, "events", "bool", True),
        "expansions": caps.nodes,
        "file": None,
        "rows": None,
    }
    name = get(body, "map", "str", nullable=True)
    rows = get(body, "rows", "list", nullable=True)
    if name is not None:
        entry = lab.maps.get(name)
        if entry is None:
            raise JobError(400, f"unknown map {name!r}; see /api/maps for the maps")
        cells = entry.width * entry.height
        payload["file"] = str(entry.file)
    elif rows is not None:
        if not rows or not all(isinstance(row, str) for row in rows):
            raise JobError(400, "field 'rows' must be a non-empty list of strings like '..@.'")
        cells = len(rows) * max(len(row) for row in rows)
        payload["rows"] = rows
    else:
        raise JobError(400, "give a map: 'map' (a name from /api/maps) or 'rows'")
    if cells > caps.map_cells:
        raise JobError(400, f"the map has {cells} cells, over the server's cap of {caps.map_cells}")
    return payload
