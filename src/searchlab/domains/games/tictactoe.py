"""Tic-tac-toe and the m,n,k-games: two players take turns putting a stone on an empty cell of
an ``m``-column, ``n``-row board; the first to get ``k`` in a row (horizontally, vertically or
diagonally) wins; a full board without one is a draw. Tic-tac-toe is the 3,3,3-game.

Player 0 plays ``X`` and moves first; player 1 plays ``O``. The action of the cell in column
``c`` and row ``r`` (both 0-based, row 0 at the bottom) is ``r * m + c``. Notation: column
letter and 1-based row, as in chess: ``"a1"`` is the bottom-left cell, ``"b2"`` the centre of
tic-tac-toe.

>>> state = TicTacToe().initial_state()
>>> for move in ("b2", "a1", "c3"):
...     state = state.apply(state.string_to_action(move))
>>> print(state)
3 . . X
2 . X .
1 O . .
  a b c
>>> state.current_player(), state.is_terminal()
(1, False)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import integer
from searchlab.domains.games.in_a_row import (
    SYMBOLS,
    board_text,
    cell_name,
    parse_cell,
    winner_returns,
)

__all__ = ["MNKGame", "MNKState", "TicTacToe"]

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class MNKGame:
    """The m,n,k-game: ``m`` columns, ``n`` rows, ``k`` in a row wins (each 1..26, ``k`` at
    most the longer side; otherwise ``InvalidParameterError`` naming the parameter)."""

    def __init__(self, m: int = 3, n: int = 3, k: int = 3, *, name: str = "mnk") -> None:
        # at most 26 columns (a..z), and as many rows
        m, n, k = (integer(name, label, v, 1, 26) for label, v in (("m", m), ("n", n), ("k", k)))
        if k > max(m, n):
            raise InvalidParameterError(
                f"{name}: k={k} does not fit on a {m}x{n} board (nobody could ever win)"
            )
        self.m, self.n, self.k = m, n, k
        self.info = GameInfo(name=name, max_game_length=m * n, max_utility=1.0)

    def initial_state(self) -> MNKState:
        """The empty board, X (player 0) to move."""
        return MNKState(self, (0,) * (self.m * self.n), 0, -1, 0)

    def cell_name(self, action: int) -> str:
        """``"a1"``-style name of a cell."""
        return cell_name(action, self.m)

    def __repr__(self) -> str:
        return f"MNKGame(m={self.m}, n={self.n}, k={self.k})"


def TicTacToe() -> MNKGame:
    """The 3,3,3-game, registered as ``"tictactoe"``."""
    return MNKGame(3, 3, 3, name="tictactoe")


@dataclass(slots=True, eq=False, repr=False)
class MNKState:
    """A board: cells (0 empty, 1 X, 2 O), player to move, winner (-1: none yet), stones."""

    game: MNKGame
    board: tuple[int, ...]
    player: int
    winner: int
    stones: int

    def current_player(self) -> int:
        """The player to move (0: X, 1: O)."""
        return self.player

    def legal_actions(self) -> list[int]:
        """The empty cells, in increasing order; none once the game is over."""
        if self.winner >= 0:
            return []
        return [cell for cell, stone in enumerate(self.board) if stone == 0]

    def apply(self, action: int) -> MNKState:
        """Put the mover's stone on cell ``action``; raises ``IllegalMoveError`` if the cell is
        taken or off the board, or the game is over."""
        board = self.board
        if self.winner >= 0 or not 0 <= action < len(board) or board[action]:
            reason = (
                "the game is over"
                if self.winner >= 0
                else "off the board"
                if not 0 <= action < len(board)
                else f"{self.game.cell_name(action)} is taken"
            )
            raise IllegalMoveError(f"illegal action {action!r}: {reason}")
        stone = self.player + 1
        new_board = (*board[:action], stone, *board[action + 1 :])
        winner = self.player if self._makes_line(new_board, action, stone) else -1
        return MNKState(self.game, new_board, 1 - self.player, winner, self.stones + 1)

    def _makes_line(self, board: tuple[int, ...], action: int, stone: int) -> bool:
        m, n, k = self.game.m, self.game.n, self.game.k
        row, column = divmod(action, m)
        for dc, dr in _DIRECTIONS:
            count = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < m and 0 <= r < n and board[r * m + c] == stone:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= k:
                return True
        return False

    def is_terminal(self) -> bool:
        """Someone has k in a row, or the board is full."""
        return self.winner >= 0 or self.stones == len(self.board)

    def returns(self) -> tuple[float, float]:
        """``(1, -1)`` if X won, ``(-1, 1)`` if O won, ``(0, 0)`` for a draw or an unfinished
        game."""
        return winner_returns(self.winner)

    def key(self) -> Hashable:
        """The board (the player to move follows from the number of stones)."""
        return self.board

    def action_to_string(self, action: int) -> str:
        """``"a1"``-style cell name."""
        return self.game.cell_name(action)

    def string_to_action(self, text: str) -> int:
        """Parse ``"b2"``; raises ``IllegalMoveError`` if malformed, off the board or taken."""
        action = parse_cell(text, self.game.m, self.game.n, example="b2")
        if self.board[action]:
            raise IllegalMoveError(f"illegal move {text!r}: the cell is taken")
        if self.winner >= 0:
            raise IllegalMoveError(f"illegal move {text!r}: the game is over")
        return action

    def __str__(self) -> str:
        return board_text(self.board.__getitem__, self.game.m, self.game.n)

    def __repr__(self) -> str:
        cells = "".join(SYMBOLS[stone] for stone in self.board)
        return f"MNKState({cells!r}, player={self.player})"
