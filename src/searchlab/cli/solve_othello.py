"""``searchlab solve othello``: exact Othello endgame scores for OBF positions.

  searchlab solve othello --obf ffo_endgame.obf [--limit N] [--json] [--nodes N] [--threads N]
  searchlab solve othello "<64-char board> X[; G8:+18; ...]" [--move-scores]

Per position: the exact score for the side to move (final disc difference, empties to the
winner), a best move, the expected score (the best listed move score, when the line has
scored moves), nodes and time; then a summary (mismatches, mean time, nodes per second); a
progress bar (positions done / total) runs on stderr meanwhile. A position stopped by
``--nodes`` or ``--time`` shows the bounds on its score proved so far. Ctrl-C stops the solver
within a moment (one line, exit code 130). ``--threads N`` searches on N threads sharing one
transposition table (default: every core; ``--threads 1`` for node counts that repeat
exactly run to run); the scores are exact either way. The exit code is 1 when a score or best move
disagrees with the file, or a position was not solved within ``--nodes``/``--time``; bad input
is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from functools import partial
from typing import Any

from searchlab.cli._common import add_json_argument, emit_json, positive_int, progress
from searchlab.cli.solve_command import GameCommand, run_stoppable
from searchlab.core.errors import InvalidParameterError

__all__ = ["COMMAND"]


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        nargs="*",
        help="one OBF position: '<64-char board a1..h8> <X|O>[; MOVE:SCORE; ...]'",
    )
    parser.add_argument("--obf", metavar="FILE", help="a file of OBF lines (Edax format)")
    parser.add_argument("--limit", type=positive_int, help="solve only the first N positions")
    parser.add_argument("--nodes", type=positive_int, help="node budget per position")
    parser.add_argument(
        "--time", type=float, metavar="S", help="seconds per position (stopped: bounds shown)"
    )
    parser.add_argument(
        "--move-scores", action="store_true", help="also the exact score of every move (slower)"
    )
    add_json_argument(parser, "one JSON object per position")
    parser.add_argument(
        "--threads",
        type=_thread_count,
        default=None,
        help="search threads sharing the table (default: every core; 1: repeatable nodes)",
    )


def _thread_count(text: str) -> int:
    """``argparse`` type for ``--threads``: a whole number in ``1..MAX_THREADS``."""
    from searchlab.algorithms.adversarial.othello_endgame import MAX_THREADS

    value = positive_int(text)
    if value > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_THREADS} threads, got {text!r}")
    return value


@dataclass(slots=True)
class _Row:
    source: str
    empties: int
    score: int | None
    expected: int | None
    best_move: str | None
    expected_moves: list[str]
    nodes: int
    ms: float
    status: str  # "ok", "mismatch", "unchecked", "stopped"
    move_scores: dict[str, int] | None
    bounds: tuple[int, int] | None = None  # proven (lower, upper) of a stopped position


def _run(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver, default_threads
    from searchlab.core.limits import Limits
    from searchlab.domains.games.othello.obf import parse_obf_line, read_obf

    if args.obf and args.position:
        raise InvalidParameterError("solve othello: give either --obf FILE or one position")
    if args.obf:
        positions = list(read_obf(args.obf))
    elif args.position:
        positions = [parse_obf_line(" ".join(args.position), source="position")]
    else:
        raise InvalidParameterError("solve othello: give --obf FILE or a position")
    if args.limit is not None:
        positions = positions[: args.limit]
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise InvalidParameterError(
            f"solve othello: --time must be > 0 seconds (a finite number), got {args.time}"
        )
    budget = {"nodes": args.nodes, "time": args.time}
    given = {name: value for name, value in budget.items() if value is not None}
    limits = Limits(**given) if given else None
    threads = args.threads or default_threads()
    solver = EndgameSolver(threads=threads)
    _warm_up(solver)
    rows = []
    with progress(len(positions), "othello") as advance:
        for position in positions:
            state = position.state()
            result = run_stoppable(
                partial(solver.solve, state, limits=limits, move_scores=args.move_scores),
                solver.stop,
            )
            rows.append(_row(position, state, result))
            row = rows[-1]
            if args.json:
                emit_json(_as_json(row))
            else:
                print(_as_text(row), flush=True)
            advance()
    _summary(rows, threads, to=sys.stderr if args.json else sys.stdout)
    return 1 if any(row.status in ("mismatch", "stopped") for row in rows) else 0


def _warm_up(solver: Any) -> None:
    """Load (or compile) every kernel outside the timed solves."""
    from searchlab.algorithms.adversarial.othello_endgame import warm_up

    warm_up(solver)


def _row(position: Any, state: Any, result: Any) -> _Row:
    from searchlab.algorithms.adversarial.expected_scores import endgame_status, proved_bounds

    name = state.action_to_string
    expected = position.best_score
    expected_moves = [name(a).upper() for a in position.best_moves]
    best = name(result.action).upper() if result.action is not None else None
    scores = result.stats.get("move_scores")
    return _Row(
        source=position.source,
        empties=state.empties(),
        score=result.score,
        expected=expected,
        best_move=best if not result.stopped_by else None,
        expected_moves=expected_moves,
        nodes=result.nodes,
        ms=result.elapsed * 1000,
        status=endgame_status(position, result),
        move_scores=None if scores is None else {name(a).upper(): s for a, s in scores.items()},
        bounds=proved_bounds(result) if result.stopped_by else None,
    )


def _as_json(row: _Row) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "source": row.source,
        "empties": row.empties,
        "score": row.score,
        "expected": row.expected,
        "best_move": row.best_move,
        "expected_moves": row.expected_moves,
        "status": row.status,
        "nodes": row.nodes,
        "ms": round(row.ms, 3),
    }
    if row.move_scores is not None:
        obj["move_scores"] = row.move_scores
    if row.bounds is not None:
        obj["bounds"] = list(row.bounds)
    return obj


def _as_text(row: _Row) -> str:
    def signed(value: int | None) -> str:
        return "?" if value is None else f"{value:+d}"

    proven = "" if row.bounds is None else f" in [{row.bounds[0]:+d}, {row.bounds[1]:+d}]"
    text = (
        f"{row.source}  empties {row.empties}  score {signed(row.score)}{proven}  "
        f"expected {signed(row.expected) if row.expected is not None else '-'}  "
        f"best {row.best_move or '-'}  nodes {row.nodes}  {row.ms:.1f} ms  {row.status}"
    )
    if row.move_scores is not None:
        text += "\n  moves: " + " ".join(f"{m}:{s:+d}" for m, s in row.move_scores.items())
    return text


def _summary(rows: list[_Row], threads: int, *, to: Any) -> None:
    count = len(rows)
    mismatches = sum(row.status == "mismatch" for row in rows)
    stopped = sum(row.status == "stopped" for row in rows)
    seconds = sum(row.ms for row in rows) / 1000
    nodes = sum(row.nodes for row in rows)
    mean_ms = seconds * 1000 / count if count else 0.0
    rate = nodes / seconds if seconds > 0 else 0.0
    print(
        f"{count} positions, {mismatches} mismatches, {stopped} stopped, "
        f"mean time {mean_ms:.1f} ms, {nodes} nodes, {rate / 1e6:.2f} M nodes/s, "
        f"{threads} thread{'s' if threads > 1 else ''}",
        file=to,
    )


COMMAND = GameCommand("Othello endgames exactly (OBF positions, FFO suite)", _arguments, _run)
"""What ``cli/solve.py`` registers as ``solve othello``."""
