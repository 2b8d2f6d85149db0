"""Layer 3 (teaching, beside agents and viz): exercises for a course on search, with answer
keys computed by the library's own searches and their observer events. Imports core, domains,
algorithms and viz (never the other way round).

* :func:`generate_alphabeta` — random alpha-beta pruning exercises (:class:`Exercise`) with
  their :class:`AnswerKey` (:func:`answer_key` works on any explicit tree), graded mark by mark
  by :func:`grade`;
* :func:`generate_astar` — random A* exercises on a small graph (:class:`AStarExercise`).

>>> exercise = generate_alphabeta(depth=3, leaves=12, min_cuts=3, seed=1)
>>> marks = Marks({n: a.value for n, a in exercise.key.nodes.items()}, exercise.key.pruned)
>>> grade(exercise, marks).correct
True
"""

from searchlab.exercises.alphabeta_exercise import (
    AlphaBetaSettings,
    Exercise,
    generate_alphabeta,
    parse_value_range,
)
from searchlab.exercises.alphabeta_grading import Grade, Marks, Mistake, grade, marks_from_dict
from searchlab.exercises.alphabeta_key import AnswerKey, answer_key
from searchlab.exercises.astar_exercise import AStarExercise, AStarKey, generate_astar

__all__ = [
    "AStarExercise",
    "AStarKey",
    "AlphaBetaSettings",
    "AnswerKey",
    "Exercise",
    "Grade",
    "Marks",
    "Mistake",
    "answer_key",
    "generate_alphabeta",
    "generate_astar",
    "grade",
    "marks_from_dict",
    "parse_value_range",
]
