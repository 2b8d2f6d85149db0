"""Connect Four's bit rules, written once (domains/games/connect4/bits.py): the compiled
functions the kernels inline agree with the same code run as plain Python (the game's tier,
itself checked against an independent list board in test_connect4_game.py), and the Python tier
compiles nothing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from game_positions import random_positions

from searchlab.domains.games import connect4
from searchlab.domains.games.connect4 import Connect4, Connect4State, bits


def connect4_positions(count: int, seed: int) -> list[Connect4State]:
    return random_positions(Connect4(), count, seed, range(43), terminal=True)


def test_the_game_runs_the_bit_modules_code() -> None:
    assert connect4.has_four is bits.has_four.py_func
    assert connect4.winning_cells is bits.winning_cells.py_func


def test_compiled_bits_agree_with_the_python_tier() -> None:
    for state in connect4_positions(300, seed=8):
        mover, other = state.current, state.current ^ state.mask
        current, mask = np.int64(mover), np.int64(state.mask)  # the kernels' int64 boards
        assert bits.has_four(np.int64(other)) == connect4.has_four(other) == state.is_won
        for stones in (mover, other):
            assert bits.winning_cells(np.int64(stones), mask) == connect4.winning_cells(
                stones, state.mask
            )
        assert bits.playable(mask) == bits.playable.py_func(state.mask)
        assert bits.popcount(mask) == state.num_moves == bin(state.mask).count("1")
        for column in range(bits.WIDTH):
            room = bits.can_play(mask, column)
            assert room == bits.can_play.py_func(state.mask, column) == state.can_play(column)
            if room:
                cell = bits.drop(mask, column)
                assert cell == bits.drop.py_func(state.mask, column)
                assert cell & bits.playable(mask) and bin(int(cell)).count("1") == 1
                if not state.is_terminal():
                    assert state.apply(column).mask == state.mask | int(cell)
        assert bits.has_four(current) == connect4.has_four(mover)


@pytest.mark.parametrize(
    ("moves", "fours"),
    [("1212121", True), ("1122334", True), ("4455667", True), ("121212", False), ("", False)],
)
def test_has_four_on_known_lines(moves: str, fours: bool) -> None:
    # the player who just moved: X after an odd number of moves
    state = connect4.parse_moves(moves)
    stones = state.current ^ state.mask
    assert bits.has_four(np.int64(stones)) is fours


def test_the_python_tier_compiles_nothing() -> None:
    code = (
        "from searchlab.domains.games.connect4 import bits\n"
        "from searchlab.domains.games.connect4 import parse_moves\n"
        "s = parse_moves('4453')\n"
        "s = s.apply(2); s.winning_cells(); s.opponent_winning_cells(); s.legal_actions()\n"
        "compiled = [f.__name__ for f in (bits.has_four, bits.winning_cells, bits.can_play,\n"
        "            bits.drop, bits.playable, bits.popcount, bits.column_mask) if f.signatures]\n"
        "print(compiled)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
