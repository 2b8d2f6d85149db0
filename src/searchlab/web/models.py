"""What a client sends to the lab and what it gets back: pydantic models, and :func:`one_line`,
the contract's one-line message for a validation error.

A request body is read strictly (:mod:`searchlab.web.body`: one JSON object, finite numbers),
then validated by its model, strictly too: a whole number is not a string, a boolean is not a
number. Every problem the model finds is answered, by :func:`one_line`, with the line the lab
has always sent: the field named, what it must be, what it got. Checks that need the server's
caps (moves, map cells, leaves, depth) are made by the routers after the model.

>>> PathRequest.model_validate({"rows": ["..", ".."], "start": [0, 0], "goal": [1, 1]}).weight
2.0
>>> from pydantic import ValidationError
>>> try:
...     GameRequest.model_validate({"game": 5})
... except ValidationError as error:
...     print(one_line(error.errors()[0]))
field 'game' must be a str, got 5
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from searchlab.agents import AGENT_KINDS
from searchlab.agents.spec import parse_spec
from searchlab.algorithms.mcts.options import DEFAULT_C
from searchlab.algorithms.path.registry import DEFAULT_WEIGHT, PATH_ALGORITHMS, path_algorithm
from searchlab.core.errors import SearchlabError, UnknownNameError
from searchlab.domains.games import GAMES
from searchlab.web.caps import ServerCaps
from searchlab.web.workers import JobError

__all__ = [
    "MAX_MCTS_STEPS",
    "MCTS_STEP_GAMES",
    "PATH_HEURISTICS",
    "AgentInfo",
    "AgentParam",
    "AstarExerciseQuery",
    "ExerciseAnswer",
    "ExerciseQuery",
    "GameInfo",
    "GameRequest",
    "GradeAnswer",
    "GradeRequest",
    "LabAnswer",
    "MapAnswer",
    "MapInfo",
    "MctsStepsAnswer",
    "MctsStepsRequest",
    "PathAnswer",
    "PathRequest",
    "SearchStart",
    "StatusResponse",
    "TreeAnswer",
    "TreeRequest",
    "ViewAnswer",
    "check_agent",
    "one_line",
]

PATH_HEURISTICS = ("octile", "manhattan", "euclidean", "zero")
"""The Path lab's heuristics (the page's menu)."""
MCTS_STEP_GAMES = ("nim", "tictactoe")
"""The games the Monte Carlo lab steps through."""
MAX_MCTS_STEPS = 2_000
"""The most simulations the Monte Carlo lab records one by one."""
MAX_SEED = 2**63
MAX_TREE_TEXT = 1_000_000

_EXPECTED = {
    "string_type": "a str",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "bool_type": "a bool",
    "list_type": "a list",
    "dict_type": "an object",
}
_QUERY_EXPECTED = {"int_parsing": "a whole number", "bool_parsing": "true or false"}


def _lab_error(message: str) -> PydanticCustomError:
    """A validation error whose message is the contract's line, verbatim."""
    return PydanticCustomError("lab", message)


def one_line(error: dict[str, Any] | Any) -> str:
    """The contract's line for one of pydantic's errors (``ValidationError.errors()``): a
    missing field, a field of the wrong type, or a model's own line (a :data:`lab` error).

    >>> one_line({"type": "missing", "loc": ("body", "tree"), "msg": "Field required"})
    "missing field 'tree'"
    >>> one_line({"type": "int_parsing", "loc": ("query", "depth"), "msg": "", "input": "x"})
    "depth must be a whole number, got 'x'"
    """
    kind = error.get("type", "")
    loc = [part for part in error.get("loc", ()) if part not in ("body", "query", "path")]
    name = str(loc[0]) if loc else "request"
    if kind == "lab":
        return str(error.get("msg", "invalid request"))
    if kind == "missing":
        return f"missing field {name!r}"
    if kind in _EXPECTED:
        got = json.dumps(error.get("input"), default=str)[:60]
        return f"field {name!r} must be {_EXPECTED[kind]}, got {got}"
    if kind in _QUERY_EXPECTED:
        return f"{name} must be {_QUERY_EXPECTED[kind]}, got {error.get('input')!r}"
    if kind in ("model_type", "model_attributes_type"):
        return f"expected a JSON object, got {type(error.get('input')).__name__}"
    message = " ".join(str(error.get("msg", "invalid request")).split())
    return f"{name}: {message}"


# --- requests -------------------------------------------------------------------------------


class _Body(BaseModel):
    """A JSON body: strict types, unknown fields ignored, ``null`` as absent (the default)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value is not None}
        return data


def _check_seed(value: int) -> int:
    if not 0 <= value < MAX_SEED:
        raise _lab_error(f"seed must be a whole number >= 0, got {value}")
    return value


class GameRequest(_Body):
    """A position: a registered game, its parameters, the moves played (labels like ``b2``)."""

    game: str = Field(description="a registered game (GET /api/games)")
    params: dict[str, Any] = Field(default_factory=dict, description="the game's parameters")
    moves: list[str | int] = Field(default_factory=list, description="the moves, as labels")

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        if game not in GAMES:
            raise _lab_error(f"unknown game {game!r}; known games: {', '.join(sorted(GAMES))}")
        return game

    @field_validator("params")
    @classmethod
    def _plain_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        for key, value in params.items():
            if not isinstance(value, str | int | float | bool | list) or (
                isinstance(value, list) and not all(isinstance(v, int | str) for v in value)
            ):
                raise _lab_error(f"game parameter {key!r} must be a number, text or list")
        return params

    @field_validator("moves", mode="before")
    @classmethod
    def _labels(cls, moves: Any) -> Any:
        if isinstance(moves, list):
            for move in moves:
                if isinstance(move, bool) or not isinstance(move, str | int):
                    got = json.dumps(move)[:40]
                    raise _lab_error(f"a move must be a label like 'b2', got {got}")
        return moves

    def position(self, caps: ServerCaps) -> dict[str, Any]:
        """The job's payload for this position; a 400 when the moves are over the cap."""
        if len(self.moves) > caps.moves:
            raise JobError(400, f"{len(self.moves)} moves is over the server's cap of {caps.moves}")
        return {"game": self.game, "params": self.params, "moves": [str(m) for m in self.moves]}


class SearchStart(GameRequest):
    """``/ws/search``'s ``{"type": "start"}`` message: a position, an agent spec, a seed."""

    agent: Any = Field(default=None, description="an agent spec like 'mcts:simulations=2000'")
    seed: int = 0

    check_seed = field_validator("seed")(_check_seed)


def _cell(value: list[Any]) -> list[int]:
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError
    return value


class PathRequest(_Body):
    """``POST /api/path``: a map (a name from /api/maps, or ``rows``), two cells, an algorithm
    of the path registry and its options."""

    algorithm: str = Field(
        default="astar", description=f"one of {', '.join(PATH_ALGORITHMS)} (or an alias)"
    )
    heuristic: str = Field(default="octile", json_schema_extra={"enum": list(PATH_HEURISTICS)})
    connectivity: int = Field(default=8, json_schema_extra={"enum": [4, 8]})
    weight: float = Field(default=DEFAULT_WEIGHT, description="weighted A*'s weight, >= 1")
    start: list[int] = Field(min_length=2, max_length=2, description="[x, y]")
    goal: list[int] = Field(min_length=2, max_length=2, description="[x, y]")
    events: bool = Field(default=True, description="send the search's events")
    map: str | None = Field(default=None, description="a map's name (GET /api/maps)")
    rows: list[str] | None = Field(default=None, description="a map drawn by hand: '..@.'")

    @field_validator("algorithm")
    @classmethod
    def _registered(cls, name: str) -> str:
        try:  # the path registry, as `searchlab path --algorithm` (same names, same line)
            return path_algorithm(name).name
        except UnknownNameError as error:
            raise _lab_error(str(error)) from None

    @field_validator("heuristic")
    @classmethod
    def _heuristic(cls, name: str) -> str:
        if name not in PATH_HEURISTICS:
            expected = ", ".join(PATH_HEURISTICS)
            raise _lab_error(f"unknown heuristic {name!r}; expected one of {expected}")
        return name

    @field_validator("connectivity")
    @classmethod
    def _connectivity(cls, value: int) -> int:
        if value not in (4, 8):
            raise _lab_error(f"connectivity must be 4 or 8, got {value}")
        return value

    @field_validator("weight")
    @classmethod
    def _weight(cls, value: float) -> float:
        if not 1 <= value <= 1e6:
            raise _lab_error(f"weight must be a number >= 1, got {value:g}")
        return value

    @field_validator("start", "goal", mode="before")
    @classmethod
    def _cell(cls, value: Any, info: ValidationInfo) -> Any:
        try:
            return _cell(value)
        except (ValueError, TypeError):
            message = f"field {info.field_name!r} must be [x, y] (two whole numbers), got {value}"
            raise _lab_error(message) from None

    @field_validator("rows")
    @classmethod
    def _rows(cls, rows: list[str] | None) -> list[str] | None:
        if rows is not None and not rows:
            raise _lab_error("field 'rows' must be a non-empty list of strings like '..@.'")
        return rows

    @field_validator("rows", mode="before")
    @classmethod
    def _row_strings(cls, rows: Any) -> Any:
        if isinstance(rows, list) and not all(isinstance(row, str) for row in rows):
            raise _lab_error("field 'rows' must be a non-empty list of strings like '..@.'")
        return rows


class TreeRequest(_Body):
    """``POST /api/tree``: a game tree in the tree format, searched by minimax or alpha-beta."""

    tree: str = Field(description="the tree, as 'max A: ...' lines (docs/games/explicit_tree.md)")
    algorithm: str = Field(
        default="alphabeta", json_schema_extra={"enum": ["minimax", "alphabeta"]}
    )

    @field_validator("tree")
    @classmethod
    def _size(cls, text: str) -> str:
        if len(text) > MAX_TREE_TEXT:
            raise _lab_error("the tree text is over 1 MB")
        return text

    @field_validator("algorithm")
    @classmethod
    def _algorithm(cls, name: str) -> str:
        if name not in ("minimax", "alphabeta"):
            raise _lab_error(f"unknown algorithm {name!r}: expected minimax or alphabeta")
        return name


class MctsStepsRequest(GameRequest):
    """``POST /api/mcts/steps``: a position of a small game and an MCTS run recorded step by
    step (UCT with ``c``, or PUCT with ``c`` as ``c_puct`` when ``puct``)."""

    simulations: int = Field(
        default=100, json_schema_extra={"minimum": 1, "maximum": MAX_MCTS_STEPS}
    )
    c: float = Field(default=DEFAULT_C, description="UCT's c, or PUCT's c_puct with 'puct'")
    seed: int = 0
    puct: bool = False

    check_seed = field_validator("seed")(_check_seed)

    @field_validator("game")
    @classmethod
    def _steppable(cls, game: str) -> str:
        if game not in MCTS_STEP_GAMES:
            steps = " and ".join(MCTS_STEP_GAMES)
            raise _lab_error(f"the Monte Carlo lab steps {steps}, not {game!r}")
        return game

    @field_validator("simulations")
    @classmethod
    def _simulations(cls, number: int) -> int:
        if not 1 <= number <= MAX_MCTS_STEPS:
            raise _lab_error(f"simulations must be in 1..{MAX_MCTS_STEPS} here, got {number}")
        return number

    @field_validator("c")
    @classmethod
    def _c(cls, value: float) -> float:
        if not 0 <= value <= 100:
            raise _lab_error(f"c must be a number in 0..100, got {value:g}")
        return value


class ExerciseQuery(BaseModel):
    """The settings of an alpha-beta exercise (``GET /api/exercise/alphabeta``'s query); the
    generator's defaults where absent."""

    model_config = ConfigDict(extra="ignore")

    depth: int | None = None
    branching: int | None = None
    leaves: int | None = None
    min_cuts: int | None = None
    seed: int | None = None
    values: str | None = Field(default=None, description="the leaves' values, 'LO..HI'")

    @field_validator("values", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return value if value is None else str(value)

    @field_validator("values")
    @classmethod
    def _range(cls, value: str | None) -> str | None:
        from searchlab.exercises.alphabeta_exercise import parse_value_range

        if value is not None:
            try:
                parse_value_range(value)
            except ValueError as error:
                raise _lab_error(str(error)) from None
        return value

    def settings(self, caps: ServerCaps) -> dict[str, Any]:
        """The generator's keyword arguments; a 400 when the tree is over the caps."""
        from searchlab.exercises.alphabeta_exercise import parse_value_range

        settings: dict[str, Any] = self.model_dump(exclude_none=True, exclude={"values", "marks"})
        if self.values is not None:
            settings["low"], settings["high"] = parse_value_range(self.values)
        for name, cap in (("leaves", caps.tree_leaves), ("depth", caps.depth)):
            if settings.get(name, 0) > cap:
                raise JobError(400, f"{name} {settings[name]} is over the server's cap of {cap}")
        return settings


class GradeRequest(ExerciseQuery):
    """``POST /api/exercise/alphabeta/grade``: the exercise's settings and a student's marks
    (``{"values": {node: value}, "cuts": [leaf, ...]}``)."""

    marks: dict[str, Any]


class AstarExerciseQuery(BaseModel):
    """The settings of an A* exercise (``GET /api/exercise/astar``'s query)."""

    model_config = ConfigDict(extra="ignore")

    nodes: int | None = None
    seed: int | None = None
    consistent: bool | None = None

    def settings(self) -> dict[str, Any]:
        """The generator's keyword arguments."""
        return self.model_dump(exclude_none=True)


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


# --- answers --------------------------------------------------------------------------------


class GameInfo(BaseModel):
    """A registered game and its parameters' defaults (``GET /api/games``)."""

    name: str
    params: dict[str, Any]


class AgentParam(BaseModel):
    """One parameter of an agent kind, from the agents' own option metadata."""

    name: str
    type: str
    default: Any
    help: str
    choices: list[Any]


class AgentInfo(BaseModel):
    """An agent kind (``GET /api/agents``): its parameters, an example spec, its help line."""

    kind: str
    params: list[AgentParam]
    example: str
    help: str


class MapInfo(BaseModel):
    """A map of the catalogue (``GET /api/maps``)."""

    name: str
    width: int
    height: int
    scenarios: bool


class StatusResponse(BaseModel):
    """``GET /api/status``: the workers, the queue, restarts, answers with status 500, caps."""

    workers: int
    ready: bool
    busy: int
    queued: int
    restarts: int
    errors_500: int
    caps: dict[str, float | int]


class LabAnswer(BaseModel):
    """A worker's answer (its exact shape: the job's function in :mod:`searchlab.web.jobs`)."""

    model_config = ConfigDict(extra="allow")


class ViewAnswer(LabAnswer):
    """A position's view: text, grid, legal moves with labels and cells, the players."""


class MapAnswer(LabAnswer):
    """One map's rows and its first 50 scenarios."""

    name: str
    width: int
    height: int
    rows: list[str]
    scenarios: list[dict[str, Any]]


class PathAnswer(LabAnswer):
    """A path search: the events, the path, its cost and the counters (as ``searchlab path``)."""

    algorithm: str
    path: list[list[int]] | None = None
    cost: float | None = None
    expanded: int = 0
    events: list[Any] = []


class TreeAnswer(LabAnswer):
    """A tree search: the tree, its steps (visit, prune with its reason, backup), the value."""

    value: float | str | None = None
    best: str | None = None
    pruned: list[str] = []
    steps: list[dict[str, Any]] = []
    root: dict[str, Any] = {}


class MctsStepsAnswer(LabAnswer):
    """Every simulation's selection, expansion, playout and backup; the tree; event counts."""

    simulations: list[dict[str, Any]] = []
    tree: dict[str, Any] = {}
    events: dict[str, int] = {}


class ExerciseAnswer(LabAnswer):
    """An exercise (its tree or graph) and its answer key."""


class GradeAnswer(LabAnswer):
    """The grade of a student's marks: each mark, the first mistake and its rule."""
