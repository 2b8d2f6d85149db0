"""benchmarks/connect4_mistakes.py --unseen: only the Pons positions an alphago run's expert
chunks never held (mirror images included) are scored; an unreadable chunk is one line."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from searchlab.learning.alphago.data import ExpertPositions

_ROOT = Path(__file__).resolve().parents[3]


def _scored(output: str) -> int:
    [row] = [line.split() for line in output.splitlines() if " End-Easy " in line]
    return int(row[2])


def test_unseen_leaves_out_the_positions_the_chunks_hold(
    load_benchmark: Callable[[str], ModuleType],
    shared_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = shared_data / "connect4_pons"
    first = [line.split()[0] for line in (data / "Test_L3_R1").read_text().splitlines()[:3]]
    mirrored = first[1].translate(str.maketrans("1234567", "7654321"))
    chunk = tmp_path / "train-0000.npz"
    moves = (first[0], mirrored, "4")  # "4": a position not among the first 12
    ExpertPositions(moves, np.zeros((3, 7), dtype=np.int8)).save(chunk)
    cache = tmp_path / "cache.json"
    shutil.copy(_ROOT / "benchmarks" / "results" / "connect4_mistakes_outcomes.json", cache)
    common = ["--agent", "alphabeta:depth=2", "--sets", "End-Easy", "--limit", "12"]
    common += ["--data", str(data), "--cache", str(cache)]
    assert load_benchmark("connect4_mistakes").main(common) == 0
    assert _scored(capsys.readouterr().out) == 12
    assert load_benchmark("connect4_mistakes").main([*common, "--unseen", str(chunk)]) == 0
    assert _scored(capsys.readouterr().out) == 10


def test_an_unreadable_chunk_is_one_line(
    load_benchmark: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    (tmp_path / "broken.npz").write_bytes(b"not a chunk")
    with pytest.raises(SystemExit) as stop:
        load_benchmark("connect4_mistakes").main(["--unseen", str(tmp_path / "broken.npz")])
    message = str(stop.value.code)
    assert message.startswith("connect4_mistakes: expert positions") and "\n" not in message
