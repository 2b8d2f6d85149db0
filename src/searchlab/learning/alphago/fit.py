"""The AlphaGo pipeline's networks at work: batched policy and value reads, and their fits.

AlphaGo trained three networks of one kind: the **supervised (SL) policy** by classification of
expert moves, the **reinforcement-learning (RL) policy** by policy gradient from the SL one
(:mod:`~searchlab.learning.alphago.rl`), and the **value network** by regression on the RL
policy's self-play outcomes. Here all three are
:class:`~searchlab.learning.networks.network.PolicyValueNet`\\ s (the policies use their policy
head, the value network its value head), so every checkpoint is an ordinary one.

* :func:`fit_policy`: minibatch cross-entropy from a target distribution (the solver's optimal
  moves, uniform among them) to the masked policy, both mirror images of every position;
* :func:`fit_policy_value`: both heads at once on the solver's labels (policy cross-entropy
  plus the value's squared error to the exact value), resumable epoch by epoch, so the SL
  network is also a whole policy-value network the ``az`` agent can search with;
* :func:`fit_value`: minibatch squared error of the value head to targets in ``[-1, 1]``;
* :func:`policy_probabilities`, :func:`values`: one forward pass for a batch of states;
* :func:`policy_accuracy`, :func:`value_correlation`: the held-out checks against the solver.

Every fit is seeded (the minibatch order) and runs on the CPU with the caller's threads.

>>> from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
>>> from searchlab.domains.games.connect4 import parse_moves
>>> from searchlab.learning.alphago.data import ExpertPositions, move_outcomes
>>> from searchlab.learning.networks.encoders import Connect4Encoder
>>> from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet
>>> encoder = Connect4Encoder()
>>> net = PolicyValueNet(encoder.shape, 7, NetworkConfig(kind="mlp", blocks=1, hidden=32), seed=0)
>>> labels = move_outcomes(parse_moves("445566"), Connect4Solver(table_log2=16))
>>> data = ExpertPositions(("445566",), labels[None, :])
>>> losses = fit_policy(net, encoder, data, epochs=40, batch_size=2, seed=0)
>>> losses[-1] < losses[0], policy_accuracy(net, encoder, data)
(True, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphago.data import ExpertPositions
from searchlab.learning.alphazero.trainer import scheduled_learning_rate
from searchlab.learning.networks.encoder import Encoder
from searchlab.learning.networks.network import PolicyValueNet, masked_log_softmax, masked_softmax

__all__ = [
    "fit_policy",
    "fit_policy_value",
    "fit_value",
    "policy_accuracy",
    "policy_probabilities",
    "value_correlation",
    "values",
]


def _forward(net: PolicyValueNet, encoder: Encoder, states: Sequence[Any]) -> tuple[Any, Any]:
    planes = torch.from_numpy(encoder.encode_batch(list(states)))
    training = net.training
    try:
        net.eval()
        with torch.inference_mode():
            return net(planes)
    finally:
        net.train(training)


def policy_probabilities(
    net: PolicyValueNet, encoder: Encoder, states: Sequence[Any]
) -> np.ndarray:
    """``float32 [B, num_actions]``: the policy head's probabilities over the legal actions of
    each state (one forward pass, evaluation mode)."""
    if not states:
        return np.zeros((0, encoder.num_actions), dtype=np.float32)
    logits, _ = _forward(net, encoder, states)
    mask = torch.from_numpy(np.stack([encoder.legal_mask(s) for s in states]))
    return np.asarray(masked_softmax(logits.float(), mask).numpy())


def values(net: PolicyValueNet, encoder: Encoder, states: Sequence[Any]) -> np.ndarray:
    """``float32 [B]``: the value head of each state, for its player to move."""
    if not states:
        return np.zeros(0, dtype=np.float32)
    _, value = _forward(net, encoder, states)
    return np.asarray(value.float().numpy())


def _augmented(encoder: Encoder, planes: np.ndarray, *rows: np.ndarray) -> list[np.ndarray]:
    """Every position under every symmetry of the encoder: planes, then each ``rows`` array
    (a policy or a mask ``[N, A]`` is carried along; a value ``[N]`` repeated)."""
    symmetries = encoder.symmetries()
    out_planes = np.concatenate([s.apply_planes(planes) for s in symmetries])
    result = [out_planes]
    for row in rows:
        if row.ndim == 2:
            result.append(np.concatenate([s.apply_policy(row) for s in symmetries]))
        else:
            result.append(np.concatenate([row] * len(symmetries)))
    return result


def _check_fit(epochs: int, batch_size: int, learning_rate: float) -> None:
    check_integer(epochs, "epochs", owner="fit", low=1)
    check_integer(batch_size, "batch_size", owner="fit", low=1)
    if not learning_rate > 0:
        raise InvalidParameterError(f"fit: learning_rate must be > 0, got {learning_rate!r}")


def _minibatches(count: int, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    order = rng.permutation(count)
    return [order[i : i + batch_size] for i in range(0, count, batch_size)]


def fit_policy(
    net: PolicyValueNet,
    encoder: Encoder,
    data: ExpertPositions,
    *,
    epochs: int = 10,
    batch_size: int = 64,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-4,
    seed: int = 0,
) -> list[float]:
    """Train ``net``'s policy head (in place) to the solver's optimal moves of ``data``; return
    the mean loss of each epoch. Adam; the minibatch order from ``seed``."""
    return fit_policy_value(
        net,
        encoder,
        data,
        value_weight=0.0,
        informative_only=False,
        epochs=epochs,
        batch_size=batch_size,
        learning_rate=learning_rate,
        weight_decay=weight_decay,
        seed=seed,
    )


EpochHook = Callable[[int, float, torch.optim.Optimizer], bool]
"""``hook(epochs_done, mean_loss, optimiser) -> stop``: called after each epoch."""


def fit_policy_value(
    net: PolicyValueNet,
    encoder: Encoder,
    data: ExpertPositions,
    *,
    value_weight: float = 1.0,
    informative_only: bool = True,
    epochs: int = 10,
    batch_size: int = 64,
    learning_rate: float = 1e-3,
    final_lr_fraction: float = 1.0,
    weight_decay: float = 1e-4,
    seed: int = 0,
    start_epoch: int = 0,
    optimiser_state: dict[str, Any] | None = None,
    on_epoch: EpochHook | None = None,
    extra_values: tuple[Sequence[Any], np.ndarray] | None = None,
) -> list[float]:
    """Train both heads of ``net`` (in place) on the solver's labels; return the mean loss of
    each epoch run.

    The loss is the policy's cross-entropy to the optimal moves (uniform among them) plus
    ``value_weight`` times the value head's squared error to the position's exact value
    (AlphaGo Zero's two-headed loss, with the solver as the teacher). With
    ``informative_only`` the policy term counts only positions where a mistake is possible
    (elsewhere every move is optimal and the target teaches nothing); the value term counts
    every position. The learning rate follows a cosine from ``learning_rate`` down to
    ``final_lr_fraction`` of it over the ``epochs``; epoch ``e``'s minibatch order is drawn
    from ``(seed, e)``, so a fit stopped after an epoch and resumed with ``start_epoch``, the
    weights and ``optimiser_state`` ends exactly where an unbroken one does. ``on_epoch``
    returning true stops after that epoch. ``extra_values`` (states, exact values for their
    player to move; e.g. :meth:`ExpertPositions.child_values`) join the value term only, as
    samples of their own.
    """
    _check_fit(epochs, batch_size, learning_rate)
    if len(data) == 0:
        raise InvalidParameterError("fit_policy: no positions to learn from")
    if not 0.0 <= value_weight < float("inf"):
        raise InvalidParameterError(f"fit: value_weight must be >= 0, got {value_weight!r}")
    if not 0.0 < final_lr_fraction <= 1.0:
        raise InvalidParameterError(
            f"fit: final_lr_fraction must be in (0, 1], got {final_lr_fraction!r}"
        )
    planes = encoder.encode_batch(data.states())
    weight = data.informative() if informative_only else np.ones(len(data), dtype=bool)
    columns = [data.targets(), data.legal_mask(), data.values(), weight.astype(np.float32)]
    if extra_values is not None and len(extra_values[0]):
        states, extra_z = extra_values
        if len(extra_z) != len(states) or not np.all(np.abs(extra_z) <= 1):
            raise InvalidParameterError(
                f"fit: extra_values needs a value in [-1, 1] for each of its {len(states)} states"
            )
        count, actions = len(states), encoder.num_actions
        planes = np.concatenate([planes, encoder.encode_batch(list(states))])
        extra = (np.zeros((count, actions), np.float32), np.ones((count, actions), bool))
        columns = [
            np.concatenate(pair)
            for pair in zip(
                columns,
                (*extra, np.asarray(extra_z, np.float32), np.zeros(count, np.float32)),
                strict=True,
            )
        ]
    x, target, mask, z, w = _augmented(encoder, planes, *columns)
    x_t, target_t, mask_t, z_t, w_t = (
        torch.from_numpy(np.ascontiguousarray(a)) for a in (x, target, mask, z, w)
    )

    def loss_of(index: torch.Tensor) -> torch.Tensor:
        logits, value = net(x_t[index])
        cross_entropy = -(target_t[index] * masked_log_softmax(logits, mask_t[index])).sum(1)
        weights = w_t[index]
        policy = (cross_entropy * weights).sum() / weights.sum().clamp(min=1.0)
        if value_weight == 0.0:
            return policy
        return policy + value_weight * torch.mean((z_t[index] - value) ** 2)

    return _fit(
        net,
        len(x),
        loss_of,
        epochs,
        batch_size,
        learning_rate,
        weight_decay,
        seed,
        final_lr_fraction=final_lr_fraction,
        start_epoch=start_epoch,
        optimiser_state=optimiser_state,
        on_epoch=on_epoch,
    )


def _fit(
    net: PolicyValueNet,
    count: int,
    loss_of: Callable[[torch.Tensor], torch.Tensor],
    epochs: int,
    batch_size: int,
    learning_rate: float,
    weight_decay: float,
    seed: int,
    *,
    final_lr_fraction: float = 1.0,
    start_epoch: int = 0,
    optimiser_state: dict[str, Any] | None = None,
    on_epoch: EpochHook | None = None,
) -> list[float]:
    """Adam on ``loss_of(minibatch indices)`` for epochs ``start_epoch..epochs-1`` over
    ``count`` samples, epoch ``e`` in an order drawn from ``(seed, e)``, the learning rate on a
    cosine from ``learning_rate`` to ``final_lr_fraction`` of it; the network is left in eval
    mode. The mean loss of each epoch run."""
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    if optimiser_state is not None:
        optimiser.load_state_dict(optimiser_state)
    losses = []
    net.train()
    try:
        for epoch in range(start_epoch, epochs):
            rate = scheduled_learning_rate(
                learning_rate, epoch / epochs, "cosine", final_lr_fraction
            )
            for group in optimiser.param_groups:
                group["lr"] = rate
            rng = np.random.default_rng([seed, epoch])
            total = 0.0
            for batch in _minibatches(count, batch_size, rng):
                loss = loss_of(torch.from_numpy(batch))
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                total += float(loss.detach()) * len(batch)
            losses.append(total / count)
            if on_epoch is not None:
                net.eval()
                stop = on_epoch(epoch + 1, losses[-1], optimiser)
                net.train()
                if stop:
                    break
    finally:
        net.eval()
    return losses


def fit_value(
    net: PolicyValueNet,
    encoder: Encoder,
    states: Sequence[Any],
    targets: np.ndarray,
    *,
    epochs: int = 10,
    batch_size: int = 64,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-4,
    seed: int = 0,
) -> list[float]:
    """Train ``net``'s value head (in place) to ``targets`` (``[N]`` in ``[-1, 1]``, for each
    state's player to move) by squared error; return the mean loss of each epoch."""
    _check_fit(epochs, batch_size, learning_rate)
    target_array = np.asarray(targets, dtype=np.float32)
    if len(states) == 0 or target_array.shape != (len(states),):
        raise InvalidParameterError(
            f"fit_value: {len(states)} states and targets of shape {list(target_array.shape)}"
        )
    planes = encoder.encode_batch(list(states))
    x, z = _augmented(encoder, planes, target_array)
    x_t, z_t = torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(z)

    def loss_of(index: torch.Tensor) -> torch.Tensor:
        _, value = net(x_t[index])
        return torch.mean((z_t[index] - value) ** 2)

    return _fit(net, len(x), loss_of, epochs, batch_size, learning_rate, weight_decay, seed)


def policy_accuracy(net: PolicyValueNet, encoder: Encoder, data: ExpertPositions) -> float:
    """The share of ``data``'s positions where the policy's most probable move is optimal."""
    probabilities = policy_probabilities(net, encoder, data.states())
    return data.accuracy(probabilities.argmax(axis=1))


def value_correlation(net: PolicyValueNet, encoder: Encoder, data: ExpertPositions) -> float:
    """Pearson's correlation between the value head and the solver's values of ``data``'s
    positions (0 when either is constant)."""
    predicted = values(net, encoder, data.states()).astype(np.float64)
    truth = data.values().astype(np.float64)
    if predicted.std() == 0 or truth.std() == 0:
        return 0.0
    return float(np.corrcoef(predicted, truth)[0, 1])
