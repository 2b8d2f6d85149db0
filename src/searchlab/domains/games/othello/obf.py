"""Edax's OBF format: one Othello position per line, with optional scored moves.

A line is ``<board> <side>[; <move>:<score>; <move>:<score>; ...]``: a 64-character board
(squares ``a1, b1, ..., h1, a2, ..., h8``; ``X`` black, ``O`` white, ``-`` empty), the side to
move (``X`` or ``O``), then, after ``;``, moves with their exact scores for the side to move
(``G8:+18``; ``PS`` is a pass). Text after ``%`` is a comment; blank lines are skipped.

>>> position = parse_obf_line("-" * 27 + "OX------XO" + "-" * 27 + " X; F5:+0; D3:+0")
>>> position.side_to_move, position.move_scores, position.best_score
('X', ((37, 0), (19, 0)), 0)
>>> position.state().legal_actions()
(19, 26, 37, 44)
>>> parse_obf_line("XO X", source="ffo.obf:3")
Traceback (most recent call last):
...
searchlab.domains.games.othello.obf.ObfFormatError: ffo.obf:3: bad board 'XO': expected 64 ...
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from searchlab.core.errors import IllegalMoveError, InvalidStateError, SearchlabError
from searchlab.core.text_file import read_text, require_entries
from searchlab.domains.games.othello import Othello, OthelloState, parse_square, square_name

__all__ = ["ObfFormatError", "ObfPosition", "parse_obf_line", "read_obf"]


class ObfFormatError(SearchlabError, ValueError):
    """A malformed OBF line; the message starts with ``file:line`` when it came from a file."""


@dataclass(frozen=True, slots=True)
class ObfPosition:
    """One OBF line: board, side to move, scored moves (``(action, score)`` in file order) and
    where it came from (``file:line``, or the text itself)."""

    board: str
    side_to_move: str
    move_scores: tuple[tuple[int, int], ...] = ()
    source: str = ""

    @property
    def best_score(self) -> int | None:
        """The best listed score (the exact score of the position when every move is
        listed, as in the FFO files), ``None`` without scored moves."""
        return max((score for _, score in self.move_scores), default=None)

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The listed moves reaching :attr:`best_score`."""
        best = self.best_score
        return tuple(action for action, score in self.move_scores if score == best)

    def state(self, game: Othello | None = None) -> OthelloState:
        """The position as an :class:`~searchlab.domains.games.othello.OthelloState`."""
        return (game or Othello()).state_from_board(self.board, self.side_to_move)

    def to_line(self) -> str:
        """The OBF line (moves upper case, scores signed).

        >>> parse_obf_line("X" * 61 + "-OX X; f8:64").to_line()[59:]
        'XX-OX X; F8:+64;'
        """
        moves = "".join(
            f" {'PS' if a == 64 else square_name(a).upper()}:{s:+d};" for a, s in self.move_scores
        )
        return f"{self.board} {self.side_to_move};{moves}"


def parse_obf_line(text: str, *, source: str | None = None) -> ObfPosition:
    """Parse one OBF line; raises :class:`ObfFormatError` (prefixed with ``source``, e.g.
    ``"ffo.obf:12"``) for a malformed board, side to move, move or score, a listed move that
    is not legal, or scored moves on a finished game."""
    where = f"{source}: " if source else ""
    body = text.split("%", 1)[0].strip()
    head, _, tail = body.partition(";")
    fields = head.split()
    if len(fields) != 2:
        raise ObfFormatError(
            f"{where}malformed OBF line {text.strip()!r}: expected '<64-char board> <X|O>'"
        )
    board, side = fields
    try:
        state = Othello().state_from_board(board, side)
    except InvalidStateError as error:
        raise ObfFormatError(f"{where}{error}") from None
    side = "X" if side.upper() in ("X", "B") else "O"
    move_scores = []
    for item in tail.split(";"):
        item = item.strip()
        if not item:
            continue
        move, colon, score_text = item.partition(":")
        try:
            action = parse_square(move)
        except IllegalMoveError as error:
            raise ObfFormatError(f"{where}{error} in {item!r}") from None
        if colon:
            try:
                score = int(score_text)
            except ValueError:
                raise ObfFormatError(
                    f"{where}bad score {score_text.strip()!r} in {item!r}: expected e.g. +18"
                ) from None
        else:
            raise ObfFormatError(f"{where}move {item!r} has no score: expected e.g. G8:+18")
        if not -64 <= score <= 64:
            raise ObfFormatError(f"{where}score {score:+d} in {item!r} is outside -64..+64")
        if state.is_terminal():
            raise ObfFormatError(
                f"{where}move {move.strip()!r} listed, but the game is already over"
            )
        if action not in state.legal_actions():
            raise ObfFormatError(f"{where}move {move.strip()!r} is not legal in this position")
        move_scores.append((action, score))
    return ObfPosition(board, side, tuple(move_scores), source or text.strip())


def read_obf(path: str | Path) -> Iterator[ObfPosition]:
    """The positions of an OBF file, in order (blank and comment-only lines skipped); each
    ``source`` is ``"file:line"``."""
    path = Path(path)
    lines = read_text(path).splitlines()
    require_entries([line for line in lines if line.split("%", 1)[0].strip()], path, "positions")
    for number, line in enumerate(lines, start=1):
        if not line.split("%", 1)[0].strip():
            continue
        yield parse_obf_line(line, source=f"{path}:{number}")
