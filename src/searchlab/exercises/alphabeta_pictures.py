"""Pictures of an alpha-beta exercise: the question (the bare tree) and the answer (values,
alpha and beta at every visited node, the pruned branches crossed, the principal variation),
drawn by :mod:`searchlab.viz.tree_picture` as SVG or as a picture file.

>>> from searchlab.domains.games.explicit_tree import ExplicitTree
>>> from searchlab.exercises.alphabeta_key import answer_key
>>> key = answer_key(ExplicitTree.from_text("max A: B C\\nmin B: b1=3 b2=5\\nmin C: c1=2 c2=9"))
>>> notes = key_notes(key)
>>> sorted(notes.cut), notes.notes["C"].value, notes.pv
(['c2'], 2.0, ('B', 'b1'))
"""

from __future__ import annotations

from pathlib import Path

from searchlab.exercises.alphabeta_exercise import Exercise
from searchlab.exercises.alphabeta_key import AnswerKey
from searchlab.viz.tree_picture import NodeNote, TreeNotes, render_tree, tree_svg

__all__ = ["exercise_picture", "exercise_svg", "exercise_title", "key_notes"]


def key_notes(key: AnswerKey) -> TreeNotes:
    """What to draw of an answer key: each visited inner node's value and the window it
    returned with, the pruned branches, the unvisited nodes and the principal variation."""
    return TreeNotes(
        notes={
            name: NodeNote(a.value, a.alpha_out, a.beta_out)
            for name, a in key.nodes.items()
            if a.kind != "leaf"
        },
        cut=frozenset(key.pruned),
        unvisited=frozenset(name for name in key.tree.names() if name not in key.nodes),
        pv=key.principal_variation,
    )


def exercise_title(exercise: Exercise, *, answers: bool) -> str:
    """``Alpha-beta exercise (seed 3): answer, value 4, best move B, 17 cuts``."""
    head = f"Alpha-beta exercise (seed {exercise.settings.seed})"
    if not answers:
        return f"{head}: values and cuts? (left to right, prune when α ≥ β)"
    key = exercise.key
    value = int(key.value) if key.value.is_integer() else key.value
    return f"{head}: answer, value {value}, best move {key.best_move}, {len(key.pruned)} cuts"


def exercise_svg(exercise: Exercise, *, answers: bool = True) -> str:
    """The exercise as SVG: the bare tree, or (``answers``) the tree with its answer key."""
    notes = key_notes(exercise.key) if answers else None
    return tree_svg(exercise.tree, notes, title=exercise_title(exercise, answers=answers))


def exercise_picture(exercise: Exercise, path: str | Path, *, answers: bool = True) -> Path:
    """The exercise drawn to the picture file ``path`` (PNG, JPEG, ... by its extension)."""
    notes = key_notes(exercise.key) if answers else None
    return render_tree(exercise.tree, path, notes, title=exercise_title(exercise, answers=answers))
