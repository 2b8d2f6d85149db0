"""Gomoku, free-style: on a ``size`` x ``size`` board (15 x 15 by default) two players put a
stone on an empty cell in turn, black (player 0, ``X``) first; the first to have **five or
more** in a row — horizontally, vertically or diagonally — wins (an overline of six wins too);
a full board without one is a draw. There is no swap rule and no restriction on black.

Notation, as in Gomoku and Renju records: a column letter ``a``.. (left to right, ``a..o`` on
15 x 15, ``i`` included) and a 1-based row number counted from the bottom: ``a1`` is the
bottom-left corner, ``h8`` the centre of the 15 x 15 board. The action of the cell in column
``c`` and row ``r`` (0-based, row 0 at the bottom) is ``r * size + c``: ``h8`` is 112.

>>> state = Gomoku(size=7).initial_state()
>>> for move in ("d4", "c3", "e4"):
...     state = state.apply(state.string_to_action(move))
>>> print(state)
7 . . . . . . .
6 . . . . . . .
5 . . . . . . .
4 . . . X X . .
3 . . O . . . .
2 . . . . . . .
1 . . . . . . .
  a b c d e f g
>>> state.current_player(), state.is_terminal()
(1, False)
>>> state.string_to_action("d4")
Traceback (most recent call last):
...
searchlab.core.errors.IllegalMoveError: illegal move 'd4': the cell is taken

**Board representation.** Each colour is one Python int holding four *line layouts* of its
stones: rows, columns, diagonals and anti-diagonals, each line a ``size``-bit field (bit ``t``
= the ``t``-th cell along the line). Placing a stone is one OR with a precomputed mask; any
line is a shift and a mask away (the line-pattern evaluation in
:mod:`~searchlab.domains.games.gomoku.eval` reads them). The row layout comes first, so the
low ``size * size`` bits are the stones by action number. Win detection looks only at the four
lines through the last stone: ``x & x >> 1`` (pairs), ``& >> 2`` (fours), ``& line >> 4``
(fives or more), three operations per line.

**Candidate moves (a search policy).** ``Gomoku(candidate_radius=2)`` is the same game except
that a move must lie within Chebyshev distance 2 of a stone (the centre on an empty board);
``apply`` enforces it, so the variant is itself a conforming game and every algorithm runs on
it unchanged. ``move_order`` (a callable ``(state, actions) -> actions``, a permutation) puts
the legal actions in the order a search should try them. :meth:`Gomoku.with_candidates` builds
the variant of a game and :meth:`Gomoku.from_state` carries a position from one to the other.
:func:`~searchlab.domains.games.gomoku.eval.search_game` builds the variant with the
evaluation's ordering, which makes depth-limited negamax practical on 225 cells.

This package is Gomoku's place: these rules here, and beside them the line-pattern evaluation
(:mod:`.eval`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import integer
from searchlab.domains.games.in_a_row import board_text, cell_name, parse_cell, winner_returns

__all__ = ["Gomoku", "GomokuState", "LineGeometry", "MoveOrder"]

MoveOrder = Callable[["GomokuState", list[int]], list[int]]
"""A move-ordering policy: ``order(state, actions)`` returns the same actions, best first."""


@dataclass(frozen=True, slots=True)
class LineGeometry:
    """Where the lines of a ``size`` x ``size`` board live in a colour's int.

    Attributes:
        size: board side.
        field_mask: ``(1 << size) - 1``, the mask of one line's field.
        stone_mask: per cell, the four bits its stone sets (one per layout).
        cell_lines: per cell, ``(offset, length, bit)`` of the four lines through it (row,
            column, diagonal, anti-diagonal): the line is ``(colour >> offset) & field_mask``,
            ``length`` cells long, and the cell is ``bit`` in it.
        lines: ``(offset, length)`` of every line of at least 5 cells (those that can hold a
            five), all four directions.
    """

    size: int
    field_mask: int
    stone_mask: tuple[int, ...]
    cell_lines: tuple[tuple[tuple[int, int, int], ...], ...]
    lines: tuple[tuple[int, int], ...]

    @staticmethod
    def build(size: int) -> LineGeometry:
        """The geometry of a ``size`` x ``size`` board.

        >>> geometry = LineGeometry.build(15)
        >>> len(geometry.lines)  # 15 rows, 15 columns, 2 x 21 diagonals of length >= 5
        72
        >>> geometry.cell_lines[112][0]  # h8: row 8 starts at bit 105, h is its bit 7
        (105, 15, 7)
        """
        cells = size * size
        bases, base = [], 0
        for count in (size, size, 2 * size - 1, 2 * size - 1):
            bases.append(base)
            base += count * size
        stone: list[int] = []
        through: list[tuple[tuple[int, int, int], ...]] = []
        length_of: dict[int, int] = {}
        for action in range(cells):
            row, column = divmod(action, size)
            placements = (
                (row, column, size),
                (column, row, size),
                (column - row + size - 1, min(row, column), size - abs(column - row)),
                (row + column, column - max(0, row + column - (size - 1)),
                 size - abs(row + column - (size - 1))),
            )  # fmt: skip
            mask, here = 0, []
            for direction, (line, position, length) in enumerate(placements):
                offset = bases[direction] + line * size
                mask |= 1 << (offset + position)
                here.append((offset, length, position))
                length_of[offset] = length
            stone.append(mask)
            through.append(tuple(here))
        lines = tuple((offset, length) for offset, length in length_of.items() if length >= 5)
        return LineGeometry(
            size=size,
            field_mask=(1 << size) - 1,
            stone_mask=tuple(stone),
            cell_lines=tuple(through),
            lines=lines,
        )


def _makes_five(colour: int, lines: Sequence[tuple[int, int, int]], field_mask: int) -> bool:
    """Five or more in a row on one of ``lines`` (the lines through the last stone)."""
    for offset, _, _ in lines:
        x = (colour >> offset) & field_mask
        pairs = x & (x >> 1)
        if pairs & (pairs >> 2) & (x >> 4):
            return True
    return False


class Gomoku:
    """Free-style Gomoku on a ``size`` x ``size`` board (5 <= size <= 26).

    Args:
        size: board side (15: the standard board).
        candidate_radius: ``None`` for the real game; an int ``r >= 1`` restricts moves to
            cells within Chebyshev distance ``r`` of a stone (a search policy, see the module
            docstring).
        move_order: ``order(state, actions) -> actions``, the order ``legal_actions`` returns.

    >>> Gomoku().initial_state().string_to_action("h8")
    112
    >>> len(Gomoku(candidate_radius=2).initial_state().legal_actions())  # only the centre
    1
    >>> Gomoku(size=4)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: gomoku: size must be an integer in 5..26, got 4
    """

    def __init__(
        self,
        size: int = 15,
        *,
        candidate_radius: int | None = None,
        move_order: MoveOrder | None = None,
    ) -> None:
        size = integer("gomoku", "size", size, 5, 26)
        if candidate_radius is not None and (
            isinstance(candidate_radius, bool)
            or not isinstance(candidate_radius, int)
            or candidate_radius < 1
        ):
            raise InvalidParameterError(
                f"gomoku: candidate_radius must be None or an integer >= 1, "
                f"got {candidate_radius!r}"
            )
        if candidate_radius is not None and candidate_radius > size:
            raise InvalidParameterError(
                f"gomoku: candidate_radius must be at most the board size {size}, "
                f"got {candidate_radius!r}"
            )
        if move_order is not None and not callable(move_order):
            raise InvalidParameterError(f"gomoku: move_order must be callable, got {move_order!r}")
        self.size = size
        self.candidate_radius = candidate_radius
        self.move_order = move_order
        self.info = GameInfo(name="gomoku", max_game_length=size * size, max_utility=1.0)
        self.geometry = LineGeometry.build(size)
        self.board_mask = (1 << (size * size)) - 1
        self.centre = (size // 2) * size + size // 2
        radius = candidate_radius or 0
        self.near_mask = tuple(
            sum(
                1 << (r * size + c)
                for r in range(max(0, row - radius), min(size, row + radius + 1))
                for c in range(max(0, column - radius), min(size, column + radius + 1))
            )
            for row, column in (divmod(a, size) for a in range(size * size))
        )

    def initial_state(self) -> GomokuState:
        """The empty board, black (player 0) to move."""
        return GomokuState(self, 0, 0, 0, 0, -1, 0)

    def with_candidates(self, radius: int = 2, move_order: MoveOrder | None = None) -> Gomoku:
        """The candidate variant of this game: the same board, moves restricted to cells
        within Chebyshev distance ``radius`` of a stone, tried in ``move_order`` (see the
        module docstring). Carry a position over with :meth:`from_state`.

        >>> Gomoku(size=9).with_candidates(1)
        Gomoku(size=9, candidate_radius=1)
        """
        return Gomoku(self.size, candidate_radius=radius, move_order=move_order)

    def from_state(self, state: GomokuState) -> GomokuState:
        """The position of ``state``, a state of any Gomoku on a board of the same size (the
        real game or a candidate variant), as a state of this game: the same stones, player
        to move and winner, with this game's legal moves. Raises ``InvalidStateError`` for
        anything else.

        >>> real = Gomoku(size=9)
        >>> state = real.initial_state().apply(real.parse_cell("e5"))
        >>> variant = real.with_candidates(1)
        >>> [variant.cell_name(a) for a in variant.from_state(state).legal_actions()]
        ['d4', 'e4', 'f4', 'd5', 'f5', 'd6', 'e6', 'f6']
        >>> real.from_state(variant.from_state(state)).key() == state.key()
        True
        """
        if not isinstance(state, GomokuState) or state.game.size != self.size:
            raise InvalidStateError(
                f"gomoku: expected a state of a {self.size}x{self.size} Gomoku, got {state!r}"
            )
        near = 0
        if self.candidate_radius is not None:
            occupied = state.occupied()
            while occupied:
                low = occupied & -occupied
                near |= self.near_mask[low.bit_length() - 1]
                occupied ^= low
        return GomokuState(
            self, state.black, state.white, state.player, state.stones, state.winner, near
        )

    def cell_name(self, action: int) -> str:
        """``"h8"``-style name of a cell.

        >>> Gomoku().cell_name(0), Gomoku().cell_name(224)
        ('a1', 'o15')
        """
        return cell_name(action, self.size)

    def parse_cell(self, text: str) -> int:
        """The cell named ``text`` (``"h8"``, case-insensitive); raises ``IllegalMoveError``
        when malformed or off the board. Says nothing about whether the cell is empty."""
        return parse_cell(text, self.size, self.size, example="h8")

    def position(
        self,
        black: Iterable[str | int] = (),
        white: Iterable[str | int] = (),
        player: int | None = None,
    ) -> GomokuState:
        """A hand-made position: the cells (names or actions) of each colour and the player to
        move (default: black if both have as many stones, white if black has one more).

        A five already on the board ends the game (that colour won). Raises
        ``InvalidStateError`` for a cell given twice, both colours with a five, or stone
        counts that need an explicit ``player``.

        >>> state = Gomoku(size=9).position(black=["e5", "f5"], white=["e6"])
        >>> state.current_player(), state.stones
        (1, 3)
        """
        cells: dict[int, int] = {}
        for colour, stones in enumerate((black, white)):
            for stone in stones:
                try:
                    cell = self.parse_cell(stone) if isinstance(stone, str) else int(stone)
                except IllegalMoveError as error:
                    raise InvalidStateError(f"gomoku position: {error}") from None
                if not 0 <= cell < self.size * self.size:
                    raise InvalidStateError(f"gomoku position: cell {stone!r} is off the board")
                if cell in cells:
                    raise InvalidStateError(f"gomoku position: cell {stone!r} is given twice")
                cells[cell] = colour
        counts = [sum(1 for c in cells.values() if c == colour) for colour in (0, 1)]
        if player is None:
            if counts[0] - counts[1] not in (0, 1):
                raise InvalidStateError(
                    f"gomoku position: {counts[0]} black and {counts[1]} white stones; "
                    f"say which player is to move"
                )
            player = counts[0] - counts[1]
        if player not in (0, 1):
            raise InvalidStateError(f"gomoku position: player must be 0 or 1, got {player!r}")
        colours = [0, 0]
        near = 0
        stone_mask = self.geometry.stone_mask
        for cell, colour in cells.items():
            colours[colour] |= stone_mask[cell]
            near |= self.near_mask[cell]
        fives = [self._has_five(colours[colour]) for colour in (0, 1)]
        if all(fives):
            raise InvalidStateError("gomoku position: both colours have five in a row")
        winner = 0 if fives[0] else 1 if fives[1] else -1
        return GomokuState(self, colours[0], colours[1], player, len(cells), winner, near)

    def _has_five(self, colour: int) -> bool:
        mask = self.geometry.field_mask
        return _makes_five(colour, [(offset, 0, 0) for offset, _ in self.geometry.lines], mask)

    def __repr__(self) -> str:
        extra = (
            "" if self.candidate_radius is None else f", candidate_radius={self.candidate_radius}"
        )
        return f"Gomoku(size={self.size}{extra})"


@dataclass(slots=True, eq=False, repr=False)
class GomokuState:
    """A Gomoku position: the two colours' line layouts, the player to move, the stone count,
    the winner (-1: none yet) and, for the candidate variant, the cells near a stone."""

    game: Gomoku
    black: int
    white: int
    player: int
    stones: int
    winner: int
    near: int

    def current_player(self) -> int:
        """The player to move (0: black, 1: white)."""
        return self.player

    def occupied(self) -> int:
        """The occupied cells as a bit set by action number."""
        return (self.black | self.white) & self.game.board_mask

    def colour_at(self, action: int) -> int:
        """0 empty, 1 black, 2 white."""
        if self.black >> action & 1:
            return 1
        return 2 if self.white >> action & 1 else 0

    def _candidates(self) -> int:
        """Empty cells as a bit set: all of them, or those near a stone (candidate variant)."""
        empty = ~self.occupied() & self.game.board_mask
        if self.game.candidate_radius is None:
            return empty
        if self.stones == 0:
            return 1 << self.game.centre
        # Never empty before the board is full: an empty cell next to a stone is near it.
        return self.near & empty

    def legal_actions(self) -> list[int]:
        """The empty cells (near a stone in the candidate variant), in increasing order or the
        game's ``move_order``; none once the game is over."""
        if self.winner >= 0:
            return []
        bits = self._candidates()
        actions = []
        while bits:
            low = bits & -bits
            actions.append(low.bit_length() - 1)
            bits ^= low
        order = self.game.move_order
        return order(self, actions) if order is not None and actions else actions

    def apply(self, action: int) -> GomokuState:
        """Put the mover's stone on cell ``action``; raises ``IllegalMoveError`` if the cell is
        taken or off the board (or too far from every stone in the candidate variant), or the
        game is over."""
        game = self.game
        if self.winner >= 0 or not 0 <= action < game.size * game.size:
            reason = "the game is over" if self.winner >= 0 else "off the board"
            raise IllegalMoveError(f"illegal action {action!r}: {reason}")
        if not self._candidates() >> action & 1:
            if (self.black | self.white) >> action & 1:
                reason = f"{game.cell_name(action)} is taken"
            else:
                reason = (
                    f"{game.cell_name(action)} is farther than {game.candidate_radius} "
                    f"from every stone"
                )
            raise IllegalMoveError(f"illegal action {action!r}: {reason}")
        geometry = game.geometry
        mask = geometry.stone_mask[action]
        black, white = self.black, self.white
        if self.player == 0:
            black |= mask
            won = _makes_five(black, geometry.cell_lines[action], geometry.field_mask)
        else:
            white |= mask
            won = _makes_five(white, geometry.cell_lines[action], geometry.field_mask)
        near = self.near | game.near_mask[action] if game.candidate_radius else 0
        return GomokuState(
            game,
            black,
            white,
            1 - self.player,
            self.stones + 1,
            self.player if won else -1,
            near,
        )

    def is_terminal(self) -> bool:
        """Someone has five or more in a row, or the board is full."""
        return self.winner >= 0 or self.stones == self.game.size * self.game.size

    def returns(self) -> tuple[float, float]:
        """``(1, -1)`` if black won, ``(-1, 1)`` if white won, ``(0, 0)`` for a draw or an
        unfinished game."""
        return winner_returns(self.winner)

    def key(self) -> Hashable:
        """``(black, white, player)``: the stones and the player to move."""
        return (self.black, self.white, self.player)

    def action_to_string(self, action: int) -> str:
        """``"h8"``-style cell name."""
        return self.game.cell_name(action)

    def string_to_action(self, text: str) -> int:
        """Parse ``"h8"``; raises ``IllegalMoveError`` if malformed, off the board, taken, not
        a candidate (candidate variant) or the game is over."""
        action = self.game.parse_cell(text)
        if (self.black | self.white) >> action & 1:
            raise IllegalMoveError(f"illegal move {text!r}: the cell is taken")
        if self.winner >= 0:
            raise IllegalMoveError(f"illegal move {text!r}: the game is over")
        if not self._candidates() >> action & 1:
            raise IllegalMoveError(
                f"illegal move {text!r}: farther than {self.game.candidate_radius} from every stone"
            )
        return action

    def __str__(self) -> str:
        return board_text(self.colour_at, self.game.size, self.game.size)

    def __repr__(self) -> str:
        names = [
            [self.game.cell_name(a) for a in range(self.game.size**2) if self.colour_at(a) == c]
            for c in (1, 2)
        ]
        return f"GomokuState(black={names[0]}, white={names[1]}, player={self.player})"
