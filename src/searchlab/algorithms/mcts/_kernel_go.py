"""The compiled MCTS for Go: UCT with RAVE (AMAF) and heuristic priors on the numba board of
:mod:`searchlab.domains.games.go_board`, the tree as arrays, resumable in slices.

Go gets its own loop (not :mod:`~searchlab.algorithms.mcts._kernel_loop`'s) because RAVE
needs the moves of the whole simulation, and Go's tree nodes are made a block at a time with
their priors.

**The tree** is a struct of arrays indexed by node id (node 0 is the root; a node's children
are one contiguous block, made all at once, in random order):

============== ======= ================================================================
``parent``     int32   parent id (-1 for the root)
``first``      int32   id of the first child (-1: no children made yet)
``n_children`` int16   size of the child block
``action``     int16   the move from the parent (a point; ``size * size`` is the pass)
``visits``     int32   simulations through this node
``value``      float64 sum of returns for the player who moved into the node (its mover)
``amaf_n``     int32   AMAF visits: simulations below the parent in which the mover played
                       this point first (Gelly and Silver 2007's all-moves-as-first)
``amaf_w``     float64 sum of those simulations' returns for the mover
``prior_n``    float32 virtual visits of the heuristic prior (:func:`_priors`)
``prior_w``    float32 their virtual returns (a virtual win is +1, a loss -1)
``flags``      int8    ``ILLEGAL``: the move repeats a position (superko); never selected
============== ======= ================================================================

The players alternate at every ply (a pass is a move), so a node's mover follows from its
depth: the player to move at the root moves into the depth-1 nodes.

**A simulation** copies the root position and descends: at a node whose block exists, the
child with the largest

    ``(1 - beta) * Q + beta * A + c * sqrt(2 ln N / n)``

where ``n = visits + prior_n``, ``Q = (value + prior_w) / n`` (the prior counts as ``prior_n``
simulations: Gelly and Silver 2007's "prior knowledge" initialisation), ``A = amaf_w / amaf_n``
and ``beta = sqrt(k / (3 n + k))`` (their hand-tuned schedule, with ``k`` the equivalence
parameter ``MCTSOptions.rave``; ``k = 0`` or no AMAF sample: ``beta = 0``), and ``N`` the
parent's visits. A child with ``n = 0`` and no AMAF sample (only without priors) is taken at
once, first in block order: plain UCT tries every move once, in random order. The child is
played; the first time a move is taken its position is checked against the superko history
(the root's ``GoState.history`` and the positions along the path): a repetition flags the
child ``ILLEGAL`` and the simulation starts again. The descent stops at a node without a
block: the root, and any node visited ``expand`` times already, gets its block (its
children: every point :func:`~searchlab.domains.games.go_board.playout_points` gives, that
is legal moves that do not fill the mover's own eye, and the pass, which is always in the
tree) and one more step is taken into it; otherwise a playout runs from there.

**Playouts** play :func:`~searchlab.domains.games.go_informed.random_move` (eye-avoiding
uniform) or :func:`~searchlab.domains.games.go_informed.informed_move` until two passes in a
row, or the game's ``max_moves`` plies (the game then ends and is scored as it stands, as
:class:`~searchlab.domains.games.go.Go` does; a playout that cycles in a triple ko also ends
there). A finished game is worth, to each player, the sign of the area score (``sign``
config; the ``"outcome"`` scale, and any ``win_loss`` game) or the score over
``max_utility`` (``"normalised"`` with area scoring).

**Backup**: every node on the path adds the return for its mover; with RAVE, every child of
every node on the path whose point the node's player to move played first (at that depth or
below, in the tree or the playout; the first occurrence of each point counts, and only for
the player who played it) adds an AMAF sample.

**Priors** (:func:`_priors`, set by the bits of ``config[K_PRIORS]``: :data:`TACTICS`,
:data:`PATTERNS`; 0 turns them off): every new child starts with :data:`PRIOR_EVEN` virtual
visits at an even value (Gelly and Silver's "even game" prior), shifted by virtual wins or
losses (MoGo's and Fuego's kinds of knowledge): wins for a capture, for an escape of an own
chain in atari (to two liberties at least), for contact with the last move and for a 3x3
neighbourhood matching one of MoGo's patterns (the informed playouts' table); losses for a
self-atari of two or more stones that captures nothing and for a first-line move with no
stone within Manhattan distance 2; the pass starts with virtual losses (the constants below).
They steer the first visits toward tactically sensible moves until real visits outweigh them.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from searchlab.algorithms.mcts._kernel_rng import next_below
from searchlab.domains.games.go_board import (
    BOARD,
    BORDER,
    EMPTY,
    H_GEN,
    H_TO_MOVE,
    H_W,
    HDR,
    HEAD,
    MARK,
    NEXT,
    P2Q,
    STONES,
    area_score,
    copy_position,
    hash_of,
    in_atari,
    passes,
    play,
    playout_points,
    random_move,
    to_move,
)
from searchlab.domains.games.go_informed import informed_move, matches_pattern

__all__ = [
    "DONE",
    "GROW",
    "ILLEGAL",
    "NODE_LIMIT",
    "search",
]

DONE, GROW, NODE_LIMIT = 0, 1, 3
"""Why :func:`search` returned: the simulation budget is spent; the arrays need room (the
driver doubles them, or clears ``K_CAN_GROW`` when they may not grow: blocks are then no
longer made); the node limit is reached."""

C_SIMULATIONS, C_USED, C_MAX_DEPTH = 0, 1, 2
"""Slots of the ``counters`` array."""

(
    K_SIZE,
    K_SIGN,
    K_POLICY,
    K_SUPERKO,
    K_MAX_MOVES,
    K_ROOT_MOVES,
    K_PRIORS,
    K_EXPAND,
    K_CAN_GROW,
    K_LAST_MOVE,
) = range(10)
"""Slots of the int64 ``config`` array: board size; 1 to value a game by the sign of its
score; rollout policy (:data:`RANDOM`, :data:`INFORMED`); superko rule (:data:`NO_SUPERKO`,
:data:`POSITIONAL`, :data:`SITUATIONAL`); the game's ``max_moves``; plies played before the
root; priors on (1) or off (0); visits before a node gets its block; 1 while the arrays may
grow; the move that led to the root (-1: none)."""
F_MAX_UTILITY, F_C, F_RAVE = 0, 1, 2
"""Slots of the float64 ``fconfig`` array: the game's ``max_utility``; UCT's ``c``; RAVE's
``k``."""
RANDOM, INFORMED = 0, 1
NO_SUPERKO, POSITIONAL, SITUATIONAL = 0, 1, 2
ILLEGAL = 1

PRIOR_EVEN = 10.0
"""Virtual visits at an even value (return 0) every new child starts with."""
PRIOR_CAPTURE = 20.0
"""Virtual wins of a move that captures."""
PRIOR_ESCAPE = 15.0
"""Virtual wins of a move that gives an own chain in atari a second liberty."""
PRIOR_SELF_ATARI = 20.0
"""Virtual losses of a move that leaves its own chain of two or more stones in atari (and
captures nothing)."""
PRIOR_EDGE = 15.0
"""Virtual losses of a first-line move with no stone within Manhattan distance 2."""
PRIOR_CONTACT = 5.0
"""Virtual wins of a move among the 8 neighbours of the last move."""
PRIOR_PASS = 20.0
"""Virtual losses of the pass."""
PRIOR_PATTERN = 5.0
"""Virtual wins of a move whose 3x3 neighbourhood matches one of MoGo's patterns
(:data:`~searchlab.domains.games.go_policy.PATTERNS`, the informed playouts' table)."""
TACTICS, PATTERNS = 1, 2
"""Bits of ``config[K_PRIORS]``: the tactical and edge priors; the pattern prior."""


@njit(cache=True, inline="always")
def _key(pos, superko, side_key):  # pragma: no cover - compiled
    """The position's superko key: the board hash, with ``side_key`` mixed in when white is
    to move under situational superko."""
    h = hash_of(pos)
    if superko == SITUATIONAL and to_move(pos) == 1:
        h ^= side_key
    return h


@njit(cache=True, inline="always")
def _seen(h, history, path_hash, depth):  # pragma: no cover - compiled
    """``h`` is in the sorted ``history`` or among ``path_hash[:depth]``."""
    lo = 0
    hi = history.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if history[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    if lo < history.shape[0] and history[lo] == h:
        return True
    found = False
    for i in range(depth):
        if path_hash[i] == h:
            found = True
            break
    return found


@njit(cache=True, inline="always")
def _select(
    node, visits, value, first, n_children, amaf_n, amaf_w, prior_n, prior_w, flags, c, k
):  # pragma: no cover - compiled
    """The child of ``node`` (whose block exists) with the largest RAVE-UCT score (module
    docstring); the first in block order on ties."""
    f = first[node]
    parent_n = visits[node]
    log_n = math.log(parent_n) if parent_n > 1 else 0.0
    best = -1
    best_score = -np.inf
    for i in range(n_children[node]):
        child = f + i
        if flags[child] & ILLEGAL:
            continue
        n = visits[child] + prior_n[child]
        an = amaf_n[child]
        if n <= 0.0 and (k <= 0.0 or an == 0):
            return child
        mean = (value[child] + prior_w[child]) / n if n > 0.0 else 0.0
        if k > 0.0 and an > 0:
            beta = math.sqrt(k / (3.0 * n + k))
            mean = (1.0 - beta) * mean + beta * (amaf_w[child] / an)
        score = mean + c * math.sqrt(2.0 * log_n / (n if n > 1.0 else 1.0))
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True, inline="always")
def _liberties_after(pos, q, colour, cap):  # pragma: no cover - compiled
    """The liberties (counted up to ``cap``) of the chain a stone of ``colour`` on the empty
    square ``q`` would make, captures aside: the empty neighbours of ``q`` and those of the
    own chains it joins, each once."""
    w = pos[HDR, H_W]
    gen = pos[HDR, H_GEN] + 1
    pos[HDR, H_GEN] = gen
    pos[MARK, q] = gen
    count = 0
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == EMPTY and pos[MARK, x] != gen:
            pos[MARK, x] = gen
            count += 1
    if count >= cap:
        return count
    h0 = -1
    h1 = -1
    h2 = -1
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == colour:
            head = pos[HEAD, x]
            if head in (h0, h1, h2):
                continue  # this chain is walked already
            h2 = h1
            h1 = h0
            h0 = head
            s = head
            while True:
                for e in (1, -1, w, -w):
                    y = s + e
                    if pos[BOARD, y] == EMPTY and pos[MARK, y] != gen:
                        pos[MARK, y] = gen
                        count += 1
                        if count >= cap:
                            return count
                s = pos[NEXT, s]
                if s == head:
                    break
    return count


@njit(cache=True)
def _priors(pos, size, last, points, n, prior_n, prior_w, f, mask):  # pragma: no cover
    """Fill the priors of the block of ``n + 1`` children starting at ``f``, whose actions
    are ``points[:n]`` and the pass, in the position ``pos`` (module docstring); ``last`` is
    the move that led to ``pos`` (-1: none; the pass: ``size * size``)."""
    w = pos[HDR, H_W]
    colour = pos[HDR, H_TO_MOVE] + 1
    other = 3 - colour
    last_row = -10
    last_col = -10
    if 0 <= last < size * size:
        last_row = last // size
        last_col = last % size
    for i in range(n):
        p = points[i]
        q = pos[P2Q, p]
        pn = PRIOR_EVEN
        pw = 0.0
        if mask & TACTICS:
            captured = 0
            own_atari = False
            for d in (1, -1, w, -w):
                x = q + d
                v = pos[BOARD, x]
                if 0 < v < BORDER:  # a stone
                    head = pos[HEAD, x]
                    if in_atari(pos, head):
                        if v == other:
                            captured += pos[STONES, head]
                        else:
                            own_atari = True
            if captured > 0:
                pn += PRIOR_CAPTURE
                pw += PRIOR_CAPTURE
            else:
                libs = _liberties_after(pos, q, colour, 2)
                if libs <= 1:
                    stones = 1
                    for d in (1, -1, w, -w):
                        if pos[BOARD, q + d] == colour:
                            stones += 1
                    if stones >= 2:
                        pn += PRIOR_SELF_ATARI
                        pw -= PRIOR_SELF_ATARI
                elif own_atari:
                    pn += PRIOR_ESCAPE
                    pw += PRIOR_ESCAPE
            row = p // size
            col = p % size
            if row == 0 or col == 0 or row == size - 1 or col == size - 1:
                lonely = True
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        if abs(dr) + abs(dc) > 2 or (dr == 0 and dc == 0):
                            continue
                        r = row + dr
                        cc = col + dc
                        inside = 0 <= r < size and 0 <= cc < size
                        if inside and pos[BOARD, pos[P2Q, r * size + cc]] != EMPTY:
                            lonely = False
                if lonely:
                    pn += PRIOR_EDGE
                    pw -= PRIOR_EDGE
            if abs(row - last_row) <= 1 and abs(col - last_col) <= 1:
                pn += PRIOR_CONTACT
                pw += PRIOR_CONTACT
        if mask & PATTERNS and matches_pattern(pos, q, w):
            pn += PRIOR_PATTERN
            pw += PRIOR_PATTERN
        prior_n[f + i] = pn
        prior_w[f + i] = pw
    prior_n[f + n] = PRIOR_EVEN + PRIOR_PASS
    prior_w[f + n] = -PRIOR_PASS


@njit(cache=True)
def search(  # pragma: no cover - compiled
    config,
    fconfig,
    parent,
    first,
    n_children,
    action,
    visits,
    value,
    amaf_n,
    amaf_w,
    prior_n,
    prior_w,
    flags,
    root_pos,
    history,
    side_key,
    pos,
    moves,
    first_color,
    path,
    path_hash,
    points,
    counters,
    rng_state,
    max_simulations,
    max_nodes,
):
    """Run simulations until ``counters[C_SIMULATIONS] == max_simulations`` (DONE); before
    each, stop with NODE_LIMIT (``max_nodes`` slots used) or pause with GROW (less than a
    block of free slots while ``config[K_CAN_GROW]``). Resumable: the whole state is in the
    arrays, ``counters`` and ``rng_state[0]``. ``pos`` is scratch for one position,
    ``moves`` (``int16``) holds a simulation's moves (its length bounds a simulation: the
    descent stops ``4 * size * size`` plies before its end), ``first_color`` (``int8``, all
    -1 between calls) one entry per action, ``path``/``path_hash`` one per ply of
    ``moves``, ``points`` one per point."""
    size = config[K_SIZE]
    points_n = size * size
    pass_action = points_n
    sign = config[K_SIGN] != 0
    policy = config[K_POLICY]
    superko = config[K_SUPERKO]
    plies_left = config[K_MAX_MOVES] - config[K_ROOT_MOVES]  # >= 1 (the root is not over)
    use_priors = config[K_PRIORS] != 0
    expand = config[K_EXPAND]
    max_utility = fconfig[F_MAX_UTILITY]
    c = fconfig[F_C]
    k = fconfig[F_RAVE]
    rave = k > 0.0
    capacity = parent.shape[0]
    buffer = moves.shape[0]
    max_descent = buffer - 4 * points_n - 2
    simulations = counters[C_SIMULATIONS]
    used = counters[C_USED]
    max_depth = counters[C_MAX_DEPTH]
    rng = rng_state[0]
    root_color = to_move(root_pos)
    code = DONE
    while True:
        if simulations >= max_simulations:
            break
        if used >= max_nodes:
            code = NODE_LIMIT
            break
        room = capacity - used >= points_n + 1
        if not room and config[K_CAN_GROW] != 0:
            code = GROW
            break
        # Selection (and expansion of at most one block).
        copy_position(pos, root_pos)
        node = 0
        depth = 0
        path[0] = 0
        path_hash[0] = _key(pos, superko, side_key)
        restart = False
        over = False
        while True:
            if depth > 0 and (passes(pos) >= 2 or depth >= plies_left):
                over = True
                break
            f = first[node]
            if f < 0:
                if node != 0 and visits[node] < expand:
                    break
                if not room or depth >= max_descent:
                    break
                n = playout_points(pos, points)
                for i in range(n - 1, 0, -1):  # random block order: UCT's random tie-break
                    rng, j = next_below(rng, i + 1)
                    swap = points[i]
                    points[i] = points[j]
                    points[j] = swap
                f = used
                for i in range(n + 1):
                    child = f + i
                    parent[child] = node
                    first[child] = -1
                    n_children[child] = 0
                    action[child] = points[i] if i < n else pass_action
                    visits[child] = 0
                    value[child] = 0.0
                    amaf_n[child] = 0
                    amaf_w[child] = 0.0
                    prior_n[child] = 0.0
                    prior_w[child] = 0.0
                    flags[child] = 0
                if use_priors:
                    last = config[K_LAST_MOVE] if depth == 0 else moves[depth - 1]
                    _priors(pos, size, last, points, n, prior_n, prior_w, f, config[K_PRIORS])
                first[node] = f
                n_children[node] = n + 1
                used += n + 1
                room = capacity - used >= points_n + 1
            child = _select(
                node, visits, value, first, n_children, amaf_n, amaf_w, prior_n, prior_w,
                flags, c, k,
            )  # fmt: skip
            move = action[child]
            play(pos, move)
            moves[depth] = move
            depth += 1
            h = _key(pos, superko, side_key)
            new = superko != NO_SUPERKO and move != pass_action and visits[child] == 0
            if new and _seen(h, history, path_hash, depth):
                flags[child] |= ILLEGAL
                restart = True
                break
            path[depth] = child
            path_hash[depth] = h
            node = child
            if visits[child] == 0:
                # a new node: end the descent here (after the terminal test)
                if depth > 0 and (passes(pos) >= 2 or depth >= plies_left):
                    over = True
                break
        if restart:
            continue
        if depth > max_depth:
            max_depth = depth
        # Playout.
        ply = depth
        if not over:
            limit = min(plies_left, buffer)
            while passes(pos) < 2 and ply < limit:
                if policy == INFORMED:
                    move, rng = informed_move(pos, rng, next_below)
                else:
                    move, rng = random_move(pos, rng, next_below)
                play(pos, move)
                moves[ply] = move
                ply += 1
        score = area_score(pos)
        if sign:
            black = 1.0 if score > 0.0 else -1.0 if score < 0.0 else 0.0
        else:
            black = score / max_utility
        # Backup: each node's mover played move depth - 1 (colour (root_color + d - 1) % 2).
        for d in range(depth, 0, -1):
            n_id = path[d]
            reward = black if (root_color + d - 1) % 2 == 0 else -black
            visits[n_id] += 1
            value[n_id] += reward
        visits[0] += 1
        if rave:
            for i in range(ply - 1, depth - 1, -1):  # first occurrence of each point wins
                first_color[moves[i]] = (root_color + i) % 2
            for d in range(depth, -1, -1):
                n_id = path[d]
                f = first[n_id]
                if f >= 0:
                    color = (root_color + d) % 2  # to move at this node
                    reward = black if color == 0 else -black
                    for i in range(n_children[n_id]):
                        child = f + i
                        a = action[child]
                        if a != pass_action and first_color[a] == color:
                            amaf_n[child] += 1
                            amaf_w[child] += reward
                if d > 0:
                    first_color[moves[d - 1]] = (root_color + d - 1) % 2
            for i in range(ply):
                first_color[moves[i]] = -1
        simulations += 1
    counters[C_SIMULATIONS] = simulations
    counters[C_USED] = used
    counters[C_MAX_DEPTH] = max_depth
    rng_state[0] = rng
    return code


@njit(cache=True)
def compact(  # pragma: no cover - compiled
    parent,
    first,
    n_children,
    action,
    visits,
    value,
    amaf_n,
    amaf_w,
    prior_n,
    prior_w,
    flags,
    to_parent,
    to_first,
    to_n_children,
    to_action,
    to_visits,
    to_value,
    to_amaf_n,
    to_amaf_w,
    to_prior_n,
    to_prior_w,
    to_flags,
    root,
):
    """Copy the subtree of node ``root`` into the ``to_`` arrays (as large as the source),
    breadth first, ``root`` becoming node 0 (its blocks stay contiguous); return the slots
    used. Tree reuse: the part of the tree below the move played is kept, the rest dropped."""
    source = np.empty(to_parent.shape[0], dtype=np.int32)
    source[0] = root
    to_parent[0] = -1
    to_action[0] = -1
    to_visits[0] = visits[root]
    to_value[0] = value[root]
    to_amaf_n[0] = 0
    to_amaf_w[0] = 0.0
    to_prior_n[0] = 0.0
    to_prior_w[0] = 0.0
    to_flags[0] = 0
    used = 1
    i = 0
    while i < used:
        s = source[i]
        f = first[s]
        n = n_children[s]
        if f < 0:
            to_first[i] = -1
            to_n_children[i] = 0
        else:
            to_first[i] = used
            to_n_children[i] = n
            for j in range(n):
                src = f + j
                dst = used + j
                source[dst] = src
                to_parent[dst] = i
                to_action[dst] = action[src]
                to_visits[dst] = visits[src]
                to_value[dst] = value[src]
                to_amaf_n[dst] = amaf_n[src]
                to_amaf_w[dst] = amaf_w[src]
                to_prior_n[dst] = prior_n[src]
                to_prior_w[dst] = prior_w[src]
                to_flags[dst] = flags[src]
            used += n
        i += 1
    return used
