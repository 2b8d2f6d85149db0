"""Snake Go's compiled tier: the exact converters between the reference state
(:class:`~searchlab.domains.games.snakego.SnakeGoState`) and the flat position of
:mod:`.layout`, and the entry point of the kernels.

:func:`encode` gives ``(pos, items)``; :func:`decode` gives back an equal state (same key,
eaten items, first-eat plies and ply count). The kernels re-exported here are the game
functions of the compiled MCTS loop: :func:`actions`, :func:`play`, :func:`status`,
:func:`to_move`, :func:`rollout` (uniform) and :func:`informed_rollout` (the notes' policy,
:mod:`.informed`); the rollouts take the random draw ``below`` (``next_below`` of
:mod:`searchlab.core.compiled_rng`) as their last argument.

>>> from searchlab.domains.games.snakego import SnakeGo
>>> state = SnakeGo(seed=1, size=8, rounds=20).initial_state()
>>> pos, items = encode(state)
>>> out = np.zeros(MAX_BRANCHING, dtype=np.int16)
>>> n = actions(pos, items, out, 0)
>>> out[:n].tolist() == list(state.legal_actions())
True
>>> pos, items = play(pos, items, out[0])
>>> decode(pos, state.game) == state.apply(int(out[0]))
True
"""

from __future__ import annotations

import numpy as np

from searchlab.domains.games.snakego import Snake, SnakeGo, SnakeGoState
from searchlab.domains.games.snakego import layout as L
from searchlab.domains.games.snakego.board import (
    actions,
    final_value,
    legal_mask,
    play,
    rollout,
    scores,
    status,
)
from searchlab.domains.games.snakego.informed import informed_mask, informed_rollout
from searchlab.domains.games.snakego.layout import (
    MAX_BRANCHING,
    SCORE_DIFFERENCE,
    WIN_LOSS,
    to_move,
)

__all__ = [
    "MAX_BRANCHING",
    "SCORE_DIFFERENCE",
    "WIN_LOSS",
    "actions",
    "decode",
    "encode",
    "final_value",
    "informed_mask",
    "informed_rollout",
    "items_array",
    "legal_mask",
    "play",
    "rollout",
    "scores",
    "scoring_code",
    "status",
    "to_move",
]

# ---------------------------------------------------------------------------- converters


def scoring_code(scoring: str) -> int:
    """The kernels' ``scoring`` code of a :class:`SnakeGo` ``scoring`` name."""
    return WIN_LOSS if scoring == "win_loss" else SCORE_DIFFERENCE


def items_array(game: SnakeGo) -> np.ndarray:
    """The game's items as an ``(n, 5)`` ``int32`` array, in the game's order."""
    return np.array([tuple(item) for item in game.items], dtype=np.int32).reshape(-1, 5)


def _layout(size: int, max_snakes: int, n: int) -> dict[int, int]:
    cells = size * size
    sizes = [
        (L.O_ORDER, 2 * max_snakes),
        (L.O_PEND, max_snakes),
        (L.O_SLOTS, L.SLOT_FIELDS * 2 * max_snakes),
        (L.O_RING, 2 * max_snakes * cells),
        (L.O_OCC, cells),
        (L.O_WALL, cells),
        (L.O_CELL_ITEM, cells),
        (L.O_ITEM_NEXT, n),
        (L.O_ITEM_STATE, n),
        (L.O_ITEM_ORDER, n),
        (L.O_MARK, cells),
        (L.O_STACK, cells),
    ]
    offsets = {}
    at = L.HEADER
    for field, length in sizes:
        offsets[field] = at
        at += length
    offsets[L.H_LENGTH] = at
    return offsets


def encode(state: SnakeGoState) -> tuple[np.ndarray, np.ndarray]:
    """``(pos, items)`` of a reference state (see the module docstring for the layout)."""
    game = state.game
    size, m = game.size, game.max_snakes
    cells = size * size
    items = items_array(game)
    n = items.shape[0]
    offsets = _layout(size, m, n)
    pos = np.zeros(offsets[L.H_LENGTH], dtype=np.int32)
    for field, at in offsets.items():
        pos[field] = at
    pos[L.H_SIZE], pos[L.H_ROUNDS], pos[L.H_MAX_SNAKES] = size, game.rounds, m
    pos[L.H_GROWTH], pos[L.H_N_ITEMS] = game.growth_rounds, n
    pos[L.H_ROUND], pos[L.H_PLAYER], pos[L.H_PLY] = state.round, state.player, state.ply
    for p in (0, 1):
        first = state.first_eat[p]
        pos[L.H_FIRST_EAT + p] = -1 if first is None else first
    pos[L.H_OVER] = 1 if state.is_terminal() else 0
    pos[offsets[L.O_ORDER] : offsets[L.O_ORDER] + 2 * m] = -1
    pos[offsets[L.O_OCC] : offsets[L.O_OCC] + cells] = -1
    pos[offsets[L.O_CELL_ITEM] : offsets[L.O_CELL_ITEM] + cells] = -1
    pos[offsets[L.O_ITEM_NEXT] : offsets[L.O_ITEM_NEXT] + n] = -1
    slot_of: dict[tuple[int, int], int] = {}
    for p in (0, 1):
        pos[L.H_COUNT + p] = len(state.snakes[p])
        for k, snake in enumerate(state.snakes[p]):
            s = p * m + k
            slot_of[p, snake.id] = s
            pos[offsets[L.O_ORDER] + p * m + k] = s
            base = offsets[L.O_SLOTS] + s * L.SLOT_FIELDS
            pos[base + L.F_ALIVE], pos[base + L.F_ID], pos[base + L.F_START] = 1, snake.id, 0
            pos[base + L.F_LEN], pos[base + L.F_BANK] = len(snake.cells), snake.bank
            pos[base + L.F_RAY], pos[base + L.F_INITIAL] = int(snake.ray), int(snake.initial)
            ring = offsets[L.O_RING] + s * cells
            for i, (x, y) in enumerate(snake.cells):
                pos[ring + i] = y * size + x
                pos[offsets[L.O_OCC] + y * size + x] = s
    pend = offsets[L.O_PEND]
    pos[L.H_PEND_N] = len(state.pending)
    for k, ident in enumerate(state.pending):
        pos[pend + k] = slot_of[state.player, ident]
    pos[offsets[L.O_WALL] : offsets[L.O_WALL] + cells] = state.walls
    order = sorted(range(n), key=lambda i: int(items[i, L.TIME]))
    pos[offsets[L.O_ITEM_ORDER] : offsets[L.O_ITEM_ORDER] + n] = order
    appear = expire = 0
    for k, i in enumerate(order):
        time = int(items[i, L.TIME])
        if time <= state.round:
            appear = k + 1
        if time + L.ITEM_LIFETIME <= state.round:
            expire = k + 1
        if i in state.eaten:
            pos[offsets[L.O_ITEM_STATE] + i] = L.I_EATEN
        elif time + L.ITEM_LIFETIME <= state.round:
            pos[offsets[L.O_ITEM_STATE] + i] = L.I_EXPIRED
        elif time <= state.round:
            pos[offsets[L.O_ITEM_STATE] + i] = L.I_BOARD
            cell = offsets[L.O_CELL_ITEM] + int(items[i, L.Y]) * size + int(items[i, L.X])
            pos[offsets[L.O_ITEM_NEXT] + i] = pos[cell]
            pos[cell] = i
    pos[L.H_APPEAR], pos[L.H_EXPIRE] = appear, expire
    return pos, items


def decode(pos: np.ndarray, game: SnakeGo) -> SnakeGoState:
    """The reference state that ``pos`` holds (``decode(*encode(s)[:1], s.game) == s``)."""
    size, m = int(pos[L.H_SIZE]), int(pos[L.H_MAX_SNAKES])
    cells = size * size

    def snake(s: int) -> Snake:
        base = int(pos[L.O_SLOTS]) + s * L.SLOT_FIELDS
        start, length = int(pos[base + L.F_START]), int(pos[base + L.F_LEN])
        ring = int(pos[L.O_RING]) + s * cells
        body = []
        for i in range(length):
            c = int(pos[ring + (start + i) % cells])
            body.append((c % size, c // size))
        return Snake(
            id=int(pos[base + L.F_ID]),
            cells=tuple(body),
            bank=int(pos[base + L.F_BANK]),
            ray=bool(pos[base + L.F_RAY]),
            initial=bool(pos[base + L.F_INITIAL]),
        )

    def player_snakes(p: int) -> tuple[Snake, ...]:
        order = int(pos[L.O_ORDER]) + p * m
        return tuple(snake(int(pos[order + k])) for k in range(int(pos[L.H_COUNT + p])))

    snakes = (player_snakes(0), player_snakes(1))
    pend = int(pos[L.O_PEND])
    pending: list[int] = []
    if not pos[L.H_OVER]:
        for k in range(int(pos[L.H_PEND_I]), int(pos[L.H_PEND_N])):
            s = int(pos[pend + k])
            if s >= 0:
                pending.append(int(pos[int(pos[L.O_SLOTS]) + s * L.SLOT_FIELDS + L.F_ID]))
    n = int(pos[L.H_N_ITEMS])
    state_at = int(pos[L.O_ITEM_STATE])
    eaten = frozenset(i for i in range(n) if pos[state_at + i] == L.I_EATEN)
    eat0, eat1 = int(pos[L.H_FIRST_EAT]), int(pos[L.H_FIRST_EAT + 1])
    first_eat = (None if eat0 < 0 else eat0, None if eat1 < 0 else eat1)
    walls = tuple(int(w) for w in pos[int(pos[L.O_WALL]) : int(pos[L.O_WALL]) + cells])
    return SnakeGoState(
        game=game,
        round=int(pos[L.H_ROUND]),
        player=int(pos[L.H_PLAYER]),
        snakes=snakes,
        pending=tuple(pending),
        walls=walls,
        eaten=eaten,
        first_eat=first_eat,
        ply=int(pos[L.H_PLY]),
    )
