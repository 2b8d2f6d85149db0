"""The alpha-beta exercise generator: every tree respects its parameters and has at least
``min_cuts`` cuts; the same seed gives the same exercise; impossible parameters are one clear
error; the exported text is what ``searchlab tree`` reads."""

from __future__ import annotations

import json

import pytest

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.exercises.alphabeta_exercise import (
    Exercise,
    generate_alphabeta,
    parse_value_range,
    tree_text,
)
from searchlab.exercises.alphabeta_markdown import exercise_markdown


def check_bounds(exercise: Exercise) -> None:
    s = exercise.settings
    tree = exercise.tree
    assert tree.height() == s.depth
    assert len(tree.leaves()) <= s.leaves
    for name in tree.names():
        kind = tree.kind(name)
        depth = 0
        parent = tree.parent(name)
        while parent is not None:
            depth, parent = depth + 1, tree.parent(parent)
        if kind == "leaf":
            value = tree.value(name)
            assert value == int(value) and s.low <= value <= s.high
        else:
            assert 2 <= len(tree.children(name)) <= s.branching, name
            assert kind == ("max" if depth % 2 == 0 else "min"), name
    # the cuts counted by the library's own search, not by the key
    pruned = alphabeta(ExplicitTreeGame(tree)).stats["pruned"]
    assert pruned == len(exercise.key.pruned) >= s.min_cuts


def test_defaults_are_the_course_generators() -> None:
    exercise = generate_alphabeta(seed=0)
    s = exercise.settings
    assert (s.depth, s.branching, s.leaves, s.low, s.high, s.min_cuts) == (6, 3, 50, -10, 10, 16)
    check_bounds(exercise)


@pytest.mark.parametrize("seed", range(60))
def test_default_exercises_respect_every_bound(seed: int) -> None:
    check_bounds(generate_alphabeta(seed=seed))


@pytest.mark.parametrize(
    ("depth", "branching", "leaves", "low", "high", "min_cuts"),
    [
        (1, 2, 2, 0, 0, 0),
        (2, 3, 9, -3, 3, 1),
        (3, 2, 8, 0, 1, 1),
        (4, 4, 30, -99, 99, 6),
        (5, 3, 40, 1, 5, 10),
        (8, 3, 60, -10, 10, 16),
    ],
)
def test_other_parameters_are_respected(
    depth: int, branching: int, leaves: int, low: int, high: int, min_cuts: int
) -> None:
    for seed in range(15):
        exercise = generate_alphabeta(
            depth=depth,
            branching=branching,
            leaves=leaves,
            low=low,
            high=high,
            min_cuts=min_cuts,
            seed=seed,
        )
        check_bounds(exercise)


def test_same_seed_same_exercise_and_seeds_differ() -> None:
    first = generate_alphabeta(seed=11)
    again = generate_alphabeta(seed=11)
    assert first.text == again.text and first.to_dict() == again.to_dict()
    texts = {generate_alphabeta(seed=seed).text for seed in range(12)}
    assert len(texts) == 12


def test_exported_text_reads_back_as_the_same_tree() -> None:
    for seed in range(20):
        exercise = generate_alphabeta(depth=4, leaves=20, min_cuts=4, seed=seed)
        again = ExplicitTree.from_text(exercise.text)
        assert again.names() == exercise.tree.names()
        assert [again.value(x) for x in again.leaves()] == [
            exercise.tree.value(x) for x in exercise.tree.leaves()
        ]
        assert tree_text(again) in exercise.text


def test_names_follow_the_course_convention() -> None:
    tree = generate_alphabeta(seed=3).tree
    inner = [n for n in tree.names() if tree.kind(n) != "leaf"]
    assert tree.root == "A"
    level_order, index = [tree.root], 0
    while index < len(level_order):
        level_order.extend(c for c in tree.children(level_order[index]))
        index += 1
    named = [n for n in level_order if tree.kind(n) != "leaf"]
    letters = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P"]
    assert named[: len(letters)] == letters[: len(named)]
    assert sorted(named) == sorted(inner)
    for name in tree.leaves():
        parent = tree.parent(name)
        assert parent is not None
        position = tree.children(parent).index(name) + 1
        assert name == f"{parent.lower()}{position}"


def test_json_export_is_plain_json_with_tree_and_key() -> None:
    exercise = generate_alphabeta(depth=3, leaves=12, min_cuts=3, seed=5)
    data = json.loads(json.dumps(exercise.to_dict()))
    assert data["kind"] == "alphabeta" and data["seed"] == 5
    assert data["settings"]["depth"] == 3
    assert data["cuts"] == len(exercise.key.pruned) >= 3
    root = data["root"]
    assert root["name"] == "A" and root["kind"] == "max" and root["value"] is None

    def walk(node: dict) -> list[dict]:
        return [node] + [n for child in node["children"] for n in walk(child)]

    nodes = walk(root)
    assert len(nodes) == len(exercise.tree)
    for node in nodes:
        if node["kind"] == "leaf":
            assert node["value"] == exercise.tree.value(node["name"])
            assert node["player"] in ("max", "min")
    assert data["key"]["value"] == exercise.key.value
    assert ExplicitTree.from_text(data["text"]).names() == exercise.tree.names()


def test_markdown_has_question_and_key() -> None:
    exercise = generate_alphabeta(depth=3, leaves=12, min_cuts=3, seed=2)
    text = exercise_markdown(exercise)
    assert "## Answer key" in text
    assert f"Best move: **{exercise.key.best_move}**" in text
    for name in exercise.tree.leaves():
        assert f"- {name} = " in text
    for cut in exercise.key.cuts:
        assert f"node {cut.node}: after child {cut.after}" in text
    question = exercise_markdown(exercise, answers=False)
    assert "Answer key" not in question and "Best move" not in question


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"depth": 0}, "depth must be 1..12"),
        ({"depth": 13}, "depth must be 1..12"),
        ({"branching": 1}, "branching must be >= 2"),
        ({"depth": 6, "leaves": 6}, "at least 7 leaves"),
        ({"low": 3, "high": 2}, "low end is above the high end"),
        ({"min_cuts": -1}, "min_cuts must be >= 0"),
        ({"leaves": 20, "min_cuts": 19}, "cannot be reached"),
        ({"depth": 2, "branching": 2, "leaves": 50, "min_cuts": 3}, "at most 4 leaves"),
        ({"depth": 1, "leaves": 3, "min_cuts": 1}, "use depth >= 2"),
        ({"depth": 2.5}, "depth must be a whole number"),
        ({"seed": True}, "seed must be a whole number"),
        ({"leaves": 5000}, "leaves must be at most"),
        ({"max_tries": 0}, "max_tries must be >= 1"),
    ],
)
def test_impossible_parameters_are_one_clear_error(kwargs: dict, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment) as info:
        generate_alphabeta(**kwargs)
    assert "\n" not in str(info.value)


def test_tries_exhausted_is_one_clear_error() -> None:
    with pytest.raises(InvalidParameterError, match=r"no tree with at least 47 cuts in 3 tries"):
        generate_alphabeta(min_cuts=47, max_tries=3)


@pytest.mark.parametrize(
    ("text", "expected"), [("-10..10", (-10, 10)), (" 0 .. 0 ", (0, 0)), ("+1..7", (1, 7))]
)
def test_value_ranges(text: str, expected: tuple[int, int]) -> None:
    assert parse_value_range(text) == expected


@pytest.mark.parametrize("text", ["", "10", "1..", "..3", "a..b", "1.5..3", "nan..1", "1...3"])
def test_malformed_value_ranges(text: str) -> None:
    with pytest.raises(InvalidParameterError, match=r"LO\.\.HI"):
        parse_value_range(text)
