"""RAVE in the one compiled loop (every game of the compiled-game protocol that says its
``num_actions``): its root visit shares agree with the reference tier's RAVE in
distribution, its AMAF counts keep the invariants of all-moves-as-first, and options it does
not run go to the reference tier with one clear reason."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.compiled import CompiledSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.snakego import SnakeGo
from searchlab.games import make

SEEDS = range(16)


def shares(tier: str, game: Any, state: Any, simulations: int, **options: Any) -> tuple:
    table = []
    actions: list[int] = []
    for seed in SEEDS:
        result = mcts(
            game, state, limits=Limits(simulations=simulations), seed=seed, tier=tier, **options
        )
        assert result.tier == tier
        visits = {child["action"]: child["visits"] for child in result.stats["children"]}
        actions = sorted(visits)
        total = sum(visits.values())
        table.append([visits[a] / total for a in actions])
    array = np.array(table)
    return actions, array.mean(axis=0), array.std(axis=0, ddof=1) / math.sqrt(len(SEEDS))


def agree(first: tuple, second: tuple) -> bool:
    """Mean visit shares within 4 standard errors of their difference (+0.01), per action
    (as tests/algorithms/mcts/test_mcts_compiled.py compares UCT's tiers)."""
    actions, mean_a, error_a = first
    actions_b, mean_b, error_b = second
    assert actions == actions_b
    bound = 4 * np.sqrt(error_a**2 + error_b**2) + 0.01
    return bool((np.abs(mean_a - mean_b) < bound).all())


CASES = [
    ("connect4", "4 4 5 5", 1500, 300),
    ("connect4", "4 3 4", 1500, 1000),
    ("othello", "", 600, 300),
]


@pytest.mark.parametrize(("name", "moves", "simulations", "k"), CASES)
def test_compiled_rave_agrees_with_the_reference_tier(name, moves, simulations, k) -> None:
    game = make(name)
    state = play(game.initial_state(), moves) if moves else game.initial_state()
    compiled = shares("compiled", game, state, simulations, rave=k)
    reference = shares("reference", game, state, simulations, rave=k)
    assert agree(compiled, reference)


def test_the_agreement_check_tells_rave_from_plain_uct() -> None:
    game = make("connect4")
    state = play(game.initial_state(), "4 3 4")
    with_rave = shares("compiled", game, state, 1500, rave=1000)
    plain = shares("reference", game, state, 1500)
    assert not agree(with_rave, plain)


@pytest.mark.parametrize(("name", "moves"), [("connect4", "4 4 5"), ("othello", "d3")])
def test_amaf_counts_keep_the_invariants_of_all_moves_as_first(name, moves) -> None:
    game = make(name)
    state = play(game.initial_state(), moves)
    searcher = CompiledSearcher(game, MCTSOptions(rave=500), seed=3)
    searcher.search(state, Limits(simulations=3000))
    tree = searcher._search.tree  # type: ignore[union-attr]
    checked = 0
    stack = [0]  # the made nodes, from the root
    while stack:
        node = stack.pop()
        first = int(tree.first[node])
        if first < 0:
            continue
        made = int(tree.n_expanded[node])
        stack.extend(range(first, first + made))
        for slot in range(first, first + int(tree.n_children[node])):
            amaf = int(tree.amaf_visits[slot])
            # once per simulation through the node at most (the one that made it included)
            assert 0 <= amaf <= int(tree.visits[node])
            assert abs(float(tree.amaf_value[slot])) <= amaf
            if slot < first + made:
                # the edge taken counts too: every simulation through a child credits it
                assert amaf >= int(tree.visits[slot])
                checked += 1
    assert checked > 100


def test_rave_is_reported_and_the_same_seed_gives_the_same_search() -> None:
    game = make("connect4")
    one, two = (
        mcts(game, limits=Limits(simulations=2000), seed=5, rave=300, tier="compiled")
        for _ in range(2)
    )
    assert one.stats == two.stats and one.stats["rave"] == 300
    plain = mcts(game, limits=Limits(simulations=2000), seed=5, tier="compiled")
    assert plain.stats["children"] != one.stats["children"] and "rave" not in plain.stats


def test_rave_with_another_rollout_policy_needs_the_reference_tier() -> None:
    game = SnakeGo(seed=1, size=6, rounds=4)
    options = {"rave": 300, "rollout": "informed"}
    auto = mcts(game, limits=Limits(simulations=50), seed=0, **options)
    assert auto.tier == "reference"
    with pytest.raises(InvalidParameterError, match="rave=300 with rollout='informed' needs"):
        mcts(game, limits=Limits(simulations=50), seed=0, tier="compiled", **options)
    uniform = mcts(game, limits=Limits(simulations=200), seed=0, rave=300)
    assert uniform.tier == "compiled"
