"""Each Monte Carlo option's default is written once: a constant that every search, agent,
config and schema takes (issue 27). The test reads the source, so a default copied back as a
literal beside an option's name fails it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from searchlab.algorithms.mcts import options
from searchlab.learning.puct_arrays import PUCTConfig
from searchlab.learning.train_config import TrainConfig

SRC = Path(__file__).resolve().parents[3] / "src" / "searchlab"

# option name as written in the code, its constant, the literal of its value
DEFAULTS = [
    ("c_puct", "DEFAULT_C_PUCT", "1.5"),
    ("dirichlet_epsilon", "DEFAULT_DIRICHLET_EPSILON", "0.25"),
    ("batch", "DEFAULT_SEARCH_BATCH", "8"),
    ("batch_size", "DEFAULT_SEARCH_BATCH", "8"),
    ("search_batch", "DEFAULT_SEARCH_BATCH", "8"),
    ("virtual_loss", "DEFAULT_VIRTUAL_LOSS", "1.0"),
    ("fpu", "DEFAULT_FPU", "0.0"),
]


def source_lines() -> list[tuple[str, int, str]]:
    lines = []
    for path in sorted(SRC.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            lines.append((str(path.relative_to(SRC)), number, line))
    return lines


@pytest.mark.parametrize(("name", "constant", "literal"), DEFAULTS)
def test_a_default_is_written_once(name: str, constant: str, literal: str) -> None:
    # where a default is given: a typed parameter or field (``name: int = 8``, a config knob
    # ``_knob(8, ...)``) or an agent parameter (``"name": Param(int, 8, ...)``)
    value = rf"(?<![\w.]){re.escape(literal)}(?![\d])"
    given = re.compile(
        rf"\b{name}\s*:\s*[\w\[\]|. ]+=\s*(?:_knob\()?{value}|\"{name}\":\s*Param\(\w+,\s*{value}"
    )
    copies = [
        f"{path}:{number}: {line.strip()}"
        for path, number, line in source_lines()
        if given.search(line.split("#")[0])
    ]
    assert copies == [], f"{name}'s default written again instead of {constant}"
    definitions = [
        f"{path}:{number}"
        for path, number, line in source_lines()
        if re.match(rf"{constant} = {re.escape(literal)}$", line)
    ]
    assert definitions == ["algorithms/mcts/options.py:" + definitions[0].split(":")[1]]


def test_every_search_takes_the_one_default() -> None:
    assert options.MCTSOptions().c_puct == options.DEFAULT_C_PUCT == PUCTConfig().c_puct
    assert TrainConfig().c_puct == options.DEFAULT_C_PUCT
    assert PUCTConfig().batch_size == TrainConfig().search_batch == options.DEFAULT_SEARCH_BATCH
    assert PUCTConfig().virtual_loss == TrainConfig().virtual_loss == options.DEFAULT_VIRTUAL_LOSS
    assert PUCTConfig().fpu == TrainConfig().fpu == options.DEFAULT_FPU
    assert (
        options.MCTSOptions().dirichlet_epsilon
        == PUCTConfig().dirichlet_epsilon
        == TrainConfig().dirichlet_epsilon
        == options.DEFAULT_DIRICHLET_EPSILON
    )
