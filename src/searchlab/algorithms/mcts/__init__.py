"""Monte Carlo search: flat Monte Carlo, MCTS (UCT), PUCT with an evaluator, MCTS-Solver.

The reference tier here runs on any :class:`~searchlab.core.game.Game`; the compiled tier
(:mod:`searchlab.algorithms.mcts.compiled`, numba kernels for the built-in games, when
available) runs behind the same :func:`mcts` call. See ``docs/algorithms/mcts.md``.

* :func:`mcts` / :class:`MCTS`: UCT (or PUCT with an ``evaluator``), rollout policies, final
  move choice, tree reuse between moves (:class:`MCTS`), transpositions, MCTS-Solver, exact
  endgame search, simulation and time budgets, observers; their options are one
  :class:`MCTSOptions`.
* Every search here averages values on a :data:`ValueScale`: by default the outcome (+1 win,
  0 draw, -1 loss), or the returns normalised by the game's ``GameInfo.max_utility``.
* :func:`flat_monte_carlo`, :func:`monte_carlo_evaluation`: playouts without a tree, as a
  search or as the evaluation function at the horizon of minimax / alpha-beta / negamax.
* :class:`Evaluator` (the interface AlphaZero's network implements), :class:`UniformEvaluator`.
* A game of your own at compiled speed: its rules in numba as a :class:`CompiledGame`, given
  to :func:`register_compiled_game` (random numbers in its rollout from :func:`next_below`);
  see ``docs/algorithms/mcts.md`` and ``examples/breakthrough.py``.

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> result = mcts(TicTacToe(), limits=Limits(simulations=2000), solver=True, seed=1,
...               tier="reference")
>>> result.algorithm, result.stats["simulations"] <= 2000, len(result.stats["children"])
('mcts', True, 9)
"""

from searchlab.algorithms.kernels import register_compiled_game
from searchlab.algorithms.mcts.endgame import ProofSearch
from searchlab.algorithms.mcts.evaluator import Evaluator, UniformEvaluator
from searchlab.algorithms.mcts.flat import (
    MonteCarloEvaluation,
    flat_monte_carlo,
    monte_carlo_evaluation,
)
from searchlab.algorithms.mcts.options import DEFAULT_C, FINAL_MOVES, MCTSOptions
from searchlab.algorithms.mcts.rollout import (
    ROLLOUT_POLICIES,
    RolloutPolicy,
    informed_policy,
    random_policy,
)
from searchlab.algorithms.mcts.search import MCTS, mcts
from searchlab.algorithms.mcts.tree import Node
from searchlab.algorithms.mcts.value_scale import VALUE_SCALES, ValueScale
from searchlab.core.compiled_game import CompiledGame, CompiledGameError
from searchlab.core.compiled_rng import next_below

__all__ = [
    "DEFAULT_C",
    "FINAL_MOVES",
    "MCTS",
    "ROLLOUT_POLICIES",
    "VALUE_SCALES",
    "CompiledGame",
    "CompiledGameError",
    "Evaluator",
    "MCTSOptions",
    "MonteCarloEvaluation",
    "Node",
    "ProofSearch",
    "RolloutPolicy",
    "UniformEvaluator",
    "ValueScale",
    "flat_monte_carlo",
    "informed_policy",
    "mcts",
    "monte_carlo_evaluation",
    "next_below",
    "random_policy",
    "register_compiled_game",
]
