"""benchmarks/connect4_hardness.py: the share of Pons' positions the labeller's rule settles
within a budget, and its bad input as one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def test_a_larger_budget_settles_more(
    load_benchmark: Callable[[str], ModuleType],
    shared_data: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """End-Easy positions (under 14 moves left) are all settled with ten million nodes a move;
    with 20 nodes a move some are not."""
    data = shared_data / "connect4_pons"
    code = load_benchmark("connect4_hardness").main(
        ["--sets", "End-Easy", "--limit", "6", "--budgets", "20", "10000000", "--data", str(data)]
    )
    assert code == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    settled = {int(row[1]): int(row[3]) for row in rows}
    assert settled[10_000_000] == 6 > settled[20]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--limit", "0"], "--limit must be at least 1, not 0"),
        (["--budgets", "0"], "a budget must be at least 1 node, not 0"),
        (["--sets", "Begin-Huge"], "unknown set 'Begin-Huge'"),
        (["--data", "/nonexistent"], "cannot read Pons file"),
    ],
)
def test_bad_input_is_one_line(
    load_benchmark: Callable[[str], ModuleType],
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert load_benchmark("connect4_hardness").main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
