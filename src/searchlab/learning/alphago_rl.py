"""The AlphaGo pipeline's self-play: policy matches, policy gradient, value-network positions.

* :func:`play_games`: many Connect Four games in **lock step**, each side of each game played
  by a policy (an object with ``probabilities(states) -> [B, 7]``), one call per policy per
  step for all the positions it must move in, moves **sampled** from the probabilities with a
  seeded generator;
* :func:`match`: a seeded match between two policies, colours alternating;
* :func:`reinforce`: AlphaGo's RL stage. The learner (initialised from the SL policy) plays
  games against opponents drawn from a **pool of its earlier versions** (the SL policy first;
  a snapshot is added every ``pool_every`` iterations), and after each batch of games takes
  one **REINFORCE** step (Williams 1992) with a baseline:
  ``grad = mean over its moves of (z - b) * grad log p(a | s)``, ``z`` the game's result for
  the learner, ``b`` the batch's mean result;
* :func:`value_positions`: AlphaGo's value-network data, **one position per game** (positions
  of one game are strongly correlated and make the value network memorise): a ply ``U`` drawn
  uniformly, the SL policy plays the first ``U`` plies, one uniformly random move, then the RL
  policy plays both sides to the end; the position after the random move is labelled with the
  result for its player to move.

>>> from searchlab.learning.rollout_policy import RolloutPolicy
>>> heuristic, uniform = EachState(RolloutPolicy.heuristic()), EachState(RolloutPolicy.uniform())
>>> result = match(heuristic, uniform, games=20, seed=0)
>>> result.games, result.score > 0.75  # winning, blocking and the centre beat random play
(20, True)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import torch

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4, Connect4State
from searchlab.learning.alphago_nets import policy_probabilities
from searchlab.learning.encoder import Encoder
from searchlab.learning.evaluation import MatchResult, tally
from searchlab.learning.network import PolicyValueNet, masked_log_softmax

__all__ = [
    "EachState",
    "GameLine",
    "MatchResult",
    "NetPolicy",
    "Policy",
    "ReinforceReport",
    "match",
    "play_games",
    "reinforce",
    "value_positions",
]


class Policy(Protocol):
    """Move probabilities for a batch of positions."""

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """``[B, 7]``: probabilities over the columns, 0 on the full ones."""
        ...


class NetPolicy:
    """A network's policy head as a :class:`Policy` (one forward pass per call)."""

    def __init__(self, net: PolicyValueNet, encoder: Encoder) -> None:
        self.net, self.encoder = net, encoder

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """The masked softmax of the policy head."""
        return policy_probabilities(self.net, self.encoder, states)


class EachState:
    """A one-position policy (``probabilities(state) -> [7]``, such as the rollout policy) as
    a batch :class:`Policy`."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """One row per state."""
        return (
            np.stack([self.policy.probabilities(s) for s in states]) if states else np.zeros((0, 7))
        )


@dataclass(frozen=True, eq=False)
class GameLine:
    """One finished game: its positions (first to last), the columns played, and the result
    for the first player (+1, 0, -1)."""

    states: list[Connect4State]
    actions: list[int]
    result: float


def _sample(row: np.ndarray, rng: np.random.Generator) -> int:
    cumulative = np.cumsum(np.asarray(row, dtype=np.float64))
    total = float(cumulative[-1])
    if not total > 0 or not np.isfinite(total):
        raise InvalidParameterError("a policy gave no probability to any legal move")
    index = int(np.searchsorted(cumulative, rng.random() * total, side="right"))
    return min(index, int(np.flatnonzero(row > 0)[-1]))


def play_games(
    count: int,
    policy_for: Callable[[int, int], Policy],
    rng: np.random.Generator,
) -> list[GameLine]:
    """``count`` games from the empty board in lock step; ``policy_for(game, ply)`` is the
    policy that moves in game ``game`` at ply ``ply``. Each step asks every distinct policy
    once for all its positions, then samples the moves in game order (so the same generator
    state gives the same games)."""
    states = [Connect4().initial_state() for _ in range(count)]
    lines = [[s] for s in states]
    actions: list[list[int]] = [[] for _ in range(count)]
    while True:
        live = [g for g in range(count) if not states[g].is_terminal()]
        if not live:
            break
        groups: dict[int, tuple[Policy, list[int]]] = {}
        for g in live:
            policy = policy_for(g, states[g].num_moves)
            groups.setdefault(id(policy), (policy, []))[1].append(g)
        rows: dict[int, np.ndarray] = {}
        for policy, games in groups.values():
            probabilities = policy.probabilities([states[g] for g in games])
            for g, row in zip(games, probabilities, strict=True):
                rows[g] = row
        for g in live:
            column = _sample(rows[g], rng)
            states[g] = states[g].apply(column)
            lines[g].append(states[g])
            actions[g].append(column)
    return [GameLine(lines[g], actions[g], float(states[g].returns()[0])) for g in range(count)]


def match(a: Policy, b: Policy, *, games: int, seed: int) -> MatchResult:
    """``games`` games of ``a`` against ``b``, ``a`` moving first in the even-numbered ones;
    moves sampled, seeded; ``a``'s tally (the evaluation games' :class:`MatchResult`)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidParameterError(f"match: games must be an integer >= 1, got {games!r}")
    lines = play_games(
        games, lambda g, ply: a if (ply + g) % 2 == 0 else b, np.random.default_rng(seed)
    )
    return tally(
        [int(np.sign(line.result if g % 2 == 0 else -line.result)) for g, line in enumerate(lines)]
    )


@dataclass(frozen=True)
class ReinforceReport:
    """What :func:`reinforce` did: iterations, games, the learner's mean result per iteration
    (against the pool), and the pool at the end (``state_dict``\\ s, oldest first)."""

    iterations: int
    games: int
    mean_results: tuple[float, ...]
    pool: tuple[dict[str, Any], ...]


def reinforce(
    net: PolicyValueNet,
    encoder: Encoder,
    *,
    iterations: int,
    games_per_iteration: int = 64,
    learning_rate: float = 1e-3,
    pool_every: int = 5,
    pool: Sequence[dict[str, Any]] = (),
    seed: int = 0,
    progress: Callable[[int, int, float], None] | None = None,
) -> ReinforceReport:
    """Improve ``net``'s policy (in place) by REINFORCE against a pool of its earlier versions.

    Args:
        net: the learner, the SL policy network at the start (its weights are the pool's
            first member unless ``pool`` is given).
        iterations: batches of games, one gradient step each (>= 1).
        games_per_iteration: games per batch (>= 2), the learner first in half of them.
        learning_rate: Adam's step size.
        pool_every: a snapshot of the learner joins the pool every ``pool_every`` iterations.
        pool: earlier versions (``state_dict``\\ s), to resume with.
        seed: the opponents drawn and the moves sampled.
        progress: called as ``progress(iteration, iterations, mean_result)``.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise InvalidParameterError(
            f"reinforce: iterations must be an integer >= 1, got {iterations!r}"
        )
    if games_per_iteration < 2 or pool_every < 1 or not learning_rate > 0:
        raise InvalidParameterError(
            "reinforce: games_per_iteration must be >= 2, pool_every >= 1, learning_rate > 0"
        )
    rng = np.random.default_rng(seed)
    snapshots = [copy.deepcopy(s) for s in pool] or [copy.deepcopy(net.state_dict())]
    opponents: list[NetPolicy] = []

    def opponent(index: int) -> NetPolicy:
        while len(opponents) <= index:
            clone = PolicyValueNet(net.shape, net.num_actions, net.config)
            clone.load_state_dict(snapshots[len(opponents)])
            clone.eval()
            opponents.append(NetPolicy(clone, encoder))
        return opponents[index]

    learner = NetPolicy(net, encoder)
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate)
    means = []
    for iteration in range(1, iterations + 1):
        drawn = rng.integers(len(snapshots), size=games_per_iteration)
        rivals = [opponent(int(i)) for i in drawn]

        def policy_for(g: int, ply: int, rivals: list[NetPolicy] = rivals) -> Policy:
            return learner if (ply + g) % 2 == 0 else rivals[g]

        lines = play_games(games_per_iteration, policy_for, rng)
        states: list[Connect4State] = []
        moves: list[int] = []
        outcomes: list[float] = []
        results = []
        for g, line in enumerate(lines):
            z = line.result if g % 2 == 0 else -line.result
            results.append(z)
            for ply in range(g % 2, len(line.actions), 2):
                states.append(line.states[ply])
                moves.append(line.actions[ply])
                outcomes.append(z)
        baseline = float(np.mean(results))
        advantage = torch.tensor(np.asarray(outcomes) - baseline, dtype=torch.float32)
        if states and float(advantage.abs().sum()) > 0:
            planes = torch.from_numpy(encoder.encode_batch(states))
            mask = torch.from_numpy(np.stack([encoder.legal_mask(s) for s in states]))
            net.eval()  # batch statistics stay those of the SL data
            logits, _ = net(planes)
            chosen = masked_log_softmax(logits, mask)[torch.arange(len(moves)), torch.tensor(moves)]
            loss = -(advantage * chosen).sum() / games_per_iteration
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        means.append(float(np.mean(results)))
        if iteration % pool_every == 0:
            snapshots.append(copy.deepcopy(net.state_dict()))
        if progress is not None:
            progress(iteration, iterations, means[-1])
    net.eval()
    return ReinforceReport(
        iterations, iterations * games_per_iteration, tuple(means), tuple(snapshots)
    )


class _Uniform:
    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        rows = np.zeros((len(states), 7))
        for i, state in enumerate(states):
            rows[i, state.legal_actions()] = 1.0
        return rows / rows.sum(axis=1, keepdims=True)


def value_positions(
    sl: Policy, rl: Policy, *, count: int, seed: int, max_ply: int = 36
) -> tuple[list[Connect4State], np.ndarray]:
    """``count`` games, one position each (see the module), and its result for the player to
    move in it: ``(states, targets float32 [count])``. A game that ends before its position is
    played again with a new ``U``."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidParameterError(
            f"value_positions: count must be an integer >= 1, got {count!r}"
        )
    rng = np.random.default_rng(seed)
    uniform = _Uniform()
    states: list[Connect4State] = []
    targets: list[float] = []
    while len(states) < count:
        wanted = count - len(states)
        cut = rng.integers(0, max_ply, size=wanted)

        def policy_for(g: int, ply: int, cut: np.ndarray = cut) -> Policy:
            if ply < cut[g]:
                return sl
            return uniform if ply == cut[g] else rl

        for g, line in enumerate(play_games(wanted, policy_for, rng)):
            index = int(cut[g]) + 1
            if index >= len(line.states) or line.states[index].is_terminal():
                continue
            state = line.states[index]
            result = line.result if state.current_player() == 0 else -line.result
            states.append(state)
            targets.append(result)
    return states, np.asarray(targets, dtype=np.float32)
