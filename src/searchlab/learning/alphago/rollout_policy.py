"""AlphaGo's fast rollout policy for Connect Four: a linear softmax over a few move features.

AlphaGo's rollouts played a *linear softmax* policy ``p(a | s) ~ exp(w . f(s, a))`` over cheap
hand-made features (Silver et al. 2016, "Mastering the game of Go with deep neural networks and
tree search", Methods: rollout policy), a thousand times faster than its networks; the search
mixes the outcome of such a rollout with the value network's estimate. Here the features of a
drop into a column are read off the bitboards (one compiled kernel, no network):

=====  =========================================================================
index  feature of the move (for the player to move)
=====  =========================================================================
0      ``win``: it makes four in a row
1      ``block``: it takes a cell where the opponent would make four
2      ``gift``: the cell above it is one where the opponent would make four
3      ``spoil``: the cell above it is one where the mover would make four
4      ``threats``: how many new cells where the mover would make four it creates
5      ``height``: the row it lands on, 0 (bottom) .. 1 (top)
6-12   ``column 1`` .. ``column 7``: which column (the centre is worth more)
=====  =========================================================================

:func:`fit_rollout_policy` learns the weights by maximum likelihood on positions labelled
with their optimal moves (the exact solver's, see :mod:`~searchlab.learning.alphago.data`).
:meth:`RolloutPolicy.rollout_values` plays rollouts to the end of the game, compiled and
seeded by a splitmix64 generator of its own (the same seed, the same games, whatever other
compiled code draws).

>>> from searchlab.domains.games.connect4 import parse_moves
>>> policy = RolloutPolicy.heuristic()
>>> state = parse_moves("17273")  # X threatens the bottom of column 4: O must block
>>> int(policy.probabilities(state).argmax())  # 0-based column 3
3
>>> policy.rollout_values([parse_moves("445566")], seed=1).tolist()  # X wins at once
[1.0]
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import bits

__all__ = [
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "RolloutPolicy",
    "fit_rollout_policy",
]

FEATURE_NAMES: tuple[str, ...] = (
    "win",
    "block",
    "gift",
    "spoil",
    "threats",
    "height",
    *(f"column {c}" for c in range(1, 8)),
)
"""The features of a move, in the order of the weights."""

NUM_FEATURES = len(FEATURE_NAMES)
_WIDTH = bits.WIDTH
_CELLS = bits.CELLS
_FORMAT = "searchlab-rollout-policy"

# hand-set weights: the starting point, and the "heuristic" varied play of the expert data
_HEURISTIC = np.array(
    [8.0, 5.0, -5.0, -1.0, 0.7, 0.0, 0.0, 0.3, 0.6, 1.0, 0.6, 0.3, 0.0], dtype=np.float64
)


@njit(cache=True)
def _features(current: int, mask: int, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """``out[c, :]`` the features of a drop into column ``c`` (zeros for a full column)."""
    out[:] = 0.0
    opponent = current ^ mask
    opponent_wins = bits.winning_cells(opponent, mask)
    own_wins = bits.winning_cells(current, mask)
    own_count = bits.popcount(own_wins)
    for column in range(_WIDTH):
        if not bits.can_play(mask, column):
            continue
        move = bits.drop(mask, column)
        mine = current | move
        after = mask | move
        above = (move << 1) & bits.BOARD
        out[column, 0] = 1.0 if bits.has_four(mine) else 0.0
        out[column, 1] = 1.0 if move & opponent_wins else 0.0
        out[column, 2] = 1.0 if above & bits.winning_cells(opponent, after) else 0.0
        out[column, 3] = 1.0 if above & own_wins else 0.0
        out[column, 4] = bits.popcount(bits.winning_cells(mine, after)) - own_count
        row = 0
        probe = move >> (bits.STRIDE * column)
        while probe > 1:
            probe >>= 1
            row += 1
        out[column, 5] = row / (bits.HEIGHT - 1)
        out[column, 6 + column] = 1.0


@njit(cache=True)
def _next_uniform(rng: np.ndarray) -> float:  # pragma: no cover - compiled
    """splitmix64: advance ``rng[0]`` and return a float in [0, 1)."""
    x = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = x
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _sample_move(
    current: int, mask: int, weights: np.ndarray, features: np.ndarray, rng: np.ndarray
) -> int:  # pragma: no cover - compiled
    _features(current, mask, features)
    logits = np.full(_WIDTH, -np.inf)
    best = -np.inf
    for column in range(_WIDTH):
        if bits.can_play(mask, column):
            value = 0.0
            for k in range(features.shape[1]):
                value += weights[k] * features[column, k]
            logits[column] = value
            if value > best:
                best = value
    total = 0.0
    for column in range(_WIDTH):
        if logits[column] > -np.inf:
            logits[column] = math.exp(logits[column] - best)
            total += logits[column]
        else:
            logits[column] = 0.0
    threshold = _next_uniform(rng) * total
    chosen = -1
    for column in range(_WIDTH):
        if logits[column] > 0.0:
            chosen = column
            threshold -= logits[column]
            if threshold < 0.0:
                break
    return chosen


@njit(cache=True)
def _rollouts(
    currents: np.ndarray, masks: np.ndarray, plies: np.ndarray, weights: np.ndarray, seed: int
) -> np.ndarray:  # pragma: no cover - compiled
    """The outcome (+1, 0, -1 for the player to move at the start) of one rollout each."""
    count = currents.shape[0]
    out = np.zeros(count)
    features = np.zeros((_WIDTH, weights.shape[0]))
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    for i in range(count):
        current, mask, ply = currents[i], masks[i], plies[i]
        sign = 1.0
        result = 0.0
        while ply < _CELLS:
            column = _sample_move(current, mask, weights, features, rng)
            move = bits.drop(mask, column)
            if bits.has_four(current | move):
                result = sign
                break
            current, mask = current ^ mask, mask | move
            ply += 1
            sign = -sign
        out[i] = result
    return out


class RolloutPolicy:
    """A linear softmax over :data:`FEATURE_NAMES`: ``p(column) ~ exp(weights . f(column))``.

    Raises ``InvalidParameterError`` for weights that are not :data:`NUM_FEATURES` finite
    numbers.
    """

    def __init__(self, weights: Sequence[float] | np.ndarray) -> None:
        array = np.asarray(weights, dtype=np.float64)
        if array.shape != (NUM_FEATURES,) or not np.all(np.isfinite(array)):
            raise InvalidParameterError(
                f"rollout policy: weights must be {NUM_FEATURES} finite numbers "
                f"({', '.join(FEATURE_NAMES)}), got shape {list(array.shape)}"
            )
        self.weights = array.copy()

    @classmethod
    def heuristic(cls) -> RolloutPolicy:
        """Hand-set weights (win, block, avoid gifts, prefer the centre): the starting point."""
        return cls(_HEURISTIC)

    @classmethod
    def uniform(cls) -> RolloutPolicy:
        """All weights 0: every legal column equally likely."""
        return cls(np.zeros(NUM_FEATURES))

    @staticmethod
    def features(state: Any) -> np.ndarray:
        """``float64 [7, NUM_FEATURES]``: the features of a drop into each column of ``state``
        (a :class:`~searchlab.domains.games.connect4.Connect4State`; zero rows for full
        columns)."""
        out = np.zeros((_WIDTH, NUM_FEATURES))
        _features(int(state.current), int(state.mask), out)
        return out

    def probabilities(self, state: Any) -> np.ndarray:
        """``float64 [7]``: the policy over the columns, 0 on the full ones."""
        logits = self.features(state) @ self.weights
        legal = np.zeros(_WIDTH, dtype=bool)
        legal[state.legal_actions()] = True
        logits = np.where(legal, logits, -np.inf)
        exp = np.exp(logits - logits[legal].max())
        return np.asarray(exp / exp.sum())

    def rollout_values(self, states: Sequence[Any], *, seed: int) -> np.ndarray:
        """``float64 [B]``: each state played to its end by this policy (both sides), the result
        for the player to move in it: +1 won, 0 drawn, -1 lost. A finished state gets its own
        result. The same ``seed``, the same rollouts."""
        count = len(states)
        currents = np.empty(count, dtype=np.int64)
        masks = np.empty(count, dtype=np.int64)
        plies = np.empty(count, dtype=np.int64)
        finished = np.zeros(count)
        live = np.ones(count, dtype=bool)
        for i, state in enumerate(states):
            currents[i], masks[i], plies[i] = state.current, state.mask, state.num_moves
            if state.is_terminal():
                live[i] = False
                finished[i] = -1.0 if state.is_won else 0.0  # the mover has just lost
        values = _rollouts(
            currents[live], masks[live], plies[live], self.weights, int(seed) & (2**63 - 1)
        )
        finished[live] = values
        return finished

    def to_dict(self) -> dict[str, Any]:
        """The weights by feature name (what :meth:`save` writes)."""
        return {
            "format": _FORMAT,
            "version": 1,
            "weights": dict(zip(FEATURE_NAMES, map(float, self.weights), strict=True)),
        }

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the weights as JSON, atomically (temporary file, fsync, rename)."""
        target = Path(path)
        text = json.dumps(self.to_dict(), indent=2) + "\n"
        write_atomically(target, text.encode("utf-8"))
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> RolloutPolicy:
        """Read what :meth:`save` wrote; ``InvalidParameterError`` (one line) otherwise."""
        source = Path(path)
        try:
            data = json.loads(source.read_text())
            if data.get("format") != _FORMAT:
                raise ValueError("not a rollout policy")
            weights = [float(data["weights"][name]) for name in FEATURE_NAMES]
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise InvalidParameterError(
                f"rollout policy {source}: cannot be read ({error})"
            ) from None
        return cls(weights)

    def __repr__(self) -> str:
        return f"RolloutPolicy({', '.join(f'{w:.2f}' for w in self.weights)})"


def fit_rollout_policy(
    features: np.ndarray,
    targets: np.ndarray,
    *,
    start: RolloutPolicy | None = None,
    steps: int = 300,
    learning_rate: float = 0.1,
    l2: float = 1e-3,
) -> RolloutPolicy:
    """The maximum-likelihood weights for ``features`` ``[N, 7, F]`` (from
    :meth:`RolloutPolicy.features`) and ``targets`` ``[N, 7]`` (a distribution over the legal
    columns, 0 elsewhere: the optimal moves' share), by full-batch Adam from ``start``
    (default: the heuristic weights). Deterministic (no randomness)."""
    import torch

    if features.ndim != 3 or features.shape[1:] != (_WIDTH, NUM_FEATURES):
        raise InvalidParameterError(
            f"fit_rollout_policy: features must be [N, {_WIDTH}, {NUM_FEATURES}], "
            f"got {list(features.shape)}"
        )
    if targets.shape != features.shape[:2] or len(targets) == 0:
        raise InvalidParameterError(
            f"fit_rollout_policy: targets must be [N, {_WIDTH}] for N >= 1 positions, "
            f"got {list(targets.shape)}"
        )
    initial = (start or RolloutPolicy.heuristic()).weights
    x = torch.from_numpy(np.ascontiguousarray(features, dtype=np.float64))
    y = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float64))
    legal = torch.from_numpy(np.abs(features).sum(axis=2) > 0)
    weights = torch.tensor(initial, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.Adam([weights], lr=learning_rate)
    for _ in range(steps):
        optimiser.zero_grad()
        logits = (x @ weights).masked_fill(~legal, -1e30)
        loss = -(y * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        loss = loss + l2 * (weights**2).sum()
        loss.backward()
        optimiser.step()
    return RolloutPolicy(weights.detach().numpy())
