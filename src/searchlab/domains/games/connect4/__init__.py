"""Connect Four on the standard 7-column, 6-row board, as bitboards.

Two players drop stones in turn into one of seven columns; a stone falls to the lowest empty
cell. The first to line up four of their stones (horizontally, vertically or diagonally) wins;
a full board without four in a row is a draw. Player 0 moves first.

Actions are the columns ``0..6``; the notation is the 1-based column ``"1".."7"``, as in Pascal
Pons' test files, where a whole game is a digit string such as ``"4453"``
(:func:`parse_moves`).

State encoding (Pons' bitboards): bit ``7 * column + row`` (row 0 at the bottom; bit 6 of each
column is a sentinel row that is always empty). ``mask`` holds every stone, ``current`` the
stones of the player to move; ``current + mask`` is a unique key of the position.

>>> state = parse_moves("4453")
>>> print(state)
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . O X X . .
1 2 3 4 5 6 7
>>> state.current_player(), state.legal_actions(), state.moves
(0, [0, 1, 2, 3, 4, 5, 6], '4453')
>>> parse_moves("4445")
Connect4State('4445')
>>> parse_moves("44444444")
Traceback (most recent call last):
...
searchlab.core.errors.IllegalMoveError: move 7 '4' in '44444444': column 4 is full

This package is Connect Four's place: these rules here (and Pons' move strings,
:func:`parse_moves`), and beside them the bit rules written once for every tier (:mod:`.bits`),
the threat evaluation (:mod:`.eval`) and the rules of the compiled MCTS (:mod:`.compiled`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import GameInfo
from searchlab.domains.games.connect4 import bits

__all__ = [
    "BOARD_MASK",
    "BOTTOM_MASK",
    "COLUMNS",
    "ROWS",
    "Connect4",
    "Connect4State",
    "has_four",
    "parse_moves",
    "perft_bitboard",
    "winning_cells",
]

COLUMNS = bits.WIDTH
ROWS = bits.HEIGHT
BOTTOM_MASK = bits.BOTTOM
"""The bottom cell of every column."""
BOARD_MASK = bits.BOARD
"""Every playable cell (no sentinels)."""
_STRIDE = bits.STRIDE  # one sentinel bit on top of every column
_CELLS = bits.CELLS
_SYMBOLS = ("X", "O")

# The rules, written once in the bit module; the Python tier runs them as plain Python.
_can_play = bits.can_play.py_func
_drop = bits.drop.py_func


def _top_cells(columns: int) -> int:
    """The top cell of each column whose bit is set in ``columns`` (bit ``c``: column ``c``)."""
    return sum(1 << (ROWS - 1 + _STRIDE * c) for c in range(COLUMNS) if columns >> c & 1)


_TOP_CELLS = _top_cells((1 << COLUMNS) - 1)
# the legal columns for each set of full columns (their top cells taken), by _can_play itself
_LEGAL_BY_TOP = {
    _top_cells(full): tuple(c for c in range(COLUMNS) if _can_play(_top_cells(full), c))
    for full in range(1 << COLUMNS)
}

has_four = bits.has_four.py_func
"""``has_four(stones)``: true when the bitboard ``stones`` holds four in a row (any direction).

>>> has_four(0b1111), has_four(0b111)
(True, False)
"""

winning_cells = bits.winning_cells.py_func
"""``winning_cells(stones, mask)``: the empty cells (playable now or later) that would give
``stones`` four in a row: its *threats*, as a bitboard. ``mask`` holds every stone.

>>> bin(winning_cells(0b111, 0b111))  # three in the first column: the fourth cell wins
'0b1000'
"""


class Connect4:
    """The 7x6 game, registered as ``"connect4"``.

    >>> Connect4().initial_state().legal_actions()
    [0, 1, 2, 3, 4, 5, 6]
    """

    def __init__(self) -> None:
        self.info = GameInfo(name="connect4", max_game_length=_CELLS, max_utility=1.0)

    def initial_state(self) -> Connect4State:
        """The empty board, player 0 (X) to move."""
        return Connect4State(0, 0, "", False)

    def from_moves(self, moves: str) -> Connect4State:
        """The position after Pons' move string ``moves`` (see :func:`parse_moves`)."""
        return parse_moves(moves)

    def __repr__(self) -> str:
        return "Connect4()"


class Connect4State:
    """One position. Immutable: :meth:`apply` returns a new state.

    Attributes:
        current: bitboard of the stones of the player to move.
        mask: bitboard of every stone.
        moves: the 1-based columns played from the empty board (Pons' notation).
        is_won: the player who just moved has four in a row.
    """

    __slots__ = ("current", "is_won", "mask", "moves")

    def __init__(self, current: int, mask: int, moves: str, is_won: bool) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves
        self.is_won = is_won

    @property
    def num_moves(self) -> int:
        """Stones on the board (plies played)."""
        return len(self.moves)

    def current_player(self) -> int:
        """0 (X, moved first) or 1 (O): who moves next."""
        return len(self.moves) & 1

    def can_play(self, column: int) -> bool:
        """Column ``column`` (0-based) exists and has room (the game may be over)."""
        return 0 <= column < COLUMNS and _can_play(self.mask, column)

    def legal_actions(self) -> list[int]:
        """Columns with room, in increasing order; none once the game is over."""
        if self.is_won:
            return []
        return list(_LEGAL_BY_TOP[self.mask & _TOP_CELLS])

    def apply(self, action: int) -> Connect4State:
        """Drop the mover's stone into column ``action`` (0-based); raises
        ``IllegalMoveError`` for a full or missing column or a finished game."""
        self._check(action, str(action))
        move = _drop(self.mask, action)
        mine = self.current | move
        mask = self.mask | move
        return Connect4State(
            self.current ^ self.mask, mask, self.moves + str(action + 1), has_four(mine)
        )

    def _check(self, action: int, text: str) -> None:
        legal = type(action) is int and 0 <= action < COLUMNS and _can_play(self.mask, action)
        if legal and not self.is_won:
            return  # the common case first (a full board has no column with room)
        if self.is_won or len(self.moves) == _CELLS:
            raise IllegalMoveError(f"illegal move {text!r}: the game is already over")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMoveError(f"illegal move {text!r}: not a column")
        if not 0 <= action < COLUMNS:
            raise IllegalMoveError(f"illegal move {text!r}: no such column (1..{COLUMNS})")
        if not _can_play(self.mask, action):
            raise IllegalMoveError(f"illegal move {text!r}: column {action + 1} is full")

    def is_terminal(self) -> bool:
        """Someone has four in a row, or the board is full."""
        return self.is_won or len(self.moves) == _CELLS

    def returns(self) -> tuple[float, float]:
        """``(1, -1)`` if X won, ``(-1, 1)`` if O won, ``(0, 0)`` otherwise."""
        if not self.is_won:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.current_player() == 0 else (1.0, -1.0)

    def key(self) -> int:
        """``current + mask``: unique per position (the player to move included)."""
        return self.current + self.mask

    def action_to_string(self, action: int) -> str:
        """The 1-based column: ``"1".."7"``."""
        return str(action + 1)

    def string_to_action(self, text: str) -> int:
        """Parse a 1-based column ``"1".."7"``; raises ``IllegalMoveError`` if malformed, off
        the board, full, or the game is over."""
        token = text.strip()
        if len(token) != 1 or not "1" <= token <= "9":
            raise IllegalMoveError(f"malformed move {text!r}: expected a column 1..{COLUMNS}")
        action = int(token) - 1
        self._check(action, text)
        return action

    def winning_cells(self) -> int:
        """Threats of the player to move: empty cells where a stone would make four."""
        return winning_cells(self.current, self.mask)

    def opponent_winning_cells(self) -> int:
        """Threats of the player who just moved."""
        return winning_cells(self.current ^ self.mask, self.mask)

    def stones(self, player: int) -> int:
        """Bitboard of ``player``'s stones."""
        return self.current if player == self.current_player() else self.current ^ self.mask

    def __str__(self) -> str:
        first = self.stones(0)
        lines = []
        for row in range(ROWS - 1, -1, -1):
            cells = []
            for column in range(COLUMNS):
                bit = 1 << (column * _STRIDE + row)
                cells.append("." if not self.mask & bit else "X" if first & bit else "O")
            lines.append(" ".join(cells))
        lines.append(" ".join(str(column + 1) for column in range(COLUMNS)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Connect4State({self.moves!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Connect4State):
            return NotImplemented
        return self.current == other.current and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.key())


def parse_moves(moves: str) -> Connect4State:
    """The position after ``moves``, Pons' notation: one digit ``1..7`` per move, from the
    empty board (``""`` is the empty board).

    Raises ``IllegalMoveError`` quoting the move, its 1-based position in the string and the
    string, for a character that is not a column digit, a full column, or a move after the
    game is over.

    >>> parse_moves("4455").key() == parse_moves("5544").key()
    True
    >>> parse_moves("4x")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.IllegalMoveError: move 2 'x' in '4x': not a column (expected 1..7)
    """
    state = Connect4State(0, 0, "", False)
    for number, char in enumerate(moves, start=1):
        if not "1" <= char <= "7":
            reason = (
                f"no such column (expected 1..{COLUMNS})"
                if char.isdigit()
                else f"not a column (expected 1..{COLUMNS})"
            )
            raise IllegalMoveError(f"move {number} {char!r} in {moves!r}: {reason}")
        column = ord(char) - ord("1")
        if state.is_terminal():
            raise IllegalMoveError(f"move {number} {char!r} in {moves!r}: the game is already over")
        if not _can_play(state.mask, column):
            raise IllegalMoveError(f"move {number} {char!r} in {moves!r}: column {char} is full")
        state = state.apply(column)
    return state


@njit(cache=True)
def _perft_kernel(current: int, mask: int, plies: int, depth: int) -> int:
    if depth == 0:
        return 1
    # the player who just moved (the opponent of `current`) may have won
    other = current ^ mask
    if bits.has_four(other) or plies == bits.CELLS:
        return 0
    total = 0
    for column in range(bits.WIDTH):
        if bits.can_play(mask, column):
            move = bits.drop(mask, column)
            total += _perft_kernel(other, mask | move, plies + 1, depth - 1)
    return total


def perft_bitboard(state: Connect4State, depth: int) -> int:
    """Perft (move sequences of exactly ``depth`` plies; finished games are not extended) by
    the compiled bitboard kernel. Same contract as
    :func:`searchlab.domains.games.perft.perft`.

    >>> [perft_bitboard(Connect4().initial_state(), d) for d in range(5)]
    [1, 7, 49, 343, 2401]
    """
    from searchlab.core.errors import InvalidParameterError

    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise InvalidParameterError(f"perft depth must be an integer >= 0, got {depth!r}")
    if depth > 0 and state.is_terminal():
        return 0
    return int(_perft_kernel(state.current, state.mask, state.num_moves, depth))
