"""`searchlab solve othello --threads`: exact results on several threads (checked against the
FFO file) and one clear line for a bad thread count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.algorithms.adversarial.othello_endgame import default_threads
from searchlab.domains.games.othello.obf import read_obf


@pytest.mark.parametrize("threads", ["1", "2"])
def test_threads_solve_ffo_exactly(
    shared_data: Path, capsys: pytest.CaptureFixture[str], threads: str
) -> None:
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    argv = ["solve", "othello", "--obf", str(obf), "--limit", "8", "--json", "--threads", threads]
    code, out, err = run_main(capsys, *argv)
    assert code == 0
    objects = [json.loads(line) for line in out.strip().splitlines()]
    expected = list(read_obf(obf))[:8]  # FFO #1-#15, from the file
    assert [obj["score"] for obj in objects] == [p.best_score for p in expected]
    for obj in objects:
        assert obj["status"] == "ok" and obj["best_move"] in obj["expected_moves"]
    plural = "s" if threads != "1" else ""
    assert "8 positions, 0 mismatches, 0 stopped" in err and f", {threads} thread{plural}" in err


def test_default_is_every_core(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    code, out, _ = run_main(capsys, "solve", "othello", "--obf", str(obf), "--limit", "1")
    assert code == 0
    cores = default_threads()
    assert out.strip().splitlines()[-1].endswith(f", {cores} thread{'s' if cores > 1 else ''}")


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("0", "expected a number > 0, got '0'"),
        ("two", "expected a whole number, got 'two'"),
        ("1000", "expected at most 256 threads, got '1000'"),
    ],
)
def test_bad_thread_count_is_one_line(
    capsys: pytest.CaptureFixture[str], value: str, fragment: str
) -> None:
    board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"  # FFO #1
    code, _, err = run_main(capsys, "solve", "othello", "--threads", value, "--", f"{board} X")
    assert_one_line_error(code, err, "--threads", fragment)
