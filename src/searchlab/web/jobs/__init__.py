"""What a worker process runs: one function per job kind, payload in, JSON-ready dict out.

Every function takes the payload the server checked (:mod:`searchlab.web.models`) and a
:class:`~searchlab.web.workers.JobContext`, calls the library's public functions with an
observer where it needs the events, and returns the answer of its route. Errors the library
raises (an illegal move, an unknown name, a bad parameter) travel back as one line and HTTP
400. The forkserver imports this module once, and each worker runs :func:`warm_up` before its
first job, so every search starts warm.

One module per lab (:mod:`~searchlab.web.jobs.play`, :mod:`~searchlab.web.jobs.path`,
:mod:`~searchlab.web.jobs.trees`, :mod:`~searchlab.web.jobs.mcts`,
:mod:`~searchlab.web.jobs.exercises`), what they share (:mod:`~searchlab.web.jobs.common`)
and the warm-up (:mod:`~searchlab.web.jobs.warmup`); :data:`JOBS` names them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchlab.web.jobs.common import json_number, position
from searchlab.web.jobs.exercises import (
    exercise_alphabeta_job,
    exercise_astar_job,
    exercise_grade_job,
)
from searchlab.web.jobs.mcts import mcts_steps_job
from searchlab.web.jobs.path import MAX_EVENTS, map_job, path_job
from searchlab.web.jobs.play import search_job, view_job
from searchlab.web.jobs.trees import parse_tree, tree_job
from searchlab.web.jobs.warmup import warm_up

__all__ = [
    "JOBS",
    "MAX_EVENTS",
    "JobFunction",
    "json_number",
    "parse_tree",
    "path_job",
    "position",
    "search_job",
    "warm_up",
]

JobFunction = Callable[[dict[str, Any], Any], dict[str, Any]]
"""A job: the payload the server checked and the worker's context in, a JSON-ready dict out."""

JOBS: dict[str, JobFunction] = {
    "view": view_job,
    "search": search_job,
    "map": map_job,
    "path": path_job,
    "tree": tree_job,
    "mcts_steps": mcts_steps_job,
    "exercise_alphabeta": exercise_alphabeta_job,
    "exercise_grade": exercise_grade_job,
    "exercise_astar": exercise_astar_job,
}
"""Every job kind a worker runs."""
