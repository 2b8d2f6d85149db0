"""Entry point of the ``searchlab`` command: one subcommand per module of this package.

Every subcommand module exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a function ``(args) -> int`` (the exit code). Errors that searchlab raises on
purpose (:class:`~searchlab.core.errors.SearchlabError`) and unreadable files become one line
on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from searchlab.core.errors import SearchlabError

__all__ = ["build_parser", "main"]

# Subcommand modules, in the order `searchlab --help` lists them.
SUBCOMMANDS = ("play", "analyse", "path", "puzzle", "solve", "perft", "tree", "arena")

EPILOG = """\
examples:
  searchlab play connect4                        (you against MCTS; type a column 1..7)
  searchlab play tictactoe --first alphabeta --second mcts:simulations=2000
  searchlab analyse connect4 4453 --agent mcts:simulations=20000
  searchlab path examples/maps/den312d.map --from 59,5 --to 63,76 --png den312d.png
  searchlab path examples/maps/arena.map --scen examples/maps/arena.map.scen --algorithm jps
  searchlab puzzle "8 6 7 2 5 4 3 0 1"
  searchlab solve connect4 --positions FILE     (Pons' format: moves score)
  searchlab solve othello --obf FILE            (Edax OBF lines)
  searchlab solve nim 3,4,5
  searchlab perft othello --depth 6
  searchlab tree examples/trees/aima_fig5_2.tree --alphabeta
  searchlab arena tictactoe random greedy alphabeta:depth=4 --games 20 --db t.sqlite

Run `searchlab COMMAND --help` for the options of one command.
"""

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


# Optional packages of the 'cli' extra, by the module name Python reports when it is missing.
CLI_EXTRA_MODULES = frozenset({"rich", "PIL"})


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (and exit code 2), no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = OneLineParser(
        prog="searchlab",
        description=(
            "Classical AI search: path finding and puzzles (A*, JPS, IDA*, ...) and "
            "two-player games (minimax, alpha-beta, exact solvers, Monte Carlo tree search); "
            "play against the AI, analyse positions, run tournaments."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from searchlab import __version__

    parser.add_argument("--version", action="version", version=f"searchlab {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"searchlab.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used by ``python -m searchlab``)."""
    try:
        parser = build_parser()
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] not in CLI_EXTRA_MODULES:
            raise
        return _fail(
            f"{error.name} is not installed; the command line needs the 'cli' extra: "
            "pip install 'searchlab[cli]'"
        )
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except SearchlabError as error:
        return _fail(str(error))
    except FileNotFoundError as error:
        return _fail(f"no such file: {error.filename}")
    except IsADirectoryError as error:
        return _fail(f"is a directory, not a file: {error.filename}")
    except PermissionError as error:
        return _fail(f"permission denied: {error.filename}")
    except UnicodeDecodeError as error:
        return _fail(f"not a text file ({error.reason})")
    except KeyboardInterrupt:
        print("searchlab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _fail(message: str) -> int:
    print(f"searchlab: error: {message}", file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
