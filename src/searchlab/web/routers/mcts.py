"""The Monte Carlo lab's route: ``POST /api/mcts/steps``, every simulation of a small MCTS."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.models import MctsStepsAnswer, MctsStepsRequest

__all__ = ["router"]

router = APIRouter(prefix="/api/mcts", tags=["mcts"], route_class=StrictJSONRoute)


@router.post("/steps", response_model=MctsStepsAnswer)
async def mcts_steps(request: MctsStepsRequest, lab: Lab) -> Response:
    """Every simulation's selection, expansion, playout and backup, the final tree, and the
    counts of the library's observer events."""
    payload = {**request.position(lab.caps), "simulations": request.simulations,
               "c": request.c, "seed": request.seed, "puct": request.puct}  # fmt: skip
    return await lab.run("mcts_steps", payload)
