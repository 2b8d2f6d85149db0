"""The path algorithms' registry: its docs table, its names, and its flags (optimal, complete,
the weight bound) checked against networkx on a small grid built here independently."""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest

from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.registry import (
    DEFAULT_WEIGHT,
    PATH_ALGORITHMS,
    accepted_names,
    path_algorithm,
)
from searchlab.core.errors import UnknownNameError
from searchlab.domains.path.grid import GridMap, GridProblem

DOC = Path(__file__).resolve().parents[3] / "docs" / "algorithms" / "path_search.md"
HEADER = "| name | aliases | function | takes | optimal | complete | what |"
ROWS = ["......", ".@@@@.", "...@..", ".@.@@.", "......"]


def _row(name: str) -> str:
    entry = PATH_ALGORITHMS[name]
    aliases = ", ".join(f"`{alias}`" for alias in entry.aliases) or "-"
    yes = {True: "yes", False: "no"}
    return (
        f"| `{name}` | {aliases} | `{entry.search.__name__}` | {', '.join(entry.options) or '-'} "
        f"| {yes[entry.optimal]} | {yes[entry.complete]} | {entry.description} |"
    )


def test_the_docs_table_is_the_registry() -> None:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2  # after the header and its |---| line
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    assert lines[start:end] == [_row(name) for name in PATH_ALGORITHMS]


def test_every_name_and_alias_finds_its_entry() -> None:
    for name, entry in PATH_ALGORITHMS.items():
        assert path_algorithm(name) is entry
        for alias in entry.aliases:
            assert path_algorithm(alias) is entry
    assert path_algorithm("wastar") is PATH_ALGORITHMS["weighted_astar"]
    assert sorted(accepted_names()) == sorted(
        [*PATH_ALGORITHMS, *(a for e in PATH_ALGORITHMS.values() for a in e.aliases)]
    )


def test_an_unknown_name_is_one_line_listing_every_name() -> None:
    with pytest.raises(UnknownNameError) as raised:
        path_algorithm("dfs")
    message = str(raised.value)
    assert "\n" not in message and message.startswith("unknown algorithm 'dfs': expected one of")
    listed = message.split("expected one of ")[1].replace(" (or ", ", ").replace(")", "")
    assert sorted(listed.split(", ")) == sorted(accepted_names())


def _networkx_grid(rows: list[str]) -> nx.Graph:
    """8 neighbours, diagonal sqrt 2 only when both cells beside it are free (Moving AI)."""
    free = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "."}
    graph = nx.Graph()
    graph.add_nodes_from(free)
    for x, y in free:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                to = (x + dx, y + dy)
                if (dx, dy) == (0, 0) or to not in free:
                    continue
                if dx and dy and ((x + dx, y) not in free or (x, y + dy) not in free):
                    continue
                graph.add_edge((x, y), to, weight=math.sqrt(2) if dx and dy else 1.0)
    return graph


@pytest.mark.parametrize("name", list(PATH_ALGORITHMS))
def test_each_entry_keeps_its_promises_against_networkx(name: str) -> None:
    entry = PATH_ALGORITHMS[name]
    grid = GridMap.from_strings(ROWS)
    graph = _networkx_grid(ROWS)
    for start, goal in [((0, 0), (5, 4)), ((5, 0), (0, 4)), ((2, 3), (4, 2))]:
        optimal = nx.dijkstra_path_length(graph, start, goal)
        result = entry.run(GridProblem(grid, start, goal), weight=1.5)
        assert result.status == "solved"  # complete: a path exists
        assert result.path is not None and nx.is_path(graph, result.path)
        if entry.optimal:
            assert result.cost == pytest.approx(optimal)
        elif "weight" in entry.options:
            assert optimal - 1e-9 <= result.cost <= 1.5 * optimal + 1e-9
    walled = GridMap.from_strings(["..@..", "..@..", "..@.."])
    assert entry.run(GridProblem(walled, (0, 0), (4, 2))).status == "no_path"


def test_run_passes_only_the_options_an_algorithm_takes() -> None:
    grid = GridMap.from_strings(ROWS)
    problem = GridProblem(grid, (0, 0), (5, 4))
    default = PATH_ALGORITHMS["weighted_astar"].run(problem)
    expected = best_first.weighted_astar(problem, DEFAULT_WEIGHT)
    assert (default.cost, default.expanded) == (expected.cost, expected.expanded)
    # Dijkstra takes no heuristic: one that would mislead it is not used.
    dijkstra = PATH_ALGORITHMS["dijkstra"].run(problem, heuristic=lambda cell: 100.0 * cell[0])
    assert dijkstra.expanded == best_first.dijkstra(problem).expanded
    misled = PATH_ALGORITHMS["astar"].run(problem, heuristic=lambda cell: 100.0 * (5 - cell[0]))
    assert misled.expanded != best_first.astar(problem).expanded  # astar does take it
