"""``searchlab perft GAME --depth D [--divide]``: count the move sequences of D plies.

  searchlab perft tictactoe --depth 9                 # 127872
  searchlab perft nim -p piles=3,4,5 --depth 3 --divide
  searchlab perft mnk -p m=4 -p n=4 -p k=3 --depth 4 --moves "b2 c3" --expect 9240

With ``--expect N`` a mismatch prints the per-move divide and exits with 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from searchlab.cli._common import add_param_argument, emit_json
from searchlab.core.errors import InvalidParameterError
from searchlab.core.text_file import read_text
from searchlab.domains.games.params_text import param_from_text, split_params

__all__ = ["parse_param", "parse_params", "register"]


def parse_param(text: str) -> tuple[str, Any]:
    """``"piles=3,4,5"`` -> ``("piles", (3, 4, 5))``; ``"m=4"`` -> ``("m", 4)``; other values
    stay strings (the rule of :mod:`searchlab.domains.games.params_text`). ``NAME=@FILE`` gives
    the text of FILE (Snake Go's ``items=@items.txt``); a missing or unreadable file is the
    command's one-line error.

    >>> parse_param("piles=3,4,5"), parse_param("m=4"), parse_param("misere=true")
    (('piles', (3, 4, 5)), ('m', 4), ('misere', True))
    """
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise InvalidParameterError(f"-p expects NAME=VALUE, got {text!r}")
    if value.startswith("@"):
        if value == "@":
            raise InvalidParameterError(f"-p {name}=@FILE needs a file name, got {text!r}")
        try:
            return name, read_text(value[1:])
        except InvalidParameterError:
            raise
        except ValueError:  # a NUL in the name
            raise InvalidParameterError(f"-p {name}=@FILE: bad file name {value[1:]!r}") from None
    return param_from_text(text)


def parse_params(texts: Sequence[str]) -> dict[str, Any]:
    """The game parameters of every ``-p``: each one ``NAME=VALUE`` or several joined by
    commas (``m=7,n=6,k=4``), read by :func:`parse_param`; a name given again wins.

    >>> parse_params(["m=7,n=6,k=4"])
    {'m': 7, 'n': 6, 'k': 4}
    >>> parse_params(["piles=3,4,5,misere=true"])
    {'piles': (3, 4, 5), 'misere': True}
    """
    params: dict[str, Any] = {}
    for text in texts:
        parts = [text] if text.partition("=")[2].startswith("@") else split_params(text)
        for part in parts:
            name, value = parse_param(part)
            params[name] = value
    return params


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
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
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
