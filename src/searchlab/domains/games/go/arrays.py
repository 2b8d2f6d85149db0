"""Go's compiled tier: the exact converters between the reference state
(:class:`~searchlab.domains.games.go.GoState`) and the position array of :mod:`.board`,
and the board functions the compiled MCTS calls (re-exported here, as
:mod:`searchlab.domains.games.snakego.arrays` does for Snake Go).

:func:`encode` gives the position of a state (board, player to move, ko point, passes,
captures, plies played, last move, komi, the game's ``max_moves``); :func:`decode` gives back
the state with the same board, player to move, ko point, passes, captures and last move. A
position holds no history: the superko hashes (and the list of moves) stay with the caller,
who hands them to :func:`decode` when it needs an equal state.

>>> from searchlab.domains.games.go import Go
>>> state = Go(5, superko="simple").initial_state().apply(12).apply(7)  # C3, C2
>>> pos = encode(state)
>>> out = np.zeros(26, dtype=np.int64)
>>> n = legal_points(pos, out)
>>> out[:n].tolist() == state.legal_actions()[:-1]  # the pass is always legal
True
>>> play(pos, 13)
>>> after = state.apply(13)
>>> decode(pos, state.game, moves=after.moves, history=after.history) == after
True
>>> int(hash_of(pos)) == after.board_hash
True
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from searchlab.core.errors import InvalidStateError
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.board import (
    BOARD,
    BORDER,
    EMPTY,
    H_CAPT,
    H_KO,
    H_LAST,
    H_MAX_MOVES,
    H_MOVES,
    H_N,
    H_PASSES,
    H_SIZE,
    H_TO_MOVE,
    HDR,
    P2Q,
    ROWS,
    area_score,
    copy_position,
    hash_of,
    is_legal,
    is_over,
    legal_points,
    new_position,
    passes,
    play,
    playout_points,
    put_q,
    random_move,
    size_of,
    to_move,
)

__all__ = [
    "area_score",
    "board_bytes",
    "copy_position",
    "decode",
    "encode",
    "hash_of",
    "is_legal",
    "is_over",
    "legal_points",
    "new_position",
    "passes",
    "play",
    "playout_points",
    "random_move",
    "size_of",
    "to_move",
]


def encode(state: GoState) -> np.ndarray:
    """The position array of ``state`` (see :mod:`.board` for its layout)."""
    game = state.game
    size = game.size
    pos = new_position(size, float(game.komi))
    for p, colour in enumerate(state.board):
        if colour != EMPTY:
            put_q(pos, pos[P2Q, p], colour)
    header = pos[HDR]
    header[H_TO_MOVE] = state.to_move
    header[H_KO] = state.ko_point
    header[H_PASSES] = state.passes
    header[H_MOVES] = len(state.moves)
    header[H_CAPT], header[H_CAPT + 1] = state.captures
    header[H_LAST] = -1 if state.last_move is None else state.last_move
    header[H_MAX_MOVES] = game.max_moves
    return pos


def board_bytes(pos: np.ndarray) -> bytes:
    """The board of ``pos`` as :attr:`GoState.board` holds it (one byte per point)."""
    if pos.ndim != 2 or pos.shape[0] != ROWS:
        raise InvalidStateError(f"go: not a compiled Go position (shape {pos.shape})")
    n = int(pos[HDR, H_N])
    values = pos[BOARD, pos[P2Q, :n]]
    if np.any(values == BORDER):
        raise InvalidStateError("go: corrupt compiled position (a border square on the board)")
    return bytes(values.astype(np.uint8).tolist())


def decode(
    pos: np.ndarray,
    game: Go,
    *,
    moves: Iterable[int] = (),
    history: Iterable[int] | None = None,
) -> GoState:
    """The reference state that ``pos`` holds, for ``game`` (of the same size). The position
    does not know the moves nor the superko history: ``moves`` (default none) and
    ``history`` (default: this position alone, keyed as the game's superko rule keys it)
    fill them in.
    """
    size = int(pos[HDR, H_SIZE])
    if size != game.size:
        raise InvalidStateError(f"go: a {size}x{size} position for a {game.size}x{game.size} game")
    board = board_bytes(pos)
    board_key = int(hash_of(pos))
    player = int(pos[HDR, H_TO_MOVE])
    last = int(pos[HDR, H_LAST])
    if history is None:
        history = (game._history_key(board_key, player),)
    return GoState(
        game=game,
        board=board,
        to_move=player,
        ko_point=int(pos[HDR, H_KO]),
        passes=int(pos[HDR, H_PASSES]),
        moves=tuple(moves),
        captures=(int(pos[HDR, H_CAPT]), int(pos[HDR, H_CAPT + 1])),
        last_move=None if last < 0 else last,
        history=frozenset(history),
        board_hash=board_key,
    )
