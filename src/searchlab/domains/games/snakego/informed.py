"""Snake Go's informed rollout policy in numba, on the positions of
:mod:`searchlab.domains.games.snakego.arrays`: the same policy as the reference
:func:`searchlab.domains.games.snakego.policy.informed_action`.

The acting snake's legal actions are sorted into kinds (those of the reference policy):

* a **deadly** move lands off the board, on a wall cell (either owner), on a cell of any other
  snake (either player), or on a cell of its own body still occupied after the tail step (the
  tail cell is free unless the bank, plus this round's growth bonus, is positive) while the
  snake has fewer than 5 cells;
* a move onto its own body with 5 cells or more **solidifies** (safe: it scores walls);
* an **eating** move lands on an item that is on the board now (appeared, not expired, not
  eaten; an item inside a wall is behind a deadly move);
* split and ray are never deadly; the other moves are plain moves.

The pool starts as the safe (not deadly) legal actions, or all of them when none is safe; when
some are safe it narrows to the eating moves if there are any, then to the *uncontested*
actions if any is left: a plain or eating move is contested when its target cell is
4-adjacent to the head of an opponent snake with fewer cells than the acting snake (a cell
that shorter snake could reach next). The action is uniform over the pool
(drawn with the caller's ``below(rng, n)``, the compiled MCTS's
:func:`~searchlab.core.compiled_rng.next_below`): the same distribution as the
reference, with other random numbers.

>>> import numpy as np
>>> from searchlab.domains.games.snakego import SnakeGo
>>> from searchlab.domains.games.snakego.arrays import encode
>>> pos, items = encode(SnakeGo(seed=0).initial_state())  # at the top-left corner
>>> bin(informed_mask(pos, items))  # down and right: up and left leave the board
'0b1010'
"""

from __future__ import annotations

from numba import njit

from searchlab.domains.games.snakego.board import final_value, legal_mask, play
from searchlab.domains.games.snakego.layout import (
    F_ALIVE,
    F_BANK,
    F_LEN,
    H_MAX_SNAKES,
    H_OVER,
    H_PLAYER,
    H_SIZE,
    O_CELL_ITEM,
    O_OCC,
    O_WALL,
    SPLIT,
    acting_slot,
    bit_count,
    cell_of,
    growth_now,
    pick,
    slot_base,
    step,
)
from searchlab.domains.games.snakego.policy import DEADLY, EAT, MOVE, OTHER, SOLIDIFY

__all__ = [
    "informed_action",
    "informed_mask",
    "informed_rollout",
    "kind",
]

MIN_SOLIDIFY = 5


@njit(cache=True)
def kind(pos, s, action):  # pragma: no cover - compiled
    """The kind of the legal ``action`` for slot ``s`` (the acting snake)."""
    if action >= SPLIT:
        return OTHER
    size = pos[H_SIZE]
    target = step(size, cell_of(pos, s, 0), action)
    if target < 0 or pos[pos[O_WALL] + target] >= 0:
        return DEADLY
    other = pos[pos[O_OCC] + target]
    if other >= 0:
        if other != s:
            return DEADLY
        base = slot_base(pos, s)
        length = pos[base + F_LEN]
        tail_free = pos[base + F_BANK] + growth_now(pos, s) == 0
        if not (tail_free and target == cell_of(pos, s, length - 1)):
            return SOLIDIFY if length >= MIN_SOLIDIFY else DEADLY
    if pos[pos[O_CELL_ITEM] + target] >= 0:
        return EAT
    return MOVE


@njit(cache=True)
def _contested(pos, s, action):  # pragma: no cover - compiled
    """Is the target of move ``action`` next to the head of a shorter opponent snake?"""
    size = pos[H_SIZE]
    target = step(size, cell_of(pos, s, 0), action)
    tx = target % size
    ty = target // size
    m = pos[H_MAX_SNAKES]
    length = pos[slot_base(pos, s) + F_LEN]
    first = (1 - pos[H_PLAYER]) * m
    for o in range(first, first + m):
        base = slot_base(pos, o)
        if pos[base + F_ALIVE] != 0 and pos[base + F_LEN] < length:
            head = cell_of(pos, o, 0)
            if abs(head % size - tx) + abs(head // size - ty) == 1:
                return True
    return False


@njit(cache=True)
def informed_mask(pos, items):  # pragma: no cover - compiled
    """The pool of the informed policy as action bits (the game must not be over)."""
    legal = legal_mask(pos)
    s = acting_slot(pos)
    safe = 0
    eating = 0
    plain = 0  # plain and eating moves, the ones that can be contested
    for a in range(6):
        if legal >> a & 1:
            k = kind(pos, s, a)
            if k != DEADLY:
                safe |= 1 << a
            if k == EAT:
                eating |= 1 << a
            if k in (EAT, MOVE):
                plain |= 1 << a
    if safe == 0:
        return legal
    pool = eating if eating != 0 else safe
    free = pool
    for a in range(4):
        if plain >> a & 1 and pool >> a & 1 and _contested(pos, s, a):
            free &= ~(1 << a)
    return free if free != 0 else pool


@njit(cache=True, inline="always")
def informed_action(pos, items, rng, below):  # pragma: no cover - compiled
    """``(an action of the informed policy, rng)``, drawn with ``below``."""
    pool = informed_mask(pos, items)
    rng, r = below(rng, bit_count(pool))
    return pick(pool, r), rng


@njit(cache=True, inline="always")
def informed_rollout(pos, items, rng, scoring, below):  # pragma: no cover - compiled
    """Informed-policy actions to the end of the game (``pos`` changes in place):
    ``(value for the player to move at the start, rng)``, as
    :func:`~searchlab.domains.games.snakego.arrays.rollout`."""
    player = pos[H_PLAYER]
    while pos[H_OVER] == 0:
        action, rng = informed_action(pos, items, rng, below)
        play(pos, items, action)
    return final_value(pos, scoring, player), rng
