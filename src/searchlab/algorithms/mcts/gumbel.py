"""Gumbel search's arithmetic (Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by
planning with Gumbel", ICLR 2022): the root's sequential halving over Gumbel-sampled actions,
the completed Q-values, the improved policy, and the deterministic interior rule of Gumbel
MuZero. :class:`~searchlab.algorithms.mcts.puct.PUCTTree` runs them on its tree when
``MCTSOptions(root="gumbel")`` (and/or ``nonroot="gumbel"``); every function here is plain
numpy over one node's children (its legal actions).

* **completed Q** (:func:`completed_q`): a visited action's mean return, an unvisited one's the
  *mixed value* ``v_mix = (v + sum_b N(b) * sum_{visited a} p(a) q(a) / sum_{visited a} p(a))
  / (1 + sum_b N(b))`` (``v`` the network's value of the node, ``p`` its priors);
* **sigma** (:func:`sigma`): the completed Q-values rescaled to ``[0, 1]`` by their own min and
  max (1e-8 at least apart), times ``(c_visit + max_b N(b)) * c_scale``;
* **the improved policy** (:func:`improved_policy`): ``softmax(logits + sigma(completed Q))``,
  the training target;
* **the root** (:class:`GumbelRoot`): ``g ~ Gumbel(0)`` per legal action; the ``m =
  min(max_num_considered_actions, legal actions)`` largest ``g + logits`` are considered, and
  sequential halving spreads the simulations over them by :func:`considered_visits`: each
  simulation goes to the action with the best ``g + logits + sigma`` among those visited
  exactly as often as the schedule says (the schedule only ever names the top ``m``, and the
  halving keeps the best half); the move is the best ``g + logits + sigma`` among the most
  visited;
* **inside the tree** (:func:`interior_index`): ``argmax_a pi'(a) - N(a) / (1 + sum_b N(b))``.

DeepMind's ``mctx`` (``gumbel_muzero_policy``) is the reference; ``tests/algorithms/mcts/
test_gumbel_mctx.py`` checks these functions against numbers it produced. One difference: mctx
keeps every action of a fixed action space, and its rescaling of Q takes the min and max over
the illegal ones too (completed with ``v_mix``); here only the legal actions are there.

>>> considered_visits(4, 10)
(0, 0, 0, 0, 1, 1, 2, 2, 3, 3)
>>> completed_q(np.array([0.5, 0.0]), np.array([1, 0]), np.array([0.5, 0.5]), 0.0).tolist()
[0.5, 0.25]
>>> improved_policy(np.log([0.5, 0.5]), np.array([1.0, 0.0])).round(3).tolist()
[0.731, 0.269]
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "DEFAULT_C_SCALE",
    "DEFAULT_C_VISIT",
    "DEFAULT_MAX_CONSIDERED",
    "GumbelRoot",
    "completed_q",
    "considered_visits",
    "improved_policy",
    "interior_index",
    "logits_of",
    "sigma",
]

DEFAULT_MAX_CONSIDERED = 16
"""Actions the root's Gumbel top-k considers at most (the paper's and mctx's ``m = 16``)."""
DEFAULT_C_VISIT = 50.0
"""``c_visit`` in ``sigma(q) = (c_visit + max_b N(b)) * c_scale * q`` (the paper's 50)."""
DEFAULT_C_SCALE = 1.0
"""``c_scale`` in ``sigma`` (the paper's 1.0 for board games; mctx's default is 0.1)."""

_TINY = float(np.finfo(np.float64).tiny)
_LOW_SCORE = -1e9
"""The floor of a root score (mctx's), so that an action with a zero prior stays comparable."""
_EPSILON = 1e-8
"""The least spread of the completed Q-values their rescaling divides by (mctx's)."""


def considered_visits(max_considered: int, simulations: int) -> tuple[int, ...]:
    """Sequential halving's schedule: the visit count that simulation ``i`` gives one more
    visit to (an action visited exactly that often). Phases halve the considered actions
    (from ``max_considered`` down to 2); each phase gives every action still considered
    ``max(1, floor(simulations / (ceil(log2 m) * considered)))`` visits, and the last phase
    runs until the budget is spent. One action considered: ``0, 1, 2, ...``.

    >>> considered_visits(2, 5), considered_visits(1, 3)
    ((0, 0, 1, 1, 2), (0, 1, 2))
    """
    if max_considered <= 1:
        return tuple(range(simulations))
    rounds = math.ceil(math.log2(max_considered))
    sequence: list[int] = []
    level = 0  # the visits each action still considered has so far
    considered = max_considered
    while len(sequence) < simulations:
        extra = max(1, simulations // (rounds * considered))
        for visit in range(level, level + extra):
            sequence.extend([visit] * considered)
        level += extra
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


def logits_of(priors: np.ndarray) -> np.ndarray:
    """Logits whose softmax is ``priors`` (a zero prior gets the log of the smallest float)."""
    return np.log(np.maximum(np.asarray(priors, dtype=np.float64), _TINY))


def completed_q(q: np.ndarray, visits: np.ndarray, priors: np.ndarray, value: float) -> np.ndarray:
    """Each action's mean return ``q`` where visited (``visits > 0``), else the mixed value
    of the node (``value`` its network value, ``priors`` its priors; see the module)."""
    visited = visits > 0
    total = float(visits.sum())
    weights = np.where(visited, np.maximum(priors, _TINY), 0.0)
    mass = weights.sum()
    weighted = float((weights * q).sum() / mass) if mass > 0 else 0.0
    mixed = (value + total * weighted) / (total + 1.0)
    return np.where(visited, q, mixed)


def sigma(completed: np.ndarray, visits: np.ndarray, c_visit: float, c_scale: float) -> np.ndarray:
    """``(c_visit + max_b N(b)) * c_scale * q``, ``q`` the completed Q-values rescaled to
    ``[0, 1]`` by their own min and max."""
    low, high = float(completed.min()), float(completed.max())
    scaled = (completed - low) / max(high - low, _EPSILON)
    return (c_visit + float(visits.max())) * c_scale * scaled


def improved_policy(logits: np.ndarray, sigmas: np.ndarray) -> np.ndarray:
    """``softmax(logits + sigma)``: the improved policy, the search's policy target."""
    scores = logits + sigmas
    weights = np.exp(scores - scores.max())
    return weights / weights.sum()


def interior_index(logits: np.ndarray, sigmas: np.ndarray, visits: np.ndarray) -> int:
    """Gumbel MuZero's deterministic choice below the root: ``argmax_a pi'(a) - N(a) / (1 +
    sum_b N(b))`` (ties: the first)."""
    target = improved_policy(logits, sigmas) - visits / (1.0 + float(visits.sum()))
    return int(np.argmax(target))


class GumbelRoot:
    """The root of a Gumbel search: its Gumbel noise, its logits and its schedule.

    Args:
        logits: the root's logits over its legal actions.
        gumbel: one ``Gumbel(0)`` draw per legal action.
        max_considered: ``max_num_considered_actions`` (the considered actions are the
            ``min(max_considered, len(logits))`` largest ``gumbel + logits``).
        simulations: the budget the schedule spreads.

    >>> root = GumbelRoot(np.zeros(3), np.array([0.0, 2.0, 1.0]), 2, simulations=4)
    >>> root.considered, root.schedule
    (2, (0, 0, 1, 1))
    >>> root.choose(np.zeros(3, dtype=np.int64), np.zeros(3))
    1
    """

    def __init__(
        self, logits: np.ndarray, gumbel: np.ndarray, max_considered: int, *, simulations: int
    ) -> None:
        self.logits = np.asarray(logits, dtype=np.float64) - float(np.max(logits))
        self.gumbel = np.asarray(gumbel, dtype=np.float64)
        self.considered = min(max_considered, len(self.logits))
        self.schedule = considered_visits(self.considered, simulations)

    def _score(self, level: int, visits: np.ndarray, sigmas: np.ndarray) -> np.ndarray:
        """``g + logits + sigma`` (floored at -1e9) where an action has ``level`` visits, else
        minus infinity."""
        score = np.maximum(_LOW_SCORE, self.gumbel + self.logits + sigmas)
        return np.where(visits == level, score, -np.inf)

    def choose(self, visits: np.ndarray, sigmas: np.ndarray) -> int:
        """The index of the action the next simulation visits: ``visits`` (the simulations so
        far, per action) say where the schedule is; ``sigmas`` are :func:`sigma` of the
        completed Q-values. Past the schedule: :meth:`final`'s action."""
        done = int(visits.sum())
        if done < len(self.schedule):
            score = self._score(self.schedule[done], visits, sigmas)
            if np.isfinite(score).any():
                return int(np.argmax(score))
        return self.final(visits, sigmas)  # past the schedule: the move's action

    def final(self, visits: np.ndarray, sigmas: np.ndarray) -> int:
        """The index of the move: the best ``g + logits + sigma`` among the most visited."""
        return int(np.argmax(self._score(int(visits.max()), visits, sigmas)))
