"""Gumbel search in the PUCT engine (``MCTSOptions(root="gumbel")``): sequential halving follows
its schedule, two simulations already improve on the prior, the seed fixes the search, bad
settings are one line. (The match with DeepMind's mctx is test_gumbel_mctx.py.)"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.mcts.gumbel import GumbelRoot, considered_visits
from searchlab.algorithms.mcts.options import MCTSOptions, make_options
from searchlab.algorithms.mcts.puct import search
from searchlab.algorithms.mcts.puct_search import PUCTSearcher
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.limits import Limits
from searchlab.domains.games.tictactoe import TicTacToe


class Cells:
    actions_are_indices = True

    def action_to_index(self, state: Any, action: int) -> int:
        return action


class Hashed:
    """Priors and values that differ by position (a fixed function of its key), over
    ``width`` action columns."""

    encoder = Cells()

    def __init__(self, width: int) -> None:
        self.width = width

    def evaluate_batch(self, states: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        rows = [np.random.default_rng(abs(hash(s.key())) % 2**32) for s in states]
        priors = np.array([rng.dirichlet([1.0] * self.width) for rng in rows])
        values = np.array([rng.uniform(-1, 1) for rng in rows])
        return priors, values


class Wide:
    """A game of ``width`` actions everywhere, two players alternating, never over."""

    def __init__(self, width: int, path: tuple[int, ...] = ()) -> None:
        self.width, self.path = width, path

    def current_player(self) -> int:
        return len(self.path) % 2

    def legal_actions(self) -> list[int]:
        return list(range(self.width))

    def apply(self, action: int) -> Wide:
        return Wide(self.width, (*self.path, action))

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def key(self) -> tuple[int, ...]:
        return (self.width, *self.path)

    def action_to_string(self, action: int) -> str:
        return str(action)


def halving_counts(considered: int, simulations: int) -> list[int]:
    """The visits sequential halving gives its considered actions, largest first, from the
    paper's description (Danihelka et al. 2022, section 4; mctx's budget per phase): phases
    halve the actions (down to 2), each phase gives each action left ``max(1, floor(n /
    (ceil(log2 m) * left)))`` visits in rounds, the last runs until the budget is spent."""
    if considered == 1:
        return [simulations]
    counts = [0] * considered
    left, used = considered, 0
    per_phase = math.ceil(math.log2(considered))
    while used < simulations:
        for _ in range(max(1, simulations // (per_phase * left))):
            for index in range(left):  # the survivors are the first (the best)
                if used < simulations:
                    counts[index] += 1
                    used += 1
        left = max(2, left // 2)
    return counts


@settings(max_examples=60, deadline=None)
@given(
    simulations=st.integers(1, 70),
    considered=st.integers(1, 12),
    width=st.integers(1, 9),
    seed=st.integers(0, 2**16),
)
def test_sequential_halving_follows_the_schedule(
    simulations: int, considered: int, width: int, seed: int
) -> None:
    evaluator = Hashed(width)
    state = Wide(width)
    outcome = search(
        state, evaluator, num_simulations=simulations, rng=seed, root="gumbel",
        max_num_considered_actions=considered, search_batch=1,
    )  # fmt: skip
    k = min(considered, width)
    assert sorted(outcome.visits.tolist(), reverse=True) == halving_counts(k, simulations) + [0] * (
        width - k
    )
    # the visited actions are the Gumbel top-k: the k largest g + logits
    gumbel = np.random.default_rng(seed).gumbel(size=width)
    priors, _ = evaluator.evaluate_batch([state])
    top = set(np.argsort(-(gumbel + np.log(priors[0])), kind="stable")[:k].tolist())
    assert {a for a, n in zip(outcome.actions, outcome.visits, strict=True) if n} <= top
    # step by step, each simulation visits an action visited exactly as the schedule says
    root = GumbelRoot(np.log(priors[0]), gumbel, considered, simulations=simulations)
    assert root.schedule == considered_visits(k, simulations)
    visits = np.zeros(width, dtype=np.int64)
    noise = np.random.default_rng(seed + 1)
    for step in range(simulations):
        index = root.choose(visits, noise.uniform(0, 50, size=width))
        assert visits[index] == root.schedule[step]
        visits[index] += 1
    assert sorted(visits.tolist(), reverse=True)[:k] == halving_counts(k, simulations)


class Uniform:
    """Tic-tac-toe's cells with equal priors, value 0."""

    encoder = Cells()

    def evaluate_batch(self, states: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        return np.full((len(states), 9), 1 / 9), np.zeros(len(states))


def test_two_simulations_find_the_winning_move_far_more_often_than_chance() -> None:
    """X to move wins at once with c1, one of 5 moves; the network knows nothing (uniform
    priors). With 2 simulations Gumbel considers the 2 largest g(a) (uniform logits) and plays
    the winner whenever it is one of them: probability 2/5, twice the prior's 1/5 (the paper's
    policy improvement with few simulations), seed by seed."""
    state = TicTacToe().initial_state().apply(0).apply(3).apply(1).apply(4)
    actions = list(state.legal_actions())
    winner = actions.index(2)
    found = 0
    seeds = range(300)
    for seed in seeds:
        outcome = search(state, Uniform(), num_simulations=2, rng=seed, root="gumbel")
        gumbel = np.random.default_rng(seed).gumbel(size=len(actions))
        considered = set(np.argsort(-gumbel)[:2].tolist())
        assert (outcome.best_action() == 2) == (winner in considered), seed
        found += outcome.best_action() == 2
    chance = len(seeds) / len(actions)
    assert found > 1.5 * chance  # expected 2 * chance: 120 of 300
    assert abs(found - 2 * chance) < 4 * math.sqrt(len(seeds) * 0.4 * 0.6)


@pytest.mark.parametrize("nonroot", ["puct", "gumbel"])
def test_the_same_seed_gives_the_same_search(nonroot: str) -> None:
    state = TicTacToe().initial_state()
    options = MCTSOptions(
        evaluator=Hashed(9), root="gumbel", nonroot=nonroot, max_num_considered_actions=4
    )

    def run(seed: int) -> tuple[Any, ...]:
        result = PUCTSearcher(options, seed=seed).search(state, Limits(simulations=48))
        children = tuple((c["action"], c["visits"]) for c in result.stats["children"])
        return result.action, children, tuple(result.stats["improved_policy"])

    first = run(3)
    assert run(3) == first
    assert sum(first[2]) == pytest.approx(1.0)
    assert len({run(seed) for seed in range(6)}) > 1  # the seed is what makes them differ


def test_nonroot_gumbel_spreads_a_batch_and_counts_every_simulation() -> None:
    state = TicTacToe().initial_state()
    outcome = search(state, Hashed(9), num_simulations=60, rng=1, nonroot="gumbel", search_batch=4)
    assert int(outcome.visits.sum()) == outcome.simulations == 60
    assert outcome.improved_policy is None  # a PUCT root: no Gumbel target


@pytest.mark.parametrize(
    ("overrides", "error", "words"),
    [
        ({"max_num_considered_actions": 0}, InvalidParameterError, "max_num_considered_actions"),
        ({"c_visit": math.nan}, InvalidParameterError, "c_visit"),
        ({"c_scale": math.inf}, InvalidParameterError, "c_scale"),
        ({"c_scale": -1.0}, InvalidParameterError, "c_scale"),
        ({"root": "gumbal"}, UnknownNameError, "unknown root 'gumbal'"),
        ({"nonroot": "uct"}, UnknownNameError, "unknown nonroot 'uct'"),
    ],
)
def test_bad_settings_are_one_line(overrides: dict[str, Any], error: type, words: str) -> None:
    with pytest.raises(error) as raised:
        MCTSOptions(evaluator=Uniform(), **{"root": "gumbel", **overrides})
    assert words in str(raised.value) and "\n" not in str(raised.value)


def test_a_gumbel_root_needs_simulations_and_an_evaluator() -> None:
    state = TicTacToe().initial_state()
    with pytest.raises(InvalidParameterError, match="num_simulations") as zero:
        search(state, Uniform(), num_simulations=0, root="gumbel")
    searcher = PUCTSearcher(MCTSOptions(evaluator=Uniform(), root="gumbel"), seed=0)
    with pytest.raises(InvalidParameterError, match="sequential halving") as timed:
        searcher.search(state, Limits(time=0.05))
    with pytest.raises(InvalidParameterError, match="needs an evaluator") as bare:
        make_options(None, {"root": "gumbel"})
    for raised in (zero, timed, bare):
        assert "\n" not in str(raised.value)
