"""Othello (Reversi) on the 8x8 board, with bitboards and passes.

Black (``X``, player 0) moves first from the standard position (white on d4 and e5, black on
e4 and d5). A move puts a disc on an empty square so that it brackets one or more straight
runs of opponent discs, which turn over. A player with no such move must pass (the action
:data:`PASS`); when neither player can move, the game is over, and the returns are the final
disc difference with the empty squares counted for the winner (World Othello Federation
rule, Edax's convention), or +-1/0 with ``scoring="win_loss"``.

Squares are numbered ``i = 8 * (rank - 1) + file``: ``a1`` = 0 (top-left in the usual diagram,
as in FFO/Edax), ``h1`` = 7, ``a8`` = 56, ``h8`` = 63; the pass is action 64, written
``"pass"`` (``"PS"`` and ``"--"`` parse too). Legal moves and flips come from the compiled
kernels of :mod:`searchlab.domains.games.othello.bits`.

>>> state = Othello().initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()]
['d3', 'c4', 'f5', 'e6']
>>> state = state.apply(state.string_to_action("f5"))
>>> print(state)
  a b c d e f g h
1 . . . . . . . .
2 . . . . . . . .
3 . . . . . . . .
4 . . . O X . . .
5 . . . X X X . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . .
O to move; X 4, O 1
>>> state.current_player(), state.discs()
(1, (4, 1))

This package is Othello's place: these rules here, and beside them the compiled move generator
(:mod:`.bits`), the evaluation (:mod:`.eval`), Edax's OBF position files (:mod:`.obf`) and the
rules of the compiled MCTS (:mod:`.compiled`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal

import numpy as np

from searchlab.core.errors import IllegalMoveError, InvalidStateError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import choice
from searchlab.domains.games.othello.bits import final_score, flips, legal_moves

__all__ = [
    "PASS",
    "Othello",
    "OthelloState",
    "parse_square",
    "square_name",
]

PASS = 64
"""The pass action (only legal when the player to move has no other move)."""

_FULL = (1 << 64) - 1
_START_BLACK = (1 << 28) | (1 << 35)  # e4, d5
_START_WHITE = (1 << 27) | (1 << 36)  # d4, e5
_PASS_WORDS = ("pass", "ps", "--")


def square_name(square: int) -> str:
    """``"a1"``-style name of square ``0..63``, ``"pass"`` for :data:`PASS`.

    >>> square_name(0), square_name(63), square_name(PASS)
    ('a1', 'h8', 'pass')
    """
    if square == PASS:
        return "pass"
    rank, file = divmod(square, 8)
    return f"{'abcdefgh'[file]}{rank + 1}"


def parse_square(text: str) -> int:
    """The square (``0..63``) or :data:`PASS` named by ``text`` (either case); raises
    ``IllegalMoveError`` quoting it when it names neither.

    >>> parse_square("H8"), parse_square("PS")
    (63, 64)
    >>> parse_square("i9")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.IllegalMoveError: unknown move 'i9': expected a square a1..h8 or pass
    """
    token = text.strip().lower()
    if token in _PASS_WORDS:
        return PASS
    if len(token) == 2 and token[0] in "abcdefgh" and token[1] in "12345678":
        return 8 * (int(token[1]) - 1) + "abcdefgh".index(token[0])
    raise IllegalMoveError(f"unknown move {text!r}: expected a square a1..h8 or pass")


class Othello:
    """The game of Othello; ``scoring`` is ``"discs"`` (returns = final disc difference, empties
    to the winner) or ``"win_loss"`` (returns +1/-1/0)."""

    def __init__(self, scoring: Literal["discs", "win_loss"] = "discs") -> None:
        self.scoring = choice("othello", "scoring", scoring, ("discs", "win_loss"))
        # 60 moves, and a pass is always followed by a move or by the end of the game; a disc
        # difference is at most 64 (empties go to the winner)
        self.info = GameInfo(
            name="othello", max_game_length=120, max_utility=64.0 if scoring == "discs" else 1.0
        )

    def initial_state(self) -> OthelloState:
        """The standard start position, black to move."""
        return OthelloState(_START_BLACK, _START_WHITE, 0, self.scoring)

    def state_from_board(self, board: str, side_to_move: str) -> OthelloState:
        """The position of a 64-character board (``a1, b1, ..., h8``; ``X``/``x``/``*`` black,
        ``O``/``o`` white, ``-``/``.`` empty) with ``side_to_move`` ``"X"`` or ``"O"``.

        Raises ``InvalidStateError`` quoting a board of the wrong length, a bad character or
        a bad side to move.

        >>> Othello().state_from_board("-" * 27 + "OX------XO" + "-" * 27, "X").discs()
        (2, 2)
        """
        black, white = parse_board(board)
        side = side_to_move.strip().upper()
        if side not in ("X", "O", "B", "W"):
            raise InvalidStateError(
                f"bad side to move {side_to_move!r}: expected X (black) or O (white)"
            )
        return OthelloState(black, white, 0 if side in ("X", "B") else 1, self.scoring)

    def __repr__(self) -> str:
        return f"Othello(scoring={self.scoring!r})"


def parse_board(board: str) -> tuple[int, int]:
    """``(black, white)`` bitboards of a 64-character board string (see
    :meth:`Othello.state_from_board`); raises ``InvalidStateError`` quoting the bad input.

    >>> parse_board("X" + "-" * 62 + "O") == (1, 1 << 63)
    True
    """
    if len(board) != 64:
        raise InvalidStateError(
            f"bad board {board!r}: expected 64 characters (a1..h8), got {len(board)}"
        )
    black = white = 0
    for square, char in enumerate(board):
        if char in "Xx*":
            black |= 1 << square
        elif char in "Oo":
            white |= 1 << square
        elif char not in "-.":
            raise InvalidStateError(
                f"bad board {board!r}: character {char!r} at {square_name(square)} "
                "(expected X, O or -)"
            )
    return black, white


class OthelloState:
    """A position: black and white bitboards (Python ints), the player to move (0 black,
    1 white). Immutable; the legal actions are computed once, on first use."""

    __slots__ = ("_actions", "_moves", "black", "player", "scoring", "white")

    def __init__(self, black: int, white: int, player: int, scoring: str = "discs") -> None:
        if black & white:
            raise InvalidStateError(
                f"bad position: squares with both colours: "
                f"{[square_name(s) for s in range(64) if (black & white) >> s & 1]}"
            )
        self.black = black
        self.white = white
        self.player = player
        self.scoring = scoring
        self._moves: int | None = None
        self._actions: tuple[int, ...] | None = None

    # -- bitboards of the side to move ------------------------------------------------------
    def mover_bits(self) -> tuple[int, int]:
        """``(player, opponent)`` bitboards, the side to move first."""
        return (self.black, self.white) if self.player == 0 else (self.white, self.black)

    def move_bits(self) -> int:
        """Bitboard of the legal squares of the side to move (0: it must pass or the game is
        over)."""
        if self._moves is None:
            mine, theirs = self.mover_bits()
            self._moves = int(legal_moves(np.uint64(mine), np.uint64(theirs)))
        return self._moves

    def _opponent_can_move(self) -> bool:
        mine, theirs = self.mover_bits()
        return bool(legal_moves(np.uint64(theirs), np.uint64(mine)))

    # -- the State protocol ------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to move: 0 black (X), 1 white (O)."""
        return self.player

    def legal_actions(self) -> tuple[int, ...]:
        """Legal squares in increasing order; ``(PASS,)`` when only the opponent can move;
        ``()`` when neither can (the game is over)."""
        if self._actions is None:
            moves = self.move_bits()
            if moves:
                self._actions = tuple(s for s in range(64) if moves >> s & 1)
            elif self._opponent_can_move():
                self._actions = (PASS,)
            else:
                self._actions = ()
        return self._actions

    def apply(self, action: int) -> OthelloState:
        """The position after ``action`` (a square or :data:`PASS`); raises
        ``IllegalMoveError`` when it is not legal here."""
        if action not in self.legal_actions():
            raise IllegalMoveError(f"illegal action {action!r}: {self._why_illegal(action)}")
        if action == PASS:
            return OthelloState(self.black, self.white, 1 - self.player, self.scoring)
        mine, theirs = self.mover_bits()
        bit = 1 << action
        flipped = int(flips(np.uint64(bit), np.uint64(mine), np.uint64(theirs)))
        mine |= flipped | bit
        theirs &= ~flipped
        if self.player == 0:
            return OthelloState(mine, theirs, 1, self.scoring)
        return OthelloState(theirs, mine, 0, self.scoring)

    def _why_illegal(self, action: object) -> str:
        if self.is_terminal():
            return "the game is over"
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= PASS:
            return "not a square 0..63 or pass (64)"
        if action == PASS:
            return f"{'XO'[self.player]} has a legal move and cannot pass"
        if (self.black | self.white) >> action & 1:
            return f"{square_name(action)} is taken"
        if self.legal_actions() == (PASS,):
            return f"{'XO'[self.player]} has no move and must pass"
        return f"{square_name(action)} flips no disc"

    def is_terminal(self) -> bool:
        """Neither player can move (in particular, a full board)."""
        return not self.legal_actions()

    def score(self) -> int:
        """Final disc difference for the player to move, empties counted for the winner
        (meaningful when the game is over)."""
        mine, theirs = self.mover_bits()
        return int(final_score(np.uint64(mine), np.uint64(theirs)))

    def returns(self) -> tuple[float, float]:
        """``(black, white)`` utilities of a finished game (zeros before the end)."""
        if not self.is_terminal():
            return (0.0, 0.0)
        black = self.score() if self.player == 0 else -self.score()
        if self.scoring == "win_loss":
            black = (black > 0) - (black < 0)
        return (float(black), float(-black))

    def key(self) -> Hashable:
        """``(black, white, player)``."""
        return (self.black, self.white, self.player)

    def action_to_string(self, action: int) -> str:
        """``"a1"``..``"h8"``, ``"pass"``."""
        return square_name(action)

    def string_to_action(self, text: str) -> int:
        """Parse a square or a pass; raises ``IllegalMoveError`` when unknown or illegal."""
        action = parse_square(text)
        if action not in self.legal_actions():
            raise IllegalMoveError(f"illegal move {text!r}: {self._why_illegal(action)}")
        return action

    # -- helpers -------------------------------------------------------------------------
    def discs(self) -> tuple[int, int]:
        """``(black discs, white discs)``."""
        return self.black.bit_count(), self.white.bit_count()

    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self.black | self.white).bit_count()

    def board_string(self) -> str:
        """The 64-character board (``a1..h8``; ``X``, ``O``, ``-``), as in OBF."""
        return "".join(
            "X" if self.black >> s & 1 else "O" if self.white >> s & 1 else "-" for s in range(64)
        )

    def __str__(self) -> str:
        return self.render()

    def render(self, last: int | None = None, hints: bool = False) -> str:
        """The board as text: ``X`` black, ``O`` white; the disc of move ``last`` (a square)
        in parentheses and, with ``hints``, the legal squares of the side to move as ``*``.

        >>> state = Othello().initial_state()
        >>> state = state.apply(state.string_to_action("f5"))
        >>> print(state.render(last=parse_square("f5"), hints=True))
          a b c d e f g h
        1 . . . . . . . .
        2 . . . . . . . .
        3 . . . . . . . .
        4 . . . O X * . .
        5 . . . X X(X). .
        6 . . . * . * . .
        7 . . . . . . . .
        8 . . . . . . . .
        O to move; X 4, O 1
        last move f5 in (), * legal moves: f4 d6 f6
        """
        cells = list(self.board_string().replace("-", "."))
        moves = [a for a in self.legal_actions() if a != PASS] if hints else []
        for square in moves:
            cells[square] = "*"
        lines = ["  a b c d e f g h"]
        for rank in range(8):
            row = ""
            for file in range(8):
                square = 8 * rank + file
                if square == last:
                    row += "(" + cells[square] + ")"
                else:
                    row += ("" if square - 1 == last and file else " ") + cells[square]
            lines.append(f"{rank + 1}{row}")
        black, white = self.discs()
        status = "game over" if self.is_terminal() else f"{'XO'[self.player]} to move"
        lines.append(f"{status}; X {black}, O {white}")
        legend = []
        if last is not None and 0 <= last < 64:
            legend.append(f"last move {square_name(last)} in ()")
        if moves:
            legend.append("* legal moves: " + " ".join(square_name(a) for a in moves))
        elif hints and self.legal_actions() == (PASS,):
            legend.append(f"{'XO'[self.player]} has no move: pass")
        if legend:
            lines.append(", ".join(legend))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"OthelloState({self.board_string()!r}, {'XO'[self.player]!r})"
