"""AlphaGo's search: PUCT guided by the SL policy, leaves valued by the value network and rollouts.

AlphaGo (Silver et al. 2016) searched with the **SL policy's** move probabilities as priors (it
found them better in the search than the stronger RL policy's: they keep more moves alive) and
valued each new leaf ``s_L`` by a mix of its **value network** and the outcome ``z_L`` of one
**fast rollout** from it:

    ``V(s_L) = (1 - lambda) * v(s_L) + lambda * z_L``

``lambda = 0`` trusts the value network alone, ``lambda = 1`` the rollouts alone (a classic
Monte Carlo search with learned priors); AlphaGo found ``lambda = 0.5`` the strongest. The move
played is the **most visited** root move.

:class:`AlphaGoEvaluator` is that leaf evaluation behind the batched evaluator interface, so
the search itself is the compiled PUCT of :mod:`~searchlab.algorithms.mcts.puct` (a batch of
leaves under virtual loss: one forward pass of each network and one compiled batch of rollouts
per batch). The rollouts are seeded: the same seed and the same calls give the same values,
so :class:`AlphaGoSearch` with a seed plays the same moves.

>>> from searchlab.domains.games.connect4 import parse_moves
>>> from searchlab.learning.networks.encoders import Connect4Encoder
>>> from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet
>>> from searchlab.learning.alphago.rollout_policy import RolloutPolicy
>>> encoder, config = Connect4Encoder(), NetworkConfig(kind="mlp", blocks=1, hidden=16)
>>> policy = PolicyValueNet(encoder.shape, 7, config, seed=0)
>>> value = PolicyValueNet(encoder.shape, 7, config, seed=1)
>>> search = AlphaGoSearch(policy, value, RolloutPolicy.heuristic(), encoder,
...                        simulations=200, lambda_=0.5, seed=0)
>>> search.choose(parse_moves("445566")) in (2, 6)  # X wins at once in column 3 or 7
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from searchlab.algorithms.mcts.options import DEFAULT_C_PUCT, DEFAULT_SEARCH_BATCH, MCTSOptions
from searchlab.algorithms.mcts.puct import PUCTTree, SearchOutcome, run
from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphago.fit import policy_probabilities, values
from searchlab.learning.networks.encoder import Encoder
from searchlab.learning.networks.network import PolicyValueNet

__all__ = ["AlphaGoEvaluator", "AlphaGoSearch", "Rollouts", "check_lambda"]


class Rollouts(Protocol):
    """A fast rollout policy: one playout's result for the player to move in each state
    (Connect Four's :class:`~searchlab.learning.alphago.rollout_policy.RolloutPolicy`, Go's
    :class:`~searchlab.algorithms.mcts.go_rollouts.GoRollouts`)."""

    def rollout_values(self, states: Sequence[Any], *, seed: int) -> np.ndarray:
        """``[B]`` values in ``[-1, 1]``, seeded."""
        ...


def check_lambda(value: Any) -> float:
    """``value`` as a float in ``[0, 1]``, or one ``InvalidParameterError`` line."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise InvalidParameterError(f"alphago: lambda must be a number in 0..1, got {value!r}")
    return float(value)


class AlphaGoEvaluator:
    """``evaluate_batch(states) -> (priors, values)``: the SL policy's priors, and the leaf
    value ``(1 - lambda) * v(s) + lambda * rollout(s)`` for the player to move in each state.

    With ``lambda_ = 0`` no rollout is played, with ``lambda_ = 1`` the value network is not
    asked. ``rollouts`` rollouts per leaf are averaged. ``seed`` starts the rollouts' seeds.
    """

    def __init__(
        self,
        policy_net: PolicyValueNet,
        value_net: PolicyValueNet | None,
        rollout_policy: Rollouts | None,
        encoder: Encoder,
        *,
        lambda_: float = 0.5,
        rollouts: int = 1,
        seed: int = 0,
    ) -> None:
        self.lambda_ = check_lambda(lambda_)
        check_integer(rollouts, "rollouts", owner="alphago", low=1)
        if self.lambda_ < 1 and value_net is None:
            raise InvalidParameterError("alphago: lambda < 1 needs a value network")
        if self.lambda_ > 0 and rollout_policy is None:
            raise InvalidParameterError("alphago: lambda > 0 needs a rollout policy")
        self.policy_net, self.value_net, self.rollout_policy = policy_net, value_net, rollout_policy
        self.encoder = encoder
        self.rollouts = rollouts
        self._rng = np.random.default_rng(seed)
        self.positions = 0
        """Leaves evaluated so far."""

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Priors ``[B, num_actions]`` and mixed values ``[B]`` (see the class)."""
        count = len(states)
        priors = policy_probabilities(self.policy_net, self.encoder, states)
        mixed = np.zeros(count, dtype=np.float64)
        if count and self.lambda_ < 1:
            assert self.value_net is not None
            mixed += (1 - self.lambda_) * values(self.value_net, self.encoder, states)
        if count and self.lambda_ > 0:
            assert self.rollout_policy is not None
            outcome = np.zeros(count)
            for _ in range(self.rollouts):
                seed = int(self._rng.integers(2**62))
                outcome += self.rollout_policy.rollout_values(states, seed=seed)
            mixed += self.lambda_ * outcome / self.rollouts
        self.positions += count
        return priors, mixed.astype(np.float32)


class AlphaGoSearch:
    """The whole search: :class:`AlphaGoEvaluator` under the array PUCT, ``simulations`` per
    move, the most visited move played.

    Args:
        policy_net: the SL policy network (the priors).
        value_net: the value network (``None`` only with ``lambda_ = 1``).
        rollout_policy: the fast rollout policy (``None`` only with ``lambda_ = 0``).
        encoder: the game's encoder.
        simulations: simulations per move (>= 1).
        lambda_: the rollouts' weight in the leaf value, 0..1.
        c_puct: PUCT's exploration constant.
        batch_size: leaves per batch (under virtual loss).
        rollouts: rollouts per leaf.
        seed: the rollouts' seed.
    """

    def __init__(
        self,
        policy_net: PolicyValueNet,
        value_net: PolicyValueNet | None,
        rollout_policy: Rollouts | None,
        encoder: Encoder,
        *,
        simulations: int = 200,
        lambda_: float = 0.5,
        c_puct: float = DEFAULT_C_PUCT,
        batch_size: int = DEFAULT_SEARCH_BATCH,
        rollouts: int = 1,
        seed: int = 0,
    ) -> None:
        self.evaluator = AlphaGoEvaluator(
            policy_net,
            value_net,
            rollout_policy,
            encoder,
            lambda_=lambda_,
            rollouts=rollouts,
            seed=seed,
        )
        self.options = MCTSOptions(evaluator=self.evaluator, c_puct=c_puct, search_batch=batch_size)
        self.simulations = simulations

    @property
    def lambda_(self) -> float:
        """The rollouts' weight."""
        return self.evaluator.lambda_

    def search(
        self, state: Any, *, simulations: int | None = None, seconds: float | None = None
    ) -> SearchOutcome:
        """The root statistics of a search of ``state`` (non-terminal): ``simulations`` (default:
        the search's own), or as many as fit in ``seconds`` of wall time (then ``simulations``,
        default 20,000, caps them; the clock is checked between batches)."""
        if seconds is not None and not seconds > 0:
            raise InvalidParameterError(f"alphago: seconds must be > 0, got {seconds!r}")
        if seconds is not None and simulations is None:
            simulations = 20_000
        if simulations is None:
            simulations = self.simulations
        deadline = None if seconds is None else time.perf_counter() + seconds
        tree = PUCTTree(state, self.options, self.evaluator.encoder, budget=simulations)
        run(tree, self.evaluator, deadline)
        return tree.outcome()

    def choose(
        self, state: Any, *, simulations: int | None = None, seconds: float | None = None
    ) -> int:
        """The most visited root move."""
        return self.search(state, simulations=simulations, seconds=seconds).best_action()
