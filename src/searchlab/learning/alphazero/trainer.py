"""The trainer: minibatch gradient steps on AlphaZero's loss, seeded.

Each step draws a minibatch from the :class:`~searchlab.learning.alphazero.replay.ReplayWindow`
(symmetry augmentation included) and lowers ``(z - v)^2 - pi . log p + c ||theta||^2``
(:func:`~searchlab.learning.networks.network.policy_value_loss`; the L2 term is the optimiser's
``weight_decay``), with Adam (default) or SGD with momentum (AlphaZero's). Each
:meth:`Trainer.train` call can set the step size (:func:`scheduled_learning_rate`: constant,
or a cosine decay over the run's budget, Loshchilov & Hutter 2017). The minibatches come from
a generator seeded by ``(seed, generation)``, and the optimiser's state travels in the
checkpoint (:meth:`Trainer.state_dict`), so a run resumed from a checkpoint takes the very
steps the uninterrupted run would have taken (on a CPU).

>>> import numpy as np, torch
>>> from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet
>>> from searchlab.learning.alphazero.replay import ReplayWindow, SampleBlock
>>> net = PolicyValueNet((1, 1, 2), 2, NetworkConfig(kind="mlp", blocks=1, hidden=8), seed=0)
>>> block = SampleBlock(0, 1, 0, planes=np.ones((4, 1, 1, 2), np.float32),
...     policies=np.tile(np.float32([1, 0]), (4, 1)), masks=np.ones((4, 2), bool),
...     values=np.ones(4, np.float32), games=np.zeros(4, np.int64))
>>> window = ReplayWindow(capacity_games=1); window.add(block)
>>> trainer = Trainer(net, learning_rate=0.05, batch_size=4)
>>> first = trainer.train(window, steps=1, seed=0, generation=0)
>>> later = trainer.train(window, steps=30, seed=0, generation=1)
>>> later.total < first.total
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from searchlab.core.checks import check_integer
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphazero.replay import ReplayWindow
from searchlab.learning.networks.encoder import Symmetry
from searchlab.learning.networks.network import PolicyValueNet, policy_value_loss

__all__ = ["LR_SCHEDULES", "OPTIMIZERS", "Losses", "Trainer", "scheduled_learning_rate"]

OPTIMIZERS = ("adam", "sgd")
"""The optimisers :class:`Trainer` knows."""

LR_SCHEDULES = ("constant", "cosine")
"""The learning-rate schedules :func:`scheduled_learning_rate` knows."""


def scheduled_learning_rate(
    base: float, progress: float, schedule: str = "constant", final_fraction: float = 0.05
) -> float:
    """The step size at ``progress`` (the fraction of the run's budget spent, in ``[0, 1]``;
    clipped): ``base`` throughout for ``"constant"``; for ``"cosine"``, from ``base`` at 0 down
    to ``final_fraction * base`` at 1 along half a cosine (SGDR without restarts).

    >>> scheduled_learning_rate(0.01, 0.5)
    0.01
    >>> [round(scheduled_learning_rate(0.01, p, "cosine", 0.1), 5) for p in (0, 0.5, 1, 2)]
    [0.01, 0.0055, 0.001, 0.001]
    >>> scheduled_learning_rate(0.01, 0.5, "linear")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: trainer: lr_schedule must be one of constant, cosine, got 'linear'
    """  # noqa: E501
    if schedule not in LR_SCHEDULES:
        raise InvalidParameterError(
            f"trainer: lr_schedule must be one of {', '.join(LR_SCHEDULES)}, got {schedule!r}"
        )
    if not (math.isfinite(progress) and math.isfinite(final_fraction)) or not (
        0.0 < final_fraction <= 1.0
    ):
        raise InvalidParameterError(
            f"trainer: progress must be finite and final_fraction in (0, 1], got {progress!r}, "
            f"{final_fraction!r}"
        )
    if schedule == "constant":
        return base
    done = min(max(progress, 0.0), 1.0)
    return base * (final_fraction + (1.0 - final_fraction) * 0.5 * (1.0 + math.cos(math.pi * done)))


@dataclass(frozen=True, slots=True)
class Losses:
    """Mean losses of the steps of one :meth:`Trainer.train` call (the last quarter of them,
    so the figure says where training ended rather than where it began)."""

    total: float
    policy: float
    value: float
    steps: int


class Trainer:
    """Gradient steps on ``net`` (in place).

    Args:
        net: the network, trained in place.
        learning_rate: the step size (> 0).
        weight_decay: the L2 coefficient (>= 0).
        batch_size: samples per step (>= 1).
        optimizer: ``"adam"`` or ``"sgd"`` (momentum 0.9).
        value_weight: the weight of the value term (>= 0).
        device: where the steps run (the network is moved there).
    """

    def __init__(
        self,
        net: PolicyValueNet,
        *,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-4,
        batch_size: int = 64,
        optimizer: str = "adam",
        value_weight: float = 1.0,
        device: str | torch.device = "cpu",
    ) -> None:
        for name, value, low in (
            ("learning_rate", learning_rate, 0.0),
            ("weight_decay", weight_decay, 0.0),
            ("value_weight", value_weight, 0.0),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < low
                or (name == "learning_rate" and value == 0)
            ):
                raise InvalidParameterError(
                    f"trainer: {name} must be a finite number >= 0 (learning_rate: > 0), "
                    f"got {value!r}"
                )
        check_integer(batch_size, "batch_size", owner="trainer", low=1)
        if optimizer not in OPTIMIZERS:
            raise InvalidParameterError(
                f"trainer: optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}"
            )
        self.net = net
        self.device = torch.device(device)
        self.net.to(self.device)
        self.batch_size = batch_size
        self.value_weight = float(value_weight)
        params = list(net.parameters())
        self.optimizer: torch.optim.Optimizer
        if optimizer == "adam":
            self.optimizer = torch.optim.Adam(params, lr=learning_rate, weight_decay=weight_decay)
        else:
            self.optimizer = torch.optim.SGD(
                params, lr=learning_rate, momentum=0.9, weight_decay=weight_decay
            )

    def train(
        self,
        window: ReplayWindow,
        *,
        steps: int,
        seed: int,
        generation: int,
        symmetries: Sequence[Symmetry] | None = None,
        learning_rate: float | None = None,
    ) -> Losses:
        """``steps`` gradient steps on minibatches of ``window`` drawn by a generator seeded
        by ``(seed, generation)``, at step size ``learning_rate`` (``None``: the one set last);
        returns the mean losses of the last quarter of the steps. The network is left in
        evaluation mode."""
        if learning_rate is not None:
            if (
                isinstance(learning_rate, bool)
                or not isinstance(learning_rate, int | float)
                or not math.isfinite(learning_rate)
                or learning_rate <= 0
            ):
                raise InvalidParameterError(
                    f"trainer: learning_rate must be a finite number > 0, got {learning_rate!r}"
                )
            for group in self.optimizer.param_groups:
                group["lr"] = float(learning_rate)
        rng = np.random.default_rng(np.random.SeedSequence([seed, generation, 7]))
        net = self.net
        net.train()
        tail = max(1, steps // 4)
        sums = np.zeros(3)
        try:
            for step in range(steps):
                batch = window.minibatch(self.batch_size, rng, symmetries)
                planes = torch.from_numpy(batch.planes).to(self.device)
                target_policy = torch.from_numpy(batch.policies).to(self.device)
                mask = torch.from_numpy(batch.masks).to(self.device)
                target_value = torch.from_numpy(batch.values).to(self.device)
                logits, value = net(planes)
                terms = policy_value_loss(
                    logits,
                    value,
                    mask,
                    target_policy,
                    target_value,
                    value_weight=self.value_weight,
                )
                self.optimizer.zero_grad(set_to_none=True)
                terms.total.backward()
                self.optimizer.step()
                if step >= steps - tail:
                    sums += [
                        float(terms.total.detach()),
                        float(terms.policy.detach()),
                        float(terms.value.detach()),
                    ]
        finally:
            net.eval()
        count = min(tail, steps) or 1
        return Losses(float(sums[0] / count), float(sums[1] / count), float(sums[2] / count), steps)

    @property
    def learning_rate(self) -> float:
        """The step size of the next step."""
        return float(self.optimizer.param_groups[0]["lr"])

    def state_dict(self) -> dict[str, Any]:
        """The optimiser's state (for a checkpoint's ``extra``)."""
        return dict(self.optimizer.state_dict())

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore the optimiser's state saved by :meth:`state_dict`."""
        self.optimizer.load_state_dict(state)
