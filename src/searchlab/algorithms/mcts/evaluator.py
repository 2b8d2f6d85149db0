"""The evaluator interface of PUCT: priors over the legal actions and a value, per position.

An :class:`Evaluator` is any object with ``evaluate(state) -> (priors, value)``:

* ``priors``: a mapping ``{action: probability}`` (missing legal actions get 0) or a sequence
  aligned with ``state.legal_actions()``; non-negative, renormalised over the legal actions
  (all zeros: uniform);
* ``value``: the expected return in ``[-1, 1]`` for **the player to move in** ``state``.

This is all AlphaZero's network has to provide; :class:`UniformEvaluator` (uniform priors, a
value of 0 or the outcome of one random playout) is the stand-in for tests and for PUCT without
a network.

>>> from searchlab.domains.games.nim import Nim
>>> state = Nim((2,)).initial_state()
>>> UniformEvaluator().evaluate(state)
([0.5, 0.5], 0.0)
>>> prior_list({1: 3.0}, state.legal_actions(), "mcts")
[0.0, 1.0]
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from searchlab.algorithms.mcts.rollout import playout, random_policy
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import State

__all__ = [
    "ActionIndexer",
    "BatchEvaluator",
    "Evaluator",
    "UniformEvaluator",
    "check_value",
    "prior_list",
]


@runtime_checkable
class Evaluator(Protocol):
    """``evaluate(state) -> (priors, value)`` for a non-terminal ``state`` (see the module)."""

    def evaluate(self, state: Any) -> tuple[Mapping[int, float] | Sequence[float], float]:
        """Priors over ``state.legal_actions()`` and a value in ``[-1, 1]`` for the mover."""
        ...


class ActionIndexer(Protocol):
    """Where an action's prior lies in a row of ``evaluate_batch``'s priors (an encoder)."""

    def action_to_index(self, state: Any, action: int) -> int:
        """The column of ``action`` (legal in ``state``) in the priors."""
        ...


class BatchEvaluator(Protocol):
    """``evaluate_batch(states) -> (priors [B, num_actions], values [B])``, and its encoder:
    a network's way to evaluate many leaves at once (the compiled PUCT of
    :mod:`~searchlab.algorithms.mcts.puct` collects them under virtual loss)."""

    @property
    def encoder(self) -> ActionIndexer:
        """Maps a legal action to its column in the priors."""
        ...

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[Any, Any]:
        """Priors over the action indices and values for the player to move, one row each."""
        ...


class UniformEvaluator:
    """Uniform priors; the value is 0, or with ``rollout=True`` the outcome (+1 win, 0 draw,
    -1 loss, the sign of the return) of one uniformly random playout for the player to move
    (its own ``seed``)."""

    def __init__(self, *, rollout: bool = False, seed: int | None = None) -> None:
        self.rollout = bool(rollout)
        self._rng = random.Random(seed)

    def evaluate(self, state: State) -> tuple[list[float], float]:
        """``([1/n] * n, value)`` for the ``n`` legal actions of ``state``."""
        count = len(state.legal_actions())
        priors = [1.0 / count] * count
        if not self.rollout:
            return priors, 0.0
        value = playout(state, random_policy, self._rng)[state.current_player()]
        return priors, 1.0 if value > 0 else -1.0 if value < 0 else 0.0

    def __repr__(self) -> str:
        return f"UniformEvaluator(rollout={self.rollout})"


def prior_list(priors: Any, actions: Sequence[int], algorithm: str) -> list[float]:
    """The priors as a list aligned with ``actions``, non-negative and summing to 1."""
    if isinstance(priors, Mapping):
        values = [float(priors.get(action, 0.0)) for action in actions]
    else:
        try:
            values = [float(p) for p in priors]
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"{algorithm}: evaluator priors must be a mapping action -> probability or a "
                f"sequence aligned with legal_actions(), got {priors!r}"
            ) from None
        if len(values) != len(actions):
            raise InvalidParameterError(
                f"{algorithm}: evaluator gave {len(values)} priors for {len(actions)} legal "
                f"actions {list(actions)}"
            )
    total = 0.0
    for value in values:
        if not value >= 0.0 or math.isinf(value):  # catches NaN too
            raise InvalidParameterError(
                f"{algorithm}: evaluator priors must be finite and >= 0, got {values!r}"
            )
        total += value
    if total <= 0.0:
        return [1.0 / len(actions)] * len(actions)
    return [value / total for value in values]


def check_value(value: Any, algorithm: str) -> float:
    """``value`` as a float in ``[-1, 1]`` (rounding error of 1e-6 clipped), else an error."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not -1.0 - 1e-6 <= number <= 1.0 + 1e-6:
        raise InvalidParameterError(
            f"{algorithm}: evaluator value must be in [-1, 1] for the player to move, got {value!r}"
        )
    return min(1.0, max(-1.0, number))
