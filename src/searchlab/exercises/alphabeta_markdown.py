"""An alpha-beta exercise as Markdown: the question (the tree as an indented list, and as the
text ``searchlab tree`` reads) and the answer key (value, best move, cuts, and a table of
alpha, beta and the value at every visited node).

>>> from searchlab.exercises.alphabeta_exercise import generate_alphabeta
>>> text = exercise_markdown(generate_alphabeta(depth=2, leaves=6, min_cuts=1, seed=1))
>>> text.splitlines()[0]
'# Alpha-beta exercise (seed 1)'
>>> "## Answer key" in text, "## Answer key" in exercise_markdown(
...     generate_alphabeta(depth=2, leaves=6, min_cuts=1, seed=1), answers=False)
(True, False)
"""

from __future__ import annotations

import math

from searchlab.domains.games.explicit_tree import ExplicitTree
from searchlab.exercises.alphabeta_exercise import Exercise
from searchlab.exercises.alphabeta_grading import cut_rule
from searchlab.exercises.alphabeta_key import AnswerKey

__all__ = ["answer_markdown", "exercise_markdown", "number_text", "tree_outline"]

RULES = (
    "Search the children left to right, MAX at the root (squares in the pictures), MIN below "
    "it (circles), levels alternating. Keep alpha (the best MAX can force so far, from "
    "-inf) and beta (the best MIN can force, from +inf); prune the remaining children of a "
    "node as soon as alpha >= beta (equality prunes too)."
)


def number_text(value: float) -> str:
    """``3``, ``2.5``, ``+inf``, ``-inf``.

    >>> number_text(3.0), number_text(-math.inf)
    ('3', '-inf')
    """
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def tree_outline(tree: ExplicitTree) -> str:
    """The tree as a Markdown indented list, children in order."""
    lines = []
    stack = [(tree.root, 0)]
    while stack:
        name, depth = stack.pop()
        kind = tree.kind(name)
        if kind == "leaf":
            lines.append(f"{'  ' * depth}- {name} = {number_text(tree.value(name))}")
        else:
            lines.append(f"{'  ' * depth}- {name} ({kind.upper()})")
            stack.extend((child, depth + 1) for child in reversed(tree.children(name)))
    return "\n".join(lines)


def answer_markdown(key: AnswerKey) -> str:
    """The answer key: value, best move, the cuts with their reasons, and the visited nodes."""
    out = [
        f"- Root value: **{number_text(key.value)}**",
        f"- Best move: **{key.best_move}** (principal variation "
        f"{' '.join([key.tree.root, *key.principal_variation])})",
        f"- Cuts: {len(key.pruned)} pruned branches ({', '.join(key.pruned) or 'none'}) at "
        f"{len(key.cuts)} nodes; {key.leaves_evaluated} of {len(key.tree.leaves())} leaves "
        "evaluated",
        "",
        "### Cuts",
        "",
    ]
    out.extend(f"{i}. {cut_rule(cut)}." for i, cut in enumerate(key.cuts, start=1))
    if not key.cuts:
        out.append("(none)")
    out += [
        "",
        "### Visited nodes",
        "",
        "Alpha and beta on entry and when the node returns; the value backed up (a node that "
        "cut keeps the best value it had).",
        "",
        "| node | type | alpha in | beta in | value | alpha out | beta out | pruned |",
        "|---|---|---|---|---|---|---|---|",
    ]
    pruned_at = {cut.node: cut.pruned for cut in key.cuts}
    for name in key.visited:
        a = key.nodes[name]
        if a.kind == "leaf":
            continue
        out.append(
            f"| {name} | {a.kind.upper()} | {number_text(a.alpha_in)} | {number_text(a.beta_in)}"
            f" | **{number_text(a.value)}** | {number_text(a.alpha_out)} | "
            f"{number_text(a.beta_out)} | {', '.join(pruned_at.get(name, ()))} |"
        )
    return "\n".join(out)


def exercise_markdown(exercise: Exercise, *, answers: bool = True) -> str:
    """The exercise (and, with ``answers``, its key) as one Markdown document."""
    s = exercise.settings
    out = [
        f"# Alpha-beta exercise (seed {s.seed})",
        "",
        RULES,
        "",
        "Give the value of every node alpha-beta visits, and cross out every pruned branch.",
        "",
        tree_outline(exercise.tree),
        "",
        "The same tree for `searchlab tree FILE --alphabeta`:",
        "",
        "```",
        exercise.text.rstrip("\n"),
        "```",
    ]
    if answers:
        out += ["", "## Answer key", "", answer_markdown(exercise.key)]
    return "\n".join(out) + "\n"
