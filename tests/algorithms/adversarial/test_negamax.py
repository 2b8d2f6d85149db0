"""The negamax engine: agreement with the exact solver and minimax, mate distance, limits."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import random_walk

from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.algorithms.adversarial.negamax import iterative_deepening, negamax
from searchlab.algorithms.adversarial.solver import Solver
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game_events import Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe


def oracle(nested: object, maximizing: bool = True) -> float:
    """Minimax by definition on nested lists (MAX's view)."""
    if isinstance(nested, int):
        return float(nested)
    values = [oracle(child, not maximizing) for child in nested]  # type: ignore[attr-defined]
    return max(values) if maximizing else min(values)


def random_positions(game: MNKGame, count: int, seed: int) -> list:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.initial_state()
        state = random_walk(state, rng.randrange(0, 7), rng)
        if not state.is_terminal():
            positions.append(state)
    return positions


def test_tictactoe_draw_with_fewer_nodes_than_minimax() -> None:
    result = negamax(TicTacToe())
    assert result.outcome == "draw" and result.is_proven and result.value == 0
    assert result.nodes < 549_946 // 20  # minimax visits the whole tree (published count)
    assert len(result.principal_variation) == 9


def test_agrees_with_the_solver_including_distances() -> None:
    game = TicTacToe()
    solver = Solver(game)
    hurried = delayed = 0
    for state in random_positions(game, 150, seed=3):
        value, plies, _ = solver.value(state)
        result = negamax(game, state)
        assert result.is_proven
        assert result.value == value, str(state)
        if value == 0:
            continue
        # the winner hurries and the loser delays: both give the same game length
        assert result.plies_to_end == plies, str(state)
        child_value, child_plies, _ = solver.value(state.apply(result.action))
        assert (-child_value, child_plies + 1) == (value, plies)
        # count the positions where a worse distance was available with the same value
        same_value = [p for v, p in solver.action_values(state).values() if v == value]
        if value > 0 and max(same_value) > plies:
            hurried += 1
        if value < 0 and min(same_value) < plies:
            delayed += 1
    assert hurried >= 3 and delayed >= 3  # the preference was really exercised


def test_prefers_the_win_in_one_over_the_win_in_three() -> None:
    # The slow win S (3 plies: A -> S -> T -> leaf 1) is listed first, the fast win w second.
    tree = ExplicitTreeGame(ExplicitTree.from_text("max A: S w=1\nmin S: T\nmax T: 1 0"))
    result = negamax(tree)
    assert tree.initial_state().action_to_string(result.action) == "w"
    assert result.value == 1 and result.plies_to_end == 1


def test_prefers_the_longest_loss() -> None:
    # Both moves lose; quick (listed first) loses at once, through S after 3 plies.
    tree = ExplicitTreeGame(ExplicitTree.from_text("max A: quick=-1 S\nmin S: T\nmax T: -1 l2=-1"))
    result = negamax(tree)
    assert result.value == -1 and result.plies_to_end == 3
    assert tree.initial_state().action_to_string(result.action) == "S"


@settings(max_examples=80, deadline=None)
@given(
    st.recursive(
        st.integers(-2, 2),
        lambda children: st.lists(children, min_size=1, max_size=3),
        max_leaves=25,
    ).filter(lambda t: isinstance(t, list))
)
def test_value_equals_minimax_on_random_trees(nested: list) -> None:
    game = ExplicitTreeGame(ExplicitTree.from_nested(nested))
    result = negamax(game)
    assert result.is_proven
    assert result.value == oracle(nested) == minimax(game).value


@pytest.mark.parametrize("piles", [(1, 2, 3), (3, 4, 5), (2, 2), (1, 4)])
def test_nim_agrees_with_xor(piles: tuple[int, ...]) -> None:
    result = negamax(Nim(piles))
    assert result.value == (1 if reduce(xor, piles, 0) else -1)


def test_iterations_are_anytime_and_deepen() -> None:
    results = list(iterative_deepening(TicTacToe(), limits=Limits(depth=4)))
    assert [r.depth for r in results] == [1, 2, 3, 4]
    assert all(not r.is_proven and r.action is not None for r in results)
    assert [r.nodes for r in results] == sorted(r.nodes for r in results)


def test_node_and_time_limits_give_the_last_completed_iteration() -> None:
    full = list(iterative_deepening(TicTacToe()))
    result = negamax(TicTacToe(), limits=Limits(nodes=1000))
    assert result.stopped_by == "nodes"
    assert 1 <= result.depth < full[-1].depth and not result.is_proven
    tiny = negamax(TicTacToe(), limits=Limits(time=1e-9))
    assert tiny.stopped_by == "time"
    assert tiny.action in TicTacToe().initial_state().legal_actions()


def test_evaluation_at_the_horizon() -> None:
    game = MNKGame(4, 4, 4)

    def centre(state: object) -> float:  # more central stones are better for the mover
        board, player = state.board, state.current_player()  # type: ignore[attr-defined]
        mine = sum(1 for cell in (5, 6, 9, 10) if board[cell] == player + 1)
        theirs = sum(1 for cell in (5, 6, 9, 10) if board[cell] == 2 - player)
        return 0.1 * (mine - theirs)

    result = negamax(game, limits=Limits(depth=2), evaluate=centre)
    assert not result.is_proven and result.depth == 2
    assert result.action in (5, 6, 9, 10)
    assert abs(result.value) < 1


def test_observer_sees_every_node() -> None:
    recorder = TraceRecorder()
    result = negamax(TicTacToe(), limits=Limits(depth=2), observer=recorder)
    assert recorder.counts()["visit"] == result.nodes
    assert all(isinstance(e, Visit) for e in recorder.events)


def test_rejects_bad_games() -> None:
    fractional = ExplicitTreeGame(ExplicitTree.from_text("max A: 0.5 1"))
    with pytest.raises(InvalidParameterError, match="integer utilities"):
        negamax(fractional)

    class Chance:
        from searchlab.core.game import GameInfo

        info = GameInfo(name="dice", deterministic=False)

    with pytest.raises(InvalidParameterError, match="deterministic"):
        iterative_deepening(Chance())  # type: ignore[arg-type]


def test_terminal_root() -> None:
    state = TicTacToe().initial_state()
    for move in ("a1", "b1", "a2", "b2", "a3"):
        state = state.apply(state.string_to_action(move))
    result = negamax(TicTacToe(), state)
    assert result.action is None and result.value == -1 and result.is_proven
