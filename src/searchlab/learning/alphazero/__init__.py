"""AlphaZero: self-play, the replay window, training and evaluation, to a deadline.

Built on :mod:`searchlab.learning.networks`; the AlphaGo pipeline borrows its match tally and
its progress plot, nothing here imports the AlphaGo pipeline.

* :mod:`~searchlab.learning.alphazero.selfplay`: lock-step self-play with PUCT or Gumbel
  search (``self_play``, ``SelfPlayConfig``, ``GameRecord``);
* :mod:`~searchlab.learning.alphazero.replay`: sample blocks and the window of the last games;
* :mod:`~searchlab.learning.alphazero.trainer`: seeded minibatch steps on the AlphaZero loss;
* :mod:`~searchlab.learning.alphazero.train_config`: ``TrainConfig`` and per-game defaults;
* :mod:`~searchlab.learning.alphazero.run_dir`: the resumable training directory;
* :mod:`~searchlab.learning.alphazero.workers`: self-play chunks and evaluation games as tasks
  for a process pool;
* :mod:`~searchlab.learning.alphazero.evaluation`: matches, tallies, exact values and the
  mistake rate of small games; :mod:`~searchlab.learning.alphazero.mistakes`: the Connect Four
  mistake rate on Pons' sets;
* :mod:`~searchlab.learning.alphazero.progress_plot`: ``progress.png``;
* :mod:`~searchlab.learning.alphazero.pipeline`: ``train_alphazero``, the loop, and
  ``run_training``, the ``train`` command's entry.

This package imports nothing on its own (no torch until a module is used).

>>> from searchlab.learning.alphazero.train_config import config_for
>>> config_for("tictactoe", {"simulations": 50}).simulations
50
"""
