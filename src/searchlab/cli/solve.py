"""``searchlab solve GAME ...``: solve a position exactly.

Each game is a :class:`~searchlab.cli.solve_command.GameCommand` in :data:`GAME_COMMANDS` with
its own arguments; the compiled ones live in their own modules (``solve_connect4``,
``solve_othello``), which import only the shared ``solve_command`` (no import cycle). Argument
errors of a game's own parser become one line and exit code 2, like every other searchlab
error; Ctrl-C stops any of them (one line, exit code 130, from ``cli/main.py``).

  searchlab solve nim 3,4,5 [--misere] [--json]
  searchlab solve tictactoe [MOVES] [--json]
  searchlab solve mnk --m 4 --n 3 --k 3 [MOVES] [--json]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from searchlab.cli import solve_connect4, solve_othello
from searchlab.cli._common import emit_json
from searchlab.cli.solve_command import GameCommand
from searchlab.core.errors import InvalidParameterError, UnknownNameError

__all__ = ["GAME_COMMANDS", "GameCommand", "register"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise (one line, exit 2 through ``main``)."""

    def error(self, message: str) -> NoReturn:
        raise InvalidParameterError(f"{self.prog}: {message}")


# -- nim --------------------------------------------------------------------------------------
def _nim_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("piles", help="pile sizes separated by commas, e.g. 3,4,5")
    parser.add_argument("--misere", action="store_true", help="taking the last counter loses")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def _run_nim(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.sprague_grundy import nim_mover_wins, nim_winning_move
    from searchlab.domains.games.nim import parse_piles

    piles = parse_piles(args.piles)
    wins = nim_mover_wins(piles, misere=args.misere)
    grundy = 0
    for pile in piles:
        grundy ^= pile
    found = nim_winning_move(piles, misere=args.misere)
    move = f"{found[0] + 1}:{found[1]}" if found else None
    after = None
    if found:
        after = list(piles)
        after[found[0]] -= found[1]
    play = "misere" if args.misere else "normal"
    if args.json:
        emit_json(
            {
                "game": "nim",
                "piles": list(piles),
                "misere": args.misere,
                "value": 1 if wins else -1,
                "winner": "player to move" if wins else "opponent",
                "grundy": grundy,
                "move": move,
                "after": after,
            }
        )
        return 0
    print(f"nim {' '.join(map(str, piles))} ({play} play)")
    print(f"winner: the {'player to move' if wins else 'opponent (the player to move loses)'}")
    print(f"grundy value: {grundy} (XOR of the piles)")
    if found:
        print(
            f"winning move: {move} (take {found[1]} from pile {found[0] + 1}, "
            f"leaving {' '.join(map(str, after or []))})"
        )
    else:
        print("winning move: none")
    return 0


# -- tic-tac-toe and m,n,k ----------------------------------------------------------------------
def _mnk_arguments(parser: argparse.ArgumentParser, *, sizes: bool) -> None:
    if sizes:
        parser.add_argument("--m", type=int, default=3, help="columns (default 3)")
        parser.add_argument("--n", type=int, default=3, help="rows (default 3)")
        parser.add_argument("--k", type=int, default=3, help="stones in a row to win")
    parser.add_argument("moves", nargs="*", help="moves played so far, e.g. b2 a1")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def _run_mnk(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.solver import solve
    from searchlab.core.game import play
    from searchlab.domains.games.tictactoe import MNKGame, TicTacToe

    game = MNKGame(args.m, args.n, args.k) if hasattr(args, "m") else TicTacToe()
    state = play(game.initial_state(), args.moves)
    result = solve(game, state)
    mover = "XO"[state.current_player()]
    best = state.action_to_string(result.action) if result.action is not None else None
    values = {
        state.action_to_string(action): value
        for action, value in result.stats["action_values"].items()
    }
    if args.json:
        emit_json(
            {
                "game": game.info.name,
                "moves": " ".join(args.moves),
                "to_move": mover,
                "value": int(result.value),
                "outcome": result.outcome,
                "move": best,
                "plies_to_end": result.plies_to_end,
                "move_values": {move: int(value) for move, value in values.items()},
                "positions": result.stats["positions"],
            }
        )
        return 0
    print(state)
    if state.is_terminal():
        print(f"game over: {result.outcome} for {mover} (the player to move)")
        return 0
    ending = f" in {result.plies_to_end} plies" if result.plies_to_end is not None else ""
    print(f"{mover} to move: {result.outcome}{ending}; best move {best}")
    print("move values: " + " ".join(f"{m}={int(v):+d}" for m, v in values.items()))
    return 0


GAME_COMMANDS: dict[str, GameCommand] = {
    "connect4": solve_connect4.COMMAND,
    "othello": solve_othello.COMMAND,
    "nim": GameCommand("Nim by the XOR rule", _nim_arguments, _run_nim),
    "tictactoe": GameCommand(
        "tic-tac-toe by exhaustive search",
        lambda parser: _mnk_arguments(parser, sizes=False),
        _run_mnk,
    ),
    "mnk": GameCommand(
        "an m,n,k-game by exhaustive search (small boards only)",
        lambda parser: _mnk_arguments(parser, sizes=True),
        _run_mnk,
    ),
}
"""The games ``solve`` knows (a new game: its module builds a ``GameCommand``, listed here)."""


def register(subparsers: Any) -> None:
    """Add ``solve`` to the ``searchlab`` command line."""
    games = "\n".join(f"  {name:<10} {cmd.help}" for name, cmd in GAME_COMMANDS.items())
    parser = subparsers.add_parser(
        "solve",
        help="solve a game position exactly",
        description="Solve a position exactly: the winner, the value and a best move.",
        epilog=f"games:\n{games}\n\nRun `searchlab solve GAME --help` for a game's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help=f"one of: {', '.join(GAME_COMMANDS)}")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the game's arguments")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the game's command."""
    return run_game(args.game, args.arguments)


def run_game(name: str, arguments: Sequence[str]) -> int:
    """Parse ``arguments`` for game ``name`` and solve it."""
    command = GAME_COMMANDS.get(name)
    if command is None:
        raise UnknownNameError(
            f"solve: unknown game {name!r}; known games: {', '.join(GAME_COMMANDS)}"
        )
    parser = _Parser(prog=f"searchlab solve {name}", description=command.help)
    command.add_arguments(parser)
    return command.run(parser.parse_args(list(arguments)))
