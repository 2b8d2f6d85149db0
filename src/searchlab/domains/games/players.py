"""What people call the two players of a game, written once for every front end: the names
``searchlab play`` prints (``"black (human) wins"``) and the browser lab shows (``Black to
move``), and the marks of their pieces on the text board (``X`` and ``O``).

A game's own words come first: Go, Othello and Gomoku are played by black and white (black,
``X``, moves first); tic-tac-toe, m,n,k and Connect Four by the first and the second player,
drawn ``X`` and ``O``; any other game (Nim, the heap games, Snake Go, a game of your own) by
the first and the second player, players 0 and 1.

>>> players("go")
Players(names=('black', 'white'), marks=('X', 'O'))
>>> players("nim").side(1), players("tictactoe").side(0)
('second (player 1)', 'first (X)')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Players", "players"]


@dataclass(frozen=True, slots=True)
class Players:
    """The two players of a game.

    Attributes:
        names: what people call players 0 and 1 (lower case: ``"black"``, ``"first"``).
        marks: their pieces on the text board (``"X"``, ``"O"``), or ``"player 0"`` and
            ``"player 1"`` in a game without pieces of one mark.
    """

    names: tuple[str, str]
    marks: tuple[str, str]

    def side(self, player: int) -> str:
        """The name with the mark: ``"black (X)"``."""
        return f"{self.names[player]} ({self.marks[player]})"

    @property
    def has_marks(self) -> bool:
        """True when the players' pieces have a mark each on the text board (``X``, ``O``)."""
        return self.marks != _NUMBERED


_FIRST_SECOND = ("first", "second")
_BLACK_WHITE = ("black", "white")
_XO = ("X", "O")
_NUMBERED = ("player 0", "player 1")

_PLAYERS = {
    "go": Players(_BLACK_WHITE, _XO),
    "othello": Players(_BLACK_WHITE, _XO),
    "gomoku": Players(_BLACK_WHITE, _XO),
    "tictactoe": Players(_FIRST_SECOND, _XO),
    "mnk": Players(_FIRST_SECOND, _XO),
    "connect4": Players(_FIRST_SECOND, _XO),
}
_DEFAULT = Players(_FIRST_SECOND, _NUMBERED)


def players(game: str) -> Players:
    """The players of the game registered as ``game`` (its ``info.name``); the first and the
    second player, 0 and 1, for a game this module does not know."""
    return _PLAYERS.get(game, _DEFAULT)
