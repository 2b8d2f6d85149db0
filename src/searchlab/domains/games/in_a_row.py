"""What the k-in-a-row games on a rectangular board share (the m,n,k-games with tic-tac-toe,
Gomoku): the cell notation, the text board and the returns of a finished game.

A cell is named by its column letter and its 1-based row, as in chess: ``"a1"`` is the
bottom-left cell. Actions number the cells row by row from the bottom, ``row * width + column``.
Player 0 plays ``X`` (black in Gomoku), player 1 ``O``.

>>> cell_name(4, 3), parse_cell("B2", 3, 3, example="b2")
('b2', 4)
>>> print(board_text(lambda cell: (0, 1, 0, 0, 2, 0)[cell], 3, 2))  # X on b1, O on b2
2 . O .
1 . X .
  a b c
>>> parse_cell("d1", 3, 3, example="b2")
Traceback (most recent call last):
...
searchlab.core.errors.IllegalMoveError: illegal move 'd1': off the 3x3 board
"""

from __future__ import annotations

from collections.abc import Callable

from searchlab.core.errors import IllegalMoveError

__all__ = ["SYMBOLS", "board_text", "cell_name", "parse_cell", "winner_returns"]

SYMBOLS = ".XO"
"""The text of a cell: empty, player 0's stone, player 1's stone."""


def cell_name(action: int, width: int) -> str:
    """The ``"a1"``-style name of cell ``action`` on a board ``width`` columns wide."""
    row, column = divmod(action, width)
    return f"{chr(ord('a') + column)}{row + 1}"


def parse_cell(text: str, width: int, height: int, *, example: str) -> int:
    """The cell named ``text`` (``"b2"``, case-insensitive) on a ``width`` x ``height`` board;
    ``IllegalMoveError`` (one line, citing ``example``) when malformed or off the board. Says
    nothing about whether the cell is empty."""
    token = text.strip().lower()
    if (
        len(token) < 2
        or not token[0].isalpha()
        or not (token[1:].isascii() and token[1:].isdigit())
    ):
        raise IllegalMoveError(f"malformed move {text!r}: expected a cell like {example}")
    column, row = ord(token[0]) - ord("a"), int(token[1:]) - 1
    if not (0 <= column < width and 0 <= row < height):
        raise IllegalMoveError(f"illegal move {text!r}: off the {width}x{height} board")
    return row * width + column


def board_text(stone_at: Callable[[int], int], width: int, height: int) -> str:
    """The board as text, top row first, each row numbered, the column letters below;
    ``stone_at(cell)`` is 0 (empty), 1 (player 0) or 2 (player 1)."""
    digits = len(str(height))
    lines = []
    for row in range(height - 1, -1, -1):
        cells = " ".join(SYMBOLS[stone_at(row * width + column)] for column in range(width))
        lines.append(f"{row + 1:>{digits}} {cells}")
    lines.append(" " * digits + " " + " ".join(chr(ord("a") + c) for c in range(width)))
    return "\n".join(lines)


def winner_returns(winner: int) -> tuple[float, float]:
    """``(1, -1)`` if player 0 won, ``(-1, 1)`` if player 1 won, ``(0, 0)`` for a draw or an
    unfinished game (``winner`` -1)."""
    if winner == 0:
        return (1.0, -1.0)
    if winner == 1:
        return (-1.0, 1.0)
    return (0.0, 0.0)
