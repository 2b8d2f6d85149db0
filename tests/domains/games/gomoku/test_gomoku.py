"""Gomoku (free-style): conformance, win detection against a brute-force scan of the whole
board, perft against counts derived by hand and a naive enumerator, agreement with the m,n,k
game with k = 5, the candidate variant, notation and bad input."""

from __future__ import annotations

import random
from math import perm

import pytest

from searchlab.cli import main as cli_main
from searchlab.core.errors import IllegalMoveError, InvalidParameterError, InvalidStateError
from searchlab.core.game import play
from searchlab.domains.games import make
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.gomoku import Gomoku
from searchlab.domains.games.perft import perft
from searchlab.domains.games.tictactoe import MNKGame

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# --- independent oracles: a plain grid and whole-board scans -----------------------------------


def grid_of(moves: list[int], size: int) -> list[list[int]]:
    """grid[row][column]: 0 empty, 1 black (even plies), 2 white (odd plies)."""
    grid = [[0] * size for _ in range(size)]
    for ply, action in enumerate(moves):
        row, column = divmod(action, size)
        assert grid[row][column] == 0
        grid[row][column] = 1 + ply % 2
    return grid


def fives(grid: list[list[int]]) -> set[tuple[int, int]]:
    """{(colour, direction index)} of every run of five or more, by scanning every cell."""
    size, found = len(grid), set()
    for row in range(size):
        for column in range(size):
            colour = grid[row][column]
            if not colour:
                continue
            for index, (dc, dr) in enumerate(DIRECTIONS):
                run, r, c = 0, row, column
                while 0 <= r < size and 0 <= c < size and grid[r][c] == colour:
                    run, r, c = run + 1, r + dr, c + dc
                if run >= 5:
                    found.add((colour, index))
    return found


def random_game(game: Gomoku, rng: random.Random) -> list[int]:
    state, moves = game.initial_state(), []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(action)
        state = state.apply(action)
    return moves


# --- conformance -------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "playouts"), [(15, 3), (9, 10), (5, 20)])
def test_conformance(size: int, playouts: int) -> None:
    report = assert_conforms(Gomoku(size=size), num_playouts=playouts, seed=size)
    assert report.states > playouts * 9  # no game ends before black's fifth stone


def test_conformance_of_the_candidate_variant() -> None:
    # apply must reject the empty cells that are not candidates (the harness tries max + 1).
    assert_conforms(Gomoku(size=9, candidate_radius=1), num_playouts=10, seed=3)


def test_registry() -> None:
    assert repr(make("gomoku")) == "Gomoku(size=15)"
    assert make("gomoku", size=9).initial_state().legal_actions() == list(range(81))
    with pytest.raises(InvalidParameterError, match="bogus"):
        make("gomoku", bogus=1)


# --- win detection -----------------------------------------------------------------------------


def test_win_detection_matches_a_whole_board_scan_on_random_games() -> None:
    rng = random.Random(2026)
    directions_seen: set[int] = set()
    outcomes = {"black": 0, "white": 0, "draw": 0}
    for size, games in ((15, 6), (9, 15), (7, 15), (6, 20), (5, 40)):
        game = Gomoku(size=size)
        for _ in range(games):
            moves = random_game(game, rng)
            state = game.initial_state()
            for ply, action in enumerate(moves):
                state = state.apply(action)
                found = fives(grid_of(moves[: ply + 1], size))
                is_last = ply == len(moves) - 1
                # No five before the last move; after it, a five of the mover or a full board.
                assert bool(found) == (state.winner >= 0), (size, moves[: ply + 1])
                assert state.is_terminal() == is_last
                if found:
                    assert {colour for colour, _ in found} == {1 + ply % 2}
                    assert state.winner == ply % 2
                    directions_seen |= {direction for _, direction in found}
            if state.winner < 0:
                assert state.stones == size * size and state.returns() == (0.0, 0.0)
                outcomes["draw"] += 1
            else:
                outcomes["black" if state.winner == 0 else "white"] += 1
    assert directions_seen == {0, 1, 2, 3}  # every direction was exercised
    assert min(outcomes.values()) > 0, outcomes


def test_an_overline_of_six_wins_and_a_broken_five_does_not() -> None:
    game = Gomoku()
    # Black c5 d5 e5 . g5 h5: f5 joins them into six in a row, which wins in free-style.
    state = game.position(
        black=["c5", "d5", "e5", "g5", "h5"], white=["a1", "a3", "a5", "a7", "a9"]
    )
    after = state.apply(state.string_to_action("f5"))
    assert after.is_terminal() and after.returns() == (1.0, -1.0)
    # Black c5 d5 . f5 g5 + h5 gives c5 d5 _ f5 g5 h5: five stones, not five in a row.
    state = game.position(black=["c5", "d5", "f5", "g5"], white=["a1", "a3", "a5", "a7"], player=0)
    after = state.apply(state.string_to_action("h5"))
    assert not after.is_terminal() and after.winner == -1
    # ... and e5 then fills the gap: six in a row again, on the anti-diagonal as well.
    diagonal = game.position(
        black=["a6", "b5", "c4", "e2", "f1"], white=["o15", "o13", "o11", "o9"], player=0
    )
    assert diagonal.apply(diagonal.string_to_action("d3")).winner == 0


def test_position_with_a_five_is_over() -> None:
    state = Gomoku(size=7).position(black=["a1", "b2", "c3", "d4", "e5"], player=1)
    assert state.is_terminal() and state.returns() == (1.0, -1.0) and state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(10)


# --- perft -------------------------------------------------------------------------------------


def test_perft_of_the_empty_board_is_a_falling_factorial() -> None:
    # No game can end before ply 9 (black's fifth stone), so every d-ply sequence of distinct
    # cells is legal for d <= 9: perft(d) = n^2 (n^2 - 1) ... (n^2 - d + 1).
    assert perft(Gomoku().initial_state(), 1) == 225
    assert perft(Gomoku().initial_state(), 2) == 225 * 224
    for size in (5, 6):
        root = Gomoku(size=size).initial_state()
        for depth in range(5):
            assert perft(root, depth) == perm(size * size, depth)


def test_perft_at_the_first_ply_a_game_can_end() -> None:
    # 8 plies played: black has the open four f8 g8 h8 i8, white four scattered stones that
    # can never make five with one more. 217 empty cells. Black's e8 and j8 end the game at
    # ply 9 (leaves not extended); each of the 215 other moves leaves 216 replies for white,
    # none of which ends the game, and then 215 moves for black.
    state = Gomoku().position(black=["f8", "g8", "h8", "i8"], white=["a1", "c1", "a3", "o15"])
    assert perft(state, 1) == 217
    assert perft(state, 2) == 215 * 216
    assert perft(state, 3) == 215 * 216 * 215


def naive_perft(grid: list[list[int]], colour: int, depth: int) -> int:
    """Leaf count by brute force on a plain grid (a game with a five is over)."""
    if depth == 0:
        return 1
    if fives(grid):
        return 0
    size, total = len(grid), 0
    for row in range(size):
        for column in range(size):
            if grid[row][column] == 0:
                grid[row][column] = colour
                total += naive_perft(grid, 3 - colour, depth - 1)
                grid[row][column] = 0
    return total


def test_perft_matches_a_naive_enumerator_near_the_end_of_small_games() -> None:
    rng = random.Random(7)
    game, positions_with_wins = Gomoku(size=6), 0
    for _ in range(12):
        moves = random_game(game, rng)
        cut = max(0, min(len(moves) - 2, 36 - 7))  # 7 or a few more empty cells
        state = game.initial_state()
        for action in moves[:cut]:
            state = state.apply(action)
        if state.is_terminal():
            continue
        grid = grid_of(moves[:cut], 6)
        expected = naive_perft(grid, 1 + cut % 2, 3)
        assert perft(state, 3) == expected, moves[:cut]
        empty = 36 - cut
        positions_with_wins += expected < empty * (empty - 1) * (empty - 2)
    assert positions_with_wins > 0  # some games ended inside the 3 plies


# --- the m,n,k-game with k = 5 -----------------------------------------------------------------


def test_agrees_with_the_mnk_game_with_k_5() -> None:
    # MNKGame counts k *or more* in a row as a win (run >= k), so free-style Gomoku on an n x n
    # board is MNKGame(n, n, 5) exactly: same actions (row * n + column), notation and results.
    rng = random.Random(11)
    for size in (5, 6, 7, 8):
        gomoku, mnk = Gomoku(size=size), MNKGame(size, size, 5)
        for _ in range(12):
            a, b = gomoku.initial_state(), mnk.initial_state()
            while True:
                assert list(a.legal_actions()) == list(b.legal_actions())
                assert a.is_terminal() == b.is_terminal()
                assert a.returns() == b.returns()
                assert a.current_player() == b.current_player()
                if a.is_terminal():
                    break
                action = rng.choice(a.legal_actions())
                assert a.action_to_string(action) == b.action_to_string(action)
                a, b = a.apply(action), b.apply(action)


# --- candidate variant -------------------------------------------------------------------------


def test_candidates_are_the_empty_cells_within_the_radius() -> None:
    rng = random.Random(5)
    for radius in (1, 2, 3):
        game = Gomoku(size=11, candidate_radius=radius)
        state = game.initial_state()
        assert state.legal_actions() == [60]  # f6, the centre
        state = state.apply(60)
        for _ in range(30):
            grid = [[state.colour_at(r * 11 + c) for c in range(11)] for r in range(11)]
            expected = sorted(
                r * 11 + c
                for r in range(11)
                for c in range(11)
                if grid[r][c] == 0
                and any(
                    grid[rr][cc]
                    for rr in range(max(0, r - radius), min(11, r + radius + 1))
                    for cc in range(max(0, c - radius), min(11, c + radius + 1))
                )
            )
            assert state.legal_actions() == expected
            if state.is_terminal():
                break
            far = [a for a in range(121) if grid[a // 11][a % 11] == 0 and a not in expected]
            if far:
                with pytest.raises(IllegalMoveError, match="farther than"):
                    state.apply(far[0])
                with pytest.raises(IllegalMoveError, match="farther than"):
                    state.string_to_action(game.cell_name(far[0]))
            state = state.apply(rng.choice(expected))


def test_from_state_carries_a_real_game_into_the_candidate_variant_and_back() -> None:
    rng = random.Random(11)
    real = Gomoku(size=9)
    variant = real.with_candidates(2)
    assert (variant.size, variant.candidate_radius) == (9, 2)
    state = real.initial_state()
    for _ in range(40):
        moved = variant.from_state(state)
        assert moved.game is variant and moved.key() == state.key()
        assert (moved.stones, moved.winner) == (state.stones, state.winner)
        # the variant's moves, as if the stones had been played in the variant itself
        played = variant.position(
            black=[a for a in range(81) if state.colour_at(a) == 1],
            white=[a for a in range(81) if state.colour_at(a) == 2],
            player=state.player,
        )
        assert moved.legal_actions() == played.legal_actions()
        assert real.from_state(moved).legal_actions() == state.legal_actions()
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("other", [Gomoku(size=7).initial_state(), "h8", None])
def test_from_state_refuses_another_game(other: object) -> None:
    with pytest.raises(InvalidStateError, match="expected a state of a 9x9 Gomoku"):
        Gomoku(size=9).from_state(other)  # type: ignore[arg-type]


def test_move_order_is_used_and_checked() -> None:
    game = Gomoku(size=7, move_order=lambda state, actions: actions[::-1])
    assert game.initial_state().legal_actions() == list(range(48, -1, -1))
    with pytest.raises(InvalidParameterError, match="move_order must be callable"):
        Gomoku(move_order=3)  # type: ignore[arg-type]


# --- notation, rendering, bad input ------------------------------------------------------------


def test_notation_follows_renju_records() -> None:
    game = Gomoku()
    root = game.initial_state()
    assert root.string_to_action("h8") == 112 == 7 * 15 + 7  # the centre
    assert root.string_to_action("A1") == 0 and root.string_to_action(" o15 ") == 224
    assert root.string_to_action("i1") == 8  # the letter i is used (a..o, 15 columns)
    assert [root.action_to_string(a) for a in (0, 14, 210, 224)] == ["a1", "o1", "a15", "o15"]
    text = str(play(root, "h8 i9"))
    lines = text.splitlines()
    assert lines[0].startswith("15 ") and lines[-1] == "   " + " ".join("abcdefghijklmno")
    assert lines[15 - 8] == " 8 " + " ".join(".......X.......")
    assert lines[15 - 9] == " 9 " + " ".join("........O......")
    state = play(root, "h8 i9 j10")
    assert repr(state) == "GomokuState(black=['h8', 'j10'], white=['i9'], player=1)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zz", "malformed move 'zz'"),
        ("h", "malformed move 'h'"),
        ("8h", "malformed move '8h'"),
        ("p8", "illegal move 'p8': off the 15x15 board"),
        ("h16", "illegal move 'h16': off the 15x15 board"),
        ("h0", "illegal move 'h0': off the 15x15 board"),
        ("h8", "illegal move 'h8': the cell is taken"),
    ],
)
def test_bad_moves(text: str, message: str) -> None:
    state = Gomoku().initial_state().apply(112)
    with pytest.raises(IllegalMoveError, match=message):
        state.string_to_action(text)


def test_illegal_actions() -> None:
    state = Gomoku(size=5).initial_state().apply(12)
    for action, message in ((12, "c3 is taken"), (-1, "off the board"), (25, "off the board")):
        with pytest.raises(IllegalMoveError, match=message):
            state.apply(action)
    with pytest.raises(IllegalMoveError, match=r"move 4 'c3' in 'a1 b1 c3 c3'"):
        play(Gomoku(size=5).initial_state(), "a1 b1 c3 c3")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"size": 4}, "size must be an integer in 5..26, got 4"),
        ({"size": 27}, "got 27"),
        ({"size": "15"}, "got '15'"),
        ({"size": True}, "got True"),
        ({"candidate_radius": 0}, "candidate_radius must be None or an integer >= 1, got 0"),
        ({"candidate_radius": 1.5}, "got 1.5"),
    ],
)
def test_bad_parameters(params: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        Gomoku(**params)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("black", "white", "player", "message"),
    [
        (["h8", "h8"], [], None, "cell 'h8' is given twice"),
        (["h8"], ["h8"], None, "cell 'h8' is given twice"),
        (["h8", "h9", "h10"], [], None, "3 black and 0 white stones; say which player"),
        ([], ["h8"], None, "0 black and 1 white stones"),
        (["h8"], [], 2, "player must be 0 or 1, got 2"),
        (["z99"], [], None, "malformed move 'z99'|off the 15x15 board"),
        ([300], [], None, "cell 300 is off the board"),
        (
            ["a1", "a2", "a3", "a4", "a5"],
            ["c1", "c2", "c3", "c4", "c5"],
            None,
            "both colours have five in a row",
        ),
    ],
)
def test_bad_positions(
    black: list[str | int], white: list[str | int], player: int | None, message: str
) -> None:
    with pytest.raises(InvalidStateError, match=message):
        Gomoku().position(black=black, white=white, player=player)


def test_cli_perft(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli_main.main(["perft", "gomoku", "--depth", "2", "-p", "size=7"]) == 0
    assert capsys.readouterr().out.split()[-1] == str(49 * 48)
    assert cli_main.main(["perft", "gomoku", "--depth", "1", "--moves", "h8 h8"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "the cell is taken" in err
