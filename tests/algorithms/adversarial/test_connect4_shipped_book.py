"""The opening book shipped inside searchlab: its scores against John Tromp's and Pons' values of
the empty board and the first moves (shared/data), and the solver reading it by default."""

from __future__ import annotations

import csv
from pathlib import Path

from searchlab.algorithms.adversarial.connect4_book import default_book
from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, solve_connect4
from searchlab.domains.games.connect4 import parse_moves


def _first_move_scores(shared_data: Path) -> dict[int, int]:
    path = shared_data / "small_game_facts" / "connect4_empty_board_scores.tsv"
    with path.open() as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return {
            int(r["first_move_column"]): int(r["score_for_first_player_after_it"]) for r in rows
        }


def test_the_shipped_book_holds_the_known_values_of_the_first_moves(shared_data: Path) -> None:
    book = default_book()
    assert book is not None and book.depth >= 1
    known = _first_move_scores(shared_data)
    for column, score in known.items():
        state = parse_moves(str(column))
        assert -book.score(state.current, state.mask, 1) == score, column  # type: ignore[operator]
    empty = parse_moves("")
    assert book.score(empty.current, empty.mask, 0) == max(known.values()) == 1


def test_the_solver_answers_the_empty_board_from_the_book_with_no_search(
    shared_data: Path,
) -> None:
    known = _first_move_scores(shared_data)
    result = solve_connect4("")
    best = max(known, key=known.__getitem__)
    assert (result.score, result.action, result.nodes) == (known[best], best - 1, 0)
    off = Connect4Solver(book=None, table_log2=16)
    assert off.book is None
