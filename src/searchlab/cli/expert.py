"""``searchlab expert go``: expert games no one here wrote, GNU Go playing itself, SGF out.

  searchlab expert go --games 1000 --out expert9             (level 1, komi 7.5, every core)
  searchlab expert go --games 200 --level 10 --workers 4 --out strong9 --seed 7

Each game starts with --opening random legal moves drawn from --seed and the game's number,
then GNU Go (a fresh process for each colour, --level, --komi) plays both sides to the end;
the result is GNU Go's count. One SGF file a game in --out, named by a hash of its moves, so a
game is stored once (a duplicate is refused and counted). The folder is read first (a
malformed or foreign-size SGF there is one line naming it), and every SGF in it counts towards
--games: the same command run again goes on where it stopped, or does nothing when the folder
is full. Ctrl-C (or SIGTERM) stops at once with one line (exit 130 / 143), keeping every whole
game; a kill leaves whole files only. A GNU Go that is missing or dies is one line (exit 2), and
what is stored stays. Read the folder with
searchlab.learning.alphago.expert_games.load_expert_games.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from searchlab.cli._common import add_command, output_folder, positive_int, progress, worker_count

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``expert`` to the ``searchlab`` command line."""
    paragraphs = __doc__.split("\n\n")
    parser = add_command(
        subparsers,
        "expert",
        "expert games of Go played by GNU Go, one SGF a game (resumable, parallel)",
        paragraphs[0].split(": ", 1)[1],
        "examples:\n" + paragraphs[1] + "\n\n" + "\n\n".join(paragraphs[2:]).strip(),
    )
    parser.add_argument("game", choices=["go"], help="the game (Go only: GNU Go plays it)")
    parser.add_argument("--games", type=positive_int, required=True, help="games the folder holds")
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder of SGF files")
    parser.add_argument("--level", type=int, default=1, help="GNU Go's --level, 0..10 (default 1)")
    parser.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    parser.add_argument("--size", type=int, default=9, help="board size, 5..19 (default 9)")
    parser.add_argument(
        "--opening",
        type=int,
        default=4,
        metavar="PLIES",
        help="random legal moves that start each game (default 4)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the games' plans (default 0)")
    parser.add_argument(
        "--workers", type=worker_count, default=None, help="games at once (default: the cores)"
    )
    parser.add_argument(
        "--gnugo", default="gnugo", metavar="PROGRAM", help="GNU Go's program (default gnugo)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the options, then play the games the folder lacks (see the module docstring)."""
    from searchlab.core.interrupts import StopSignals, exit_code, signal_name
    from searchlab.learning.alphago.go_expert import (
        ExpertOptions,
        ExpertReport,
        generate_expert_games,
    )

    extra = {} if args.workers is None else {"workers": args.workers}
    options = ExpertOptions(
        games=args.games,
        level=args.level,
        komi=args.komi,
        size=args.size,
        opening=args.opening,
        seed=args.seed,
        gnugo=args.gnugo,
        **extra,
    )
    folder = output_folder(args.out, "--out")
    with StopSignals() as signals, progress(options.games, "games") as advance:
        shown = 0

        def show(report: ExpertReport) -> None:
            nonlocal shown
            advance(report.stored - shown)
            shown = report.stored

        report = generate_expert_games(
            options,
            folder,
            should_stop=lambda: signals.received is not None,
            on_progress=show,
        )
    counts = f"{report.added} added, {report.duplicates} duplicates refused"
    if report.stopped and signals.received is not None:
        print(
            f"searchlab: interrupted ({signal_name(signals.received)}): {report.stored} of "
            f"{options.games} games stored in {folder} ({counts}); run the same command again "
            "to go on",
            file=sys.stderr,
        )
        return exit_code(signals.received)
    print(f"{report.stored} games in {folder} ({counts})")
    return 0
