"""Stand-ins shared by the array-PUCT and self-play tests (no tests here): a deterministic
evaluator keyed by the position, an exact tic-tac-toe evaluator, and a tiny game in which a
player sometimes moves twice in a row."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import GameInfo, parse_int_action


class Indexer:
    """An encoder stand-in: ``action_to_index`` by a function (identity by default), and
    ``encode`` giving one ``[1, 1, 2]`` plane: a hash of the position and its player."""

    def __init__(
        self, index: Callable[[Any, int], int] | None = None, num_actions: int = 9
    ) -> None:
        self._index = index or (lambda state, action: action)
        self.num_actions = num_actions

    def action_to_index(self, state: Any, action: int) -> int:
        return self._index(state, action)

    def encode(self, state: Any) -> np.ndarray:
        code = zlib.crc32(repr(state.key()).encode()) % 100_003
        return np.array([code, state.current_player()], dtype=np.float32).reshape(1, 1, 2)


class KeyedEvaluator:
    """Priors and values drawn from a generator seeded by a hash of ``state.key()``: the same
    position always gets the same evaluation, whatever the batch (``uniform``: equal priors,
    so that ties between edges are common). ``evaluate`` (the
    reference's per-state interface) gives the same numbers as a row of ``evaluate_batch``.
    ``calls`` records the size of every batch."""

    def __init__(
        self,
        num_actions: int,
        index: Callable[[Any, int], int] | None = None,
        salt: int = 0,
        uniform: bool = False,
    ) -> None:
        self.num_actions = num_actions
        self.encoder = Indexer(index, num_actions)
        self.salt = salt
        self.uniform = uniform
        self.calls: list[int] = []

    def _row(self, state: Any) -> tuple[np.ndarray, float]:
        seed = zlib.crc32(repr(state.key()).encode()) ^ self.salt
        rng = np.random.default_rng(seed)
        raw = np.ones(self.num_actions) if self.uniform else rng.random(self.num_actions) + 0.05
        value = float(rng.uniform(-0.9, 0.9))
        mask = np.zeros(self.num_actions, dtype=bool)
        for action in state.legal_actions():
            mask[self.encoder.action_to_index(state, action)] = True
        priors = np.where(mask, raw, 0.0)
        return priors / priors.sum(), value

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        self.calls.append(len(states))
        rows = [self._row(state) for state in states]
        priors = np.stack([row[0] for row in rows]) if rows else np.zeros((0, self.num_actions))
        return priors, np.array([row[1] for row in rows], dtype=np.float64)

    def evaluate(self, state: Any) -> tuple[list[float], float]:
        priors, value = self._row(state)
        index = self.encoder.action_to_index
        return [float(priors[index(state, a)]) for a in state.legal_actions()], value


_VALUES: dict[Any, int] = {}


def ttt_value(state: Any) -> int:
    """The exact value of a tic-tac-toe position for its player to move (+1, 0, -1)."""
    key = state.key()
    if key not in _VALUES:
        if state.is_terminal():
            outcome = state.returns()[state.current_player()]
            _VALUES[key] = 1 if outcome > 0 else -1 if outcome < 0 else 0
        else:
            _VALUES[key] = max(-ttt_value(state.apply(a)) for a in state.legal_actions())
    return _VALUES[key]


class PerfectTicTacToe:
    """Uniform priors; the exact value for the player to move."""

    def __init__(self) -> None:
        self.encoder = Indexer()
        self.calls: list[int] = []

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        self.calls.append(len(states))
        priors = np.zeros((len(states), 9))
        for row, state in enumerate(states):
            priors[row, list(state.legal_actions())] = 1.0 / len(state.legal_actions())
        values = np.array([float(ttt_value(state)) for state in states])
        return priors, values


class TakeAgain:
    """Take 1, 2 or 3 counters; whoever takes 2 moves again; who takes the last one wins.
    Actions 1..3 (index ``action - 1``)."""

    def __init__(self, counters: int = 11) -> None:
        self.counters = counters
        self.info = GameInfo(name="take_again", max_game_length=counters, max_utility=1.0)

    def initial_state(self) -> TakeAgainState:
        return TakeAgainState(self.counters, 0, -1)


class TakeAgainState:
    def __init__(self, left: int, player: int, winner: int) -> None:
        self.left, self.player, self.winner = left, player, winner

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return [] if self.left == 0 else [n for n in (1, 2, 3) if n <= self.left]

    def apply(self, action: int) -> TakeAgainState:
        if action not in self.legal_actions():
            raise IllegalMoveError(f"illegal action {action!r} with {self.left} left")
        left = self.left - action
        if left == 0:
            return TakeAgainState(0, 1 - self.player, self.player)
        return TakeAgainState(left, self.player if action == 2 else 1 - self.player, -1)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> tuple[float, float]:
        if self.winner < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def key(self) -> tuple[int, int]:
        return (self.left, self.player)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return parse_int_action(text, self)

    def __str__(self) -> str:
        return f"{self.left} left, player {self.player} to move"
