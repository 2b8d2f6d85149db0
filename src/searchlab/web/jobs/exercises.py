"""The exercises' jobs: an alpha-beta exercise and its grading, an A* exercise."""

from __future__ import annotations

from typing import Any

__all__ = ["exercise_alphabeta_job", "exercise_astar_job", "exercise_grade_job"]


def exercise_alphabeta_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/exercise/alphabeta: a generated exercise and its answer key."""
    from searchlab.exercises.alphabeta_exercise import generate_alphabeta

    return generate_alphabeta(**payload["settings"]).to_dict()


def exercise_grade_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """POST /api/exercise/alphabeta/grade: the student's marks against the key of the
    exercise the same settings and seed make."""
    from searchlab.exercises.alphabeta_exercise import generate_alphabeta
    from searchlab.exercises.alphabeta_grading import grade, marks_from_dict

    exercise = generate_alphabeta(**payload["settings"])
    return grade(exercise, marks_from_dict(payload["marks"])).to_dict()


def exercise_astar_job(payload: dict[str, Any], context: Any) -> dict[str, Any]:
    """GET /api/exercise/astar: an A* exercise and its answer key."""
    from searchlab.exercises.astar_exercise import generate_astar

    return generate_astar(**payload["settings"]).to_dict()
