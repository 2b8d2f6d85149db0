"""``searchlab gtp --agent SPEC``: searchlab as a Go engine speaking GTP v2 on stdin/stdout.

Any GTP controller (Sabaki, GoGui, a tournament manager, GNU Go's ``twogtp``) can start it as
its engine command: every move it asks for (``genmove``) is chosen by the agent ``--agent``
names (``mcts:time=1,rave=3000``, ``random``, even ``gtp:command=...`` for another engine).

  searchlab gtp --agent mcts:time=1
  searchlab gtp --agent random --size 5 --komi 0.5

This module parses the options and wires stdin and stdout; the engine (the commands, the
board, the time management, the pass and resign rule) is
:class:`searchlab.agents.gtp_engine.GtpServer`, whose docstring says what it answers.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register"]

DESCRIPTION = """\
searchlab as a Go engine speaking GTP v2 (the Go Text Protocol) on stdin and stdout, for any
GTP controller: Sabaki, GoGui, GNU Go's twogtp, a tournament manager. Give the controller the
command line, e.g. `searchlab gtp --agent mcts:time=1`; every move it asks for (genmove) is
chosen by the agent --agent names (any agent spec: mcts:time=1, random, gtp:command=... for
another engine).

Commands: protocol_version name version known_command list_commands quit boardsize
clear_board komi play genmove reg_genmove undo showboard final_score fixed_handicap
time_settings time_left loadsgf. Failures are answered '? message' as the protocol says.

Rules: Chinese area scoring (final_score counts the board as it stands: play dead stones out
first), suicide illegal, positional superko unless --superko says otherwise. With
time_settings and time_left, each genmove gets a share of the time left; without them the
agent uses its own budget. A search agent passes when the opponent has passed and the game
scored now is its win, and resigns (genmove answers resign) with --resign-below V when its
search's value (-1 lost .. +1 won) was below V at two of its moves in a row. The engine ends
at quit or at the end of its input.

examples:
  searchlab gtp --agent mcts:time=1
  searchlab gtp --agent random --size 5 --komi 0.5
  gogui-twogtp -black "gnugo --mode gtp" -white "searchlab gtp --agent mcts:time=1" \\
      -size 9 -komi 7.5 -games 10 -auto -sgffile match
"""


def _run(args: argparse.Namespace) -> int:
    from searchlab.agents.go_endgame import resign_threshold
    from searchlab.agents.gtp_engine import GtpServer, serve

    server = GtpServer(
        args.agent,
        size=args.size,
        komi=args.komi,
        superko=args.superko,
        seed=args.seed,
        resign_below=None if args.resign_below is None else resign_threshold(args.resign_below),
    )
    serve(server, sys.stdin, sys.stdout)
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gtp",
        help="a Go engine for GTP controllers (Sabaki, GoGui): searchlab gtp --agent mcts:time=1",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--agent", required=True, metavar="SPEC", help="the agent that plays, e.g. mcts:time=1"
    )
    parser.add_argument("--size", type=int, default=9, help="board size to start with (5..19)")
    parser.add_argument("--komi", type=float, default=7.5, help="komi to start with")
    parser.add_argument(
        "--superko",
        default="positional",
        choices=("positional", "situational", "simple"),
        help="repetition rule (default positional)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds the agent (default 0)")
    parser.add_argument(
        "--resign-below",
        metavar="V",
        help="genmove answers resign when the search's value (-1 lost .. +1 won) was below V "
        "at two moves in a row, e.g. -0.9 (default: never resign)",
    )
    parser.set_defaults(func=_run)
