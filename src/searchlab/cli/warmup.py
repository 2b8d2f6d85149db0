"""``searchlab warmup [GAME...]``: compile ahead every kernel a game's searches run.

  searchlab warmup                  (every built-in game: about a minute or two, once)
  searchlab warmup connect4 go
  searchlab warmup examples/breakthrough.py:Breakthrough

Numba compiles searchlab's kernels on their first use and keeps them on disk, so this is
needed once per machine (after an install or an upgrade), never for correct timings: every
search loads or compiles its kernels before its clock starts, saying so in one line when that
takes long. One line a game: what it compiled and how long it took (a second or less when
already compiled). GAME may be ``FILE.py:CLASS`` or ``MODULE:CLASS`` for a game of your own.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``warmup`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "warmup",
        help="compile every game's kernels ahead (once per machine, after an install)",
        description=__doc__.split("\n\n", 1)[0].split(": ", 1)[1],
        epilog="examples:\n"
        + "\n".join(__doc__.split("\n\n")[1].splitlines())
        + "\n\n"
        + __doc__.split("\n\n")[2].strip(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="games to compile for (default: every built-in game)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build every named game first (a bad name is one line before any compiling), then
    warm each, one line a game; a game of your own whose code raises is one line naming its
    file and line, as in every command."""
    from searchlab.algorithms.mcts import compile_notice
    from searchlab.algorithms.warmup import warm_up_game
    from searchlab.domains.games import make
    from searchlab.domains.games.own_game import own_game_failure, raised_in_game
    from searchlab.domains.games.registry import game_names

    names = list(args.games) or game_names()
    games = [(name, make(name)) for name in names]
    saved = compile_notice.notice
    compile_notice.notice = None  # this command's own line says it
    try:
        for name, game in games:
            print(f"{name}: compiling...", end="", flush=True)
            began = time.perf_counter()
            try:
                done = warm_up_game(game)
            except Exception as error:
                if not raised_in_game(error, name):
                    raise  # searchlab's own bug: the traceback is for us
                print(flush=True)  # the line begun above ends; the error is said on stderr
                raise own_game_failure(error, name, "warmup") from None
            print(f" ready in {time.perf_counter() - began:.1f} s ({', '.join(done)})", flush=True)
    finally:
        compile_notice.notice = saved
    return 0
