"""Othello: published perft counts, the conformance harness, and the compiled move generator
against a plain-Python one written here from the rules."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import numpy as np
import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import play
from searchlab.domains.games import make
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.othello import PASS, Othello, OthelloState, parse_square
from searchlab.domains.games.othello.bits import flips, legal_moves, perft_bits
from searchlab.domains.games.perft import perft, perft_mismatch_report

DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


# -- a plain-Python reference, straight from the rules ------------------------------------------
def reference_flips(mine: int, theirs: int, square: int) -> int:
    """Discs turned by a disc on ``square``: walk each direction over opponent discs."""
    if (mine | theirs) >> square & 1:
        return 0
    rank, file = divmod(square, 8)
    turned = 0
    for df, dr in DIRECTIONS:
        run = 0
        f, r = file + df, rank + dr
        while 0 <= f < 8 and 0 <= r < 8 and theirs >> (8 * r + f) & 1:
            run |= 1 << (8 * r + f)
            f, r = f + df, r + dr
        if run and 0 <= f < 8 and 0 <= r < 8 and mine >> (8 * r + f) & 1:
            turned |= run
    return turned


def reference_moves(mine: int, theirs: int) -> int:
    return sum(1 << s for s in range(64) if reference_flips(mine, theirs, s))


def published_perft(shared_data: Path) -> dict[int, int]:
    path = shared_data / "small_game_facts" / "othello_perft.tsv"
    with path.open() as handle:
        return {
            int(row["ply"]): int(row["games"]) for row in csv.DictReader(handle, delimiter="\t")
        }


def compiled_divide(state: OthelloState, depth: int) -> str:
    parts = []
    for action in state.legal_actions():
        child = state.apply(action)
        mine, theirs = child.mover_bits()
        count = perft_bits(np.uint64(mine), np.uint64(theirs), depth - 1)
        parts.append(f"{state.action_to_string(action)} {count}")
    return "; ".join(parts)


# -- perft ----------------------------------------------------------------------------------------
def test_perft_through_the_state_matches_oeis_a124004(shared_data: Path) -> None:
    counts = published_perft(shared_data)
    root = Othello().initial_state()
    for depth in range(0, 6):
        report = perft_mismatch_report(root, depth, counts[depth])
        assert report is None, report


def test_compiled_perft_matches_oeis_a124004_to_ply_10(shared_data: Path) -> None:
    counts = published_perft(shared_data)
    root = Othello().initial_state()
    black, white = root.mover_bits()
    for depth in range(0, 11):
        got = perft_bits(np.uint64(black), np.uint64(white), depth)
        assert got == counts[depth], (
            f"perft({depth}) = {got}, expected {counts[depth]}; divide: "
            f"{compiled_divide(root, depth)}"
        )


def test_compiled_perft_equals_state_perft_after_a_pass() -> None:
    # a position where X must pass: the pass is a ply of its own in both counts
    state = pass_position()
    assert state.legal_actions() == (PASS,)
    mine, theirs = state.mover_bits()
    for depth in range(1, 5):
        assert perft_bits(np.uint64(mine), np.uint64(theirs), depth) == perft(state, depth)


# -- the protocol ----------------------------------------------------------------------------
def test_conformance_harness() -> None:
    report = assert_conforms(make("othello"), num_playouts=30, seed=3)
    assert report.states > 30 * 50
    assert_conforms(Othello(scoring="win_loss"), num_playouts=5, seed=4)


def test_start_position_and_notation() -> None:
    state = Othello().initial_state()
    assert state.board_string()[27:29] == "OX" and state.board_string()[35:37] == "XO"
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["d3", "c4", "f5", "e6"]
    assert parse_square("A1") == 0 and parse_square("h1") == 7 and parse_square("a8") == 56
    assert parse_square("pass") == parse_square("PS") == PASS
    after = play(state, "f5 d6 c3 d3 c4")
    assert after.current_player() == 1 and sum(after.discs()) == 9  # 4 + one disc a move


def pass_position() -> OthelloState:
    """O on a1, X on b1, X to move: X has no move, O has one (c1, turning b1)."""
    board = ["-"] * 64
    board[0], board[1] = "O", "X"
    return Othello().state_from_board("".join(board), "X")


def test_pass_is_forced_and_counts_as_an_action() -> None:
    state = pass_position()
    assert reference_moves(0b10, 0b1) == 0  # X cannot move
    assert state.legal_actions() == (PASS,)
    assert state.string_to_action("pass") == PASS
    with pytest.raises(IllegalMoveError, match="must pass"):
        state.string_to_action("c1")
    after = state.apply(PASS)
    assert after.current_player() == 1 and after.legal_actions() == (2,)  # O plays c1
    final = after.apply(2)
    assert final.is_terminal() and final.legal_actions() == ()
    # O has 3 discs, X none, 61 empties go to the winner: 64-0 for O
    assert final.returns() == (-64.0, 64.0)
    assert Othello(scoring="win_loss").state_from_board(final.board_string(), "X").returns() == (
        -1.0,
        1.0,
    )
    with pytest.raises(IllegalMoveError, match="game is over"):
        final.apply(PASS)


def test_pass_is_illegal_when_a_move_exists() -> None:
    state = Othello().initial_state()
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        state.apply(PASS)
    with pytest.raises(IllegalMoveError, match="'PS'"):
        state.string_to_action("PS")


@pytest.mark.parametrize(
    ("text", "message"),
    [("z9", "unknown move 'z9'"), ("d4", "d4 is taken"), ("a1", "a1 flips no disc"), ("", "''")],
)
def test_bad_moves(text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        Othello().initial_state().string_to_action(text)


@pytest.mark.parametrize("action", [-1, 65, 3.5, True])
def test_bad_actions(action: object) -> None:
    with pytest.raises(IllegalMoveError, match="illegal action"):
        Othello().initial_state().apply(action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("board", "side", "message"),
    [
        ("-" * 63, "X", "expected 64 characters"),
        ("-" * 63 + "?", "X", "character '\\?' at h8"),
        ("-" * 64, "Z", "bad side to move 'Z'"),
    ],
)
def test_bad_boards(board: str, side: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        Othello().state_from_board(board, side)


def test_bad_scoring() -> None:
    with pytest.raises(InvalidParameterError, match="'points'"):
        make("othello", scoring="points")


# -- compiled vs reference move generation --------------------------------------------------------
def test_compiled_moves_and_flips_equal_the_reference_on_random_playouts() -> None:
    rng = random.Random(2026)
    positions = passes = 0
    for _ in range(60):
        state = Othello().initial_state()
        while not state.is_terminal():
            mine, theirs = state.mover_bits()
            expected = reference_moves(mine, theirs)
            assert int(legal_moves(np.uint64(mine), np.uint64(theirs))) == expected, repr(state)
            for square in range(64):
                if expected >> square & 1:
                    got = int(flips(np.uint64(1 << square), np.uint64(mine), np.uint64(theirs)))
                    assert got == reference_flips(mine, theirs, square), (repr(state), square)
            if not expected:
                assert state.legal_actions() == (PASS,)
                passes += 1
            positions += 1
            state = state.apply(rng.choice(state.legal_actions()))
        # the end: neither side has a move, by the reference too
        mine, theirs = state.mover_bits()
        assert reference_moves(mine, theirs) == reference_moves(theirs, mine) == 0
    assert positions > 3000 and passes > 0


def test_edge_wrapping_moves() -> None:
    # X on h1 and O on a2: shifting h1 east wraps to a2 in a naive shift; no move may appear
    mine, theirs = 1 << 7, (1 << 8) | (1 << 9)
    assert int(legal_moves(np.uint64(mine), np.uint64(theirs))) == reference_moves(mine, theirs)
    rng = random.Random(7)
    for _ in range(2000):
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(64)]
        mine = sum(1 << i for i, c in enumerate(cells) if c == 1)
        theirs = sum(1 << i for i, c in enumerate(cells) if c == 2)
        assert int(legal_moves(np.uint64(mine), np.uint64(theirs))) == reference_moves(mine, theirs)
