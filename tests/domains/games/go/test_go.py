"""Go's reference rules, one hand-built position per rule: captures, suicide, ko, superko
(positional, situational, simple), passes and the end of the game, handicap placement,
Tromp-Taylor scoring and komi, notation, the text board, playout moves, bad input; and the
conformance harness on the registered sizes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import play
from searchlab.domains.games import make
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.go import (
    BLACK,
    EMPTY,
    WHITE,
    Go,
    GoState,
    handicap_points,
    max_handicap,
    point_to_vertex,
    tiny_go,
    vertex_to_point,
)
from searchlab.domains.games.go.zobrist import SIDE_TO_MOVE_KEY, board_hash


def at(state: GoState, vertex: str) -> int:
    """What is on ``vertex``: EMPTY, BLACK or WHITE."""
    return state.board[vertex_to_point(vertex, state.game.size)]


def v(state: GoState, vertex: str) -> int:
    return vertex_to_point(vertex, state.game.size)


# -- conformance --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "max_moves", "playouts"), [(5, None, 12), (9, None, 4), (13, 120, 2), (19, 60, 1)]
)
def test_registered_go_conforms(size: int, max_moves: int | None, playouts: int) -> None:
    game = make("go", size=size, max_moves=max_moves)
    report = assert_conforms(game, num_playouts=playouts, seed=size)
    assert report.states > playouts


@pytest.mark.parametrize("superko", ["situational", "simple"])
def test_other_superko_rules_conform(superko: str) -> None:
    assert_conforms(Go(5, superko=superko), num_playouts=8, seed=3)  # type: ignore[arg-type]


def test_game_info_and_parameters() -> None:
    game = Go()
    assert (game.size, game.komi, game.superko, game.handicap, game.scoring) == (
        9,
        7.5,
        "positional",
        0,
        "win_loss",
    )
    assert game.info.name == "go"
    assert game.max_moves == game.info.max_game_length == 3 * 81
    assert game.pass_action == game.PASS == 81
    assert game.info.max_utility == 1.0
    assert Go(7, komi=-2.5, scoring="area").info.max_utility == 49 + 2.5
    assert make("go", size=13, komi="6.5", max_moves=100) == Go(13, 6.5, max_moves=100)


# -- captures and suicide -----------------------------------------------------------------------
def test_a_stone_without_liberties_is_captured() -> None:
    state = play(Go(5).initial_state(), "A2 A1 B1")
    assert at(state, "A1") == EMPTY and at(state, "B1") == BLACK
    assert state.captures == (1, 0)


def test_a_chain_of_stones_is_captured_at_once() -> None:
    # white B2 C2 D2 (a chain), black around it but for E2: black E2 takes three stones
    state = Go(5).position(
        black=["A2", "B1", "C1", "D1", "B3", "C3", "D3"], white=["B2", "C2", "D2"]
    )
    after = state.apply(v(state, "E2"))
    assert [at(after, x) for x in ("B2", "C2", "D2")] == [EMPTY] * 3
    assert after.captures == (3, 0)
    assert after.ko_point == -1  # three stones taken: not a ko
    assert after.to_move == 1 and after.last_move == v(state, "E2")


def test_captures_count_for_white_too() -> None:
    state = Go(5).position(black=["A1"], white=["B1"], to_move="white")
    after = state.apply(v(state, "A2"))
    assert at(after, "A1") == EMPTY and after.captures == (0, 1)


def test_suicide_is_illegal_single_and_multi_stone() -> None:
    state = Go(5).position(black=["B1", "A2"], white=["D1"], to_move="white")
    assert state.illegal_reason(v(state, "A1")) == "suicide"
    # two white stones A1 B1 would have no liberty after W plays A1 (C1, B2, A2 black)
    state = Go(5).position(black=["A2", "B2", "C1"], white=["B1", "E5"], to_move="white")
    assert state.illegal_reason(v(state, "A1")) == "suicide"
    assert v(state, "A1") not in state.legal_actions()
    with pytest.raises(IllegalMoveError, match=r"^illegal move A1 for white: suicide$"):
        state.apply(v(state, "A1"))


def test_filling_the_last_liberty_is_legal_when_it_captures() -> None:
    # black A1 has no empty neighbour, but it takes the white stones A2 and B1, whose only
    # liberty it was
    state = Go(5).position(black=["C1", "B2", "A3"], white=["A2", "B1"])
    assert state.illegal_reason(v(state, "A1")) is None
    after = state.apply(v(state, "A1"))
    assert at(after, "A2") == EMPTY and at(after, "B1") == EMPTY and after.captures == (2, 0)


# -- ko and superko -----------------------------------------------------------------------------
KO = {"black": ["A1", "B2"], "white": ["B1", "C2", "D1"]}  # black C1 takes B1: a ko


@pytest.mark.parametrize("superko", ["positional", "situational", "simple"])
def test_basic_ko_forbids_retaking_at_once(superko: str) -> None:
    state = Go(5, superko=superko).position(**KO)  # type: ignore[arg-type]
    taken = state.apply(v(state, "C1"))
    assert taken.ko_point == v(state, "B1")
    assert taken.illegal_reason(v(state, "B1")) == "ko"
    with pytest.raises(IllegalMoveError, match=r"illegal move B1 for white: ko"):
        taken.apply(v(state, "B1"))
    # after a move elsewhere (a ko threat and its answer) the retake is legal
    later = play(taken, "E5 E4")
    assert later.ko_point == -1 and later.illegal_reason(v(state, "B1")) is None
    assert later.apply(v(state, "B1")).captures == (1, 1)


def test_a_pass_clears_the_ko_point() -> None:
    taken = Go(5, superko="simple").position(**KO).apply(vertex_to_point("C1", 5))
    assert taken.apply(taken.game.pass_action).ko_point == -1


def test_only_a_lone_stone_taking_one_stone_makes_a_ko() -> None:
    state = Go(5).position(black=["A2", "B2", "C2", "D1"], white=["A1", "C1"])
    after = state.apply(v(state, "B1"))  # takes A1 and C1: two stones
    assert after.captures == (2, 0) and after.ko_point == -1
    state = Go(5).position(black=["A2", "B2", "C1"], white=["B1"])
    after = state.apply(v(state, "A1"))  # takes B1, but A1 joins A2: no ko
    assert after.captures == (1, 0) and after.ko_point == -1


# a double ko on the 5x5 board: K1 on the first line (black C1 takes B1, white B1 takes C1),
# K2 on the fifth (white B5 takes C5, black C5 takes B5)
DOUBLE_KO = {
    "black": ["A1", "B2", "C5", "A5", "B4"],
    "white": ["B1", "C2", "D1", "C4", "D5"],
}


def test_positional_superko_forbids_a_repeated_board_whoever_moves() -> None:
    state = Go(5, superko="positional").position(**DOUBLE_KO)
    # each move takes a ko, none retakes at once; black C5 recreates the start board (with
    # white, not black, to move)
    cycle = play(state, "C1 B5 pass B1")
    assert cycle.ko_point == v(state, "C1")  # the basic ko is elsewhere
    assert cycle.illegal_reason(v(state, "C5")) == "superko"
    with pytest.raises(IllegalMoveError, match=r"C5 for black: superko .*positional"):
        cycle.apply(v(state, "C5"))


def test_situational_superko_allows_the_board_with_the_other_player_to_move() -> None:
    state = Go(5, superko="situational").position(**DOUBLE_KO)
    cycle = play(state, "C1 B5 pass B1")
    again = cycle.apply(v(state, "C5"))
    assert again.board == state.board and again.to_move != state.to_move
    # ... but not with the same player to move
    cycle = play(state, "pass B5 C1 pass C5")
    assert cycle.illegal_reason(v(state, "B1")) == "superko"
    positional = play(Go(5).position(**DOUBLE_KO), "pass B5 C1 pass C5")
    assert positional.illegal_reason(v(state, "B1")) == "superko"


def test_simple_ko_lets_the_cycle_repeat() -> None:
    state = Go(5, superko="simple").position(**DOUBLE_KO)
    cycle = play(state, "pass B5 C1 pass C5 B1")
    # the same board with the same player to move again: legal under simple ko
    assert cycle.board == state.board and cycle.to_move == state.to_move


def test_history_holds_every_position_seen() -> None:
    state = play(Go(5).initial_state(), "C3 D3 pass B2")
    boards = {board_hash(bytes(25))}
    replay = Go(5).initial_state()
    for action in state.moves:
        replay = replay.apply(action)
        boards.add(board_hash(replay.board))
    assert state.history == frozenset(boards)
    assert state.board_hash == board_hash(state.board)
    situational = play(Go(5, superko="situational").initial_state(), "C3 pass")
    assert situational.history == {
        0,
        board_hash(situational.board) ^ SIDE_TO_MOVE_KEY,  # after C3, white to move
        board_hash(situational.board),  # after the pass, black to move
    }


def test_a_state_built_without_its_hash_computes_it() -> None:
    state = play(Go(5).initial_state(), "C3 D3")
    rebuilt = GoState(
        game=state.game,
        board=state.board,
        to_move=state.to_move,
        ko_point=state.ko_point,
        passes=state.passes,
        moves=state.moves,
        captures=state.captures,
        last_move=state.last_move,
        history=state.history,
    )
    assert rebuilt.board_hash == board_hash(state.board) == state.board_hash
    assert rebuilt == state and rebuilt.legal_actions() == state.legal_actions()


# -- passes and the end -------------------------------------------------------------------------
def test_two_consecutive_passes_end_the_game() -> None:
    game = Go(5)
    once = play(game.initial_state(), "C3 pass")
    assert once.passes == 1 and not once.is_terminal()
    assert play(once, "D4").passes == 0  # a move resets the count
    over = play(once, "pass")
    assert over.passes == 2 and over.is_terminal()
    assert over.legal_actions() == [] and over.playout_actions() == []
    assert over.illegal_reason(game.pass_action) == "game over"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.apply(game.pass_action)
    assert over.returns() == (1.0, -1.0)  # black owns all 25 points, komi 7.5


def test_pass_is_always_legal_and_last_in_the_list() -> None:
    state = tiny_go(1).initial_state()
    assert state.legal_actions() == [1]  # the one point is suicide
    state = Go(5).initial_state()
    assert state.legal_actions() == [*range(25), 25]
    assert state.playout_actions() == list(range(25))  # no pass while there are moves


def test_max_moves_ends_the_game_and_scores_it_as_it_stands() -> None:
    game = Go(5, komi=0.5, max_moves=3, scoring="area")
    state = play(game.initial_state(), "C3 D3")
    assert not state.is_terminal()
    state = play(state, "pass")
    assert state.is_terminal() and state.passes == 1
    assert state.returns() == (-0.5, 0.5)  # one stone each, dame elsewhere, komi 0.5
    assert Go(5).max_moves == 75 and Go(19).max_moves == 1083


# -- handicap -----------------------------------------------------------------------------------
# GTP v2 fixed_handicap on 19x19 (the standard star points)
GTP_19 = {
    2: "D4 Q16",
    3: "D4 D16 Q16",
    4: "D4 Q4 D16 Q16",
    5: "D4 Q4 K10 D16 Q16",
    6: "D4 Q4 D10 Q10 D16 Q16",
    7: "D4 Q4 D10 K10 Q10 D16 Q16",
    8: "D4 K4 Q4 D10 Q10 D16 K16 Q16",
    9: "D4 K4 Q4 D10 K10 Q10 D16 K16 Q16",
}


@pytest.mark.parametrize("stones", range(2, 10))
def test_handicap_stones_on_gtp_fixed_points_and_white_first(stones: int) -> None:
    game = Go(19, komi=0.5, handicap=stones)
    state = game.initial_state()
    expected = {vertex_to_point(x, 19) for x in GTP_19[stones].split()}
    assert {p for p in range(361) if state.board[p] == BLACK} == expected
    assert state.board.count(WHITE) == 0
    assert state.to_move == 1 and state.current_player() == 1
    assert state.moves == () and state.last_move is None
    assert state.history == {board_hash(state.board)}


def test_handicap_on_smaller_boards() -> None:
    def vertices(size: int, stones: int) -> list[str]:
        return sorted(point_to_vertex(p, size) for p in handicap_points(size, stones))

    assert vertices(9, 9) == sorted(
        ["C3", "E3", "G3", "C5", "E5", "G5", "C7", "E7", "G7"]
    )  # 3rd line
    assert vertices(13, 5) == sorted(["D4", "K4", "G7", "D10", "K10"])  # 4th line from 12x12
    assert vertices(7, 4) == sorted(["C3", "E3", "C5", "E5"])
    assert [max_handicap(s) for s in range(5, 20)] == [0, 0, 4, 4, 9, 4, 9, 4, 9, 4, 9, 4, 9, 4, 9]
    assert Go(9, handicap=0).initial_state().to_move == 0


@pytest.mark.parametrize(
    ("size", "stones"), [(5, 2), (6, 2), (7, 5), (10, 5), (19, 1), (19, 10), (9, -1)]
)
def test_impossible_handicaps_are_one_clear_error(size: int, stones: int) -> None:
    with pytest.raises(InvalidParameterError) as info:
        Go(size, handicap=stones)
    message = str(info.value)
    assert "\n" not in message and "handicap" in message and repr(stones) in message


# -- scoring ------------------------------------------------------------------------------------
def test_tromp_taylor_area_counts_stones_and_surrounded_empty_points() -> None:
    game = Go(5, komi=0.0, scoring="area")
    assert game.initial_state().area_score() == 0.0  # no stones: nobody's area
    lone = game.position(black=["C3"])
    assert lone.area_score() == 25.0  # every empty point reaches only black
    # a black wall on column C and a white stone on D3: columns A, B reach only black (5
    # stones + 10 points); the empty points of D, E reach both colours: white has its stone
    wall = game.position(black=["C1", "C2", "C3", "C4", "C5"], white=["D3"])
    assert wall.area_score() == 15 - 1


def test_dame_and_seki_like_regions_count_for_nobody() -> None:
    game = Go(5, komi=0.0, scoring="area")
    # black column B, white column D; column C empty touches both: dame
    state = game.position(
        black=["B1", "B2", "B3", "B4", "B5"], white=["D1", "D2", "D3", "D4", "D5"]
    )
    assert state.area_score() == 0.0  # 5 stones + column A against 5 stones + column E
    # shared liberties, as in seki: a black stone on C3 splits column C into C1-C2 and
    # C4-C5, each still touching both colours: the stone counts, the points do not
    seki = game.position(
        black=["B1", "B2", "B3", "B4", "B5", "C3"], white=["D1", "D2", "D3", "D4", "D5"]
    )
    assert seki.area_score() == 1.0


def test_komi_and_the_returns() -> None:
    board = {"black": ["C1", "C2", "C3", "C4", "C5"], "white": ["D1", "D2", "D3", "D4", "D5"]}

    # black area 15 (A, B, C), white 10 (D, E)
    def ended(**params: object) -> GoState:
        state = Go(5, **params).position(**board)  # type: ignore[arg-type]
        return play(state, "pass pass")

    assert ended(komi=4.5).returns() == (1.0, -1.0)
    assert ended(komi=5.5).returns() == (-1.0, 1.0)
    assert ended(komi=5).returns() == (0.0, 0.0)  # a tie with an integer komi
    assert ended(komi=4.5, scoring="area").returns() == (0.5, -0.5)
    assert ended(komi=-3, scoring="area").returns() == (8.0, -8.0)
    assert ended(komi=5.5).result() == "W+0.5" and ended(komi=5).result() == "0"
    assert ended(komi=0).result() == "B+5"
    # before the end: zeros
    assert Go(5).position(**board).returns() == (0.0, 0.0)


@pytest.mark.parametrize("komi", [math.nan, math.inf, -math.inf, 7.3, 0.25, "abc", True, None, 400])
def test_bad_komi_is_one_clear_error(komi: object) -> None:
    with pytest.raises(InvalidParameterError) as info:
        Go(9, komi=komi)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message and "komi" in message and "0.5" in message


# -- notation -----------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [1, 2, 4, 5, 9, 13, 19])
def test_every_point_round_trips(size: int) -> None:
    for p in range(size * size + 1):
        text = point_to_vertex(p, size)
        assert vertex_to_point(text, size) == p
        assert vertex_to_point(text.lower(), size) == p
    assert vertex_to_point("PASS", size) == size * size


def test_gtp_vertices() -> None:
    assert point_to_vertex(0, 19) == "A1"
    assert point_to_vertex(18, 19) == "T1"
    assert point_to_vertex(360, 19) == "T19"
    assert point_to_vertex(7, 9) == "H1" and point_to_vertex(8, 9) == "J1"  # no I
    assert vertex_to_point("D4", 9) == 3 * 9 + 3
    assert vertex_to_point(" k10 ", 19) == 9 * 19 + 9
    state = Go(9).initial_state()
    assert state.action_to_string(81) == "pass" and state.string_to_action("Pass") == 81


@pytest.mark.parametrize(
    "text",
    [
        "Z9",
        "I3",
        "i3",
        "A0",
        "A10",
        "K1",
        "",
        "D",
        "4D",
        "pass1",
        "D4x",
        "A\u00b2",
        "A\u0661",
        "A01",
    ],
)
def test_bad_vertices_are_one_clear_error(text: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        Go(9).initial_state().string_to_action(text)
    message = str(info.value)
    assert "\n" not in message and repr(text) in message


def test_string_to_action_says_why_a_move_is_illegal() -> None:
    state = play(Go(9).initial_state(), "E5")
    with pytest.raises(IllegalMoveError, match=r"^illegal move E5 for white: occupied$"):
        state.string_to_action("e5")


@pytest.mark.parametrize("action", [-1, 82, 1000, 2.0, "D4", None, True])
def test_off_board_actions(action: object) -> None:
    state = Go(9).initial_state()
    assert state.illegal_reason(action) == "off the board"  # type: ignore[arg-type]
    assert not state.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"off the board \(points 0\.\.80, pass 81\)"):
        state.apply(action)  # type: ignore[arg-type]


def test_numpy_integers_are_actions_too() -> None:
    state = Go(5).initial_state()
    child = state.apply(np.int64(12))
    assert child.moves == (12,) and type(child.moves[0]) is int
    assert state.action_to_string(np.int32(25)) == "pass" and state.is_legal(np.int16(3))
    with pytest.raises(IllegalMoveError, match=r"^illegal move C3 for white: occupied$"):
        child.apply(np.int64(12))


# -- the text board -----------------------------------------------------------------------------
def test_text_board_shows_last_move_captures_and_ko() -> None:
    taken = Go(5).position(**KO).apply(vertex_to_point("C1", 5))
    text = str(taken)
    rows = text.splitlines()
    assert rows[0] == rows[6] == "   A B C D E"
    assert rows[5] == " 1 X *(X)O .  1"
    assert "white (O) to move" in text and "captures: black 1, white 0" in text
    assert "last move: black C1" in text and "ko: white may not retake at B1 (*)" in text
    over = play(taken, "pass pass")
    assert "game over (two passes)" in str(over) and over.result() in str(over)
    assert "last move: black pass" in str(over)


def test_last_move_on_the_right_edge_keeps_the_columns() -> None:
    state = play(Go(5).initial_state(), "E3")
    row = str(state).splitlines()[3]
    assert row == " 3 . . . .(X) 3"


# -- playout moves ------------------------------------------------------------------------------
def test_playout_moves_avoid_own_eyes_but_not_false_ones() -> None:
    game = Go(7)
    # a black eye at B2 (diagonals A1 A3 C1 C3: one white stone allowed in the middle)
    state = game.position(black=["B1", "A2", "C2", "B3"], white=["C3", "G7"])
    assert v(state, "B2") in state.legal_actions()
    assert v(state, "B2") not in state.playout_actions()
    # two opponent diagonals: a false eye, considered
    state = game.position(black=["B1", "A2", "C2", "B3"], white=["C3", "A3", "G7"])
    assert v(state, "B2") in state.playout_actions()
    # on the edge, one opponent diagonal is enough to make it false
    edge = game.position(black=["A2", "B1", "C2", "D1"], white=["D2"])  # eye at C1? no: B2
    assert v(edge, "C1") in edge.playout_actions()  # C1's neighbours: B1 D1 C2 all black
    edge = game.position(black=["A2", "B1", "C2", "D1"], white=["G7"])
    assert v(edge, "C1") not in edge.playout_actions()
    # the opponent may play there (it is not white's eye) when legal
    white = game.position(black=["B1", "A2", "C2", "B3"], white=["G7"], to_move="white")
    assert white.illegal_reason(v(white, "B2")) == "suicide"
    assert v(white, "B2") not in white.playout_actions()


def test_playout_passes_when_only_eyes_are_left() -> None:
    game = Go(5)
    # black fills the board but for two eyes at A1 and E5
    stones = [p for p in range(25) if p not in (0, 24)]
    state = game.position(black=stones)
    assert state.playout_actions() == [game.pass_action]
    assert state.legal_actions() == [0, 24, 25]


# -- positions and bad input --------------------------------------------------------------------
def test_position_errors_are_one_line() -> None:
    game = Go(5)
    with pytest.raises(InvalidStateError, match="C3 is given twice"):
        game.position(black=["C3"], white=[12])
    with pytest.raises(InvalidStateError, match="white chain at A1 has no liberty"):
        game.position(black=["A2", "B1"], white=["A1"])
    with pytest.raises(InvalidStateError, match="bad player to move 'red'"):
        game.position(to_move="red")
    with pytest.raises(InvalidStateError, match="ko point C3 is not empty"):
        game.position(black=["C3"], ko_point="C3")
    with pytest.raises(InvalidStateError, match="25 is not a point"):
        game.position(black=[25])
    with pytest.raises(IllegalMoveError, match="'Z9'"):
        game.position(black=["Z9"])


@pytest.mark.parametrize("size", [0, 4, 20, -1, 9.0, "nine", None])
def test_board_size_out_of_range(size: object) -> None:
    with pytest.raises(
        InvalidParameterError, match=r"^go: size must be an integer in 5\.\.19, got "
    ):
        Go(size)  # type: ignore[arg-type]


def test_tiny_boards_only_through_tiny_go() -> None:
    assert tiny_go(3).size == 3
    with pytest.raises(InvalidParameterError, match=r"size must be an integer in 1\.\.4, got 5"):
        tiny_go(5)
    with pytest.raises(InvalidParameterError, match=r"handicap"):
        Go(5, handicap=2)


def test_unknown_rule_names_are_one_clear_error() -> None:
    with pytest.raises(InvalidParameterError, match=r"superko must be one of .*'japanese'"):
        Go(9, superko="japanese")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"scoring must be one of .*'territory'"):
        make("go", scoring="territory")
    with pytest.raises(InvalidParameterError, match=r"max_moves must be an integer"):
        Go(9, max_moves=0)


def test_states_are_immutable_values() -> None:
    state = play(Go(5).initial_state(), "C3 D3")
    before = (state.board, state.key(), state.history)
    state.apply(v(state, "B2"))
    assert (state.board, state.key(), state.history) == before
    with pytest.raises(AttributeError):
        state.to_move = 0  # type: ignore[misc]
    assert play(Go(5).initial_state(), "C3 D3") == state
