"""Layer 2: the search algorithms (reference tier and compiled tier). Imports core and domains.

Path search (any :class:`~searchlab.core.problem.Problem`; grids and sliding-tile puzzles run
compiled kernels behind the same call) lives here; adversarial search is in
:mod:`searchlab.algorithms.adversarial`.
"""

from searchlab.algorithms.best_first import (
    astar,
    best_first_search,
    breadth_first_search,
    dijkstra,
    greedy_best_first_search,
    uniform_cost_search,
    weighted_astar,
)
from searchlab.algorithms.bidirectional import bidirectional_search
from searchlab.algorithms.idastar import idastar
from searchlab.algorithms.jps import jump_point_search
from searchlab.algorithms.perfect_heuristic import PerfectHeuristic, perfect_heuristic

__all__ = [
    "PerfectHeuristic",
    "astar",
    "best_first_search",
    "bidirectional_search",
    "breadth_first_search",
    "dijkstra",
    "greedy_best_first_search",
    "idastar",
    "jump_point_search",
    "perfect_heuristic",
    "uniform_cost_search",
    "weighted_astar",
]
