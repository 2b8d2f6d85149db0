"""OpenSpiel games searched by searchlab, against OpenSpiel's own minimax; searchlab agents as
OpenSpiel bots in games that OpenSpiel's ``evaluate_bots`` plays.

Ground truth is OpenSpiel's: its rules, its alpha-beta (``open_spiel.python.algorithms.minimax``)
for the value of every position and move, its legal actions for every move a bot makes, and
game theory for the results (tic-tac-toe is a draw: perfect play never loses it; Nim 1,2,3,4 is
a first-player win: its piles' XOR is 4).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from cli_support import assert_one_line_error, run_main
from hypothesis import given, settings
from hypothesis import strategies as st
from needs import require_module
from one_line import raises_one_line

pyspiel: Any = require_module("pyspiel", "openspiel")

from open_spiel.python.algorithms import minimax as spiel_minimax  # noqa: E402

from searchlab.algorithms.adversarial import alphabeta, minimax, solve  # noqa: E402
from searchlab.algorithms.mcts import mcts  # noqa: E402
from searchlab.core.errors import (  # noqa: E402
    IllegalMoveError,
    InvalidParameterError,
    UnknownNameError,
)
from searchlab.core.game import play  # noqa: E402
from searchlab.core.limits import Limits  # noqa: E402
from searchlab.interop.openspiel import OpenSpielGame, OpenSpielState, SearchlabBot  # noqa: E402

NIM = "nim(pile_sizes=1;2;3;4,is_misere=false)"
DOTS = "dots_and_boxes(num_rows=2,num_cols=2)"
SOLVED = {"tic_tac_toe": 0, DOTS: 3, NIM: 0}
"""Games small enough to solve in a moment, and the ply from which every move's value is checked
too (OpenSpiel's alpha-beta, with no table, takes seconds for each move near the start of dots
and boxes). In dots and boxes a player who closes a box moves again: runs of plies by one
player are checked too."""


def _positions(game: OpenSpielGame, count: int, seed: int) -> list[OpenSpielState]:
    """The initial state and ``count`` more: non-terminal positions 1 to 6 plies along seeded
    random games."""
    rng = random.Random(seed)
    found = [game.initial_state()]
    while len(found) <= count:
        state = game.initial_state()
        for _ in range(rng.randint(1, 6)):
            state = state.apply(rng.choice(list(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


def _openspiel_value(game: OpenSpielGame, spiel_state: Any, player: int) -> float:
    """OpenSpiel's alpha-beta value of ``spiel_state`` for ``player``."""
    value, _ = spiel_minimax.alpha_beta_search(
        game.spiel_game, state=spiel_state, maximizing_player_id=player
    )
    return float(value)


@pytest.mark.parametrize("name", SOLVED)
def test_solver_values_match_openspiel_alpha_beta(name: str) -> None:
    game = OpenSpielGame(name)
    for state in _positions(game, 10, seed=len(name)):
        player = state.current_player()
        result = solve(game, state)
        assert result.value == _openspiel_value(game, state.spiel_state, player), str(state)
        assert result.stats["action_values"][result.action] == result.value  # a best move
        if len(state.spiel_state.history()) < SOLVED[name]:
            continue
        for action, value in result.stats["action_values"].items():
            child = state.spiel_state
            child.apply_action(action)
            assert value == _openspiel_value(game, child, player), (str(state), action)


def test_the_solved_values_are_not_all_alike() -> None:
    """The positions above hold wins, draws and losses (a solver that said 0 everywhere would
    not pass the test above on them)."""
    values = {
        solve(game, state).value
        for game in (OpenSpielGame(name) for name in SOLVED)
        for state in _positions(game, 10, seed=len(str(game.spiel_game)))
    }
    assert values == {-1.0, 0.0, 1.0}


def test_alpha_beta_and_minimax_to_the_end_match_openspiel() -> None:
    game = OpenSpielGame("tic_tac_toe")
    for state in _positions(game, 6, seed=3)[1:]:
        expected = _openspiel_value(game, state.spiel_state, state.current_player())
        assert alphabeta(game, state).value == expected, str(state)
        assert minimax(game, state).value == expected, str(state)


def test_mcts_finds_the_winning_moves_openspiel_proves() -> None:
    """Positions where the player to move wins (by OpenSpiel's alpha-beta): searchlab's
    MCTS-Solver proves the win and plays a winning move."""
    game = OpenSpielGame("tic_tac_toe")
    checked = 0
    for state in _positions(game, 40, seed=5):
        player = state.current_player()
        if _openspiel_value(game, state.spiel_state, player) != 1.0:
            continue
        result = mcts(game, state, limits=Limits(simulations=3000), seed=1, solver=True)
        child = state.spiel_state
        child.apply_action(result.action)
        assert result.is_proven and result.value == 1.0, str(state)
        assert _openspiel_value(game, child, player) == 1.0, (str(state), result.action)
        checked += 1
    assert checked >= 5


def test_a_player_moving_again_keeps_the_value() -> None:
    """Dots and boxes: closing a box moves again. The state after such a move has the same
    player to move, and the solver's value there is that player's."""
    game = OpenSpielGame("dots_and_boxes(num_rows=1,num_cols=2)")
    before = play(game.initial_state(), "0 1 2 3 4")
    after = before.apply(5)  # player 1 closes the left box, and moves again
    assert [before.current_player(), after.current_player()] == [1, 1]
    assert "2" in str(after) and "2" not in str(before)  # OpenSpiel marks the box as player 2's
    for state in (before, after):
        assert solve(game, state).value == _openspiel_value(game, state.spiel_state, 1)


LACKS = {
    "kuhn_poker": "chance nodes and imperfect information",
    "matrix_rps": "simultaneous moves and imperfect information",
    "pig": "chance nodes",
    "matching_pennies_3p": "3 players",
    "first_sealed_auction": "chance nodes, imperfect information and general-sum utilities",
}
"""Games of other kinds than searchlab's, and what each has that a searchlab game has not."""


@pytest.mark.parametrize(("name", "lacks"), LACKS.items())
def test_other_kinds_of_game_are_one_line(name: str, lacks: str) -> None:
    kind = "two-player, zero-sum, deterministic, sequential, perfect-information"
    raises_one_line(InvalidParameterError, lambda: OpenSpielGame(name), f"it has {lacks}", kind)


def test_unknown_and_malformed_games_are_one_line(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownNameError, match="OpenSpiel has no game 'tic_tac_tow'"):
        OpenSpielGame("tic_tac_tow")
    for name, reason in (("nim(piles=3)", "piles"), ("hex(board_size=3", "closing bracket")):
        with pytest.raises(InvalidParameterError, match=r"OpenSpiel cannot load '") as caught:
            OpenSpielGame(name)
        assert "\n" not in str(caught.value) and reason in str(caught.value)
    assert capfd.readouterr() == ("", "")  # OpenSpiel's own print of its error is not shown


def test_states_are_immutable_and_moves_checked() -> None:
    game = OpenSpielGame("tic_tac_toe")
    root = game.initial_state()
    child = root.apply(4)
    assert root.legal_actions() == tuple(range(9)) and 4 not in child.legal_actions()
    copy = child.spiel_state
    copy.apply_action(0)  # changing the copy leaves the state alone
    assert 0 in child.legal_actions()
    with pytest.raises(IllegalMoveError, match="illegal action 4"):
        child.apply(4)
    assert child.string_to_action("o(0,0)") == 0 and child.string_to_action("8") == 8
    with pytest.raises(IllegalMoveError, match="illegal move 'x\\(1,1\\)'"):
        child.string_to_action("x(1,1)")  # o moves now; x's name is not one of o's moves
    won = play(root, "0 3 1 4 2")  # x takes the top row
    assert won.is_terminal() and won.returns() == (1.0, -1.0) and won.legal_actions() == ()
    assert won.current_player() == 1  # o would move next


CENTRE_TAKEN = OpenSpielGame("tic_tac_toe").initial_state().apply(4)


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=12) | st.sampled_from(["o(0,0)", "x(1,1)", "4", "-1", " 8 "]))
def test_any_text_is_a_legal_move_or_one_line(text: str) -> None:
    state = CENTRE_TAKEN
    try:
        action = state.string_to_action(text)
    except IllegalMoveError as error:
        assert "\n" not in str(error) and repr(text) in str(error)
    else:
        assert action in state.legal_actions()


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(["nim", "hex", "tic_tac_toe", "go"]), tail=st.text(max_size=16))
def test_any_game_string_is_a_game_or_one_line(name: str, tail: str) -> None:
    try:
        OpenSpielGame(f"{name}({tail}")
    except (UnknownNameError, InvalidParameterError) as error:
        assert "\n" not in str(error)


def test_transposed_positions_share_a_key_unless_history_is_asked() -> None:
    by_string = OpenSpielGame("tic_tac_toe")
    by_history = OpenSpielGame("tic_tac_toe", key="history")
    solved = {}
    for game, same in ((by_string, True), (by_history, False)):
        one = play(game.initial_state(), "0 4 8")
        other = play(game.initial_state(), "8 4 0")
        assert (one.key() == other.key()) is same
        solved[game.key_kind] = solve(game, play(game.initial_state(), "0 4"))
    assert solved["string"].value == solved["history"].value == 0.0
    assert solved["string"].stats["positions"] < solved["history"].stats["positions"]


class _Checked(pyspiel.Bot):  # type: ignore[misc]
    """A bot that checks each of another bot's actions against OpenSpiel's legal actions, and
    that the state it was shown did not change."""

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.moves = 0

    def step(self, state: Any) -> int:
        legal, before = state.legal_actions(), str(state)
        action = self.bot.step(state)
        assert action in legal, f"illegal {action} in {state}"
        assert str(state) == before
        self.moves += 1
        return int(action)

    def restart_at(self, state: Any) -> None:
        self.bot.restart_at(state)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        self.bot.inform_action(state, player_id, action)


def _play(name: str, bots: list[Any], seed: int) -> list[float]:
    checked = [_Checked(bot) for bot in bots]
    game = pyspiel.load_game(name)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), checked, seed)
    assert all(bot.moves > 0 for bot in checked) and sum(returns) == 0
    return list(returns)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_searchlab_bot_never_loses_tic_tac_toe(seat: int) -> None:
    for seed in range(3):
        ours = SearchlabBot("tic_tac_toe", "alphabeta:depth=9")
        bots = [pyspiel.make_uniform_random_bot(1 - seat, seed)] * 2
        bots[seat] = ours
        assert _play("tic_tac_toe", bots, seed)[seat] >= 0


def test_a_searchlab_bot_wins_nim_against_openspiel_mcts() -> None:
    """Nim 1,2,3,4 (normal play) is a first-player win: perfect play wins it whatever the
    opponent, here OpenSpiel's own MCTS."""
    game = pyspiel.load_game(NIM)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 2)
    theirs = pyspiel.MCTSBot(game, evaluator, 1.4, 500, 100, True, 2, False)
    ours = SearchlabBot(NIM, "alphabeta:depth=10")
    assert _play(NIM, [ours, theirs], 0) == [1.0, -1.0]


@pytest.mark.parametrize("seat", [0, 1])
def test_searchlab_mcts_beats_random_at_connect_four(seat: int) -> None:
    ours = SearchlabBot("connect_four", "mcts:simulations=300", seed=seat)
    bots = [pyspiel.make_uniform_random_bot(1 - seat, 11)] * 2
    bots[seat] = ours
    assert _play("connect_four", bots, 11)[seat] == 1.0


def test_a_bot_refuses_a_state_of_another_game() -> None:
    bot = SearchlabBot("tic_tac_toe", "random", seed=1)
    with pytest.raises(InvalidParameterError, match=r"connect_four.*is not a state of tic_tac_toe"):
        bot.step(pyspiel.load_game("connect_four").new_initial_state())


def test_the_command_line_solves_an_openspiel_game(capsys: pytest.CaptureFixture[str]) -> None:
    game = "searchlab.interop.openspiel:OpenSpielGame"
    code, out, err = run_main(capsys, "solve", game, "-p", "game=tic_tac_toe", "0 4", "--json")
    assert code == 0, err
    theirs = spiel_minimax.alpha_beta_search(
        pyspiel.load_game("tic_tac_toe"),
        state=OpenSpielGame().initial_state().apply(0).apply(4).spiel_state,
    )[0]
    assert json.loads(out)["value"] == theirs
    code, out, err = run_main(capsys, "solve", game, "-p", "game=kuhn_poker")
    assert_one_line_error(code, err, "chance nodes and imperfect information")
