"""benchmarks/connect4_validation.py: mistake rates on labelled expert chunks (the labels are
the exact solver's), and its bad input as one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from searchlab.learning.alphago.data import generate_expert_positions


@pytest.fixture(scope="module")
def chunk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Endgames of random play (ply 30 on: at most 12 moves left), every move solved."""
    path = tmp_path_factory.mktemp("chunk") / "train-0000.npz"
    generate_expert_positions(60, seed=3, min_ply=30, random_share=1.0).save(path)
    return path


def _rates(output: str) -> dict[str, int]:
    rows = [line.split() for line in output.splitlines()[2:] if line.strip()]
    return {row[0]: int(row[1]) for row in rows}


def test_a_perfect_searcher_makes_no_mistakes_and_random_play_makes_some(
    load_benchmark: Callable[[str], ModuleType], chunk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = load_benchmark("connect4_validation").main(
        ["--chunks", str(chunk), "--agent", "alphabeta:depth=12", "--agent", "random"]
    )
    output = capsys.readouterr().out
    assert code == 0
    assert "where a mistake is possible" in output
    rates = _rates(output)
    assert rates["alphabeta:depth=12"] == 0
    assert rates["random"] > 0


def test_offset_and_limit_pick_the_positions_each_once(
    load_benchmark: Callable[[str], ModuleType], chunk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = load_benchmark("connect4_validation")
    assert module.main(["--chunks", str(chunk), "--agent", "random", "--limit", "5"]) == 0
    assert "positions: 5 where" in capsys.readouterr().out
    args = ["--chunks", str(chunk), "--agent", "random", "--offset", "2", "--limit", "3"]
    assert module.main(args) == 0
    assert "positions: 3 where" in capsys.readouterr().out
    assert module.main(["--chunks", str(chunk), "--agent", "random"]) == 0
    once = capsys.readouterr().out.splitlines()[0]
    assert module.main(["--chunks", str(chunk), str(chunk), "--agent", "random"]) == 0
    twice = capsys.readouterr().out.splitlines()[0]
    assert once.split(",")[0] == twice.split(",")[0]  # a position labelled twice counts once


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--limit", "0"], "--limit must be at least 1"),
        (["--offset", "-1"], "--offset must be at least 0"),
        (["--offset", "100000"], "no positions after the first 100000"),
        (["--agent", "nosuchagent"], "nosuchagent"),
    ],
)
def test_bad_input_is_one_line(
    load_benchmark: Callable[[str], ModuleType],
    chunk: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    code = load_benchmark("connect4_validation").main(
        ["--chunks", str(chunk), "--agent", "random", *extra]
    )
    error = capsys.readouterr().err
    assert code == 2
    assert message in error and len(error.strip().splitlines()) == 1


def test_a_missing_chunk_is_one_line(
    load_benchmark: Callable[[str], ModuleType], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = load_benchmark("connect4_validation").main(
        ["--chunks", str(tmp_path / "none.npz"), "--agent", "random"]
    )
    error = capsys.readouterr().err
    assert code == 2 and "none.npz" in error and len(error.strip().splitlines()) == 1
