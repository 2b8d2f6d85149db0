"""Encoders: the planes are the position from the mover's point of view (checked against the
games' own boards), the masks are the legal actions, and every symmetry is a true symmetry of
the game (the group of the board, computed here with numpy's own flips and rotations; positions
rebuilt by the game's rules map to the mapped planes and masks)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from searchlab.core.errors import IllegalMoveError, InvalidParameterError, UnknownNameError
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.domains.games.go import Go
from searchlab.domains.games.gomoku import Gomoku
from searchlab.domains.games.othello import PASS, Othello, OthelloState
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe
from searchlab.learning.networks.encoder import (
    BaseEncoder,
    Encoder,
    Symmetry,
    board_symmetries,
    identity_symmetry,
)
from searchlab.learning.networks.encoders import ENCODERS, encoder_for, register_encoder

GAMES = {
    "tictactoe": TicTacToe,
    "mnk-4x3": lambda: MNKGame(4, 3, 3),
    "connect4": Connect4,
    "othello": Othello,
    "gomoku-7": lambda: Gomoku(size=7),
    "gomoku-15": Gomoku,
    "go-5": lambda: Go(5),
    "go-7": lambda: Go(7, superko="situational"),
}


def random_states(game, games: int, seed: int) -> list:
    """Every state of ``games`` uniformly random games (terminal ones included)."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.initial_state()
        states.append(state)
        while not state.is_terminal():
            state = state.apply(rng.choice(list(state.legal_actions())))
            states.append(state)
    return states


def numpy_group(height: int, width: int, kind: str) -> set[tuple[int, ...]]:
    """The cell permutations of the board's group (``out[j] = in[source[j]]``), from numpy."""
    grid = np.arange(height * width).reshape(height, width)
    if kind == "mirror":
        images = [grid, np.fliplr(grid)]
    elif kind == "rectangle":
        images = [grid, np.fliplr(grid), np.flipud(grid), np.rot90(grid, 2)]
    else:
        images = [np.rot90(grid, k) for k in range(4)]
        images += [np.rot90(grid, k).T for k in range(4)]
    return {tuple(image.ravel().tolist()) for image in images}


@pytest.mark.parametrize(
    ("name", "kind", "count"),
    [
        ("tictactoe", "square", 8),
        ("mnk-4x3", "rectangle", 4),
        ("connect4", "mirror", 2),
        ("othello", "square", 8),
        ("gomoku-7", "square", 8),
        ("go-5", "square", 8),
    ],
)
def test_symmetries_are_the_group_of_the_board(name, kind, count) -> None:
    encoder = encoder_for(GAMES[name]())
    _, height, width = encoder.shape
    symmetries = encoder.symmetries()
    assert len(symmetries) == count
    sources = [tuple(s.cell_source.tolist()) for s in symmetries]
    assert len(set(sources)) == count
    assert set(sources) == numpy_group(height, width, kind)
    assert sources[0] == tuple(range(height * width)), "identity first"
    for symmetry in symmetries:
        actions = symmetry.action_source
        assert sorted(actions.tolist()) == list(range(encoder.num_actions))
        if name == "connect4":  # a column goes where its cells go
            for column in range(width):
                image = symmetry.map_index(column)
                assert symmetry.cell_source[image] == column  # bottom row
        else:  # cell actions move with their cells; the pass stays
            assert actions[: height * width].tolist() == symmetry.cell_source.tolist()
            assert actions[height * width :].tolist() == list(
                range(height * width, encoder.num_actions)
            )


def play_recorded(game, rng, plies: int):
    state = game.initial_state()
    moves = []
    for _ in range(plies):
        if state.is_terminal():
            break
        action = rng.choice(list(state.legal_actions()))
        moves.append(action)
        state = state.apply(action)
    return state, moves


@pytest.mark.parametrize(
    "name", ["tictactoe", "mnk-4x3", "connect4", "gomoku-7", "gomoku-15", "go-5", "go-7"]
)
def test_every_symmetry_maps_a_replayed_position_to_the_mapped_planes_and_mask(name) -> None:
    game = GAMES[name]()
    encoder = encoder_for(game)
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        state, moves = play_recorded(game, rng, rng.randrange(0, 60))
        planes, mask = encoder.encode(state), encoder.legal_mask(state)
        for symmetry in encoder.symmetries():
            image = game.initial_state()
            for action in moves:
                index = symmetry.map_index(encoder.action_to_index(image, action))
                image = image.apply(encoder.index_to_action(image, index))
            assert image.is_terminal() == state.is_terminal()
            assert image.returns() == state.returns()
            np.testing.assert_array_equal(encoder.encode(image), symmetry.apply_planes(planes))
            np.testing.assert_array_equal(encoder.legal_mask(image), symmetry.apply_policy(mask))
            checked += 1
    assert checked >= 40


def othello_image(state: OthelloState, symmetry: Symmetry) -> OthelloState:
    def move(bits: int) -> int:
        cells = np.array([bits >> s & 1 for s in range(64)])
        return sum(int(b) << j for j, b in enumerate(cells[symmetry.cell_source]))

    return OthelloState(move(state.black), move(state.white), state.player, state.scoring)


def test_othello_symmetries_keep_the_rules_and_the_pass() -> None:
    game = Othello()
    encoder = encoder_for(game)
    states = random_states(game, 6, seed=3)
    passes = [s for s in states if tuple(s.legal_actions()) == (PASS,)]
    assert passes, "the sample should hold a position where the mover must pass"
    for state in states[::3] + passes:
        planes, mask = encoder.encode(state), encoder.legal_mask(state)
        for symmetry in encoder.symmetries():
            image = othello_image(state, symmetry)
            # the game's own move generator agrees: a symmetry of the rules
            assert len(image.legal_actions()) == len(state.legal_actions())
            np.testing.assert_array_equal(encoder.legal_mask(image), symmetry.apply_policy(mask))
            np.testing.assert_array_equal(encoder.encode(image), symmetry.apply_planes(planes))
            assert image.returns() == state.returns()
    assert encoder.legal_mask(passes[0]).tolist() == [False] * 64 + [True]


def expected_planes(state) -> tuple[np.ndarray, np.ndarray]:
    """Mine and theirs, read from the game's own board, row 0 first."""
    if isinstance(state, OthelloState):
        board = state.board_string()
        black = np.array([c == "X" for c in board], dtype=np.float32).reshape(8, 8)
        white = np.array([c == "O" for c in board], dtype=np.float32).reshape(8, 8)
    elif hasattr(state, "ko_point"):  # Go: one byte per point, 1 black, 2 white
        size = state.game.size
        board = np.frombuffer(state.board, dtype=np.uint8).reshape(size, size)
        black, white = (board == 1).astype(np.float32), (board == 2).astype(np.float32)
    elif isinstance(
        getattr(state, "moves", None), str
    ):  # Connect Four: replay the move string column by column
        black, white = np.zeros((6, 7), np.float32), np.zeros((6, 7), np.float32)
        heights = [0] * 7
        for ply, char in enumerate(state.moves):
            column = int(char) - 1
            (black if ply % 2 == 0 else white)[heights[column], column] = 1
            heights[column] += 1
    elif hasattr(state, "colour_at"):
        size = state.game.size
        colours = np.array([state.colour_at(a) for a in range(size * size)]).reshape(size, size)
        black, white = (colours == 1).astype(np.float32), (colours == 2).astype(np.float32)
    else:
        game = state.game
        board = np.array(state.board).reshape(game.n, game.m)
        black, white = (board == 1).astype(np.float32), (board == 2).astype(np.float32)
    return (black, white) if state.current_player() == 0 else (white, black)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planes_are_the_position_from_the_movers_point_of_view(name) -> None:
    game = GAMES[name]()
    encoder = encoder_for(game)
    states = random_states(game, 3, seed=5)
    batch = encoder.encode_batch(states)
    assert batch.dtype == np.float32 and batch.shape == (len(states), *encoder.shape)
    for state, planes in zip(states, batch, strict=True):
        np.testing.assert_array_equal(planes, encoder.encode(state))
        mine, theirs = expected_planes(state)
        np.testing.assert_array_equal(planes[0], mine)
        np.testing.assert_array_equal(planes[1], theirs)
        assert (planes[2] == 1).all()
    assert encoder.encode_batch([]).shape == (0, *encoder.shape)


def test_connect4_plane_3_is_where_each_column_fills_next() -> None:
    encoder = encoder_for(Connect4())
    state = parse_moves("4444441")  # column 4 full, column 1 holds one stone
    expected = np.zeros((6, 7), np.float32)
    expected[1, 0] = 1
    for column in (1, 2, 4, 5, 6):
        expected[0, column] = 1
    np.testing.assert_array_equal(encoder.encode(state)[3], expected)


def test_connect4_threat_planes_are_the_cells_that_complete_four() -> None:
    """Planes 4-5 of ``features="threats"``, checked by brute force: a cell is a threat of a
    side exactly when it is empty and that side's stone there makes four in a row (searched
    along the four directions here, not with the bitboard shifts the encoder uses); planes 6-7
    are the odd rows and who moved first; the first four are the plain encoder's; the mirror
    maps the planes of a position to those of its mirror image."""
    from searchlab.learning.networks.encoders import Connect4Encoder

    plain, encoder = Connect4Encoder(), Connect4Encoder(features="threats")
    rng = random.Random(5)
    seen_threats = 0
    for _ in range(60):
        state, moves = play_recorded(Connect4(), rng, rng.randrange(0, 42))
        planes = encoder.encode(state)
        assert planes.shape == encoder.shape == (8, 6, 7)
        np.testing.assert_array_equal(planes[:4], plain.encode(state))
        grid = planes[0] - planes[1]  # +1 the mover's stones, -1 the opponent's
        for side, plane in ((1, planes[4]), (-1, planes[5])):
            for row in range(6):
                for col in range(7):
                    expected = grid[row, col] == 0 and any(
                        _run(grid, row, col, dr, dc, side) >= 3
                        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
                    )
                    assert plane[row, col] == expected, (moves, side, row, col)
                    seen_threats += int(expected)
        assert planes[6, :, 0].tolist() == [1, 0, 1, 0, 1, 0]
        assert (planes[7] == float(len(moves) % 2 == 0)).all()
        mirror = encoder.symmetries()[1]
        image = Connect4().initial_state()
        for column in moves:
            image = image.apply(6 - column)
        np.testing.assert_array_equal(encoder.encode(image), mirror.apply_planes(planes))
    assert seen_threats > 50


def _run(grid: np.ndarray, row: int, col: int, dr: int, dc: int, side: int) -> int:
    """Stones of ``side`` in line with the cell (row, col), both ways along (dr, dc)."""
    count = 0
    for sign in (1, -1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < 6 and 0 <= c < 7 and grid[r, c] == side:
            count, r, c = count + 1, r + sign * dr, c + sign * dc
    return count


def test_othello_plane_3_is_the_movers_legal_squares() -> None:
    encoder = encoder_for(Othello())
    for state in random_states(Othello(), 2, seed=9)[:-1]:
        squares = [a for a in state.legal_actions() if a != PASS]
        assert sorted(np.flatnonzero(encoder.encode(state)[3].ravel()).tolist()) == squares


def test_go_planes_say_who_is_black_the_ko_and_a_pass() -> None:
    game = Go(5)
    encoder = encoder_for(game)
    start = game.initial_state()
    assert (encoder.encode(start)[3] == 1).all() and not encoder.encode(start)[4:].any()
    state = game.position(black=["A1", "B2"], white=["B1", "C2", "D1"])
    state = state.apply(state.string_to_action("C1"))  # takes B1: white may not retake at once
    planes = encoder.encode(state)
    assert not planes[3].any(), "white to move"
    assert np.flatnonzero(planes[4].ravel()).tolist() == [1]  # B1: row 0, column 1
    assert not encoder.legal_mask(state)[1] and encoder.legal_mask(state)[25]
    for symmetry in encoder.symmetries():  # the ko moves with the board
        image = game.position(
            black=[symmetry.map_index(p) for p in (0, 6)],  # A1, B2
            white=[symmetry.map_index(p) for p in (1, 7, 3)],  # B1, C2, D1
        ).apply(symmetry.map_index(2))  # C1
        assert image.ko_point == symmetry.map_index(1)
        np.testing.assert_array_equal(encoder.encode(image), symmetry.apply_planes(planes))
        np.testing.assert_array_equal(
            encoder.legal_mask(image), symmetry.apply_policy(encoder.legal_mask(state))
        )
    passed = state.apply(game.pass_action)
    assert (encoder.encode(passed)[5] == 1).all() and (encoder.encode(passed)[3] == 1).all()
    assert not encoder.encode(passed)[4].any()
    assert not encoder.encode(passed.apply(12))[5].any()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_legal_mask_is_the_legal_actions_and_indices_round_trip(name) -> None:
    game = GAMES[name]()
    encoder = encoder_for(game)
    for state in random_states(game, 3, seed=8):
        mask = encoder.legal_mask(state)
        assert mask.dtype == bool and mask.shape == (encoder.num_actions,)
        indices = sorted(encoder.action_to_index(state, a) for a in state.legal_actions())
        assert np.flatnonzero(mask).tolist() == indices
        for action in state.legal_actions():
            index = encoder.action_to_index(state, action)
            assert encoder.index_to_action(state, index) == action
        if state.is_terminal():
            assert not mask.any()


def test_gomoku_candidate_variant_has_the_same_encoder_and_a_smaller_mask() -> None:
    real = Gomoku(size=9)
    variant = real.with_candidates(1)
    state = variant.from_state(real.initial_state().apply(40))
    encoder = encoder_for(variant)
    assert encoder.game_params == encoder_for(real).game_params == {"size": 9}
    assert encoder.legal_mask(state).sum() == 8


def test_encoder_for_knows_the_built_in_games_and_their_parameters() -> None:
    assert encoder_for(TicTacToe()).game_params == {}
    assert encoder_for(MNKGame(5, 4, 4)).shape == (3, 4, 5)
    assert encoder_for(MNKGame(5, 4, 4)).game_params == {"m": 5, "n": 4, "k": 4}
    assert encoder_for(Gomoku(size=9)).shape == (3, 9, 9)
    assert encoder_for(Othello()).num_actions == 65
    assert encoder_for(Go(9)).shape == (6, 9, 9) and encoder_for(Go(9)).num_actions == 82
    assert encoder_for(Go(9, komi=0.5)).game_params == {"size": 9}
    for name in ("tictactoe", "mnk", "connect4", "othello", "gomoku", "go"):
        assert name in ENCODERS


def test_encoder_for_a_game_without_one_is_one_line_naming_it() -> None:
    from searchlab.domains.games.nim import Nim

    with pytest.raises(UnknownNameError, match=r"^no encoder for the game 'nim'; known: "):
        encoder_for(Nim((3, 4)))
    with pytest.raises(InvalidParameterError, match="pass the game, not a state"):
        encoder_for(TicTacToe().initial_state())


class _Take:
    """Take 1 or 2 counters; a game of one's own with an encoder() method."""

    def __init__(self, bad: bool = False) -> None:
        from searchlab.core.game import GameInfo

        self.info = GameInfo(name="take")
        self.bad = bad

    def encoder(self):
        if self.bad:
            return object()
        return _TakeEncoder()


class _TakeEncoder(BaseEncoder):
    game_name, shape, num_actions = "take", (1, 1, 5), 2

    def encode(self, state):
        planes = np.zeros(self.shape, np.float32)
        planes[0, 0, state] = 1
        return planes

    def action_to_index(self, state, action):
        return action - 1


def test_a_game_of_ones_own_brings_its_encoder_or_registers_one() -> None:
    encoder = encoder_for(_Take())
    assert isinstance(encoder, Encoder) and encoder.shape == (1, 1, 5)
    assert [s.name for s in encoder.symmetries()] == ["identity"]
    with pytest.raises(InvalidParameterError, match=r"^the encoder of .take. is a object"):
        encoder_for(_Take(bad=True))
    plain = type("Plain", (), {"info": _Take().info})()  # the same game, no encoder() method
    with pytest.raises(UnknownNameError):
        encoder_for(plain)
    register_encoder("take", lambda g: _TakeEncoder())
    try:
        assert encoder_for(plain).num_actions == 2
    finally:
        del ENCODERS["take"]


def test_symmetry_and_index_errors_are_one_line() -> None:
    with pytest.raises(InvalidParameterError, match="needs a square board, got 3x4"):
        board_symmetries(3, 4, "dihedral")
    with pytest.raises(InvalidParameterError, match="unknown symmetry group 'octagon'"):
        board_symmetries(3, 3, "octagon")
    with pytest.raises(InvalidParameterError, match="moves cells between rows"):
        board_symmetries(6, 7, "rectangle", actions="columns")
    symmetry = identity_symmetry(3, 3, 9)
    with pytest.raises(InvalidParameterError, match=r"not \[\.\.\., 3, 3\]"):
        symmetry.apply_planes(np.zeros((2, 4, 4)))
    with pytest.raises(InvalidParameterError, match="a policy of 10 entries, expected 9"):
        symmetry.apply_policy(np.zeros(10))
    encoder = encoder_for(Connect4())
    with pytest.raises(IllegalMoveError, match="action 7 has no policy index"):
        encoder.action_to_index(Connect4().initial_state(), 7)
    with pytest.raises(InvalidParameterError, match=r"policy index -1 is outside 0\.\.6"):
        encoder.index_to_action(Connect4().initial_state(), -1)


def test_symmetries_apply_to_batches() -> None:
    encoder = encoder_for(TicTacToe())
    states = random_states(TicTacToe(), 1, seed=2)
    batch = encoder.encode_batch(states)
    masks = np.stack([encoder.legal_mask(s) for s in states])
    for symmetry in encoder.symmetries():
        mapped = symmetry.apply_planes(batch)
        for i, planes in enumerate(batch):
            np.testing.assert_array_equal(mapped[i], symmetry.apply_planes(planes))
        np.testing.assert_array_equal(
            symmetry.apply_policy(masks)[1], symmetry.apply_policy(masks[1])
        )


def test_the_package_names_load_on_first_use_and_encoders_need_no_torch() -> None:
    import importlib
    import subprocess
    import sys

    import searchlab.learning as learning

    for name in learning.__all__:
        home = importlib.import_module(f"searchlab.learning.{learning._HOMES[name]}")
        assert getattr(learning, name) is getattr(home, name)
    with pytest.raises(AttributeError, match="has no attribute 'train'"):
        learning.train  # noqa: B018
    code = (
        "import sys, searchlab.learning, searchlab.learning.networks.encoders;"
        "from searchlab.learning import encoder_for;"
        "print('torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr
