"""The search loop of the compiled MCTS, shared by every compiled game, and its tree arrays.

A position is a pair ``(a, b)``: two machine words (Connect Four, Othello: scalars of the
game's dtype), or an array ``a`` that ``play`` changes in place and a read-only ``b`` (Snake
Go: the whole position, and the item list). A game plugs in six ``@njit`` functions:

* ``actions(a, b, out, offset) -> n``: write the ``n`` legal actions, in increasing order,
  into ``out[offset:offset + n]`` (the position is not terminal);
* ``play(a, b, action) -> (a, b)``: the position after ``action`` (arrays may be changed in
  place and returned);
* ``status(a, b, config) -> (is_terminal, value)``: ``value`` is what a finished game is
  worth to the player to move in it (on a finished game: the player who would move), on the
  search's value scale (in ``[-1, 1]``);
* ``rollout(a, b, rng, config) -> (value, rng)``: play the game's rollout policy from a
  non-terminal position to the end (arrays may be used up); ``value`` as in ``status``;
* ``start(root_a, root_b, scratch) -> (a, b)``: the position a simulation starts from: the
  root itself for words (:func:`start_words`), the root array copied into the ``scratch``
  array for an array position (:func:`start_copy`), since ``play`` and ``rollout`` change it;
* ``next_player(a, b, before) -> player``: the player to move after a ply by ``before``:
  ``1 - before`` where players alternate at every ply (:func:`alternate`, a forced pass being
  an action), the position's own mover where one player may move several plies in a row
  (Snake Go).

``config`` is the game's settings (which value scale, which rollout policy), passed unchanged
to ``status`` and ``rollout``.

A game may add optional hooks (``None`` for the others: numba compiles their branches out, so
a game without them runs the code it ran before): ``tree_actions`` (the actions the tree holds),
``priors`` (children made a whole block at a time, after ``expand`` visits, with prior virtual
visits, and selected by UCT-RAVE with priors, :func:`_select_priors`), ``repeats`` (superko:
a move into an earlier position is marked :data:`ILLEGAL` and the simulation starts again) and
``playout`` (the game's rollout telling its moves, so that RAVE runs over it); with
``amaf_first`` RAVE counts only the first play of each action. Go uses them all
(:mod:`~searchlab.domains.games.go.compiled`): its searches are those of its former loop, node
for node (``tests/algorithms/mcts/test_golden_trees.py``).

The public form of these functions is the compiled-game protocol
(:class:`~searchlab.core.compiled_game.CompiledGame`), and
:func:`~searchlab.algorithms.mcts._kernel_bind.bind` binds the loop to a game's functions in a
cached ``@njit`` function of a module it writes. Numba specialises :func:`simulate` on them
(they are inlined, no indirect calls) and caches the bound kernel on disk; a kernel that took
the functions as arguments from Python would be compiled again in every process (numba cannot
cache that), and a closure made by a factory is not cached either (both measured with numba
0.68). The written module's name is a digest of this file among others, so an edit here makes
new bound kernels.

Players are absolute (0 and 1), taken from the positions, not from the depth's parity: every
node stores the player who moved into it (``mover``), values and proofs are kept for that
player, and a value changes sign on the way up only where the mover changes. So a run of
plies by one player (Snake Go's snakes moving one after another) is searched as it is: its
nodes maximise for the same player, and MCTS-Solver's proof step keeps the sign of a child
whose mover is the node's own. Where players alternate the values are those of a sign flip at
every ply, bit for bit (the negation of a float is exact): Connect Four and Othello give the
same trees for a seed as the alternating-only loop did (every node of 40 searches compared),
at the same speed, so one loop serves every game. Measured against that loop (2026-11-23,
2-core EPYC VM shared with other jobs, CPU time, best of 5, six alternations in two sessions,
simulations/s from the start position): Connect Four 0.96-1.11 M before, 1.02-1.16 M after;
with the solver 1.03-1.30 M, 1.11-1.39 M; Othello 223-256 k, 219-253 k. On Snake Go (16 x 16,
512 rounds, from the start) the kernel runs about 40 k simulations/s with uniform rollouts
(random snakes die early) and 780/s with the informed ones (whole halves), 40 to 70 times the
reference tier.

The tree is a struct of arrays indexed by node id (node 0 is the root):

============== ======= ================================================================
``parent``     int32   parent id (-1 for the root)
``first``      int32   id of the first child (-1: not expanded yet); children are contiguous
``n_children`` int16   number of legal actions (the size of the child block)
``n_expanded`` int16   children created so far (the first ones of the block)
``action``     int16   the action that leads from the parent to this node
``mover``      int8    the player who moved into this node (the parent's player to move;
                       for the root, the other player than the one to move)
``visits``     int32   simulations through this node
``value``      float64 sum of returns, for ``mover``
``is_proven``  int8    the exact value is known: a finished game, or settled by the solver
``proven``     float64 that exact value, for ``mover``
``amaf_visits`` int32  RAVE: simulations in which this slot's action was played later by
                       its mover (kept for children not made yet too)
``amaf_value`` float64 RAVE: the sum of their returns, for the slot's mover
``prior``      float64 PUCT: the evaluator's prior of this slot's action; with ``priors``:
                       the returns of the prior's virtual visits
``pending``    int32   PUCT: leaves in flight below this node (virtual loss); with
                       ``priors``: the prior's virtual visits (both are visits that count in
                       the selection before any real one)
``player``     int8    PUCT: the player to move at this node (-1: not known yet)
``status``     int8    PUCT: not made yet, waiting for its evaluation, expanded, or terminal
                       (:mod:`~searchlab.algorithms.mcts.batched`); with ``repeats``:
                       :data:`ILLEGAL`, a move that repeats a position
============== ======= ================================================================

UCT and RAVE (this module's loop) and PUCT with leaves batched for an evaluator
(:mod:`~searchlab.algorithms.mcts.batched`) share this one layout.

A node's child block is reserved the first time a simulation passes through it, with its
actions shuffled (a random untried action is expanded next, as in Browne et al. 2012); each
simulation then creates one node (Coulom 2006), so the tree holds ``simulations + 1`` nodes
(fewer when simulations end on finished games), in about twice as many slots. With
``priors`` a block is made whole (every slot a node, ``n_expanded == n_children``) and the
node count is the slots used.

Positions are not stored: each simulation starts from the root position (``start``) and
replays the actions as it descends (one ``play`` per ply, far cheaper than the rollout that
follows). Measured against a tree that stored both words per node (2026-11-22, 2-core EPYC
VM, CPU time, best of 5 runs, three alternations): 1.0-1.1 M (stored) vs 0.97-1.09 M
(replayed) simulations/s on Connect Four, 209-223 k vs 203-251 k on Othello, no difference
beyond the noise, and the tree takes 46 bytes a slot instead of 62 (a Snake Go position of
a few hundred bytes could not be stored per node at all).
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import njit

from searchlab.algorithms.mcts._atomics import compare_and_swap
from searchlab.algorithms.mcts._kernel_final import ROBUST_CHILD, final_choice
from searchlab.core.compiled_rng import next_below

__all__ = [
    "BAD_VALUE",
    "DONE",
    "GROW",
    "ILLEGAL",
    "NODE_LIMIT",
    "ROBUST",
    "ROOT_PROVEN",
    "Tree",
    "alternate",
    "compact",
    "prove_root",
    "settings",
    "simulate",
    "start_copy",
    "start_words",
]

DONE, GROW, ROOT_PROVEN, NODE_LIMIT, ROBUST, BAD_VALUE = 0, 1, 2, 3, 4, 5
"""Why :func:`simulate` returned: the simulation budget is spent; the arrays need room; the
root is proven (solver only); the node limit is reached; the robust-max child exists; a
game function gave a value outside ``[-1, 1]`` (the simulation is not counted)."""
C_SIMULATIONS, C_USED, C_NODES, C_MAX_DEPTH, C_END = 0, 1, 2, 3, 4
"""Slots of the ``counters`` array; ``C_END`` (0: the arrays' end) is where the slots this
call may take end (tree parallelism: each thread reserves blocks in its own region)."""
ILLEGAL = 4
"""A child's ``status`` when its move repeats an earlier position (``repeats``: superko):
never selected again (PUCT's statuses are 0 to 3)."""


@njit(cache=True, inline="always")
def _select(
    node, first, n_children, visits, value, is_proven, proven, c, solver
):  # pragma: no cover
    """The child of a fully expanded ``node`` with the largest UCB1
    ``w/n + c * sqrt(2 ln N / n)`` (the first in block order on ties), or -1 when the solver
    has proven every child lost. With the solver a child proven won for the mover is taken
    at once, proven losses are passed over and a proven draw scores 0 in place of its mean
    (as the reference tier's ``select_uct``)."""
    f = first[node]
    n = n_children[node]
    exploration = c * math.sqrt(2.0 * math.log(visits[node]))
    best = -1
    best_score = -np.inf
    for i in range(n):
        child = f + i
        nv = visits[child]
        if nv == 0:  # made by another thread, not yet counted (tree parallelism)
            return child
        mean = value[child] / nv
        if solver and is_proven[child]:
            p = proven[child]
            if p > 0.0:
                return child
            if p < 0.0:
                continue
            mean = 0.0
        score = mean + exploration / math.sqrt(nv)
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True, inline="always")
def _select_rave(  # pragma: no cover - compiled
    node, first, n_children, n_expanded, visits, value, is_proven, proven, amaf_visits,
    amaf_value, c, k, solver,
):  # fmt: skip
    """UCT-RAVE (Gelly and Silver 2007, as the reference tier's ``select_rave``): the slot of
    ``node``'s child block with the largest ``(1 - beta) Q + beta Q_amaf + c sqrt(2 ln N /
    n)``, ``beta = sqrt(k / (3 n + k))``; a child not made yet (a slot past ``n_expanded``)
    is valued by its AMAF mean alone and chosen at once when it has no AMAF sample either
    (the first such in block order, which is shuffled); -1 when the solver has proven every
    child lost. Proven children as in :func:`_select`."""
    f = first[node]
    made = n_expanded[node]
    total = visits[node]
    explore = c * math.sqrt(2.0 * math.log(total)) if total > 1 else 0.0
    best = -1
    best_score = -np.inf
    for i in range(n_children[node]):
        slot = f + i
        seen = amaf_visits[slot]
        if i >= made:
            if seen == 0:
                return slot
            score = amaf_value[slot] / seen + explore
        else:
            nv = visits[slot]
            if solver and is_proven[slot]:
                p = proven[slot]
                if p > 0.0:
                    return slot
                if p < 0.0:
                    continue
                mean = 0.0
            else:
                mean = value[slot] / nv
                if seen:
                    beta = math.sqrt(k / (3.0 * nv + k))
                    mean = (1.0 - beta) * mean + beta * amaf_value[slot] / seen
            score = mean + explore / math.sqrt(nv)
        if score > best_score:
            best_score = score
            best = slot
    return best


@njit(cache=True, inline="always")
def _select_priors(  # pragma: no cover - compiled
    node, first, n_children, visits, value, amaf_visits, amaf_value, pending, prior, status, c,
    k,
):  # fmt: skip
    """UCT-RAVE with prior knowledge (Gelly and Silver 2007), for children made a block at a
    time with priors: the child of ``node`` with the largest ``(1 - beta) Q + beta A + c
    sqrt(2 ln N / n)``, where ``n`` is its visits plus its prior's virtual visits
    (``pending``), ``Q = (value + prior) / n`` (``prior``: the virtual visits' returns),
    ``A`` its AMAF mean and ``beta = sqrt(k / (3 n + k))`` (``k = 0`` or no AMAF sample:
    ``beta = 0``); a child with ``n = 0`` and no AMAF sample is taken at once (the first in
    block order), children marked :data:`ILLEGAL` never; the first in block order on ties;
    -1 when every child is illegal."""
    f = first[node]
    parent_n = visits[node]
    log_n = math.log(parent_n) if parent_n > 1 else 0.0
    best = -1
    best_score = -np.inf
    for i in range(n_children[node]):
        child = f + i
        if status[child] == ILLEGAL:
            continue
        n = float(visits[child] + pending[child])
        an = amaf_visits[child]
        if n <= 0.0 and (k <= 0.0 or an == 0):
            return child
        mean = (value[child] + prior[child]) / n if n > 0.0 else 0.0
        if k > 0.0 and an > 0:
            beta = math.sqrt(k / (3.0 * n + k))
            mean = (1.0 - beta) * mean + beta * (amaf_value[child] / an)
        score = mean + c * math.sqrt(2.0 * log_n / (n if n > 1.0 else 1.0))
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True, inline="always")
def _prove(node, first, n_expanded, n_children, mover, is_proven, proven):  # pragma: no cover
    """MCTS-Solver's backup at ``node`` (Winands et al. 2008, as the reference tier's
    ``prove``): a child proven won for the node's player proves the node (with that child's
    value); when every child is proven, the node's value is the best of them. Returns
    ``(is proven, value for the player who moved into the node)``: the children's values are
    for the node's player (their mover), the same sign when that player also moved into the
    node (a run of plies by one player), the opposite one otherwise."""
    f = first[node]
    same = mover[f] == mover[node]
    complete = n_expanded[node] == n_children[node]
    best = -np.inf
    for i in range(n_expanded[node]):
        child = f + i
        if not is_proven[child]:
            complete = False
            continue
        v = proven[child]
        if v > 0.0:
            return True, v if same else -v
        if v > best:
            best = v
    if not complete:
        return False, 0.0
    return True, best if same else -best


@njit(cache=True, inline="always")
def _random_playout(  # pragma: no cover - compiled
    actions_fn, play_fn, status_fn, next_player_fn, a, b, player, rng, config, buffer,
    max_plies, trail_player, trail_action, record,
):  # fmt: skip
    """Uniformly random moves from the non-terminal ``(a, b)``, ``player`` to move, to the
    end: ``(value for player, rng, moves)``; NaN when the game has not ended after
    ``max_plies``. With ``record``, move ``t`` and its player go to ``trail_action[t]`` and
    ``trail_player[t]`` (RAVE's all-moves-as-first statistics)."""
    mover = player
    for t in range(max_plies):
        n = actions_fn(a, b, buffer, 0)
        rng, k = next_below(rng, n)
        if record:
            trail_player[t] = mover
            trail_action[t] = buffer[k]
        a, b = play_fn(a, b, buffer[k])
        mover = next_player_fn(a, b, mover)
        is_over, result = status_fn(a, b, config)
        if is_over:
            return (result if mover == player else -result), rng, t + 1
    return np.nan, rng, max_plies


@njit(cache=True, inline="always")
def start_words(root_a, root_b, scratch):  # pragma: no cover - compiled
    """``start`` for positions in two words: the root itself (``play`` returns new words)."""
    return root_a, root_b


@njit(cache=True, inline="always")
def start_copy(root_a, root_b, scratch):  # pragma: no cover - compiled
    """``start`` for an array position ``root_a`` with read-only data ``root_b``: ``root_a``
    copied into ``scratch`` (which ``play`` and ``rollout`` then change in place), element by
    element through flat views of the two C-contiguous arrays (:class:`Tree` makes them so):
    numba's slice assignment of a 2-D array took 580 ns for Go's 9x9 position, this 150."""
    to = scratch.ravel()
    source = root_a.ravel()
    for i in range(source.size):
        to[i] = source[i]
    return scratch, root_b


@njit(cache=True, inline="always")
def alternate(a, b, before):  # pragma: no cover - compiled
    """``next_player`` of a game whose players alternate at every ply."""
    return 1 - before


@njit(cache=True, inline="always")
def _tree_actions(actions_fn, tree_actions_fn, a, b, out, offset):  # pragma: no cover
    """The actions the tree holds for ``(a, b)``, written to ``out[offset:]``: the game's
    ``tree_actions`` where it has one, else its legal ``actions``; their number."""
    if tree_actions_fn is None:
        return actions_fn(a, b, out, offset)
    return tree_actions_fn(a, b, out, offset)


@njit(cache=True, inline="always")
def _shuffle(action, start, n, rng):  # pragma: no cover - compiled
    """Shuffle ``action[start:start + n]`` in place (Fisher-Yates from the end); the rng."""
    for i in range(n - 1, 0, -1):
        rng, j = next_below(rng, i + 1)
        swap = action[start + i]
        action[start + i] = action[start + j]
        action[start + j] = swap
    return rng


@njit(cache=True, inline="always")
def _reserve(
    actions_fn,
    tree_actions_fn,
    a,
    b,
    node,
    first,
    n_children,
    n_expanded,
    action,
    amaf_visits,
    amaf_value,
    used,
    rng,
    rave,
):  # pragma: no cover - compiled
    """Reserve ``node``'s child block at ``used``: its actions, shuffled (a random untried
    action is expanded next, as in Browne et al. 2012), AMAF statistics zeroed with RAVE;
    ``(slots used, rng)``."""
    n = _tree_actions(actions_fn, tree_actions_fn, a, b, action, used)
    rng = _shuffle(action, used, n, rng)
    if rave > 0.0:
        for i in range(n):
            amaf_visits[used + i] = 0
            amaf_value[used + i] = 0.0
    n_children[node] = n
    n_expanded[node] = 0
    first[node] = used  # last: another thread sees a block only once it is whole
    return used + n, rng


@njit(cache=True, inline="always")
def _reserve_shared(
    actions_fn, tree_actions_fn, a, b, node, first, n_children, n_expanded, action, visits,
    value, used, rng,
):  # fmt: skip  # pragma: no cover - compiled
    """:func:`_reserve` for threads sharing the tree: the block's slots made ready (no
    children, no visits) in this thread's region before it is published, and published by
    one thread only (compare-and-swap of ``first[node]``): a thread that finds another's
    block there keeps its slots free and goes on in that block. ``(slots used, rng)``."""
    n = _tree_actions(actions_fn, tree_actions_fn, a, b, action, used)
    rng = _shuffle(action, used, n, rng)
    for i in range(n):
        slot = used + i
        first[slot] = -1
        n_children[slot] = 0
        n_expanded[slot] = 0
        visits[slot] = 0
        value[slot] = 0.0
    n_children[node] = n  # the same count whichever thread writes it
    if compare_and_swap(first, node, -1, used) != -1:
        return used, rng
    return used + n, rng


@njit(cache=True, inline="always")
def _new_node(  # pragma: no cover - compiled
    child, node, player, parent, first, n_children, n_expanded, mover, visits, value
):  # fmt: skip
    """Make slot ``child`` a node below ``node`` (``player`` moved into it), with no
    children and no visits."""
    parent[child] = node
    first[child] = -1
    n_children[child] = 0
    n_expanded[child] = 0
    mover[child] = player
    visits[child] = 0
    value[child] = 0.0


@njit(cache=True, inline="always")
def _settle(status_fn, a, b, config, node, player, mover, is_proven, proven):  # pragma: no cover
    """Record whether the game is over at the new ``node`` (``(a, b)``, ``player`` to move)
    and its value for the node's mover; False when ``status`` gives a value outside
    ``[-1, 1]``."""
    is_over, result = status_fn(a, b, config)
    if not -1.0 <= result <= 1.0:
        return False
    is_proven[node] = is_over
    proven[node] = result if player == mover[node] else -result
    return True


@njit(cache=True, inline="always")
def _make_block(  # pragma: no cover - compiled
    actions_fn, tree_actions_fn, priors_fn, a, b, config, node, player, tree, used, rng,
    pass_action,
):  # fmt: skip
    """Make ``node``'s whole child block at ``used`` (``player`` to move at ``node``): its
    actions shuffled (``pass_action``, when last, stays last: tried last on ties), every child
    made with no visits, and the game's ``priors`` (virtual visits in ``pending``, their
    returns in ``prior``); ``(slots used, rng)``."""
    (
        parent, first, n_children, n_expanded, action, mover, visits, value, is_proven, proven,
        amaf_visits, amaf_value, prior, pending, _, status,
    ) = tree  # fmt: skip
    n = _tree_actions(actions_fn, tree_actions_fn, a, b, action, used)
    shuffled = n - 1 if n > 0 and action[used + n - 1] == pass_action else n
    rng = _shuffle(action, used, shuffled, rng)
    for i in range(n):
        child = used + i
        _new_node(child, node, player, parent, first, n_children, n_expanded, mover, visits, value)
        is_proven[child] = False
        proven[child] = 0.0
        amaf_visits[child] = 0
        amaf_value[child] = 0.0
        prior[child] = 0.0
        pending[child] = 0
        status[child] = 0
    priors_fn(a, b, action, used, n, pending, prior, config)
    first[node] = used
    n_children[node] = n
    n_expanded[node] = n
    return used + n, rng


@njit(cache=True, inline="always")
def simulate(  # pragma: no cover - compiled
    actions_fn,
    play_fn,
    status_fn,
    rollout_fn,
    start_fn,
    next_player_fn,
    tree_actions_fn,
    priors_fn,
    repeats_fn,
    playout_fn,
    config,
    tree,
    root_a,
    root_b,
    scratch,
    counters,
    rng_state,
    settings,
):
    """Run simulations until ``counters[C_SIMULATIONS] == max_simulations`` (DONE). Before
    each one, in the reference tier's order, stop with ROOT_PROVEN (``solver``), ROBUST
    (``robust``: the most visited root child is also the best valued one), or NODE_LIMIT
    (``max_nodes`` nodes made), or pause with GROW (fewer than ``max_branching`` free slots,
    twice that with RAVE: enlarge the arrays and call again; with blocks and ``can_grow``
    off, the search goes on without new blocks); stop with BAD_VALUE when ``status`` or the
    rollout gives a value outside ``[-1, 1]`` (or NaN: a uniform playout that did not end
    within ``max_plies``, or a tree deeper than that).

    ``tree`` is the node arrays in :attr:`Tree.FIELDS` order; ``settings`` is
    :func:`settings`'s tuple. ``rollout_fn`` ``None`` plays uniformly random moves through
    ``actions_fn`` and ``play_fn``, as does RAVE (``rave = k > 0``, UCT-RAVE with
    equivalence parameter ``k``) unless the game has a ``playout_fn`` (its rollout, telling
    its moves); RAVE records the playout's moves for the AMAF statistics of every node on the
    path (actions below ``num_actions``; ``pass_action`` gathers none): every later play of an
    action by a node's player, or (``amaf_first``) only its first play in the simulation.

    The optional hooks (``None``: off, compiled out): ``tree_actions_fn`` the actions the tree
    holds (default: the legal ones); ``priors_fn`` makes a node's children a whole block at
    once, once it has ``expand`` visits (the root at once), with prior virtual visits, and
    selects by :func:`_select_priors` (:func:`_make_block`); ``repeats_fn(a, b, config, keys,
    depth, check) -> bool`` keeps each position's key on the path (``keys[depth]``) and, with
    ``check`` (the first visit of a move other than ``pass_action``), says whether it repeats
    an earlier one (superko): the child is marked :data:`ILLEGAL` and the simulation starts
    again (not counted). Resumable: the whole state is in the arrays, ``counters`` and
    ``rng_state[0]``."""
    (
        parent, first, n_children, n_expanded, action, mover, visits, value, is_proven, proven,
        amaf_visits, amaf_value, prior, pending, _, status,
    ) = tree  # fmt: skip
    (
        c, max_simulations, max_nodes, solver, robust, rave, max_plies, num_actions,
        pass_action, max_branching, expand, amaf_first, can_grow, virtual_loss,
    ) = settings  # fmt: skip
    capacity = parent.shape[0] if counters[C_END] <= 0 else counters[C_END]
    buffer = np.empty(max_branching, dtype=np.int16)
    on_rave = rave > 0.0
    room = 2 * max_branching if on_rave and priors_fn is None else max_branching
    if on_rave:  # the path and the playout's moves, and when each action was last played
        path_node = np.empty(max_plies + 1, dtype=np.int64)
        path_player = np.empty(max_plies + 1, dtype=np.int64)
        trail_player = np.empty(max_plies, dtype=np.int64)
        trail_action = np.empty(max_plies, dtype=np.int64)
        if amaf_first:
            last_seen = np.full(num_actions, -1, dtype=np.int64)
        else:
            last_seen = np.full(2 * num_actions, -1, dtype=np.int64)
    else:
        path_node = path_player = trail_player = trail_action = last_seen = np.empty(
            0, dtype=np.int64
        )
    path_key = np.empty(max_plies + 1 if repeats_fn is not None else 0, dtype=np.uint64)
    simulations = counters[C_SIMULATIONS]
    used = counters[C_USED]
    nodes = counters[C_NODES]
    max_depth = counters[C_MAX_DEPTH]
    rng = rng_state[0]
    code = DONE
    while True:
        if solver and is_proven[0]:
            code = ROOT_PROVEN
            break
        if robust and (
            final_choice(
                first, n_children, n_expanded, action, visits, value, is_proven, proven,
                ROBUST_CHILD, solver,
            )
            >= 0
        ):  # fmt: skip
            code = ROBUST
            break
        if simulations >= max_simulations:
            break
        if nodes >= max_nodes:
            code = NODE_LIMIT
            break
        if capacity - used < room and (can_grow or priors_fn is None):
            code = GROW
            break
        # Step 1. Selection: descend by UCB1 (UCT-RAVE) through fully expanded nodes.
        node = 0
        depth = 0
        a, b = start_fn(root_a, root_b, scratch)
        player = 1 - mover[0]  # the player to move at ``node``
        if on_rave:
            path_node[0] = 0
            path_player[0] = player
        if repeats_fn is not None:
            repeats_fn(a, b, config, path_key, 0, False)
        restart = False
        if virtual_loss:  # a simulation in flight counts as a loss until it is backed up
            visits[0] += 1
            value[0] -= 1.0
        if priors_fn is not None:
            # Children made a block at a time, with priors: descend to a node without a
            # block (the root's is made at once, another's once it has ``expand`` visits) or
            # to a child not visited yet.
            while not is_proven[node]:
                if first[node] < 0:
                    if node != 0 and visits[node] < expand:
                        break
                    if capacity - used < max_branching:
                        break  # no room for a block (the arrays may not grow)
                    used, rng = _make_block(
                        actions_fn, tree_actions_fn, priors_fn, a, b, config, node, player,
                        tree, used, rng, pass_action,
                    )  # fmt: skip
                    nodes += n_children[node]
                chosen = _select_priors(
                    node, first, n_children, visits, value, amaf_visits, amaf_value, pending,
                    prior, status, c, rave,
                )  # fmt: skip
                if chosen < 0:
                    break  # every move repeats a position: a leaf
                a, b = play_fn(a, b, action[chosen])
                player = next_player_fn(a, b, player)
                depth += 1
                if depth > max_plies:
                    code = BAD_VALUE  # deeper than the game can last
                    break
                if repeats_fn is not None:
                    check = visits[chosen] == 0 and action[chosen] != pass_action
                    if repeats_fn(a, b, config, path_key, depth, check):
                        status[chosen] = ILLEGAL
                        restart = True
                        break
                if on_rave:
                    path_node[depth] = chosen
                    path_player[depth] = player
                node = chosen
                if visits[node] == 0:  # a new leaf: is the game over here?
                    if not _settle(status_fn, a, b, config, node, player, mover, is_proven, proven):
                        code = BAD_VALUE
                    break
        else:
            while not is_proven[node]:  # a terminal node is proven; others only by the solver
                f = first[node]
                if f < 0 and virtual_loss:  # threads share the tree: one block wins
                    used, rng = _reserve_shared(
                        actions_fn, tree_actions_fn, a, b, node, first, n_children,
                        n_expanded, action, visits, value, used, rng,
                    )  # fmt: skip
                    f = first[node]
                elif f < 0:  # first pass through this node: reserve its child block
                    used, rng = _reserve(
                        actions_fn, tree_actions_fn, a, b, node, first, n_children,
                        n_expanded, action, amaf_visits, amaf_value, used, rng, rave,
                    )  # fmt: skip
                    f = first[node]
                k = n_expanded[node]
                if on_rave:
                    chosen = _select_rave(
                        node, first, n_children, n_expanded, visits, value, is_proven, proven,
                        amaf_visits, amaf_value, c, rave, solver,
                    )  # fmt: skip
                    if chosen >= f + k:  # a child not made yet: it becomes the next one made
                        child = f + k
                        swap = action[chosen]
                        action[chosen] = action[child]
                        action[child] = swap
                        swap_visits = amaf_visits[chosen]
                        amaf_visits[chosen] = amaf_visits[child]
                        amaf_visits[child] = swap_visits
                        swap_value = amaf_value[chosen]
                        amaf_value[chosen] = amaf_value[child]
                        amaf_value[child] = swap_value
                        chosen = -2
                elif k < n_children[node]:
                    chosen = -2
                else:
                    chosen = _select(
                        node, first, n_children, visits, value, is_proven, proven, c, solver
                    )
                if chosen == -2:
                    # Step 2. Expansion: create the next untried child (written whole before
                    # it is counted in ``n_expanded``, for the other threads).
                    child = f + k
                    if virtual_loss:  # made ready with its block: two threads may make it
                        parent[child] = node  # at once, writing the same, each a visit
                        mover[child] = player
                    else:
                        _new_node(
                            child, node, player, parent, first, n_children, n_expanded, mover,
                            visits, value,
                        )  # fmt: skip
                    a, b = play_fn(a, b, action[child])
                    player = next_player_fn(a, b, player)
                    # (inline, not _settle: measured 3-5% faster on Connect Four)
                    is_over, result = status_fn(a, b, config)
                    if not -1.0 <= result <= 1.0:
                        code = BAD_VALUE
                        break
                    is_proven[child] = is_over
                    proven[child] = result if player == mover[child] else -result
                    if virtual_loss:
                        visits[child] += 1
                        value[child] -= 1.0
                    n_expanded[node] = k + 1
                    nodes += 1
                    node = child
                    depth += 1
                    if on_rave:
                        if depth > max_plies:
                            code = BAD_VALUE  # deeper than the game can last
                            break
                        path_node[depth] = node
                        path_player[depth] = player
                        if not is_over:  # its edges gather AMAF statistics from this simulation
                            used, rng = _reserve(
                                actions_fn, tree_actions_fn, a, b, node, first, n_children,
                                n_expanded, action, amaf_visits, amaf_value, used, rng, rave,
                            )  # fmt: skip
                    break
                if chosen < 0:
                    break  # every child proven lost: cannot happen (the node would be proven)
                node = chosen
                if virtual_loss:
                    visits[node] += 1
                    value[node] -= 1.0
                a, b = play_fn(a, b, action[node])
                player = next_player_fn(a, b, player)
                depth += 1
                if on_rave:
                    if depth > max_plies:
                        code = BAD_VALUE
                        break
                    path_node[depth] = node
                    path_player[depth] = player
        if code == BAD_VALUE:
            break
        if restart:
            continue
        if depth > max_depth:
            max_depth = depth
        # Step 3. Simulation: the return for the player who moved into the leaf (exact when
        # the leaf is proven: a finished game, or a position the solver settled).
        moves = 0
        if is_proven[node]:
            reward = proven[node]
        else:
            if on_rave and playout_fn is not None:
                result, rng, moves = playout_fn(
                    a, b, rng, config, trail_player, trail_action
                )  # for ``player``, to move here
            elif rollout_fn is None or on_rave:
                result, rng, moves = _random_playout(
                    actions_fn, play_fn, status_fn, next_player_fn, a, b, player, rng, config,
                    buffer, max_plies, trail_player, trail_action, on_rave,
                )  # fmt: skip
            else:
                result, rng = rollout_fn(a, b, rng, config)  # for ``player``, to move here
            if not -1.0 <= result <= 1.0:
                code = BAD_VALUE
                break
            reward = result if player == mover[node] else -result
        if on_rave:
            # RAVE: every action a node's player played from it on, in the tree or the
            # playout, credits that node's edge of the same action with the player's return
            # (update_amaf of the reference tier); with ``amaf_first``, only the first play
            # of each action in the simulation counts, for the player who made it
            for_zero = reward if mover[node] == 0 else -reward
            _credit_amaf(
                path_node, path_player, depth, trail_player, trail_action, moves, first,
                n_children, action, amaf_visits, amaf_value, last_seen, pass_action, for_zero,
                amaf_first, simulations, num_actions,
            )  # fmt: skip
        # Step 4. Backpropagation: the point of view changes where the mover does.
        below = -1
        last = mover[node]
        while node >= 0:
            if mover[node] != last:
                reward = -reward
                last = mover[node]
            if virtual_loss:  # the visit was counted on the way down, as a loss
                value[node] += reward + 1.0
            else:
                visits[node] += 1
                value[node] += reward
            if solver and below >= 0 and is_proven[below] and not is_proven[node]:
                done, v = _prove(node, first, n_expanded, n_children, mover, is_proven, proven)
                if done:
                    is_proven[node] = True
                    proven[node] = v
            below = node
            node = parent[node]
        simulations += 1
    counters[C_SIMULATIONS] = simulations
    counters[C_USED] = used
    counters[C_NODES] = nodes
    counters[C_MAX_DEPTH] = max_depth
    rng_state[0] = rng
    return code


@njit(cache=True, inline="always")
def _mark(seen, played, who, first_only, stamp, num_actions):  # pragma: no cover - compiled
    """Note that ``who`` played ``played`` (see :func:`_credit_amaf`)."""
    if first_only:
        seen[played] = who
    else:  # a stamp per (player, action)
        seen[who * num_actions + played] = stamp


@njit(cache=True, inline="always")
def _credit_amaf(  # pragma: no cover - compiled
    path_node, path_player, depth, trail_player, trail_action, moves, first, n_children,
    action, amaf_visits, amaf_value, seen, pass_action, for_zero, first_only, stamp,
    num_actions,
):  # fmt: skip
    """RAVE's AMAF update after a simulation (``for_zero``: its return for player 0): from
    the leaf up, each node on the path credits the edges of the actions its player played
    from it on (in the tree or the playout) with that player's return (``update_amaf`` of the
    reference tier: ``seen[player * num_actions + action] == stamp``, the simulation's
    number); with ``first_only``, only the first play of each action counts, for the player
    who made it (Gelly and Silver 2007's all-moves-as-first: ``seen[action]`` is that player,
    -1 again afterwards). A pass gathers nothing."""
    for t in range(moves - 1, -1, -1):  # backwards: the earliest play of an action is kept
        if trail_action[t] != pass_action:
            _mark(seen, trail_action[t], trail_player[t], first_only, stamp, num_actions)
    for d in range(depth, -1, -1):
        at = path_node[d]
        who = path_player[d]
        if d < depth:
            taken = action[path_node[d + 1]]
            if taken != pass_action:
                _mark(seen, taken, who, first_only, stamp, num_actions)
        f = first[at]
        if f < 0:
            continue
        credit = for_zero if who == 0 else -for_zero
        for i in range(n_children[at]):
            played = action[f + i]
            if played == pass_action:
                continue
            key = played if first_only else who * num_actions + played
            if seen[key] == (who if first_only else stamp):
                amaf_visits[f + i] += 1
                amaf_value[f + i] += credit
    if first_only:
        for t in range(moves):
            if trail_action[t] != pass_action:
                seen[trail_action[t]] = -1
        for d in range(1, depth + 1):
            if action[path_node[d]] != pass_action:
                seen[action[path_node[d]]] = -1


def settings(
    c: float,
    max_simulations: int,
    max_nodes: int,
    solver: bool,
    robust: bool,
    rave: float = 0.0,
    max_plies: int = 10_000,
    num_actions: int = 0,
    pass_action: int = -1,
    max_branching: int = 1,
    expand: int = 1,
    amaf_first: bool = False,
    can_grow: bool = True,
    virtual_loss: bool = False,
) -> tuple[float, int, int, bool, bool, float, int, int, int, int, int, bool, bool, bool]:
    """The ``settings`` tuple :func:`simulate` takes, typed as it compiles them:
    ``max_branching`` the most actions a node holds; ``expand`` the visits a node needs
    before its block is made (games with ``priors`` only); ``amaf_first`` RAVE's
    first-play-only rule; ``can_grow`` off when the arrays may not grow any more (then
    blocks stop being made instead); ``virtual_loss`` (tree parallelism, plain UCT only:
    several threads simulate in one tree) counts each simulation on its way down, as a loss
    for every node's mover, and replaces the loss by its return on the way up."""
    return (
        float(c), int(max_simulations), int(max_nodes), bool(solver), bool(robust), float(rave),
        int(max_plies), int(num_actions), int(pass_action), int(max_branching), int(expand),
        bool(amaf_first), bool(can_grow), bool(virtual_loss),
    )  # fmt: skip


class Tree:
    """The node arrays of one compiled search, grown by doubling, the root position
    ``(root_a, root_b)`` (two scalars of the game's word type, or an array and read-only data)
    and ``scratch``, the array each simulation plays in (for words: ``root_a`` again).

    >>> tree = Tree(8)
    >>> tree.set_root(np.int64(0), np.int64(0), 1, player=0)
    >>> tree.parent.shape, int(tree.counters[C_NODES]), int(tree.mover[0])
    ((8,), 1, 1)
    >>> tree.grow(); tree.parent.shape
    (16,)
    >>> tree.set_root(np.zeros(3), np.zeros(2), 1, player=1)
    >>> tree.scratch.shape, tree.scratch is tree.root_a, int(tree.mover[0])
    ((3,), False, 0)
    """

    FIELDS = (
        ("parent", np.int32),
        ("first", np.int32),
        ("n_children", np.int16),
        ("n_expanded", np.int16),
        ("action", np.int16),
        ("mover", np.int8),
        ("visits", np.int32),
        ("value", np.float64),
        ("is_proven", np.int8),
        ("proven", np.float64),
        ("amaf_visits", np.int32),
        ("amaf_value", np.float64),
        ("prior", np.float64),
        ("pending", np.int32),
        ("player", np.int8),
        ("status", np.int8),
    )

    parent: np.ndarray
    first: np.ndarray
    n_children: np.ndarray
    n_expanded: np.ndarray
    action: np.ndarray
    mover: np.ndarray
    visits: np.ndarray
    value: np.ndarray
    is_proven: np.ndarray
    proven: np.ndarray
    amaf_visits: np.ndarray
    amaf_value: np.ndarray
    prior: np.ndarray
    pending: np.ndarray
    player: np.ndarray
    status: np.ndarray

    DTYPES = (np.int32, np.int16, np.int8, np.float64)
    """The fields are kept as the rows of one 2-D block per dtype (:attr:`blocks`, in this
    order): a compiled function called often from Python (the batched PUCT's, once or twice
    a simulation) takes the four blocks, not sixteen arrays (each array a caller hands numba
    costs about 0.1 µs to unbox: 1.4 µs a call for sixteen, against 0.2 µs for two)."""

    def __init__(self, capacity: int) -> None:
        self.blocks: tuple[np.ndarray, ...] = ()
        self._allocate(capacity)
        self.root_a: Any = None
        self.root_b: Any = None
        self.scratch: Any = None
        self.counters = np.zeros(5, dtype=np.int64)
        self.rng_state = np.zeros(1, dtype=np.uint64)

    def arrays(self) -> tuple[Any, ...]:
        """The node arrays (one tuple), the root position and the scratch, in the order
        :func:`simulate` takes them."""
        nodes = tuple(getattr(self, name) for name, _ in self.FIELDS)
        return (nodes, self.root_a, self.root_b, self.scratch)

    def _allocate(self, capacity: int, keep: tuple[np.ndarray, ...] = ()) -> None:
        """New blocks of ``capacity`` slots, every field a row of its dtype's block, holding
        ``keep``'s contents. The fields change only once the new blocks are complete: a
        thread reading a snapshot between kernel slices sees the old arrays or the new,
        never one half filled."""
        blocks = tuple(
            np.empty((rows, capacity), dtype=dtype)
            for rows, dtype in zip(_BLOCK_ROWS, self.DTYPES, strict=True)
        )
        for new_block, old_block in zip(blocks, keep, strict=False):
            new_block[:, : old_block.shape[1]] = old_block
        self.blocks = blocks
        for name, block, row in _LAYOUT:  # (a tree is made per move in self-play: kept cheap)
            setattr(self, name, blocks[block][row])

    @classmethod
    def view(cls, blocks: tuple[np.ndarray, ...]) -> SimpleNamespace:
        """The fields of ``blocks`` (one read of :attr:`blocks`) as attributes, for a reader in
        another thread: all from the same arrays."""
        return SimpleNamespace(
            **{name: blocks[cls.DTYPES.index(dtype)][ROWS[name]] for name, dtype in cls.FIELDS}
        )

    def grow(self, capacity: int | None = None) -> None:
        """Enlarge every node array to ``capacity`` slots (default: double), keeping its
        contents."""
        self._allocate(capacity or 2 * self.blocks[0].shape[1], self.blocks)

    def reroot(
        self, node: int, a: Any, b: Any, *, player: int, solver: bool, blocks: bool = False
    ) -> int:
        """Keep only the subtree of ``node``, the non-terminal position ``(a, b)`` with
        ``player`` to move, as the tree (compacted, ``node`` becoming the root; the random
        stream goes on); return the simulations it inherits (its visits). The counters start
        again (simulations, nodes made and depth of the next search; with ``blocks``, children
        made a block at a time, the nodes count every slot kept, as a fresh tree's do), and
        with ``solver`` the root is proven again from its children only."""
        nodes = tuple(getattr(self, name) for name, _ in self.FIELDS)
        fresh = Tree(self.parent.shape[0])
        used, _ = compact(nodes, tuple(getattr(fresh, name) for name, _ in self.FIELDS), node)
        self.blocks = fresh.blocks
        for name, _ in self.FIELDS:
            setattr(self, name, getattr(fresh, name))
        if self.mover[0] != 1 - player:  # its mover moves on: the root's own sums change side
            self.mover[0] = 1 - player
            self.value[0] = -self.value[0]
        if solver:
            prove_root(tuple(getattr(self, name) for name, _ in self.FIELDS))
        else:
            self.is_proven[0] = False
        self._set_position(a, b)
        self.counters[:] = (0, used, used if blocks else 0, 0, 0)
        return int(self.visits[0])

    def _set_position(self, a: Any, b: Any) -> None:
        """The root position ``(a, b)`` and the scratch each simulation plays in (an array
        position: both C-contiguous, as :func:`start_copy` needs)."""
        if isinstance(a, np.ndarray):
            a = np.ascontiguousarray(a)
            self.scratch = np.empty(a.shape, dtype=a.dtype)
        else:
            self.scratch = a
        self.root_a = a
        self.root_b = b

    def set_root(self, a: Any, b: Any, seed_word: int, *, player: int = 0) -> None:
        """Make node 0 the non-terminal position ``(a, b)`` with ``player`` to move (for games
        whose players alternate, any label works: only changes of mover count) and seed the
        generator."""
        self.parent[0] = -1
        self.first[0] = -1
        self.n_children[0] = 0
        self.n_expanded[0] = 0
        self.action[0] = -1
        self.mover[0] = 1 - player
        self.visits[0] = 0
        self.value[0] = 0.0
        self.is_proven[0] = False
        self.proven[0] = 0.0
        self.amaf_visits[0] = 0
        self.amaf_value[0] = 0.0
        self.prior[0] = 0.0
        self.pending[0] = 0
        self.player[0] = player
        self.status[0] = 0
        self._set_position(a, b)
        self.counters[:] = (0, 1, 1, 0, 0)
        self.rng_state[0] = np.uint64(seed_word)


@njit(cache=True)
def compact(tree, new_tree, root):  # pragma: no cover - compiled
    """Copy the subtree of node ``root`` into the empty arrays ``new_tree`` (same layout,
    enough slots), ``root`` becoming node 0, breadth first, every child block whole (the
    actions and AMAF statistics of its children not made yet included, those children with
    no children and no visits, as :func:`_reserve_shared` leaves them); return ``(slots
    used, nodes made)``."""
    (
        _, first, n_children, n_expanded, action, mover, visits, value, is_proven, proven,
        amaf_visits, amaf_value, prior, pending, player, status,
    ) = tree  # fmt: skip
    (
        new_parent, new_first, new_n_children, new_n_expanded, new_action, new_mover,
        new_visits, new_value, new_is_proven, new_proven, new_amaf_visits, new_amaf_value,
        new_prior, new_pending, new_player, new_status,
    ) = new_tree  # fmt: skip
    old_of = np.full(new_parent.shape[0], -1, dtype=np.int64)  # old id of each new slot
    old_of[0] = root
    new_parent[0] = -1
    new_action[0] = -1
    new_amaf_visits[0] = 0
    new_amaf_value[0] = 0.0
    new_prior[0] = 0.0
    used = 1
    made = 0
    for slot in range(new_parent.shape[0]):
        if slot >= used:
            break
        old = old_of[slot]
        if old < 0:
            continue  # a reserved slot whose child is not made yet: only its action counts
        made += 1
        new_mover[slot] = mover[old]
        new_visits[slot] = visits[old]
        new_value[slot] = value[old]
        new_is_proven[slot] = is_proven[old]
        new_proven[slot] = proven[old]
        new_n_children[slot] = n_children[old]
        new_n_expanded[slot] = n_expanded[old]
        new_pending[slot] = pending[old]
        new_player[slot] = player[old]
        new_status[slot] = status[old]
        f = first[old]
        if f < 0:
            new_first[slot] = -1
            continue
        new_first[slot] = used
        for i in range(n_children[old]):
            new_action[used + i] = action[f + i]
            new_amaf_visits[used + i] = amaf_visits[f + i]
            new_amaf_value[used + i] = amaf_value[f + i]
            new_prior[used + i] = prior[f + i]
            if i < n_expanded[old]:
                old_of[used + i] = f + i
                new_parent[used + i] = slot
            else:  # ready to be made by threads sharing the tree (_reserve_shared's state)
                new_first[used + i] = -1
                new_n_children[used + i] = 0
                new_n_expanded[used + i] = 0
                new_visits[used + i] = 0
                new_value[used + i] = 0.0
        used += n_children[old]
    return used, made


@njit(cache=True)
def prove_root(tree):  # pragma: no cover - compiled
    """MCTS-Solver's proof of node 0 from its children alone (a kept subtree's root, whose
    own proof is not kept: a move must be chosen among its children)."""
    _, first, n_children, n_expanded, _, mover, _, _, is_proven, proven, _, _, _, _, _, _ = tree
    is_proven[0] = False
    proven[0] = 0.0
    if first[0] >= 0 and n_expanded[0] > 0:
        done, v = _prove(0, first, n_expanded, n_children, mover, is_proven, proven)
        if done:
            is_proven[0] = True
            proven[0] = v


ROWS: dict[str, int] = {}
"""Each field's row in its dtype's block (:attr:`Tree.blocks`)."""
for _dtype in Tree.DTYPES:
    for _row, (_name, _) in enumerate(f for f in Tree.FIELDS if f[1] is _dtype):
        ROWS[_name] = _row
_BLOCK_ROWS = tuple(sum(1 for _, d in Tree.FIELDS if d is dtype) for dtype in Tree.DTYPES)
"""How many fields each dtype's block holds."""
_LAYOUT = tuple((name, Tree.DTYPES.index(dtype), ROWS[name]) for name, dtype in Tree.FIELDS)
"""Each field's block and row, in :attr:`Tree.FIELDS` order."""
