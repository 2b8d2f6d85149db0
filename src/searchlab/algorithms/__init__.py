"""Layer 2: the search algorithms (reference tier and compiled tier). Imports core and domains.

Path search is in :mod:`searchlab.algorithms.path`, adversarial search (minimax, alpha-beta,
negamax, exact solvers) in :mod:`searchlab.algorithms.adversarial`, Monte Carlo search in
:mod:`searchlab.algorithms.mcts`.
"""

from searchlab.algorithms.path import *  # noqa: F403  (curated __all__)
from searchlab.algorithms.path import __all__ as _path_all

__all__ = [*_path_all]
