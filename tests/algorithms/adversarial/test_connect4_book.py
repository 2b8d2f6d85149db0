"""The Connect Four opening book and the parallel solver, checked against Pons' test files
(shared/data/connect4_pons) and against fresh book-less solves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from searchlab.algorithms.adversarial import connect4_book_build as building
from searchlab.algorithms.adversarial.connect4_book import (
    BookFormatError,
    Connect4Book,
    canonical_key,
)
from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.core.errors import InvalidParameterError
from searchlab.core.workers import InlinePool
from searchlab.domains.games.connect4 import parse_moves

PONS = Path(__file__).resolve().parents[4] / "shared" / "data" / "connect4_pons"
# A Middle-Easy position of Pons' file Test_L2_R1 and its score there.
ROOT, ROOT_SCORE = "4661237137541742643224", 8
DEPTH = 27


def _mirror(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


def _pons(name: str, count: int, step: int) -> list[tuple[str, int]]:
    lines = [line.split() for line in (PONS / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in lines[::step][:count]]


def test_the_root_is_a_pons_line() -> None:
    assert f"{ROOT} {ROOT_SCORE}" in (PONS / "Test_L2_R1").read_text().splitlines()


@pytest.fixture(scope="module")
def book() -> Connect4Book:
    return building.build_book(DEPTH, root=ROOT, workers=0, chunk=16)


def test_every_stored_score_equals_a_fresh_solve(book: Connect4Book) -> None:
    solver = Connect4Solver(table_log2=20, book=None)
    levels = building.enumerate_levels(DEPTH, ROOT)
    stored = [position for level in levels for position in level]
    assert len(stored) == len(book) > 50
    for current, mask, moves in stored:
        assert book.get(canonical_key(current, mask)) == solver.score(moves), moves


def test_the_book_answers_the_root_and_its_mirror_with_pons_score(book: Connect4Book) -> None:
    for moves in (ROOT, _mirror(ROOT)):
        result = Connect4Solver(table_log2=16, book=book).solve(moves)
        assert result.score == ROOT_SCORE and result.nodes == 0
        # the move the book picks keeps the score: its child scores -8 by a fresh search
        child = parse_moves(moves).apply(result.action)
        assert Connect4Solver(table_log2=20, book=None).score(child) == -ROOT_SCORE


def test_mirror_images_share_one_entry() -> None:
    a, b = parse_moves("1234"), parse_moves(_mirror("1234"))
    assert a.key() != b.key()
    assert canonical_key(a.current, a.mask) == canonical_key(b.current, b.mask)
    # folded counts: 7 positions after one ply are 4 up to mirroring, 49 after two are 25
    assert [len(level) for level in building.enumerate_levels(2)] == [1, 4, 25]


def test_save_and_load_round_trip(book: Connect4Book, tmp_path: Path) -> None:
    path = tmp_path / "b.c4book"
    book.save(path)
    again = Connect4Book.load(path)
    assert again.depth == DEPTH
    assert np.array_equal(again.keys, book.keys) and np.array_equal(again.scores, book.scores)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: b"PK\x03\x04" + data[4:], "not a searchlab Connect Four book"),
        (lambda data: data[:-3], "truncated"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "checksum"),
        (lambda data: data[:8] + b"\x07" + data[9:], "version 7"),
        (lambda data: b"", "not a searchlab Connect Four book"),
    ],
)
def test_a_corrupt_or_foreign_file_is_one_line(
    book: Connect4Book, tmp_path: Path, damage: Any, message: str
) -> None:
    path = tmp_path / "b.c4book"
    book.save(path)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(BookFormatError, match=message) as caught:
        Connect4Book.load(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


class _KilledAfter(InlinePool):
    """Runs in this process and dies (as a kill would) after ``chunks`` chunks; records the
    positions it was asked to solve."""

    def __init__(self, chunks: int | None) -> None:
        self.chunks = chunks
        self.asked: list[int] = []

    def run(self, tasks: Any, function: Any) -> Any:
        for count, task in enumerate(tasks):
            if self.chunks is not None and count == self.chunks:
                raise KeyboardInterrupt
            self.asked.append(task.index)
            yield function(task)


def test_a_killed_build_resumes_without_solving_again(book: Connect4Book, tmp_path: Path) -> None:
    out = tmp_path / "b.c4book"
    first = _KilledAfter(2)
    with pytest.raises(KeyboardInterrupt):
        building.build_book(DEPTH, root=ROOT, out=out, chunk=16, pool=first)
    partial = out.with_name(out.name + ".partial")
    assert sorted(p.name for p in partial.glob("chunk-*.npz")) == [
        "chunk-0000000.npz",
        "chunk-0000001.npz",
    ]
    assert not out.exists()
    second = _KilledAfter(None)
    resumed = building.build_book(DEPTH, root=ROOT, out=out, chunk=16, pool=second)
    assert first.asked == [0, 1] and 0 not in second.asked and 1 not in second.asked
    assert len(second.asked) >= 2
    assert np.array_equal(resumed.keys, book.keys) and np.array_equal(resumed.scores, book.scores)
    assert out.exists() and not partial.exists()


def test_a_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "b.c4book"
    with pytest.raises(KeyboardInterrupt):
        building.build_book(DEPTH, root=ROOT, out=out, chunk=16, pool=_KilledAfter(1))
    with pytest.raises(InvalidParameterError, match="other settings"):
        building.build_book(DEPTH, root=ROOT, out=out, chunk=8, pool=_KilledAfter(None))


def test_a_depth_too_large_for_memory_is_refused() -> None:
    with pytest.raises(InvalidParameterError, match="GiB") as caught:
        building.check_depth(24)  # 2.3e11 positions up to ply 24
    assert "\n" not in str(caught.value)
    assert building.check_depth(8) == 8
    with pytest.raises(InvalidParameterError):
        building.check_depth(-1)


@pytest.mark.parametrize(("name", "count", "step"), [("Test_L2_R2", 12, 41), ("Test_L1_R2", 4, 97)])
def test_two_threads_are_exact_on_pons_positions(name: str, count: int, step: int) -> None:
    solver = Connect4Solver(table_log2=20, threads=2, book=None)
    for moves, expected in _pons(name, count, step):
        result = solver.solve(moves)
        assert result.score == expected, moves
        child = parse_moves(moves).apply(result.action)
        if not child.is_terminal():
            assert Connect4Solver(table_log2=18, book=None).score(child) == -expected


def test_threads_must_be_a_positive_integer() -> None:
    for bad in (0, -1, 1.5, True):
        with pytest.raises(InvalidParameterError, match="threads"):
            Connect4Solver(table_log2=10, threads=bad)  # type: ignore[arg-type]
