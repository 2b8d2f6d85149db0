"""Networks: what turns a position into numbers and numbers into a policy and a value.

The lowest part of the learning layer; it imports nothing else of it (self-play, training and
the AlphaGo pipeline build on it, never the other way).

* :mod:`~searchlab.learning.networks.encoder`: the :class:`Encoder` protocol, ``Symmetry``,
  ``board_symmetries`` and ``BaseEncoder`` for a game of your own (numpy only, no torch);
* :mod:`~searchlab.learning.networks.encoders`: the built-in games' encoders, ``encoder_for``;
* :mod:`~searchlab.learning.networks.network`: ``NetworkConfig``, ``PolicyValueNet``, the
  masked softmax and the AlphaZero loss;
* :mod:`~searchlab.learning.networks.checkpoint`: atomic checkpoints that record game, encoder
  and architecture;
* :mod:`~searchlab.learning.networks.evaluator`: ``NetworkEvaluator``, the network behind the
  searches' evaluator interface, and ``check_device``;
* :mod:`~searchlab.learning.networks.evaluation_cache`: a ring of recent evaluations.

This package imports nothing on its own: ``import searchlab.learning.networks`` loads neither
torch nor any game.

>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> encoder_for(TicTacToe()).num_actions
9
"""
