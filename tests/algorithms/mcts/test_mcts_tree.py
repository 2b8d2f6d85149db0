"""The MCTS tree: reuse between moves, transpositions (one node per position), iterative search
on long games."""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from searchlab.algorithms.adversarial.solver import Solver
from searchlab.algorithms.mcts import MCTS, Node
from searchlab.algorithms.mcts.tree import reachable_nodes
from searchlab.core.game import GameInfo, play
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe


def test_reuse_keeps_the_subtree_two_plies_down_with_its_visits() -> None:
    game = TicTacToe()
    searcher = MCTS(game, seed=1)
    first = searcher.search(game.initial_state(), Limits(simulations=2000))
    root = searcher.root
    assert isinstance(root, Node) and root.visits == 2000
    mine = first.action
    after = root.child(mine)
    index = max(
        (i for i, c in enumerate(after.children) if c is not None),
        key=lambda i: after.children[i].visits,
    )
    reply = after.children[index]
    expected = reply.visits
    assert expected > 0
    state = game.initial_state().apply(mine).apply(after.actions[index])  # a new, equal state
    second = searcher.search(state, Limits(simulations=500))
    assert second.stats["reused_visits"] == expected
    assert searcher.root is reply and searcher.root.visits == expected + 500
    assert second.stats["simulations"] == 500


def test_reuse_one_ply_down_and_no_reuse_beyond_two_plies() -> None:
    game = TicTacToe()
    searcher = MCTS(game, seed=2)
    searcher.search(game.initial_state(), Limits(simulations=1000))
    child = searcher.root.child(4)
    visits = child.visits
    one_ply = searcher.search(play(game.initial_state(), "b2"), Limits(simulations=100))
    assert one_ply.stats["reused_visits"] == visits > 0
    far = play(game.initial_state(), "b2 a1 c3 a3 a2")  # four plies below the root b2 now
    beyond = searcher.search(far, Limits(simulations=100))
    assert beyond.stats["reused_visits"] == 0
    searcher.reset()
    assert searcher.root is None
    again = searcher.search(game.initial_state(), Limits(simulations=100))
    assert again.stats["reused_visits"] == 0


def test_reuse_plays_as_well_as_a_fresh_tree_against_a_perfect_player() -> None:
    game = TicTacToe()
    solver = Solver(game)
    reused_total = 0
    for seed in (1, 2, 3):
        for player in (0, 1):
            rng = random.Random(seed)
            searcher = MCTS(game, seed=seed)
            state = game.initial_state()
            while not state.is_terminal():
                if state.current_player() == player:
                    result = searcher.search(state, Limits(simulations=2000))
                    reused_total += result.stats["reused_visits"]
                    action = result.action
                else:
                    values = solver.action_values(state)
                    best = max(v for v, _ in values.values())
                    action = rng.choice(sorted(a for a, (v, _) in values.items() if v == best))
                state = state.apply(action)
            assert state.returns()[player] >= 0, (seed, player)
    assert reused_total > 0


def test_transpositions_share_one_node_per_position() -> None:
    game = TicTacToe()
    shared = MCTS(game, transpositions=True, seed=5)
    shared.search(game.initial_state(), Limits(simulations=4000))
    nodes = list(reachable_nodes(shared.root))
    assert len({node.key() for node in nodes}) == len(nodes)
    # The same position by two move orders is one node, with the statistics of both.
    one = shared.root.child(0).child(4).child(8)
    other = shared.root.child(8).child(4).child(0)
    assert one is not None and one is other
    parents = Counter(id(child) for node in nodes for child in node.children if child is not None)
    assert max(parents.values()) >= 2
    # Without transpositions the tree holds the same position more than once.
    tree = MCTS(game, seed=5)
    tree.search(game.initial_state(), Limits(simulations=4000))
    tree_nodes = list(reachable_nodes(tree.root))
    assert len({node.key() for node in tree_nodes}) < len(tree_nodes)


def test_a_shared_node_counts_the_simulations_of_every_path_through_it() -> None:
    game = TicTacToe()
    searcher = MCTS(game, transpositions=True, seed=6)
    searcher.search(game.initial_state(), Limits(simulations=3000))
    nodes = list(reachable_nodes(searcher.root))
    # Each simulation through a node either ends there or goes on through one of its edges;
    # the edge counts are not stored, so check the bound they imply: a node's visits are at
    # least the visits of any single child reached only through it.
    parents: dict[int, list[Node]] = {}
    for node in nodes:
        for child in node.children:
            if child is not None:
                parents.setdefault(id(child), []).append(node)
    shared = [n for n in nodes if len(parents.get(id(n), [])) >= 2]
    assert shared
    for node in shared:
        assert node.visits <= sum(parent.visits for parent in parents[id(node)])
    for node in nodes:
        if len(parents.get(id(node), [])) == 1:
            assert node.visits <= parents[id(node)][0].visits


def test_reuse_with_transpositions_rebuilds_the_table() -> None:
    game = TicTacToe()
    searcher = MCTS(game, transpositions=True, seed=7)
    searcher.search(game.initial_state(), Limits(simulations=2000))
    state = play(game.initial_state(), "b2 a1")
    result = searcher.search(state, Limits(simulations=1000))
    assert result.stats["reused_visits"] > 0
    nodes = list(reachable_nodes(searcher.root))
    assert len({node.key() for node in nodes}) == len(nodes)
    assert all(node.state.key() != game.initial_state().key() for node in nodes)


class Countdown:
    """One legal move per position for ``length`` plies; the last mover wins. Every
    simulation adds one node to a single chain, so the tree gets ``simulations`` deep."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.info = GameInfo(name="countdown")

    def initial_state(self) -> CountdownState:
        return CountdownState(self.length, 0)


class CountdownState:
    def __init__(self, left: int, player: int) -> None:
        self.left, self.player = left, player

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return [0] if self.left else []

    def apply(self, action: int) -> CountdownState:
        return CountdownState(self.left - 1, 1 - self.player)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> tuple[float, float]:
        if self.left:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)

    def key(self) -> tuple[int, int]:
        return (self.left, self.player)

    def action_to_string(self, action: int) -> str:
        return "go"

    def string_to_action(self, text: str) -> int:
        return 0


def test_search_is_iterative_on_trees_deeper_than_the_recursion_limit() -> None:
    deep = sys.getrecursionlimit() + 100
    game = Countdown(deep + 50)
    result = MCTS(game, solver=True, seed=1).search(None, Limits(simulations=deep))
    assert result.depth == deep
    assert len(result.principal_variation) == deep
    # An even number of plies: the player to move loses; the solver has not seen the end yet.
    assert result.value == -1.0 and not result.is_proven


def test_connect4_search_from_the_opening_is_legal_and_sane() -> None:
    game = Connect4()
    result = MCTS(game, seed=1).search(None, Limits(simulations=400))
    assert result.action in game.initial_state().legal_actions()
    assert -1.0 <= result.value <= 1.0
    assert result.stats["simulations"] == 400


@pytest.mark.parametrize("transpositions", [False, True])
def test_same_seed_same_tree_with_reuse(transpositions: bool) -> None:
    game = TicTacToe()
    runs = []
    for _ in range(2):
        searcher = MCTS(game, transpositions=transpositions, seed=11)
        first = searcher.search(game.initial_state(), Limits(simulations=500))
        second = searcher.search(play(game.initial_state(), "b2 a1"), Limits(simulations=500))
        runs.append((first.stats, second.stats))
    assert runs[0] == runs[1]
