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

from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.core.game_events import Backup
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.exercises.alphabeta_exercise import Exercise
from searchlab.exercises.alphabeta_key import AnswerKey
from searchlab.viz.tree_picture import NodeNote, TreeNotes, render_tree, tree_svg

__all__ = ["exercise_picture", "exercise_svg", "exercise_title", "key_notes", "minimax_notes"]


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


def minimax_notes(tree: ExplicitTree) -> TreeNotes:
    """What to draw of plain minimax on ``tree``: every inner node's value (read from the
    search's :class:`~searchlab.core.game_events.Backup` events) and the principal
    variation; minimax visits everything and prunes nothing.

    >>> notes = minimax_notes(ExplicitTree.from_text("max A: B C\\nmin B: 3 5\\nmin C: 2 9"))
    >>> notes.notes["C"].value, notes.pv, notes.cut
    (2.0, ('B', 'B.1'), frozenset())
    """
    game = ExplicitTreeGame(tree)
    recorder = TraceRecorder()
    result = minimax(game, observer=recorder)
    values: dict[str, NodeNote] = {}
    for event in recorder.events:
        if isinstance(event, Backup) and tree.kind(str(event.key)) != "leaf":
            values[str(event.key)] = NodeNote(event.value)
    pv, state = [], game.initial_state()
    for action in result.principal_variation:
        pv.append(state.action_to_string(action))
        state = state.apply(action)
    return TreeNotes(notes=values, pv=tuple(pv))


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
