"""examples/breakthrough.py: Breakthrough, a game of one's own in two tiers. The reference tier
keeps the game protocol and the rules (hand-checked positions); the compiled rules give the same
actions, positions and ends as the reference tier ply by ply over seeded random games, and a
compiled rollout is the reference game replayed with the same random numbers."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from cli_support import run_main

from searchlab.algorithms.mcts import CompiledGame
from searchlab.core.compiled_rng import next_below, seed_state
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import play
from searchlab.domains.games.conformance import assert_conforms
from searchlab.games import make

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "breakthrough.py"
GAME = f"{EXAMPLE}:Breakthrough"
SIZES = (5, 6, 8)
MASK64 = (1 << 64) - 1


def game_of(size: int) -> Any:
    return make(GAME, size=size)


def module_of(game: Any) -> ModuleType:
    return sys.modules[type(game).__module__]


def rules_of(game: Any) -> CompiledGame:
    rules: CompiledGame = module_of(game).compiled_rules(game)
    return rules


# -- the reference tier ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_reference_tier_conforms(size: int) -> None:
    report = assert_conforms(game_of(size), num_playouts=20, seed=size)
    assert report.states > 20 * 2 * size  # every playout lasts a while


def test_the_documented_spec_loads_from_the_repository_root(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    game = make("examples/breakthrough.py:Breakthrough")
    assert game.info.name == "breakthrough" and game.size == 6  # type: ignore[attr-defined]
    assert game.info.max_game_length == 2 * (6 * 5 + 6 * 4)


def test_opening_moves_and_notation() -> None:
    state = game_of(5).initial_state()
    assert state.current_player() == 0 and not state.is_terminal()
    # only the second rank moves: a2 (square 5) straight and right, ..., e2 (9) left and straight
    assert state.legal_actions() == list(range(16, 29))
    assert [state.action_to_string(a) for a in (16, 17, 18, 27, 28)] == [
        "a2-a3",
        "a2-b3",
        "b2-a3",
        "e2-d3",
        "e2-e3",
    ]
    assert state.string_to_action(" A2xB3 ") == 17
    after = state.apply(16)  # a2-a3
    assert after.current_player() == 1
    # Black's a4 (square 15): straight is blocked by a3, its right (toward a) is off the board,
    # its left goes to b3; b4 (16) goes left to c3, straight to b3, right takes on a3
    assert after.legal_actions()[:4] == [45, 48, 49, 50]
    assert [after.action_to_string(a) for a in (45, 48, 49, 50)] == [
        "a4-b3",
        "b4-c3",
        "b4-b3",
        "b4-a3",
    ]
    taken = after.apply(after.string_to_action("b4-a3"))
    assert str(taken).splitlines()[2] == "3  B . . . ."
    assert taken.white.bit_count() == 9 and taken.black.bit_count() == 10  # type: ignore[attr-defined]


def test_reaching_the_far_rank_wins() -> None:
    # White breaks through on the left (a3xb4, b4xc5) while Black takes on d2
    state = play(game_of(5).initial_state(), "a2-a3 e4-e3 a3-b4 e3-d2 b4-c5")
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == (1.0, -1.0) and state.current_player() == 1
    with pytest.raises(IllegalMoveError, match="already over"):
        state.apply(0)
    with pytest.raises(IllegalMoveError, match="already over"):
        state.string_to_action("a4-a5")


def test_taking_the_last_pawn_wins() -> None:
    game = game_of(5)
    state = type(game.initial_state())(5, 1 << 12, 1 << 18, 0)  # White c3, Black d4
    assert state.legal_actions() == [36, 37, 38]  # c3-b4, c3-c4, c3xd4
    end = state.apply(state.string_to_action("c3-d4"))
    assert end.is_terminal() and end.returns() == (1.0, -1.0)
    rules = rules_of(game)
    words = [np.uint64(word) for word in rules.play(*rules.encode(state), 38)]
    assert tuple(words) == rules.encode(end)
    assert rules.status(*words, 0) == (True, -1.0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("#not a move#", "malformed move '#not a move#': expected FROM-TO"),
        ("a2", "malformed"),
        ("a2-a9", "a9 is off the 6x6 board"),
        ("g2-g3", "g2 is off the 6x6 board"),
        ("a5-a4", "no White pawn on a5"),
        ("a1-a2", "a2 is not empty"),
        ("a1-b2", "b2 holds a White pawn"),
        ("a2-a4", "steps one square up the board"),
        ("b2-a1", "steps one square up the board"),
    ],
)
def test_bad_moves_are_one_clear_error(text: str, reason: str) -> None:
    state = game_of(6).initial_state()
    with pytest.raises(IllegalMoveError) as info:
        state.string_to_action(text)
    assert reason in str(info.value) and "\n" not in str(info.value)


def test_illegal_actions_raise() -> None:
    state = game_of(6).initial_state()
    for action in (-1, 0, 18 * 3 + 1, 10**6, True, "19", 1.0):
        with pytest.raises(IllegalMoveError):
            state.apply(action)  # type: ignore[arg-type]
    assert state.apply(np.int16(19)).key() == state.apply(19).key()  # the tree's int16 ids


@pytest.mark.parametrize("size", [4, 9, 0, -6, "6", 6.0, True, None])
def test_bad_size_is_one_clear_error(size: object) -> None:
    with pytest.raises(InvalidParameterError) as info:
        make(GAME, size=size)
    message = str(info.value)
    assert "\n" not in message and "size must be an integer from 5 to 8" in message
    assert repr(size) in message


def test_unknown_parameter_is_one_clear_error() -> None:
    with pytest.raises(InvalidParameterError, match="unknown parameter rows; known: size"):
        make(GAME, rows=3)


# -- the compiled rules against the reference tier ------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_compiled_rules_follow_the_reference_ply_by_ply(size: int) -> None:
    game = game_of(size)
    rules = rules_of(game)
    actions, play_, status, encode = (
        rules.actions,
        rules.play,
        rules.status,
        rules.encode,
    )
    assert rules.max_branching == 6 * size
    out = np.zeros(rules.max_branching + 5, dtype=np.int16)
    rng = random.Random(size)
    plies = wins = 0
    for _ in range(200):
        state = game.initial_state()
        a, b = encode(state)
        while True:
            player = state.current_player()
            assert (a, b) == encode(state)  # play gave the reference state's words
            assert (int(a) >> 63, int(a) >> 56 & 15) == (player, size)  # the header
            terminal, value = status(a, b, 0)
            assert terminal == state.is_terminal()
            assert value == state.returns()[player]
            if terminal:
                wins += player  # Black to move at the end: White won
                break
            n = actions(a, b, out, 3)
            legal = state.legal_actions()
            assert out[3 : 3 + n].tolist() == legal
            assert n <= rules.max_branching
            action = rng.choice(legal)
            a, b = (np.uint64(word) for word in play_(a, b, action))
            state = state.apply(action)
            player = 1 - player
            plies += 1
    assert plies <= 200 * game.info.max_game_length
    assert 0 < wins < 200  # both sides win some random games


def next_below_py(state: int, n: int) -> tuple[int, int]:
    """xorshift64* and Lemire's reduction (searchlab's next_below), in Python."""
    state ^= state >> 12
    state ^= (state << 25) & MASK64
    state ^= state >> 27
    bits = (state * 0x2545F4914F6CDD1D) & MASK64
    return state, ((bits >> 32) * n) >> 32


def test_the_python_generator_is_next_below() -> None:
    for seed in range(20):
        state = seed_state(seed)
        compiled = np.uint64(state)
        for n in (1, 2, 7, 13, 48):
            state, k = next_below_py(state, n)
            compiled, k_compiled = next_below(np.uint64(compiled), n)
            assert (state, k) == (int(compiled), k_compiled)


def replay_rollout(state: Any, rng: int) -> tuple[float, int]:
    """The compiled rollout's policy on the reference tier: the k-th legal move in the order
    (direction, from-square), k drawn by next_below."""
    mover = state.current_player()
    while not state.is_terminal():
        legal = sorted(state.legal_actions(), key=lambda action: (action % 3, action))
        rng, k = next_below_py(rng, len(legal))
        state = state.apply(legal[k])
    return state.returns()[mover], rng


@pytest.mark.parametrize("size", SIZES)
def test_a_compiled_rollout_is_the_reference_game_with_the_same_random_numbers(
    size: int,
) -> None:
    game = game_of(size)
    rules = rules_of(game)
    chooser = random.Random(100 + size)
    values = []
    for seed in range(60):
        state = game.initial_state()
        for _ in range(chooser.randrange(0, 4 * size)):  # start mid-game, either side to move
            nxt = state.apply(chooser.choice(state.legal_actions()))
            if nxt.is_terminal():
                break
            state = nxt
        a, b = rules.encode(state)
        value, rng = rules.rollout(a, b, np.uint64(seed_state(seed)), 0)
        assert (value, int(rng)) == replay_rollout(state, seed_state(seed))
        values.append(value)
    assert set(values) == {-1.0, 1.0}


def test_rollouts_from_a_won_position_are_won() -> None:
    # 5x5, White to move with one pawn, on c4, one rank from the end; Black has one, on a5
    game = game_of(5)
    state = type(game.initial_state())(5, 1 << 17, 1 << 20, 0)
    rules = rules_of(game)
    a, b = rules.encode(state)
    rng = np.uint64(seed_state(3))
    results = []
    for _ in range(400):
        value, rng = rules.rollout(a, b, np.uint64(rng), 0)  # numba hands back an int
        results.append(value)
    assert results == [1.0] * 400  # each of c4-b5, c4-c5, c4-d5 reaches the last rank
    for move in ("c4-b5", "c4-c5", "c4-d5"):
        assert state.apply(state.string_to_action(move)).returns() == (1.0, -1.0)


def test_compiled_rules_need_the_game() -> None:
    module = module_of(game_of(5))
    with pytest.raises(InvalidParameterError, match="needs a Breakthrough game"):
        module.compiled_rules(make("connect4"))


# -- the command line ------------------------------------------------------------------------------
def test_play_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "play", GAME, "-p", "size=5", "--first", "random", "--second", "random", "--json"
    )
    assert code == 0, err
    result = json.loads(out)
    final = play(make(GAME, size=5).initial_state(), result["moves"])
    assert final.is_terminal()
    assert result["winner"] == (0 if final.returns()[0] > 0 else 1)


def test_the_script_runs_after_the_loader_compiled_its_kernels() -> None:
    # the tests above compiled (and cached) the kernels with the file loaded by searchlab's
    # loader; run as a script, the file is __main__ and must load them from numba's cache
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "conformance:" in done.stdout
    assert " compiled MCTS: 200,000 simulations" in done.stdout
    assert "reference MCTS:   2,000 simulations" in done.stdout


# -- the encoder (searchlab train, the az agent) ----------------------------------------------
def _mirror_bits(bits: int, size: int) -> int:
    out = 0
    for square in range(size * size):
        if bits >> square & 1:
            row, column = divmod(square, size)
            out |= 1 << (row * size + size - 1 - column)
    return out


@pytest.mark.parametrize("size", (5, 6))
def test_the_encoder_sees_the_movers_side_and_its_mirror(size: int) -> None:
    game = game_of(size)
    encoder = game.encoder()
    identity, mirror = encoder.symmetries()
    module = module_of(game)
    chooser = random.Random(size)
    checked = 0
    for _ in range(20):
        state = game.initial_state()
        while not state.is_terminal():
            planes = encoder.encode(state)
            mover, other = state.pawns(state.player), state.pawns(1 - state.player)
            assert int(planes[0].sum()) == bin(mover).count("1")
            assert int(planes[1].sum()) == bin(other).count("1")
            # the mover always moves up: its pawns never stand on the turned board's last rank
            assert planes[0, size - 1].sum() == 0
            legal = state.legal_actions()
            indices = [encoder.action_to_index(state, action) for action in legal]
            assert len(set(indices)) == len(legal)
            assert [encoder.index_to_action(state, i) for i in indices] == legal
            assert encoder.legal_mask(state).sum() == len(legal)
            image = module.BreakthroughState(
                size, _mirror_bits(state.white, size), _mirror_bits(state.black, size),
                state.player,
            )  # fmt: skip
            assert np.array_equal(mirror.apply_planes(planes), encoder.encode(image))
            assert np.array_equal(
                mirror.apply_policy(encoder.legal_mask(state)), encoder.legal_mask(image)
            )
            assert np.array_equal(identity.apply_planes(planes), planes)
            checked += 1
            state = state.apply(chooser.choice(legal))
    assert checked > 200
