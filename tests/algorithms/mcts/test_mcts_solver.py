"""MCTS-Solver and exact endgame search: proven values agree with exact solvers (Pons' End-Easy
Connect Four scores, the tic-tac-toe solver), and the backup rules handle draws."""

from __future__ import annotations

import random

import pytest
from random_play import random_walk

from searchlab.algorithms.adversarial.solver import Solver, solve
from searchlab.algorithms.mcts import MCTS, ProofSearch, mcts
from searchlab.algorithms.mcts.selection import prove
from searchlab.algorithms.mcts.tree import Node
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import TicTacToe

END_EASY_LINES = 60


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def end_easy(shared_data) -> list[tuple[str, int]]:
    rows = []
    path = shared_data / "connect4_pons" / "Test_L3_R1"
    for line in path.read_text().splitlines()[:END_EASY_LINES]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


def test_solver_proofs_agree_with_pons_end_easy_scores(shared_data) -> None:
    game = Connect4()
    proven = {"win": 0, "draw": 0, "loss": 0}
    for moves, score in end_easy(shared_data):
        state = parse_moves(moves)
        result = mcts(
            game, state, limits=Limits(simulations=3000), solver=True, seed=1, tier="reference"
        )
        if not result.is_proven:
            assert result.stopped_by == "simulations"
            continue
        assert result.stopped_by is None  # a proof ends the search early
        assert sign(result.value) == sign(score), (moves, score, result.value)
        proven[result.outcome] += 1
        # The move played keeps the proven value (the exact solver on the position after it).
        after = solve(game, state.apply(result.action))
        assert sign(0.0 - after.value) == sign(score), (moves, result.action)
        children = result.stats["children"]
        # Every simulation went through exactly one root child (no tree reused here).
        assert result.stats["reused_visits"] == 0
        assert sum(child["visits"] for child in children) == result.stats["simulations"]
        actions = [child["action"] for child in children]  # one entry per legal move
        assert sorted(actions) == sorted(state.legal_actions()), (moves, actions)
        chosen = next(c for c in children if c["action"] == result.action)
        assert chosen["proven"] == result.outcome and chosen["visits"] >= 1
        # A proven draw or loss needs every move proven and none better than the outcome.
        if result.outcome != "win":
            assert all(child["proven"] in ("draw", "loss") for child in children), children
            if result.outcome == "loss":
                assert all(child["proven"] == "loss" for child in children), children
    assert sum(proven.values()) >= 0.75 * END_EASY_LINES, proven
    assert min(proven.values()) >= 3, proven  # wins, draws and losses all get proven


def test_exact_endgame_search_proves_more_with_fewer_simulations(shared_data) -> None:
    game = Connect4()
    rows = end_easy(shared_data)[:20]
    counts = {}
    for exact in (0, 4):
        counts[exact] = 0
        for moves, score in rows:
            result = mcts(
                game,
                parse_moves(moves),
                limits=Limits(simulations=30),
                solver=True,
                exact_endgame=exact,
                seed=2,
                tier="reference",
            )
            if result.is_proven:
                counts[exact] += 1
                assert sign(result.value) == sign(score), (moves, exact)
    assert counts[4] >= counts[0] + 4, counts  # 17 against 11 when written


def test_solver_proofs_agree_with_the_exact_solver_on_tictactoe() -> None:
    game = TicTacToe()
    exact = Solver(game)
    rng = random.Random(5)
    proved = 0
    for _ in range(40):
        state = game.initial_state()
        state = random_walk(state, rng.randint(3, 6), rng)
        if state.is_terminal():
            continue
        result = mcts(
            game,
            state,
            limits=Limits(simulations=2000),
            solver=True,
            transpositions=True,
            seed=rng.randrange(1000),
            tier="reference",
        )
        if result.is_proven:
            proved += 1
            assert result.value == exact.value(state)[0], str(state)
            values = exact.action_values(state)
            assert values[result.action][0] == result.value, str(state)
        # Proven children are exact too, proven or not at the root.
        for child in result.stats["children"]:
            if child["proven"] is not None:
                expected = {1.0: "win", 0.0: "draw", -1.0: "loss"}[
                    exact.action_values(state)[child["action"]][0]
                ]
                assert child["proven"] == expected
    assert proved >= 20


def test_solver_plays_the_proven_win_not_the_most_visited_child() -> None:
    game = TicTacToe()
    state = play(game.initial_state(), "a1 b1 a2 b2")  # X wins at a3 now
    result = mcts(game, state, limits=Limits(simulations=200), solver=True, seed=1)
    assert (state.action_to_string(result.action), result.value, result.is_proven) == (
        "a3",
        1.0,
        True,
    )
    assert result.stats["simulations"] < 200  # stopped once proven


def child_with(proven: float | None) -> Node:
    """A visited child (player 0 moved into it) with the given proof."""
    node = Node(Nim((3,)).initial_state().apply(0), mover=0)
    node.proven = proven
    node.visits = 1
    return node


@pytest.mark.parametrize(
    ("children", "expected"),
    [
        ((1.0, None, "unvisited"), 1.0),  # one win for the player to move proves the win
        ((-1.0, -1.0, -1.0), -1.0),  # every child lost: lost
        ((-1.0, 0.0, -1.0), 0.0),  # all proven, best a draw: a draw
        ((0.0, None, -1.0), None),  # a draw, but an unproven child might still win
        ((0.0, -1.0, "unvisited"), None),  # ... and so might an unvisited one
        ((0.0, 0.0, 0.0), 0.0),
        ((-1.0, -1.0, None), None),
    ],
)
def test_proof_backup_rules_with_draws(children, expected) -> None:
    parent = Node(Nim((3,)).initial_state(), mover=1)  # player 0 to move, three edges
    parent.children = [None if v == "unvisited" else child_with(v) for v in children]
    assert prove(parent) == (expected is not None)
    if expected is not None:
        # Stored for the parent's mover (player 1): the negation of player 0's value.
        assert parent.proven == 0.0 - expected
    else:
        assert parent.proven is None


def test_proof_search_matches_the_exact_solver_within_its_depth() -> None:
    game = TicTacToe()
    exact = Solver(game)
    rng = random.Random(8)
    checked = unproven = 0
    for _ in range(60):
        state = game.initial_state()
        for _ in range(rng.randint(2, 7)):
            if not state.is_terminal():
                state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        value, plies, _ = exact.value(state)
        found = ProofSearch(depth=4).prove(state)
        remaining = 9 - sum(1 for cell in state.board if cell)
        if found is None:
            unproven += 1
            # Only positions that need more than 4 plies to settle stay open.
            assert remaining > 4 and (value == 0 or plies > 4), str(state)
        else:
            checked += 1
            assert found == value, str(state)
        if remaining <= 4:
            assert found == value
    assert checked >= 20 and unproven >= 5


def test_proof_search_gives_up_past_its_node_budget() -> None:
    empty = TicTacToe().initial_state()
    small = ProofSearch(depth=9, node_budget=50)
    assert small.prove(empty) is None and small.proofs == 0
    large = ProofSearch(depth=9, node_budget=100_000)
    assert large.prove(empty) == 0.0 and large.proofs == 1
    with pytest.raises(InvalidParameterError, match="got 0"):
        ProofSearch(depth=0)


def test_exact_endgame_alone_values_leaves_exactly_without_the_solver() -> None:
    game = TicTacToe()
    state = play(game.initial_state(), "a1 b2 c3 b1")  # X must block b3
    result = mcts(game, state, limits=Limits(simulations=400), exact_endgame=3, seed=1)
    assert state.action_to_string(result.action) == "b3"
    assert not result.is_proven  # proofs are not backed up without solver=True
    assert result.stats["endgame_proofs"] > 0
    assert any(child["proven"] == "loss" for child in result.stats["children"])


def test_a_reused_root_is_proven_again_only_through_its_children() -> None:
    game = Nim((1, 2, 3))  # a loss for the mover: every child is a proven win for the opponent
    searcher = MCTS(game, solver=True, exact_endgame=6, seed=1)
    first = searcher.search(game.initial_state(), Limits(simulations=2000))
    assert first.is_proven and first.value == -1.0
    # The child was proven by the endgame search alone (its own children never made): as the
    # new root it must be proven again through children, so that a move can be named.
    after = game.initial_state().apply(first.action)
    reply = searcher.search(after, Limits(simulations=2000))
    assert reply.stats["reused_visits"] > 0
    assert reply.is_proven and reply.value == 1.0
    piles = after.apply(reply.action).piles
    assert piles[0] ^ piles[1] ^ piles[2] == 0  # Bouton's winning reply
