"""The AlphaGo pipeline's self-play: policy matches, policy gradient, value-network positions.

* :func:`play_games`: many games in **lock step** (Connect Four by default; any game with an
  encoder, Go included), each side of each game played by a policy (an object with
  ``probabilities(states) -> [B, num_actions]`` over the encoder's action indices), one call
  per policy per step for all the positions it must move in, moves **sampled** from the
  probabilities with a seeded generator;
* :func:`match`: a seeded match between two policies, colours alternating;
* :func:`reinforce`: AlphaGo's RL stage. The learner (initialised from the SL policy) plays
  games against opponents drawn from a **pool of its earlier versions** (the SL policy first;
  a snapshot is added every ``pool_every`` iterations), and after each batch of games takes
  one step of one of the three forms of reinforcement learning (:data:`RL_FORMS`), each from
  the game's result ``z`` for the learner:

  - ``"reinforce"``, **policy gradient** (Williams 1992; AlphaGo's): the loss
    ``-(z - b) log p(a | s)`` over the learner's moves, ``b`` the batch's mean result; the
    network learns a policy;
  - ``"actor_critic"``: the same gradient with the **critic's** baseline, the network's own
    value head: advantage ``z - v(s)``, and the critic learns ``(z - v(s))^2`` beside it; the
    network learns a policy (actor) and a value (critic);
  - ``"value"``, **value-based** (Monte Carlo control): the policy head's outputs are read as
    **action values** ``Q(s, a) = tanh(output)``, learnt by ``(z - Q(s, a))^2`` on the moves
    played (Monte Carlo targets), and the moves are drawn from ``softmax(Q / temperature)``
    over the legal ones (:class:`QPolicy`); the network learns action values, and its policy
    is the softmax over them. From the SL network, ``tanh`` keeps the order of its outputs,
    so the greedy move is the SL policy's at the start;
* :func:`value_positions`: AlphaGo's value-network data, **one position per game** (positions
  of one game are strongly correlated and make the value network memorise): a ply ``U`` drawn
  uniformly, the SL policy plays the first ``U`` plies, one uniformly random move, then the RL
  policy plays both sides to the end; the position after the random move is labelled with the
  result for its player to move.

>>> from searchlab.learning.alphago.rollout_policy import RolloutPolicy
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

from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.learning.alphago.fit import policy_probabilities
from searchlab.learning.alphazero.evaluation import MatchResult, tally
from searchlab.learning.networks.encoder import Encoder
from searchlab.learning.networks.network import PolicyValueNet, masked_log_softmax

__all__ = [
    "RL_FORMS",
    "EachState",
    "GameLine",
    "MatchResult",
    "NetPolicy",
    "Policy",
    "QPolicy",
    "ReinforceReport",
    "match",
    "play_games",
    "reinforce",
    "rl_policy",
    "value_positions",
]


RL_FORMS = ("reinforce", "actor_critic", "value")
"""The RL stage's forms (see the module): policy gradient, actor-critic, value-based."""


class Policy(Protocol):
    """Move probabilities for a batch of positions."""

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """``[B, num_actions]``: probabilities over the encoder's action indices (Connect
        Four's: the columns), 0 on the illegal ones."""
        ...


class NetPolicy:
    """A network's policy head as a :class:`Policy` (one forward pass per call)."""

    def __init__(self, net: PolicyValueNet, encoder: Encoder) -> None:
        self.net, self.encoder = net, encoder

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """The masked softmax of the policy head."""
        return policy_probabilities(self.net, self.encoder, states)


class QPolicy:
    """A network's policy head read as action values, ``Q(s, a) = tanh(output)``, as a
    :class:`Policy`: ``softmax(Q / temperature)`` over the legal actions (the ``"value"``
    form's behaviour; ``temperature`` near 0 is the greedy policy)."""

    def __init__(self, net: PolicyValueNet, encoder: Encoder, temperature: float = 0.1) -> None:
        if not 0 < temperature < float("inf"):
            raise InvalidParameterError(f"QPolicy: temperature must be > 0, got {temperature!r}")
        self.net, self.encoder, self.temperature = net, encoder, temperature

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """The softmax of the action values over the legal actions."""
        if not states:
            return np.zeros((0, self.encoder.num_actions), dtype=np.float32)
        planes = torch.from_numpy(self.encoder.encode_batch(list(states)))
        mask = torch.from_numpy(np.stack([self.encoder.legal_mask(s) for s in states]))
        training = self.net.training
        self.net.eval()
        try:
            with torch.inference_mode():
                logits, _ = self.net(planes)
                values = torch.tanh(logits.float()) / self.temperature
                return np.asarray(torch.exp(masked_log_softmax(values, mask)).numpy())
        finally:
            self.net.train(training)


def rl_policy(
    net: PolicyValueNet, encoder: Encoder, form: str = "reinforce", temperature: float = 0.1
) -> Policy:
    """The policy a network trained by the RL ``form`` plays: its policy head's softmax
    (:class:`NetPolicy`), or for ``"value"`` the softmax over its action values
    (:class:`QPolicy` at ``temperature``)."""
    if form not in RL_FORMS:
        raise InvalidParameterError(f"rl form must be one of {', '.join(RL_FORMS)}, got {form!r}")
    return QPolicy(net, encoder, temperature) if form == "value" else NetPolicy(net, encoder)


class EachState:
    """A one-position policy (``probabilities(state) -> [7]``, such as the rollout policy) as
    a batch :class:`Policy`."""

    def __init__(self, policy: Any, num_actions: int = 7) -> None:
        self.policy, self.num_actions = policy, num_actions

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        """One row per state."""
        if not states:
            return np.zeros((0, self.num_actions))
        return np.stack([self.policy.probabilities(s) for s in states])


@dataclass(frozen=True, eq=False)
class GameLine:
    """One finished game: its positions (first to last), the action indices played, and the
    result for the first player (+1, 0, -1)."""

    states: list[Any]
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
    *,
    game: Any = None,
    encoder: Encoder | None = None,
) -> list[GameLine]:
    """``count`` games of ``game`` (default Connect Four) from its initial state in lock step;
    ``policy_for(game, ply)`` is the policy that moves in game ``game`` at ply ``ply``. Each
    step asks every distinct policy once for all its positions, then samples the moves in game
    order (so the same generator state gives the same games). ``encoder`` turns an action index
    into the game's action (default: the identity)."""
    rules = Connect4() if game is None else game
    states = [rules.initial_state() for _ in range(count)]
    lines = [[s] for s in states]
    actions: list[list[int]] = [[] for _ in range(count)]
    ply = 0
    while True:
        live = [g for g in range(count) if not states[g].is_terminal()]
        if not live:
            break
        groups: dict[int, tuple[Policy, list[int]]] = {}
        for g in live:
            policy = policy_for(g, ply)
            groups.setdefault(id(policy), (policy, []))[1].append(g)
        rows: dict[int, np.ndarray] = {}
        for policy, games in groups.values():
            probabilities = policy.probabilities([states[g] for g in games])
            for g, row in zip(games, probabilities, strict=True):
                rows[g] = row
        for g in live:
            index = _sample(rows[g], rng)
            action = index if encoder is None else encoder.index_to_action(states[g], index)
            states[g] = states[g].apply(action)
            lines[g].append(states[g])
            actions[g].append(index)
        ply += 1
    return [GameLine(lines[g], actions[g], float(states[g].returns()[0])) for g in range(count)]


def match(
    a: Policy,
    b: Policy,
    *,
    games: int,
    seed: int,
    game: Any = None,
    encoder: Encoder | None = None,
) -> MatchResult:
    """``games`` games of ``a`` against ``b`` (of ``game``, default Connect Four), ``a``
    moving first in the even-numbered ones; moves sampled, seeded; ``a``'s tally (the
    evaluation games' :class:`MatchResult`)."""
    check_integer(games, "games", owner="match", low=1)
    lines = play_games(
        games,
        lambda g, ply: a if (ply + g) % 2 == 0 else b,
        np.random.default_rng(seed),
        game=game,
        encoder=encoder,
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
    form: str = "reinforce",
    game: Any = None,
    temperature: float = 0.1,
    value_weight: float = 1.0,
) -> ReinforceReport:
    """Improve ``net`` (in place) by reinforcement learning against a pool of its earlier
    versions.

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
        form: ``"reinforce"``, ``"actor_critic"`` or ``"value"`` (:data:`RL_FORMS`, see the
            module).
        game: the game (default Connect Four; ``encoder`` must be its encoder).
        temperature: the ``"value"`` form's softmax temperature over the action values (the
            learner's and the pool's moves).
        value_weight: the weight of the critic's squared error (``"actor_critic"``).
    """
    check_integer(iterations, "iterations", owner="reinforce", low=1)
    if games_per_iteration < 2 or pool_every < 1 or not learning_rate > 0:
        raise InvalidParameterError(
            "reinforce: games_per_iteration must be >= 2, pool_every >= 1, learning_rate > 0"
        )
    if form not in RL_FORMS:
        raise InvalidParameterError(
            f"reinforce: form must be one of {', '.join(RL_FORMS)}, got {form!r}"
        )
    if not 0 <= value_weight < float("inf"):
        raise InvalidParameterError(f"reinforce: value_weight must be >= 0, got {value_weight!r}")
    rng = np.random.default_rng(seed)
    snapshots = [copy.deepcopy(s) for s in pool] or [copy.deepcopy(net.state_dict())]
    opponents: list[Policy] = []

    def as_policy(network: PolicyValueNet) -> Policy:
        return rl_policy(network, encoder, form, temperature)

    def opponent(index: int) -> Policy:
        while len(opponents) <= index:
            clone = PolicyValueNet(net.shape, net.num_actions, net.config)
            clone.load_state_dict(snapshots[len(opponents)])
            clone.eval()
            opponents.append(as_policy(clone))
        return opponents[index]

    learner = as_policy(net)
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate)
    means = []
    for iteration in range(1, iterations + 1):
        drawn = rng.integers(len(snapshots), size=games_per_iteration)
        rivals = [opponent(int(i)) for i in drawn]

        def policy_for(g: int, ply: int, rivals: list[Policy] = rivals) -> Policy:
            return learner if (ply + g) % 2 == 0 else rivals[g]

        lines = play_games(games_per_iteration, policy_for, rng, game=game, encoder=encoder)
        states: list[Any] = []
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
        loss = _rl_loss(
            form, net, encoder, states, moves, outcomes, results, games_per_iteration,
            value_weight,
        )  # fmt: skip
        if loss is not None:
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


def _rl_loss(
    form: str,
    net: PolicyValueNet,
    encoder: Encoder,
    states: list[Any],
    moves: list[int],
    outcomes: list[float],
    results: list[float],
    games: int,
    value_weight: float,
) -> torch.Tensor | None:
    """The loss of one batch of the learner's moves (``None``: nothing to learn from)."""
    if not states:
        return None
    z = torch.tensor(outcomes, dtype=torch.float32)
    if form == "reinforce":
        advantage = z - float(np.mean(results))
        if float(advantage.abs().sum()) == 0:
            return None
    planes = torch.from_numpy(encoder.encode_batch(states))
    mask = torch.from_numpy(np.stack([encoder.legal_mask(s) for s in states]))
    net.eval()  # batch statistics stay those of the SL data
    logits, value = net(planes)
    taken = (torch.arange(len(moves)), torch.tensor(moves))
    if form == "value":
        q = torch.tanh(logits[taken])
        return torch.mean((z - q) ** 2)
    chosen = masked_log_softmax(logits, mask)[taken]
    if form == "actor_critic":
        advantage = z - value.detach()
        critic = torch.mean((z - value) ** 2)
        return -(advantage * chosen).sum() / games + value_weight * critic
    return -(advantage * chosen).sum() / games


class _Uniform:
    def __init__(self, encoder: Encoder | None) -> None:
        self.encoder = encoder

    def probabilities(self, states: Sequence[Any]) -> np.ndarray:
        if self.encoder is not None:
            rows = np.stack([self.encoder.legal_mask(s) for s in states]).astype(np.float64)
        else:
            rows = np.zeros((len(states), 7))
            for i, state in enumerate(states):
                rows[i, state.legal_actions()] = 1.0
        return rows / rows.sum(axis=1, keepdims=True)


def value_positions(
    sl: Policy,
    rl: Policy,
    *,
    count: int,
    seed: int,
    max_ply: int = 36,
    game: Any = None,
    encoder: Encoder | None = None,
) -> tuple[list[Any], np.ndarray]:
    """``count`` games (of ``game``, default Connect Four; ``encoder`` its encoder), one
    position each (see the module), and its result for the player to move in it: ``(states,
    targets float32 [count])``. A game that ends before its position is played again with a
    new ``U``."""
    check_integer(count, "count", owner="value_positions", low=1)
    rng = np.random.default_rng(seed)
    uniform = _Uniform(encoder)
    states: list[Any] = []
    targets: list[float] = []
    while len(states) < count:
        wanted = count - len(states)
        cut = rng.integers(0, max_ply, size=wanted)

        def policy_for(g: int, ply: int, cut: np.ndarray = cut) -> Policy:
            if ply < cut[g]:
                return sl
            return uniform if ply == cut[g] else rl

        lines = play_games(wanted, policy_for, rng, game=game, encoder=encoder)
        for g, line in enumerate(lines):
            index = int(cut[g]) + 1
            if index >= len(line.states) or line.states[index].is_terminal():
                continue
            state = line.states[index]
            result = line.result if state.current_player() == 0 else -line.result
            states.append(state)
            targets.append(result)
    return states, np.asarray(targets, dtype=np.float32)
