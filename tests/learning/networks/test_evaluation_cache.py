"""The evaluation cache: the evaluator's own answers, each position asked once, a bounded
ring, keys that tell apart what the network would, and self-play's same games with it."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import torch
from puct_fakes import KeyedEvaluator

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.learning.alphazero.selfplay import SelfPlayConfig, self_play
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluation_cache import EvaluationCache
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)


class Counting(KeyedEvaluator):
    """Connect Four's real encoder (its planes are the cache's keys), answers keyed by the
    position, and every position asked recorded."""

    def __init__(self) -> None:
        super().__init__(7)
        self.encoder = encoder_for(Connect4())  # type: ignore[assignment]
        self.asked: list[str] = []

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        self.asked += [state.moves for state in states]
        return super().evaluate_batch(states)


def _positions(count: int, seed: int) -> list[Any]:
    """``count`` distinct non-terminal Connect Four positions from seeded random games."""
    rng = random.Random(seed)
    found: dict[str, Any] = {}
    while len(found) < count:
        state = Connect4().initial_state()
        for _ in range(rng.randrange(0, 12)):
            state = state.apply(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.setdefault(str(state.key()), state)
    return list(found.values())


def test_the_cache_answers_as_the_evaluator_and_asks_each_new_position_once() -> None:
    inner = Counting()
    cache = EvaluationCache(inner, capacity=1000)
    positions = _positions(40, seed=1)
    batch = positions[:25] + positions[:5]  # five asked twice in one batch
    priors, values = cache.evaluate_batch(batch)
    want_priors, want_values = KeyedEvaluator(7).evaluate_batch(batch)
    np.testing.assert_allclose(priors, want_priors, rtol=1e-6)
    np.testing.assert_allclose(values, want_values, rtol=1e-6)
    assert sorted(inner.asked) == sorted(state.moves for state in positions[:25])
    assert (cache.hits, cache.misses) == (5, 25)
    # a later batch: the 25 held are not asked again, the 15 new ones are, in one call
    calls = len(inner.calls)
    priors, values = cache.evaluate_batch(positions[::-1])
    want_priors, want_values = KeyedEvaluator(7).evaluate_batch(positions[::-1])
    np.testing.assert_allclose(priors, want_priors, rtol=1e-6)
    np.testing.assert_allclose(values, want_values, rtol=1e-6)
    assert len(inner.calls) == calls + 1 and inner.calls[-1] == 15
    assert (cache.hits, cache.misses, len(cache)) == (30, 40, 40)


def test_the_cache_keeps_the_newest_positions_up_to_its_capacity() -> None:
    inner = Counting()
    cache = EvaluationCache(inner, capacity=8)
    positions = _positions(30, seed=2)
    for start in range(0, 30, 6):
        cache.evaluate_batch(positions[start : start + 6])
        assert len(cache) <= 8
    inner.asked.clear()
    cache.evaluate_batch(positions[-8:])  # the newest 8: all held
    assert inner.asked == []
    # held rows read before new ones take their slots: a batch larger than the capacity
    batch = positions[-8:] + positions[:12]
    priors, values = cache.evaluate_batch(batch)
    want_priors, want_values = KeyedEvaluator(7).evaluate_batch(batch)
    np.testing.assert_allclose(priors, want_priors, rtol=1e-6)
    np.testing.assert_allclose(values, want_values, rtol=1e-6)
    assert inner.asked == [state.moves for state in positions[:12]]
    assert len(cache) == 8


class _Pass:
    """A state whose planes are a constant: only its legal actions tell it apart."""

    def __init__(self, legal: list[int]) -> None:
        self.legal = legal

    def legal_actions(self) -> list[int]:
        return self.legal


class _ConstantPlanes:
    num_actions = 3

    def encode(self, state: Any) -> np.ndarray:
        return np.ones((1, 1, 1), dtype=np.float32)

    def action_to_index(self, state: Any, action: int) -> int:
        return action


class _MaskedUniform:
    encoder = _ConstantPlanes()

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        priors = np.zeros((len(states), 3), dtype=np.float32)
        for row, state in enumerate(states):
            priors[row, state.legal] = 1.0 / len(state.legal)
        return priors, np.zeros(len(states), dtype=np.float32)


def test_the_same_planes_with_other_legal_actions_are_another_key() -> None:
    cache = EvaluationCache(_MaskedUniform(), capacity=10)
    priors, _ = cache.evaluate_batch([_Pass([0, 1, 2]), _Pass([1]), _Pass([0, 1, 2])])
    want = np.array([[1 / 3] * 3, [0.0, 1.0, 0.0], [1 / 3] * 3])
    np.testing.assert_allclose(priors, want, rtol=1e-6)
    assert (cache.hits, cache.misses) == (1, 2)


def test_the_cache_spares_a_network_evaluator_the_second_encoding() -> None:
    encoder = encoder_for(Connect4())
    net = PolicyValueNet(
        encoder.shape, encoder.num_actions, NetworkConfig(kind="resnet", blocks=1, channels=8),
        seed=0,
    )  # fmt: skip
    evaluator = NetworkEvaluator(net, encoder)
    positions = _positions(12, seed=3)
    want_priors, want_values = evaluator.evaluate_batch(positions)
    cache = EvaluationCache(evaluator, capacity=100)
    priors, values = cache.evaluate_batch(positions)
    np.testing.assert_allclose(priors, want_priors, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(values, want_values, rtol=1e-5, atol=1e-7)
    assert evaluator.positions == 24  # 12 without the cache, 12 through it
    cache.evaluate_batch(positions)
    assert evaluator.positions == 24 and cache.hits == 12


_HALF: Any = 2.5


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: EvaluationCache(Counting(), capacity=0), "capacity must be an integer >= 1"),
        (lambda: EvaluationCache(Counting(), capacity=_HALF), "capacity must be an integer >= 1"),
        (lambda: EvaluationCache(object(), capacity=4), "must have evaluate_batch"),
        (lambda: EvaluationCache(KeyedEvaluator(7), capacity=4).encoder, None),
        (lambda: SelfPlayConfig(cache_size=-1), "cache_size must be an integer >= 0"),
    ],
)
def test_bad_cache_settings_are_one_line(make: Any, message: str | None) -> None:
    if message is None:  # KeyedEvaluator's stand-in encoder has encode(): accepted
        assert make() is not None
        return
    with pytest.raises(InvalidParameterError, match=message):
        make()


def test_an_evaluator_whose_encoder_cannot_encode_is_refused() -> None:
    class NoPlanes:
        encoder = object()

        def evaluate_batch(self, states: Any) -> Any:
            raise AssertionError("not asked")

    with pytest.raises(InvalidParameterError, match="encoder with encode_batch"):
        EvaluationCache(NoPlanes(), capacity=4)


def test_self_play_with_the_cache_plays_the_same_games_and_asks_fewer_positions() -> None:
    search = MCTSOptions(search_batch=4, virtual_loss=1.0, dirichlet_alpha=0.5)
    config = SelfPlayConfig(search=search, simulations=32, games_in_flight=4, temperature_plies=4)
    cached = dataclasses.replace(config, cache_size=5000)
    plain, inner = Counting(), Counting()
    without = self_play(Connect4(), plain, 6, config=config, seed=3)
    with_cache = self_play(Connect4(), inner, 6, config=cached, seed=3)
    assert [r.actions for r in with_cache.records] == [r.actions for r in without.records]
    stats = with_cache.stats
    assert stats.positions_evaluated == without.stats.positions_evaluated
    assert stats.cache_hits > 0 and without.stats.cache_hits == 0
    assert len(inner.asked) == stats.network_positions < len(plain.asked)
    assert len(set(inner.asked)) == len(inner.asked)  # a chunk never asks a position twice
    # a cache is made per call: the same chunk again asks the same positions again
    again = Counting()
    self_play(Connect4(), again, 6, config=cached, seed=3)
    assert again.asked == inner.asked
