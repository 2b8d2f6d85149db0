"""Tree reuse in the compiled tier (``CompiledSearcher``, the ``mcts`` agent's ``reuse=true``):
the kept subtree is the old one, node for node; the search goes on from it; runs of plies by
one player (Snake Go) are looked through; the MCTS-Solver's root is proven again from its
children; a first search is ``compiled_mcts``'s."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from searchlab.agents.registry import make_agent
from searchlab.algorithms.mcts.compiled import (
    CompiledSearcher,
    _kernel_for,
    compiled_mcts,
)
from searchlab.algorithms.mcts.go_compiled import GoSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.searchers import compiled_searcher
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.snakego import SnakeGo
from searchlab.games import make


def subtree(search: Any, node: int) -> dict[tuple[int, ...], tuple[Any, ...]]:
    """Every made node below ``node`` (itself included) by its action path from it: visits,
    value, mover, proof, children made and reserved, and the reserved actions in order."""
    tree = search.tree
    found: dict[tuple[int, ...], tuple[Any, ...]] = {}
    stack: list[tuple[int, tuple[int, ...]]] = [(node, ())]
    while stack:
        at, path = stack.pop()
        first = int(tree.first[at])
        block = tree.action[first : first + int(tree.n_children[at])].tolist() if first >= 0 else []
        found[path] = (
            int(tree.visits[at]), float(tree.value[at]), int(tree.mover[at]),
            bool(tree.is_proven[at]), float(tree.proven[at]), int(tree.n_expanded[at]), block,
        )  # fmt: skip
        if first >= 0:
            for child in range(first, first + int(tree.n_expanded[at])):
                stack.append((child, (*path, int(tree.action[child]))))
    return found


def node_of(search: Any, path: list[int]) -> int:
    tree, node = search.tree, 0
    for action in path:
        first = int(tree.first[node])
        block = tree.action[first : first + int(tree.n_expanded[node])].tolist()
        node = first + block.index(action)
    return node


@pytest.mark.parametrize(
    ("name", "moves"),
    [("connect4", "4 4"), ("othello", "d3 c5"), ("connect4", "")],
)
def test_the_kept_subtree_is_the_old_one_node_for_node(name, moves) -> None:
    game = make(name)
    root = game.initial_state()
    searcher = CompiledSearcher(game, MCTSOptions(), seed=2)
    searcher.search(root, Limits(simulations=5000))
    assert searcher._search is not None
    state, path = root, []
    for move in moves.split():
        path.append(state.string_to_action(move))
        state = state.apply(path[-1])
    before = subtree(searcher._search, node_of(searcher._search, path))
    assert searcher._find_reusable(state) == node_of(searcher._search, path)
    kernel = _kernel_for(game, state, MCTSOptions())
    reused = searcher._search.reroot(
        node_of(searcher._search, path), kernel, Limits(nodes=None, simulations=1)
    )
    after = subtree(searcher._search, 0)
    assert reused == before[()][0] > 0
    root_before, root_after = before.pop(()), after.pop(())
    assert root_after[0] == root_before[0] and root_after[5:] == root_before[5:]
    assert after == before
    tree = searcher._search.tree
    assert (
        int(tree.counters[1]) == sum(len(entry[6]) for entry in [root_after, *after.values()]) + 1
    )


def test_a_search_goes_on_from_the_kept_tree() -> None:
    game = make("connect4")
    searcher = CompiledSearcher(game, MCTSOptions(), seed=5)
    searcher.search(game.initial_state(), Limits(simulations=4000))
    state = play(game.initial_state(), "4 3")
    inherited = subtree(searcher._search, node_of(searcher._search, [3, 2]))[()][0]
    result = searcher.search(state, Limits(simulations=3000))
    assert result.stats["reused_visits"] == inherited > 0
    assert result.stats["simulations"] == 3000
    total = sum(child["visits"] for child in result.stats["children"])
    assert total == inherited - 1 + 3000  # the root's first visit created it, not a child
    assert result.tier == "compiled" and result.action in state.legal_actions()


def test_a_position_outside_the_first_turns_starts_a_fresh_tree() -> None:
    game = make("connect4")
    searcher = CompiledSearcher(game, MCTSOptions(), seed=5)
    searcher.search(game.initial_state(), Limits(simulations=2000))
    far = play(game.initial_state(), "4 4 4 4")
    result = searcher.search(far, Limits(simulations=2000))
    assert result.stats["reused_visits"] == 0
    assert sum(child["visits"] for child in result.stats["children"]) == 2000


def test_the_first_search_is_compiled_mctss() -> None:
    game = make("othello")
    state = game.initial_state()
    options = MCTSOptions(c=0.8)
    one = CompiledSearcher(game, options, seed=9).search(state, Limits(simulations=3000))
    two = compiled_mcts(game, state=state, limits=Limits(simulations=3000), options=options, seed=9)
    assert two is not None
    assert one.stats == two.stats and one.principal_variation == two.principal_variation


def test_snake_go_reuse_looks_through_a_players_run_of_plies() -> None:
    game = SnakeGo(seed=3, size=6, rounds=6, max_snakes=2)
    state = game.initial_state()
    searcher = CompiledSearcher(game, MCTSOptions(), seed=1)
    searcher.search(state, Limits(simulations=3000))
    chooser, line = random.Random(0), [state]
    while len(line) < 8 and not line[-1].is_terminal():  # a line where no snake dies
        here = line[-1]
        safe = [a for a in here.legal_actions() if not here.apply(a).is_terminal()]
        line.append(here.apply(chooser.choice(safe or here.legal_actions())))
    own = state.current_player()
    # the first position after the opponent's whole turn, with the root's player to move again
    target = next(
        s
        for i, s in enumerate(line)
        if s.current_player() == own and any(p.current_player() != own for p in line[:i])
    )
    node = searcher._find_reusable(target)
    assert node > 0
    result = searcher.search(target, Limits(simulations=500))
    assert result.stats["reused_visits"] == int(searcher._search.tree.visits[0]) - 500


def test_the_solver_proves_a_kept_root_from_its_children() -> None:
    game = make("connect4")
    state = play(game.initial_state(), "4 4 5 5 6")  # X to move... O has two threats to stop
    searcher = CompiledSearcher(game, MCTSOptions(solver=True), seed=1)
    first = searcher.search(game.initial_state().apply(3), Limits(simulations=200_000))
    assert not first.is_proven
    result = searcher.search(state, Limits(simulations=200_000))
    again = searcher.search(state, Limits(simulations=10))  # the same position: all of it kept
    assert result.is_proven and again.is_proven
    assert again.value == result.value == -1.0
    assert again.stats["reused_visits"] > 0


def test_the_agent_reuses_its_compiled_tree_on_every_compiled_game() -> None:
    for name in ("connect4", "othello"):
        game = make(name)
        agent = make_agent("mcts:simulations=800,reuse=true", game, seed=4)
        state = game.initial_state()
        for _ in range(4):
            state = state.apply(agent.act(state))
        result = agent.last_result
        assert result.tier == "compiled"
        assert result.stats["reused_visits"] > 0
    assert isinstance(compiled_searcher(make("go", size=7), MCTSOptions(), 1), GoSearcher)
    assert compiled_searcher(make("tictactoe"), MCTSOptions(), 1) is None
    assert compiled_searcher(make("connect4"), MCTSOptions(tier="reference"), 1) is None
    assert compiled_searcher(make("connect4"), MCTSOptions(transpositions=True), 1) is None


def test_words_positions_keep_their_type_after_a_reroot() -> None:
    game = make("othello")
    searcher = CompiledSearcher(game, MCTSOptions(), seed=2)
    searcher.search(game.initial_state(), Limits(simulations=500))
    state = play(game.initial_state(), "d3 c5")
    searcher.search(state, Limits(simulations=500))
    assert isinstance(searcher._search.tree.root_a, np.uint64)
