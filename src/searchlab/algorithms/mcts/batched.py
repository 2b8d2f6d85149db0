"""PUCT with leaves batched for an evaluator, on the one tree of arrays
(:class:`~searchlab.algorithms.mcts._kernel_loop.Tree`, the layout UCT and RAVE use): the
compiled selection, collection under virtual loss, expansion and backup that
:class:`searchlab.algorithms.mcts.puct.PUCTTree` drives (``collect()`` hands the leaves out,
``receive()`` takes their evaluations back).

Every function takes the tree's four blocks (``i32, i16, i8, f64``: :attr:`Tree.blocks`, each
field a row; four arrays are far cheaper for Python to hand numba than sixteen, and these are
called once or twice a simulation). For PUCT a node's whole child block is made at once,
when the node is evaluated (``n_children == n_expanded``), each child with its ``prior``;
``status`` says where a node is:

* :data:`FRESH`: made, its position not yet (an edge never taken);
* :data:`WAITING`: its position made and being evaluated (or, at the root, about to be);
* :data:`EXPANDED`: evaluated, its children exist;
* :data:`TERMINAL`: the game is over there; ``proven`` holds its value for its ``mover``.

``value`` sums the returns for each node's ``mover`` (a player may move several plies in a
row: no sign is flipped by depth), ``pending`` counts the leaves in flight below a node (each
adds ``virtual_loss`` visits lost by their mover to every node of its path), ``player`` is the
player to move at a node once known.

>>> tree = Tree(16)
>>> tree.set_root(np.int64(0), np.int64(0), 1, player=0)
>>> tree.status[0] = WAITING
>>> priors = np.array([[0.25, 0.75]])
>>> columns = actions = np.array([0, 1])
>>> expand_backup(*tree.blocks, 0, 1, actions, priors, 0, columns, 0.0, False)
0
>>> tree.prior[1:3].tolist(), int(select_child(*tree.blocks, 0, 1.5, 0.0, False, 1.0))
([0.25, 0.75], 2)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from searchlab.algorithms.mcts._kernel_loop import ROWS, Tree

__all__ = [
    "EXPANDED",
    "FRESH",
    "TERMINAL",
    "WAITING",
    "Tree",
    "backup",
    "collect",
    "expand_backup",
    "expand_backup_many",
    "select_child",
]

FRESH, WAITING, EXPANDED, TERMINAL = 0, 1, 2, 3
"""A node's ``status`` (see the module)."""

# the fields' rows in the blocks (compile-time constants for numba)
_PARENT, _FIRST, _VISITS, _PENDING = (ROWS[f] for f in ("parent", "first", "visits", "pending"))
_COUNT, _MADE, _ACTION = (ROWS[f] for f in ("n_children", "n_expanded", "action"))
_MOVER, _IS_PROVEN, _PLAYER, _STATUS = (ROWS[f] for f in ("mover", "is_proven", "player", "status"))
_VALUE, _PROVEN, _PRIOR = (ROWS[f] for f in ("value", "proven", "prior"))


@njit(cache=True)
def select_child(
    i32, i16, i8, f64, node, c_puct, fpu, relative_fpu, virtual_loss
):  # pragma: no cover - compiled
    """The child PUCT follows from an expanded ``node``: the largest ``Q + c_puct * P *
    sqrt(N_parent) / (1 + N)`` (virtual loss included; ``N_parent`` at least 1; ties: the
    first in block order); an unvisited child's ``Q`` is ``fpu``, or with ``relative_fpu``
    the parent's mean for its player to move minus ``fpu``."""
    parent_visits = i32[_VISITS, node] + virtual_loss * i32[_PENDING, node]
    scale = c_puct * math.sqrt(parent_visits if parent_visits > 1.0 else 1.0)
    if relative_fpu:
        mean = 0.0
        if parent_visits > 0.0:
            mean = (f64[_VALUE, node] - virtual_loss * i32[_PENDING, node]) / parent_visits
        if i8[_MOVER, node] != i8[_PLAYER, node]:
            mean = 0.0 - mean  # the node's mean is its mover's; the chooser is its player
        unvisited = mean - fpu
    else:
        unvisited = fpu
    start = i32[_FIRST, node]
    best = start
    best_score = -math.inf
    for child in range(start, start + i16[_COUNT, node]):
        waiting = i32[_PENDING, child]
        seen = i32[_VISITS, child] + virtual_loss * waiting
        if seen > 0.0:
            mean = (f64[_VALUE, child] - virtual_loss * waiting) / seen
            score = mean + scale * f64[_PRIOR, child] / (1.0 + seen)
        else:
            score = unvisited + scale * f64[_PRIOR, child]
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def backup(i32, i16, i8, f64, leaf, result, result_player, release):  # pragma: no cover
    """Add one visit and ``result`` (for ``result_player``; each node keeps its mover's) from
    ``leaf`` up to the root, releasing ``release`` virtual losses on the way."""
    node = leaf
    while node >= 0:
        i32[_VISITS, node] += 1
        i32[_PENDING, node] -= release
        if i8[_MOVER, node] == result_player:
            f64[_VALUE, node] += result
        else:
            f64[_VALUE, node] += 0.0 - result
        node = i32[_PARENT, node]


@njit(cache=True)
def collect(
    i32, i16, i8, f64, root, c_puct, fpu, relative_fpu, virtual_loss, budget, out
):  # pragma: no cover - compiled
    """Run up to ``budget`` selections: a known terminal leaf is backed up at once, a new leaf
    is put in flight (virtual loss on its path) and written to ``out``. Returns ``(leaves,
    terminal simulations, collided)``; a collision (a leaf already in flight) ends the run."""
    leaves = 0
    finished = 0
    while leaves + finished < budget:
        node = root
        while i8[_STATUS, node] == EXPANDED:
            node = select_child(i32, i16, i8, f64, node, c_puct, fpu, relative_fpu, virtual_loss)
        state = i8[_STATUS, node]
        if state == TERMINAL:
            backup(i32, i16, i8, f64, node, f64[_PROVEN, node], i8[_MOVER, node], 0)
            finished += 1
        elif state == FRESH:
            i8[_STATUS, node] = WAITING
            up = node
            while up >= 0:
                i32[_PENDING, up] += 1
                up = i32[_PARENT, up]
            out[leaves] = node
            leaves += 1
        else:
            return leaves, finished, True
    return leaves, finished, False


@njit(cache=True)
def expand_backup(
    i32, i16, i8, f64, leaf, start, actions, priors, row, columns, result, back_up
):  # pragma: no cover - compiled
    """Give ``leaf`` one child per action at slots ``start...``, with the priors
    ``priors[row, columns]`` renormalised (all zero: uniform); then (``back_up``) back up the
    leaf's ``result`` for its player to move, releasing its virtual loss. Returns ``0``, or
    (nothing changed) ``1`` if a column is outside ``priors``, ``2`` if a prior is negative
    or not finite, ``3`` if an action is outside ``0..32767`` (the tree keeps ``int16``)."""
    count = actions.shape[0]
    width = priors.shape[1]
    for index in range(count):
        if actions[index] < 0 or actions[index] > 32767:
            return 3
        if columns[index] < 0 or columns[index] >= width:
            return 1
    total = 0.0
    for index in range(count):
        p = np.float64(priors[row, columns[index]])
        if not (p >= 0.0) or math.isinf(p):
            return 2
        total += p
    to_move = i8[_PLAYER, leaf]
    for index in range(count):
        child = start + index
        i32[_PARENT, child] = leaf
        i32[_FIRST, child] = -1
        i16[_COUNT, child] = 0
        i16[_MADE, child] = 0
        i16[_ACTION, child] = actions[index]
        i32[_VISITS, child] = 0
        i32[_PENDING, child] = 0
        i8[_MOVER, child] = to_move
        i8[_PLAYER, child] = -1
        i8[_STATUS, child] = FRESH
        i8[_IS_PROVEN, child] = 0
        f64[_PROVEN, child] = 0.0
        p = np.float64(priors[row, columns[index]])
        f64[_PRIOR, child] = p / total if total > 0.0 else 1.0 / count
        f64[_VALUE, child] = 0.0
    i32[_FIRST, leaf] = start
    i16[_COUNT, leaf] = count
    i16[_MADE, leaf] = count
    i8[_STATUS, leaf] = EXPANDED
    if back_up:
        backup(i32, i16, i8, f64, leaf, result, to_move, 1)
    return 0


@njit(cache=True)
def expand_backup_many(
    i32, i16, i8, f64, leaves, start, counts, actions, columns, priors, row, results
):  # pragma: no cover - compiled
    """:func:`expand_backup` of each of ``leaves`` in order (none the root), leaf ``i`` with
    the next ``counts[i]`` of ``actions``/``columns``, its priors and result from batch row
    ``row + i``, its children from slot ``start`` on. Returns ``(done, status)``: the leaves
    expanded, and ``0``, or the status of leaf ``done`` that stopped the run."""
    used = 0
    for index in range(leaves.shape[0]):
        count = counts[index]
        code = expand_backup(
            i32, i16, i8, f64, leaves[index], start, actions[used : used + count], priors,
            row + index, columns[used : used + count], results[row + index], True,
        )  # fmt: skip
        if code:
            return index, code
        start += count
        used += count
    return leaves.shape[0], 0
