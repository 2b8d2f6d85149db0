"""``searchlab solve connect4``: exact Connect Four scores (Pons' convention) by the compiled
solver, for one position or a file of Pons' test positions.

  searchlab solve connect4 4453 [--json] [--time S] [--nodes N] [--threads N] [--book FILE]
  searchlab solve connect4 --positions Test_L2_R1 [--limit N] [--json] [--time S]

A positions file has one ``<moves> <score>`` per line (moves: 1-based columns from the empty
board; score: the expected exact score for the player to move). Each line prints the moves,
the computed score, the expected score, the nodes searched and the time; a summary follows
(mismatches, mean time, nodes per second), and a progress bar (positions done / total) runs on
stderr meanwhile. ``--json`` prints one object per position (``moves``, ``score``,
``expected``, ``nodes``, ``ms``, ``ok``) and the summary on stderr.

``--time S`` and ``--nodes N`` limit each position: a position stopped by them shows the
bounds on its score proved so far (``score ? in [-2, +4]``; JSON ``"score": null``,
``"bounds": [-2, 4]``, ``"stopped_by"``), and counts as a mismatch when the expected score lies
outside them. Ctrl-C stops the solver within a moment (one line, exit code 130). Exit code 1
when a score differs from the expected one or a position was stopped, 2 for bad input (one
line, ``FILE:LINE`` quoted).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from searchlab.cli._common import add_json_argument, emit_json, positive_int, progress, worker_count
from searchlab.cli.solve_command import GameCommand, run_stoppable
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.position_files import (
    Connect4Position,
    connect4_game_over,
    read_pons_positions,
)

if TYPE_CHECKING:
    from searchlab.core.limits import Limits
    from searchlab.core.search_result import SearchResult
    from searchlab.domains.games.connect4 import Connect4State

__all__ = ["COMMAND"]

HELP = "Connect Four 7x6: exact score (Pons) and best move; --positions for Pons' test files"


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "moves", nargs="?", default=None, help="moves from the empty board, e.g. 4453 ('' = empty)"
    )
    parser.add_argument("--positions", type=Path, help="a file of '<moves> <score>' lines (Pons)")
    parser.add_argument("--limit", type=positive_int, help="only the first N positions")
    parser.add_argument(
        "--time", type=float, metavar="S", help="seconds per position (stopped: bounds shown)"
    )
    parser.add_argument("--nodes", type=positive_int, help="node budget per position")
    add_json_argument(parser, "JSON lines on stdout")
    parser.add_argument(
        "--table-log2", type=int, default=23, help="transposition table: 2**N slots (default 23)"
    )
    parser.add_argument(
        "--threads",
        type=worker_count,
        default=None,
        help="search threads sharing the table (Lazy SMP); default: all cores "
        f"({os.cpu_count() or 1} here), 1 with --nodes; 1 for reproducible node counts",
    )
    books = parser.add_mutually_exclusive_group()
    books.add_argument(
        "--book", type=Path, help="an opening book (searchlab book build); default: the shipped one"
    )
    books.add_argument("--no-book", action="store_true", help="search without an opening book")


def _limits(args: argparse.Namespace) -> Limits | None:
    from searchlab.core.limits import Limits

    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise InvalidParameterError(
            f"solve connect4: --time must be > 0 seconds (a finite number), got {args.time}"
        )
    given = {name: value for name in ("time", "nodes") if (value := getattr(args, name))}
    return Limits(**given) if given else None


def _run(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, warm_up

    if (args.moves is None) == (args.positions is None):
        raise InvalidParameterError(
            "searchlab solve connect4: give either MOVES (e.g. 4453) or --positions FILE"
        )
    if args.positions is None and args.limit is not None:
        raise InvalidParameterError("searchlab solve connect4: --limit needs --positions FILE")
    limits = _limits(args)
    # all cores by default; one with a node budget (a reproducible count)
    threads = args.threads or (1 if args.nodes else os.cpu_count() or 1)
    book: Any = None if args.no_book else args.book or "default"
    solver = Connect4Solver(table_log2=args.table_log2, threads=threads, book=book)
    _ = solver.book  # a corrupt or foreign book file: one line before any work
    if args.positions is not None:
        positions = read_pons_positions(args.positions, args.limit)
        warm_up()  # compile (or load) the kernels outside the timings
        return _run_positions(solver, positions, limits, args.json)
    return _run_single(solver, args.moves, limits, args.json)


def _solve(solver: Any, state: Connect4State, limits: Limits | None, **options: Any) -> Any:
    """``solver.solve`` that Ctrl-C stops (see :func:`run_stoppable`)."""
    return run_stoppable(lambda: solver.solve(state, limits=limits, **options), solver.stop)


def _bounds(result: SearchResult) -> tuple[int, int]:
    low, high = result.stats["bounds"]
    return int(low), int(high)


def _run_single(solver: Any, moves: str, limits: Limits | None, as_json: bool) -> int:
    from searchlab.algorithms.adversarial.connect4_solver import warm_up
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(moves)
    if state.is_terminal():
        raise connect4_game_over(state, "solve connect4")
    warm_up()
    result = _solve(solver, state, limits)
    score = result.score
    mover = "XO"[state.current_player()]
    best = state.action_to_string(result.action) if result.action is not None else None
    if as_json:
        obj: dict[str, Any] = {
            "game": "connect4",
            "moves": moves,
            "to_move": mover,
            "score": score,
            "outcome": result.outcome,
            "best_move": best,
            "plies_to_end": result.plies_to_end,
            "nodes": result.nodes,
            "ms": round(result.elapsed * 1000, 3),
        }
        if result.stopped_by:
            obj["bounds"] = list(_bounds(result))
            obj["stopped_by"] = result.stopped_by
        emit_json(obj)
        return 1 if result.stopped_by else 0
    print(state)
    if result.stopped_by:
        low, high = _bounds(result)
        print(
            f"{mover} to move: score ? in [{low:+d}, {high:+d}] (stopped by {result.stopped_by} "
            "before the score was proven)"
        )
    else:
        assert score is not None
        print(f"{mover} to move: score {score:+d} ({_describe(score, state)}); best move {best}")
    print(f"{result.nodes} nodes, {result.elapsed * 1000:.3f} ms")
    return 1 if result.stopped_by else 0


def _describe(score: int, state: Connect4State) -> str:
    if score == 0:
        return "draw"
    if score > 0:
        return f"wins with their stone no. {22 - score}, in {_plies(score, state)} plies"
    return f"loses to the opponent's stone no. {22 + score}, in {_plies(score, state)} plies"


def _plies(score: int, state: Connect4State) -> int | None:
    from searchlab.algorithms.adversarial.connect4_solver import plies_to_end

    return plies_to_end(score, state.num_moves)


def _run_positions(
    solver: Any, positions: list[Connect4Position], limits: Limits | None, as_json: bool
) -> int:
    from searchlab.algorithms.adversarial.expected_scores import score_verdict

    mismatches = stopped = total_nodes = 0
    total_time = 0.0
    with progress(len(positions), "connect4") as advance:
        for position in positions:
            result = _solve(solver, position.state, limits, find_move=False)
            score = result.score
            stopped += bool(result.stopped_by)
            ok = score_verdict(position.expected, result)
            mismatches += ok is False
            total_nodes += result.nodes
            total_time += result.elapsed
            ms = result.elapsed * 1000
            if as_json:
                obj: dict[str, Any] = {
                    "moves": position.moves,
                    "score": score,
                    "expected": position.expected,
                    "nodes": result.nodes,
                    "ms": round(ms, 4),
                    "ok": ok,
                }
                if result.stopped_by:
                    obj["bounds"] = list(_bounds(result))
                    obj["stopped_by"] = result.stopped_by
                emit_json(obj)
            else:
                shown = "?" if score is None else str(score)
                mark = "  MISMATCH" if ok is False else ""
                if result.stopped_by:
                    low, high = _bounds(result)
                    mark = f"  STOPPED in [{low:+d}, {high:+d}]{mark}"
                row = f"{position.moves} {shown} {position.expected} {result.nodes} {ms:.3f} ms"
                print(row + mark, flush=True)
            advance()
    count = len(positions)
    mean_ms = total_time * 1000 / count if count else 0.0
    rate = total_nodes / total_time if total_time > 0 else 0.0
    mean_nodes = total_nodes / count if count else 0.0
    halted = f", {stopped} stopped" if stopped else ""
    summary = (
        f"{count} positions, {mismatches} mismatches{halted}, mean {mean_ms:.3f} ms, "
        f"mean {mean_nodes:.1f} nodes, {rate:,.0f} nodes/s"
    )
    print(summary, file=sys.stderr if as_json else sys.stdout)
    return 1 if mismatches or stopped else 0


COMMAND = GameCommand(HELP, _arguments, _run)
"""What ``cli/solve.py`` registers as ``solve connect4``."""
