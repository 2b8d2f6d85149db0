"""Grading: the right marks pass; each kind of deliberate mistake is the first mistake, named
with the rule it breaks; the first mistake is the one alpha-beta meets first."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.explicit_tree import load_tree
from searchlab.exercises.alphabeta_exercise import Exercise, generate_alphabeta
from searchlab.exercises.alphabeta_grading import Marks, grade, marks_from_dict
from searchlab.exercises.alphabeta_key import AnswerKey, answer_key

TREES = Path(__file__).resolve().parents[2] / "examples" / "trees"


def right_marks(key: AnswerKey) -> tuple[dict[str, float], list[str]]:
    values = {n: a.value for n, a in key.nodes.items() if a.kind != "leaf"}
    return values, list(key.pruned)


@pytest.fixture(scope="module")
def aima() -> AnswerKey:
    return answer_key(load_tree(TREES / "aima_fig5_2.tree"))


@pytest.fixture(scope="module")
def exercises() -> list[Exercise]:
    return [generate_alphabeta(seed=seed) for seed in range(40)]


def test_right_marks_pass(exercises: list[Exercise]) -> None:
    for exercise in exercises:
        values, cuts = right_marks(exercise.key)
        verdict = grade(exercise, Marks(values, cuts))
        assert verdict.correct, verdict.first_mistake
        assert verdict.first_mistake is None and not verdict.mistakes
        assert all(mark.ok for mark in verdict.marks)
        assert len(verdict.marks) == len(values) + len(cuts)


def test_leaf_values_may_be_given_too(aima: AnswerKey) -> None:
    values, cuts = right_marks(aima)
    assert grade(aima, Marks({**values, "b1": 3, "d2": 5}, cuts)).correct
    wrong = grade(aima, Marks({**values, "b2": 11}, cuts)).first_mistake
    assert wrong is not None and wrong.node == "b2" and "leaf b2's value is given: 12" in wrong.rule


def test_aima_examples_from_the_brief(aima: AnswerKey) -> None:
    values, cuts = right_marks(aima)
    missing = grade(aima, Marks(values, ["c2"])).first_mistake
    assert missing is not None
    assert (missing.node, missing.kind, missing.expected, missing.given) == (
        "c3",
        "cut",
        "cut",
        None,
    )
    assert missing.rule == (
        "MIN node C: after child c1 = 2, beta = 2 <= alpha = 3, so c2 and c3 are pruned "
        "(prune when alpha >= beta)"
    )
    extra = grade(aima, Marks(values, [*cuts, "d3"])).first_mistake
    assert extra is not None and (extra.node, extra.kind, extra.given) == ("d3", "cut", "cut")
    assert extra.rule.startswith("d3 is not pruned: at MIN node D, after d2 = 5, beta = 5 > ")
    assert "alpha = 3" in extra.rule and "prune only when alpha >= beta" in extra.rule
    wrong_min = grade(aima, Marks({**values, "B": 8}, cuts)).first_mistake
    assert wrong_min is not None and (wrong_min.node, wrong_min.expected) == ("B", 3)
    assert "MIN node B's value is the minimum of its children's values" in wrong_min.rule
    assert "min(b1 = 3, b2 = 12, b3 = 8) = 3" in wrong_min.rule


def first_cut_inner(exercise: Exercise) -> tuple[str, str]:
    """A node that pruned, and its kind."""
    cut = exercise.key.cuts[0]
    return cut.node, cut.kind


@pytest.mark.parametrize("kind", ["max", "min"])
def test_a_wrong_value_names_the_max_or_min_rule(exercises: list[Exercise], kind: str) -> None:
    checked = 0
    for exercise in exercises:
        key = exercise.key
        values, cuts = right_marks(key)
        for name in key.visited:
            answer = key.nodes[name]
            if answer.kind != kind:
                continue
            verdict = grade(exercise, Marks({**values, name: answer.value + 1}, cuts))
            mistake = verdict.first_mistake
            assert mistake is not None and not verdict.correct
            assert (mistake.node, mistake.kind, mistake.expected, mistake.given) == (
                name,
                "value",
                answer.value,
                answer.value + 1,
            )
            word = "maximum" if kind == "max" else "minimum"
            assert f"{kind.upper()} node {name}'s value is the {word}" in mistake.rule
            assert [m.node for m in verdict.marks if not m.ok] == [name]
            checked += 1
    assert checked > 100


def test_a_missing_cut_names_the_cut_and_its_window(exercises: list[Exercise]) -> None:
    for exercise in exercises:
        key = exercise.key
        values, cuts = right_marks(key)
        for cut in key.cuts:
            for branch in cut.pruned:
                mistake = grade(
                    exercise, Marks(values, [c for c in cuts if c != branch])
                ).first_mistake
                assert mistake is not None
                assert (mistake.node, mistake.kind, mistake.given) == (branch, "cut", None)
                side = "MIN" if cut.kind == "min" else "MAX"
                assert mistake.rule.startswith(f"{side} node {cut.node}: after child {cut.after}")
                assert branch in mistake.rule and "(prune when alpha >= beta)" in mistake.rule
                assert cut.alpha >= cut.beta


def test_a_visited_branch_marked_as_cut_is_not_pruned(exercises: list[Exercise]) -> None:
    for exercise in exercises:
        key = exercise.key
        values, cuts = right_marks(key)
        for name in key.visited:
            if name == exercise.tree.root:
                continue
            mistake = grade(exercise, Marks(values, [*cuts, name])).first_mistake
            assert mistake is not None
            assert (mistake.node, mistake.kind, mistake.expected) == (name, "cut", "not cut")
            assert mistake.rule.startswith(f"{name} is not pruned")
            parent = exercise.tree.parent(name)
            assert parent is not None
            if exercise.tree.children(parent)[0] == name:
                assert "a first child is always searched" in mistake.rule
            else:
                assert "prune only when alpha >= beta" in mistake.rule


def test_a_value_for_a_pruned_node_and_a_cut_below_a_cut(exercises: list[Exercise]) -> None:
    seen_below = 0
    for exercise in exercises:
        key, tree = exercise.key, exercise.tree
        values, cuts = right_marks(key)
        for cut in key.cuts:
            for branch in cut.pruned:
                mistake = grade(exercise, Marks({**values, branch: 0}, cuts)).first_mistake
                assert mistake is not None and (mistake.node, mistake.kind) == (branch, "value")
                assert mistake.expected is None
                assert "never evaluated, so it has no value" in mistake.rule
                for below in tree.names():
                    ancestor = tree.parent(below)
                    while ancestor is not None and ancestor != branch:
                        ancestor = tree.parent(ancestor)
                    if ancestor is None:
                        continue
                    mistake = grade(exercise, Marks(values, [*cuts, below])).first_mistake
                    assert mistake is not None and mistake.node == below
                    assert f"lies below the pruned branch {branch}" in mistake.rule
                    seen_below += 1
    assert seen_below > 50


def test_a_missing_value_is_a_mistake(exercises: list[Exercise]) -> None:
    exercise = exercises[0]
    values, cuts = right_marks(exercise.key)
    name = next(iter(values))
    del values[name]
    mistake = grade(exercise, Marks(values, cuts)).first_mistake
    assert mistake is not None and (mistake.node, mistake.given) == (name, None)
    assert f"{name} is visited, so it needs a value" in mistake.rule


def test_the_first_mistake_is_the_one_met_first(exercises: list[Exercise]) -> None:
    for exercise in exercises:
        key = exercise.key
        values, cuts = right_marks(key)
        inner = [n for n in key.visited if key.nodes[n].kind != "leaf"]
        early, late = inner[-1], inner[0]  # the root returns last: its backup comes last
        wrong = {**values, early: values[early] + 1, late: values[late] - 1}
        verdict = grade(exercise, Marks(wrong, cuts))
        assert verdict.first_mistake is not None
        assert verdict.first_mistake.node == (
            early if key.nodes[early].backup_order < key.nodes[late].backup_order else late
        )
        assert len(verdict.mistakes) == 2


def test_grade_json_shape(aima: AnswerKey) -> None:
    values, cuts = right_marks(aima)
    data = grade(aima, marks_from_dict({"values": {**values, "C": 4}, "cuts": cuts})).to_dict()
    assert data["correct"] is False
    assert {"node": "C", "kind": "value", "ok": False} in data["marks"]
    assert data["first_mistake"]["node"] == "C"
    assert data["first_mistake"]["expected"] == 2 and data["first_mistake"]["given"] == 4
    assert isinstance(data["first_mistake"]["rule"], str)


@pytest.mark.parametrize(
    ("marks", "fragment"),
    [
        ({"values": {"Z": 1}}, "'Z' is not a node of the tree"),
        ({"cuts": ["nope"]}, "'nope' is not a node of the tree"),
        ({"cuts": ["A"]}, "the root 'A' has no branch to cut"),
        ({"values": {"B": math.nan}}, "must be a finite number"),
        ({"values": {"B": "3"}}, "must be a finite number"),
        ({"values": {"B": True}}, "must be a finite number"),
    ],
)
def test_bad_marks_are_one_clear_error(aima: AnswerKey, marks: dict, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment):
        grade(aima, marks_from_dict(marks))


@pytest.mark.parametrize(
    "data", [[], {"values": [1]}, {"cuts": "c2"}, {"cuts": [1]}], ids=["list", "v", "c", "c1"]
)
def test_malformed_marks(data: object) -> None:
    with pytest.raises(InvalidParameterError):
        marks_from_dict(data)  # type: ignore[arg-type]
