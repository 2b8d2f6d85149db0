"""RAVE in the reference MCTS: the all-moves-as-first bookkeeping, the option, rave=0.

The AMAF statistics of a seeded search are recounted here from the simulations themselves
(each one's tree line, recorded by an observer, and its rollout moves, recorded by the
rollout policy) by a small independent implementation of the rule: for every position on a
simulation's path, every action its player to move played from there to the end of the game,
once. The tree's counts must equal the recount node for node.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from typing import Any

import pytest
from bonus_nim import BonusNim, BonusNimState

from searchlab.algorithms.mcts import MCTS
from searchlab.algorithms.mcts.rave import rave_beta, select_rave, update_amaf
from searchlab.algorithms.mcts.tree import Node
from searchlab.core.game import play
from searchlab.core.game_events import Playout, Visit
from searchlab.core.limits import Limits
from searchlab.games import make

# BonusNim(counters, bonus=2): take 1 or 2, taking 2 earns another move (tests/bonus_nim.py)


# --- the hand-checked rule ------------------------------------------------------------------


def test_update_amaf_by_hand() -> None:
    """BonusNim(5): player 0 takes 2 (and moves again), takes 1; then the rollout: player 1
    takes 1, player 0 takes 1 (the last one: player 0 wins)."""
    root = Node(BonusNimState(5, 0, bonus=2), mover=1, amaf=True)
    root.actions = [1, 2]  # fix the order (a search shuffles it)
    second = Node(root.state.apply(2), mover=0, amaf=True)  # player 0 again, 3 left
    second.actions = [1, 2]
    leaf = Node(second.state.apply(1), mover=0, amaf=True)  # player 1, 2 left
    leaf.actions = [1, 2]
    rollout = [(1, 1), (0, 1)]
    update_amaf([root, second, leaf], [1, 0], rollout, (1.0, -1.0))
    # root (player 0 to move): player 0 played 2, 1, 1 from here: both actions, once each
    assert root.amaf_visits == [1, 1] and root.amaf_sums == [1.0, 1.0]
    # second (player 0): played 1, 1: action 1 only (taking 2 was before this node)
    assert second.amaf_visits == [1, 0] and second.amaf_sums == [1.0, 0.0]
    # leaf (player 1): played 1 in the rollout; player 1 lost
    assert leaf.amaf_visits == [1, 0] and leaf.amaf_sums == [-1.0, 0.0]
    # the opponent's moves never count for a node: a second simulation where only player 1
    # plays 2 leaves the root's action 2 alone
    update_amaf([root], [], [(0, 1), (1, 2), (1, 1)], (-1.0, 1.0))
    assert root.amaf_visits == [2, 1] and root.amaf_sums == [0.0, 1.0]
    # an ignored action (a game's pass) gathers nothing, in the tree or the rollout
    update_amaf([root, second], [1], [(0, 1)], (1.0, -1.0), ignore=2)
    assert root.amaf_visits == [3, 1] and second.amaf_visits == [2, 0]


def test_beta_schedule() -> None:
    assert rave_beta(300, 0) == 1.0
    assert rave_beta(300, 300) == pytest.approx(0.5)  # the equivalence parameter
    assert rave_beta(300, 100) == pytest.approx(math.sqrt(300 / 600))
    assert rave_beta(0, 10) == 0.0


def test_select_rave_mixes_by_beta() -> None:
    """Two visited edges: plain UCT prefers the better mean, RAVE the better AMAF value."""
    root = Node(BonusNimState(5, 0, bonus=2), mover=1, amaf=True)
    root.actions = [1, 2]
    children = [Node(root.state.apply(a), mover=0) for a in root.actions]
    root.children = list(children)
    root.visits = 20
    children[0].visits, children[0].value_sum = 10, 4.0  # mean 0.4
    children[1].visits, children[1].value_sum = 10, 2.0  # mean 0.2
    root.amaf_visits, root.amaf_sums = [30, 30], [-15.0, 24.0]  # AMAF -0.5 and 0.8
    assert select_rave(root, 0.0, 0.0, False) == 0  # k = 0: UCT's means
    assert select_rave(root, 0.0, 1000.0, False) == 1
    beta = rave_beta(1000.0, 10)
    assert (1 - beta) * 0.2 + beta * 0.8 > (1 - beta) * 0.4 + beta * -0.5
    # an unvisited edge with AMAF samples waits by its AMAF value; without, it comes first
    children[1].visits, children[1].value_sum = 0, 0.0
    assert select_rave(root, 0.0, 1000.0, False) == 1  # AMAF 0.8 > mixed 0.4 / -0.5
    root.amaf_sums = [-15.0, -27.0]  # AMAF -0.9: the visited edge is preferred
    assert select_rave(root, 0.0, 1000.0, False) == 0
    root.amaf_visits = [30, 0]
    assert select_rave(root, 0.0, 1000.0, False) == 1


# --- the tree's counts against an independent recount ---------------------------------------


class _Recorder:
    """Records each simulation's tree line (observer) and rollout moves (rollout policy)."""

    def __init__(self) -> None:
        self.simulations: list[dict[str, Any]] = []

    def observe(self, event: object) -> None:
        if isinstance(event, Visit) and event.path == ():
            self.simulations.append({"rollout": [], "line": None, "returns": None})
        elif isinstance(event, Playout):
            self.simulations[-1]["line"] = event.path
            self.simulations[-1]["returns"] = event.returns

    def policy(self, state: Any, rng: random.Random) -> int:
        own = getattr(state, "playout_actions", None)
        actions = state.legal_actions() if own is None else own()
        action = actions[int(rng.random() * len(actions))]
        self.simulations[-1]["rollout"].append((state.current_player(), action))
        return int(action)


def _recount(
    root_state: Any, simulations: list[dict[str, Any]], table: bool, ignore: int | None
) -> dict[Any, dict[int, tuple[int, float]]]:
    """AMAF counts and sums by node and action, from the records: a node is its line of
    actions from the root (a tree), or its (position key, mover) with a table; the action
    ``ignore`` (a pass) has none."""
    counts: dict[Any, dict[int, tuple[int, float]]] = defaultdict(dict)
    for simulation in simulations:
        states, movers = [root_state], [1 - root_state.current_player()]
        moves: list[tuple[int, int]] = []
        for action in simulation["line"]:
            state = states[-1]
            moves.append((state.current_player(), action))
            movers.append(state.current_player())
            states.append(state.apply(action))
        moves += simulation["rollout"]
        for depth, state in enumerate(states):
            player = state.current_player()
            node = (state.key(), movers[depth]) if table else tuple(simulation["line"][:depth])
            later = {action for who, action in moves[depth:] if who == player}
            for action in (later & set(state.legal_actions())) - {ignore}:  # its edges
                visits, total = counts[node].get(action, (0, 0.0))
                counts[node][action] = (visits + 1, total + simulation["returns"][player])
    return dict(counts)


def _tree_counts(root: Node, table: bool) -> dict[Any, dict[int, tuple[int, float]]]:
    """The same, read from the tree (nodes with no AMAF sample left out)."""
    counts: dict[Any, dict[int, tuple[int, float]]] = {}
    frontier: list[tuple[Node, tuple[int, ...]]] = [(root, ())]
    seen = {id(root)}
    while frontier:
        node, line = frontier.pop()
        assert node.amaf_visits is not None and node.amaf_sums is not None
        where = (node.key(), node.mover) if table else line
        entries = {
            action: (visits, total)
            for action, visits, total in zip(
                node.actions, node.amaf_visits, node.amaf_sums, strict=True
            )
            if visits
        }
        if entries:
            assert where not in counts
            counts[where] = entries
        for action, child in zip(node.actions, node.children, strict=True):
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                frontier.append((child, (*line, action)))
    return counts


@pytest.mark.parametrize(
    ("game", "moves", "options"),
    [
        (make("tictactoe"), "", {}),
        (make("tictactoe"), "b2 a1", {"solver": True}),
        (BonusNim(9, bonus=2), None, {}),
        (BonusNim(21, bonus=2), None, {"transpositions": True, "solver": True}),
        (make("connect4"), "4 3", {"transpositions": True}),
        (make("go", size=5), "C3 pass", {}),
    ],
    ids=[
        "tictactoe",
        "tictactoe-solver",
        "bonusnim",
        "bonusnim-table-solver",
        "connect4-table",
        "go-5x5",
    ],
)
def test_amaf_counts_equal_an_independent_recount(
    game: Any, moves: str | None, options: dict[str, Any]
) -> None:
    state = game.initial_state() if not moves else play(game.initial_state(), moves)
    recorder = _Recorder()
    searcher = MCTS(
        game, seed=11, rave=50.0, rollout=recorder.policy, observer=recorder.observe,
        tier="reference", **options,
    )  # fmt: skip
    ignore = getattr(game, "pass_action", None)
    result = searcher.search(state, Limits(simulations=120 if ignore is None else 40))
    assert result.stats["rave"] == 50.0
    table = bool(options.get("transpositions"))
    expected = _recount(state, recorder.simulations, table, ignore)
    root = searcher.root
    assert root is not None
    found = _tree_counts(root, table)
    assert len(recorder.simulations) >= 10 and len(found) >= 5
    assert found == expected
    if ignore is not None:  # the pass was played (every Go playout ends with two) but has none
        assert any(ignore in [a for _, a in record["rollout"]] for record in recorder.simulations)
        assert all(ignore not in counts for counts in found.values())
