"""Shared by the tests of the compiled MCTS: a compiled tree's nodes beside the reference
states they stand for."""

from __future__ import annotations

from typing import Any


def walk(search: Any, root: Any) -> list[tuple[int, Any]]:
    """Every node of ``search``'s compiled tree made so far, with the reference state it
    stands for (the reference game's ``apply`` replayed along the actions from ``root``)."""
    tree = search.tree
    found, stack = [], [(0, root)]
    while stack:
        node, state = stack.pop()
        found.append((node, state))
        first = int(tree.first[node])
        if first >= 0:
            for child in range(first, first + int(tree.n_expanded[node])):
                stack.append((child, state.apply(int(tree.action[child]))))
    return found
