"""``searchlab analyse GAME --positions FILE --agent SPEC [--json]``: every position of a file.

  searchlab analyse connect4 --positions Test_L1_R2 --agent az:checkpoint=runs/c4 --json
  searchlab analyse tictactoe --positions lines.txt --agent alphabeta:depth=9

Each line of FILE is a position: Pons' format ``MOVES SCORE`` (the moves from the start and the
exact score for the player to move, as in Pascal Pons' Connect Four test sets), or a move string
in the game's notation (what ``analyse GAME MOVES`` takes: ``4453``, ``a1 b2``, ``f5d6c3``).
Blank lines and lines starting with ``#`` are skipped. ``--positions-format auto`` (the
default) reads a line as Pons' when it is two words, the second a whole number, and the first
a position on its own; ``pons`` or ``moves`` says which for every line.

Every position is read and checked first (a bad move, a finished game: one line naming the file
and line, nothing searched), then the agent (reset before each, so each is a fresh game) searches
each in turn. ``--json`` prints one JSON object per position, one per line, as soon as it is
searched: ``file``, ``line``, ``position``, ``score`` (Pons' lines), ``agent``, and the search's
``action`` (the move chosen, in the game's notation), ``value``, ``children`` (visits, values,
and the network's priors for ``az``/``policy``), ``nodes`` or ``simulations``, ``seconds``.
Without ``--json``, one line of text per position.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from searchlab.cli._common import emit_json
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.text_file import read_text
from searchlab.domains.games.position_files import POSITION_FORMATS, parse_positions

__all__ = ["add_positions_arguments", "read_positions", "run_positions"]



def add_positions_arguments(parser: argparse.ArgumentParser) -> None:
    """``--positions FILE`` and ``--positions-format``, for ``analyse``."""
    parser.add_argument(
        "--positions",
        metavar="FILE",
        help="analyse every line of FILE: Pons' 'MOVES SCORE' or a move string per line",
    )
    parser.add_argument(
        "--positions-format",
        choices=POSITION_FORMATS,
        default="auto",
        help="how --positions lines read (default: %(default)s)",
    )


def read_positions(
    game: Game, path: str | Path, form: str = "auto"
) -> list[tuple[int, str, int | None, State]]:
    """The positions of ``--positions FILE``
    (:func:`~searchlab.domains.games.position_files.parse_positions`); an unreadable file or
    one without positions is one line naming ``--positions`` and the file."""
    source = Path(path)
    try:
        text = read_text(source)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"--positions {error}") from None
    except OSError as error:
        raise InvalidParameterError(
            f"--positions {source}: {error.strerror or type(error).__name__}"
        ) from None
    positions = parse_positions(game, text, str(source), form)
    if not positions:
        raise InvalidParameterError(f"--positions {source}: no positions in the file")
    return positions


def run_positions(args: argparse.Namespace) -> int:
    """``analyse --positions``: check the options and every line, then search each position."""
    from searchlab.agents import HumanAgent, make_agent
    from searchlab.cli._analysis import result_json
    from searchlab.cli._common import parse_params
    from searchlab.domains.games import make

    for given, option in (
        (args.moves, "MOVES"),
        (args.load, "--load"),
        (args.sgf, "--sgf"),
        (args.move, "--move"),
        (args.png, "--png"),
        (args.tree_png, "--tree-png"),
    ):
        if given:
            raise InvalidParameterError(f"--positions analyses a file of positions; drop {option}")
    params = parse_params(args.param)
    game = make(args.game, **params)
    positions = read_positions(game, args.positions, args.positions_format)
    agent = make_agent(args.agent, game, seed=args.seed)
    if isinstance(agent, HumanAgent):
        raise InvalidParameterError("analyse needs a search agent, not 'human'")
    for number, moves, score, state in positions:
        agent.reset()
        start = time.perf_counter()
        action = agent.act(state)
        seconds = time.perf_counter() - start
        data = result_json(state, agent.last_result, action, seconds)
        head: dict[str, Any] = {"file": str(args.positions), "line": number, "position": moves}
        if score is not None:
            head["score"] = score
        if args.json:
            emit_json({**head, "agent": agent.name, **data})
            continue
        value = "" if data["value"] is None else f"value {data['value']:+.3f}"
        known = "" if score is None else f"  (file: {score:+d})"
        print(
            f"{number:>5}  {moves or '(start)'}  ->  {data['action']}  {value}  "
            f"{seconds:.3f} s{known}",
            flush=True,
        )
    return 0
