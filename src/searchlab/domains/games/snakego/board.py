"""Snake Go's rules as numba kernels on the flat position of :mod:`.layout`: the
game functions of the compiled MCTS loop (:mod:`searchlab.algorithms.mcts._kernel_loop`).

:func:`actions`, :func:`play`, :func:`status` and :func:`rollout` (with
:func:`~.layout.to_move`) follow the reference tier
(:class:`~searchlab.domains.games.snakego.SnakeGoState`) exactly; the differential tests
(``tests/domains/games/snakego/test_snakego_compiled.py``) compare the two after every ply.
:func:`play` and :func:`rollout` change ``pos`` in place (the caller copies it). No kernel
allocates memory: the flood fill of a solidification works in two scratch sections of ``pos``.

Items on the board are kept in per-cell lists, filled and emptied at the start of each round
through two cursors over the items sorted by time, so eating on a move and the round-start
step cost O(1) per item, never a scan of the whole list.

A rollout draws its random numbers with ``below(rng, n) -> (rng, an int uniform in [0, n))``,
passed in by the caller (the compiled MCTS passes
:func:`searchlab.core.compiled_rng.next_below`), so the caller chooses the generator.
The rollouts (and :func:`~.informed.informed_action`) are
inlined into their caller (``inline="always"``): a function passed to a compiled call that is
not inlined is a dynamic global, and numba would not cache the caller (measured: the bound
kernel then compiles again, about 40 s, in every process).
"""

from __future__ import annotations

from numba import njit

from searchlab.domains.games.snakego.layout import (
    F_ALIVE,
    F_BANK,
    F_ID,
    F_INITIAL,
    F_LEN,
    F_RAY,
    F_START,
    H_APPEAR,
    H_COUNT,
    H_EXPIRE,
    H_FIRST_EAT,
    H_MAX_SNAKES,
    H_N_ITEMS,
    H_OVER,
    H_PEND_I,
    H_PEND_N,
    H_PLAYER,
    H_PLY,
    H_ROUND,
    H_ROUNDS,
    H_SIZE,
    I_BOARD,
    I_EATEN,
    I_EXPIRED,
    I_FUTURE,
    ITEM_LIFETIME,
    O_CELL_ITEM,
    O_ITEM_NEXT,
    O_ITEM_ORDER,
    O_ITEM_STATE,
    O_MARK,
    O_OCC,
    O_ORDER,
    O_PEND,
    O_STACK,
    O_WALL,
    PARAM,
    RAY,
    RAY_ITEM,
    SPLIT,
    TIME,
    TYPE,
    WIN_LOSS,
    X,
    Y,
    acting_slot,
    bit_count,
    cell_of,
    direction,
    growth_now,
    pick,
    ring_index,
    slot_base,
    step,
)

__all__ = [
    "actions",
    "final_value",
    "legal_mask",
    "play",
    "rollout",
    "scores",
    "start_round",
    "status",
]

# ---------------------------------------------------------------------------- legal actions


@njit(cache=True)
def legal_mask(pos):  # pragma: no cover - compiled
    """The legal actions as bits (bit ``a`` for action ``a``); 0 when the game is over."""
    if pos[H_OVER] != 0:
        return 0
    s = acting_slot(pos)
    base = slot_base(pos, s)
    length = pos[base + F_LEN]
    if length == 1:
        return 15
    mask = 15
    if length > 2 or pos[base + F_BANK] + growth_now(pos, s) > 0:
        size = pos[H_SIZE]
        mask &= ~(1 << direction(size, cell_of(pos, s, 0), cell_of(pos, s, 1)))
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
    base = slot_base(pos, s)
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
    base = slot_base(pos, s)
    occ = pos[O_OCC]
    start = pos[base + F_START]
    for i in range(pos[base + F_LEN]):
        cell = pos[ring_index(pos, s, start, i)]
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
        pos[mark + cell_of(pos, s, i)] = 1
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
    base = slot_base(pos, s)
    occ = pos[O_OCC]
    if growth_now(pos, s):
        pos[base + F_BANK] += 1
    bank = pos[base + F_BANK]
    length = pos[base + F_LEN]
    start = pos[base + F_START]
    head = pos[ring_index(pos, s, start, 0)]
    if bank == 0:
        pos[occ + pos[ring_index(pos, s, start, length - 1)]] = -1  # the tail moves on
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
        while pos[ring_index(pos, s, start, k)] != target:
            k += 1
        _solidify(pos, s, k)
        return
    start -= 1
    if start < 0:
        start += size * size
    pos[ring_index(pos, s, start, 0)] = target
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
    base = slot_base(pos, s)
    length = pos[base + F_LEN]
    keep = (length + 1) // 2
    new = player * m
    while pos[slot_base(pos, new) + F_ALIVE] != 0:
        new += 1
    nbase = slot_base(pos, new)
    ident = 0  # the smallest id none of the player's snakes has
    while True:
        taken = False
        for t in range(player * m, player * m + m):
            tbase = slot_base(pos, t)
            if pos[tbase + F_ALIVE] != 0 and pos[tbase + F_ID] == ident:
                taken = True
        if not taken:
            break
        ident += 1
    occ = pos[O_OCC]
    for j in range(length - keep):
        cell = cell_of(pos, s, length - 1 - j)
        pos[ring_index(pos, new, 0, j)] = cell
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
    head = cell_of(pos, s, 0)
    heading = direction(size, cell_of(pos, s, 1), head)
    walls = pos[O_WALL]
    c = step(size, head, heading)
    while c >= 0:
        pos[walls + c] = -1
        c = step(size, c, heading)
    pos[slot_base(pos, s) + F_RAY] = 0


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
        base = slot_base(pos, s)
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


@njit(cache=True, inline="always")
def rollout(pos, items, rng, scoring, below):  # pragma: no cover - compiled
    """Uniformly random legal actions to the end of the game (``pos`` changes in place),
    drawn with ``below``: ``(value for the player to move at the start, rng)``."""
    player = pos[H_PLAYER]
    while pos[H_OVER] == 0:
        mask = legal_mask(pos)
        rng, r = below(rng, bit_count(mask))
        play(pos, items, pick(mask, r))
    return final_value(pos, scoring, player), rng
