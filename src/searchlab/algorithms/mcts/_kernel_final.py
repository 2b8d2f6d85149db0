"""The final move of the compiled MCTS, on the tree arrays: the rules of
:func:`searchlab.algorithms.mcts.final_move.choose_final`, compiled so that the search loop
can test "the robust-max child exists" before every simulation, as the reference tier does.

Rules (Chaslot et al. 2008): ``MOST_VISITS`` (robust child; ties: better value, then smaller
action), ``BEST_VALUE`` (max child; ties: more visits, then smaller action), ``ROBUST_CHILD``
(robust-max child: most visits and best value at once, else none). With proofs, a proven value
replaces the mean, a child proven won for the root's player is played (the most visited of
them), and proven losses only when nothing else is left (then the first child not made yet,
else the most visited).

>>> import numpy as np
>>> first, n_children, n_expanded = np.array([1]), np.array([3]), np.array([3])
>>> action = np.array([-1, 0, 1, 2])
>>> visits = np.array([16, 10, 5, 1])
>>> value = np.array([0.0, 2.0, 3.0, 1.0])
>>> proofs = np.zeros(4, dtype=np.int8), np.zeros(4)
>>> args = (first, n_children, n_expanded, action, visits, value, *proofs)
>>> [final_choice(*args, rule, False) for rule in (MOST_VISITS, BEST_VALUE, ROBUST_CHILD)]
[1, 3, -1]
"""

from __future__ import annotations

from numba import njit

__all__ = ["BEST_VALUE", "MOST_VISITS", "ROBUST_CHILD", "RULES", "final_choice"]

MOST_VISITS, BEST_VALUE, ROBUST_CHILD = 0, 1, 2
RULES = {"most_visits": MOST_VISITS, "best_value": BEST_VALUE, "robust": ROBUST_CHILD}
"""The reference tier's ``final_move`` names."""


@njit(cache=True, inline="always")
def _child_value(child, visits, value, is_proven, proven, use_proofs):  # pragma: no cover
    if use_proofs and is_proven[child]:
        return proven[child]
    return value[child] / visits[child] if visits[child] else 0.0


@njit(cache=True, inline="always")
def _beats(
    a, b, by_value, action, visits, value, is_proven, proven, use_proofs
):  # pragma: no cover
    """Child ``a`` ranks above ``b``: by (visits, value, -action), or by (value, visits,
    -action) when ``by_value``."""
    va = _child_value(a, visits, value, is_proven, proven, use_proofs)
    vb = _child_value(b, visits, value, is_proven, proven, use_proofs)
    na = visits[a]
    nb = visits[b]
    if by_value:
        if va != vb:
            return va > vb
        if na != nb:
            return na > nb
    else:
        if na != nb:
            return na > nb
        if va != vb:
            return va > vb
    return action[a] < action[b]


@njit(cache=True)
def final_choice(  # pragma: no cover - compiled
    first, n_children, n_expanded, action, visits, value, is_proven, proven, rule, use_proofs
):
    """The id of the root child to play under ``rule`` (-1: no child made yet, or no
    robust-max child). The root is node 0; its children are the first ``n_expanded[0]`` of its
    block; a child never visited is not chosen (a game whose children are made a block at a
    time makes some that no simulation reaches)."""
    f = first[0]
    made = n_expanded[0] if f >= 0 else 0
    if made == 0:
        return -1
    skip_lost = False
    if use_proofs:
        win = -1
        not_lost = 0
        for child in range(f, f + made):
            is_win = is_proven[child] and proven[child] > 0.0
            if is_win and (
                win < 0 or _beats(child, win, False, action, visits, value, is_proven, proven, True)
            ):
                win = child
            if not (is_proven[child] and proven[child] < 0.0):
                not_lost += 1
        if win >= 0:
            return win
        if not_lost == 0:  # every child made is lost: one not made yet, else the most visited
            if made < n_children[0]:
                return f + made
            rule = MOST_VISITS
        else:
            skip_lost = True
    most = -1
    best = -1
    for child in range(f, f + made):
        if skip_lost and is_proven[child] and proven[child] < 0.0:
            continue
        if visits[child] == 0:
            continue  # made with its block but never visited (or an illegal repetition)
        if most < 0 or _beats(
            child, most, False, action, visits, value, is_proven, proven, use_proofs
        ):
            most = child
        if best < 0 or _beats(
            child, best, True, action, visits, value, is_proven, proven, use_proofs
        ):
            best = child
    if rule == MOST_VISITS:
        return most
    if rule == BEST_VALUE:
        return best
    return most if most == best else -1
