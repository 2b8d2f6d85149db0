"""The AlphaGo pipeline's expert data: Connect Four positions labelled by the exact solver.

AlphaGo's supervised policy network learned from 30 million positions of human expert games.
searchlab has a better expert for Connect Four: its exact solver
(:mod:`~searchlab.algorithms.adversarial.connect4_solver`). A position is labelled with the
**game-theoretic outcome of every legal move** for the player to move (+1 the move wins with
best play, 0 draws, -1 loses); the optimal moves are those of the best outcome, and the
position's own value is that best outcome.

Positions come from **varied play**: games played by the hand-set rollout policy
(:meth:`~searchlab.learning.alphago.rollout_policy.RolloutPolicy.heuristic`: it wins, blocks and
likes the centre) with a share of uniformly random moves, one position drawn from each game between
``min_ply`` and its end. A position the solver cannot settle within ``node_budget`` nodes per
move (the openings are the hardest) is skipped, so the data leans to the middle game; the
set records how many were skipped.

>>> data = generate_expert_positions(8, seed=3, min_ply=16)
>>> len(data), data.outcomes.shape
(8, (8, 7))
>>> bool(((data.outcomes >= -1) | (data.outcomes == ILLEGAL)).all())
True
>>> int(data.optimal_mask()[0].sum()) >= 1
True
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.core.atomic_file import write_atomically
from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, Connect4State, parse_moves
from searchlab.learning.alphago.rollout_policy import RolloutPolicy

__all__ = [
    "ILLEGAL",
    "ExpertPositions",
    "generate_expert_positions",
    "move_outcomes",
]

ILLEGAL = -2
"""The outcome entry of a full column."""

_WIDTH = 7


def move_outcomes(
    state: Connect4State, solver: Connect4Solver, *, node_budget: int | None = None
) -> np.ndarray | None:
    """``int8 [7]``: the outcome of each column for the player to move in ``state`` (+1 win,
    0 draw, -1 loss with best play; :data:`ILLEGAL` for a full column), or ``None`` when a
    move is not settled within ``node_budget`` solver nodes.

    >>> solver = Connect4Solver(table_log2=16)
    >>> move_outcomes(parse_moves("17273"), solver).tolist()  # O must block column 4
    [-1, -1, -1, 1, -1, -1, -1]
    """
    outcomes = np.full(_WIDTH, ILLEGAL, dtype=np.int8)
    limits = None if node_budget is None else Limits(nodes=node_budget)
    for column in state.legal_actions():
        child = state.apply(column)
        if child.is_terminal():
            outcomes[column] = 1 if child.is_won else 0
            continue
        result = solver.solve(child, weak=True, find_move=False, reset=False, limits=limits)
        if not result.is_proven or result.score is None:
            return None
        outcomes[column] = -int(np.sign(result.score))
    return outcomes


@dataclass(frozen=True, eq=False)
class ExpertPositions:
    """Positions (Pons' move strings) and the outcome of every column in each.

    Attributes:
        moves: the move strings, one per position.
        outcomes: ``int8 [N, 7]``, see :func:`move_outcomes`.
        skipped: positions drawn but left out (the solver's budget ran out).
    """

    moves: tuple[str, ...]
    outcomes: np.ndarray
    skipped: int = 0

    def __post_init__(self) -> None:
        if self.outcomes.shape != (len(self.moves), _WIDTH):
            raise InvalidParameterError(
                f"expert positions: {len(self.moves)} positions but outcomes of shape "
                f"{list(self.outcomes.shape)}"
            )

    def __len__(self) -> int:
        return len(self.moves)

    def states(self) -> list[Connect4State]:
        """The positions as states."""
        return [parse_moves(moves) for moves in self.moves]

    def legal_mask(self) -> np.ndarray:
        """``bool [N, 7]``: the legal columns."""
        return np.asarray(self.outcomes != ILLEGAL)

    def values(self) -> np.ndarray:
        """``float32 [N]``: each position's value for its player to move (its best move's
        outcome)."""
        return np.asarray(self.outcomes.max(axis=1), dtype=np.float32)

    def optimal_mask(self) -> np.ndarray:
        """``bool [N, 7]``: the optimal columns (best outcome) of each position."""
        return np.asarray(self.outcomes == self.outcomes.max(axis=1, keepdims=True))

    def targets(self) -> np.ndarray:
        """``float32 [N, 7]``: the supervised policy target, uniform over the optimal moves."""
        optimal = self.optimal_mask().astype(np.float32)
        return np.asarray(optimal / optimal.sum(axis=1, keepdims=True))

    def informative(self) -> np.ndarray:
        """``bool [N]``: positions where some legal move is not optimal (a mistake is
        possible; the others teach a policy nothing)."""
        return np.asarray(self.optimal_mask().sum(axis=1) < self.legal_mask().sum(axis=1))

    def child_values(self, max_ply: int = 41) -> tuple[list[Connect4State], np.ndarray]:
        """The position after every legal move of each position of at most ``max_ply``
        stones, and its exact value (``float32``, for its own player to move: minus the
        move's outcome): value targets the labels already hold, about six a position, for
        the positions a search meets at its leaves, good moves and mistakes alike. Finished
        games (a move that wins or fills the board) are left out: a search scores them by
        the rules, not by the network.

        >>> data = ExpertPositions(("17273",), np.array([[-1, -1, -1, 1, -1, -1, -1]], np.int8))
        >>> states, values = data.child_values()
        >>> len(states), values.tolist()  # O's block in column 4 is the one move that holds
        (7, [1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0])
        >>> len(data.child_values(max_ply=4)[0])
        0
        """
        states: list[Connect4State] = []
        values: list[float] = []
        for moves, outcomes in zip(self.moves, self.outcomes, strict=True):
            if len(moves) > max_ply:
                continue
            state = parse_moves(moves)
            for column in np.flatnonzero(outcomes != ILLEGAL):
                child = state.apply(int(column))
                if not child.is_terminal():
                    states.append(child)
                    values.append(-float(outcomes[column]))
        return states, np.asarray(values, dtype=np.float32)

    def subset(self, keep: np.ndarray) -> ExpertPositions:
        """The positions where ``keep`` (a boolean mask or indices) says so."""
        index = np.flatnonzero(keep) if np.asarray(keep).dtype == bool else np.asarray(keep)
        return ExpertPositions(
            tuple(self.moves[i] for i in index), self.outcomes[index].copy(), self.skipped
        )

    def uniform_accuracy(self) -> float:
        """The chance that a uniformly random legal move is optimal, averaged: the baseline
        a policy's accuracy must beat."""
        return float(np.mean(self.optimal_mask().sum(axis=1) / self.legal_mask().sum(axis=1)))

    def accuracy(self, chosen: np.ndarray) -> float:
        """The share of positions where column ``chosen[i]`` is optimal."""
        picked = self.optimal_mask()[np.arange(len(self)), np.asarray(chosen)]
        return float(np.mean(picked)) if len(self) else 0.0

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the set as ``.npz``, atomically (temporary file, fsync, rename)."""
        target = Path(path)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            moves=np.array(self.moves, dtype=str),
            outcomes=self.outcomes,
            skipped=np.int64(self.skipped),
        )
        write_atomically(target, buffer.getvalue())
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ExpertPositions:
        """Read what :meth:`save` wrote; one ``InvalidParameterError`` line otherwise."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                moves = tuple(str(m) for m in data["moves"])
                return cls(moves, data["outcomes"].astype(np.int8), int(data["skipped"]))
        except (OSError, ValueError, KeyError) as error:
            raise InvalidParameterError(
                f"expert positions {path}: cannot be read ({error})"
            ) from None


def _varied_game(
    rng: np.random.Generator, policy: RolloutPolicy, random_share: float
) -> list[Connect4State]:
    """The positions of one game of varied play, the first (empty board) to the last."""
    state = Connect4().initial_state()
    line = [state]
    while not state.is_terminal():
        legal = state.legal_actions()
        if rng.random() < random_share:
            column = int(rng.choice(legal))
        else:
            column = int(rng.choice(7, p=policy.probabilities(state)))
        state = state.apply(column)
        line.append(state)
    return line


def generate_expert_positions(
    count: int,
    *,
    seed: int,
    min_ply: int = 12,
    max_ply: int = 41,
    random_share: float = 0.3,
    node_budget: int = 200_000,
    positions_per_game: int = 1,
    informative_only: bool = False,
    hard_budget: int = 0,
    solver: Connect4Solver | None = None,
    progress: Any = None,
) -> ExpertPositions:
    """``count`` positions of varied play labelled by the solver (see the module).

    Args:
        count: positions wanted (>= 1).
        seed: the games' generator: the same seed, the same positions.
        min_ply: the fewest stones a position has (>= 0).
        max_ply: the most stones a position has (``min_ply..41``; below 41, openings only).
        random_share: the share of uniformly random moves in the games (0..1).
        node_budget: the solver's nodes per move; a position not settled within it is skipped.
        positions_per_game: positions drawn from each game (distinct plies; fewer when the
            game is shorter): more positions per second of play, at some correlation.
        informative_only: keep only positions where a mistake is possible.
        hard_budget: when above 0, keep only the **hard** positions: those the solver does
            not settle within ``hard_budget`` nodes a move (then labelled within
            ``node_budget``). A small ``node_budget`` skips exactly these, so the data would
            otherwise lack the openings decided late (Pons' Begin-Hard kind).
        solver: a solver to reuse (its table); a new one by default.
        progress: called as ``progress(done, count)`` after each position kept.
    """
    check_integer(count, "count", owner="expert positions", low=1)
    if not 0 <= min_ply < 42:
        raise InvalidParameterError(f"expert positions: min_ply must be in 0..41, got {min_ply!r}")
    if isinstance(max_ply, bool) or not isinstance(max_ply, int) or not min_ply <= max_ply <= 41:
        raise InvalidParameterError(
            f"expert positions: max_ply must be an integer in min_ply..41 ({min_ply}..41), "
            f"got {max_ply!r}"
        )
    check_integer(positions_per_game, "positions_per_game", owner="expert positions", low=1)
    if not 0.0 <= random_share <= 1.0:
        raise InvalidParameterError(
            f"expert positions: random_share must be in 0..1, got {random_share!r}"
        )
    check_integer(hard_budget, "hard_budget", owner="expert positions", low=0)
    rng = np.random.default_rng(seed)
    solver = solver or Connect4Solver(table_log2=20)
    policy = RolloutPolicy.heuristic()
    moves: list[str] = []
    outcomes: list[np.ndarray] = []
    seen: set[int] = set()
    skipped = 0
    while len(moves) < count:
        line = [s for s in _varied_game(rng, policy, random_share) if not s.is_terminal()]
        candidates = line[min_ply : max_ply + 1]
        if not candidates:
            continue
        if positions_per_game == 1:
            picks = [int(rng.integers(len(candidates)))]
        else:
            taken = min(positions_per_game, len(candidates))
            picks = sorted(int(i) for i in rng.choice(len(candidates), taken, replace=False))
        for pick in picks:
            state = candidates[pick]
            if len(moves) >= count or state.key() in seen:
                continue
            seen.add(state.key())
            if hard_budget and move_outcomes(state, solver, node_budget=hard_budget) is not None:
                continue  # settled cheaply: not one of the hard positions asked for
            labels = move_outcomes(state, solver, node_budget=node_budget)
            if labels is None:
                skipped += 1
                continue
            if informative_only and (labels == labels.max()).sum() == (labels != ILLEGAL).sum():
                continue
            moves.append(state.moves)
            outcomes.append(labels)
            if progress is not None:
                progress(len(moves), count)
    return ExpertPositions(tuple(moves), np.stack(outcomes), skipped)
