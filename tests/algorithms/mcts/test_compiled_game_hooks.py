"""The optional hooks of the compiled-game protocol (what Go uses, open to any game): the
actions the tree holds, children made a block at a time with priors after ``expand_visits``
visits, repetitions (superko) and tree reuse by the moves played, on the subtraction game of
``test_compiled_game_protocol.py`` (take 1..3, the last counter wins).

The hooks read the position's second word ``b`` (flags set by ``encode``), so one compiled
kernel serves every test here."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from numba import njit
from test_compiled_game_protocol import RULES, game_type  # noqa: F401 - the fixture

from searchlab.algorithms import kernels
from searchlab.algorithms.kernels import register_compiled_game
from searchlab.algorithms.mcts import CompiledGame, CompiledGameError, mcts
from searchlab.algorithms.mcts.compiled import CompiledSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.limits import Limits

LEAVE_OUT_THREE, FOUR_REPEATS = 1, 2
"""Flags of ``b``: the tree leaves out "take 3"; reaching 4 counters repeats a position."""


@njit(cache=True)
def tree_actions(left, flags, out, offset):  # pragma: no cover - compiled
    n = 0
    top = 2 if flags & LEAVE_OUT_THREE else 3
    for take in range(1, top + 1):
        if take <= left:
            out[offset + n] = take
            n += 1
    return n


@njit(cache=True)
def priors(left, flags, actions, offset, n, visits, value, config):  # pragma: no cover
    # config virtual visits for each child: all won for a move that leaves a multiple of 4,
    # all lost otherwise
    for i in range(n):
        visits[offset + i] = config
        won = (left - actions[offset + i]) % 4 == 0
        value[offset + i] = config if won else -config


@njit(cache=True)
def repeats(left, flags, config, keys, depth, check):  # pragma: no cover - compiled
    keys[depth] = left
    return check and flags & FOUR_REPEATS != 0 and left == 4


def _rules(flags: int, strength: int, expand: int = 1, **changes: Any) -> CompiledGame:
    return dataclasses.replace(
        RULES, tree_actions=tree_actions, priors=priors, repeats=repeats,
        encode=lambda state: (np.int64(state.left), np.int64(flags)),
        config=lambda state, scale, rollout: strength, expand_visits=expand, **changes,
    )  # fmt: skip


def _search(kind: type, rules: CompiledGame, counters: int, simulations: int) -> Any:
    register_compiled_game(kind, rules, check_reference=False)
    return mcts(kind(counters), limits=Limits(simulations=simulations), seed=2, tier="compiled")


def _visits(result: Any) -> dict[int, int]:
    return {child["action"]: child["visits"] for child in result.stats["children"]}


def test_priors_steer_the_first_visits(game_type) -> None:  # noqa: F811
    # 9 counters: taking 1 leaves 8 and wins; 30 simulations
    steered = _visits(_search(game_type, _rules(0, strength=50), 9, 30))
    plain = _visits(_search(game_type, _rules(0, strength=0), 9, 30))
    assert steered[1] >= 25 > max(steered[2], steered[3])
    assert plain[1] < steered[1] and min(plain.values()) >= 1  # without: every move once first
    assert sum(steered.values()) == sum(plain.values()) == 30


def test_children_are_made_a_block_at_a_time_after_expand_visits(game_type) -> None:  # noqa: F811
    # a block only at the root (no other node reaches 10**6 visits): 1 + 3 nodes, depth 1
    only_root = _search(game_type, _rules(0, strength=0, expand=10**6), 20, 500)
    assert (only_root.nodes, only_root.depth) == (4, 1)
    # expand=1: every node visited once gets its whole block (3 children, fewer near the end)
    every = _search(game_type, _rules(0, strength=0, expand=1), 20, 50)
    assert every.nodes > 50 and every.depth >= 2


def test_blocks_stop_at_the_slot_cap_and_the_search_goes_on(game_type, monkeypatch) -> None:  # noqa: F811
    from searchlab.algorithms.mcts import compiled

    monkeypatch.setattr(compiled, "_MAX_BLOCK_SLOTS", 64)
    monkeypatch.setattr(compiled, "_BLOCK_TIME_ONLY_SLOTS", 16)
    capped = _search(game_type, _rules(0, strength=0, expand=1), 20, 500)
    assert capped.stats["simulations"] == 500 == sum(_visits(capped).values())
    assert 64 - 3 < capped.nodes <= 64  # blocks of 3 until fewer than 3 slots were left
    monkeypatch.setattr(compiled, "_MAX_BLOCK_SLOTS", 1 << 22)
    free = _search(game_type, _rules(0, strength=0, expand=1), 20, 500)
    assert free.nodes > 5 * 64  # not capped: a block at almost every simulation


def test_the_tree_holds_only_the_actions_the_hook_gives(game_type) -> None:  # noqa: F811
    result = _search(game_type, _rules(LEAVE_OUT_THREE, strength=0), 11, 400)
    visits = _visits(result)
    assert sorted(visits) == [1, 2, 3]  # take 3 is legal: reported, with no visits
    assert visits[3] == 0 and visits[1] + visits[2] == 400
    assert result.action in (1, 2)


def test_a_repetition_is_never_played_and_costs_no_simulation(game_type) -> None:  # noqa: F811
    # 6 counters: taking 2 leaves 4, which the hook calls a repetition (and would win)
    free = _search(game_type, _rules(0, strength=0), 6, 2000)
    barred = _search(game_type, _rules(FOUR_REPEATS, strength=0), 6, 2000)
    assert free.action == 2
    assert barred.action != 2 and _visits(barred)[2] == 0
    assert barred.stats["simulations"] == 2000 == sum(_visits(barred).values())


def test_tree_reuse_follows_the_moves_the_game_reports(game_type) -> None:  # noqa: F811
    def after(old: Any, new: Any) -> tuple[int, ...] | None:
        return (1, 1) if old.left - new.left == 2 else None  # (the only line the test plays)

    for moves_between, kept in ((None, True), (lambda old, new: None, False), (after, True)):
        rules = _rules(0, strength=0, moves_between=moves_between)
        register_compiled_game(game_type, rules, check_reference=False)
        game = game_type(12)
        searcher = CompiledSearcher(game, MCTSOptions(), seed=1)
        root = game.initial_state()
        searcher.search(root, Limits(simulations=3000))
        second = searcher.search(root.apply(1).apply(1), Limits(simulations=100))
        assert (second.stats["reused_visits"] > 0) == kept, moves_between


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"expand_visits": 0}, "expand_visits must be an integer >= 1, got 0"),
        ({"amaf_first": "yes"}, "amaf_first must be True or False, got 'yes'"),
        ({"moves_between": 42}, "moves_between must be a Python function, got 42"),
        ({"priors": priors.py_func}, "priors must be a numba @njit function"),
    ],
)
def test_a_malformed_hook_is_refused_at_registration(game_type, change, message) -> None:  # noqa: F811
    with pytest.raises(CompiledGameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        register_compiled_game(game_type, dataclasses.replace(RULES, **change))


def test_rules_with_a_playout_hook_run_rave_with_their_own_rollouts(game_type) -> None:  # noqa: F811
    rules = dataclasses.replace(RULES, num_actions=4, playout=repeats)  # any @njit function
    register_compiled_game(game_type, rules)
    assert kernels.mcts_features(game_type(5)) == {"rave", "rave_rollouts"}
    register_compiled_game(game_type, dataclasses.replace(RULES, num_actions=4))
    assert kernels.mcts_features(game_type(5)) == {"rave"}
