"""Move lists in each game's notation (``domains/games/move_list.py``): the compact forms read
as the spaced ones, and a bad move is one error naming it."""

from __future__ import annotations

import pytest

from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import play
from searchlab.domains.games.move_list import moves_in_notation, position_from_moves
from searchlab.games import make


def test_connect4_digits_are_the_spaced_columns() -> None:
    game = make("connect4")
    # Pons' first position of Test_L3_R1, solved by his solver as -1
    moves = "2252576253462244111563365343671351441"
    compact = position_from_moves(game, moves)
    spaced = play(game.initial_state(), " ".join(moves))
    assert compact.key() == spaced.key()
    assert moves_in_notation(game, moves) == list(moves)


def test_othello_squares_written_together_are_the_spaced_squares() -> None:
    game = make("othello")
    together = position_from_moves(game, "F5d6C3")
    spaced = play(game.initial_state(), "f5 d6 c3")
    assert together.key() == spaced.key()
    assert moves_in_notation(game, "F5d6C3") == ["f5", "d6", "c3"]


def test_commas_separate_moves_too() -> None:
    game = make("tictactoe")
    assert position_from_moves(game, "b2,a1").key() == play(game.initial_state(), "b2 a1").key()


def test_an_illegal_move_is_named() -> None:
    with pytest.raises(IllegalMoveError, match="a1"):
        position_from_moves(make("tictactoe"), "a1 a1")
