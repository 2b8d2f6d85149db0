"""Entry point of the ``searchlab`` command: one subcommand per module of this package.

Every subcommand module exposes ``register(subparsers)``, which adds its parser and sets
``func`` to a function ``(args) -> int`` (the exit code). Errors that searchlab raises on
purpose (:class:`~searchlab.core.errors.SearchlabError`), unreadable or unwritable files, running
out of memory and a missing optional package of the ``cli`` extra become one line on stderr and
exit code 2, never
a traceback; so does an exception raised by the code of a game of your own (``FILE.py:CLASS``,
``MODULE:CLASS``; :mod:`searchlab.domains.games.own_game`: what it raised, and where in your
file).
Ctrl-C is one line and exit code 130.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from types import FrameType
from typing import NoReturn

from searchlab.cli._common import EXTRA_HINT
from searchlab.core.errors import SearchlabError

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "interrupts", "main"]

# Subcommand modules, in the order `searchlab --help` lists them.
SUBCOMMANDS = (
    "play", "analyse", "path", "puzzle", "solve", "book", "perft", "tree", "exercise", "arena",
    "serve", "gtp", "train", "expert", "warmup",
)  # fmt: skip

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
  searchlab play snakego -p size=8 -p rounds=30    (one snake action a prompt: up, split, ...)
  searchlab arena snakego mcts:time=0.2 greedy --matches 10 -p size=10 -p rounds=60
  searchlab warmup                               (compile every game's kernels, once)
  searchlab expert go --games 100 --out expert9  (GNU Go plays itself: SGF games to learn from)

Run `searchlab COMMAND --help` for the options of one command.
"""

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a process killed by it


# Optional packages of the 'cli' extra, by the module name Python reports when it is missing:
# a command that reaches one without the extra is one line naming the extra, never a traceback.
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
    """Run the command line; returns the exit code (also used by ``python -m searchlab``).

    Ctrl-C (SIGINT) anywhere, from parsing to the last line of output, is one line
    (``searchlab: interrupted``) and exit code 130 (see :func:`interrupts`).
    """
    command = "searchlab"
    game = None
    try:
        with interrupts():
            parser = build_parser()
            args = parser.parse_args(argv)
            if args.command is None:
                parser.print_help()
                return EXIT_USAGE
            command = f"searchlab {args.command}"
            game = getattr(args, "game", None)
            return int(args.func(args))
    except KeyboardInterrupt:
        return _interrupted()
    except SearchlabError as error:
        return _fail(str(error))
    except ImportError as error:
        module = (error.name or "").split(".")[0]
        if module not in CLI_EXTRA_MODULES:
            raise
        return _fail(f"{command!r} needs the cli extra ({module} is not installed): {EXTRA_HINT}")
    except FileNotFoundError as error:
        return _fail(f"no such file: {error.filename}")
    except IsADirectoryError as error:
        return _fail(f"is a directory, not a file: {error.filename}")
    except NotADirectoryError as error:
        return _fail(f"not a directory: {error.filename}")
    except PermissionError as error:
        return _fail(f"permission denied: {error.filename}")
    except UnicodeDecodeError as error:
        return _fail(f"not a text file ({error.reason})")
    except MemoryError:  # a size or count the machine cannot hold, asked for by the user
        return _fail("not enough memory for what was asked (a size or a count too large?)")
    except BrokenPipeError:
        # the reader went away (``searchlab ... | head``): nothing more to say to it
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return _fail(f"{error.strerror or error}{where}")
    except SystemError as error:
        if not _interrupted_inside(error):
            raise
        return _interrupted()
    except Exception as error:
        from searchlab.domains.games.own_game import own_game_failure, raised_in_game

        if not raised_in_game(error, str(game)):
            raise  # a bug in searchlab, not in a game of your own: the traceback is for us
        return _fail(str(own_game_failure(error, str(game), command.removeprefix("searchlab "))))


def _interrupted_inside(error: BaseException) -> bool:
    """Whether ``error`` was caused by Ctrl-C: a ``KeyboardInterrupt`` raised while a compiled
    kernel was handing a result back (numba wraps it in ``SystemError``s, one per frame)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


@contextmanager
def interrupts() -> Iterator[None]:
    """While a command runs, SIGINT (Ctrl-C) raises ``KeyboardInterrupt`` in the main thread,
    which :func:`main` turns into one line and exit code 130.

    Installed explicitly, so that Ctrl-C works even when the process inherited SIGINT as
    ignored (a shell's background job, some process supervisors). Python runs the handler
    between bytecodes: compiled kernels therefore run in slices (IDA*, the MCTS kernels, the
    endgame solvers) so that the interrupt is taken within a fraction of a second.
    """

    def interrupt(number: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread (main() called from a thread): leave it alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted() -> int:
    previous = None
    with suppress(ValueError):  # a second Ctrl-C while saying so would be a traceback
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with suppress(OSError, ValueError):
            if sys.stdout.isatty():  # end a prompt or a line cut short, on the terminal only
                print(file=sys.stdout)
            sys.stdout.flush()
        print("searchlab: interrupted", file=sys.stderr)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return EXIT_INTERRUPTED


def _silence_stdout() -> None:
    with suppress(OSError, ValueError):  # also when stdout is not a real file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _fail(message: str) -> int:
    print(f"searchlab: error: {message}", file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
