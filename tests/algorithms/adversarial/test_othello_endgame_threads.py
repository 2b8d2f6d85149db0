"""The Othello endgame solver on several threads: exact scores and best moves against the FFO
file (the ground truth), limits and stop, bad thread counts, the lockless table."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from endgame_context import search_context
from hang_guard import hang_guard

from searchlab.algorithms.adversarial._othello_endgame_search import (
    pack_entry,
    probe,
    search,
)
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver, solve_endgame
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.othello.obf import ObfPosition, read_obf


def ffo_positions(shared_data: Path) -> list[ObfPosition]:
    return list(read_obf(shared_data / "othello_ffo" / "ffo_endgame.obf"))


@pytest.mark.parametrize("threads", [2, 3])
def test_ffo_up_to_19_empties_exact_on_several_threads(shared_data: Path, threads: int) -> None:
    positions = [p for p in ffo_positions(shared_data) if p.state().empties() <= 19]
    assert len(positions) == 13  # #1-#25
    by_thread = np.zeros(threads, dtype=np.int64)
    for position in positions:
        result = solve_endgame(position.state(), table_bits=18, threads=threads)
        assert result.is_proven and result.stopped_by is None, position.source
        assert result.score == position.best_score, position.source
        assert result.action in position.best_moves, position.source
        thread_nodes = result.stats["thread_nodes"]
        assert len(thread_nodes) == threads and result.nodes >= sum(thread_nodes) > 0
        by_thread += thread_nodes
    # every thread searched (on a tiny position one thread may finish before the other starts)
    assert by_thread.min() > 0, by_thread


def test_one_solver_on_two_threads_keeps_its_table_exact(shared_data: Path) -> None:
    # the table written by two threads serves later solves: repeated solves stay exact
    solver = EndgameSolver(table_bits=16, threads=2)
    for position in ffo_positions(shared_data)[:6] * 2:
        result = solver.solve(position.state())
        assert result.score == position.best_score and result.action in position.best_moves


def test_move_scores_on_two_threads(shared_data: Path) -> None:
    position = next(p for p in ffo_positions(shared_data) if p.state().empties() == 14)
    result = solve_endgame(position.state(), move_scores=True, table_bits=16, threads=2)
    assert result.stats["move_scores"] == dict(position.move_scores)


def test_limits_and_stop_on_two_threads(shared_data: Path) -> None:
    hard = next(p for p in ffo_positions(shared_data) if p.state().empties() >= 28)
    result = solve_endgame(hard.state(), limits=Limits(nodes=200_000), threads=2, table_bits=16)
    assert result.stopped_by == "nodes" and not result.is_proven and result.score is None
    lower, upper = result.stats["bounds"]
    assert lower <= hard.best_score <= upper
    result = solve_endgame(hard.state(), limits=Limits(time=0.3), threads=2, table_bits=16)
    assert result.stopped_by == "time" and not result.is_proven
    solver = EndgameSolver(table_bits=16, threads=2)
    timer = threading.Timer(0.3, solver.stop)
    timer.start()
    with hang_guard("a two-thread solve stopped from another thread"):
        result = solver.solve(hard.state())  # stopped, not solved (#53 takes minutes)
    timer.join()
    assert result.stopped_by == "stop" and not result.is_proven


@pytest.mark.parametrize(
    ("threads", "message"),
    [
        (0, "threads must be in 1..256, got 0"),
        (1000, "threads must be in 1..256, got 1000"),
        ("2", "threads must be an integer, got '2'"),
        (True, "threads must be an integer, got True"),
    ],
)
def test_bad_thread_counts(threads: object, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        EndgameSolver(table_bits=8, threads=threads)  # type: ignore[arg-type]


def test_a_torn_table_entry_reads_as_a_miss() -> None:
    # the keys are stored xor-ed with the data: the keys of one write with the data of
    # another (two threads writing one slot) must not lend the data to the position
    table = np.zeros((16, 3), dtype=np.uint64)
    black = Othello().initial_state()
    player, opponent = (np.uint64(bits) for bits in black.mover_bits())
    stats = np.array([0, 1 << 40, 0], dtype=np.int64)
    board = "XXXXXXXX" * 3 + "OOOOOOXX" + "XOXOXOOX" + "OXXOOXOX" + "OX---X-O" + "O-O-XO--"
    state = Othello().state_from_board(board, "X")  # 9 empties: stored in the table
    mine, theirs = (np.uint64(bits) for bits in state.mover_bits())
    context = search_context(stats, table)
    search(mine, theirs, np.int64(-64), np.int64(64), np.int64(9), context)
    row = probe(table, mine, theirs)
    assert row >= 0
    table[row, 2] = pack_entry(np.int64(-64), np.int64(64), np.int64(3), np.int64(9))
    assert probe(table, mine, theirs) == -1
    assert probe(table, player, opponent) == -1
