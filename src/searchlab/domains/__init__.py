"""Layer 1: the domains searched over. Imports core only.

Path-search domains: grid maps in the Moving AI format, explicit weighted graphs, sliding-tile
puzzles. Two-player games live in :mod:`searchlab.domains.games`.
"""

from searchlab.domains.graph import GraphProblem
from searchlab.domains.grid import GridMap, GridProblem, manhattan_distance, octile_distance
from searchlab.domains.movingai import Scenario, load_map, load_scenarios, parse_map
from searchlab.domains.sliding_tile import SlidingTilePuzzle, is_solvable, moves_between

__all__ = [
    "GraphProblem",
    "GridMap",
    "GridProblem",
    "Scenario",
    "SlidingTilePuzzle",
    "is_solvable",
    "load_map",
    "load_scenarios",
    "manhattan_distance",
    "moves_between",
    "octile_distance",
    "parse_map",
]
