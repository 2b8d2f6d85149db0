"""Othello evaluation: features recomputed by hand from the board, antisymmetry, bounds, and
depth-limited negamax with it against random play."""

from __future__ import annotations

import random

import pytest
from game_positions import random_positions
from test_othello import reference_moves

from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.othello import Othello, OthelloState
from searchlab.domains.games.othello.eval import OthelloEvaluation


def random_states(count: int, seed: int) -> list[OthelloState]:
    return random_positions(Othello(), count, seed, range(1, 58))


def test_features_by_hand_bounds_and_antisymmetry() -> None:
    evaluate = OthelloEvaluation(mobility=1, corners=2, discs=0.5)
    for state in random_states(150, 1):
        mine, theirs = state.mover_bits()
        board = state.board_string()
        corners = [board[i] for i in (0, 7, 56, 63)]
        me, other = "XO"[state.player], "XO"[1 - state.player]
        own_moves = bin(reference_moves(mine, theirs)).count("1")
        other_moves = bin(reference_moves(theirs, mine)).count("1")
        mobility = (own_moves - other_moves) / max(1, own_moves + other_moves)
        corner = (corners.count(me) - corners.count(other)) / 4
        discs = (board.count(me) - board.count(other)) / (board.count(me) + board.count(other))
        expected = 0.99 * (mobility + 2 * corner + 0.5 * discs) / 3.5
        value = evaluate(state)
        assert value == pytest.approx(expected), repr(state)
        assert -1 < value < 1
        flipped = OthelloState(state.black, state.white, 1 - state.player)
        assert evaluate(flipped) == pytest.approx(-value)


def test_corner_weight_makes_depth_one_search_take_the_corner() -> None:
    # X to move can take a1 (turning b2) or play elsewhere
    board = list("-" * 64)
    board[9], board[18] = "O", "X"  # b2 O, c3 X: a1 turns b2
    board[27], board[28], board[35], board[36] = "O", "X", "X", "O"
    state = Othello().state_from_board("".join(board), "X")
    assert 0 in state.legal_actions() and len(state.legal_actions()) > 1
    corners_only = OthelloEvaluation(mobility=0, corners=1, discs=0)
    result = negamax(Othello(), state, limits=Limits(depth=1), evaluate=corners_only)
    assert result.action == 0


def test_depth_two_search_beats_random_play() -> None:
    # "is it stronger": 4 seeded games against a random player, 2 with each colour
    game, evaluate, rng = Othello(scoring="win_loss"), OthelloEvaluation(), random.Random(9)
    wins = 0
    for number in range(4):
        state, searcher = game.initial_state(), number % 2
        while not state.is_terminal():
            if state.current_player() == searcher:
                action = negamax(game, state, limits=Limits(depth=2), evaluate=evaluate).action
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
        wins += state.returns()[searcher] > 0
    assert wins >= 3


@pytest.mark.parametrize(
    ("weights", "message"),
    [({"mobility": -1}, "numbers >= 0"), ({"mobility": 0, "corners": 0, "discs": 0}, "> 0")],
)
def test_bad_weights(weights: dict[str, float], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        OthelloEvaluation(**weights)
