"""Path search on any :class:`~searchlab.core.problem.Problem`: one best-first engine (A*,
weighted A*, Dijkstra, BFS, greedy), IDA*, bidirectional search, the perfect heuristic, and
jump point search; grids and sliding-tile puzzles also run compiled kernels behind the same call.
"""

from searchlab.algorithms.path.best_first import (
    astar,
    best_first_search,
    breadth_first_search,
    dijkstra,
    greedy_best_first_search,
    uniform_cost_search,
    weighted_astar,
)
from searchlab.algorithms.path.bidirectional import bidirectional_search
from searchlab.algorithms.path.idastar import idastar
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.algorithms.path.perfect_heuristic import PerfectHeuristic, perfect_heuristic

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
