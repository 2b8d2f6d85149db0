"""Tic-tac-toe counts against the published table (shared/data/small_game_facts)."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.perft import divide, perft, perft_mismatch_report
from searchlab.domains.games.tictactoe import TicTacToe


def _rows(shared_data: Path) -> dict[str, dict[str, int]]:
    path = shared_data / "small_game_facts" / "tictactoe_counts.tsv"
    with path.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {row["ply"]: {k: int(v) for k, v in row.items() if k != "ply"} for row in rows}


def test_tictactoe_perft_matches_published_counts(shared_data: Path) -> None:
    rows = _rows(shared_data)
    root = TicTacToe().initial_state()
    # every ply's count is also checked by the level-by-level walk below; perft itself runs the
    # deepest ones (the whole tree) and a few shallow ones
    for ply in (0, 1, 2, 5, 9):
        assert perft(root, ply) == rows[str(ply)]["game_tree_nodes"], ply


def test_tictactoe_positions_and_results_per_ply(shared_data: Path) -> None:
    rows = _rows(shared_data)
    level = {TicTacToe().initial_state().key(): TicTacToe().initial_state()}
    ends: Counter[tuple[int, str]] = Counter()
    frontier = [TicTacToe().initial_state()]
    for ply in range(10):
        assert len(level) == rows[str(ply)]["distinct_positions"], ply
        assert len(frontier) == rows[str(ply)]["game_tree_nodes"] - sum(
            ends[(ply, result)] for result in ("x_wins", "o_wins", "draw")
        ), ply
        next_level = {}
        for state in level.values():
            for action in state.legal_actions():
                child = state.apply(action)
                next_level.setdefault(child.key(), child)
        level = {key: s for key, s in next_level.items()}
        # games ending per ply come from the full tree (sequences), not distinct positions
        next_frontier = []
        for state in frontier:
            for action in state.legal_actions():
                child = state.apply(action)
                if child.is_terminal():
                    result = {(1.0, -1.0): "x_wins", (-1.0, 1.0): "o_wins"}.get(
                        child.returns(), "draw"
                    )
                    ends[(ply + 1, result)] += 1
                else:
                    next_frontier.append(child)
        frontier = next_frontier
    for ply in range(1, 10):
        for result in ("x_wins", "o_wins", "draw"):
            assert ends[(ply, result)] == rows[str(ply)][f"games_ending_{result}"], (ply, result)
    assert sum(ends.values()) == 255_168


def test_divide_sums_to_perft_and_mismatch_report() -> None:
    root = TicTacToe().initial_state()
    split = divide(root, 3)
    assert sum(split.values()) == 504
    assert set(split) == {f"{c}{r}" for c in "abc" for r in "123"}
    assert perft_mismatch_report(root, 3, 504) is None
    report = perft_mismatch_report(root, 2, 73, {"a1": 9})
    assert report is not None
    assert report.startswith("perft(2) = 72, expected 73; divide:")
    assert "a1 8   <- expected 9" in report


def test_nim_perft_by_brute_force() -> None:
    # From (1, 2): moves 1:1, 2:1, 2:2. Depth 2: after 1:1 -> (0,2): 2 moves; after 2:1 ->
    # (1,1): 2 moves; after 2:2 -> (1,0): 1 move. Total 5.
    assert perft(Nim((1, 2)).initial_state(), 2) == 5


def test_perft_rejects_a_bad_depth() -> None:
    with pytest.raises(InvalidParameterError, match="-1"):
        perft(TicTacToe().initial_state(), -1)
    with pytest.raises(InvalidParameterError, match="0"):
        divide(TicTacToe().initial_state(), 0)
