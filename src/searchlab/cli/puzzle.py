"""``searchlab puzzle``: solve a sliding-tile puzzle (8-puzzle, 15-puzzle, any n x n) optimally.

Prints the number of moves, the moves as tile numbers and as blank directions, the nodes
expanded and the time; ``--json`` prints one JSON object instead. Bad input (not a board, not
solvable, an unknown option value) is one line on stderr and exit code 2; a search stopped by
its limits is one line on stderr and exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from searchlab.cli._common import add_command, add_json_argument, emit_json
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.limits import Limits
from searchlab.domains.path.sliding_tile import (
    SlidingTilePuzzle,
    check_goal,
    check_heuristic,
    moves_between,
    parse_tiles,
    render,
)

__all__ = ["ALGORITHMS", "ASTAR_DEFAULT_EXPANSIONS", "register", "run"]

ALGORITHMS = ("idastar", "astar")
"""``idastar``: compiled iterative-deepening A* (memory linear in the depth, the one for the
15-puzzle); ``astar``: the reference (plain-Python) A*, which keeps every board it meets."""

ASTAR_DEFAULT_EXPANSIONS = 200_000
"""Default expansion budget of ``--algorithm astar`` on boards of 4 x 4 and more: A* keeps every
board in memory and a hard 15-puzzle needs far more; IDA* is the tool for those."""

EXIT_LIMIT = 1

DESCRIPTION = """\
Solve a sliding-tile puzzle optimally (fewest moves) and print the moves.

TILES is the start board in row-major order (top row left to right, then the next
row), 0 for the blank, separated by spaces or commas: 9 numbers for the 8-puzzle,
16 for the 15-puzzle, n*n for any n x n board. Quote it or give the numbers as
separate arguments.

The goal is 1 2 3 ... with the blank last (bottom-right) unless --goal blank-first
(0 1 2 ..., blank top-left). Korf's published 15-puzzle instances use blank-first.

Moves are printed twice: as the numbers of the tiles slid into the blank, and as
the directions the blank moves (U, D, L, R: "U" means the blank moves up, i.e. the
tile above it slides down).
"""

EPILOG = """\
examples:
  searchlab puzzle "8 6 7 2 5 4 3 0 1"                 # one of the two hardest 8-puzzles (31)
  searchlab puzzle 1 2 3 4 5 6 0 7 8                   # numbers as separate arguments
  searchlab puzzle "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" --goal blank-first
                                                       # Korf's instance #1 (57 moves)
  searchlab puzzle "1,2,3,4,5,6,7,8,0,9,10,11,13,14,15,12" --json
  searchlab puzzle "8 6 7 2 5 4 3 0 1" --algorithm astar --heuristic manhattan
  searchlab puzzle "15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12" --goal blank-first \\
      --heuristic pattern_database                   # Korf #17 (66 moves) in about a second

exit codes: 0 solved; 1 stopped by --max-expansions / --time; 2 bad input.
"""


def register(subparsers: Any) -> None:
    """Add the ``puzzle`` subcommand to the ``searchlab`` parser."""
    summary = "solve a sliding-tile puzzle (8-puzzle, 15-puzzle, n x n) optimally"
    parser = add_command(subparsers, "puzzle", summary, DESCRIPTION, EPILOG)
    # Option values are checked in `run`, not by argparse, so that a bad value is one line
    # (argparse would print the usage too).
    parser.add_argument("tiles", nargs="*", metavar="TILES", help="the start board, 0 = blank")
    parser.add_argument(
        "--goal",
        default="blank-last",
        metavar="GOAL",
        help="blank-last (1 2 ... 0, default) or blank-first (0 1 2 ..., Korf's instances)",
    )
    parser.add_argument(
        "--algorithm",
        default="idastar",
        metavar="NAME",
        help="idastar (compiled IDA*, default) or astar (reference A*, small boards)",
    )
    parser.add_argument(
        "--heuristic",
        default="linear_conflict",
        metavar="NAME",
        help="linear_conflict (default), manhattan, misplaced, or pattern_database "
        "(15-puzzle: 6-6-3 additive pattern database, built once and cached on disk)",
    )
    parser.add_argument(
        "--max-expansions",
        metavar="N",
        help=f"stop after N expansions (astar on 4x4 and up: {ASTAR_DEFAULT_EXPANSIONS:,})",
    )
    parser.add_argument("--time", metavar="SECONDS", help="stop after this many seconds")
    add_json_argument(parser, "print one JSON object")
    parser.set_defaults(func=run)


def _positive(text: str | None, option: str, kind: type) -> Any:
    if text is None:
        return None
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value <= 0:
        noun = "a whole number" if kind is int else "a number of seconds"
        raise InvalidParameterError(f"{option} expects {noun} > 0, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Solve the puzzle described by ``args``; returns the exit code."""
    if not args.tiles:
        raise InvalidParameterError(
            'puzzle needs the start board, e.g. searchlab puzzle "8 6 7 2 5 4 3 0 1"'
        )
    if args.algorithm not in ALGORITHMS:
        raise UnknownNameError(
            f"unknown algorithm {args.algorithm!r}: expected one of {', '.join(ALGORITHMS)}"
        )
    check_goal(args.goal)
    check_heuristic(args.heuristic)
    expansions = _positive(args.max_expansions, "--max-expansions", int)
    seconds = _positive(args.time, "--time", float)
    tiles = parse_tiles(" ".join(args.tiles))
    puzzle = SlidingTilePuzzle(tiles, goal=args.goal, heuristic=args.heuristic)
    if args.algorithm == "astar" and expansions is None and puzzle.size >= 4:
        expansions = ASTAR_DEFAULT_EXPANSIONS
    limits = Limits(expansions=expansions, time=seconds)
    if args.heuristic == "pattern_database":
        from searchlab.domains.path.sliding_tile_pdb import cache_file

        if not cache_file(args.goal).is_file():
            print(
                f"searchlab: building the 15-puzzle pattern database once (about 20 s); "
                f"it is cached in {cache_file(args.goal)}",
                file=sys.stderr,
            )

    if args.algorithm == "idastar":
        from searchlab.algorithms.path.idastar import idastar

        result = idastar(puzzle, limits=limits)
    else:
        from searchlab.algorithms.path.best_first import astar

        result = astar(puzzle, limits=limits)
    ms = result.elapsed * 1000.0  # the search itself (not the one-off kernel loading)

    report: dict[str, Any] = {
        "status": result.status,
        "tiles": list(puzzle.tiles),
        "goal": puzzle.goal,
        "algorithm": args.algorithm,
        "tier": result.tier,
        "heuristic": result.stats.get("heuristic", puzzle.heuristic_name),
        "length": result.length,
        "moves": None,
        "blank_moves": None,
        "expanded": result.expanded,
        "generated": result.generated,
        "ms": round(ms, 3),
    }
    if result.is_solved:
        moves = moves_between(result.path)  # type: ignore[arg-type]
        report["moves"] = list(moves.tiles)
        report["blank_moves"] = moves.blank_directions
    if args.json:
        emit_json(report)
    else:
        _print_text(puzzle, report)
    if not result.is_solved:
        print(f"searchlab: {_limit_message(args, report, expansions)}", file=sys.stderr)
        return EXIT_LIMIT
    return 0


def _print_text(puzzle: SlidingTilePuzzle, report: dict[str, Any]) -> None:
    print(render(puzzle.tiles))
    print(
        f"goal {report['goal']}, {report['algorithm']} ({report['tier']}), "
        f"heuristic {report['heuristic']}"
    )
    if report["status"] == "solved":
        print(f"optimal solution: {report['length']} move{'' if report['length'] == 1 else 's'}")
        print(f"tiles moved:  {' '.join(map(str, report['moves'])) or '-'}")
        print(f"blank moves:  {report['blank_moves'] or '-'}")
    print(f"expanded {report['expanded']:,} nodes in {report['ms']:.1f} ms")


def _limit_message(args: argparse.Namespace, report: dict[str, Any], expansions: int | None) -> str:
    reason = (
        f"after {report['expanded']:,} expansions"
        if expansions is not None and report["expanded"] >= expansions
        else f"after {report['ms'] / 1000:.1f} s"
    )
    advice = "raise --max-expansions or --time"
    if args.algorithm == "astar":
        advice = "try --algorithm idastar (memory stays small), or raise --max-expansions"
    return f"{args.algorithm} stopped {reason} without reaching the goal; {advice}"
