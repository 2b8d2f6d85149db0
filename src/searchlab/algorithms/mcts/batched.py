"""PUCT with leaves batched for an evaluator, on the one tree of arrays
(:class:`~searchlab.algorithms.mcts._kernel_loop.Tree`, the layout UCT and RAVE use): the
compiled selection, collection under virtual loss, expansion and backup that
:class:`searchlab.learning.puct_arrays.PUCTTree` drives (``collect()`` hands the leaves out,
``receive()`` takes their evaluations back).

Every function takes the node arrays as one tuple (``tree``, :attr:`Tree.FIELDS` order). For
PUCT a node's whole child block is made at once, when the node is evaluated (``n_children ==
n_expanded``), each child with its ``prior``; ``status`` says where a node is:

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
>>> nodes = tree.arrays()[0]
>>> tree.status[0] = WAITING
>>> priors = np.array([[0.25, 0.75]])
>>> columns = actions = np.array([0, 1])
>>> expand_backup(nodes, 0, 1, actions, priors, 0, columns, 0.0, False)
0
>>> tree.prior[1:3].tolist(), int(select_child(nodes, 0, 1.5, 0.0, False, 1.0))
([0.25, 0.75], 2)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from searchlab.algorithms.mcts._kernel_loop import Tree

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


@njit(cache=True)
def select_child(tree, node, c_puct, fpu, relative_fpu, virtual_loss):  # pragma: no cover
    """The child PUCT follows from an expanded ``node``: the largest ``Q + c_puct * P *
    sqrt(N_parent) / (1 + N)`` (virtual loss included; ``N_parent`` at least 1; ties: the
    first in block order); an unvisited child's ``Q`` is ``fpu``, or with ``relative_fpu``
    the parent's mean for its player to move minus ``fpu``."""
    _, first, n_children, _, _, mover, visits, value, _, _, _, _, prior, pending, player, _ = tree
    parent_visits = visits[node] + virtual_loss * pending[node]
    scale = c_puct * math.sqrt(parent_visits if parent_visits > 1.0 else 1.0)
    if relative_fpu:
        mean = 0.0
        if parent_visits > 0.0:
            mean = (value[node] - virtual_loss * pending[node]) / parent_visits
        if mover[node] != player[node]:
            mean = 0.0 - mean  # the node's mean is its mover's; the chooser is its player
        unvisited = mean - fpu
    else:
        unvisited = fpu
    start = first[node]
    best = start
    best_score = -math.inf
    for child in range(start, start + n_children[node]):
        waiting = pending[child]
        seen = visits[child] + virtual_loss * waiting
        if seen > 0.0:
            mean = (value[child] - virtual_loss * waiting) / seen
            score = mean + scale * prior[child] / (1.0 + seen)
        else:
            score = unvisited + scale * prior[child]
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def backup(tree, leaf, result, result_player, release):  # pragma: no cover - compiled
    """Add one visit and ``result`` (for ``result_player``; each node keeps its mover's) from
    ``leaf`` up to the root, releasing ``release`` virtual losses on the way."""
    parent, _, _, _, _, mover, visits, value, _, _, _, _, _, pending, _, _ = tree
    node = leaf
    while node >= 0:
        visits[node] += 1
        pending[node] -= release
        if mover[node] == result_player:
            value[node] += result
        else:
            value[node] += 0.0 - result
        node = parent[node]


@njit(cache=True)
def collect(
    tree, root, c_puct, fpu, relative_fpu, virtual_loss, budget, out
):  # pragma: no cover - compiled
    """Run up to ``budget`` selections: a known terminal leaf is backed up at once, a new leaf
    is put in flight (virtual loss on its path) and written to ``out``. Returns ``(leaves,
    terminal simulations, collided)``; a collision (a leaf already in flight) ends the run."""
    parent, _, _, _, _, mover, _, _, _, proven, _, _, _, pending, _, status = tree
    leaves = 0
    finished = 0
    while leaves + finished < budget:
        node = root
        while status[node] == EXPANDED:
            node = select_child(tree, node, c_puct, fpu, relative_fpu, virtual_loss)
        state = status[node]
        if state == TERMINAL:
            backup(tree, node, proven[node], mover[node], 0)
            finished += 1
        elif state == FRESH:
            status[node] = WAITING
            up = node
            while up >= 0:
                pending[up] += 1
                up = parent[up]
            out[leaves] = node
            leaves += 1
        else:
            return leaves, finished, True
    return leaves, finished, False


@njit(cache=True)
def expand_backup(
    tree, leaf, start, actions, priors, row, columns, result, back_up
):  # pragma: no cover - compiled
    """Give ``leaf`` one child per action at slots ``start...``, with the priors
    ``priors[row, columns]`` renormalised (all zero: uniform); then (``back_up``) back up the
    leaf's ``result`` for its player to move, releasing its virtual loss. Returns ``0``, or
    (nothing changed) ``1`` if a column is outside ``priors``, ``2`` if a prior is negative
    or not finite."""
    (
        parent, first, n_children, n_expanded, action, mover, visits, value, is_proven, proven,
        _, _, prior, pending, player, status,
    ) = tree  # fmt: skip
    count = actions.shape[0]
    width = priors.shape[1]
    for index in range(count):
        if columns[index] < 0 or columns[index] >= width:
            return 1
    total = 0.0
    for index in range(count):
        p = np.float64(priors[row, columns[index]])
        if not (p >= 0.0) or math.isinf(p):
            return 2
        total += p
    to_move = player[leaf]
    for index in range(count):
        child = start + index
        parent[child] = leaf
        first[child] = -1
        n_children[child] = 0
        n_expanded[child] = 0
        action[child] = actions[index]
        visits[child] = 0
        pending[child] = 0
        mover[child] = to_move
        player[child] = -1
        status[child] = FRESH
        is_proven[child] = False
        proven[child] = 0.0
        p = np.float64(priors[row, columns[index]])
        prior[child] = p / total if total > 0.0 else 1.0 / count
        value[child] = 0.0
    first[leaf] = start
    n_children[leaf] = count
    n_expanded[leaf] = count
    status[leaf] = EXPANDED
    if back_up:
        backup(tree, leaf, result, to_move, 1)
    return 0


@njit(cache=True)
def expand_backup_many(
    tree, leaves, start, counts, actions, columns, priors, row, results
):  # pragma: no cover - compiled
    """:func:`expand_backup` of each of ``leaves`` in order (none the root), leaf ``i`` with
    the next ``counts[i]`` of ``actions``/``columns``, its priors and result from batch row
    ``row + i``, its children from slot ``start`` on. Returns ``(done, status)``: the leaves
    expanded, and ``0``, or the status of leaf ``done`` that stopped the run."""
    used = 0
    for index in range(leaves.shape[0]):
        count = counts[index]
        code = expand_backup(
            tree, leaves[index], start, actions[used : used + count], priors, row + index,
            columns[used : used + count], results[row + index], True,
        )  # fmt: skip
        if code:
            return index, code
        start += count
        used += count
    return leaves.shape[0], 0
