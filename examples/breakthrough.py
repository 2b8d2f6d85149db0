"""Breakthrough (Dan Troyka, 2000), a game searchlab does not ship, in one file and two tiers.

The rules: on a ``size`` x ``size`` board (5 to 8, 6 by default) each player starts with two
full rows of pawns on their own side: White (player 0) on ranks 1 and 2, moving first and up
the board; Black (player 1) on the last two ranks, moving down. A pawn steps one square
forward: straight onto an empty square, or diagonally onto an empty square or capturing an
enemy pawn there. A player wins by reaching the far rank (the opponent's home rank) or by
taking the opponent's last pawn; a player who cannot move loses (only possible without pawns).
There are no draws: the returns are +1 / -1.

Actions are ints ``from_square * 3 + direction``: squares row-major from White's side (``a1``
is 0, ``b1`` 1, ``a2`` is ``size``), direction 0 diagonal left, 1 straight, 2 diagonal right,
*from the mover's view* (Black faces down the board: Black's left is toward the last file).
Legal actions come in increasing order. The notation is ``FROM-TO``: ``a2-b3`` (``a2xb3``
is read too).

The two tiers:

1. the *reference* tier, :class:`Breakthrough` and :class:`BreakthroughState`: the Game /
   State protocol in plain Python, so every algorithm and command of searchlab takes it;
2. the *compiled* rules: numba functions on two ``uint64`` words, for the compiled MCTS
   (:func:`compiled_rules` gives them as a dict), with the same action numbers.

The compiled position ``(a, b)`` is seen from the player to move, the board turned 180
degrees for Black, so the mover's pawns always move "up" (bit ``row * size + col`` of the
turned board; for White the board as it is). ``b`` holds the opponent's pawns; ``a`` the
mover's pawns in bits 0..55, and a header in its top byte: ``size`` in bits 56..59 and bit 63
set when Black is to move. The header never meets a pawn: the mover never has a pawn on its
own last rank (reaching it ends the game on the mover's previous turn), and on 8 x 8 bits
56..63 are that rank. The turn keeps the action numbers: a square ``s`` of the turned board is
square ``size * size - 1 - s`` of the real one, and Black's left is the turned board's left.
From Python, pass the words and the generator as ``np.uint64`` (numba hands them back as ints).

Run it (from the repository root)::

    searchlab play examples/breakthrough.py:Breakthrough     # you (White) against mcts:time=1
    searchlab play examples/breakthrough.py:Breakthrough -p size=5 --second mcts:time=0.2
    searchlab arena examples/breakthrough.py:Breakthrough mcts:time=0.1 random --games 10
    python examples/breakthrough.py     # conformance, and the two tiers side by side
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from searchlab.algorithms.mcts import CompiledGame, next_below, register_compiled_game
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import GameInfo
from searchlab.learning.networks.encoder import BaseEncoder, Symmetry, identity_symmetry

__all__ = [
    "MAX_BRANCHING",
    "Breakthrough",
    "BreakthroughEncoder",
    "BreakthroughState",
    "actions",
    "compiled_rules",
    "encode",
    "max_branching",
    "play",
    "rollout",
    "status",
]

MIN_SIZE, MAX_SIZE = 5, 8
ROWS = 2
"""Rows of pawns each side starts with (fixed)."""
_NAMES = ("White", "Black")
_SYMBOLS = ("W", "B")
_FILES = "abcdefgh"
_MOVE = re.compile(r"^\s*([a-z])(\d+)\s*[-x]\s*([a-z])(\d+)\s*$", re.IGNORECASE)


def max_branching(size: int) -> int:
    """A bound on the legal actions of a position: three per pawn, ``2 * size`` pawns."""
    return 3 * ROWS * size


MAX_BRANCHING = max_branching(MAX_SIZE)
"""The bound over every size: 48."""


def max_game_length(size: int) -> int:
    """A bound on the plies of a game: every ply moves a pawn one rank forward, and a pawn
    that starts on rank ``r`` (0-based) has ``size - 1 - r`` ranks ahead."""
    return 2 * sum(size * (size - 1 - rank) for rank in range(ROWS))


class Breakthrough:
    """The rules on a ``size`` x ``size`` board.

    >>> state = Breakthrough(size=5).initial_state()
    >>> print(state)
    5  B B B B B
    4  B B B B B
    3  . . . . .
    2  W W W W W
    1  W W W W W
       a b c d e
    >>> [state.action_to_string(a) for a in state.legal_actions()[:4]]
    ['a2-a3', 'a2-b3', 'b2-a3', 'b2-b3']
    >>> Breakthrough(size=9)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: size must be an integer from 5 to 8, got 9
    """

    notation = "FROM-TO, like a2-b3: a pawn steps one square forward, straight or diagonally"

    def __init__(self, size: int = 6) -> None:
        if (
            isinstance(size, bool)
            or not isinstance(size, int | np.integer)
            or not MIN_SIZE <= size <= MAX_SIZE
        ):
            raise InvalidParameterError(
                f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}"
            )
        self.size = int(size)
        self.info = GameInfo(
            name="breakthrough", max_game_length=max_game_length(self.size), max_utility=1.0
        )

    def encoder(self) -> BreakthroughEncoder:
        """What a network sees of this game (``searchlab train``, the ``az`` agent)."""
        return BreakthroughEncoder(self.size)

    def initial_state(self) -> BreakthroughState:
        """Two rows of pawns each, White to move."""
        n = self.size
        white = sum(1 << square for square in range(ROWS * n))
        black = sum(1 << square for square in range((n - ROWS) * n, n * n))
        return BreakthroughState(n, white, black, 0)

    def __repr__(self) -> str:
        return f"Breakthrough(size={self.size})"


class BreakthroughState:
    """One position. Immutable: :meth:`apply` returns a new state.

    Attributes:
        size: board side.
        white, black: the pawns of each side, as ints (bit ``s`` set: a pawn on square ``s``,
            ``s = row * size + column``, row 0 is White's home rank).
        player: who moves, 0 (White) or 1 (Black).
    """

    __slots__ = ("_legal", "black", "player", "size", "white")

    def __init__(self, size: int, white: int, black: int, player: int) -> None:
        self.size, self.white, self.black, self.player = size, white, black, player
        self._legal: list[int] | None = None

    # -- the rules ------------------------------------------------------------------------
    def pawns(self, player: int) -> int:
        """The squares of ``player``'s pawns, as an int."""
        return self.black if player else self.white

    def _target(self, square: int, direction: int, player: int) -> int | None:
        """Where a pawn of ``player`` on ``square`` goes in ``direction``; None off the board."""
        row, column = divmod(square, self.size)
        row += -1 if player else 1  # forward: up for White, down for Black
        column += (direction - 1) * (-1 if player else 1)  # left is the mover's left
        if 0 <= row < self.size and 0 <= column < self.size:
            return row * self.size + column
        return None

    def _won_by_previous(self) -> bool:
        """The player who just moved has a pawn on their far rank."""
        n, previous = self.size, 1 - self.player
        far = range(n * (n - 1), n * n) if previous == 0 else range(n)
        return any(self.pawns(previous) >> square & 1 for square in far)

    def legal_actions(self) -> list[int]:
        """``square * 3 + direction`` for every pawn move, in increasing order; none when
        the game is over."""
        if self._legal is None:
            self._legal = [] if self._won_by_previous() else self._moves()
        return list(self._legal)

    def _moves(self) -> list[int]:
        mine, theirs = self.pawns(self.player), self.pawns(1 - self.player)
        moves = []
        for square in range(self.size * self.size):
            if not mine >> square & 1:
                continue
            for direction in (0, 1, 2):
                target = self._target(square, direction, self.player)
                if target is None or mine >> target & 1:
                    continue  # off the board, or one's own pawn
                if direction == 1 and theirs >> target & 1:
                    continue  # straight ahead only onto an empty square
                moves.append(square * 3 + direction)
        return moves

    def apply(self, action: int) -> BreakthroughState:
        """The position after ``action``; raises ``IllegalMoveError`` if it is not legal."""
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMoveError(f"illegal action {action!r}: not an int")
        if action not in legal:
            if self.is_terminal():
                raise IllegalMoveError(f"illegal action {action!r}: the game is already over")
            raise IllegalMoveError(f"illegal action {action!r}: not among {legal}")
        square, direction = divmod(int(action), 3)
        target = self._target(square, direction, self.player)
        assert target is not None
        move = 1 << square | 1 << target
        if self.player == 0:
            return BreakthroughState(self.size, self.white ^ move, self.black & ~move, 1)
        return BreakthroughState(self.size, self.white & ~move, self.black ^ move, 0)

    def is_terminal(self) -> bool:
        """Someone reached the far rank, or the player to move has no pawn (or no move)."""
        return not self.legal_actions()

    def returns(self) -> tuple[float, float]:
        """The player to move at the end has lost: ``(-1, 1)`` or ``(1, -1)``."""
        if not self.is_terminal():
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)

    def current_player(self) -> int:
        return self.player

    def key(self) -> tuple[int, int, int]:
        return (self.white, self.black, self.player)

    # -- notation -------------------------------------------------------------------------
    def square_name(self, square: int) -> str:
        row, column = divmod(square, self.size)
        return f"{_FILES[column]}{row + 1}"

    def action_to_string(self, action: int) -> str:
        """``a2-b3``: the pawn's square and where it goes."""
        square, direction = divmod(int(action), 3)
        target = self._target(square, direction, self.player)
        if not 0 <= square < self.size * self.size or target is None:
            raise IllegalMoveError(f"action {action!r} is no pawn move on this board")
        return f"{self.square_name(square)}-{self.square_name(target)}"

    def string_to_action(self, text: str) -> int:
        """Parse ``FROM-TO`` (``a2-b3`` or ``a2xb3``); raises ``IllegalMoveError`` for a
        malformed or illegal move, one line saying why."""
        match = _MOVE.match(text) if isinstance(text, str) else None
        if match is None:
            raise IllegalMoveError(f"malformed move {text!r}: expected FROM-TO, like a2-b3")
        squares = []
        for file, rank in (match.group(1, 2), match.group(3, 4)):
            column, row = ord(file.lower()) - ord("a"), int(rank) - 1
            if not (0 <= column < self.size and 0 <= row < self.size):
                raise IllegalMoveError(
                    f"illegal move {text!r}: {file}{rank} is off the {self.size}x{self.size} board"
                )
            squares.append(row * self.size + column)
        start, end = squares
        if self.is_terminal():
            raise IllegalMoveError(f"illegal move {text!r}: the game is already over")
        name = _NAMES[self.player]
        if not self.pawns(self.player) >> start & 1:
            raise IllegalMoveError(
                f"illegal move {text!r}: no {name} pawn on {self.square_name(start)}"
            )
        for direction in (0, 1, 2):
            if self._target(start, direction, self.player) == end:
                action = start * 3 + direction
                if action in self.legal_actions():
                    return action
                why = "is not empty" if direction == 1 else f"holds a {name} pawn"
                raise IllegalMoveError(f"illegal move {text!r}: {self.square_name(end)} {why}")
        raise IllegalMoveError(
            f"illegal move {text!r}: a {name} pawn steps one square "
            f"{'down' if self.player else 'up'} the board, straight or diagonally"
        )

    def __str__(self) -> str:
        n = self.size
        lines = []
        for row in range(n - 1, -1, -1):
            cells = []
            for column in range(n):
                square = row * n + column
                white, black = self.white >> square & 1, self.black >> square & 1
                cells.append(_SYMBOLS[0] if white else _SYMBOLS[1] if black else ".")
            lines.append(f"{row + 1}  {' '.join(cells)}")
        lines.append("   " + " ".join(_FILES[:n]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"BreakthroughState(size={self.size}, {_NAMES[self.player]} to move)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BreakthroughState):
            return NotImplemented
        return self.size == other.size and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.size, *self.key()))


# -- the compiled rules -------------------------------------------------------------------------
_U0, _U1 = np.uint64(0), np.uint64(1)
_BLACK_TO_MOVE = np.uint64(1 << 63)
_SIZE_SHIFT = np.uint64(56)
_NIBBLE = np.uint64(0xF)
_PAWN_BITS = np.uint64((1 << 56) - 1)


def _masks(size: int) -> tuple[int, int, int, int, int]:
    """Board, not-first-file, not-last-file, first rank and last rank of a ``size`` board."""
    cells = size * size
    board = (1 << cells) - 1
    first_file = sum(1 << (row * size) for row in range(size))
    last_file = first_file << (size - 1)
    first_rank = (1 << size) - 1
    return board, board & ~first_file, board & ~last_file, first_rank, first_rank << (cells - size)


# indexed by size (0..8; 0..4 unused), read by the kernels as constants
_TABLES = [_masks(size) if size >= MIN_SIZE else (0,) * 5 for size in range(MAX_SIZE + 1)]
_BOARD, _NOT_FIRST_FILE, _NOT_LAST_FILE, _FIRST_RANK, _LAST_RANK = (
    np.array([row[part] for row in _TABLES], dtype=np.uint64) for part in range(5)
)
# the 64-bit reversal, in six swaps
_SWAPS = tuple(
    (np.uint64(shift), np.uint64(mask))
    for shift, mask in (
        (1, 0x5555555555555555),
        (2, 0x3333333333333333),
        (4, 0x0F0F0F0F0F0F0F0F),
        (8, 0x00FF00FF00FF00FF),
        (16, 0x0000FFFF0000FFFF),
        (32, 0x00000000FFFFFFFF),
    )
)
_M1, _M2, _M4, _H01 = (
    np.uint64(m)
    for m in (0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101)
)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
(_R1, _K1), (_R2, _K2), (_R4, _K4), (_R8, _K8), (_R16, _K16), (_R32, _K32) = _SWAPS


@njit(cache=True, inline="always")
def _popcount(x):  # pragma: no cover - compiled
    """Set bits of a ``uint64`` (SWAR)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(cache=True, inline="always")
def _turn(x, size):  # pragma: no cover - compiled
    """The board ``x`` (``size * size`` bits) turned 180 degrees: its bits reversed."""
    x = ((x >> _R1) & _K1) | ((x & _K1) << _R1)
    x = ((x >> _R2) & _K2) | ((x & _K2) << _R2)
    x = ((x >> _R4) & _K4) | ((x & _K4) << _R4)
    x = ((x >> _R8) & _K8) | ((x & _K8) << _R8)
    x = ((x >> _R16) & _K16) | ((x & _K16) << _R16)
    x = (x >> _R32) | (x << _R32)
    return x >> np.uint64(64 - size * size)


@njit(cache=True, inline="always")
def _decode(a, b):  # pragma: no cover - compiled
    """``(mine, theirs, size, black_to_move)`` from the two words."""
    a, b = np.uint64(a), np.uint64(b)
    size = np.int64((a >> _SIZE_SHIFT) & _NIBBLE)
    return a & _PAWN_BITS, b, size, (a & _BLACK_TO_MOVE) != _U0


@njit(cache=True, inline="always")
def _movers(mine, theirs, size):  # pragma: no cover - compiled
    """The pawns of ``mine`` (moving up) that can step diagonally left, straight, right."""
    n = np.uint64(size)
    empty = _BOARD[size] & ~(mine | theirs)
    target = empty | theirs
    left = mine & _NOT_FIRST_FILE[size] & (target >> (n - _U1))
    straight = mine & (empty >> n)
    right = mine & _NOT_LAST_FILE[size] & (target >> (n + _U1))
    return left, straight, right


@njit(cache=True)
def actions(a, b, out, offset):  # pragma: no cover - compiled
    """The legal actions of the (non-terminal) position ``(a, b)``, in increasing order,
    written into ``out[offset:offset + n]``; returns ``n``."""
    mine, theirs, size, black = _decode(a, b)
    left, straight, right = _movers(mine, theirs, size)
    if black:  # back to the real board: the action numbers are its squares
        left, straight, right = _turn(left, size), _turn(straight, size), _turn(right, size)
    pawns = left | straight | right
    n = 0
    while pawns:
        low = pawns & (~pawns + _U1)
        base = 3 * _popcount(low - _U1)
        if left & low:
            out[offset + n] = base
            n += 1
        if straight & low:
            out[offset + n] = base + 1
            n += 1
        if right & low:
            out[offset + n] = base + 2
            n += 1
        pawns ^= low
    return n


@njit(cache=True)
def play(a, b, action):  # pragma: no cover - compiled
    """The position after the mover plays ``action``, seen from the other player."""
    mine, theirs, size, black = _decode(a, b)
    action = np.int64(action)
    square, direction = action // 3, action % 3
    if black:
        square = size * size - 1 - square
    start = _U1 << np.uint64(square)
    end = start << np.uint64(size - 1 + direction)
    mine = (mine | end) & ~start
    theirs &= ~end
    header = np.uint64(size) << _SIZE_SHIFT
    if not black:
        header |= _BLACK_TO_MOVE
    return _turn(theirs, size) | header, _turn(mine, size)


@njit(cache=True)
def status(a, b, config):  # pragma: no cover - compiled
    """``(is_terminal, value for the player to move)``: -1.0 when the game is over (the
    previous player won), 0.0 otherwise. ``config`` is not used."""
    mine, theirs, size, _ = _decode(a, b)
    if theirs & _FIRST_RANK[size] or mine == _U0:
        return True, -1.0
    left, straight, right = _movers(mine, theirs, size)
    if (left | straight | right) == _U0:
        return True, -1.0
    return False, 0.0


@njit(cache=True)
def rollout(a, b, rng, config):  # pragma: no cover - compiled
    """Uniformly random legal moves to the end from the non-terminal ``(a, b)``:
    ``(+1.0 or -1.0 for the player to move here, rng)``. ``config`` is not used.

    Each ply draws ``k = next_below(rng, n)`` over the ``n`` legal moves and plays the
    ``k``-th of them in the order (direction, from-square): the diagonal-left moves by
    increasing square, then the straight ones, then the diagonal-right ones (on the real
    board, so that Python can replay a rollout: ``sorted(legal, key=lambda a: (a % 3, a))``).
    """
    mine, theirs, size, black = _decode(a, b)
    rng = np.uint64(rng)
    if black:
        white, black_pawns, white_moves = _turn(theirs, size), _turn(mine, size), False
    else:
        white, black_pawns, white_moves = mine, theirs, True
    board = _BOARD[size]
    not_first, not_last = _NOT_FIRST_FILE[size], _NOT_LAST_FILE[size]
    first_rank, last_rank = _FIRST_RANK[size], _LAST_RANK[size]
    n = np.uint64(size)
    shifts = (n - _U1, n, n + _U1)  # by direction: left, straight, right
    sign = 1.0
    while True:
        empty = board & ~(white | black_pawns)
        if white_moves:  # up the board: a square's number grows by size - 1, size, size + 1
            target = empty | black_pawns
            left = white & not_first & (target >> shifts[0])
            straight = white & (empty >> shifts[1])
            right = white & not_last & (target >> shifts[2])
        else:  # down: Black's left is toward the last file
            target = empty | white
            left = black_pawns & not_last & (target << shifts[0])
            straight = black_pawns & (empty << shifts[1])
            right = black_pawns & not_first & (target << shifts[2])
        n_left, n_straight = _popcount(left), _popcount(straight)
        total = n_left + n_straight + _popcount(right)
        if total == 0:
            return -sign, rng  # no move: the mover has lost
        rng, k = next_below(rng, total)
        if k < n_left:
            pool, shift = left, shifts[0]
        elif k < n_left + n_straight:
            pool, shift, k = straight, shifts[1], k - n_left
        else:
            pool, shift, k = right, shifts[2], k - n_left - n_straight
        for _ in range(k):
            pool &= pool - _U1
        start = pool & (~pool + _U1)
        if white_moves:
            end = start << shift
            white = (white | end) & ~start
            black_pawns &= ~end
            if end & last_rank or black_pawns == _U0:
                return sign, rng
        else:
            end = start >> shift
            black_pawns = (black_pawns | end) & ~start
            white &= ~end
            if end & first_rank or white == _U0:
                return sign, rng
        white_moves = not white_moves
        sign = -sign


def _turn_int(x: int, size: int) -> int:
    """``x`` with its ``size * size`` bits reversed (the board turned 180 degrees)."""
    cells = size * size
    return int(format(x, f"0{cells}b")[::-1], 2)


def encode(state: BreakthroughState) -> tuple[np.uint64, np.uint64]:
    """``(a, b)``: the compiled words of the reference ``state`` (the protocol's ``encode``)."""
    size, player = state.size, state.player
    header = size << 56 | player << 63
    if player == 0:
        a, b = state.white | header, state.black
    else:
        a, b = _turn_int(state.black, size) | header, _turn_int(state.white, size)
    return np.uint64(a), np.uint64(b)


class BreakthroughEncoder(BaseEncoder):
    """What a network sees of Breakthrough, for ``searchlab train`` and the ``az`` agent: the
    board from the mover's side (turned 180 degrees for Black, as the compiled words are, so
    the mover always moves up), plane 0 the mover's pawns and plane 1 the opponent's; an
    action's policy index is the action on that turned board (``square * 3 + direction``, the
    direction already the mover's). Symmetry: the left-right mirror (diagonals swap).

    >>> encoder = BreakthroughEncoder(5)
    >>> black = Breakthrough(5).initial_state().apply(25)  # a2-a3, then Black moves
    >>> planes = encoder.encode(black)
    >>> planes.shape, int(planes[0, 0].sum()), int(planes[1, 2].sum())  # Black's own, White's
    ((2, 5, 5), 5, 1)
    >>> index = encoder.action_to_index(black, black.legal_actions()[0])
    >>> encoder.index_to_action(black, index) == black.legal_actions()[0]
    True
    """

    game_name = "breakthrough"

    def __init__(self, size: int) -> None:
        self.size = size
        self.shape = (2, size, size)
        self.num_actions = 3 * size * size
        self.game_params = {"size": size}

    def _cell(self, state: BreakthroughState, square: int) -> int:
        return square if state.player == 0 else self.size * self.size - 1 - square

    def encode(self, state: BreakthroughState) -> np.ndarray:
        cells = self.size * self.size
        planes = np.zeros((2, cells), dtype=np.float32)
        for plane, bits in enumerate((state.pawns(state.player), state.pawns(1 - state.player))):
            for square in range(cells):
                if bits >> square & 1:
                    planes[plane, self._cell(state, square)] = 1.0
        return planes.reshape(self.shape)

    def action_to_index(self, state: BreakthroughState, action: int) -> int:
        square, direction = divmod(super().action_to_index(state, action), 3)
        return self._cell(state, square) * 3 + direction

    def index_to_action(self, state: BreakthroughState, index: int) -> int:
        square, direction = divmod(super().index_to_action(state, index), 3)
        return self._cell(state, square) * 3 + direction

    def symmetries(self) -> list[Symmetry]:
        n = self.size
        cells = [row * n + (n - 1 - column) for row in range(n) for column in range(n)]
        actions = [cells[index // 3] * 3 + 2 - index % 3 for index in range(self.num_actions)]
        mirror = Symmetry("mirror", n, n, cell_source=cells, action_source=actions)
        return [identity_symmetry(n, n, self.num_actions), mirror]


def compiled_rules(game: Breakthrough) -> CompiledGame:
    """The compiled tier of ``game``: its rules for searchlab's compiled MCTS (the
    compiled-game protocol, ``searchlab.algorithms.mcts.CompiledGame``). Players alternate
    (no ``next_player``); ``status`` and ``rollout`` need no ``config``; ``num_actions`` lets
    the compiled loop keep RAVE's statistics."""
    if not isinstance(game, Breakthrough):
        raise InvalidParameterError(f"compiled_rules needs a Breakthrough game, got {game!r}")
    return CompiledGame(
        name="breakthrough",
        actions=actions,
        play=play,
        status=status,
        rollout=rollout,
        encode=encode,
        max_branching=max_branching(game.size),
        num_actions=3 * game.size * game.size,  # from_square * 3 + direction: RAVE runs compiled
    )


# Every Breakthrough game now searches in the compiled tier: mcts, the mcts agent, analyse,
# play and arena (the rules are played against the reference tier once, at the first search).
register_compiled_game(Breakthrough, compiled_rules)


def main() -> None:
    """Check the reference tier against the game protocol, then search the start position in
    both tiers of MCTS (the compiled one through the rules registered above) and compare."""
    import time

    from searchlab.algorithms.mcts import mcts
    from searchlab.core.limits import Limits
    from searchlab.domains.games.conformance import assert_conforms

    game = Breakthrough()
    report = assert_conforms(game, num_playouts=20)
    print(f"conformance: {report.states} states in {report.playouts} playouts, ok")
    state = game.initial_state()
    mcts(game, state, limits=Limits(simulations=100), seed=1, tier="compiled")  # compile once
    for tier, simulations in (("compiled", 200_000), ("reference", 2_000)):
        began = time.process_time()
        result = mcts(game, state, limits=Limits(simulations=simulations), seed=1, tier=tier)
        rate = simulations / (time.process_time() - began)
        move = state.action_to_string(result.action)
        print(f"{tier:>9} MCTS: {simulations:>7,} simulations, {rate:>9,.0f} a CPU second, {move}")


if __name__ == "__main__":
    # numba caches compiled functions under the name of the module that compiled them: run the
    # copy that searchlab's loader imports (named after this file's path), as every command does
    import sys

    from searchlab.games import make

    sys.modules[type(make(f"{__file__}:Breakthrough")).__module__].main()
