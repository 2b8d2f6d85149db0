"""The encoders of the built-in games, and :func:`encoder_for`, which finds a game's encoder.

Every board is seen from the player to move: plane 0 holds the mover's stones, plane 1 the
opponent's, and a plane of ones follows (with the zero padding of a convolution it shows the
network where the board ends). Action indices are the games' own action numbers.

============  ==================  ===========  =================================  ============
game          planes ``C,H,W``    actions      extra planes                       symmetries
============  ==================  ===========  =================================  ============
tictactoe     ``3, 3, 3``         9 cells      ones                               8 (square)
mnk           ``3, n, m``         ``m*n``      ones                               8 or 4
connect4      ``4, 6, 7``         7 columns    ones, the cell each column fills   2 (mirror)
othello       ``4, 8, 8``         64 + pass    ones, the mover's legal squares    8 (square)
gomoku        ``3, s, s``         ``s*s``      ones                               8 (square)
go            ``6, s, s``         ``s*s`` + 1  ones, black to move, the ko point,  8 (square)
                                               the opponent just passed
============  ==================  ===========  =================================  ============

Plane row ``r``, column ``c`` is the game's row ``r`` (row 0 at the bottom, or Othello's rank
1) and column ``c``; the cell's action is ``r * W + c`` (Connect Four: the column ``c``); a
pass (Othello, Go) is the last index. Rules that change only what a result is worth (Othello's
``scoring``, Go's ``komi`` and ``scoring``) are not part of the encoding: a checkpoint records
the board, not the stakes.

>>> from searchlab.domains.games.connect4 import Connect4, parse_moves
>>> encoder = encoder_for(Connect4())
>>> encoder.shape, encoder.num_actions, len(encoder.symmetries())
((4, 6, 7), 7, 2)
>>> planes = encoder.encode(parse_moves("44"))  # X to move again
>>> planes[:, :3, 3].tolist()  # column 4, rows 1-3: mine, theirs, ones, the next cell
[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
>>> encoder_for(type("Chess", (), {"info": type("I", (), {"name": "chess"})()})())
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: no encoder for the game 'chess'; known: connect4, \
go, gomoku, mnk, othello, tictactoe (give the game an encoder() method, or register_encoder one)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.learning.networks.encoder import BaseEncoder, Encoder, Symmetry, board_symmetries

__all__ = [
    "ENCODERS",
    "Connect4Encoder",
    "GoEncoder",
    "GomokuEncoder",
    "MNKEncoder",
    "OthelloEncoder",
    "encoder_for",
    "register_encoder",
]


def _bits_batch(values: Sequence[int], count: int) -> np.ndarray:
    """``float32 [len(values), count]``: the low ``count`` bits of each value (non-negative,
    below ``2 ** (8 * ceil(count / 8))``), bit ``i`` in column ``i``; one unpacking for all."""
    size = (count + 7) // 8
    mask = (1 << (8 * size)) - 1
    raw = np.frombuffer(b"".join((v & mask).to_bytes(size, "little") for v in values), np.uint8)
    bits = np.unpackbits(raw.reshape(len(values), size), axis=1, bitorder="little")
    return bits[:, :count].astype(np.float32)


class MNKEncoder(BaseEncoder):
    """Tic-tac-toe and the m,n,k-games: mine, theirs, ones on an ``n`` x ``m`` board; 8
    symmetries on a square board, 4 on a rectangle."""

    def __init__(self, m: int = 3, n: int = 3, k: int = 3, *, game_name: str = "mnk") -> None:
        self.game_name = game_name
        self.m, self.n, self.k = m, n, k
        self.shape = (3, n, m)
        self.num_actions = m * n
        self.game_params = {} if game_name == "tictactoe" else {"m": m, "n": n, "k": k}
        group = "dihedral" if m == n else "rectangle"
        self._symmetries = board_symmetries(n, m, group)

    def encode(self, state: Any) -> np.ndarray:
        """Planes of an :class:`~searchlab.domains.games.tictactoe.MNKState`."""
        board = np.asarray(state.board, dtype=np.int8).reshape(self.n, self.m)
        mine = state.current_player() + 1
        planes = np.empty(self.shape, dtype=np.float32)
        planes[0] = board == mine
        planes[1] = board == 3 - mine
        planes[2] = 1.0
        return planes

    def symmetries(self) -> list[Symmetry]:
        """Those of the square (8) or of the rectangle (4)."""
        return list(self._symmetries)


class Connect4Encoder(BaseEncoder):
    """Connect Four: mine, theirs, ones, and the cell each column would fill next; the mirror
    symmetry.

    With ``features="threats"`` four more planes follow, the hand-made input features of the
    AlphaGo papers' kind (Allis' threat analysis): the mover's *threats* (the empty cells
    where a stone of theirs would complete four, playable now or later), the opponent's, the
    odd rows (1, 3, 5 from the bottom: where the first player's threats count when the board
    fills up; the second player's count on the even ones), and a plane of ones when the mover
    is the first player. A checkpoint records the features and loads with them.

    >>> from searchlab.domains.games.connect4 import parse_moves
    >>> encoder = Connect4Encoder(features="threats")
    >>> planes = encoder.encode(parse_moves("4455661"))  # X: 1, 4, 5, 6 on row 1; O to move
    >>> encoder.shape, planes[4, 1].tolist(), planes[5, 0].tolist()  # O's threats, then X's
    ((8, 6, 7), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
    >>> planes[6, :, 0].tolist(), float(planes[7].max())  # the odd rows; O moved second
    ([1.0, 0.0, 1.0, 0.0, 1.0, 0.0], 0.0)
    >>> Connect4Encoder(features="patterns")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: connect4 encoder: features must be one of \
stones, threats, got 'patterns'
    """

    game_name = "connect4"
    num_actions = 7
    FEATURES = ("stones", "threats")

    def __init__(self, features: str = "stones") -> None:
        from searchlab.domains.games.connect4 import BOARD_MASK, BOTTOM_MASK, winning_cells

        if features not in self.FEATURES:
            raise InvalidParameterError(
                f"connect4 encoder: features must be one of {', '.join(self.FEATURES)}, "
                f"got {features!r}"
            )
        self.features = features
        self.shape = (4, 6, 7) if features == "stones" else (8, 6, 7)
        self._board, self._bottom = BOARD_MASK, BOTTOM_MASK
        self._winning_cells = winning_cells
        self._odd_rows = np.zeros((6, 7), dtype=np.float32)
        self._odd_rows[0::2] = 1.0  # rows 1, 3, 5 from the bottom
        self._symmetries = board_symmetries(6, 7, "mirror", actions="columns")

    def with_features(self, features: str) -> Connect4Encoder:
        """The same encoder with another feature set (what a checkpoint records)."""
        return Connect4Encoder(features=features)

    def encode(self, state: Any) -> np.ndarray:
        """Planes of a :class:`~searchlab.domains.games.connect4.Connect4State`."""
        planes: np.ndarray = self.encode_batch([state])[0]
        return planes

    def encode_batch(self, states: Sequence[Any]) -> np.ndarray:
        """The planes of every state, the bitboards unpacked at once."""
        count = len(states)
        threats = self.features == "threats"
        winning_cells = self._winning_cells
        bitboards: list[int] = []
        first: list[bool] = []  # threats: whether the mover moved first (even stone count)
        for state in states:
            current, mask = state.current, state.mask
            bitboards += (current, current ^ mask, (mask + self._bottom) & self._board)
            if threats:
                bitboards += (winning_cells(current, mask), winning_cells(current ^ mask, mask))
                first.append(mask.bit_count() % 2 == 0)
        # bit 7 * column + row, a sentinel row on top of each column: [B, K, column, row]
        kinds = 5 if threats else 3
        grids = _bits_batch(bitboards, 49).reshape(count, kinds, 7, 7)[:, :, :, :6]
        planes = np.empty((count, *self.shape), dtype=np.float32)
        planes[:, [0, 1, 3, 4, 5][:kinds]] = grids.transpose(0, 1, 3, 2)
        planes[:, 2] = 1.0
        if threats:
            planes[:, 6] = self._odd_rows
            planes[:, 7] = np.asarray(first, dtype=np.float32)[:, None, None]
        return planes

    def symmetries(self) -> list[Symmetry]:
        """Identity and the left-right mirror."""
        return list(self._symmetries)


class OthelloEncoder(BaseEncoder):
    """Othello: mine, theirs, ones and the mover's legal squares; action 64 is the pass; the 8
    symmetries of the square."""

    game_name = "othello"
    shape = (4, 8, 8)
    num_actions = 65

    def __init__(self) -> None:
        self._symmetries = board_symmetries(8, 8, "dihedral", extra_actions=1)

    def encode(self, state: Any) -> np.ndarray:
        """Planes of an :class:`~searchlab.domains.games.othello.OthelloState`."""
        planes: np.ndarray = self.encode_batch([state])[0]
        return planes

    def encode_batch(self, states: Sequence[Any]) -> np.ndarray:
        """The planes of every state, the bitboards unpacked at once."""
        count = len(states)
        bitboards: list[int] = []
        for state in states:
            bitboards += (*state.mover_bits(), state.move_bits())
        planes = np.empty((count, *self.shape), dtype=np.float32)
        planes[:, [0, 1, 3]] = _bits_batch(bitboards, 64).reshape(count, 3, 8, 8)
        planes[:, 2] = 1.0
        return planes

    def symmetries(self) -> list[Symmetry]:
        """The 8 of the square; the pass stays the pass."""
        return list(self._symmetries)


class GomokuEncoder(BaseEncoder):
    """Gomoku on a ``size`` x ``size`` board: mine, theirs, ones; the 8 symmetries of the
    square. The candidate variant of a game has the same encoder (its mask is smaller)."""

    game_name = "gomoku"

    def __init__(self, size: int = 15) -> None:
        self.size = size
        self.shape = (3, size, size)
        self.num_actions = size * size
        self.game_params = {"size": size}
        self._board = (1 << (size * size)) - 1
        self._symmetries = board_symmetries(size, size, "dihedral")

    def encode(self, state: Any) -> np.ndarray:
        """Planes of a :class:`~searchlab.domains.games.gomoku.GomokuState`."""
        planes: np.ndarray = self.encode_batch([state])[0]
        return planes

    def encode_batch(self, states: Sequence[Any]) -> np.ndarray:
        """The planes of every state, the stones (the row layout, the low ``size * size``
        bits of each colour) unpacked at once."""
        n, count = self.size, len(states)
        bitboards: list[int] = []
        for state in states:
            black, white = state.black & self._board, state.white & self._board
            bitboards += (black, white) if state.current_player() == 0 else (white, black)
        planes = np.empty((count, *self.shape), dtype=np.float32)
        planes[:, :2] = _bits_batch(bitboards, n * n).reshape(count, 2, n, n)
        planes[:, 2] = 1.0
        return planes

    def symmetries(self) -> list[Symmetry]:
        """The 8 of the square."""
        return list(self._symmetries)


class GoEncoder(BaseEncoder):
    """Go on a ``size`` x ``size`` board: mine, theirs, ones, a plane of ones when black is to
    move (komi makes the colours unequal), the point the basic ko forbids, and a plane of ones
    when the opponent has just passed (a pass now ends the game); the pass is index
    ``size * size``; the 8 symmetries of the square. Superko's other forbidden points are left
    to the legal mask.

    With ``features="liberties"`` eight more planes follow, hand-made features of the kind the
    AlphaGo paper's policy network read (its "liberties" and "turns since" planes): the
    mover's stones whose chain has 1, 2, 3 or more liberties, the same for the opponent's, the
    empty points, and the last move played. A checkpoint records the features and loads with
    them.

    >>> from searchlab.domains.games.go import Go
    >>> state = Go(5).initial_state()
    >>> for vertex in ["C3", "C4", "D4"]:
    ...     state = state.apply(state.string_to_action(vertex))
    >>> planes = GoEncoder(5, features="liberties").encode(state)  # white to move
    >>> planes.shape, [int(planes[k].sum()) for k in range(6, 12)]  # C4: 2; C3, D4: 3 each
    ((14, 5, 5), [0, 1, 0, 0, 0, 2])
    >>> state.action_to_string(int(planes[13].argmax())), int(planes[12].sum())  # last, empty
    ('D4', 22)
    >>> GoEncoder(9, features="ladders")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: go encoder: features must be one of basic, \
liberties, got 'ladders'
    """

    game_name = "go"
    FEATURES = ("basic", "liberties")

    def __init__(self, size: int = 9, features: str = "basic") -> None:
        if features not in self.FEATURES:
            raise InvalidParameterError(
                f"go encoder: features must be one of {', '.join(self.FEATURES)}, got {features!r}"
            )
        self.size = size
        self.features = features
        self.shape = (6, size, size) if features == "basic" else (14, size, size)
        self.num_actions = size * size + 1
        self.game_params = {"size": size}
        self._symmetries = board_symmetries(size, size, "dihedral", extra_actions=1)

    def with_features(self, features: str) -> GoEncoder:
        """The same encoder with another feature set (what a checkpoint records)."""
        return GoEncoder(self.size, features=features)

    def encode(self, state: Any) -> np.ndarray:
        """Planes of a :class:`~searchlab.domains.games.go.GoState`."""
        n = self.size
        board = np.frombuffer(state.board, dtype=np.uint8).reshape(n, n)
        mine = state.to_move + 1
        planes = np.zeros(self.shape, dtype=np.float32)
        planes[0] = board == mine
        planes[1] = board == 3 - mine
        planes[2] = 1.0
        planes[3] = 1.0 if state.to_move == 0 else 0.0
        if state.ko_point >= 0:
            planes[4].flat[state.ko_point] = 1.0
        planes[5] = 1.0 if state.passes == 1 else 0.0
        if self.features == "liberties":
            self._liberty_planes(state, mine, planes)
        return planes

    def _liberty_planes(self, state: Any, mine: int, planes: np.ndarray) -> None:
        from searchlab.domains.games.go import chains

        for colour, stones, liberties in chains(state.board, self.size):
            first = 6 if colour == mine else 9
            planes[first + min(len(liberties), 3) - 1].flat[stones] = 1.0
        planes[12] = 1.0 - planes[0] - planes[1]
        last = state.last_move
        if last is not None and 0 <= last < self.size * self.size:
            planes[13].flat[last] = 1.0

    def symmetries(self) -> list[Symmetry]:
        """The 8 of the square; the pass stays the pass."""
        return list(self._symmetries)


def _mnk(game: Any) -> Encoder:
    return MNKEncoder(game.m, game.n, game.k, game_name=game.info.name)


ENCODERS: dict[str, Callable[[Any], Encoder]] = {
    "connect4": lambda game: Connect4Encoder(),
    "go": lambda game: GoEncoder(game.size),
    "gomoku": lambda game: GomokuEncoder(game.size),
    "mnk": _mnk,
    "othello": lambda game: OthelloEncoder(),
    "tictactoe": _mnk,
}
"""Encoder factories ``factory(game) -> Encoder`` by the game's ``info.name``."""


def register_encoder(game_name: str, factory: Callable[[Any], Encoder]) -> None:
    """Register ``factory(game) -> Encoder`` for the games named ``game_name`` (replacing an
    earlier one)."""
    if not callable(factory):
        raise InvalidParameterError(f"register_encoder: factory must be callable, got {factory!r}")
    ENCODERS[game_name] = factory


def encoder_for(game: Any) -> Encoder:
    """The encoder of ``game``: its own ``encoder()`` method when it has one, else the one
    registered under ``game.info.name``. Raises ``UnknownNameError`` naming the known games, or
    ``InvalidParameterError`` when what is found is not an :class:`Encoder` of that game."""
    info = getattr(game, "info", None)
    name = getattr(info, "name", None)
    if not isinstance(name, str):
        raise InvalidParameterError(
            f"encoder_for needs a game (with info.name), got {type(game).__name__} "
            "(pass the game, not a state)"
        )
    own = getattr(game, "encoder", None)
    if callable(own):
        encoder = own()
    elif name in ENCODERS:
        encoder = ENCODERS[name](game)
    else:
        raise UnknownNameError(
            f"no encoder for the game {name!r}; known: {', '.join(sorted(ENCODERS))} "
            "(give the game an encoder() method, or register_encoder one)"
        )
    return _check_encoder(name, encoder)


def _check_encoder(name: str, encoder: Any) -> Encoder:
    if not isinstance(encoder, Encoder):
        raise InvalidParameterError(
            f"the encoder of {name!r} is a {type(encoder).__name__}, not an Encoder "
            "(see searchlab.learning.networks.encoder)"
        )
    if encoder.game_name != name:
        raise InvalidParameterError(
            f"the encoder of {name!r} says it encodes {encoder.game_name!r}"
        )
    shape = encoder.shape
    if (
        not isinstance(shape, tuple)
        or len(shape) != 3
        or not all(isinstance(d, int) and d > 0 for d in shape)
    ):
        raise InvalidParameterError(
            f"the encoder of {name!r} has shape {shape!r}; expected (C, H, W), positive ints"
        )
    if not isinstance(encoder.num_actions, int) or encoder.num_actions < 1:
        raise InvalidParameterError(
            f"the encoder of {name!r} has num_actions {encoder.num_actions!r}; expected >= 1"
        )
    if not isinstance(encoder.game_params, Mapping):
        raise InvalidParameterError(f"the encoder of {name!r} has game_params that are no dict")
    return encoder
