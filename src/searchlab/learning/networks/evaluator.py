"""The network behind PUCT's evaluator interface, one position at a time or a batch at once.

:class:`NetworkEvaluator` wraps a :class:`~searchlab.learning.networks.network.PolicyValueNet` and
the :class:`~searchlab.learning.networks.encoder.Encoder` of its game:

* ``evaluate(state) -> (priors, value)``: the
  :class:`~searchlab.algorithms.mcts.evaluator.Evaluator` protocol, priors aligned with
  ``state.legal_actions()``; so ``mcts(game, evaluator=NetworkEvaluator(...))`` is PUCT with
  the network;
* ``evaluate_batch(states) -> (priors [B, num_actions], values [B])``: one forward pass for the
  whole batch, the priors masked to the legal actions and normalised (a finished game's row is
  all zeros), for searches that gather many leaves before they ask.

The value is for the player to move in each state (the planes are theirs). Evaluation runs
under ``torch.inference_mode()`` on the network's
:meth:`~searchlab.learning.networks.network.PolicyValueNet.inference_copy`: evaluation mode (batch
normalisation uses its running statistics, so a position gets the same answer alone or in a
batch, up to float rounding), batch normalisation folded into the convolutions, channels-last
tensors. With ``symmetries=True`` each position is evaluated in all its board symmetries
(Connect Four: itself and its mirror image; Othello, Gomoku, Go: the 8 of the square) in the
same forward pass, and the priors (carried back to the position) and values are averaged: the
ensemble the AlphaGo papers evaluate with, which costs one forward pass of a batch as many
times larger. The network itself is left as it is (a trainer may share it with the evaluator, in
training mode), and the evaluator sees its current weights: the copy is made again whenever a
parameter or a buffer of the network has changed in place since (each tensor's version counter
and storage are compared before every batch; see :meth:`NetworkEvaluator.inference_net`).

>>> from searchlab.core.limits import Limits
>>> from searchlab.algorithms.mcts import mcts
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.learning.networks.network import PolicyValueNet
>>> encoder = encoder_for(TicTacToe())
>>> evaluator = NetworkEvaluator(PolicyValueNet(encoder.shape, encoder.num_actions, seed=0),
...                              encoder)
>>> priors, values = evaluator.evaluate_batch([TicTacToe().initial_state()] * 2)
>>> priors.shape, values.shape, round(float(priors[0].sum()), 6)
((2, 9), (2,), 1.0)
>>> result = mcts(TicTacToe(), limits=Limits(simulations=50), evaluator=evaluator, seed=1)
>>> result.algorithm, sum(child["visits"] for child in result.stats["children"])
('puct', 50)
>>> check_device("cuda:7")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: device 'cuda:7': ...
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from searchlab.core.errors import InvalidParameterError
from searchlab.learning.networks.encoder import BaseEncoder, Encoder
from searchlab.learning.networks.network import PolicyValueNet, masked_softmax

__all__ = ["NetworkEvaluator", "check_device"]


def check_device(name: str | torch.device) -> torch.device:
    """The torch device ``name`` (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"mps"``) when this
    machine has it; else one ``InvalidParameterError`` line saying what is missing.

    >>> check_device("cpu")
    device(type='cpu')
    >>> check_device("tpu")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: unknown device 'tpu'; expected cpu, cuda, \
cuda:N or mps
    """
    try:
        device = torch.device(name)
    except (RuntimeError, TypeError):
        raise InvalidParameterError(
            f"unknown device {name!r}; expected cpu, cuda, cuda:N or mps"
        ) from None
    if device.type == "cpu":
        return device
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise InvalidParameterError(
                f"device {name!r}: this machine has no CUDA GPU that PyTorch "
                f"{torch.__version__} can use (use --device cpu, or install a CUDA build of "
                "PyTorch on a machine with a GPU)"
            )
        count = torch.cuda.device_count()
        if device.index is not None and device.index >= count:
            raise InvalidParameterError(
                f"device {name!r}: there {'is' if count == 1 else 'are'} only {count} CUDA "
                f"GPU{'' if count == 1 else 's'} (cuda:0..cuda:{count - 1})"
            )
        return device
    if device.type == "mps":
        if not torch.backends.mps.is_available():
            raise InvalidParameterError(f"device {name!r}: this machine has no Apple GPU (mps)")
        return device
    raise InvalidParameterError(f"unknown device {name!r}; expected cpu, cuda, cuda:N or mps")


class NetworkEvaluator:
    """Priors and values of ``net`` for the states of ``encoder``'s game, on ``device``.

    The network is moved to ``device`` (the caller's network itself, not a copy). Raises
    ``InvalidParameterError`` when the network does not read the encoder's planes or write its
    number of actions, or for a device this machine lacks.
    """

    def __init__(
        self,
        net: PolicyValueNet,
        encoder: Encoder,
        device: str = "cpu",
        *,
        symmetries: bool = False,
    ) -> None:
        if tuple(net.shape) != tuple(encoder.shape) or net.num_actions != encoder.num_actions:
            raise InvalidParameterError(
                f"NetworkEvaluator: the network reads planes {tuple(net.shape)} with "
                f"{net.num_actions} actions, the {encoder.game_name} encoder gives "
                f"{tuple(encoder.shape)} and {encoder.num_actions}"
            )
        self.device = check_device(device)
        with torch.inference_mode(False):  # made under inference mode, a moved copy's tensors
            self.net = net.to(self.device)  # would be inference tensors: no version counter
        self.encoder = encoder
        self.symmetries = tuple(encoder.symmetries()) if symmetries else ()
        """The board symmetries averaged over (empty: the position alone)."""
        self._inference: PolicyValueNet | None = None
        self._made_from: tuple[Any, ...] = ()
        self._tensors: list[torch.Tensor] = []
        self._tensors_of: PolicyValueNet | None = None
        self.positions = 0
        """Positions evaluated so far (for throughput figures)."""
        self.batches = 0
        """Forward passes so far."""

    def evaluate_batch(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """``(priors float32 [B, num_actions], values float32 [B])`` in one forward pass:
        priors 0 on illegal indices and summing to 1 over the legal ones (all 0 for a finished
        game), values in ``[-1, 1]`` for each state's player to move."""
        count = len(states)
        if count == 0:
            return (
                np.zeros((0, self.encoder.num_actions), dtype=np.float32),
                np.zeros(0, dtype=np.float32),
            )
        return self.evaluate_encoded(self.encoder.encode_batch(states), states)

    def evaluate_encoded(
        self, planes: np.ndarray, states: Sequence[Any]
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`evaluate_batch` of ``states`` whose planes (``encoder.encode_batch(states)``)
        the caller has made already (an
        :class:`~searchlab.learning.networks.evaluation_cache.EvaluationCache` made them for its
        keys)."""
        count = len(states)
        mask = torch.from_numpy(self._legal_masks(states))
        net = self.inference_net()
        with torch.inference_mode():
            if len(self.symmetries) > 1:
                priors, values = self._average(net, planes, mask)
            else:
                logits, values = self._forward(net, planes)
                priors = masked_softmax(logits.float(), mask.to(self.device))
            priors_out = priors.cpu().numpy()
            values_out = values.float().cpu().numpy()
        self.positions += count
        self.batches += 1
        return priors_out, values_out

    def _forward(
        self, net: PolicyValueNet, planes: np.ndarray
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``net``'s logits and values for ``planes`` on :attr:`device`, in the layout of the
        inference copy (channels-last for a residual network)."""
        tensor = torch.from_numpy(planes).to(self.device)
        if net.config.kind == "resnet":
            tensor = tensor.contiguous(memory_format=torch.channels_last)
        return net(tensor)

    def _average(
        self, net: PolicyValueNet, planes: np.ndarray, mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The priors and values of ``planes``' positions averaged over :attr:`symmetries`:
        every image in one forward pass, each image's logits carried back to the position's
        action indices before the masked softmax."""
        count = len(planes)
        images = np.concatenate([symmetry.apply_planes(planes) for symmetry in self.symmetries])
        logits, values = self._forward(net, images)
        logits = logits.float()
        back = torch.cat(
            [
                logits[k * count : (k + 1) * count, torch.from_numpy(symmetry.action_image)]
                for k, symmetry in enumerate(self.symmetries)
            ]
        )
        priors = masked_softmax(back, mask.to(self.device).repeat(len(self.symmetries), 1))
        size = len(self.symmetries)
        return (
            priors.reshape(size, count, -1).mean(dim=0),
            values.float().reshape(size, count).mean(dim=0),
        )

    def _legal_masks(self, states: Sequence[Any]) -> np.ndarray:
        """``bool [B, num_actions]``: each state's ``legal_mask``, made in one assignment when
        the encoder keeps BaseEncoder's (the index of an action is the action)."""
        encoder = self.encoder
        kind = type(encoder)
        if not (
            getattr(kind, "legal_mask", None) is BaseEncoder.legal_mask
            and getattr(kind, "action_to_index", None) is BaseEncoder.action_to_index
        ):
            return np.stack([encoder.legal_mask(state) for state in states])
        rows: list[int] = []
        columns: list[int] = []
        for row, state in enumerate(states):
            actions = state.legal_actions()
            rows += [row] * len(actions)
            columns += actions
        if columns and (min(columns) < 0 or max(columns) >= encoder.num_actions):
            return np.stack([encoder.legal_mask(state) for state in states])  # its error
        mask = np.zeros((len(states), encoder.num_actions), dtype=bool)
        mask[rows, columns] = True
        return mask

    def inference_net(self) -> PolicyValueNet:
        """The network's :meth:`~searchlab.learning.networks.network.PolicyValueNet.inference_copy`
        that evaluates, made again when a parameter or buffer of ``net`` changed in place since
        (an optimiser's step, a training-mode forward's batch statistics, ``load_state_dict``,
        a move to another device: each tensor's version counter and storage are compared),
        or when ``net`` is another network. A parameter replaced by assignment
        (``layer.weight = Parameter(...)``) is not seen: make a new evaluator then."""
        net = self.net
        if self._tensors_of is not net:  # another network: its tensors, listed once
            self._tensors = list(itertools.chain(net.parameters(), net.buffers()))
            self._tensors_of = net
        key = tuple((tensor.data_ptr(), tensor._version) for tensor in self._tensors)
        if self._inference is None or key != self._made_from:
            self._inference = self.net.inference_copy()
            self._made_from = key
        return self._inference

    def evaluate(self, state: Any) -> tuple[list[float], float]:
        """``(priors aligned with state.legal_actions(), value)``: the
        :class:`~searchlab.algorithms.mcts.evaluator.Evaluator` protocol (a batch of one)."""
        priors, values = self.evaluate_batch([state])
        row = priors[0]
        encoder = self.encoder
        legal = [float(row[encoder.action_to_index(state, a)]) for a in state.legal_actions()]
        return legal, float(values[0])

    def __repr__(self) -> str:
        average = f", symmetries={len(self.symmetries)}" if self.symmetries else ""
        return (
            f"NetworkEvaluator({self.net.config.describe()}, {self.encoder.game_name}, "
            f"device={str(self.device)!r}{average})"
        )
