"""Go, the reference rules: boards 5x5 to 19x19, area scoring, superko, handicap stones.

Black (``X``, player 0) and White (``O``, player 1) take turns putting a stone on an empty
point or passing. A chain (stones of one colour connected along the lines) with no empty
neighbour (no *liberty*) is captured. The rules are Tromp-Taylor's with the usual options:

* **captures first**: a stone removes the opponent chains it leaves without liberties, then
  its own chain must have a liberty: a move that does not is *suicide*, and illegal;
* **ko**: ``superko="positional"`` (default) forbids a move that recreates the stones of any
  earlier position; ``"situational"`` only one with the same player to move; ``"simple"`` only
  the basic ko, retaking a single stone at once (the point :attr:`GoState.ko_point`), which is
  what GNU Go's ``is_legal`` checks;
* **passing** is always legal; two consecutive passes end the game, and so does the move limit
  ``max_moves`` (plies, passes included; default ``3 * size * size``);
* **area scoring** (Tromp-Taylor, the Chinese count): a colour scores its stones plus the empty
  points that reach only its stones; ``area_score() = black - white - komi`` (komi default 7.5).
  With ``scoring="win_loss"`` the returns are +-1 (0 for a tie), with ``"area"`` the score;
* **handicap** 2..9: black stones on the fixed points of GTP v2's ``fixed_handicap`` (as GNU
  Go places them); White then moves first.

Points are numbered ``p = row * size + col`` with row 0 the bottom line (GTP row 1) and col 0
column ``A``; the pass is ``size * size``. Notation is GTP's: columns ``ABCDEFGHJ...`` (no
``I``), rows from 1 at the bottom, ``D4``, ``pass`` (any case).

>>> from searchlab.core.game import play
>>> state = play(Go(5, komi=0.5).initial_state(), "A2 A1 B1")
>>> print(state)
   A B C D E
 5 . . . . .  5
 4 . . . . .  4
 3 . . . . .  3
 2 X . . . .  2
 1 .(X). . .  1
   A B C D E
white (O) to move, move 4, komi 0.5
captures: black 1, white 0; last move: black B1
>>> state.illegal_reason(state.string_to_action("B2")), state.illegal_reason(0)
(None, 'suicide')
>>> state.apply(0)
Traceback (most recent call last):
...
searchlab.core.errors.IllegalMoveError: illegal move A1 for white: suicide

This package is Go's place: these rules here, and beside them the Zobrist keys (:mod:`.zobrist`),
the compiled board (:mod:`.board`, :mod:`.arrays`), the playout policy in both tiers
(:mod:`.policy`, :mod:`.informed`), the rules and hooks of the compiled MCTS
(:mod:`.compiled`), the final count (:mod:`.score`) and SGF games (:mod:`.sgf`, on the
game-independent format of :mod:`searchlab.domains.games.sgf_tree`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import choice, integer
from searchlab.domains.games.go.zobrist import SIDE_TO_MOVE_KEY, ZOBRIST

__all__ = [
    "BLACK",
    "COLUMNS",
    "EMPTY",
    "SCORINGS",
    "SUPERKO_RULES",
    "WHITE",
    "Go",
    "GoState",
    "area",
    "chain_at",
    "chains",
    "empty_regions",
    "handicap_points",
    "max_handicap",
    "neighbours",
    "point_to_vertex",
    "tiny_go",
    "vertex_to_point",
]

EMPTY, BLACK, WHITE = 0, 1, 2
"""Contents of a point in :attr:`GoState.board`."""

COLUMNS = "ABCDEFGHJKLMNOPQRST"
"""GTP column letters (no ``I``), for boards up to 19x19."""

SUPERKO_RULES = ("positional", "situational", "simple")
SCORINGS = ("win_loss", "area")
MIN_SIZE, MAX_SIZE = 5, 19
MAX_KOMI = 361
"""The largest komi either way: more than any area difference (19 x 19 points)."""
_PASS_WORDS = ("pass",)
_STONE = ".XO"
_COLOUR_NAMES = ("black", "white")


# -- notation ------------------------------------------------------------------------------------
def point_to_vertex(point: int, size: int) -> str:
    """The GTP vertex of ``point`` (``"D4"``), ``"pass"`` for ``size * size``.

    >>> point_to_vertex(0, 9), point_to_vertex(80, 9), point_to_vertex(81, 9)
    ('A1', 'J9', 'pass')
    """
    index = _index(point)
    if index == size * size:
        return "pass"
    if index is None or not 0 <= index < size * size:
        raise IllegalMoveError(
            f"point {point!r} is off the {size}x{size} board (points 0..{size * size - 1}, "
            f"pass {size * size})"
        )
    row, col = divmod(index, size)
    return f"{COLUMNS[col]}{row + 1}"


def vertex_to_point(text: str, size: int) -> int:
    """The point of the GTP vertex ``text`` (``"D4"``, ``"d4"``), ``size * size`` for
    ``"pass"``; raises ``IllegalMoveError`` quoting a text that is not a vertex of the board.

    >>> vertex_to_point("A1", 9), vertex_to_point("j9", 9), vertex_to_point("PASS", 9)
    (0, 80, 81)
    >>> vertex_to_point("I3", 9)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.IllegalMoveError: 'I3' is not a vertex: Go has no column I (columns \
A..J, rows 1..9, or pass)
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise InvalidParameterError(f"go: size must be an integer in 1..{MAX_SIZE}, got {size!r}")
    expected = f"columns A..{COLUMNS[size - 1]}, rows 1..{size}, or pass"
    if not isinstance(text, str):
        raise IllegalMoveError(f"{text!r} is not a vertex ({expected})")
    token = text.strip().upper()
    if token.lower() in _PASS_WORDS:
        return size * size
    if len(token) >= 2 and token[0] == "I":
        raise IllegalMoveError(f"{text!r} is not a vertex: Go has no column I ({expected})")
    digits = token[1:]
    if (
        len(token) < 2
        or token[0] not in COLUMNS
        or not (digits.isascii() and digits.isdigit())
        or digits[0] == "0"
    ):
        raise IllegalMoveError(f"{text!r} is not a vertex ({expected})")
    col, row = COLUMNS.index(token[0]), int(digits) - 1
    if col >= size or not 0 <= row < size:
        raise IllegalMoveError(f"{text!r} is off the {size}x{size} board ({expected})")
    return row * size + col


# -- handicap ------------------------------------------------------------------------------------
def max_handicap(size: int) -> int:
    """Most fixed handicap stones on a ``size`` board (GTP v2 ``fixed_handicap``, as GNU Go):
    none below 7x7, 4 on 7x7 and even sizes, 9 on odd sizes from 9x9.

    >>> [max_handicap(s) for s in (5, 6, 7, 8, 9, 10, 19)]
    [0, 0, 4, 4, 9, 4, 9]
    """
    if size < 7:
        return 0
    return 4 if size == 7 or size % 2 == 0 else 9


def handicap_points(size: int, stones: int) -> tuple[int, ...]:
    """The points of ``stones`` fixed handicap stones (2..9) on a ``size`` board, sorted: the
    corner points on the 3rd line (4th from 12x12 up), then the centre (5, 7, 9), the sides.

    >>> [point_to_vertex(p, 19) for p in handicap_points(19, 3)]
    ['D4', 'D16', 'Q16']
    """
    limit = max_handicap(size)
    if isinstance(stones, bool) or not isinstance(stones, int) or not 2 <= stones <= limit:
        allowed = f"2..{limit}" if limit else "none"
        raise InvalidParameterError(
            f"go: handicap on {size}x{size} must be 0 or {allowed} (GTP fixed placement), "
            f"got {stones!r}"
        )
    low = 2 if size <= 11 else 3
    mid, high = size // 2, size - 1 - low

    def at(col: int, row: int) -> int:
        return row * size + col

    chosen = [at(low, low), at(high, high)]  # lower left, upper right
    if stones >= 3:
        chosen.append(at(low, high))  # upper left
    if stones >= 4:
        chosen.append(at(high, low))  # lower right
    if stones in (6, 7, 8, 9):
        chosen += [at(low, mid), at(high, mid)]  # left and right sides
    if stones in (8, 9):
        chosen += [at(mid, low), at(mid, high)]  # bottom and top sides
    if stones in (5, 7, 9):
        chosen.append(at(mid, mid))  # centre
    return tuple(sorted(chosen))


# -- the board -----------------------------------------------------------------------------------
class _Geometry:
    """Neighbour and diagonal tables of one board size."""

    __slots__ = ("diagonals", "edge", "neighbours", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        neighbours: list[tuple[int, ...]] = []
        diagonals: list[tuple[int, ...]] = []
        for p in range(size * size):
            row, col = divmod(p, size)
            neighbours.append(
                tuple(
                    r * size + c
                    for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
                    if 0 <= r < size and 0 <= c < size
                )
            )
            diagonals.append(
                tuple(
                    r * size + c
                    for r, c in (
                        (row - 1, col - 1),
                        (row - 1, col + 1),
                        (row + 1, col - 1),
                        (row + 1, col + 1),
                    )
                    if 0 <= r < size and 0 <= c < size
                )
            )
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.diagonals: tuple[tuple[int, ...], ...] = tuple(diagonals)
        self.edge: tuple[bool, ...] = tuple(len(d) < 4 for d in diagonals)


_GEOMETRIES: dict[int, _Geometry] = {}


def _geometry(size: int) -> _Geometry:
    geometry = _GEOMETRIES.get(size)
    if geometry is None:
        geometry = _GEOMETRIES[size] = _Geometry(size)
    return geometry


def _chains(
    board: bytes, neighbours: Sequence[tuple[int, ...]]
) -> tuple[list[int], list[tuple[int, list[int], set[int]]]]:
    """Label every stone with its chain: ``(label per point (-1 empty), [(colour, stones,
    liberties)])``."""
    label = [-1] * len(board)
    chains: list[tuple[int, list[int], set[int]]] = []
    for start, colour in enumerate(board):
        if colour == EMPTY or label[start] >= 0:
            continue
        stones, liberties = _flood(board, neighbours, start, label, len(chains))
        chains.append((colour, stones, liberties))
    return label, chains


def _flood(
    board: bytes, neighbours: Sequence[tuple[int, ...]], start: int, label: list[int], index: int
) -> tuple[list[int], set[int]]:
    """The chain of the stone on ``start``: its stones (``start`` first), each labelled
    ``index`` in ``label`` (unlabelled stones are ``-1``), and its liberties. Go's one
    chain-finding routine: the rules, the settlement's count and the playout policy use it."""
    colour = board[start]
    stones = [start]
    liberties: set[int] = set()
    label[start] = index
    for p in stones:  # grows while iterating: a flood fill
        for q in neighbours[p]:
            c = board[q]
            if c == EMPTY:
                liberties.add(q)
            elif c == colour and label[q] < 0:
                label[q] = index
                stones.append(q)
    return stones, liberties


def chains(board: bytes, size: int) -> list[tuple[int, list[int], set[int]]]:
    """Every chain of the ``size`` x ``size`` ``board`` (0 empty, 1 black, 2 white, as
    :attr:`GoState.board`): ``(colour, stones, liberties)``, in the order of their first
    point.

    >>> chains(bytes([1, 1, 0,  0, 2, 0,  0, 0, 0]), 3)
    [(1, [0, 1], {2, 3}), (2, [4], {3, 5, 7})]
    """
    return _chains(board, _geometry(size).neighbours)[1]


def chain_at(board: bytes, size: int, point: int) -> tuple[list[int], set[int]]:
    """The chain of the stone on ``point`` (a stone, not an empty point): its stones
    (``point`` first) and its liberties.

    >>> chain_at(bytes([1, 1, 0,  0, 2, 0,  0, 0, 0]), 3, 1)
    ([1, 0], {2, 3})
    """
    return _flood(board, _geometry(size).neighbours, point, [-1] * len(board), 0)


def neighbours(point: int, size: int) -> tuple[int, ...]:
    """The points next to ``point`` on a ``size`` x ``size`` board (up to four).

    >>> neighbours(0, 3), neighbours(4, 3)
    ((1, 3), (1, 3, 5, 7))
    """
    return _geometry(size).neighbours[point]


def empty_regions(board: bytes, size: int) -> list[tuple[list[int], int]]:
    """Every connected region of empty points: ``(points, touches)``, ``touches`` the colours
    of the stones it reaches as bits (1 black, 2 white, 3 both, 0 none). Go's one region
    routine: the area count and the owners of the settlement's count use it.

    >>> empty_regions(bytes([1, 0, 0, 2]), 2)  # two diagonal points: two regions
    [([1], 3), ([2], 3)]
    >>> empty_regions(bytes([1, 0, 0,  1, 0, 0,  1, 2, 2]), 3)
    [([1, 2, 4, 5], 3)]
    """
    neighbours = _geometry(size).neighbours
    seen = [False] * len(board)
    regions = []
    for start, colour in enumerate(board):
        if colour != EMPTY or seen[start]:
            continue
        region = [start]
        seen[start] = True
        touches = 0  # bit 1: black, bit 2: white
        for p in region:
            for q in neighbours[p]:
                c = board[q]
                if c == EMPTY:
                    if not seen[q]:
                        seen[q] = True
                        region.append(q)
                else:
                    touches |= c
        regions.append((region, touches))
    return regions


def area(board: bytes, size: int) -> tuple[int, int]:
    """Tromp-Taylor area ``(black, white)``: a colour's stones plus the empty points from
    which only its stones can be reached (through empty points).

    >>> area(bytes([1, 0, 0, 2]), 2)  # the two empty points touch both colours: dame
    (1, 1)
    >>> area(bytes([1, 0, 0, 0]), 2)
    (4, 0)
    """
    black = board.count(BLACK)
    white = board.count(WHITE)
    for region, touches in empty_regions(board, size):
        if touches == BLACK:
            black += len(region)
        elif touches == WHITE:
            white += len(region)
    return black, white


# -- the game ------------------------------------------------------------------------------------
def _komi(value: Any) -> float:
    number: Any = value
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    if (
        isinstance(number, bool)
        or not isinstance(number, int | float)
        or not math.isfinite(number)
        or not -MAX_KOMI <= number <= MAX_KOMI
        or (2 * number) != int(2 * number)
    ):
        raise InvalidParameterError(
            f"go: komi must be a multiple of 0.5 in -{MAX_KOMI}..{MAX_KOMI} (like 7.5 or 6), "
            f"got {value!r}"
        )
    return float(number)


class Go:
    """The rules of Go on a ``size`` x ``size`` board (5..19; :func:`tiny_go` for 1..4).

    Args:
        size: board size, 5..19 (default 9).
        komi: points given to White, a finite multiple of 0.5 (default 7.5).
        superko: ``"positional"`` (default), ``"situational"`` or ``"simple"`` (basic ko only).
        handicap: 0, or 2..:func:`max_handicap` black stones on GTP's fixed points; White
            then moves first.
        scoring: ``"win_loss"`` (returns +-1, 0 for a tie) or ``"area"`` (returns the area
            score: black area - white area - komi, and its negation).
        max_moves: plies (passes included) after which the game ends and is scored as it
            stands; default ``3 * size * size``.

    Each bad value is one :class:`~searchlab.core.errors.InvalidParameterError` naming it.

    Attributes: the parameters (``size``, ``komi``, ``superko``, ``handicap``, ``scoring``,
    ``max_moves``), ``handicap_stones`` (the sorted points of the handicap stones),
    ``pass_action`` (``size * size``, also ``PASS``) and ``info`` (name ``"go"``).

    >>> Go(9).info.max_game_length, Go(9, scoring="area").info.max_utility
    (243, 88.5)
    >>> Go(4)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: go: size must be an integer in 5..19, got 4
    """

    PASS: int
    """The pass action of this board, ``size * size`` (also :attr:`pass_action`)."""

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        *,
        superko: Literal["positional", "situational", "simple"] = "positional",
        handicap: int = 0,
        scoring: Literal["win_loss", "area"] = "win_loss",
        max_moves: int | None = None,
    ) -> None:
        self._setup(size, komi, superko, handicap, scoring, max_moves, MIN_SIZE)

    def _setup(
        self,
        size: Any,
        komi: Any,
        superko: Any,
        handicap: Any,
        scoring: Any,
        max_moves: Any,
        min_size: int,
    ) -> None:
        high = MAX_SIZE if min_size == MIN_SIZE else MIN_SIZE - 1
        self.size: int = integer("go", "size", size, min_size, high)
        self.komi: float = _komi(komi)
        self.superko: str = choice("go", "superko", superko, SUPERKO_RULES)
        self.scoring: str = choice("go", "scoring", scoring, SCORINGS)
        points = self.size * self.size
        if isinstance(max_moves, str) and max_moves.lower() == "none":
            max_moves = None
        self.max_moves: int = (
            3 * points if max_moves is None else integer("go", "max_moves", max_moves, 1, 10**9)
        )
        if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap != 0:
            self.handicap_stones: tuple[int, ...] = handicap_points(self.size, handicap)
        else:
            self.handicap_stones = ()
        self.handicap: int = len(self.handicap_stones)
        self.pass_action: int = points
        self.PASS = points
        self._geometry = _geometry(self.size)
        self._keys: tuple[tuple[int, ...], ...] = (
            (),
            tuple(int(k) for k in ZOBRIST[0, :points]),
            tuple(int(k) for k in ZOBRIST[1, :points]),
        )
        self.info = GameInfo(
            name="go",
            max_game_length=self.max_moves,
            max_utility=1.0 if self.scoring == "win_loss" else points + abs(self.komi),
        )

    # -- states ----------------------------------------------------------------------------------
    def initial_state(self) -> GoState:
        """The empty board (with the handicap stones, White to move, when there are any)."""
        board = bytearray(self.size * self.size)
        for p in self.handicap_stones:
            board[p] = BLACK
        return self._start(bytes(board), 1 if self.handicap else 0, -1)

    def position(
        self,
        black: Iterable[int | str] = (),
        white: Iterable[int | str] = (),
        to_move: int | str = 0,
        *,
        ko_point: int | str | None = None,
    ) -> GoState:
        """A hand-built position: the stones of each colour (points or vertices like
        ``"D4"``), the player to move (0 / ``"black"`` / ``"b"`` or 1 / ``"white"`` /
        ``"w"``) and, optionally, the point the basic ko forbids now. Its history holds only
        this position; it has no moves.

        Raises ``InvalidStateError`` quoting a point given twice, a chain without liberties,
        a bad player or ko point; ``IllegalMoveError`` quoting an unknown vertex.

        >>> print(Go(5).position(black=["A1", "B3"], white=[6], to_move="white"))
           A B C D E
         5 . . . . .  5
         4 . . . . .  4
         3 . X . . .  3
         2 . O . . .  2
         1 X . . . .  1
           A B C D E
        white (O) to move, move 1, komi 7.5
        captures: black 0, white 0
        >>> Go(5).position(black=["A1"], white=["A2", "B1"])
        Traceback (most recent call last):
        ...
        searchlab.core.errors.InvalidStateError: go: bad position: the black chain at A1 has \
no liberty
        """
        size = self.size
        board = bytearray(size * size)
        for colour, stones in ((BLACK, black), (WHITE, white)):
            if isinstance(stones, str | int):
                stones = [stones]
            for stone in stones:
                p = self._point(stone)
                if board[p] != EMPTY:
                    raise InvalidStateError(
                        f"go: bad position: {point_to_vertex(p, size)} is given twice"
                    )
                board[p] = colour
        player = _player(to_move)
        _, chains = _chains(bytes(board), self._geometry.neighbours)
        for colour, stones_of_chain, liberties in chains:
            if not liberties:
                raise InvalidStateError(
                    f"go: bad position: the {_COLOUR_NAMES[colour - 1]} chain at "
                    f"{point_to_vertex(min(stones_of_chain), size)} has no liberty"
                )
        ko = -1
        if ko_point is not None:
            ko = self._point(ko_point)
            if board[ko] != EMPTY:
                raise InvalidStateError(
                    f"go: bad position: the ko point {point_to_vertex(ko, size)} is not empty"
                )
        return self._start(bytes(board), player, ko)

    def _point(self, stone: int | str) -> int:
        size = self.size
        p = vertex_to_point(stone, size) if isinstance(stone, str) else stone
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < size * size:
            raise InvalidStateError(
                f"go: bad position: {stone!r} is not a point of the {size}x{size} board"
            )
        return p

    def _start(self, board: bytes, to_move: int, ko_point: int) -> GoState:
        board_key = _hash(board, self._keys)
        return GoState(
            game=self,
            board=board,
            to_move=to_move,
            ko_point=ko_point,
            passes=0,
            moves=(),
            captures=(0, 0),
            last_move=None,
            history=frozenset({self.history_key(board_key, to_move)}),
            board_hash=board_key,
        )

    def history_key(self, board_key: int, to_move: int) -> int:
        """The key :attr:`GoState.history` stores for a board hash with ``to_move`` to move:
        the board hash, XOR :data:`~searchlab.domains.games.go.zobrist.SIDE_TO_MOVE_KEY`
        when white is to move under situational superko.

        >>> Go(superko="situational").history_key(5, 1) == 5 ^ SIDE_TO_MOVE_KEY
        True
        """
        if self.superko == "situational" and to_move == 1:
            return board_key ^ SIDE_TO_MOVE_KEY
        return board_key

    _history_key = history_key

    # -- identity --------------------------------------------------------------------------------
    def _params(self) -> tuple[Any, ...]:
        return (self.size, self.komi, self.superko, self.handicap, self.scoring, self.max_moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Go) and self._params() == other._params()

    def __hash__(self) -> int:
        return hash(self._params())

    def __repr__(self) -> str:
        extras = [
            f"{name}={value!r}"
            for name, value, default in (
                ("superko", self.superko, "positional"),
                ("handicap", self.handicap, 0),
                ("scoring", self.scoring, "win_loss"),
                ("max_moves", self.max_moves, 3 * self.size * self.size),
            )
            if value != default
        ]
        return f"Go({', '.join([str(self.size), f'komi={self.komi}', *extras])})"


def tiny_go(
    size: int,
    komi: float = 7.5,
    *,
    superko: Literal["positional", "situational", "simple"] = "positional",
    scoring: Literal["win_loss", "area"] = "win_loss",
    max_moves: int | None = None,
) -> Go:
    """Go on a 1x1 to 4x4 board, for counting positions and for teaching (not registered);
    the parameters of :class:`Go` but handicap (boards this small have no handicap points).

    >>> state = tiny_go(2).initial_state()
    >>> [state.action_to_string(a) for a in state.legal_actions()]
    ['A1', 'B1', 'A2', 'B2', 'pass']
    >>> tiny_go(5)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: go: size must be an integer in 1..4, got 5
    """
    game = Go.__new__(Go)
    game._setup(size, komi, superko, 0, scoring, max_moves, 1)
    return game


def _player(value: int | str) -> int:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("b", "black", "x"):
            return 0
        if word in ("w", "white", "o"):
            return 1
    elif not isinstance(value, bool) and value in (0, 1):
        return int(value)
    raise InvalidStateError(
        f"go: bad player to move {value!r}: expected 0 / black / b or 1 / white / w"
    )


def _index(action: object) -> int | None:
    """``action`` as an int when it is an integer (numpy's too, not a bool), else None."""
    if isinstance(action, bool):
        return None
    if isinstance(action, int):
        return action
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def _hash(board: bytes, keys: tuple[tuple[int, ...], ...]) -> int:
    value = 0
    for p, colour in enumerate(board):
        if colour:
            value ^= keys[colour][p]
    return value


# -- states --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GoState:
    """One position of a game of Go. Immutable: :meth:`apply` returns a new state.

    Attributes:
        game: the rules (:class:`Go`).
        board: one byte per point ``p = row * size + col``: 0 empty, 1 black, 2 white.
        to_move: 0 black, 1 white.
        ko_point: the point the basic ko forbids now (-1: none).
        passes: consecutive passes just played (2 ends the game).
        moves: every action since the game's initial state, passes included (handicap stones
            are part of the initial state).
        captures: stones captured so far by black, by white.
        last_move: the last action (a point or the pass), ``None`` before the first.
        history: Zobrist hashes of every position seen, this one included (board hashes;
            XOR :data:`~searchlab.domains.games.go.zobrist.SIDE_TO_MOVE_KEY` when white is
            to move under situational superko).
        board_hash: Zobrist hash of :attr:`board` (computed when not given).
    """

    game: Go
    board: bytes
    to_move: int
    ko_point: int
    passes: int
    moves: tuple[int, ...]
    captures: tuple[int, int]
    last_move: int | None
    history: frozenset[int] = field(repr=False)
    board_hash: int = field(repr=False, default=-1)
    _cache: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.board_hash < 0:  # not given: computed from the board
            object.__setattr__(self, "board_hash", _hash(self.board, self.game._keys))

    # -- the State protocol ----------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to move: 0 black, 1 white."""
        return self.to_move

    def is_terminal(self) -> bool:
        """Two consecutive passes, or ``max_moves`` plies played."""
        return self.passes >= 2 or len(self.moves) >= self.game.max_moves

    def legal_actions(self) -> list[int]:
        """The legal points in increasing order, then the pass; ``[]`` when the game is over."""
        cached = self._cache.get("legal")
        if cached is None:
            if self.is_terminal():
                cached = []
            else:
                examine = self._examine
                cached = [
                    p
                    for p, colour in enumerate(self.board)
                    if colour == EMPTY and examine(p)[0] is None
                ]
                cached.append(self.game.pass_action)
            self._cache["legal"] = cached
        return list(cached)

    def is_legal(self, action: int) -> bool:
        """True when ``action`` (a point or the pass) may be played now."""
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: int) -> str | None:
        """Why ``action`` may not be played now: ``"off the board"``, ``"game over"``,
        ``"occupied"``, ``"ko"`` (the basic ko), ``"suicide"``, ``"superko"``; ``None`` when
        it is legal.

        >>> state = Go(5).position(black=["A1", "B2"], white=["B1", "C2", "D1"])
        >>> state = state.apply(state.string_to_action("C1"))  # takes B1: a ko
        >>> [state.illegal_reason(p) for p in (0, 1, 25, 26)]
        ['occupied', 'ko', None, 'off the board']
        """
        points = self.game.pass_action
        action = _index(action)  # type: ignore[assignment]
        if action is None or not 0 <= action <= points:
            return "off the board"
        if self.is_terminal():
            return "game over"
        if action == points:
            return None
        return self._examine(action)[0]

    def apply(self, action: int) -> GoState:
        """The position after ``action``; raises ``IllegalMoveError`` quoting the vertex and
        the reason when it is not legal.

        >>> Go(5).initial_state().apply(12).apply(12)
        Traceback (most recent call last):
        ...
        searchlab.core.errors.IllegalMoveError: illegal move C3 for white: occupied
        """
        game = self.game
        points = game.pass_action
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(self._illegal_message(action, reason))
        action = int(action)  # numpy integers too
        mover = self.to_move
        following = 1 - mover
        if action == points:
            history = self.history
            if game.superko == "situational":
                history = history | {game.history_key(self.board_hash, following)}
            return GoState(
                game=game,
                board=self.board,
                to_move=following,
                ko_point=-1,
                passes=self.passes + 1,
                moves=(*self.moves, action),
                captures=self.captures,
                last_move=action,
                history=history,
                board_hash=self.board_hash,
            )
        _, captured, new_hash = self._examine(action)
        colour = mover + 1
        board = bytearray(self.board)
        board[action] = colour
        for p in captured:
            board[p] = EMPTY
        ko = -1
        if len(captured) == 1:
            # a lone stone that took one stone and has that point as its only liberty
            neighbours = game._geometry.neighbours[action]
            if all(board[q] == 3 - colour or q == captured[0] for q in neighbours):
                ko = captured[0]
        black, white = self.captures
        if mover == 0:
            black += len(captured)
        else:
            white += len(captured)
        return GoState(
            game=game,
            board=bytes(board),
            to_move=following,
            ko_point=ko,
            passes=0,
            moves=(*self.moves, action),
            captures=(black, white),
            last_move=action,
            history=self.history | {game.history_key(new_hash, following)},
            board_hash=new_hash,
        )

    def _illegal_message(self, action: object, reason: str) -> str:
        game = self.game
        who = _COLOUR_NAMES[self.to_move]
        if reason == "off the board":
            return (
                f"illegal move {action!r} for {who}: off the board (points "
                f"0..{game.pass_action - 1}, pass {game.pass_action})"
            )
        vertex = point_to_vertex(action, game.size)  # type: ignore[arg-type]
        if reason == "game over":
            return f"illegal move {vertex} for {who}: the game is over"
        detail = {
            "ko": " (retaking the ko at once)",
            "superko": f" (it repeats an earlier position: {game.superko} superko)",
        }.get(reason, "")
        return f"illegal move {vertex} for {who}: {reason}{detail}"

    def returns(self) -> tuple[float, float]:
        """``(black, white)`` of a finished game: +-1 / 0 by the sign of :meth:`area_score`
        (``scoring="win_loss"``) or the score itself (``"area"``); zeros before the end."""
        if not self.is_terminal():
            return (0.0, 0.0)
        score = self.area_score()
        if self.game.scoring == "win_loss":
            score = float((score > 0) - (score < 0))
        return (score + 0.0, -score + 0.0)

    def key(self) -> Hashable:
        """``(board, to_move, ko_point, passes)``. It does not hold the history, so under
        superko two states with equal keys may differ in a move that repeats a position."""
        return (self.board, self.to_move, self.ko_point, self.passes)

    def action_to_string(self, action: int) -> str:
        """``"D4"``, ``"pass"``."""
        return point_to_vertex(action, self.game.size)

    def string_to_action(self, text: str) -> int:
        """Parse a vertex or ``pass``; raises ``IllegalMoveError`` quoting ``text`` when it is
        not a vertex of the board, or naming the vertex and why when the move is illegal
        here."""
        action = vertex_to_point(text, self.game.size)
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(self._illegal_message(action, reason))
        return action

    # -- Go ----------------------------------------------------------------------------------
    def area_score(self) -> float:
        """Tromp-Taylor area score: black area - white area - komi (positive: black ahead)."""
        black, white = area(self.board, self.game.size)
        return black - white - self.game.komi

    def result(self) -> str:
        """The result as GTP's ``final_score`` writes it: ``"B+3.5"``, ``"W+0.5"``, ``"0"``.

        >>> Go(5, komi=0.5).initial_state().result()
        'W+0.5'
        """
        score = self.area_score()
        if score == 0:
            return "0"
        return f"{'B' if score > 0 else 'W'}+{abs(score):g}"

    def playout_actions(self) -> list[int]:
        """The moves a random playout considers: the legal points that do not fill an eye of
        the player to move, or the pass alone when there are none (``[]`` when the game is
        over). An eye here is an empty point whose neighbours are all the mover's stones and
        whose diagonals hold at most one opponent stone (none on the edge or in a corner).

        >>> state = Go(5).position(black=["A2", "B1", "B2", "C1"], white=["E5"])
        >>> 0 in state.playout_actions(), 0 in state.legal_actions()
        (False, True)
        """
        cached = self._cache.get("playout")
        if cached is None:
            if self.is_terminal():
                cached = []
            else:
                examine, eye = self._examine, self.fills_own_eye
                cached = [
                    p
                    for p, colour in enumerate(self.board)
                    if colour == EMPTY and not eye(p) and examine(p)[0] is None
                ]
                if not cached:
                    cached = [self.game.pass_action]
            self._cache["playout"] = cached
        return list(cached)

    def fills_own_eye(self, point: int) -> bool:
        """True when the empty ``point`` is an eye of the player to move (see
        :meth:`playout_actions`)."""
        board = self.board
        geometry = self.game._geometry
        colour = self.to_move + 1
        if board[point] != EMPTY:
            return False
        for q in geometry.neighbours[point]:
            if board[q] != colour:
                return False
        enemy = 3 - colour
        bad = 0
        for q in geometry.diagonals[point]:
            if board[q] == enemy:
                bad += 1
        return bad == 0 if geometry.edge[point] else bad <= 1

    def stones(self) -> tuple[int, int]:
        """``(black stones, white stones)`` on the board."""
        return self.board.count(BLACK), self.board.count(WHITE)

    def _context(self) -> tuple[Any, ...]:
        """What :meth:`_examine` needs, computed once per state: the chains (a label per
        point, each chain's stones and liberty count) and the keys."""
        context = self._cache.get("context")
        if context is None:
            game = self.game
            label, chains = _chains(self.board, game._geometry.neighbours)
            colour = self.to_move + 1
            # the key a position reached by a move of the mover is stored under
            side = SIDE_TO_MOVE_KEY if game.superko == "situational" and colour == 1 else 0
            context = self._cache["context"] = (
                label,
                [stones for _, stones, _ in chains],
                [len(liberties) for _, _, liberties in chains],
                game._geometry.neighbours,
                colour,
                game._keys[colour],
                game._keys[3 - colour],
                game.superko != "simple",
                side,
            )
        return context

    def _examine(self, p: int) -> tuple[str | None, list[int], int]:
        """``(reason it is illegal or None, stones it captures, board hash after it)`` for a
        stone of the player to move on the point ``p``: the one place the rules of a move
        are written (occupied, basic ko, captures, suicide, superko)."""
        board = self.board
        if board[p] != EMPTY:
            return "occupied", [], 0
        if p == self.ko_point:
            return "ko", [], 0
        label, stones_of, liberties_of, neighbours, colour, mine, theirs, check, side = (
            self._context()
        )
        captured: list[int] = []
        breathes = False
        taken: list[int] = []
        for q in neighbours[p]:
            c = board[q]
            if c == EMPTY:
                breathes = True
            elif c == colour:
                if liberties_of[label[q]] > 1:  # p was one of them: others remain
                    breathes = True
            elif liberties_of[label[q]] == 1 and label[q] not in taken:  # p was the last
                taken.append(label[q])
                captured.extend(stones_of[label[q]])
        if not breathes and not captured:
            return "suicide", [], 0
        new_hash = self.board_hash ^ mine[p]
        for stone in captured:
            new_hash ^= theirs[stone]
        if check and new_hash ^ side in self.history:
            return "superko", captured, new_hash
        return None, captured, new_hash

    # -- text ----------------------------------------------------------------------------------
    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """The board as text, row ``size`` at the top: ``X`` black, ``O`` white, ``.`` empty;
        the last stone played in parentheses, the basic-ko point as ``*``; then who is to
        move (or the result), the captures and the last move.

        >>> state = Go(5).position(black=["A1", "B2"], white=["B1", "C2", "D1"])
        >>> print(state.apply(state.string_to_action("C1")))
           A B C D E
         5 . . . . .  5
         4 . . . . .  4
         3 . . . . .  3
         2 . X O . .  2
         1 X *(X)O .  1
           A B C D E
        white (O) to move, move 2, komi 7.5
        captures: black 1, white 0; last move: black C1; ko: white may not retake at B1 (*)
        """
        game = self.game
        size = game.size
        cells = [_STONE[c] for c in self.board]
        if self.ko_point >= 0:
            cells[self.ko_point] = "*"
        last = self.last_move if self.last_move is not None else -1
        header = "   " + " ".join(COLUMNS[:size])
        lines = [header]
        for row in range(size - 1, -1, -1):
            text = ""
            for col in range(size):
                p = row * size + col
                if p == last:
                    text += f"({cells[p]})"
                elif p - 1 == last and col:
                    text += cells[p]
                else:
                    text += " " + cells[p]
            if last != row * size + size - 1:
                text += " "
            lines.append(f"{row + 1:2d}{text}{row + 1:2d}")
        lines.append(header)
        move = len(self.moves) + 1
        if self.is_terminal():
            why = "two passes" if self.passes >= 2 else f"{game.max_moves} moves"
            status = f"game over ({why}) after {len(self.moves)} moves: {self.result()}"
            status += f" (area score {self.area_score():+g}, komi {game.komi:g})"
        else:
            who = _COLOUR_NAMES[self.to_move]
            status = f"{who} ({'XO'[self.to_move]}) to move, move {move}, komi {game.komi:g}"
        lines.append(status)
        legend = f"captures: black {self.captures[0]}, white {self.captures[1]}"
        if self.last_move is not None:
            mover = _COLOUR_NAMES[1 - self.to_move]
            legend += f"; last move: {mover} {point_to_vertex(self.last_move, size)}"
        if self.ko_point >= 0:
            legend += (
                f"; ko: {_COLOUR_NAMES[self.to_move]} may not retake at "
                f"{point_to_vertex(self.ko_point, size)} (*)"
            )
        lines.append(legend)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"GoState({self.game!r}, moves={[self.action_to_string(a) for a in self.moves]}, "
            f"to_move={'BW'[self.to_move]})"
        )
