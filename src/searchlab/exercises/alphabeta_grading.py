"""Grading a student's answer to an alpha-beta exercise, mark by mark.

A student's marks are the values written next to nodes and the branches crossed out as cut
(:class:`Marks`). :func:`grade` checks each mark against the answer key
(:class:`~searchlab.exercises.alphabeta_key.AnswerKey`) and names the first mistake, in the
order alpha-beta meets things (the order of the engine's events), with the rule it breaks:

* a value is due at every visited inner node: MAX takes the largest value of its searched
  children, MIN the smallest (fail-soft: a node that cut keeps the best value it had); a
  visited leaf's value is the given one;
* a pruned node (a cut branch or anything below it) is never evaluated: it has no value;
* a branch is cut exactly when, after an earlier child, ``alpha >= beta`` at its parent
  (equality prunes); the first child is always searched; a node below a cut branch is not
  itself a cut (mark the branch).

Omissions count: a visited inner node without a value, or a pruned branch not marked, is a
mistake (``given`` is ``None``).

>>> from searchlab.domains.games.explicit_tree import ExplicitTree
>>> from searchlab.exercises.alphabeta_key import answer_key
>>> key = answer_key(ExplicitTree.from_text(
...     "max A: B C D\\nmin B: b1=3 b2=12 b3=8\\nmin C: c1=2 c2=4 c3=6\\nmin D: d1=14 d2=5 d3=2"))
>>> grade(key, Marks({"A": 3, "B": 3, "C": 2, "D": 2}, ("c2", "c3"))).correct
True
>>> verdict = grade(key, Marks({"A": 3, "B": 3, "C": 2, "D": 2}, ("c2", "c3", "d3")))
>>> print(verdict.first_mistake.rule)  # doctest: +NORMALIZE_WHITESPACE
d3 is not pruned: at MIN node D, after d2 = 5, beta = 5 > alpha = 3,
so the search goes on (prune only when alpha >= beta)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from searchlab.core.checks import is_finite_number
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.explicit_tree import ExplicitTree
from searchlab.exercises.alphabeta_key import AnswerKey, Cut, NodeAnswer, json_number

__all__ = ["Grade", "HasKey", "MarkResult", "Marks", "Mistake", "grade", "marks_from_dict"]


@dataclass(frozen=True, slots=True)
class Marks:
    """A student's answer: ``values`` (node name -> value written there) and ``cuts`` (names
    of the branches crossed out: the child below the cut edge)."""

    values: Mapping[str, float] = field(default_factory=dict)
    cuts: Iterable[str] = ()


@dataclass(frozen=True, slots=True)
class MarkResult:
    """One mark given by the student and whether it is right."""

    node: str
    kind: str  # "value" or "cut"
    ok: bool


@dataclass(frozen=True, slots=True)
class Mistake:
    """A wrong or missing mark: what was expected (a value, ``"cut"`` or ``"not cut"``, or
    ``None`` for no value), what was given (``None`` when nothing was), and the rule broken,
    in one sentence."""

    node: str
    kind: str
    expected: float | str | None
    given: float | str | None
    rule: str


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict: ``correct`` when every mark is right and none is missing."""

    correct: bool
    marks: tuple[MarkResult, ...]
    first_mistake: Mistake | None
    mistakes: tuple[Mistake, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the web lab serves."""

        def plain(value: float | str | None) -> Any:
            return json_number(value) if isinstance(value, float) else value

        def mistake(m: Mistake | None) -> dict[str, Any] | None:
            if m is None:
                return None
            return {
                "node": m.node,
                "kind": m.kind,
                "expected": plain(m.expected),
                "given": plain(m.given),
                "rule": m.rule,
            }

        return {
            "correct": self.correct,
            "marks": [{"node": m.node, "kind": m.kind, "ok": m.ok} for m in self.marks],
            "first_mistake": mistake(self.first_mistake),
            "mistakes": [mistake(m) for m in self.mistakes],
        }


def marks_from_dict(data: Mapping[str, Any]) -> Marks:
    """Marks from JSON ``{"values": {"B": 3, ...}, "cuts": ["c2", ...]}`` (both optional);
    raises :class:`InvalidParameterError` on another shape or a value that is not a finite
    number."""
    if not isinstance(data, Mapping):
        raise InvalidParameterError(f"marks must be an object with values and cuts, got {data!r}")
    values = data.get("values") or {}
    cuts = data.get("cuts") or []
    if not isinstance(values, Mapping):
        raise InvalidParameterError(f"marks.values must be an object, got {values!r}")
    if not isinstance(cuts, list) or not all(isinstance(c, str) for c in cuts):
        raise InvalidParameterError(f"marks.cuts must be a list of node names, got {cuts!r}")
    return Marks(dict(values), tuple(cuts))


def _text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _names(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return f"{names[0]} is"
    return f"{', '.join(names[:-1])} and {names[-1]} are"


def cut_rule(cut: Cut) -> str:
    """Why the branches of ``cut`` are pruned, in one sentence."""
    if cut.kind == "min":
        return (
            f"MIN node {cut.node}: after child {cut.after} = {_text(cut.after_value)}, "
            f"beta = {_text(cut.beta)} <= alpha = {_text(cut.alpha)}, so "
            f"{_names(cut.pruned)} pruned (prune when alpha >= beta)"
        )
    return (
        f"MAX node {cut.node}: after child {cut.after} = {_text(cut.after_value)}, "
        f"alpha = {_text(cut.alpha)} >= beta = {_text(cut.beta)}, so "
        f"{_names(cut.pruned)} pruned (prune when alpha >= beta)"
    )


def _value_rule(answer: NodeAnswer, tree: ExplicitTree) -> str:
    if answer.kind == "leaf":
        return f"leaf {answer.name}'s value is given: {_text(answer.value)}"
    searched = ", ".join(f"{s.child} = {_text(s.value)}" for s in answer.steps)
    side, pick = ("MAX", "max") if answer.kind == "max" else ("MIN", "min")
    extreme = "maximum" if answer.kind == "max" else "minimum"
    skipped = len(tree.children(answer.name)) - len(answer.steps)
    note = (
        f" (the {skipped} pruned child{'ren' if skipped > 1 else ''} do not count)"
        if skipped
        else ""
    )
    return (
        f"{side} node {answer.name}'s value is the {extreme} of its children's values"
        f"{note}: {pick}({searched}) = {_text(answer.value)}"
    )


def _not_cut_rule(name: str, parent: str, key: AnswerKey) -> str:
    answer = key.nodes[parent]
    position = [s.child for s in answer.steps].index(name)
    side = "MAX" if answer.kind == "max" else "MIN"
    if position == 0:
        return (
            f"{name} is not pruned: it is the first child of {side} node {parent}, "
            "and a first child is always searched"
        )
    before = answer.steps[position - 1]
    if answer.kind == "min":
        window = f"beta = {_text(before.beta)} > alpha = {_text(before.alpha)}"
    else:
        window = f"alpha = {_text(before.alpha)} < beta = {_text(before.beta)}"
    return (
        f"{name} is not pruned: at {side} node {parent}, after {before.child} = "
        f"{_text(before.value)}, {window}, so the search goes on (prune only when alpha >= beta)"
    )


class HasKey(Protocol):
    """Anything holding an answer key (an :class:`~searchlab.exercises.Exercise`)."""

    @property
    def key(self) -> AnswerKey: ...


def grade(exercise: AnswerKey | HasKey, marks: Marks) -> Grade:
    """Check every mark of ``marks`` against the answer key of ``exercise`` (an exercise or
    an answer key); see the module docs.

    Raises:
        InvalidParameterError: a mark names a node that is not in the tree, or a value that
            is not a finite number.
    """
    key = exercise if isinstance(exercise, AnswerKey) else exercise.key
    tree = key.tree
    known = set(tree.names())
    values: dict[str, float] = {}
    for name, given in dict(marks.values).items():
        if name not in known:
            raise InvalidParameterError(f"marks: {name!r} is not a node of the tree")
        if not is_finite_number(given):
            raise InvalidParameterError(
                f"marks: the value of {name!r} must be a finite number, got {given!r}"
            )
        values[name] = float(given)
    cuts = list(dict.fromkeys(marks.cuts))
    for name in cuts:
        if name not in known:
            raise InvalidParameterError(f"marks: {name!r} is not a node of the tree")
        if name == tree.root:
            raise InvalidParameterError(f"marks: the root {name!r} has no branch to cut")

    def cut_above(name: str) -> tuple[Cut, str] | None:
        """The cut that skipped ``name`` or one of its ancestors, and that branch."""
        node: str | None = name
        while node is not None:
            cut = key.cut_of(node)
            if cut is not None:
                return cut, node
            node = tree.parent(node)
        return None

    found: list[tuple[int, Mistake]] = []  # (order in the search, mistake)
    results: list[MarkResult] = []
    for name, given in values.items():
        answer = key.nodes.get(name)
        if answer is None:
            cut, branch = cut_above(name)  # type: ignore[misc]
            where = "" if branch == name else f" (below the pruned branch {branch})"
            rule = (
                f"{name} is pruned{where}: it is never evaluated, so it has no value. "
                + cut_rule(cut)
            )
            found.append((cut.order, Mistake(name, "value", None, given, rule)))
            results.append(MarkResult(name, "value", False))
        elif given != answer.value:
            rule = _value_rule(answer, tree)
            found.append((answer.backup_order, Mistake(name, "value", answer.value, given, rule)))
            results.append(MarkResult(name, "value", False))
        else:
            results.append(MarkResult(name, "value", True))
    for name in cuts:
        cut = key.cut_of(name)
        if cut is not None:
            results.append(MarkResult(name, "cut", True))
            continue
        if name in key.nodes:
            parent = tree.parent(name)
            assert parent is not None
            rule = _not_cut_rule(name, parent, key)
            order = key.nodes[name].visit_order
            found.append((order, Mistake(name, "cut", "not cut", "cut", rule)))
        else:
            above = cut_above(name)
            assert above is not None
            cut_, branch = above
            rule = (
                f"{name} lies below the pruned branch {branch}: mark the branch where alpha "
                f">= beta, not the nodes under it. " + cut_rule(cut_)
            )
            found.append((cut_.order, Mistake(name, "cut", "not cut", "cut", rule)))
        results.append(MarkResult(name, "cut", False))
    for name, answer in key.nodes.items():
        if answer.kind != "leaf" and name not in values:
            rule = f"{name} is visited, so it needs a value: " + _value_rule(answer, tree)
            found.append((answer.backup_order, Mistake(name, "value", answer.value, None, rule)))
    marked = set(cuts)
    for cut in key.cuts:
        for branch in cut.pruned:
            if branch not in marked:
                rule = cut_rule(cut)
                found.append((cut.order, Mistake(branch, "cut", "cut", None, rule)))
    found.sort(key=lambda item: item[0])
    mistakes = tuple(m for _, m in found)
    return Grade(
        correct=not mistakes,
        marks=tuple(results),
        first_mistake=mistakes[0] if mistakes else None,
        mistakes=mistakes,
    )
