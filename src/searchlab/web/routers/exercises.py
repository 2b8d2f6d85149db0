"""The exercises' routes: an alpha-beta exercise, its grading, an A* exercise."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.responses import Response

from searchlab.web.body import StrictJSONRoute
from searchlab.web.deps import Lab
from searchlab.web.models import (
    AstarExerciseQuery,
    ExerciseAnswer,
    ExerciseQuery,
    GradeAnswer,
    GradeRequest,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/exercise", tags=["exercises"], route_class=StrictJSONRoute)


@router.get("/alphabeta", response_model=ExerciseAnswer)
async def exercise_alphabeta(query: Annotated[ExerciseQuery, Query()], lab: Lab) -> Response:
    """An alpha-beta exercise (tree and answer key) from its settings and seed."""
    return await lab.run_quick("exercise_alphabeta", {"settings": query.settings(lab.caps)})


@router.post("/alphabeta/grade", response_model=GradeAnswer)
async def exercise_grade(request: GradeRequest, lab: Lab) -> Response:
    """The grade of a student's marks against the key of the exercise the same settings make."""
    payload = {"settings": request.settings(lab.caps), "marks": request.marks}
    return await lab.run_quick("exercise_grade", payload)


@router.get("/astar", response_model=ExerciseAnswer)
async def exercise_astar(query: Annotated[AstarExerciseQuery, Query()], lab: Lab) -> Response:
    """An A* exercise and its answer key."""
    return await lab.run_quick("exercise_astar", {"settings": query.settings()})
