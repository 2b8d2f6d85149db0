"""The answer key of an alpha-beta exercise against an independent textbook alpha-beta written
here (children left to right, MAX at ``max`` nodes, prune when alpha >= beta, fail-soft
values) on thousands of seeded trees, and against the worked trees of examples/trees/ whose
comments state the known answers (AIMA Fig. 5.2, a deeper cutoff)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from searchlab.algorithms.adversarial.alphabeta import alphabeta, alphabeta_trace, pruned_leaves
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame, load_tree
from searchlab.exercises.alphabeta_exercise import generate_alphabeta
from searchlab.exercises.alphabeta_key import AnswerKey, answer_key

TREES = Path(__file__).resolve().parents[2] / "examples" / "trees"


@dataclass
class Textbook:
    """What the textbook algorithm records: per node the window on entry, the value, the
    window after each child, and the cuts ``node -> (after, alpha, beta, pruned)``."""

    entry: dict[str, tuple[float, float]] = field(default_factory=dict)
    value: dict[str, float] = field(default_factory=dict)
    after: dict[str, list[tuple[str, float, float, float]]] = field(default_factory=dict)
    cuts: dict[str, tuple[str, float, float, tuple[str, ...]]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


def textbook_alphabeta(tree: ExplicitTree) -> Textbook:
    """Russell & Norvig's ALPHA-BETA-SEARCH, MAX-VALUE and MIN-VALUE, written out plainly."""
    book = Textbook()

    def visit(node: str, alpha: float, beta: float) -> float:
        book.entry[node] = (alpha, beta)
        book.order.append(node)
        kind = tree.kind(node)
        if kind == "leaf":
            book.value[node] = tree.value(node)
            return book.value[node]
        children = tree.children(node)
        v = -math.inf if kind == "max" else math.inf
        book.after[node] = []
        for i, child in enumerate(children):
            w = visit(child, alpha, beta)
            if kind == "max":
                v = max(v, w)
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                beta = min(beta, v)
            book.after[node].append((child, w, alpha, beta))
            if alpha >= beta and i + 1 < len(children):
                book.cuts[node] = (child, alpha, beta, tuple(children[i + 1 :]))
                break
            if alpha >= beta:
                break
        book.value[node] = v
        return v

    visit(tree.root, -math.inf, math.inf)
    return book


def assert_key_matches(key: AnswerKey, tree: ExplicitTree) -> None:
    book = textbook_alphabeta(tree)
    assert key.value == book.value[tree.root]
    assert set(key.nodes) == set(book.entry)
    assert list(key.visited) == book.order
    for name, answer in key.nodes.items():
        assert (answer.alpha_in, answer.beta_in) == book.entry[name], name
        assert answer.value == book.value[name], name
        if answer.kind != "leaf":
            steps = [(s.child, s.value, s.alpha, s.beta) for s in answer.steps]
            assert steps == book.after[name], name
            assert (answer.alpha_out, answer.beta_out) == steps[-1][2:], name
    cuts = {c.node: (c.after, c.alpha, c.beta, c.pruned) for c in key.cuts}
    assert cuts == book.cuts
    for cut in key.cuts:
        assert cut.alpha >= cut.beta
        assert cut.after_value == book.value[cut.after]
    # the best move: the first root child reaching the root's value
    best = next(c for c in tree.children(tree.root) if book.value.get(c) == key.value)
    assert key.best_move == best
    pruned_below = [leaf for branch in key.pruned for leaf in tree.subtree_leaves(branch)]
    assert list(key.pruned_leaves) == pruned_below
    assert key.leaves_evaluated == sum(1 for n in book.entry if tree.kind(n) == "leaf")


def random_nested(rng: random.Random, depth: int, branching: int, low: int, high: int) -> list:
    """A random tree as nested lists, with leaves at varying depths."""

    def build(level: int) -> list | int:
        if level == depth or (level > 0 and rng.random() < 0.25):
            return rng.randint(low, high)
        return [build(level + 1) for _ in range(rng.randint(1, branching))]

    root = build(0)
    return root if isinstance(root, list) else [root]


def test_key_matches_a_textbook_alphabeta_on_thousands_of_random_trees() -> None:
    rng = random.Random(2026)
    for _ in range(2500):
        nested = random_nested(rng, rng.randint(1, 6), rng.randint(2, 4), -5, 5)
        tree = ExplicitTree.from_nested(nested, first=rng.choice(["max", "min"]))
        assert_key_matches(answer_key(tree), tree)


@pytest.mark.parametrize("seed", range(300))
def test_key_of_generated_exercises_matches_the_textbook(seed: int) -> None:
    depth = 2 + seed % 5
    branching = 2 + seed % 3
    min_cuts = seed % 4 if depth > 2 and branching > 2 else seed % 2  # small trees cut little
    exercise = generate_alphabeta(
        depth=depth, branching=branching, leaves=4 * depth + 4, min_cuts=min_cuts, seed=seed
    )
    assert_key_matches(exercise.key, exercise.tree)


def test_key_agrees_with_the_engines_own_trace_and_pruned_leaves() -> None:
    for seed in range(200):
        exercise = generate_alphabeta(depth=4, leaves=20, min_cuts=3, seed=seed)
        game = ExplicitTreeGame(exercise.tree)
        trace = alphabeta_trace(game)
        assert [e.name for e in trace] == list(exercise.key.visited)
        by_node = {e.name: (e.pruned, e.cut_alpha, e.cut_beta) for e in trace if e.pruned}
        assert by_node == {c.node: (c.pruned, c.alpha, c.beta) for c in exercise.key.cuts}
        alpha_beta = {e.name: (e.alpha, e.beta, e.value) for e in trace}
        assert alpha_beta == {
            n: (a.alpha_in, a.beta_in, a.value) for n, a in exercise.key.nodes.items()
        }
        assert sorted(pruned_leaves(game)) == sorted(exercise.key.pruned_leaves)
        assert alphabeta(game).stats["pruned"] == len(exercise.key.pruned)


def test_aima_figure_5_2() -> None:
    # the file's comments: value 3, MAX plays to B, C's second and third leaves are pruned
    # because after C.1 = 2, C is worth at most 2 < 3 = alpha
    for name in ("aima_fig5_2.tree", "aima_fig5_2.json"):
        tree = load_tree(TREES / name)
        key = answer_key(tree)
        assert_key_matches(key, tree)
        assert key.value == 3
        assert key.best_move == "B"
        assert len(key.cuts) == 1
        cut = key.cuts[0]
        assert cut.node == "C"
        assert cut.after == tree.children("C")[0]
        assert (cut.after_value, cut.alpha, cut.beta) == (2, 3, 2)
        assert cut.pruned == tree.children("C")[1:]
        assert key.nodes["B"].value == 3 and key.nodes["D"].value == 2


def test_deep_cutoff_tree() -> None:
    # the file's comments: value 5 (A -> B); at F (alpha -inf, beta 5) f1 = 7 >= 5 prunes f2;
    # at C (alpha 5) E is worth 4 <= 5, so the whole subtree G is pruned
    tree = load_tree(TREES / "deep_cutoff.tree")
    key = answer_key(tree)
    assert_key_matches(key, tree)
    assert (key.value, key.best_move) == (5, "B")
    cuts = {c.node: c for c in key.cuts}
    assert set(cuts) == {"F", "C"}
    assert (cuts["F"].alpha, cuts["F"].beta, cuts["F"].after, cuts["F"].pruned) == (
        7,
        5,
        "f1",
        ("f2",),
    )
    assert key.nodes["F"].alpha_in == -math.inf and key.nodes["F"].beta_in == 5
    assert (cuts["C"].alpha, cuts["C"].beta, cuts["C"].after, cuts["C"].pruned) == (
        5,
        4,
        "E",
        ("G",),
    )
    assert set(key.pruned_leaves) == {"f2", "g1", "g2"}


def test_json_export_of_the_key() -> None:
    key = answer_key(load_tree(TREES / "aima_fig5_2.tree"))
    data = key.to_dict()
    assert data["value"] == 3 and data["best_move"] == "B"
    assert data["pruned"] == ["c2", "c3"]
    root = next(n for n in data["nodes"] if n["name"] == "A")
    assert (root["alpha_in"], root["beta_in"]) == ("-inf", "inf")
    assert data["cuts"][0] == {
        "node": "C",
        "kind": "min",
        "after": "c1",
        "after_value": 2,
        "alpha": 3,
        "beta": 2,
        "pruned": ["c2", "c3"],
    }
