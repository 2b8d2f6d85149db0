"""The lab's JSON API, one router per lab (FastAPI's ``APIRouter``): :data:`ROUTERS`.

Each router declares its requests and answers as pydantic models
(:mod:`searchlab.web.models`), takes the lab's state by dependency (:mod:`searchlab.web.deps`)
and runs the work in a worker process; they all read bodies strictly
(:class:`~searchlab.web.body.StrictJSONRoute`).
"""

from __future__ import annotations

from fastapi import APIRouter

from searchlab.web.routers import exercises, mcts, meta, path, play, trees

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    meta.router,
    play.router,
    path.router,
    trees.router,
    mcts.router,
    exercises.router,
)
"""Every ``/api`` router: the games, agents and status; then each lab's."""
