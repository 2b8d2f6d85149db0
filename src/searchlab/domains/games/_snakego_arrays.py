"""Snake Go in flat arrays: the compiled tier's position, its rules as numba kernels, and the
exact converters to and from :class:`~searchlab.domains.games.snakego.SnakeGoState`.

A position is one 1-D ``int32`` array ``pos`` and the read-only item list ``items`` (an
``(n, 5)`` ``int32`` array of rows ``x, y, time, type, param`` in the game's order). Everything
the rules need is in ``pos``, the game's constants included, so the kernels take only
``(pos, items)``: :func:`actions`, :func:`play`, :func:`status`, :func:`to_move` and
:func:`rollout` are the game functions of the compiled MCTS loop
(:mod:`searchlab.algorithms.mcts._kernel_loop`); :func:`play` and :func:`rollout` change
``pos`` in place (the caller copies it). No kernel allocates memory per ply: the flood fill of
a solidification works in two scratch sections of ``pos``.

Layout of ``pos`` (``C = size * size`` cells, ``M = max_snakes``, ``n`` items; the offsets of
the sections are header fields, so a kernel reads them rather than computing them):

============== ========== =================================================================
section        length     contents
============== ========== =================================================================
header         32         the constants and counters below (``H_*``)
order          ``2 M``    per player, the slots of their snakes in acting order
                          (``COUNT[p]`` of them from ``order + p * M``)
pending        ``M``      the slots of the turn's snakes to act, in order (a snake that
                          dies gets -1 there, so a slot reused by a later split is not
                          taken for it)
slots          ``8 * 2M`` per snake slot (player ``p`` owns slots ``p*M .. p*M + M-1``):
                          alive, id, ring start, length, bank, ray, initial flag, spare
rings          ``2M * C`` per slot, its cells (index ``y * size + x``) in a ring buffer,
                          head at ``start``, tail at ``start + length - 1`` (mod ``C``)
occupancy      ``C``      slot of the snake on each cell, or -1
walls          ``C``      wall owner of each cell: -1 none, 0, 1
cell items     ``C``      first item on each cell (a list through ``item next``), or -1
item next      ``n``      next item on the same cell, or -1
item state     ``n``      0 not yet on the board, 1 on the board, 2 eaten, 3 expired
item order     ``n``      the item indices sorted by appearance time (stable)
mark           ``C``      flood-fill scratch (all 0 between kernel calls)
stack          ``C``      flood-fill scratch
============== ========== =================================================================

Header fields: size, rounds, max snakes, growth rounds, item count, round (1-based), player to
move, ply, first-eat ply of each player (-1: never), the game-over flag, the
pending count and cursor (the acting snake is ``pending[cursor]``), the two item cursors into
``item order`` (items that have appeared; items that have expired), the snake count of each
player, and the section offsets.

Items on the board are kept in per-cell lists, filled and emptied at the start of each round
through the two cursors over ``item order``, so eating on a move and the round-start step cost
O(1) per item, never a scan of the whole list.

>>> from searchlab.domains.games.snakego import SnakeGo
>>> state = SnakeGo(seed=1, size=8, rounds=20).initial_state()
>>> pos, items = encode(state)
>>> out = np.zeros(6, dtype=np.int16)
>>> n = actions(pos, items, out, 0)
>>> out[:n].tolist() == list(state.legal_actions())
True
>>> pos, items = play(pos, items, out[0])
>>> decode(pos, state.game) == state.apply(int(out[0]))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from searchlab.algorithms.mcts._kernel_rng import next_below

if TYPE_CHECKING:  # pragma: no cover
    from searchlab.domains.games.snakego import SnakeGo, SnakeGoState

__all__ = [
    "MAX_BRANCHING",
    "SCORE_DIFFERENCE",
    "WIN_LOSS",
    "actions",
    "decode",
    "encode",
    "final_value",
    "legal_mask",
    "play",
    "rollout",
    "scores",
    "scoring_code",
    "status",
    "to_move",
]

MAX_BRANCHING = 6
"""The most legal actions of a position (four moves, split, ray)."""
SCORE_DIFFERENCE, WIN_LOSS = 0, 1
"""The ``scoring`` argument of :func:`status` and :func:`rollout`: the score difference over
``size * size``, or +1 / -1 (a tie to player 1). The same codes as the Othello kernel's
``NORMALISED`` and ``OUTCOME``."""

UP, DOWN, LEFT, RIGHT, SPLIT, RAY = 0, 1, 2, 3, 4, 5
ITEM_LIFETIME = 16
"""An item is on the board during rounds ``time .. time + ITEM_LIFETIME - 1``."""
LENGTH_ITEM, RAY_ITEM = 0, 2

# Header fields.
H_SIZE, H_ROUNDS, H_MAX_SNAKES, H_GROWTH, H_N_ITEMS = 0, 1, 2, 3, 4
H_ROUND, H_PLAYER, H_PLY, H_FIRST_EAT = 5, 6, 7, 8  # first eat: 8 and 9
H_OVER, H_PEND_N, H_PEND_I, H_APPEAR, H_EXPIRE, H_COUNT = 11, 12, 13, 14, 15, 16  # count: 16, 17
O_ORDER, O_PEND, O_SLOTS, O_RING, O_OCC, O_WALL = 18, 19, 20, 21, 22, 23
O_CELL_ITEM, O_ITEM_NEXT, O_ITEM_STATE, O_ITEM_ORDER, O_MARK, O_STACK = 24, 25, 26, 27, 28, 29
H_LENGTH = 30  # the length of the whole array
HEADER = 32
# Slot fields.
F_ALIVE, F_ID, F_START, F_LEN, F_BANK, F_RAY, F_INITIAL = 0, 1, 2, 3, 4, 5, 6
SLOT_FIELDS = 8
# Item states.
I_FUTURE, I_BOARD, I_EATEN, I_EXPIRED = 0, 1, 2, 3
# Item columns.
X, Y, TIME, TYPE, PARAM = 0, 1, 2, 3, 4


# ---------------------------------------------------------------------------- small helpers


@njit(cache=True)
def _slot(pos, s):  # pragma: no cover - compiled
    """Index of slot ``s``'s first field."""
    return pos[O_SLOTS] + s * SLOT_FIELDS


@njit(cache=True)
def _ring_index(pos, s, start, i):  # pragma: no cover - compiled
    """Index in ``pos`` of cell ``i`` (0 = head) of slot ``s`` whose ring starts at ``start``."""
    cells = pos[H_SIZE] * pos[H_SIZE]
    j = start + i
    if j >= cells:
        j -= cells
    return pos[O_RING] + s * cells + j


@njit(cache=True)
def _cell(pos, s, i):  # pragma: no cover - compiled
    """Cell index of cell ``i`` (0 = head) of slot ``s``."""
    return pos[_ring_index(pos, s, pos[_slot(pos, s) + F_START], i)]


@njit(cache=True)
def acting_slot(pos):  # pragma: no cover - compiled
    """The slot of the snake to act (the game must not be over)."""
    return pos[pos[O_PEND] + pos[H_PEND_I]]


@njit(cache=True)
def to_move(pos):  # pragma: no cover - compiled
    """The player to move (on a finished game: as the reference state records it)."""
    return pos[H_PLAYER]


@njit(cache=True)
def _direction(size, a, b):  # pragma: no cover - compiled
    """The action that moves from cell ``a`` to the adjacent cell ``b``."""
    d = b - a
    if d == size:
        return UP
    if d == -size:
        return DOWN
    if d == -1:
        return LEFT
    return RIGHT


@njit(cache=True)
def step(size, cell, action):  # pragma: no cover - compiled
    """The cell next to ``cell`` in direction ``action`` (0..3), or -1 off the board."""
    x = cell % size
    y = cell // size
    if action == UP:
        y += 1
    elif action == DOWN:
        y -= 1
    elif action == LEFT:
        x -= 1
    else:
        x += 1
    if x < 0 or y < 0 or x >= size or y >= size:
        return -1
    return y * size + x


@njit(cache=True)
def growth_now(pos, s):  # pragma: no cover - compiled
    """1 when a move of slot ``s`` this round earns the initial snake's growth bonus."""
    if pos[_slot(pos, s) + F_INITIAL] != 0 and pos[H_ROUND] <= pos[H_GROWTH]:
        return 1
    return 0


# ---------------------------------------------------------------------------- legal actions


@njit(cache=True)
def legal_mask(pos):  # pragma: no cover - compiled
    """The legal actions as bits (bit ``a`` for action ``a``); 0 when the game is over."""
    if pos[H_OVER] != 0:
        return 0
    s = acting_slot(pos)
    base = _slot(pos, s)
    length = pos[base + F_LEN]
    if length == 1:
        return 15
    mask = 15
    if length > 2 or pos[base + F_BANK] + growth_now(pos, s) > 0:
        size = pos[H_SIZE]
        mask &= ~(1 << _direction(size, _cell(pos, s, 0), _cell(pos, s, 1)))
    if pos[H_COUNT + s // pos[H_MAX_SNAKES]] < pos[H_MAX_SNAKES]:
        mask |= 1 << SPLIT
    if pos[base + F_RAY] != 0:
        mask |= 1 << RAY
    return mask


@njit(cache=True)
def actions(pos, items, out, offset):  # pragma: no cover - compiled
    """The acting snake's legal actions in increasing order, written from ``out[offset]``;
    their count (0 only when the game is over)."""
    mask = legal_mask(pos)
    n = 0
    a = 0
    while mask:
        if mask & 1:
            out[offset + n] = a
            n += 1
        mask >>= 1
        a += 1
    return n


# ---------------------------------------------------------------------------- items


@njit(cache=True)
def _eat(pos, items, s, i):  # pragma: no cover - compiled
    """Slot ``s`` eats item ``i`` (which is on the board; the caller unlinks it)."""
    base = _slot(pos, s)
    if items[i, TYPE] == RAY_ITEM:
        pos[base + F_RAY] = 1
    else:
        pos[base + F_BANK] += items[i, PARAM]
    pos[pos[O_ITEM_STATE] + i] = I_EATEN
    player = s // pos[H_MAX_SNAKES]
    if pos[H_FIRST_EAT + player] < 0:
        pos[H_FIRST_EAT + player] = pos[H_PLY]


@njit(cache=True)
def _eat_cell(pos, items, s, cell):  # pragma: no cover - compiled
    """Slot ``s`` eats every item on the board at ``cell``."""
    o_cell = pos[O_CELL_ITEM] + cell
    i = pos[o_cell]
    o_next = pos[O_ITEM_NEXT]
    while i >= 0:
        _eat(pos, items, s, i)
        i = pos[o_next + i]
    pos[o_cell] = -1


@njit(cache=True)
def _unlink(pos, items, i):  # pragma: no cover - compiled
    """Remove item ``i`` from its cell's list."""
    cell = items[i, Y] * pos[H_SIZE] + items[i, X]
    o_cell = pos[O_CELL_ITEM] + cell
    o_next = pos[O_ITEM_NEXT]
    j = pos[o_cell]
    if j == i:
        pos[o_cell] = pos[o_next + i]
        return
    while j >= 0:
        k = pos[o_next + j]
        if k == i:
            pos[o_next + j] = pos[o_next + i]
            return
        j = k


@njit(cache=True)
def start_round(pos, items):  # pragma: no cover - compiled
    """The start of round ``pos[H_ROUND]``: items whose time has come appear (one that lands
    on a snake is eaten by it at once), items older than their lifetime vanish."""
    rnd = pos[H_ROUND]
    n = pos[H_N_ITEMS]
    order = pos[O_ITEM_ORDER]
    state = pos[O_ITEM_STATE]
    size = pos[H_SIZE]
    while pos[H_EXPIRE] < n:
        i = pos[order + pos[H_EXPIRE]]
        if items[i, TIME] + ITEM_LIFETIME > rnd:
            break
        if pos[state + i] == I_BOARD:
            _unlink(pos, items, i)
            pos[state + i] = I_EXPIRED
        elif pos[state + i] == I_FUTURE:
            pos[state + i] = I_EXPIRED
        pos[H_EXPIRE] += 1
    while pos[H_APPEAR] < n:
        i = pos[order + pos[H_APPEAR]]
        if items[i, TIME] > rnd:
            break
        pos[H_APPEAR] += 1
        if pos[state + i] != I_FUTURE:
            continue  # expired above without appearing
        cell = items[i, Y] * size + items[i, X]
        s = pos[pos[O_OCC] + cell]
        if s >= 0:
            _eat(pos, items, s, i)
        else:
            pos[state + i] = I_BOARD
            o_cell = pos[O_CELL_ITEM] + cell
            pos[pos[O_ITEM_NEXT] + i] = pos[o_cell]
            pos[o_cell] = i


# ---------------------------------------------------------------------------- snakes


@njit(cache=True)
def _kill(pos, s):  # pragma: no cover - compiled
    """Slot ``s``'s snake disappears (cells, bank, ray): it leaves its player's order."""
    base = _slot(pos, s)
    occ = pos[O_OCC]
    start = pos[base + F_START]
    for i in range(pos[base + F_LEN]):
        cell = pos[_ring_index(pos, s, start, i)]
        if pos[occ + cell] == s:
            pos[occ + cell] = -1
    pos[base + F_ALIVE] = 0
    m = pos[H_MAX_SNAKES]
    pend = pos[O_PEND]
    for k in range(pos[H_PEND_I], pos[H_PEND_N]):
        if pos[pend + k] == s:
            pos[pend + k] = -1
    player = s // m
    order = pos[O_ORDER] + player * m
    count = pos[H_COUNT + player]
    k = 0
    while pos[order + k] != s:
        k += 1
    for j in range(k, count - 1):
        pos[order + j] = pos[order + j + 1]
    pos[order + count - 1] = -1
    pos[H_COUNT + player] = count - 1


@njit(cache=True)
def _solidify(pos, s, k):  # pragma: no cover - compiled
    """Slot ``s`` closes a loop on its own cell ``k``: the loop and what it encloses become
    the mover's walls, every snake with a cell there dies, and ``s`` is gone."""
    size = pos[H_SIZE]
    cells = size * size
    mark = pos[O_MARK]
    stack = pos[O_STACK]
    occ = pos[O_OCC]
    walls = pos[O_WALL]
    player = s // pos[H_MAX_SNAKES]
    for i in range(k + 1):
        pos[mark + _cell(pos, s, i)] = 1
    _kill(pos, s)
    # flood the outside from the border cells that are not on the loop
    top = 0
    for c in range(cells):
        x = c % size
        y = c // size
        if (x == 0 or y == 0 or x == size - 1 or y == size - 1) and pos[mark + c] == 0:
            pos[mark + c] = 2
            pos[stack + top] = c
            top += 1
    while top > 0:
        top -= 1
        c = pos[stack + top]
        for d in range(4):
            nb = step(size, c, d)
            if nb >= 0 and pos[mark + nb] == 0:
                pos[mark + nb] = 2
                pos[stack + top] = nb
                top += 1
    for c in range(cells):
        if pos[mark + c] != 2:
            pos[walls + c] = player
            victim = pos[occ + c]
            if victim >= 0:
                _kill(pos, victim)
        pos[mark + c] = 0


@njit(cache=True)
def _move(pos, items, s, action):  # pragma: no cover - compiled
    """Slot ``s`` moves one cell (the rules' resolution order: growth, tail, collision,
    solidification, head, eating)."""
    size = pos[H_SIZE]
    base = _slot(pos, s)
    occ = pos[O_OCC]
    if growth_now(pos, s):
        pos[base + F_BANK] += 1
    bank = pos[base + F_BANK]
    length = pos[base + F_LEN]
    start = pos[base + F_START]
    head = pos[_ring_index(pos, s, start, 0)]
    if bank == 0:
        pos[occ + pos[_ring_index(pos, s, start, length - 1)]] = -1  # the tail moves on
    target = step(size, head, action)
    if target < 0 or pos[pos[O_WALL] + target] >= 0:
        _kill(pos, s)
        return
    other = pos[occ + target]
    if other >= 0:
        if other != s or length < 5:
            _kill(pos, s)
            return
        k = 1
        while pos[_ring_index(pos, s, start, k)] != target:
            k += 1
        _solidify(pos, s, k)
        return
    start -= 1
    if start < 0:
        start += size * size
    pos[_ring_index(pos, s, start, 0)] = target
    pos[occ + target] = s
    pos[base + F_START] = start
    if bank > 0:
        pos[base + F_BANK] = bank - 1
        pos[base + F_LEN] = length + 1
    _eat_cell(pos, items, s, target)


@njit(cache=True)
def _split(pos, s):  # pragma: no cover - compiled
    """Slot ``s`` splits: it keeps the head half; the tail half, reversed, becomes a new snake
    with the whole bank, placed right after it in its player's order."""
    m = pos[H_MAX_SNAKES]
    player = s // m
    base = _slot(pos, s)
    length = pos[base + F_LEN]
    keep = (length + 1) // 2
    new = player * m
    while pos[_slot(pos, new) + F_ALIVE] != 0:
        new += 1
    nbase = _slot(pos, new)
    ident = 0  # the smallest id none of the player's snakes has
    while True:
        taken = False
        for t in range(player * m, player * m + m):
            tbase = _slot(pos, t)
            if pos[tbase + F_ALIVE] != 0 and pos[tbase + F_ID] == ident:
                taken = True
        if not taken:
            break
        ident += 1
    occ = pos[O_OCC]
    for j in range(length - keep):
        cell = _cell(pos, s, length - 1 - j)
        pos[_ring_index(pos, new, 0, j)] = cell
        pos[occ + cell] = new
    pos[nbase + F_ALIVE] = 1
    pos[nbase + F_ID] = ident
    pos[nbase + F_START] = 0
    pos[nbase + F_LEN] = length - keep
    pos[nbase + F_BANK] = pos[base + F_BANK]
    pos[nbase + F_RAY] = 0
    pos[nbase + F_INITIAL] = 0
    pos[base + F_LEN] = keep
    pos[base + F_BANK] = 0
    order = pos[O_ORDER] + player * m
    count = pos[H_COUNT + player]
    k = 0
    while pos[order + k] != s:
        k += 1
    for j in range(count, k + 1, -1):
        pos[order + j] = pos[order + j - 1]
    pos[order + k + 1] = new
    pos[H_COUNT + player] = count + 1


@njit(cache=True)
def _ray(pos, s):  # pragma: no cover - compiled
    """Slot ``s`` fires its ray: the walls from its head forward to the edge melt."""
    size = pos[H_SIZE]
    head = _cell(pos, s, 0)
    heading = _direction(size, _cell(pos, s, 1), head)
    walls = pos[O_WALL]
    c = step(size, head, heading)
    while c >= 0:
        pos[walls + c] = -1
        c = step(size, c, heading)
    pos[_slot(pos, s) + F_RAY] = 0


@njit(cache=True)
def _begin_turn(pos):  # pragma: no cover - compiled
    """The player to move fixes their snakes, in order, as the turn's pending list."""
    m = pos[H_MAX_SNAKES]
    player = pos[H_PLAYER]
    order = pos[O_ORDER] + player * m
    pend = pos[O_PEND]
    count = pos[H_COUNT + player]
    for k in range(count):
        pos[pend + k] = pos[order + k]
    pos[H_PEND_N] = count
    pos[H_PEND_I] = 0


@njit(cache=True)
def _next_pending(pos):  # pragma: no cover - compiled
    """Move the cursor past the acting snake and every pending snake that has died."""
    pend = pos[O_PEND]
    i = pos[H_PEND_I] + 1
    n = pos[H_PEND_N]
    while i < n and pos[pend + i] < 0:
        i += 1
    pos[H_PEND_I] = i
    return i < n


@njit(cache=True)
def _advance(pos, items):  # pragma: no cover - compiled
    """After an action: the next pending snake, or the next turn (rounds start, players with
    no snakes are skipped), or the end of the game."""
    if _next_pending(pos):
        return
    if pos[H_COUNT] + pos[H_COUNT + 1] == 0:
        pos[H_OVER] = 1
        pos[H_PLAYER] = 1 - pos[H_PLAYER]
        return
    while True:
        if pos[H_PLAYER] == 0:
            pos[H_PLAYER] = 1
        else:
            pos[H_PLAYER] = 0
            pos[H_ROUND] += 1
            if pos[H_ROUND] > pos[H_ROUNDS]:
                pos[H_OVER] = 1
                return
            start_round(pos, items)
        if pos[H_COUNT + pos[H_PLAYER]] > 0:
            _begin_turn(pos)
            return


@njit(cache=True)
def play(pos, items, action):  # pragma: no cover - compiled
    """Apply the legal ``action`` of the acting snake in place; returns ``(pos, items)``."""
    s = acting_slot(pos)
    if action < SPLIT:
        _move(pos, items, s, action)
    elif action == SPLIT:
        _split(pos, s)
    else:
        _ray(pos, s)
    pos[H_PLY] += 1
    _advance(pos, items)
    return pos, items


# ---------------------------------------------------------------------------- results


@njit(cache=True)
def scores(pos):  # pragma: no cover - compiled
    """``(score of player 0, score of player 1)``: snake cells plus owned wall cells."""
    s0 = 0
    s1 = 0
    m = pos[H_MAX_SNAKES]
    for s in range(2 * m):
        base = _slot(pos, s)
        if pos[base + F_ALIVE] != 0:
            if s < m:
                s0 += pos[base + F_LEN]
            else:
                s1 += pos[base + F_LEN]
    walls = pos[O_WALL]
    for c in range(pos[H_SIZE] * pos[H_SIZE]):
        w = pos[walls + c]
        if w == 0:
            s0 += 1
        elif w == 1:
            s1 += 1
    return s0, s1


@njit(cache=True)
def final_value(pos, scoring, player):  # pragma: no cover - compiled
    """What the finished game is worth to ``player`` on the ``scoring`` scale."""
    s0, s1 = scores(pos)
    if scoring == WIN_LOSS:
        v = 1.0 if s0 > s1 else -1.0
    else:
        size = pos[H_SIZE]
        v = (s0 - s1) / (size * size)
    return v if player == 0 else -v


@njit(cache=True)
def status(pos, items, scoring):  # pragma: no cover - compiled
    """``(is_terminal, value of the finished game for the player to move in it)``."""
    if pos[H_OVER] == 0:
        return False, 0.0
    return True, final_value(pos, scoring, pos[H_PLAYER])


@njit(cache=True)
def pick(mask, r):  # pragma: no cover - compiled
    """The ``r``-th (from 0) set bit of ``mask``."""
    a = 0
    while True:
        if mask & 1:
            if r == 0:
                return a
            r -= 1
        mask >>= 1
        a += 1


@njit(cache=True)
def bit_count(mask):  # pragma: no cover - compiled
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


@njit(cache=True)
def rollout(pos, items, rng, scoring):  # pragma: no cover - compiled
    """Uniformly random legal actions to the end of the game (``pos`` changes in place):
    ``(value for the player to move at the start, rng)``."""
    player = pos[H_PLAYER]
    while pos[H_OVER] == 0:
        mask = legal_mask(pos)
        rng, r = next_below(rng, bit_count(mask))
        play(pos, items, pick(mask, r))
    return final_value(pos, scoring, player), rng


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
        (O_ORDER, 2 * max_snakes),
        (O_PEND, max_snakes),
        (O_SLOTS, SLOT_FIELDS * 2 * max_snakes),
        (O_RING, 2 * max_snakes * cells),
        (O_OCC, cells),
        (O_WALL, cells),
        (O_CELL_ITEM, cells),
        (O_ITEM_NEXT, n),
        (O_ITEM_STATE, n),
        (O_ITEM_ORDER, n),
        (O_MARK, cells),
        (O_STACK, cells),
    ]
    offsets = {}
    at = HEADER
    for field, length in sizes:
        offsets[field] = at
        at += length
    offsets[H_LENGTH] = at
    return offsets


def encode(state: SnakeGoState) -> tuple[np.ndarray, np.ndarray]:
    """``(pos, items)`` of a reference state (see the module docstring for the layout)."""
    game = state.game
    size, m = game.size, game.max_snakes
    cells = size * size
    items = items_array(game)
    n = items.shape[0]
    offsets = _layout(size, m, n)
    pos = np.zeros(offsets[H_LENGTH], dtype=np.int32)
    for field, at in offsets.items():
        pos[field] = at
    pos[H_SIZE], pos[H_ROUNDS], pos[H_MAX_SNAKES] = size, game.rounds, m
    pos[H_GROWTH], pos[H_N_ITEMS] = game.growth_rounds, n
    pos[H_ROUND], pos[H_PLAYER], pos[H_PLY] = state.round, state.player, state.ply
    for p in (0, 1):
        first = state.first_eat[p]
        pos[H_FIRST_EAT + p] = -1 if first is None else first
    pos[H_OVER] = 1 if state.is_terminal() else 0
    pos[offsets[O_ORDER] : offsets[O_ORDER] + 2 * m] = -1
    pos[offsets[O_OCC] : offsets[O_OCC] + cells] = -1
    pos[offsets[O_CELL_ITEM] : offsets[O_CELL_ITEM] + cells] = -1
    pos[offsets[O_ITEM_NEXT] : offsets[O_ITEM_NEXT] + n] = -1
    slot_of: dict[tuple[int, int], int] = {}
    for p in (0, 1):
        pos[H_COUNT + p] = len(state.snakes[p])
        for k, snake in enumerate(state.snakes[p]):
            s = p * m + k
            slot_of[p, snake.id] = s
            pos[offsets[O_ORDER] + p * m + k] = s
            base = offsets[O_SLOTS] + s * SLOT_FIELDS
            pos[base + F_ALIVE], pos[base + F_ID], pos[base + F_START] = 1, snake.id, 0
            pos[base + F_LEN], pos[base + F_BANK] = len(snake.cells), snake.bank
            pos[base + F_RAY], pos[base + F_INITIAL] = int(snake.ray), int(snake.initial)
            ring = offsets[O_RING] + s * cells
            for i, (x, y) in enumerate(snake.cells):
                pos[ring + i] = y * size + x
                pos[offsets[O_OCC] + y * size + x] = s
    pend = offsets[O_PEND]
    pos[H_PEND_N] = len(state.pending)
    for k, ident in enumerate(state.pending):
        pos[pend + k] = slot_of[state.player, ident]
    pos[offsets[O_WALL] : offsets[O_WALL] + cells] = state.walls
    order = sorted(range(n), key=lambda i: int(items[i, TIME]))
    pos[offsets[O_ITEM_ORDER] : offsets[O_ITEM_ORDER] + n] = order
    appear = expire = 0
    for k, i in enumerate(order):
        time = int(items[i, TIME])
        if time <= state.round:
            appear = k + 1
        if time + ITEM_LIFETIME <= state.round:
            expire = k + 1
        if i in state.eaten:
            pos[offsets[O_ITEM_STATE] + i] = I_EATEN
        elif time + ITEM_LIFETIME <= state.round:
            pos[offsets[O_ITEM_STATE] + i] = I_EXPIRED
        elif time <= state.round:
            pos[offsets[O_ITEM_STATE] + i] = I_BOARD
            cell = offsets[O_CELL_ITEM] + int(items[i, Y]) * size + int(items[i, X])
            pos[offsets[O_ITEM_NEXT] + i] = pos[cell]
            pos[cell] = i
    pos[H_APPEAR], pos[H_EXPIRE] = appear, expire
    return pos, items


def decode(pos: np.ndarray, game: SnakeGo) -> SnakeGoState:
    """The reference state that ``pos`` holds (``decode(*encode(s)[:1], s.game) == s``)."""
    from searchlab.domains.games.snakego import Snake, SnakeGoState

    size, m = int(pos[H_SIZE]), int(pos[H_MAX_SNAKES])
    cells = size * size

    def snake(s: int) -> Snake:
        base = int(pos[O_SLOTS]) + s * SLOT_FIELDS
        start, length = int(pos[base + F_START]), int(pos[base + F_LEN])
        ring = int(pos[O_RING]) + s * cells
        body = []
        for i in range(length):
            c = int(pos[ring + (start + i) % cells])
            body.append((c % size, c // size))
        return Snake(
            id=int(pos[base + F_ID]),
            cells=tuple(body),
            bank=int(pos[base + F_BANK]),
            ray=bool(pos[base + F_RAY]),
            initial=bool(pos[base + F_INITIAL]),
        )

    def player_snakes(p: int) -> tuple[Snake, ...]:
        order = int(pos[O_ORDER]) + p * m
        return tuple(snake(int(pos[order + k])) for k in range(int(pos[H_COUNT + p])))

    snakes = (player_snakes(0), player_snakes(1))
    pend = int(pos[O_PEND])
    pending: list[int] = []
    if not pos[H_OVER]:
        for k in range(int(pos[H_PEND_I]), int(pos[H_PEND_N])):
            s = int(pos[pend + k])
            if s >= 0:
                pending.append(int(pos[int(pos[O_SLOTS]) + s * SLOT_FIELDS + F_ID]))
    n = int(pos[H_N_ITEMS])
    state_at = int(pos[O_ITEM_STATE])
    eaten = frozenset(i for i in range(n) if pos[state_at + i] == I_EATEN)
    eat0, eat1 = int(pos[H_FIRST_EAT]), int(pos[H_FIRST_EAT + 1])
    first_eat = (None if eat0 < 0 else eat0, None if eat1 < 0 else eat1)
    walls = tuple(int(w) for w in pos[int(pos[O_WALL]) : int(pos[O_WALL]) + cells])
    return SnakeGoState(
        game=game,
        round=int(pos[H_ROUND]),
        player=int(pos[H_PLAYER]),
        snakes=snakes,
        pending=tuple(pending),
        walls=walls,
        eaten=eaten,
        first_eat=first_eat,
        ply=int(pos[H_PLY]),
    )
