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


def grown(game: Any, root: Any, options: Any, simulations: int, seed: int) -> tuple[Any, list]:
    """The compiled search of ``game`` from ``root`` run for ``simulations`` (seeded), and
    :func:`walk` of its tree, whose nodes must all be reachable, each once."""
    from searchlab.algorithms.mcts.compiled import _kernel_for, _Search
    from searchlab.core.limits import Limits

    search = _Search(_kernel_for(game, root, options), Limits(simulations=simulations), options,
                     seed)  # fmt: skip
    search.run(simulations, None)
    nodes = walk(search, root)
    assert len(nodes) == int(search.tree.counters[2])  # every node made is reachable, once
    return search, nodes
