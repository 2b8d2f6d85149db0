"""Files of positions, one a line: Pons' Connect Four test sets (``MOVES SCORE``) and the
position lists of ``searchlab analyse --positions`` (Pons' lines or move strings, any game).

Pons' format (Pascal Pons' Connect Four benchmark files, ``Test_L3_R1`` and the others): the
moves from the empty board as 1-based columns, a space, and the exact score for the player to
move (``(22 - stones of the winner at the end)``, negative for a loss, 0 a draw). Every
problem is one line quoting ``FILE:LINE`` and the line.

>>> import pathlib, tempfile
>>> from searchlab.domains.games.connect4 import Connect4
>>> path = pathlib.Path(tempfile.mkdtemp()) / "positions.txt"
>>> _ = path.write_text("4455 18\\n44455554221 -15\\n")
>>> [(p.moves, p.expected) for p in read_pons_positions(path)]
[('4455', 18), ('44455554221', -15)]
>>> [(line, moves, score) for line, moves, score, _ in parse_positions(
...     Connect4(), "4455 18\\n# a comment\\n4453\\n", "positions.txt")]
[(1, '4455', 18), (3, '4453', None)]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from searchlab.core.errors import InvalidParameterError, InvalidStateError, SearchlabError
from searchlab.core.game import Game, State
from searchlab.core.text_file import read_text, require_entries
from searchlab.domains.games.move_list import position_from_moves

if TYPE_CHECKING:
    from searchlab.domains.games.connect4 import Connect4State

__all__ = [
    "POSITION_FORMATS",
    "Connect4Position",
    "parse_positions",
    "read_pons_positions",
]

POSITION_FORMATS = ("auto", "pons", "moves")
"""How :func:`parse_positions` reads a line: ``auto`` (Pons' when it is two words, the second
a whole number, and the first a position on its own), ``pons`` or ``moves`` for every line."""

_SCORE = re.compile(r"[+-]?\d+")


@dataclass(frozen=True, slots=True)
class Connect4Position:
    """One line of a Pons file: where it came from (``FILE:LINE``), the moves, the parsed
    state and the expected score."""

    where: str
    moves: str
    state: Connect4State
    expected: int


def read_pons_positions(
    path: str | os.PathLike[str], limit: int | None = None
) -> list[Connect4Position]:
    """Read and check Pons' ``<moves> <score>`` lines (all of them, or the first ``limit``;
    blank lines are skipped). Raises ``IllegalMoveError``/``InvalidParameterError``/
    ``InvalidStateError`` quoting ``FILE:LINE`` and the line; an unreadable file raises its
    ``OSError``; a file without positions is one ``InvalidParameterError``."""
    from searchlab.domains.games.connect4 import parse_moves

    source = Path(path)
    positions: list[Connect4Position] = []
    for number, line in enumerate(read_text(source).splitlines(), start=1):
        if limit is not None and len(positions) >= limit:
            break
        if not line.strip():
            continue
        where = f"{source}:{number}"
        fields = line.split()
        if len(fields) != 2:
            raise InvalidParameterError(f"{where}: expected '<moves> <score>', got {line!r}")
        moves, score_text = fields
        try:
            expected = int(score_text)
        except ValueError:
            raise InvalidParameterError(
                f"{where}: the score {score_text!r} is not an integer in {line!r}"
            ) from None
        try:
            state = parse_moves(moves)
        except SearchlabError as error:
            raise type(error)(f"{where}: {error}") from None
        if state.is_terminal():
            raise connect4_game_over(state, where)
        positions.append(Connect4Position(where, moves, state, expected))
    require_entries(positions, source, "positions")
    return positions


def connect4_game_over(state: Connect4State, where: str) -> InvalidStateError:
    """The one line for a Connect Four position already over (``where``: what names it)."""
    outcome = "a draw" if not state.is_won else f"{'XO'[1 - state.current_player()]} won"
    return InvalidStateError(
        f"{where}: position {state.moves!r}: the game is already over ({outcome})"
    )


def parse_positions(
    game: Game, text: str, source: str, form: str = "auto"
) -> list[tuple[int, str, int | None, State]]:
    """``(line number, moves, score or None, state)`` for every position line of ``text``
    (read from ``source``; blank lines and lines starting with ``#`` skipped); one
    ``SearchlabError`` line naming ``SOURCE:LINE`` for a bad move or a finished game. ``form``
    is one of :data:`POSITION_FORMATS`. An empty list when ``text`` holds no position."""
    if form not in POSITION_FORMATS:
        raise InvalidParameterError(
            f"--positions-format must be one of {', '.join(POSITION_FORMATS)}, got {form!r}"
        )
    positions: list[tuple[int, str, int | None, State]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}:{number}"
        words = line.split()
        pons = len(words) == 2 and _SCORE.fullmatch(words[1]) is not None
        if form == "pons" and not pons:
            raise InvalidParameterError(f"{where}: expected 'MOVES SCORE', got {line!r}")
        score: int | None = None
        state: State | None = None
        try:
            if pons and form != "moves":
                try:
                    moves, score = words[0], int(words[1])
                    state = position_from_moves(game, moves)
                except SearchlabError:
                    if form == "pons":
                        raise
            if state is None:
                moves, score, state = line, None, position_from_moves(game, line)
        except SearchlabError as error:
            raise type(error)(f"{where}: {error}") from None
        if state.is_terminal():
            raise InvalidStateError(f"{where}: the game is already over after {moves!r}")
        positions.append((number, moves, score, state))
    return positions
