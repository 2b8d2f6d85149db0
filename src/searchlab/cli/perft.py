"""``searchlab perft GAME --depth D [--divide]``: count the move sequences of D plies.

  searchlab perft tictactoe --depth 9                 # 127872
  searchlab perft nim -p piles=3,4,5 --depth 3 --divide
  searchlab perft mnk -p m=4 -p n=4 -p k=3 --depth 4 --moves "b2 c3" --expect 9240

With ``--expect N`` a mismatch prints the per-move divide and exits with 1.
"""

from __future__ import annotations

import argparse
from typing import Any

from searchlab.cli._common import add_json_argument, add_param_argument, emit_json, parse_params
from searchlab.core.errors import InvalidParameterError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``perft`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "perft",
        help="count the leaves of a game tree by depth (move-generator check)",
        description="Count the move sequences of exactly D plies (finished games not extended).",
    )
    parser.add_argument(
        "game",
        help="a registered game (nim, tictactoe, mnk, kayles, ...) or your own as "
        "FILE.py:CLASS or MODULE:CLASS",
    )
    parser.add_argument(
        "--depth", type=int, required=True, help="plies (1 .. the game's longest game)"
    )
    parser.add_argument("--divide", action="store_true", help="counts per first move")
    add_param_argument(parser, "piles=3,4,5 or m=4")
    parser.add_argument("--moves", default="", help="moves to play first, e.g. 'b2 a1'")
    parser.add_argument("--expect", type=int, help="expected count: mismatch -> divide, exit 1")
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Count and print."""
    from searchlab.core.game import play
    from searchlab.domains.games import make
    from searchlab.domains.games.perft import divide, perft, perft_mismatch_report

    if args.depth <= 0:
        raise InvalidParameterError(f"--depth must be >= 1, got {args.depth}")
    if args.expect is not None and args.expect < 0:
        raise InvalidParameterError(f"--expect is a count of leaves, >= 0, got {args.expect}")
    game = make(args.game, **parse_params(args.param))
    longest = game.info.max_game_length
    if longest is not None and args.depth > longest:  # would count 0, for ever on some games
        raise InvalidParameterError(
            f"--depth {args.depth} is past the longest game of {args.game} ({longest} plies): "
            "no move sequence is that long"
        )
    state = play(game.initial_state(), args.moves)
    counts = divide(state, args.depth) if args.divide else None
    total = sum(counts.values()) if counts is not None else perft(state, args.depth)
    if args.json:
        emit_json({"game": args.game, "depth": args.depth, "leaves": total, "divide": counts})
    else:
        for move, count in (counts or {}).items():
            print(f"{move} {count}")
        print(total)
    if args.expect is not None and total != args.expect:
        report = perft_mismatch_report(state, args.depth, args.expect)
        import sys

        print(report, file=sys.stderr)
        return 1
    return 0
