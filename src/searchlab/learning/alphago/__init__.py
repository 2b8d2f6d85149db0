"""AlphaGo (Silver et al. 2016): expert data, SL / rollout / RL policies, value network, search.

Built on :mod:`searchlab.learning.networks` (and the match tally of
:mod:`searchlab.learning.alphazero.evaluation`); nothing outside imports it but the ``alphago``
agent kind, the ``train --algorithm alphago`` command and the ``expert`` command.

* :mod:`~searchlab.learning.alphago.pipeline`: the stages on Connect Four (``run_alphago``,
  ``load_alphago``) and ``run_training``, which hands Go to :mod:`~searchlab.learning.alphago.go`;
* :mod:`~searchlab.learning.alphago.records`: the run record ``alphago.json`` and the resumable
  chunk loop both games' RL stages share;
* :mod:`~searchlab.learning.alphago.data`: expert positions labelled by the exact solver;
  :mod:`~searchlab.learning.alphago.labelling`: the labelling in seeded chunks on workers;
* :mod:`~searchlab.learning.alphago.fit`: the SL policy and value fits;
* :mod:`~searchlab.learning.alphago.rollout_policy`: the linear-softmax rollout policy;
* :mod:`~searchlab.learning.alphago.rl`: the RL stage (REINFORCE, actor-critic, value) against
  a pool of earlier versions, and the value network's positions;
* :mod:`~searchlab.learning.alphago.search`: PUCT mixing value and rollouts by lambda;
  :mod:`~searchlab.learning.alphago.agent`: the ``alphago`` agent kind;
* Go: :mod:`~searchlab.learning.alphago.go_expert` (GNU Go's games),
  :mod:`~searchlab.learning.alphago.expert_games` (any folder of SGF records),
  :mod:`~searchlab.learning.alphago.go_sl` (the SL stage on Go) and
  :mod:`~searchlab.learning.alphago.go` (the pipeline on Go).

This package imports nothing on its own (no torch until a module is used).

>>> from searchlab.learning.alphago.pipeline import AlphaGoConfig
>>> AlphaGoConfig.from_dict({"rl_iterations": 3}).rl_iterations
3
"""
