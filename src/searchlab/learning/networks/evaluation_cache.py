"""A bounded cache of a network's evaluations, keyed by exactly what the network reads.

Self-play asks for the same positions again and again: the subtree of the move just played
was evaluated by the previous move's search, games of one chunk share their openings, and a
search meets transpositions. :class:`EvaluationCache` sits in front of a batch evaluator
(``evaluate_batch(states) -> (priors, values)``, see
:mod:`~searchlab.algorithms.mcts.puct`) and sends it only the positions it has not seen, each
once per batch; the rest are answered from the cache (Leela Zero's and KataGo's NN cache).

The key of a position is its planes (the encoder's ``encode_batch``, the network's whole
input; packed 8 cells to a byte when they are zeros and ones, as every built-in encoder's are,
else a 128-bit BLAKE2b digest of them) and its legal actions (the mask of the priors): two
positions with the same key get the same answer from the network, so a search with the cache
visits the same tree as without it, up to the float rounding of a forward pass on another
batch. The cache keeps the last ``capacity`` positions evaluated (a ring: the
oldest goes first) in two arrays, ``capacity * (num_actions + 1)`` float32 numbers in all.

A cache answers for one network: make a new one (or :meth:`EvaluationCache.clear` it) when
the weights change. :func:`~searchlab.learning.alphazero.selfplay.self_play` makes one per call when
its config's ``cache_size`` is set, so a chunk of games is the same whatever ran before it.

>>> import numpy as np
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.encoders import encoder_for
>>> class Uniform:  # counts the positions it is asked for
...     encoder = encoder_for(TicTacToe())
...     asked = 0
...     def evaluate_batch(self, states):
...         Uniform.asked += len(states)
...         return np.full((len(states), 9), 1 / 9, np.float32), np.zeros(len(states), np.float32)
>>> cache = EvaluationCache(Uniform(), capacity=100)
>>> start = TicTacToe().initial_state()
>>> priors, values = cache.evaluate_batch([start, start.apply(4), start])
>>> priors.shape, Uniform.asked, cache.hits, cache.misses
((3, 9), 2, 1, 2)
>>> _ = cache.evaluate_batch([start.apply(4)])
>>> Uniform.asked, cache.hits, round(cache.hit_rate, 2)
(2, 2, 0.5)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError

__all__ = ["EvaluationCache"]

_NAME = "EvaluationCache"


class EvaluationCache:
    """The evaluations of ``evaluator`` for the last ``capacity`` positions it was asked for.

    ``evaluator`` needs ``evaluate_batch(states)`` (and, to spare encoding the positions
    twice, ``evaluate_encoded(planes, states)``: a
    :class:`~searchlab.learning.networks.evaluator.NetworkEvaluator` has it) and an ``encoder`` with
    ``encode_batch(states)`` (or ``encode(state)``); the cache has the same ``encoder``, so it
    stands wherever the evaluator did. ``capacity`` is an integer >= 1 (one clear line
    otherwise).

    Attributes:
        hits: positions answered from the cache (a position asked twice in one batch counts
            once as a miss, then as a hit).
        misses: positions sent to the evaluator.
    """

    def __init__(self, evaluator: Any, capacity: int) -> None:
        check_integer(capacity, "capacity", owner=_NAME, low=1)
        if not callable(getattr(evaluator, "evaluate_batch", None)):
            raise InvalidParameterError(
                f"{_NAME}: the evaluator must have evaluate_batch(states), got {evaluator!r}"
            )
        encoder: Any = getattr(evaluator, "encoder", None)
        if not callable(getattr(encoder, "encode_batch", None)) and not callable(
            getattr(encoder, "encode", None)
        ):
            raise InvalidParameterError(
                f"{_NAME}: the evaluator needs an encoder with encode_batch(states) or "
                f"encode(state), got {encoder!r}"
            )
        self.evaluator: Any = evaluator
        self.encoder: Any = encoder
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._slot_of: dict[bytes, int] = {}
        self._key_in: list[bytes | None] = [None] * capacity
        self._next = 0
        self._priors: np.ndarray | None = None
        self._values = np.zeros(capacity, dtype=np.float32)

    @property
    def hit_rate(self) -> float:
        """Hits over positions asked (0 before any)."""
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    def __len__(self) -> int:
        """Positions held."""
        return len(self._slot_of)

    def clear(self) -> None:
        """Forget every evaluation (the counts stay)."""
        self._slot_of.clear()
        self._key_in = [None] * self.capacity
        self._next = 0

    def planes(self, states: Sequence[Any]) -> np.ndarray:
        """The encoder's planes of ``states``, ``[B, C, H, W]``."""
        encoder = self.encoder
        if callable(getattr(encoder, "encode_batch", None)):
            return np.ascontiguousarray(encoder.encode_batch(states))
        return np.stack([encoder.encode(state) for state in states])

    @staticmethod
    def keys(planes: np.ndarray, states: Sequence[Any]) -> list[bytes]:
        """The key of each state: its planes and its legal actions, as bytes. Planes of zeros
        and ones (every built-in encoder's) are packed 8 cells to a byte, the key itself;
        others go through a 128-bit BLAKE2b digest (a mark byte keeps the two kinds apart)."""
        count = len(states)
        flat = np.ascontiguousarray(planes).reshape(count, -1)
        binary = bool(((flat == 0) | (flat == 1)).all())
        raw = np.packbits(flat.astype(np.uint8), axis=1).tobytes() if binary else flat.tobytes()
        size = len(raw) // count if count else 0
        digest = hashlib.blake2b
        keys = []
        for index, state in enumerate(states):
            actions = state.legal_actions()
            try:
                legal = bytes(actions)  # small integer actions: one byte each
            except (TypeError, ValueError):
                legal = b"\xff" + repr(actions).encode()  # others: their text, marked apart
            row = raw[index * size : (index + 1) * size]
            if binary:
                keys.append(b"b" + row + legal)
            else:
                keys.append(b"d" + digest(row + legal, digest_size=16).digest())
        return keys

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """``(priors [B, num_actions], values [B])`` as the evaluator gives them, the
        positions it has not seen sent to it in one call (none when every one is held)."""
        planes = self.planes(states)
        keys = self.keys(planes, states)
        slot_of = self._slot_of
        hit_rows: list[int] = []
        hit_slots: list[int] = []
        first_row: dict[bytes, int] = {}  # a missing key -> its row in the evaluator's batch
        miss_rows: list[int] = []
        repeat_rows: list[tuple[int, int]] = []  # (row, the evaluator's row of its key)
        for row, key in enumerate(keys):
            slot = slot_of.get(key)
            if slot is not None:
                hit_rows.append(row)
                hit_slots.append(slot)
            elif key in first_row:
                repeat_rows.append((row, first_row[key]))
            else:
                first_row[key] = len(miss_rows)
                miss_rows.append(row)
        self.hits += len(hit_rows) + len(repeat_rows)
        self.misses += len(miss_rows)
        new_priors: np.ndarray | None = None
        new_values: np.ndarray | None = None
        if miss_rows:
            missing = [states[row] for row in miss_rows]
            evaluate_encoded = getattr(self.evaluator, "evaluate_encoded", None)
            answer = (
                evaluate_encoded(planes[miss_rows], missing)
                if callable(evaluate_encoded)
                else self.evaluator.evaluate_batch(missing)
            )
            new_priors = np.asarray(answer[0], dtype=np.float32)
            new_values = np.asarray(answer[1], dtype=np.float32).reshape(-1)
            if new_priors.ndim != 2 or len(new_priors) != len(miss_rows):
                return new_priors, new_values  # the search's own check says what is wrong
            if self._priors is None:
                self._priors = np.zeros((self.capacity, new_priors.shape[1]), np.float32)
            elif self._priors.shape[1] != new_priors.shape[1]:
                raise InvalidParameterError(
                    f"{_NAME}: the evaluator gave priors over {new_priors.shape[1]} actions, "
                    f"{self._priors.shape[1]} before"
                )
        if self._priors is None:  # nothing held and nothing asked: an empty batch
            return self.evaluator.evaluate_batch(states)
        priors = np.empty((len(states), self._priors.shape[1]), dtype=np.float32)
        values = np.empty(len(states), dtype=np.float32)
        if hit_rows:  # read before the new evaluations may take their slots
            priors[hit_rows] = self._priors[hit_slots]
            values[hit_rows] = self._values[hit_slots]
        if new_priors is not None and new_values is not None:
            priors[miss_rows] = new_priors
            values[miss_rows] = new_values
            for row, source in repeat_rows:
                priors[row] = new_priors[source]
                values[row] = new_values[source]
            self._store(list(first_row), new_priors, new_values)
        return priors, values

    def _store(self, keys: list[bytes], priors: np.ndarray, values: np.ndarray) -> None:
        """Keep the newest ``capacity`` of ``keys`` with their rows, the oldest held go first."""
        assert self._priors is not None
        start = max(0, len(keys) - self.capacity)
        for index in range(start, len(keys)):
            slot = self._next
            old = self._key_in[slot]
            if old is not None:
                del self._slot_of[old]
            self._key_in[slot] = keys[index]
            self._slot_of[keys[index]] = slot
            self._priors[slot] = priors[index]
            self._values[slot] = values[index]
            self._next = (slot + 1) % self.capacity

    def __repr__(self) -> str:
        return (
            f"EvaluationCache({self.evaluator!r}, capacity={self.capacity}, held={len(self)}, "
            f"hit_rate={self.hit_rate:.2f})"
        )
