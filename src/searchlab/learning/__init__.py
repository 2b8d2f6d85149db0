"""Learning: policy-value networks, the search that evaluates them, self-play and training.

A layer above the agents, beside the arena (it may import core, domains, algorithms and agents;
nothing below imports it). PyTorch is needed here and only here: install the extra
``searchlab[learn]``; ``import searchlab`` and the core never import torch.

What lives where:

* :mod:`~searchlab.learning.encoder`: the :class:`Encoder` protocol (a position as feature
  planes from the mover's point of view, the actions as a fixed-size index, the board's
  symmetries) and :class:`BaseEncoder` for a game of your own;
* :mod:`~searchlab.learning.encoders`: the built-in games' encoders and ``encoder_for(game)``;
* :mod:`~searchlab.learning.network`: ``NetworkConfig`` and ``PolicyValueNet`` (residual tower
  or a small MLP; masked policy logits, tanh value), masked softmax and the AlphaZero loss;
* :mod:`~searchlab.learning.checkpoint`: atomic checkpoints that record game, encoder and
  architecture, and refuse to load for anything else;
* :mod:`~searchlab.learning.evaluator`: ``NetworkEvaluator``, the network behind PUCT's
  evaluator interface (``evaluate`` and the batched ``evaluate_batch``), and ``check_device``.

The modules load on first use: ``import searchlab.learning`` itself imports nothing heavy.
"""
