"""Protocol, registry and the conformance harness on every registered game."""

from __future__ import annotations

import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, UnknownNameError
from searchlab.core.game import Game, GameInfo, State, check_capabilities, play
from searchlab.domains.games import game_names, make
from searchlab.domains.games.conformance import (
    ConformanceError,
    assert_conforms,
    check_game,
)
from searchlab.domains.games.nim import Nim, parse_piles
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe

REGISTERED_PARAMS = {
    "nim": {"piles": (3, 4, 5)},
    "tictactoe": {},
    "mnk": {"m": 4, "n": 3, "k": 3},
    "kayles": {"heaps": (7, 3)},
    "dawsons_chess": {"heaps": (9,)},
    "grundys_game": {"heaps": (12,)},
    "connect4": {},
    "othello": {},
    "gomoku": {"size": 9},
    "snakego": {"seed": 1, "size": 8, "rounds": 40},
    "go": {"size": 5},
}


def test_every_registered_game_is_covered_here() -> None:
    assert set(game_names()) == set(REGISTERED_PARAMS)


@pytest.mark.parametrize("name", sorted(REGISTERED_PARAMS))
def test_registered_games_conform(name: str) -> None:
    game = make(name, **REGISTERED_PARAMS[name])
    assert isinstance(game, Game)
    assert isinstance(game.initial_state(), State)
    report = assert_conforms(game, num_playouts=25, seed=7)
    assert report.states > 25


def test_misere_nim_conforms() -> None:
    assert check_game(Nim((1, 2, 3), misere=True), num_playouts=10).ok


def test_unknown_game_lists_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"'chess'.*nim.*tictactoe"):
        make("chess")


def test_bad_parameters() -> None:
    with pytest.raises(InvalidParameterError, match="colour"):
        make("nim", colour="red")
    with pytest.raises(InvalidParameterError, match=r"-1"):
        Nim((3, -1))
    with pytest.raises(InvalidParameterError, match="k=4"):
        MNKGame(3, 3, 4)
    with pytest.raises(InvalidParameterError, match="'3,x'"):
        parse_piles("3,x")
    with pytest.raises(InvalidParameterError, match="''"):
        parse_piles("")


class _BrokenState:
    """Says it is not terminal but has no moves; its key ignores the player."""

    def __init__(self, n: int) -> None:
        self.n = n

    def current_player(self) -> int:
        return self.n % 2

    def legal_actions(self) -> list[int]:
        return [0] if self.n < 3 else []

    def apply(self, action: int) -> _BrokenState:
        return _BrokenState(self.n + 1)  # never raises, even when illegal

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> tuple[float, float]:
        return (1.0, 1.0)

    def key(self) -> int:
        return 0

    def action_to_string(self, action: int) -> str:
        return "x"

    def string_to_action(self, text: str) -> int:
        return 0


class _BrokenGame:
    info = GameInfo(name="broken", max_game_length=5)

    def initial_state(self) -> _BrokenState:
        return _BrokenState(0)


def test_harness_catches_a_broken_game() -> None:
    report = check_game(_BrokenGame(), num_playouts=2)
    assert not report.ok
    text = " | ".join(report.failures)
    assert "returns()" in text
    assert "is_terminal() is False but legal_actions() is []" in text
    assert "did not raise" in text
    assert "different moves or player" in text
    with pytest.raises(ConformanceError, match="broken breaks the game protocol"):
        assert_conforms(_BrokenGame(), num_playouts=1)


def test_capability_checks() -> None:
    class ThreePlayers:
        info = GameInfo(name="three", num_players=3)

    class Dice:
        info = GameInfo(name="dice", deterministic=False)

    with pytest.raises(InvalidParameterError, match="two-player"):
        check_capabilities(ThreePlayers(), "alphabeta")
    with pytest.raises(InvalidParameterError, match="deterministic"):
        check_capabilities(Dice(), "alphabeta")
    with pytest.raises(InvalidParameterError, match="impartial"):
        check_capabilities(TicTacToe(), "grundy", impartial=True)
    with pytest.raises(InvalidParameterError, match="not a state"):
        check_capabilities(TicTacToe().initial_state(), "minimax")


def test_play_quotes_the_illegal_move() -> None:
    root = TicTacToe().initial_state()
    with pytest.raises(IllegalMoveError, match=r"move 3 'b2' in 'b2 a1 b2': .*taken"):
        play(root, "b2 a1 b2")
    with pytest.raises(IllegalMoveError, match=r"move 1 'z9'"):
        play(root, ["z9"])
    with pytest.raises(IllegalMoveError, match=r"'q'.*malformed"):
        play(root, "q")
    won = play(root, "a1 b1 a2 b2 a3")
    assert won.is_terminal() and won.returns() == (1.0, -1.0)
    with pytest.raises(IllegalMoveError, match="already over"):
        play(won, "c3")
    with pytest.raises(IllegalMoveError, match="over"):
        won.apply(8)
    with pytest.raises(IllegalMoveError, match="pile 1 holds 3"):
        play(Nim((3, 4)).initial_state(), "1:4")


def test_nim_rules() -> None:
    state = play(Nim((1, 2)).initial_state(), "2:2 1:1")
    assert state.is_terminal()
    assert state.returns() == (-1.0, 1.0)  # player 0 to move cannot: player 1 took the last
    misere = play(Nim((1, 2), misere=True).initial_state(), "2:2 1:1")
    assert misere.returns() == (1.0, -1.0)


def test_mnk_wins_on_every_direction() -> None:
    game = MNKGame(5, 4, 4)
    lines = {
        "row": "a1 a2 b1 b2 c1 c2 d1",
        "column": "e1 a1 e2 a2 e3 a3 e4",
        "diagonal": "a1 a2 b2 a3 c3 a4 d4",
        "anti-diagonal": "e1 a1 d2 a2 c3 a3 b4",
    }
    for name, moves in lines.items():
        state = play(game.initial_state(), moves)
        assert state.is_terminal() and state.returns() == (1.0, -1.0), name
    almost = play(game.initial_state(), "a1 a2 b1 b2 c1 c2")
    assert not almost.is_terminal()
