"""Each path-search entry point runs the compiled kernel registered for its built-in domain, and
the reference tier on a subclass (which may change the rules): same answers, node for node."""

from __future__ import annotations

import random
from typing import Any

import pytest

from searchlab.algorithms.path.best_first import (
    astar,
    breadth_first_search,
    dijkstra,
    greedy_best_first_search,
    weighted_astar,
)
from searchlab.algorithms.path.idastar import idastar
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.path.grid import GridMap, GridProblem
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle


class MyGrid(GridProblem):
    """A user's grid problem: same rules, but not the built-in type."""


class MyPuzzle(SlidingTilePuzzle):
    """A user's puzzle: same rules, but not the built-in type."""


def random_grid(seed: int, size: int = 24, blocked: float = 0.3) -> GridMap:
    rng = random.Random(seed)
    rows = ["".join("@" if rng.random() < blocked else "." for _ in range(size))]
    rows += ["".join("@" if rng.random() < blocked else "." for _ in range(size))
             for _ in range(size - 1)]  # fmt: skip
    rows[0] = "." + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "."
    return GridMap.from_strings(rows)


FAMILY: list[tuple[str, Any]] = [
    ("astar", astar),
    ("weighted_astar", lambda problem, **kw: weighted_astar(problem, 1.5, **kw)),
    ("dijkstra", dijkstra),
    ("breadth_first", breadth_first_search),
    ("greedy_best_first", greedy_best_first_search),
]


@pytest.mark.parametrize(("name", "search"), FAMILY)
def test_best_first_family_compiled_on_grids_reference_on_a_subclass(
    name: str, search: Any
) -> None:
    for seed in range(4):
        grid = random_grid(seed)
        built_in = GridProblem(grid, (0, 0), (23, 23))
        user = MyGrid(grid, (0, 0), (23, 23))
        compiled, reference = search(built_in), search(user)
        assert (compiled.tier, reference.tier) == ("compiled", "reference")
        assert compiled.algorithm == reference.algorithm == name  # named by the kernel itself
        assert compiled.status == reference.status
        assert (compiled.expanded, compiled.generated, compiled.max_open) == (
            reference.expanded,
            reference.generated,
            reference.max_open,
        ), (name, seed)
        assert compiled.path == reference.path
        assert search(built_in, tier="reference").tier == "reference"
        with pytest.raises(InvalidParameterError, match="no compiled tier for MyGrid"):
            search(user, tier="compiled")


def test_a_user_heuristic_on_a_grid_runs_the_reference_or_is_refused_compiled() -> None:
    problem = GridProblem(random_grid(1), (0, 0), (23, 23))
    result = astar(problem, heuristic=lambda cell: 0.0)
    assert result.tier == "reference" and result.algorithm == "astar"
    with pytest.raises(InvalidParameterError) as caught:
        astar(problem, heuristic=lambda cell: 0.0, tier="compiled")
    assert str(caught.value).startswith("astar: the compiled grid kernel searches with the grid's")


def test_idastar_compiled_on_puzzles_reference_on_a_subclass() -> None:
    board = "8 6 7 2 5 4 3 0 1"  # 31 moves (the hardest 8-puzzles)
    compiled = idastar(SlidingTilePuzzle(board, goal="blank-last"))
    reference = idastar(MyPuzzle(board, goal="blank-last"))
    assert (compiled.tier, reference.tier) == ("compiled", "reference")
    assert compiled.algorithm == reference.algorithm == "idastar"
    assert compiled.length == reference.length == 31
    assert compiled.expanded == reference.expanded
    assert compiled.stats["thresholds"] == reference.stats["thresholds"]
    with pytest.raises(InvalidParameterError, match="no compiled tier for MyPuzzle"):
        idastar(MyPuzzle(board, goal="blank-last"), tier="compiled")


def test_jump_point_search_is_compiled_only() -> None:
    grid = random_grid(2)
    result = jump_point_search(GridProblem(grid, (0, 0), (23, 23)))
    assert (result.tier, result.algorithm) == ("compiled", "jps")
    with pytest.raises(InvalidParameterError, match="no compiled tier for MyGrid"):
        jump_point_search(MyGrid(grid, (0, 0), (23, 23)), tier="compiled")
    for tier in ("auto", "reference"):
        problem = (
            MyGrid(grid, (0, 0), (23, 23))
            if tier == "auto"
            else GridProblem(grid, (0, 0), (23, 23))
        )
        with pytest.raises(InvalidParameterError, match="no plain-Python tier"):
            jump_point_search(problem, tier=tier)  # type: ignore[arg-type]
