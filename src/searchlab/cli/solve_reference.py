"""``searchlab solve`` by the plain-Python solver: tic-tac-toe, m,n,k-games, and any other game
``searchlab play`` takes (a registered game without a solve command of its own, such as
``kayles``, or a game of your own as ``FILE.py:CLASS`` or ``MODULE:CLASS``).

  searchlab solve tictactoe [MOVES] [--json] [--time S] [--nodes N]
  searchlab solve mnk -p m=4,n=3,k=3 [MOVES] [--json] [--time S] [--nodes N]
  searchlab solve examples/custom_game.py:Subtraction [MOVES] [-p counters=10] [--json] ...

The solver is the reference tier of ``solve``
(:class:`~searchlab.algorithms.adversarial.solver.Solver`): every distinct position is solved
once, so a game is practical while its positions fit in memory. It prints the position, the
outcome for the player to move (win, loss or draw, with the plies to the end under best play:
the winner hurries, the loser delays), a best move, every move's value (in the units of the
game's ``returns()``) and the positions solved. ``--json`` prints one object: ``game``,
``moves``, ``to_move``, ``player``, ``value``, ``outcome``, ``move``, ``plies_to_end``,
``move_values``, ``positions``, ``ms``.

``--time S`` and ``--nodes N`` (most distinct positions) stop an unfinished solve: it then
says so (JSON: ``"stopped_by"``, ``"value": null``, ``"outcome": "unknown"``) and the exit code
is 1. Ctrl-C stops it at once (one line, exit code 130): the solver is plain Python in the main
thread, which takes the interrupt between two bytecodes. Bad input (an unknown game, a file or
class that does not load, a bad ``-p``, an illegal move, a line of play deeper than Python's
recursion allows, an error raised by your own game's code) is one line and exit code 2.
"""

from __future__ import annotations

import argparse
import inspect
import math
import sys
from typing import Any

from searchlab.algorithms.adversarial.solver import solve_within
from searchlab.cli._common import add_json_argument, add_param_argument, emit_json, positive_int
from searchlab.cli.solve_command import GameCommand
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.own_game import is_own_game, own_game_failure

__all__ = ["ANY_GAME", "MNK", "TICTACTOE", "any_game_description"]


# -- the arguments ------------------------------------------------------------------------------
def _position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", help="moves played so far, e.g. b2 a1 (or 'b2 a1')")
    parser.add_argument(
        "--time", type=float, metavar="S", help="stop after S seconds (then: not solved, exit 1)"
    )
    parser.add_argument(
        "--nodes",
        type=positive_int,
        metavar="N",
        help="stop before solving more than N distinct positions (then: not solved, exit 1)",
    )
    add_json_argument(parser)


def _tictactoe_arguments(parser: argparse.ArgumentParser) -> None:
    _position_arguments(parser)


def _mnk_arguments(parser: argparse.ArgumentParser) -> None:
    _position_arguments(parser)
    add_param_argument(parser, "m=4,n=3,k=3 (columns, rows, stones in a row; default 3 each)")
    for name in "mnk":  # the older spelling --m 4 --n 3 --k 3, kept working
        parser.add_argument(f"--{name}", type=int, default=None, help=argparse.SUPPRESS)


def _any_game_arguments(parser: argparse.ArgumentParser) -> None:
    _position_arguments(parser)
    add_param_argument(parser, "counters=10")


def any_game_description(name: str) -> str:
    """The epilog of ``searchlab solve NAME --help`` for a game without a solve command of its
    own: its parameters and defaults. Raises ``UnknownNameError`` / ``InvalidParameterError``
    (one line) for a name that is not a game.

    >>> any_game_description("mnk")
    'parameters (-p NAME=VALUE; defaults after =): m=3, n=3, k=3'
    """
    from searchlab.domains.games.registry import game_parameters

    parameters = game_parameters(name)
    if not parameters:
        return "parameters: none"
    shown = [
        key if default is inspect.Parameter.empty else f"{key}={default!r}"
        for key, default in parameters.items()
    ]
    return "parameters (-p NAME=VALUE; defaults after =): " + ", ".join(shown)


# -- the commands -------------------------------------------------------------------------------
def _run_tictactoe(args: argparse.Namespace) -> int:
    from searchlab.domains.games.tictactoe import TicTacToe

    return _solve_and_report(TicTacToe(), args, sides="XO")


def _run_mnk(args: argparse.Namespace) -> int:
    from searchlab.cli._common import parse_params
    from searchlab.domains.games.registry import make

    params = parse_params(args.param)
    for name in "mnk":
        old = getattr(args, name)
        if old is not None:
            if name in params:
                raise InvalidParameterError(f"give {name} once: -p {name}=... or --{name}")
            params[name] = old
    return _solve_and_report(make("mnk", **params), args, sides="XO")


def _run_any_game(args: argparse.Namespace) -> int:
    from searchlab.cli._common import parse_params
    from searchlab.domains.games.registry import make

    game = make(args.game, **parse_params(args.param))
    return _solve_and_report(game, args, sides=None, name=args.game)


TICTACTOE = GameCommand("tic-tac-toe by exhaustive search", _tictactoe_arguments, _run_tictactoe)
"""``solve tictactoe``."""

MNK = GameCommand(
    "an m,n,k-game by exhaustive search (small boards only)", _mnk_arguments, _run_mnk
)
"""``solve mnk``."""

ANY_GAME = GameCommand(
    "any other game by the plain-Python solver (each distinct position solved once)",
    _any_game_arguments,
    _run_any_game,
)
"""``solve NAME`` for every game without a command of its own (``args.game`` names it)."""


# -- solving under limits --------------------------------------------------------------------------
def _checked_solve(
    game: Game, state: State, args: argparse.Namespace, name: str | None
) -> SearchResult:
    """:func:`~searchlab.algorithms.adversarial.solver.solve_within` under ``--time`` and
    ``--nodes``, with a too-deep game, and any error raised by a game of your own,
    turned into one line."""
    where = f"solve {name or game.info.name}"
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise InvalidParameterError(
            f"{where}: --time must be > 0 seconds (a finite number), got {args.time}"
        )
    try:
        limited = args.time is not None or args.nodes is not None
        return solve_within(
            game, state, Limits(time=args.time, nodes=args.nodes) if limited else None
        )
    except RecursionError:
        raise InvalidParameterError(
            f"{where}: the game is too long for the plain-Python solver (its search went "
            f"deeper than Python's recursion limit, {sys.getrecursionlimit()} calls)"
        ) from None
    except SearchlabError:
        raise
    except Exception as error:
        if name is None or not is_own_game(name):
            raise  # a bug in searchlab's own game: the traceback is for us
        raise own_game_failure(error, name, "solve", "while solving") from None


# -- the report ---------------------------------------------------------------------------------
def _number(value: float) -> int | float:
    """A value as JSON shows it: whole numbers as integers."""
    return int(value) if float(value).is_integer() else float(value)


def _signed(value: float) -> str:
    number = _number(value)
    return f"{number:+d}" if isinstance(number, int) else f"{number:+g}"


def _outcome(value: float | None) -> str:
    if value is None:
        return "unknown"
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def _solve_and_report(
    game: Game, args: argparse.Namespace, *, sides: str | None, name: str | None = None
) -> int:
    """Solve the position after ``args.moves`` and print it; 0, or 1 when a limit stopped
    the solve."""
    from searchlab.domains.games.move_list import position_from_moves

    moves = " ".join(args.moves)
    state = position_from_moves(game, moves)
    result = _checked_solve(game, state, args, name)
    player = state.current_player()
    mover = sides[player] if sides else f"player {player}"
    best = state.action_to_string(result.action) if result.action is not None else None
    values = {
        state.action_to_string(action): value
        for action, value in result.stats["action_values"].items()
    }
    value = None if result.stopped_by else result.value
    outcome = _outcome(value)
    plies = result.plies_to_end if value else None  # a draw has no plies to the end
    if args.json:
        report: dict[str, Any] = {
            "game": name or game.info.name,
            "moves": moves,
            "to_move": mover,
            "player": player,
            "value": None if value is None else _number(value),
            "outcome": outcome,
            "move": best,
            "plies_to_end": plies,
            "move_values": {move: _number(value) for move, value in values.items()},
            "positions": result.nodes,
            "ms": round(result.elapsed * 1000, 3),
        }
        if result.stopped_by:
            report["stopped_by"] = result.stopped_by
        emit_json(report)
        return 1 if result.stopped_by else 0
    print(state)
    if result.stopped_by:
        print(
            f"{mover} to move: not solved (stopped by --{result.stopped_by} after "
            f"{result.nodes} positions, {result.elapsed:.1f} s)"
        )
        return 1
    if state.is_terminal():
        print(f"game over: {outcome} for {mover} (the player to move)")
        return 0
    ending = f" in {plies} plies" if plies is not None else ""
    print(f"{mover} to move: {outcome}{ending}; best move {best}")
    print("move values: " + " ".join(f"{m}={_signed(v)}" for m, v in values.items()))
    print(f"{result.nodes} positions solved, {result.elapsed * 1000:.1f} ms")
    return 0
