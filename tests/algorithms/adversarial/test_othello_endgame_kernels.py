"""The kernels under the compiled Othello endgame solver, each against an independent check:
bit-scan flips and move generation against the rules kernels, stable discs against random
continuations, the last-empties kernels against the reference solver, the table's buckets."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from endgame_context import search_context

from searchlab.algorithms.adversarial._othello_endgame_flips import flips_at, moves_at
from searchlab.algorithms.adversarial._othello_endgame_last import search_few
from searchlab.algorithms.adversarial._othello_endgame_order import evaluate, shallow_value
from searchlab.algorithms.adversarial._othello_endgame_search import (
    pack_entry,
    probe,
    search,
    unpack_entry,
)
from searchlab.algorithms.adversarial._othello_endgame_stability import (
    edge_stability_table,
    stable_discs,
)
from searchlab.algorithms.adversarial.solver import solve
from searchlab.domains.games.othello import Othello, OthelloState
from searchlab.domains.games.othello.bits import flips, legal_moves


def random_boards(count: int, seed: int) -> list[tuple[int, int]]:
    """Boards with each square empty, the player's or the opponent's at random."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        player = opponent = 0
        for square in range(64):
            kind = rng.randrange(3)
            if kind == 1:
                player |= 1 << square
            elif kind == 2:
                opponent |= 1 << square
        boards.append((player, opponent))
    return boards


def played_states(count: int, seed: int, min_empties: int = 0) -> list[OthelloState]:
    """Every position of seeded random games (passes and endings included)."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = Othello().initial_state()
        while not state.is_terminal():
            if state.empties() >= min_empties:
                states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return states[:count]


def test_bit_scan_flips_and_moves_equal_the_rules_kernels() -> None:
    boards = random_boards(1500, seed=7)
    boards += [state.mover_bits() for state in played_states(1500, seed=8)]
    for player, opponent in boards:
        mine, theirs = np.uint64(player), np.uint64(opponent)
        assert moves_at(mine, theirs) == legal_moves(mine, theirs), (hex(player), hex(opponent))
        empty = ~(player | opponent) & (1 << 64) - 1
        for square in range(64):
            if empty >> square & 1:
                expected = flips(np.uint64(1 << square), mine, theirs)
                assert flips_at(square, mine, theirs) == expected, (square, hex(player))


def test_stable_discs_are_never_turned() -> None:
    rng = random.Random(3)
    table = edge_stability_table()
    found = 0
    for state in played_states(400, seed=4, min_empties=0)[::2]:
        black, white = state.black, state.white
        stable_black = int(stable_discs(np.uint64(black), np.uint64(white), table))
        stable_white = int(stable_discs(np.uint64(white), np.uint64(black), table))
        assert stable_black & ~black == 0 and stable_white & ~white == 0
        found += stable_black.bit_count() + stable_white.bit_count()
        for _ in range(3):  # random continuations to the end: a stable disc keeps its colour
            line = state
            while not line.is_terminal():
                line = line.apply(rng.choice(line.legal_actions()))
                assert stable_black & ~line.black == 0, (repr(state), repr(line))
                assert stable_white & ~line.white == 0, (repr(state), repr(line))
    assert found > 100  # the check is not vacuous


def test_full_board_is_all_stable_and_lone_discs_are_not() -> None:
    table = edge_stability_table()
    full_player = 0x00FF00FF00FF00FF
    full_opponent = ~full_player & (1 << 64) - 1
    assert int(stable_discs(np.uint64(full_player), np.uint64(full_opponent), table)) == (
        full_player
    )
    lone = np.uint64(1 << 27)  # d4, alone in the centre
    assert int(stable_discs(lone, np.uint64(1 << 36), table)) == 0


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5, 6, 7])
def test_last_empties_kernels_equal_the_reference_solver(empties: int) -> None:
    game = Othello()
    table = edge_stability_table()
    rng = random.Random(empties)
    checked = 0
    for state in played_states(3000, seed=10 + empties):
        if state.empties() != empties or state.is_terminal() or rng.random() < 0.5:
            continue
        value = int(solve(game, state).value)
        mine, theirs = (np.uint64(bits) for bits in state.mover_bits())
        stats = np.zeros(3, dtype=np.int64)
        for alpha, beta in ((-65, 65), (value - 1, value + 1), (value, value + 2)):
            score = search_few(mine, theirs, np.int64(alpha), np.int64(beta), empties, stats, table)
            if alpha < score < beta:  # fail-soft: exact inside the window, a bound outside
                assert score == value, repr(state)
            elif score <= alpha:
                assert value <= score, repr(state)
            else:
                assert value >= score, repr(state)
        checked += 1
    assert checked >= 10


def test_table_entries_round_trip_and_the_deeper_entry_stays() -> None:
    for lower, upper, square, empties in ((-64, 64, 64, 30), (2, 2, 0, 8), (-10, 36, 63, 60)):
        data = pack_entry(np.int64(lower), np.int64(upper), np.int64(square), np.int64(empties))
        assert [int(x) for x in unpack_entry(data)] == [lower, upper, square, empties]
    table = np.zeros((16, 3), dtype=np.uint64)
    stats = np.array([0, 1 << 40, 0], dtype=np.int64)
    context = search_context(stats, table)
    # a 10-empties position: its root entry holds the exact score after a full-window search
    state = played_states(1, seed=0)[0]
    rng = random.Random(5)
    while state.empties() > 10:
        state = state.apply(rng.choice(state.legal_actions()))
    mine, theirs = (np.uint64(bits) for bits in state.mover_bits())
    value = search(mine, theirs, np.int64(-64), np.int64(64), np.int64(10), context)
    assert value == solve(Othello(), state).value
    row = probe(table, mine, theirs)
    assert row >= 0  # the root is stored last, in the first slot of its bucket (the deepest)
    lower, upper, square, empties = (int(x) for x in unpack_entry(table[row, 2]))
    assert lower == upper == value and empties == 10
    assert square in state.legal_actions()


def test_ordering_evaluation_is_antisymmetric_and_searches_to_the_end() -> None:
    stats = np.zeros(1, dtype=np.int64)
    for state in played_states(300, seed=12)[::5]:
        mine, theirs = (np.uint64(bits) for bits in state.mover_bits())
        assert evaluate(mine, theirs) == -evaluate(theirs, mine)
    # on a finished game the shallow search returns the disc difference, weighted
    board = "X" * 62 + "OO"
    black, white = Othello().state_from_board(board, "X").mover_bits()
    value = shallow_value(np.uint64(black), np.uint64(white), -(1 << 30), 1 << 30, 3, stats)
    assert value > 0 and value % 60 == 0


_SOLVE_FROM_CACHE = """
from searchlab.algorithms.adversarial.othello_endgame import solve_endgame
from searchlab.domains.games.othello import Othello
board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"  # FFO #1
result = solve_endgame(Othello().state_from_board(board, "X"), move_scores=True, table_bits=12)
print(result.value, sorted(result.stats["move_scores"].items()))
"""


def test_kernels_load_from_numba_cache(tmp_path: Path) -> None:
    # numba can cache a recursive kernel in a form that fails to link when loaded back
    # (numba issues #6061, #9129): the second run, from the cache, must work as the first
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    runs = [
        subprocess.run(
            [sys.executable, "-c", _SOLVE_FROM_CACHE],
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs[-1].stderr[-2000:]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.startswith("18.0 ")  # FFO #1: +18
    assert any((tmp_path / "numba").rglob("*_othello_endgame_last*.nbi"))
