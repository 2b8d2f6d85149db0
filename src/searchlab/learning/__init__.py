"""Learning: policy-value networks, the search that evaluates them, self-play and training.

A layer above the agents, beside the arena (it may import core, domains, algorithms and agents;
nothing below imports it). PyTorch is needed here and only here: install the extra
``searchlab[learn]``; ``import searchlab`` and the core never import torch.

What lives where:

* :mod:`~searchlab.learning.encoder`: the :class:`Encoder` protocol (a position as feature
  planes from the mover's point of view, the actions as a fixed-size index, the board's
  symmetries) and :class:`BaseEncoder` for a game of your own (numpy only, no torch);
* :mod:`~searchlab.learning.encoders`: the built-in games' encoders and ``encoder_for(game)``;
* :mod:`~searchlab.learning.network`: ``NetworkConfig`` and ``PolicyValueNet`` (residual tower
  or a small MLP; masked policy logits, tanh value), masked softmax and the AlphaZero loss;
* :mod:`~searchlab.learning.checkpoint`: atomic checkpoints that record game, encoder and
  architecture, and refuse to load for anything else;
* :mod:`~searchlab.learning.evaluator`: ``NetworkEvaluator``, the network behind PUCT's
  evaluator interface (``evaluate`` and the batched ``evaluate_batch``), and ``check_device``.

The names below load their module on first use: ``import searchlab.learning`` itself imports
neither torch nor any game.

>>> from searchlab.learning import encoder_for
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> encoder_for(TicTacToe()).shape
(3, 3, 3)
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "BaseEncoder",
    "Checkpoint",
    "CheckpointError",
    "Encoder",
    "NetworkConfig",
    "NetworkEvaluator",
    "PolicyValueNet",
    "Symmetry",
    "board_symmetries",
    "check_device",
    "encoder_for",
    "load_checkpoint",
    "register_encoder",
    "save_checkpoint",
]

_HOMES = {
    "BaseEncoder": "encoder",
    "Encoder": "encoder",
    "Symmetry": "encoder",
    "board_symmetries": "encoder",
    "encoder_for": "encoders",
    "register_encoder": "encoders",
    "NetworkConfig": "network",
    "PolicyValueNet": "network",
    "Checkpoint": "checkpoint",
    "CheckpointError": "checkpoint",
    "load_checkpoint": "checkpoint",
    "save_checkpoint": "checkpoint",
    "NetworkEvaluator": "evaluator",
    "check_device": "evaluator",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'searchlab.learning' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"searchlab.learning.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
