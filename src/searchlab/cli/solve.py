"""``searchlab solve GAME ...``: solve a position exactly.

Each game with a command of its own is a :class:`~searchlab.cli.solve_command.GameCommand` in
:data:`GAME_COMMANDS` with its own arguments; the compiled ones live in their own modules
(``solve_connect4``, ``solve_othello``), the plain-Python solver's in ``solve_reference``, each
importing only the shared ``solve_command`` (no import cycle). Every other game that
``searchlab play`` takes (a registered one such as ``kayles``, or your own as ``FILE.py:CLASS``
or ``MODULE:CLASS``) is solved by the plain-Python solver
(:data:`~searchlab.cli.solve_reference.ANY_GAME`, with ``-p NAME=VALUE`` parameters). Argument
errors of a game's own parser become one line and exit code 2, like every other searchlab
error; Ctrl-C stops any of them (one line, exit code 130, from ``cli/main.py``).

  searchlab solve nim 3,4,5 [--misere] [--json]
  searchlab solve tictactoe [MOVES] [--json] [--time S] [--nodes N]
  searchlab solve mnk -p m=4,n=3,k=3 [MOVES] [--json] [--time S] [--nodes N]
  searchlab solve examples/custom_game.py:Subtraction -p counters=10 [MOVES] [--json] ...
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from searchlab.cli import solve_connect4, solve_othello, solve_reference
from searchlab.cli._common import add_json_argument, emit_json
from searchlab.cli.solve_command import GameCommand
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.domains.games.registry import game_names

__all__ = ["GAME_COMMANDS", "GameCommand", "register"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise (one line, exit 2 through ``main``)."""

    def error(self, message: str) -> NoReturn:
        raise InvalidParameterError(f"{self.prog}: {message}")


# -- nim --------------------------------------------------------------------------------------
def _nim_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("piles", help="pile sizes separated by commas, e.g. 3,4,5")
    parser.add_argument("--misere", action="store_true", help="taking the last counter loses")
    add_json_argument(parser)


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


GAME_COMMANDS: dict[str, GameCommand] = {
    "connect4": solve_connect4.COMMAND,
    "othello": solve_othello.COMMAND,
    "nim": GameCommand("Nim by the XOR rule", _nim_arguments, _run_nim),
    "tictactoe": solve_reference.TICTACTOE,
    "mnk": solve_reference.MNK,
}
"""The games with a ``solve`` command of their own (a new one: its module builds a
``GameCommand``, listed here). Every other game that ``make`` builds is solved by
:data:`~searchlab.cli.solve_reference.ANY_GAME`."""


def register(subparsers: Any) -> None:
    """Add ``solve`` to the ``searchlab`` command line."""
    games = "\n".join(f"  {name:<10} {cmd.help}" for name, cmd in GAME_COMMANDS.items())
    others = ", ".join(name for name in game_names() if name not in GAME_COMMANDS)
    parser = subparsers.add_parser(
        "solve",
        help="solve a game position exactly",
        description="Solve a position exactly: the winner, the value and a best move.",
        epilog=(
            f"games:\n{games}\n"
            f"  {'GAME':<10} {solve_reference.ANY_GAME.help}:\n"
            f"  {'':<10} {others}, or yours as FILE.py:CLASS / MODULE:CLASS;\n"
            f"  {'':<10} [MOVES] [-p NAME=VALUE] [--time S] [--nodes N] [--json]\n\n"
            "examples:\n"
            "  searchlab solve connect4 4453\n"
            "  searchlab solve tictactoe b2 a1\n"
            "  searchlab solve kayles -p heaps=4,5\n"
            "  searchlab solve mnk -p m=4,n=3,k=3\n"
            "  searchlab solve examples/custom_game.py:Subtraction -p counters=10 --json\n\n"
            "Run `searchlab solve GAME --help` for a game's options."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "game",
        help=f"one of: {', '.join(GAME_COMMANDS)}; or any other game `searchlab play` takes, "
        "yours too (FILE.py:CLASS, MODULE:CLASS)",
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the game's arguments")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the game's command."""
    return run_game(args.game, args.arguments)


def run_game(name: str, arguments: Sequence[str]) -> int:
    """Parse ``arguments`` for game ``name`` and solve it: by its own command in
    :data:`GAME_COMMANDS`, else by the plain-Python solver for any game ``make`` builds
    (a name that is not a game, or a ``FILE.py:CLASS`` that does not load, is one line)."""
    command = GAME_COMMANDS.get(name)
    epilog = None
    if command is None:
        try:
            epilog = solve_reference.any_game_description(name)  # checks the name
        except UnknownNameError as error:
            raise UnknownNameError(f"solve: {error}") from None
        command = solve_reference.ANY_GAME
    description = command.help
    if epilog is not None:
        description = f"Solve a position of {name} exactly by the plain-Python solver."
    parser = _Parser(prog=f"searchlab solve {name}", description=description, epilog=epilog)
    command.add_arguments(parser)
    parser.set_defaults(game=name)
    return command.run(parser.parse_args(list(arguments)))
