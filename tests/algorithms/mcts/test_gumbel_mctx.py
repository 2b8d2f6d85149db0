"""searchlab's Gumbel search against DeepMind's mctx (``gumbel_muzero_policy``), given the same
Gumbel noise.

The numbers come from mctx 0.0.71 (jax 0.10.2, float64), recorded by
``benchmarks/gumbel_mctx_reference.py`` into ``benchmarks/results/gumbel_mctx_reference.json``
(mctx and jax are about 600 MB: not a test dependency; the script's docstring says how to
regenerate them). The toy game is the script's: three actions everywhere, two players
alternating, each node evaluated by a fixed formula of its path id (:func:`toy_eval`, the numpy
twin of the script's jax one). For every recorded case searchlab runs ``root="gumbel",
nonroot="gumbel"`` (mctx's Gumbel MuZero: both rules) with one leaf per batch and mctx's
noise, and must give the same root visit counts, the same action and the same improved policy
``softmax(logits + sigma(completed Q))`` (mctx's ``action_weights``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import PUCTTree, run

RECORDED = Path(__file__).parents[3] / "benchmarks" / "results" / "gumbel_mctx_reference.json"
CASES = json.loads(RECORDED.read_text())["cases"]
ACTIONS = 3


def toy_eval(node_id: int) -> tuple[np.ndarray, float]:
    """``(logits [3], value)`` of node ``node_id`` (the script's formula, in numpy)."""
    x = float(node_id)
    logits = np.array([np.sin(1.7 * x + 0.3 * k + 0.5) * (1.0 + k) for k in range(ACTIONS)])
    return logits, float(np.tanh(np.sin(0.37 * x + 1.1) * 2.0))


class PathState:
    """A node of the toy game: named by its path id, never over (a search's reach is short)."""

    def __init__(self, node_id: int, player: int) -> None:
        self.node_id, self.player = node_id, player

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return list(range(ACTIONS))

    def apply(self, action: int) -> PathState:
        return PathState(self.node_id * (ACTIONS + 1) + action + 1, 1 - self.player)

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def key(self) -> int:
        return self.node_id

    def action_to_string(self, action: int) -> str:
        return str(action)


class Cells:
    actions_are_indices = True

    def action_to_index(self, state: Any, action: int) -> int:
        return action


class ToyEvaluator:
    """The toy formula as a batch evaluator: priors ``softmax(logits)``, the value."""

    encoder = Cells()

    def evaluate_batch(self, states: list[PathState]) -> tuple[np.ndarray, np.ndarray]:
        rows = [toy_eval(state.node_id) for state in states]
        logits = np.array([row[0] for row in rows])
        priors = np.exp(logits - logits.max(axis=1, keepdims=True))
        return priors / priors.sum(axis=1, keepdims=True), np.array([row[1] for row in rows])


class RecordedNoise:
    """Stands in for the search's generator: hands out mctx's Gumbel noise."""

    def __init__(self, gumbel: list[float]) -> None:
        self.values = np.array(gumbel)

    def gumbel(self, size: int) -> np.ndarray:
        assert size == len(self.values)
        return self.values.copy()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c['seed']}-n{c['simulations']}")
def test_gumbel_search_matches_mctx(case: dict[str, Any]) -> None:
    evaluator = ToyEvaluator()
    options = MCTSOptions(
        evaluator=evaluator,
        root="gumbel",
        nonroot="gumbel",
        search_batch=1,
        max_num_considered_actions=case["max_num_considered_actions"],
        c_visit=case["c_visit"],
        c_scale=case["c_scale"],
    )
    noise = cast(np.random.Generator, RecordedNoise(case["gumbel"]))
    tree = PUCTTree(PathState(0, 0), options, evaluator.encoder, noise, budget=case["simulations"])
    run(tree, evaluator)
    outcome = tree.outcome()
    assert outcome.visits.tolist() == case["root_visits"]
    assert outcome.best_action() == case["action"]
    assert outcome.improved_policy is not None
    np.testing.assert_allclose(
        outcome.improved_policy, case["improved_policy"], rtol=1e-9, atol=1e-15
    )
