"""What an environment shows of a position: an encoder for every built-in game.

The board games (tic-tac-toe, m,n,k, Connect Four, Othello, Gomoku, Go) have their networks'
encoders (:mod:`searchlab.learning.networks.encoders`); this module adds encoders of the same kind
(:class:`~searchlab.learning.networks.encoder.BaseEncoder`: ``float32 [C, H, W]`` planes seen from
the player to move, the game's own action numbers as indices) for the rest:

* Nim and the heap games (Kayles, Dawson's chess, Grundy's game): :class:`HeapsEncoder`, one row
  per heap, the heap's size one-hot;
* Snake Go: :class:`SnakeGoEncoder`, planes of the board.

:func:`observation_encoder` finds a game's encoder: one of these, else the game's own or
registered one (:func:`~searchlab.learning.networks.encoders.encoder_for`). Nothing here imports
torch.

>>> from searchlab.games import make
>>> encoder = observation_encoder(make("nim", piles=(1, 3)))
>>> encoder.shape, encoder.num_actions
((1, 2, 4), 6)
>>> encoder.encode(make("nim", piles=(1, 3)).initial_state())[0].tolist()
[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from searchlab.core.game import Game
from searchlab.domains.games.heap_games import HeapGame
from searchlab.domains.games.nim import Nim, NimState
from searchlab.domains.games.snakego import SnakeGo
from searchlab.domains.games.snakego.items import LENGTH
from searchlab.learning.networks.encoder import BaseEncoder, Encoder
from searchlab.learning.networks.encoders import encoder_for

__all__ = ["HeapsEncoder", "SnakeGoEncoder", "observation_encoder"]


class HeapsEncoder(BaseEncoder):
    """Nim and the heap games: plane ``[1, rows, largest + 1]``, row ``i`` the size of heap
    ``i`` one-hot (column 0 where there is no heap ``i``).

    ``rows`` is the most heaps the game can have: Nim's piles stay in place (their number),
    a heap game's heaps split (at most one per token: the tokens at the start). The actions are
    the game's own numbers, ``heap * stride + option`` (``stride`` the game's), so
    ``num_actions = rows * stride``.

    >>> from searchlab.games import make
    >>> game = make("kayles", heaps=(4,))
    >>> encoder = HeapsEncoder(game)
    >>> state = game.initial_state().apply(1)  # knock down the 2nd pin: heaps 1 and 2
    >>> state.heaps, encoder.encode(state)[0, :3].tolist()
    ((1, 2), [[0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0]])
    """

    def __init__(self, game: Nim | HeapGame) -> None:
        self.game_name = game.info.name
        if isinstance(game, Nim):
            sizes, rows = tuple(game.piles), len(game.piles)
        else:
            sizes, rows = tuple(game.heaps), sum(game.heaps)
        self.rows, self.largest = max(rows, 1), max(sizes, default=0)
        self.shape = (1, self.rows, self.largest + 1)
        self.num_actions = self.rows * game.stride

    def encode(self, state: Any) -> np.ndarray:
        """The one-hot rows of ``state``'s heaps."""
        sizes = state.piles if isinstance(state, NimState) else state.heaps
        planes = np.zeros(self.shape, dtype=np.float32)
        planes[0, np.arange(self.rows), 0] = 1.0
        for row, size in enumerate(sizes):
            planes[0, row, 0] = 0.0
            planes[0, row, size] = 1.0
        return planes


class SnakeGoEncoder(BaseEncoder):
    """Snake Go: ``[8, size, size]`` planes, row ``y`` and column ``x`` the cell ``(x, y)``,
    seen from the player to move: 0 the mover's snakes, 1 the opponent's, 2 the mover's walls,
    3 the opponent's, 4 the head of the snake that acts now, 5 the length items on the board, 6
    the ray items, 7 ones (where the board is). Left out: the snakes' banks and rays, the round
    (read them from the state). Actions: the game's six (up, down, left, right, split, ray).

    >>> game = SnakeGo(items="2 2 1 0 3", size=5, rounds=10)
    >>> planes = SnakeGoEncoder(game).encode(game.initial_state())
    >>> planes.shape, planes[[0, 1, 4, 5], [4, 0, 4, 2], [0, 4, 0, 2]].tolist()
    ((8, 5, 5), [1.0, 1.0, 1.0, 1.0])
    """

    def __init__(self, game: SnakeGo) -> None:
        self.game_name = game.info.name
        self.size = game.size
        self.shape = (8, game.size, game.size)
        self.num_actions = 6

    def encode(self, state: Any) -> np.ndarray:
        """The planes of ``state`` (a :class:`~searchlab.domains.games.snakego.SnakeGoState`)."""
        planes = np.zeros(self.shape, dtype=np.float32)
        mover = state.player
        for player, plane in ((mover, 0), (1 - mover, 1)):
            for snake in state.snakes[player]:
                for x, y in snake.cells:
                    planes[plane, y, x] = 1.0
        walls = np.asarray(state.walls).reshape(self.size, self.size)
        planes[2] = walls == mover
        planes[3] = walls == 1 - mover
        if state.pending:
            x, y = state.acting_snake().head
            planes[4, y, x] = 1.0
        for _, item in state.present_items():
            planes[5 if item.type == LENGTH else 6, item.y, item.x] = 1.0
        planes[7] = 1.0
        return planes


def observation_encoder(game: Game) -> Encoder:
    """The encoder an environment shows ``game``'s positions with: :class:`HeapsEncoder` for
    Nim and the heap games, :class:`SnakeGoEncoder` for Snake Go, else
    :func:`~searchlab.learning.networks.encoders.encoder_for` (the board games; raises
    ``UnknownNameError`` for a game with no encoder)."""
    if isinstance(game, Nim | HeapGame):
        return HeapsEncoder(game)
    if isinstance(game, SnakeGo):
        return SnakeGoEncoder(game)
    return encoder_for(game)
