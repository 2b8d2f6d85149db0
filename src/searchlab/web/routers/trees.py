"""The Trees lab's route: ``POST /api/tree``, minimax or alpha-beta on a tree, step by step."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.models import TreeAnswer, TreeRequest

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["trees"], route_class=StrictJSONRoute)


@router.post("/tree", response_model=TreeAnswer)
async def tree(request: TreeRequest, lab: Lab) -> Response:
    """The tree and the search's steps (visit, prune with its reason, backup); the worker
    refuses a tree over the leaves cap."""
    payload = {"tree": request.tree, "algorithm": request.algorithm,
               "max_leaves": lab.caps.tree_leaves}  # fmt: skip
    return await lab.run("tree", payload)
