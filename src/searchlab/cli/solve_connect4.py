"""``searchlab solve connect4``: exact Connect Four scores (Pons' convention) by the compiled
solver, for one position or a file of Pons' test positions.

  searchlab solve connect4 4453 [--json]
  searchlab solve connect4 --positions Test_L2_R1 [--limit N] [--json]

A positions file has one ``<moves> <score>`` per line (moves: 1-based columns from the empty
board; score: the expected exact score for the player to move). Each line prints the moves,
the computed score, the expected score, the nodes searched and the time; a summary follows
(mismatches, mean time, nodes per second). ``--json`` prints one object per position (``moves``,
``score``, ``expected``, ``nodes``, ``ms``, ``ok``) and the summary on stderr. Exit code 1 when
a score differs from the expected one, 2 for bad input (one line, ``FILE:LINE`` quoted).

``COMMAND`` (a :class:`~searchlab.cli.solve.GameCommand`) is what ``cli/solve.py`` registers;
it is built on first access because ``cli/solve.py`` imports this module while it is itself
being imported.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from searchlab.cli._common import emit_json, positive_int, progress
from searchlab.core.errors import InvalidParameterError, SearchlabError

if TYPE_CHECKING:
    from searchlab.cli.solve import GameCommand
    from searchlab.domains.games.connect4 import Connect4State

    COMMAND: GameCommand

__all__ = ["COMMAND", "Connect4Position", "read_positions"]

HELP = "Connect Four 7x6: exact score (Pons) and best move; --positions for Pons' test files"


@dataclass(frozen=True, slots=True)
class Connect4Position:
    """One line of a positions file: where it came from, the moves, the parsed state and the
    expected score."""

    where: str
    moves: str
    state: Connect4State
    expected: int


def read_positions(path: Path, limit: int | None = None) -> list[Connect4Position]:
    """Read and check Pons' ``<moves> <score>`` lines (all of them, or the first ``limit``;
    blank lines are skipped). Raises ``IllegalMoveError``/``InvalidParameterError``/
    ``InvalidStateError`` quoting ``FILE:LINE`` and the line.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
    ...     _ = handle.write("4455 18\\n44455554221 -15\\n")
    >>> [(p.moves, p.expected) for p in read_positions(Path(handle.name))]
    [('4455', 18), ('44455554221', -15)]
    >>> os.unlink(handle.name)
    """
    from searchlab.domains.games.connect4 import parse_moves

    positions: list[Connect4Position] = []
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            if limit is not None and len(positions) >= limit:
                break
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            where = f"{path}:{number}"
            fields = line.split()
            if len(fields) != 2:
                raise InvalidParameterError(f"{where}: expected '<moves> <score>', got {line!r}")
            moves, score_text = fields
            try:
                expected = int(score_text)
            except ValueError:
                raise InvalidParameterError(
                    f"{where}: the score {score_text!r} is not an integer in {line!r}"
                ) from None
            try:
                state = parse_moves(moves)
            except SearchlabError as error:
                raise type(error)(f"{where}: {error}") from None
            if state.is_terminal():
                raise _game_over(state, where)
            positions.append(Connect4Position(where, moves, state, expected))
    return positions


def _game_over(state: Connect4State, where: str) -> SearchlabError:
    from searchlab.core.errors import InvalidStateError

    outcome = "a draw" if not state.is_won else f"{'XO'[1 - state.current_player()]} won"
    return InvalidStateError(
        f"{where}: position {state.moves!r}: the game is already over ({outcome})"
    )


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "moves", nargs="?", default=None, help="moves from the empty board, e.g. 4453 ('' = empty)"
    )
    parser.add_argument("--positions", type=Path, help="a file of '<moves> <score>' lines (Pons)")
    parser.add_argument("--limit", type=positive_int, help="only the first N positions")
    parser.add_argument("--json", action="store_true", help="JSON lines on stdout")
    parser.add_argument(
        "--table-log2", type=int, default=23, help="transposition table: 2**N slots (default 23)"
    )


def _run(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, warm_up

    if (args.moves is None) == (args.positions is None):
        raise InvalidParameterError(
            "searchlab solve connect4: give either MOVES (e.g. 4453) or --positions FILE"
        )
    if args.positions is None and args.limit is not None:
        raise InvalidParameterError("searchlab solve connect4: --limit needs --positions FILE")
    solver = Connect4Solver(table_log2=args.table_log2)
    if args.positions is not None:
        positions = read_positions(args.positions, args.limit)
        warm_up()  # compile (or load) the kernels outside the timings
        return _run_positions(solver, positions, args.json)
    return _run_single(solver, args.moves, args.json)


def _run_single(solver: Any, moves: str, as_json: bool) -> int:
    from searchlab.algorithms.adversarial.connect4_solver import warm_up
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(moves)
    if state.is_terminal():
        raise _game_over(state, "solve connect4")
    warm_up()
    result = solver.solve(state)
    score = result.score
    mover = "XO"[state.current_player()]
    best = state.action_to_string(result.action)
    if as_json:
        emit_json(
            {
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
        )
        return 0
    print(state)
    print(f"{mover} to move: score {score:+d} ({_describe(score, state)}); best move {best}")
    print(f"{result.nodes} nodes, {result.elapsed * 1000:.3f} ms")
    return 0


def _describe(score: int, state: Connect4State) -> str:
    if score == 0:
        return "draw"
    if score > 0:
        return f"wins with their stone no. {22 - score}, in {_plies(score, state)} plies"
    return f"loses to the opponent's stone no. {22 + score}, in {_plies(score, state)} plies"


def _plies(score: int, state: Connect4State) -> int | None:
    from searchlab.algorithms.adversarial.connect4_solver import plies_to_end

    return plies_to_end(score, state.num_moves)


def _run_positions(solver: Any, positions: list[Connect4Position], as_json: bool) -> int:
    mismatches, total_nodes, total_time = 0, 0, 0.0
    rows = []
    with progress(len(positions), "connect4") as advance:
        for position in positions:
            result = solver.solve(position.state, find_move=False)
            score = result.score
            ok = score == position.expected
            mismatches += not ok
            total_nodes += result.nodes
            total_time += result.elapsed
            ms = result.elapsed * 1000
            if as_json:
                emit_json(
                    {
                        "moves": position.moves,
                        "score": score,
                        "expected": position.expected,
                        "nodes": result.nodes,
                        "ms": round(ms, 4),
                        "ok": ok,
                    }
                )
            else:
                mark = "" if ok else "  MISMATCH"
                rows.append(
                    f"{position.moves} {score} {position.expected} {result.nodes} {ms:.3f} ms{mark}"
                )
                print(rows[-1])
            advance()
    count = len(positions)
    mean_ms = total_time * 1000 / count if count else 0.0
    rate = total_nodes / total_time if total_time > 0 else 0.0
    mean_nodes = total_nodes / count if count else 0.0
    summary = (
        f"{count} positions, {mismatches} mismatches, mean {mean_ms:.3f} ms, "
        f"mean {mean_nodes:.1f} nodes, {rate:,.0f} nodes/s"
    )
    if as_json:
        import sys

        print(summary, file=sys.stderr)
    else:
        print(summary)
    return 1 if mismatches else 0


def __getattr__(name: str) -> Any:
    if name == "COMMAND":
        from searchlab.cli.solve import GameCommand

        command = GameCommand(HELP, _arguments, _run)
        globals()["COMMAND"] = command
        return command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
