"""``/api/games``, ``/api/agents``, ``/api/status``: what the labs offer and how the server is."""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import APIRouter

from searchlab.agents import AGENT_KINDS
from searchlab.domains.games import GAMES
from searchlab.domains.games.registry import game_parameters
from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.models import AgentInfo, AgentParam, GameInfo, StatusResponse

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["meta"], route_class=StrictJSONRoute)

EXAMPLES = {
    "mcts": "mcts:simulations=2000",
    "flatmc": "flatmc:simulations=1000",
    "alphabeta": "alphabeta:depth=6",
}
"""An example spec for the kinds that have one worth showing (else the kind's name)."""


def _jsonable(value: Any) -> Any:
    if value is inspect.Parameter.empty:
        return None
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


@router.get("/games")
async def games() -> list[GameInfo]:
    """Every registered game with its parameters' defaults."""
    return [
        GameInfo(name=name, params={k: _jsonable(v) for k, v in game_parameters(name).items()})
        for name in sorted(GAMES)
    ]


@router.get("/agents")
async def agents() -> list[AgentInfo]:
    """The agent kinds, their parameters (the agents' own option metadata) and an example."""
    kinds: list[AgentInfo] = []
    for name in AGENT_KINDS.names():
        if AGENT_KINDS.is_lazy(name):  # the learning layer's kinds: listed, not imported
            help_text = AGENT_KINDS.help(name)  # (importing torch would stall the server)
            kinds.append(AgentInfo(kind=name, params=[], example=name, help=help_text))
            continue
        kind = AGENT_KINDS.lookup(name)
        params = [
            AgentParam(
                name=pname,
                type=param.type.__name__,
                default=_jsonable(param.default),
                help=param.help,
                choices=list(param.choices),
            )
            for pname, param in kind.params.items()
        ]
        example = EXAMPLES.get(name, name)
        kinds.append(AgentInfo(kind=name, params=params, example=example, help=kind.help))
    return kinds


@router.get("/status")
async def status(lab: Lab) -> StatusResponse:
    """The workers (ready, busy, queued, restarts), the answers with status 500, the caps."""
    caps = lab.caps
    return StatusResponse(
        workers=len(lab.searches.workers),
        ready=lab.searches.all_ready and lab.quick.all_ready,
        busy=lab.searches.busy,
        queued=len(lab.searches.pending),
        restarts=lab.searches.restarts + lab.quick.restarts,
        errors_500=lab.errors_500,
        caps={name: getattr(caps, name) for name in caps.__dataclass_fields__},
    )
