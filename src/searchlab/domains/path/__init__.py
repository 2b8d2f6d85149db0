"""Path-search domains: grid maps in the Moving AI format, explicit weighted graphs,
sliding-tile puzzles (and their pattern databases)."""

from searchlab.domains.path.graph import GraphProblem
from searchlab.domains.path.grid import GridMap, GridProblem, manhattan_distance, octile_distance
from searchlab.domains.path.movingai import Scenario, load_map, load_scenarios, parse_map
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle, is_solvable, moves_between

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
