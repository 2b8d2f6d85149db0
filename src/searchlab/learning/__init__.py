"""Learning: policy-value networks, the search that evaluates them, self-play and training.

A layer above the agents, beside the arena (it may import core, domains, algorithms and agents;
nothing below imports it). PyTorch is needed here and only here: install the extra
``searchlab[learn]``; ``import searchlab`` and the core never import torch.

What lives where, a package a concept, each importing only those above it in this list:

* :mod:`~searchlab.learning.networks`: encoders (a position as feature planes from the mover's
  point of view, the actions as a fixed-size index, the board's symmetries), ``PolicyValueNet``,
  checkpoints, ``NetworkEvaluator`` (the network behind the searches' evaluator interface);
* :mod:`~searchlab.learning.alphazero`: self-play, the replay window, training, evaluation and
  the resumable training loop;
* :mod:`~searchlab.learning.alphago`: the AlphaGo pipeline (expert data, SL / rollout / RL
  policies, value network, the lambda-mixing search) on Connect Four and Go;
* :mod:`~searchlab.learning.agents` (the ``az`` and ``policy`` agent kinds) and
  :mod:`~searchlab.learning.shipped` (the networks shipped as package data, ``checkpoints/``):
  they sit on top, next to each other.

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
    "BaseEncoder": "networks.encoder",
    "Encoder": "networks.encoder",
    "Symmetry": "networks.encoder",
    "board_symmetries": "networks.encoder",
    "encoder_for": "networks.encoders",
    "register_encoder": "networks.encoders",
    "NetworkConfig": "networks.network",
    "PolicyValueNet": "networks.network",
    "Checkpoint": "networks.checkpoint",
    "CheckpointError": "networks.checkpoint",
    "load_checkpoint": "networks.checkpoint",
    "save_checkpoint": "networks.checkpoint",
    "NetworkEvaluator": "networks.evaluator",
    "check_device": "networks.evaluator",
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
