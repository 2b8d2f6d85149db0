"""The position of Snake Go's compiled tier: one flat ``int32`` array, its layout and the
small numba helpers that read it (the rules are :mod:`.board`, the converters and the
kernels' entry point :mod:`.arrays`).

A position is one 1-D ``int32`` array ``pos`` and the read-only item list ``items`` (an
``(n, 5)`` ``int32`` array of rows ``x, y, time, type, param`` in the game's order).
Everything the rules need is in ``pos``, the game's constants included, so every kernel takes
only ``(pos, items)``.

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

>>> step(5, 12, UP), step(5, 12, LEFT), step(5, 4, DOWN)  # cell 12 is (2, 2) on a 5 x 5 board
(17, 11, -1)
>>> direction(5, 12, 13) == RIGHT, pick(0b101010, 1), bit_count(0b101010)
(True, 3, 3)
"""

from __future__ import annotations

from numba import njit

__all__ = [
    "MAX_BRANCHING",
    "SCORE_DIFFERENCE",
    "WIN_LOSS",
    "acting_slot",
    "bit_count",
    "cell_of",
    "direction",
    "growth_now",
    "pick",
    "ring_index",
    "slot_base",
    "step",
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
def slot_base(pos, s):  # pragma: no cover - compiled
    """Index of slot ``s``'s first field."""
    return pos[O_SLOTS] + s * SLOT_FIELDS


@njit(cache=True)
def ring_index(pos, s, start, i):  # pragma: no cover - compiled
    """Index in ``pos`` of cell ``i`` (0 = head) of slot ``s`` whose ring starts at ``start``."""
    cells = pos[H_SIZE] * pos[H_SIZE]
    j = start + i
    if j >= cells:
        j -= cells
    return pos[O_RING] + s * cells + j


@njit(cache=True)
def cell_of(pos, s, i):  # pragma: no cover - compiled
    """Cell index of cell ``i`` (0 = head) of slot ``s``."""
    return pos[ring_index(pos, s, pos[slot_base(pos, s) + F_START], i)]


@njit(cache=True)
def acting_slot(pos):  # pragma: no cover - compiled
    """The slot of the snake to act (the game must not be over)."""
    return pos[pos[O_PEND] + pos[H_PEND_I]]


@njit(cache=True)
def to_move(pos):  # pragma: no cover - compiled
    """The player to move (on a finished game: as the reference state records it)."""
    return pos[H_PLAYER]


@njit(cache=True)
def direction(size, a, b):  # pragma: no cover - compiled
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
    if pos[slot_base(pos, s) + F_INITIAL] != 0 and pos[H_ROUND] <= pos[H_GROWTH]:
        return 1
    return 0


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
    """Number of set bits of ``mask``."""
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n
