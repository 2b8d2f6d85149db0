"""Snake Go's informed rollout policy: the course notes' domain knowledge for playouts.

A uniformly random playout of Snake Go mostly measures how fast random snakes kill themselves
(a move off the board, into a wall or into a snake is a legal action). The notes' rollout
policy for the acting snake, as exact rules (the compiled tier implements the same ones):

1. **Deadly moves.** A move to cell ``t`` is *deadly* when the move resolution would remove
   the snake without solidifying it: ``t`` off the board, a wall cell (either owner), a cell of
   any *other* snake (either player), or a cell of its own body still occupied after the tail
   step (the tail cell is vacated first unless the bank, plus the growth bonus of this round,
   is positive) while the snake has fewer than 5 cells. Split and ray are never deadly; a move
   into its own body with 5 cells or more *solidifies* and is not deadly (it scores walls).
   The *safe* actions are the legal actions that are not deadly.
2. **Eat.** An *eating* move is a safe move that does not solidify and lands on an item that is
   on the board this round (``time <= round <= time + 15``) and not eaten yet.
3. **Contested cells.** A safe move that does not solidify is *contested* when its target cell
   is 4-adjacent to the head of an opponent snake with fewer cells than the acting snake
   (a cell that shorter snake's head could also reach next: the notes' "do not let a shorter
   snake trap you").

The policy filters the legal actions in that order, each filter applied only when it leaves at
least one action: the safe ones (if none is safe: all legal actions), then the eating moves
among them (if any), then the uncontested ones among those (if any); and plays uniformly among
what is left: ``pool[int(rng.random() * len(pool))]``, ``pool`` in increasing action order.

>>> import random
>>> from searchlab.domains.games.snakego import SnakeGo
>>> state = SnakeGo(seed=0).initial_state()  # player 0's snake at the top-left corner
>>> sorted(safe_actions(state))  # up and left leave the board
[1, 3]
>>> informed_action(state, random.Random(0)) in (1, 3)
True
"""

from __future__ import annotations

import random

from searchlab.domains.games.snakego import DOWN, LEFT, RIGHT, UP, SnakeGoState

__all__ = [
    "DEADLY",
    "EAT",
    "MOVE",
    "OTHER",
    "SOLIDIFY",
    "action_kinds",
    "contested_cells",
    "informed_action",
    "safe_actions",
]

DEADLY, MOVE, EAT, SOLIDIFY, OTHER = 0, 1, 2, 3, 4
"""The kinds :func:`action_kinds` gives: a deadly move, a plain move, an eating move, a move
that solidifies, and a split or ray (never deadly)."""

_DELTAS = {UP: (0, 1), DOWN: (0, -1), LEFT: (-1, 0), RIGHT: (1, 0)}
_MIN_SOLIDIFY = 5  # a snake of 4 cells or fewer cannot solidify


def action_kinds(state: SnakeGoState) -> list[tuple[int, int]]:
    """``(action, kind)`` for each legal action of the acting snake of the non-terminal
    ``state``, in increasing action order (kinds: :data:`DEADLY`, :data:`MOVE`, :data:`EAT`,
    :data:`SOLIDIFY`, :data:`OTHER`)."""
    game = state.game
    size = game.size
    player = state.player
    snake = state.acting_snake()
    cells = snake.cells
    bank = snake.bank + state.growth(snake)
    body = set(cells if bank > 0 else cells[:-1])
    can_solidify = len(cells) >= _MIN_SOLIDIFY
    others: set[tuple[int, int]] = set()
    for owner, snakes in enumerate(state.snakes):
        for other in snakes:
            if owner != player or other.id != snake.id:
                others.update(other.cells)
    walls = state.walls
    hx, hy = cells[0]
    kinds = []
    for action in state.legal_actions():
        delta = _DELTAS.get(action)
        if delta is None:
            kinds.append((action, OTHER))
            continue
        x, y = hx + delta[0], hy + delta[1]
        target = (x, y)
        if not (0 <= x < size and 0 <= y < size) or walls[y * size + x] != -1 or target in others:
            kind = DEADLY
        elif target in body:
            kind = SOLIDIFY if can_solidify else DEADLY
        elif state.item_at(target) is not None:
            kind = EAT
        else:
            kind = MOVE
        kinds.append((action, kind))
    return kinds


def safe_actions(state: SnakeGoState) -> list[int]:
    """The legal actions of the acting snake that do not kill it (rule 1 above), in order;
    empty when every action does."""
    return [action for action, kind in action_kinds(state) if kind != DEADLY]


def contested_cells(state: SnakeGoState) -> set[tuple[int, int]]:
    """The cells 4-adjacent to the head of an opponent snake with fewer cells than the acting
    snake (rule 3 above; cells off the board included, they never matter)."""
    length = len(state.acting_snake().cells)
    cells: set[tuple[int, int]] = set()
    for other in state.snakes[1 - state.player]:
        if len(other.cells) < length:
            ox, oy = other.cells[0]
            cells.update((ox + dx, oy + dy) for dx, dy in _DELTAS.values())
    return cells


def informed_action(state: SnakeGoState, rng: random.Random) -> int:
    """The notes' informed rollout action for the non-terminal ``state`` (see the module
    docstring): safe, then eating, then uncontested, then uniform with ``rng``."""
    kinds = action_kinds(state)
    pool = [action for action, kind in kinds if kind != DEADLY]
    if not pool:
        pool = [action for action, _ in kinds]
    else:
        eating = [action for action, kind in kinds if kind == EAT]
        if eating:
            pool = eating
        avoid = contested_cells(state)
        if avoid:
            hx, hy = state.acting_snake().cells[0]
            kind_of = dict(kinds)
            free = [
                action
                for action in pool
                if kind_of[action] not in (MOVE, EAT)
                or (hx + _DELTAS[action][0], hy + _DELTAS[action][1]) not in avoid
            ]
            if free:
                pool = free
    return pool[int(rng.random() * len(pool))]
