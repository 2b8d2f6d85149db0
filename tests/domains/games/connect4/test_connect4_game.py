"""Connect Four rules: conformance, parsing Pons' move strings, perft computed two ways, and
distinct positions per ply against OEIS A212693 (shared/data/small_game_facts)."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import Game, State, play
from searchlab.domains.games import make
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.connect4 import (
    Connect4,
    Connect4State,
    has_four,
    parse_moves,
    perft_bitboard,
    winning_cells,
)
from searchlab.domains.games.perft import perft


# -- an independent plain-Python Connect Four: a list of columns, bottom first ------------------
class ListBoard:
    """Columns as lists of 0/1 (player), four in a row found by walking the grid."""

    def __init__(self) -> None:
        self.columns: list[list[int]] = [[] for _ in range(7)]
        self.player = 0
        self.winner: int | None = None
        self.stones = 0

    def copy(self) -> ListBoard:
        other = ListBoard()
        other.columns = [list(c) for c in self.columns]
        other.player, other.winner, other.stones = self.player, self.winner, self.stones
        return other

    def cell(self, column: int, row: int) -> int | None:
        if 0 <= column < 7 and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def legal(self) -> list[int]:
        if self.winner is not None:
            return []
        return [c for c in range(7) if len(self.columns[c]) < 6]

    def terminal(self) -> bool:
        return self.winner is not None or self.stones == 42

    def play(self, column: int) -> ListBoard:
        child = self.copy()
        row = len(child.columns[column])
        child.columns[column].append(self.player)
        child.stones += 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while child.cell(c, r) == self.player:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                child.winner = self.player
        child.player = 1 - self.player
        return child


def list_perft(board: ListBoard, depth: int) -> int:
    if depth == 0:
        return 1
    if board.terminal():
        return 0
    moves = board.legal()
    if depth == 1:
        return len(moves)
    return sum(list_perft(board.play(m), depth - 1) for m in moves)


def list_board(moves: str) -> ListBoard:
    board = ListBoard()
    for char in moves:
        board = board.play(int(char) - 1)
    return board


def pons_lines(shared_data: Path, name: str) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().split("\n")
    return [(m, int(s)) for m, s in (line.split() for line in lines if line)]


# -- protocol ----------------------------------------------------------------------------------
def test_registered_and_conforming() -> None:
    game = make("connect4")
    assert isinstance(game, Game)
    assert isinstance(game.initial_state(), State)
    report = assert_conforms(game, num_playouts=60, seed=3)
    assert report.states > 60 * 7


def test_playouts_agree_with_list_board() -> None:
    rng = random.Random(11)
    finished = {"won": 0, "draw": 0}
    for _ in range(200):
        state, board = Connect4().initial_state(), ListBoard()
        while True:
            assert state.legal_actions() == board.legal()
            assert state.is_terminal() == board.terminal()
            assert state.current_player() == board.player
            if state.is_terminal():
                break
            column = rng.choice(board.legal())
            state, board = state.apply(column), board.play(column)
        expected = {None: (0.0, 0.0), 0: (1.0, -1.0), 1: (-1.0, 1.0)}[board.winner]
        assert state.returns() == expected
        finished["won" if board.winner is not None else "draw"] += 1
    assert finished["won"] > 0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=42))
def test_random_sequences_match_list_board(columns: list[int]) -> None:
    state, board = Connect4().initial_state(), ListBoard()
    for column in columns:
        if board.terminal():
            with pytest.raises(IllegalMoveError):
                state.apply(column)
            return
        if column not in board.legal():
            with pytest.raises(IllegalMoveError, match="is full"):
                state.apply(column)
            continue
        state, board = state.apply(column), board.play(column)
        assert state.is_won == (board.winner is not None)
        assert state.legal_actions() == board.legal()
    # threats: exactly the empty cells where the mover's stone would make four
    mine = state.stones(state.current_player())
    threats = winning_cells(mine, state.mask)
    for column in range(7):
        for row in range(6):
            bit = 1 << (7 * column + row)
            if state.mask & bit:
                assert not threats & bit
            else:
                assert bool(threats & bit) == has_four(mine | bit)


def test_pons_example_positions() -> None:
    state = parse_moves("4455")
    assert state.num_moves == 4 and state.current_player() == 0
    assert state.winning_cells() == 0  # two in a row threaten nothing yet
    after = parse_moves("44553")  # X: c1 d1 e1, open on both sides
    assert after.opponent_winning_cells() == (1 << (7 * 1)) | (1 << (7 * 5))  # b1 and f1
    assert after.winning_cells() == 0
    assert parse_moves("4444").legal_actions() == [0, 1, 2, 3, 4, 5, 6]
    assert parse_moves("444444").legal_actions() == [0, 1, 2, 4, 5, 6]
    won = parse_moves("1212121")
    assert won.is_terminal() and won.returns() == (1.0, -1.0) and won.legal_actions() == []
    assert str(won).splitlines()[2] == "X . . . . . ."


def test_key_is_position_not_history() -> None:
    assert parse_moves("1234").key() == parse_moves("3214").key()
    assert parse_moves("1234").key() != parse_moves("2143").key()  # colours swapped
    assert parse_moves("12") == parse_moves("12") and parse_moves("12") != parse_moves("21")


def test_notation_round_trip_and_play() -> None:
    state = Connect4().initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == list("1234567")
    assert play(state, "4 4 5 3").moves == "4453"
    assert state.string_to_action(" 7 ") == 6


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "fragments"),
    [
        ("4445x", ("move 5 'x'", "'4445x'", "not a column")),
        ("448", ("move 3 '8'", "no such column")),
        ("40", ("move 2 '0'", "no such column")),
        ("4 4", ("move 2 ' '", "not a column")),
        ("1111111", ("move 7 '1'", "column 1 is full")),
        ("12121212", ("move 8 '2'", "already over")),
    ],
)
def test_parse_moves_rejects(moves: str, fragments: tuple[str, ...]) -> None:
    with pytest.raises(IllegalMoveError) as raised:
        parse_moves(moves)
    for fragment in fragments:
        assert fragment in str(raised.value)


@pytest.mark.parametrize("text", ["0", "8", "44", "", "x", "-1"])
def test_string_to_action_rejects(text: str) -> None:
    with pytest.raises(IllegalMoveError) as raised:
        Connect4().initial_state().string_to_action(text)
    assert repr(text) in str(raised.value)


def test_apply_rejects_full_column_missing_column_and_finished_game() -> None:
    state = parse_moves("333333")
    with pytest.raises(IllegalMoveError, match="column 3 is full"):
        state.apply(2)
    with pytest.raises(IllegalMoveError, match="no such column"):
        state.apply(7)
    with pytest.raises(IllegalMoveError, match="already over"):
        parse_moves("1212121").apply(3)
    draw = Connect4State(0, 0, "", False)
    # a full board without four in a row: columns filled in an order that never lines up four
    for moves in ("121212", "343434", "565656", "7"):
        for char in moves:
            draw = draw.apply(int(char) - 1)
    assert not draw.is_terminal()


# -- perft -------------------------------------------------------------------------------------
def test_perft_bitboard_matches_list_board_from_the_start() -> None:
    root = Connect4().initial_state()
    for depth in range(8):  # wins appear from ply 7 on
        expected = list_perft(ListBoard(), depth)
        assert perft_bitboard(root, depth) == expected, depth
    assert perft(root, 4) == 7**4


def test_perft_matches_list_board_in_mid_game(shared_data: Path) -> None:
    rng = random.Random(5)
    lines = pons_lines(shared_data, "Test_L3_R1") + pons_lines(shared_data, "Test_L2_R1")
    for moves, _ in rng.sample(lines, 12):
        state, board = parse_moves(moves), list_board(moves)
        for depth in (1, 3, 5):
            expected = list_perft(board, depth)
            assert perft_bitboard(state, depth) == expected, (moves, depth)
            if depth <= 3:
                assert perft(state, depth) == expected, (moves, depth)


def test_perft_bitboard_terminal_and_bad_depth() -> None:
    won = parse_moves("1212121")
    assert perft_bitboard(won, 0) == 1 and perft_bitboard(won, 2) == 0
    with pytest.raises(InvalidParameterError, match="-1"):
        perft_bitboard(won, -1)


def test_distinct_positions_per_ply_match_oeis(shared_data: Path) -> None:
    path = shared_data / "small_game_facts" / "connect4_positions_per_ply.tsv"
    with path.open() as handle:
        expected = {
            int(r["ply"]): int(r["legal_positions"]) for r in csv.DictReader(handle, delimiter="\t")
        }
    level = {0: Connect4().initial_state()}
    for ply in range(8):  # ply 7 has 54,859 positions
        assert len(level) == expected[ply], ply
        next_level: dict[int, Connect4State] = {}
        for state in level.values():
            for action in state.legal_actions():
                child = state.apply(action)
                next_level.setdefault(child.key(), child)
        level = next_level
