"""``searchlab path``: shortest paths on a Moving AI grid map, one query or a whole scenario file.

One query (``--from X,Y --to X,Y``) prints the cost, the number of steps, the nodes expanded
and the time, and can draw the search (``--png``). A scenario file (``--scen``) solves every
problem in it with a progress bar and prints a summary that checks the costs against the
optimal lengths the file gives. Bad input is one line on stderr and exit code 2; an
unreachable goal, a search stopped by ``--max-expansions`` or a wrong cost is exit code 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from searchlab.algorithms.path.registry import (
    DEFAULT_WEIGHT,
    PATH_ALGORITHMS,
    PathAlgorithm,
    path_algorithm,
)
from searchlab.algorithms.path.scenario_check import TOLERANCE, ScenarioTally
from searchlab.cli._common import (
    add_command,
    add_json_argument,
    emit_json,
    parse_xy,
    picture_file,
    progress,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.results import PathResult
from searchlab.domains.path.grid import GridMap, GridProblem
from searchlab.domains.path.movingai import Scenario, check_scenarios, load_map, load_scenarios

__all__ = ["register", "run"]

EXIT_FAILED = 1

_WEIGHTED = tuple(name for name, a in PATH_ALGORITHMS.items() if "weight" in a.options)

DESCRIPTION = (
    """\
Find shortest paths on a grid map in the Moving AI format (.map).

Coordinates are X,Y = column,row, with (0,0) the top-left cell. Moves go to the
8 neighbours (cardinal cost 1, diagonal cost sqrt 2) and a diagonal move needs both
cells beside it free (no corner cutting), as in the Moving AI benchmarks;
--connectivity 4 allows cardinal moves only. The heuristic is the grid's own
(octile on 8 neighbours, Manhattan on 4).

Algorithms (--algorithm):
"""
    + "\n".join(
        f"  {name}{''.join(f' (or {alias})' for alias in a.aliases)}: {a.description}"
        for name, a in PATH_ALGORITHMS.items()
    )
    + "\n"
)

EPILOG = """\
examples:
  searchlab path examples/maps/arena.map --from 3,3 --to 45,45
  searchlab path examples/maps/arena.map --from 3,3 --to 45,45 --png arena.png
  searchlab path examples/maps/arena.map --scen examples/maps/arena.map.scen
  searchlab path MAP.map --scen MAP.map.scen --algorithm jps --limit 100
  searchlab path MAP.map --scen MAP.map.scen --algorithm wastar --weight 1.5 --json

--scen checks each cost against the file's optimal length (tolerance 0.01) for the
optimal algorithms, checks cost <= W * optimal for weighted_astar, and reports how
far bfs and greedy are from optimal. With --json each problem is one JSON line on stdout
and the summary goes to stderr.

exit codes: 0 all solved (and optimal where required); 1 unreachable goal, a search
stopped by --max-expansions, or a wrong cost; 2 bad input.
"""


def register(subparsers: Any) -> None:
    """Add the ``path`` subcommand to the ``searchlab`` parser."""
    summary = "shortest paths on a Moving AI grid map (A*, JPS, Dijkstra, ...)"
    parser = add_command(subparsers, "path", summary, DESCRIPTION, EPILOG)
    # Values are checked in `run`, so a bad one is one line (argparse would add the usage).
    parser.add_argument("map", metavar="MAP", help="the grid map (.map file)")
    parser.add_argument("--scen", metavar="FILE", help="solve every problem of a .scen file")
    parser.add_argument("--from", dest="start", metavar="X,Y", help="start cell (column,row)")
    parser.add_argument("--to", dest="goal", metavar="X,Y", help="goal cell (column,row)")
    parser.add_argument(
        "--algorithm", default="astar", metavar="NAME", help=f"{', '.join(PATH_ALGORITHMS)} (astar)"
    )
    parser.add_argument(
        "--weight",
        metavar="W",
        help=f"{', '.join(_WEIGHTED)}'s weight, >= 1 (default {DEFAULT_WEIGHT})",
    )
    parser.add_argument("--connectivity", default="8", metavar="8|4", help="8 (default) or 4")
    parser.add_argument("--limit", metavar="N", help="--scen: only the first N problems")
    parser.add_argument("--max-expansions", metavar="N", help="stop each search after N")
    parser.add_argument(
        "--png",
        metavar="OUT.png",
        help="one query: draw the search (format from the extension: .png, .jpg, .webp, ...)",
    )
    add_json_argument(parser, "JSON lines on stdout")
    parser.set_defaults(func=run)


def _positive_int(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise InvalidParameterError(f"{option} expects a whole number > 0, got {text!r}")
    return value


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """Check every option before any work; returns the parsed values."""
    algorithm = path_algorithm(args.algorithm)
    if args.connectivity not in ("4", "8"):
        raise InvalidParameterError(f"--connectivity expects 8 or 4, got {args.connectivity!r}")
    connectivity = int(args.connectivity)
    if algorithm.eight_connected and connectivity == 4:
        raise InvalidParameterError(
            f"--algorithm {algorithm.name} needs 8-connectivity; use astar for --connectivity 4"
        )
    weight = None
    if args.weight is not None:
        if "weight" not in algorithm.options:
            raise InvalidParameterError(
                f"--weight applies to --algorithm {', '.join(_WEIGHTED)} only, "
                f"not {args.algorithm!r}"
            )
        try:
            weight = float(args.weight)
        except ValueError:
            weight = float("nan")
        if not 1 <= weight < float("inf"):
            raise InvalidParameterError(f"--weight expects a number >= 1, got {args.weight!r}")
    elif "weight" in algorithm.options:
        weight = DEFAULT_WEIGHT
    single = args.start is not None or args.goal is not None
    if args.scen is not None and single:
        raise InvalidParameterError("give either --scen FILE or --from X,Y --to X,Y, not both")
    if args.scen is None and (args.start is None or args.goal is None):
        missing = "--to" if args.start is not None else "--from"
        if not single:
            raise InvalidParameterError(
                "path needs --scen FILE or --from X,Y --to X,Y (see searchlab path --help)"
            )
        raise InvalidParameterError(
            f"a single query needs both --from and --to; {missing} is missing"
        )
    if args.scen is not None and args.png is not None:
        raise InvalidParameterError("--png draws a single query (--from/--to), not a --scen run")
    if args.scen is None and args.limit is not None:
        raise InvalidParameterError("--limit applies to --scen runs only")
    return {
        "algorithm": algorithm,
        "connectivity": connectivity,
        "weight": weight,
        "limit": _positive_int(args.limit, "--limit"),
        "max_expansions": _positive_int(args.max_expansions, "--max-expansions"),
        "start": None if args.start is None else parse_xy(args.start, "--from"),
        "goal": None if args.goal is None else parse_xy(args.goal, "--to"),
    }


class Solve:
    """One algorithm with the command's weight: ``solve(problem, limits=...)``."""

    def __init__(self, algorithm: PathAlgorithm, weight: float | None) -> None:
        self.algorithm, self.weight = algorithm, weight

    def __call__(self, problem: GridProblem, *, limits: Limits | None = None) -> PathResult:
        return self.algorithm.run(problem, weight=self.weight, limits=limits)


def _warm_up(solve: Solve, connectivity: int) -> None:
    """Load the compiled kernels once (from numba's cache, or compile them the first time), so
    the times reported are those of the searches."""
    tiny = GridMap.from_strings(["..", ".."])
    solve(GridProblem(tiny, (0, 0), (1, 1), connectivity=connectivity))


def run(args: argparse.Namespace) -> int:
    """Run ``searchlab path``; returns the exit code."""
    options = _options(args)
    if args.png is not None:
        options["png"] = picture_file(args.png, "--png", "path")
    grid = load_map(args.map)
    limits = Limits(expansions=options["max_expansions"])
    solve = Solve(options["algorithm"], options["weight"])
    _warm_up(solve, options["connectivity"])
    if args.scen is not None:
        scenarios = load_scenarios(args.scen)
        if options["limit"] is not None:
            scenarios = scenarios[: options["limit"]]
        check_scenarios(grid, scenarios)
        return _run_scenarios(args, options, grid, scenarios, solve, limits)
    return _run_single(args, options, grid, solve, limits)


def _run_single(
    args: argparse.Namespace,
    options: dict[str, Any],
    grid: GridMap,
    solve: Solve,
    limits: Limits,
) -> int:
    problem = GridProblem(
        grid, options["start"], options["goal"], connectivity=options["connectivity"]
    )
    result = solve(problem, limits=limits)
    if args.png is not None:
        from searchlab.viz.grid_png import render_search

        render_search(grid, result, options["png"], start=problem.start, goal=problem.goal)
    report = {
        "status": result.status,
        "start": list(problem.start),
        "goal": list(problem.goal),
        "algorithm": solve.algorithm.name,
        "connectivity": options["connectivity"],
        "cost": result.cost,
        "length": result.length,
        "expanded": result.expanded,
        "generated": result.generated,
        "ms": round(result.elapsed * 1000.0, 3),
        "path": None if result.path is None else [list(cell) for cell in result.path],
    }
    if args.json:
        emit_json(report)
    elif result.is_solved:
        print(f"{grid.name}: {solve.algorithm.name} from {problem.start} to {problem.goal}")
        print(f"cost {result.cost:.4f}, {result.length} steps")
        print(f"expanded {result.expanded:,} nodes in {report['ms']:.2f} ms")
        if args.png is not None:
            print(f"picture: {args.png}")
    if result.status == "no_path":
        print(
            f"searchlab: no path from {problem.start} to {problem.goal} on {grid.name!r}: "
            f"the goal is unreachable ({result.expanded:,} cells explored)",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if result.status == "limit":
        print(
            f"searchlab: {solve.algorithm.name} stopped after {result.expanded:,} expansions "
            "without reaching the goal; raise --max-expansions",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0


def _run_scenarios(
    args: argparse.Namespace,
    options: dict[str, Any],
    grid: GridMap,
    scenarios: list[Scenario],
    solve: Solve,
    limits: Limits,
) -> int:
    algorithm, weight = solve.algorithm, options["weight"]
    # the file's lengths are 8-connected optima
    tally = ScenarioTally(algorithm.optimal, weight, comparable=options["connectivity"] == 8)
    began = time.perf_counter()
    with progress(len(scenarios), f"{grid.name} {algorithm.name}") as advance:
        for scenario in scenarios:
            problem = GridProblem(
                grid, scenario.start, scenario.goal, connectivity=options["connectivity"]
            )
            result = solve(problem, limits=limits)
            tally.add(scenario, result)
            if args.json:
                emit_json(
                    {
                        "index": scenario.index,
                        "status": result.status,
                        "start": list(scenario.start),
                        "goal": list(scenario.goal),
                        "algorithm": algorithm.name,
                        "cost": result.cost,
                        "optimal": scenario.optimal_length,
                        "expanded": result.expanded,
                        "ms": round(result.elapsed * 1000.0, 3),
                    }
                )
            advance()
    wall = time.perf_counter() - began
    solved, unsolved, mismatches = tally.solved, tally.unsolved, tally.mismatches
    lines = [f"{grid.name}: {algorithm.name}, {solved}/{len(scenarios)} solved"]
    if unsolved:
        lines.append(f"  {unsolved} not solved (unreachable goal or --max-expansions reached)")
    if not tally.comparable:
        lines.append("  costs not compared: the scenario lengths assume 8-connectivity")
    elif algorithm.optimal:
        lines.append(f"  cost mismatches vs optimal (tolerance {TOLERANCE}): {mismatches}")
    elif weight is not None:
        lines.append(
            f"  worst cost/optimal {tally.worst_ratio:.4f} (bound W = {weight:g}); "
            f"over the bound: {mismatches}"
        )
    elif solved:
        lines.append(
            f"  suboptimality: mean cost/optimal {tally.mean_ratio:.4f}, "
            f"worst {tally.worst_ratio:.4f}"
        )
    what = "jump points" if algorithm.name == "jps" else "nodes"
    lines.append(
        f"  expanded {tally.expanded:,} {what}, {tally.rate / 1e6:.2f} M/s; "
        f"search {tally.search_seconds:.3f} s, total {wall:.3f} s"
    )
    print("\n".join(lines), file=sys.stderr if args.json else sys.stdout)
    return 0 if tally.is_clean else EXIT_FAILED
