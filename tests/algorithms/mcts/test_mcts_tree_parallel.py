"""Tree parallelism (``MCTSOptions(threads=T)``, ``parallel="tree"``, the default): the
threads simulate in one tree of arrays without locks
(:mod:`searchlab.algorithms.mcts.tree_parallel`). A search on several threads is not
reproducible draw by draw, so these tests check what must hold whatever the interleaving: the
budget is run exactly (each thread counts its own), the tree is well formed (every made child
below its parent, sibling actions distinct and legal in the position the path leads to, as the
game's own rules say), proofs are exact (Pons' solver's scores), the arrays grow while the
threads pause, and a kept subtree is searched on."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.searchers import compiled_searcher
from searchlab.algorithms.mcts.tree_parallel import regions
from searchlab.core.errors import UnknownNameError
from searchlab.core.game import Game, State, play
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import parse_moves
from searchlab.games import make


def _check_tree(tree: Any, game: Game, root: State) -> int:
    """Walk the made nodes from the root, replaying each action with the game's own rules;
    return how many nodes were reached."""
    seen = 0
    frontier = [(0, root)]
    while frontier:
        node, position = frontier.pop()
        seen += 1
        first = int(tree.first[node])
        if first < 0 or position.is_terminal():
            continue
        made = int(tree.n_expanded[node])
        assert 0 <= made <= int(tree.n_children[node])
        actions = [int(tree.action[child]) for child in range(first, first + made)]
        assert len(set(actions)) == len(actions), f"node {node}: a child made twice"
        legal = set(position.legal_actions())
        assert set(actions) <= legal, f"node {node}: {actions} not all legal in {legal}"
        for child in range(first, first + made):
            assert int(tree.parent[child]) == node
            assert int(tree.visits[child]) >= 1
            frontier.append((child, position.apply(int(tree.action[child]))))
    return seen


@pytest.mark.parametrize(
    ("name", "moves", "budget"),
    [("connect4", "4 4 5 3", 20_001), ("othello", "", 6_001)],
)
def test_the_budget_runs_exactly_and_the_tree_is_well_formed(
    name: str, moves: str, budget: int
) -> None:
    game = make(name)
    root = play(game.initial_state(), moves) if moves else game.initial_state()
    searcher = compiled_searcher(game, MCTSOptions(threads=2), 7)
    result = searcher.search(root, Limits(simulations=budget))
    assert result.stats["parallel"] == "tree" and result.stats["threads"] == 2
    assert result.stats["simulations"] == budget
    assert sum(result.stats["thread_simulations"]) == budget
    assert min(result.stats["thread_simulations"]) == budget // 2  # each its share
    assert result.action in root.legal_actions()
    assert searcher._helpers == []  # one tree
    reached = _check_tree(searcher._search.tree, game, root)
    # one node a simulation (a few fewer: simulations ending on a finished game, or a child
    # two threads made at once)
    assert reached <= budget + 1
    assert reached > budget // 2


def test_a_time_limited_search_grows_its_arrays_and_both_threads_search() -> None:
    game = make("connect4")
    root = game.initial_state()
    searcher = compiled_searcher(game, MCTSOptions(threads=2), 3)
    result = searcher.search(root, Limits(time=0.3))
    assert result.stopped_by == "time"
    tree = searcher._search.tree
    assert tree.parent.shape[0] > 1 << 16  # started at 65,536 slots and grew
    assert min(result.stats["thread_simulations"]) > 0
    assert result.stats["simulations"] == sum(result.stats["thread_simulations"])
    assert _check_tree(tree, game, root) > 1 << 15


def _pons_positions(shared_data: Path, name: str, count: int) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().split("\n")
    rows = [line.split() for line in lines if line.strip()]
    return [(moves, int(score)) for moves, score in rows[:count]]


def test_proofs_on_two_threads_are_exact(shared_data: Path) -> None:
    # End-Easy positions: the solver proves most of them; a proof must be Pons' sign
    game = make("connect4")
    proven = 0
    for moves, score in _pons_positions(shared_data, "Test_L3_R1", 12):
        result = mcts(
            game, parse_moves(moves), limits=Limits(simulations=400_000), seed=5, threads=2,
            solver=True,
        )  # fmt: skip
        if result.is_proven:
            proven += 1
            assert (result.value > 0) == (score > 0) and (result.value < 0) == (score < 0)
    assert proven >= 6


def test_a_proven_move_is_a_winning_move_whatever_the_interleaving() -> None:
    # X to move after 4 4 3 3 wins only by 2 or 5 (columns 1 and 4 from 0): an open three on
    # the bottom row (the exact solver says so; test_connect4_solver checks it on Pons' sets).
    # Two threads reach the root's children at the same instant in the first simulations: the
    # block published by one thread only, the move chosen from the children the proof saw.
    game = make("connect4")
    state = play(game.initial_state(), "4 4 3 3")
    for seed in range(16):
        result = mcts(
            game, state, limits=Limits(simulations=200_000), seed=seed, threads=2, solver=True
        )
        assert result.is_proven and result.value == 1.0
        assert result.action in (1, 4), seed
        for child in result.stats["children"]:
            assert -1.0 <= child["value"] <= 1.0
            if child["proven"] == "win":
                assert child["action"] in (1, 4)


def test_the_kept_subtree_is_searched_on() -> None:
    game = make("connect4")
    searcher = compiled_searcher(game, MCTSOptions(threads=2), 4)
    searcher.search(game.initial_state(), Limits(simulations=8000))
    after = play(game.initial_state(), "4 4")
    second = searcher.search(after, Limits(simulations=4000))
    assert second.stats["reused_visits"] > 0
    assert second.stats["simulations"] == 4000
    _check_tree(searcher._search.tree, game, after)


def test_snake_go_positions_are_arrays_each_thread_its_own() -> None:
    game = make("snakego", size=8, rounds=20)
    searcher = compiled_searcher(game, MCTSOptions(threads=2), 9)
    result = searcher.search(game.initial_state(), Limits(simulations=3001))
    assert result.stats["simulations"] == 3001 and result.stats["parallel"] == "tree"
    assert result.action in game.initial_state().legal_actions()
    _check_tree(searcher._search.tree, game, game.initial_state())


def test_rave_and_go_search_on_root_parallelism() -> None:
    result = mcts(make("connect4"), limits=Limits(simulations=2001), seed=1, threads=2, rave=300)
    assert result.stats["parallel"] == "root"


def test_regions_split_the_free_slots() -> None:
    for used, capacity, threads in [(1, 100, 2), (7, 1000, 3), (0, 9, 4)]:
        parts = regions(used, capacity, threads)
        assert parts[0][0] == used and parts[-1][1] == capacity
        assert all(a[1] == b[0] for a, b in itertools.pairwise(parts))
        assert all(end >= start for start, end in parts)


def test_unknown_parallel_is_one_line() -> None:
    with pytest.raises(UnknownNameError, match="unknown parallel 'leaf'; known: tree, root"):
        MCTSOptions(parallel="leaf")
