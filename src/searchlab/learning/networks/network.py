"""Policy-value networks: a residual tower (AlphaZero's) or a small MLP for tiny games.

:class:`PolicyValueNet` reads a batch of planes ``[B, C, H, W]`` (an
:class:`~searchlab.learning.networks.encoder.Encoder`'s) and returns **policy logits** ``[B, A]``,
one per action index, and a **value** ``[B]`` in ``(-1, 1)`` (tanh) for the player to move. Illegal
actions are masked out of the logits (:func:`masked_log_softmax`, :func:`masked_softmax`)
before any probability is taken, so they get exactly 0.

Architecture (Silver et al. 2017, *Mastering the game of Go without human knowledge*, scaled
down): a 3x3 convolution of ``channels`` filters, then ``blocks`` residual blocks (two 3x3
convolutions with batch normalisation, and the skip connection); the policy head is a 1x1
convolution to 2 planes and a linear layer to the ``A`` logits; the value head a 1x1
convolution to 1 plane, a linear layer of ``hidden`` units and a linear layer to one tanh
output. ``kind="mlp"``: ``blocks`` fully connected layers of ``hidden`` units on the flattened
planes, and the two heads as linear layers.

The loss of AlphaZero is :func:`policy_value_loss` (cross-entropy to the search's policy plus
the squared error of the value); its L2 term is the optimiser's ``weight_decay``.

>>> import torch
>>> config = NetworkConfig(kind="resnet", blocks=2, channels=16)
>>> net = PolicyValueNet((3, 3, 3), 9, config, seed=0)
>>> with torch.inference_mode():
...     logits, value = net(torch.zeros(5, 3, 3, 3))
>>> tuple(logits.shape), tuple(value.shape), bool((value.abs() < 1).all())
((5, 9), (5,), True)
>>> mask = torch.tensor([[True] * 4 + [False] * 5] * 5)
>>> probabilities = masked_softmax(logits, mask)
>>> bool((probabilities[:, 4:] == 0).all()), round(float(probabilities[0].sum()), 5)
(True, 1.0)
>>> NetworkConfig(kind="resnet", blocks=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: network: blocks must be an integer in 1..64, got 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import torch
from torch import nn

from searchlab.core.checks import check_integer, check_keys
from searchlab.core.errors import InvalidParameterError

__all__ = [
    "KINDS",
    "LossTerms",
    "NetworkConfig",
    "PolicyValueNet",
    "masked_log_softmax",
    "masked_softmax",
    "network_keys",
    "policy_value_loss",
]

KINDS = ("resnet", "mlp")
"""The architectures :class:`NetworkConfig` knows."""

FLAT_NETWORK_KEYS = {"network_kind": "kind", "blocks": "blocks", "channels": "channels",
                     "hidden": "hidden"}  # fmt: skip
"""A training config's flat keys for the network, and the :class:`NetworkConfig` field each
sets."""


def network_keys(data: Mapping[str, Any], default: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its flat network keys (:data:`FLAT_NETWORK_KEYS`) gathered into its
    ``network`` table (``default`` where it has none); the flat keys replace the table's.

    >>> network_keys({"blocks": 2, "seed": 1}, {"kind": "resnet", "blocks": 6})
    {'seed': 1, 'network': {'kind': 'resnet', 'blocks': 2}}
    """
    data = dict(data)
    if any(key in data for key in FLAT_NETWORK_KEYS):
        network = dict(data.get("network", default))
        for key, name in FLAT_NETWORK_KEYS.items():
            if key in data:
                network[name] = data.pop(key)
        data["network"] = network
    return data


_RANGES = {"blocks": (1, 64), "channels": (1, 1024), "hidden": (1, 8192)}


@dataclass(frozen=True, slots=True)
class NetworkConfig:
    """The architecture of a :class:`PolicyValueNet`, checked when made.

    Attributes:
        kind: ``"resnet"`` (residual tower) or ``"mlp"`` (fully connected, for tiny games).
        blocks: residual blocks (resnet) or hidden layers (mlp), 1..64.
        channels: filters of every convolution of the tower (resnet), 1..1024.
        hidden: units of the value head's hidden layer (resnet) or of every hidden layer (mlp),
            1..8192.

    Each impossible value is one ``InvalidParameterError`` naming the field and its range;
    :meth:`from_dict` also names unknown keys.

    >>> NetworkConfig.from_dict({"kind": "mlp", "hidden": 64})
    NetworkConfig(kind='mlp', blocks=4, channels=32, hidden=64)
    >>> NetworkConfig.from_dict({"kind": "mlp", "layers": 2})
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: network: unknown key layers; known: kind, \
blocks, channels, hidden
    """

    kind: str = "resnet"
    blocks: int = 4
    channels: int = 32
    hidden: int = 64

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidParameterError(
                f"network: kind must be one of {', '.join(KINDS)}, got {self.kind!r}"
            )
        for name, (low, high) in _RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidParameterError(
                    f"network: {name} must be an integer in {low}..{high}, got {value!r}"
                )

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (what a checkpoint stores)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NetworkConfig:
        """A config from a plain dict (a checkpoint's, a config file's); missing keys take
        their defaults."""
        if not isinstance(data, Mapping):
            raise InvalidParameterError(f"network: expected a table of settings, got {data!r}")
        check_keys(data, (field.name for field in dataclasses.fields(cls)), owner="network")
        return cls(**data)

    @classmethod
    def default_for(cls, shape: tuple[int, int, int]) -> NetworkConfig:
        """The small default for planes of ``shape``, sized for a 2-core CPU: an MLP for
        boards of at most 16 cells (tic-tac-toe), else 4 residual blocks of 32 channels.

        >>> NetworkConfig.default_for((3, 3, 3)).kind, NetworkConfig.default_for((4, 6, 7))
        ('mlp', NetworkConfig(kind='resnet', blocks=4, channels=32, hidden=64))
        """
        if shape[1] * shape[2] <= 16:
            return cls(kind="mlp", blocks=2, channels=32, hidden=64)
        return cls(kind="resnet", blocks=4, channels=32, hidden=64)

    def describe(self) -> str:
        """``"resnet 4x32"`` or ``"mlp 2x64"``."""
        width = self.channels if self.kind == "resnet" else self.hidden
        return f"{self.kind} {self.blocks}x{width}"


class _ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(x + y)


class _FoldedBlock(nn.Module):
    """A residual block for evaluation only: its batch normalisations folded into its
    convolutions, the activations in place."""

    def __init__(self, block: nn.Module) -> None:
        super().__init__()
        from torch.nn.utils.fusion import fuse_conv_bn_eval

        assert isinstance(block, _ResidualBlock)
        self.conv1 = fuse_conv_bn_eval(block.conv1, block.bn1)
        self.conv2 = fuse_conv_bn_eval(block.conv2, block.bn2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv2(torch.relu_(self.conv1(x)))
        return torch.relu_(y.add_(x))


class PolicyValueNet(nn.Module):
    """A policy-value network for planes of ``shape`` ``(C, H, W)`` and ``num_actions``
    policy outputs, with the architecture ``config``.

    ``forward(x)`` takes ``float32 [B, C, H, W]`` and returns ``(logits [B, A], value [B])``.
    ``seed`` makes the initial weights reproducible without touching torch's global random
    state. Raises ``InvalidParameterError`` for a bad shape, and in ``forward`` for planes of
    another shape.
    """

    def __init__(
        self,
        shape: tuple[int, int, int],
        num_actions: int,
        config: NetworkConfig | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if (
            not isinstance(shape, tuple | list)
            or len(shape) != 3
            or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape)
        ):
            raise InvalidParameterError(
                f"network: shape must be (C, H, W), three positive integers, got {shape!r}"
            )
        check_integer(num_actions, "num_actions", owner="network", low=1)
        self.shape: tuple[int, int, int] = (int(shape[0]), int(shape[1]), int(shape[2]))
        self.num_actions = num_actions
        self.config = config if config is not None else NetworkConfig.default_for(self.shape)
        if not isinstance(self.config, NetworkConfig):
            raise InvalidParameterError(f"network: config must be a NetworkConfig, got {config!r}")
        if seed is None:
            self._build()
        else:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(seed)
                self._build()

    def _build(self) -> None:
        planes, height, width = self.shape
        cells = height * width
        config = self.config
        if config.kind == "resnet":
            channels = config.channels
            self.stem = nn.Sequential(
                nn.Conv2d(planes, channels, 3, padding=1, bias=False),
                nn.BatchNorm2d(channels),
                nn.ReLU(),
            )
            self.tower = nn.Sequential(*(_ResidualBlock(channels) for _ in range(config.blocks)))
            self.policy_head = nn.Sequential(
                nn.Conv2d(channels, 2, 1, bias=False),
                nn.BatchNorm2d(2),
                nn.ReLU(),
                nn.Flatten(),
                nn.Linear(2 * cells, self.num_actions),
            )
            self.value_head = nn.Sequential(
                nn.Conv2d(channels, 1, 1, bias=False),
                nn.BatchNorm2d(1),
                nn.ReLU(),
                nn.Flatten(),
                nn.Linear(cells, config.hidden),
                nn.ReLU(),
                nn.Linear(config.hidden, 1),
            )
        else:
            layers: list[nn.Module] = [nn.Flatten()]
            width_in = planes * cells
            for _ in range(config.blocks):
                layers += [nn.Linear(width_in, config.hidden), nn.ReLU()]
                width_in = config.hidden
            self.stem = nn.Sequential(*layers)
            self.tower = nn.Sequential()
            self.policy_head = nn.Sequential(nn.Linear(width_in, self.num_actions))
            self.value_head = nn.Sequential(nn.Linear(width_in, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits [B, num_actions], value [B])`` of planes ``x`` ``[B, C, H, W]``."""
        if x.dim() != 4 or tuple(x.shape[1:]) != self.shape:
            raise InvalidParameterError(
                f"network: expected planes [B, {', '.join(map(str, self.shape))}], "
                f"got {list(x.shape)}"
            )
        body = self.tower(self.stem(x))
        value = torch.tanh(self.value_head(body)).squeeze(-1)
        return self.policy_head(body), value

    def inference_copy(self) -> PolicyValueNet:
        """A copy of this network for evaluation only, faster on the same inputs.

        The copy is in evaluation mode without gradients; every batch normalisation is folded
        into the convolution before it (evaluation-mode batch normalisation is an affine map
        per channel, so it becomes the convolution's weights and bias), and a residual tower
        keeps its tensors channels-last (the layout the CPU convolutions run fastest in). Its
        outputs are this network's in evaluation mode up to float rounding (an MLP's are the
        same bits). Later changes to this network's weights do not reach the copy: make a new
        one (:class:`~searchlab.learning.networks.evaluator.NetworkEvaluator` does when they
        change).

        >>> net = PolicyValueNet((4, 6, 7), 7, NetworkConfig(blocks=1, channels=8), seed=0)
        >>> x = torch.rand(3, 4, 6, 7)
        >>> with torch.inference_mode():
        ...     close = [torch.allclose(a, b, atol=1e-5)
        ...              for a, b in zip(net.eval()(x), net.inference_copy()(x))]
        >>> close
        [True, True]
        """
        from torch.nn.utils.fusion import fuse_conv_bn_eval

        training = self.training
        self.eval()
        try:
            copy = deepcopy(self).eval()
        finally:
            self.train(training)
        copy.requires_grad_(False)
        if self.config.kind != "resnet":
            return copy

        def fold(sequence: nn.Sequential) -> nn.Sequential:
            conv, norm, *rest = sequence
            assert isinstance(conv, nn.Conv2d) and isinstance(norm, nn.BatchNorm2d)
            relus = (nn.ReLU(inplace=True) if isinstance(layer, nn.ReLU) else layer
                     for layer in rest)  # fmt: skip
            return nn.Sequential(fuse_conv_bn_eval(conv, norm), *relus)

        copy.stem = fold(copy.stem)
        copy.tower = nn.Sequential(*(_FoldedBlock(block) for block in copy.tower))
        copy.policy_head = fold(copy.policy_head)
        copy.value_head = fold(copy.value_head)
        copy.requires_grad_(False)
        # Module.to takes memory_format (torch's stubs omit it)
        channels_last = copy.to(memory_format=torch.channels_last)  # type: ignore[call-overload]
        return cast(PolicyValueNet, channels_last).eval()

    def cpu_weights(self) -> dict[str, torch.Tensor]:
        """The ``state_dict`` as detached CPU tensors: what a checkpoint saves and a worker
        process receives, wherever the network itself lives."""
        return {key: value.detach().cpu() for key, value in self.state_dict().items()}

    def num_parameters(self) -> int:
        """Trainable parameters."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def describe(self) -> str:
        """``"resnet 4x32, 81,000 parameters, planes 4x6x7, 7 actions"``."""
        planes = "x".join(map(str, self.shape))
        return (
            f"{self.config.describe()}, {self.num_parameters():,} parameters, planes {planes}, "
            f"{self.num_actions} actions"
        )


def _masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    if mask.shape != logits.shape:
        raise InvalidParameterError(
            f"mask of shape {list(mask.shape)} for logits of shape {list(logits.shape)}"
        )
    # the lowest finite float rather than -inf: a target of 0 times it stays 0, never NaN
    return logits.masked_fill(~mask.bool(), torch.finfo(logits.dtype).min)


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the legal actions (``mask`` true) of each row; the illegal ones
    get a huge negative number (finite: ``0 * it`` is ``0`` in a cross-entropy)."""
    return torch.log_softmax(_masked(logits, mask), dim=-1)


def masked_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Probabilities over the legal actions of each row: exactly 0 on the illegal ones, the
    legal ones summing to 1; a row with no legal action (a finished game) is all zeros."""
    mask = mask.bool()
    probabilities = torch.softmax(_masked(logits, mask), dim=-1) * mask
    return probabilities / probabilities.sum(dim=-1, keepdim=True).clamp_min(1e-30)


class LossTerms(NamedTuple):
    """The loss of one batch and its parts (means over the batch)."""

    total: torch.Tensor
    policy: torch.Tensor
    value: torch.Tensor


def policy_value_loss(
    logits: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor,
    target_policy: torch.Tensor,
    target_value: torch.Tensor,
    *,
    value_weight: float = 1.0,
) -> LossTerms:
    """AlphaZero's loss ``(z - v)^2 - pi . log p`` averaged over the batch: the policy term is
    the cross-entropy from the target policy ``pi`` (zero on illegal actions) to the masked
    network policy, the value term the squared error to the target ``z`` (the outcome for the
    player to move). The L2 term is the optimiser's ``weight_decay``.

    >>> logits = torch.tensor([[0.0, 0.0, 5.0]])
    >>> terms = policy_value_loss(
    ...     logits, torch.tensor([0.5]), torch.tensor([[True, True, False]]),
    ...     torch.tensor([[1.0, 0.0, 0.0]]), torch.tensor([1.0]))
    >>> round(float(terms.policy), 4), float(terms.value)  # log 2: two legal, equal logits
    (0.6931, 0.25)
    """
    policy = -(target_policy * masked_log_softmax(logits, mask)).sum(dim=-1).mean()
    value_term = torch.mean((target_value - value) ** 2)
    return LossTerms(policy + value_weight * value_term, policy, value_term)
