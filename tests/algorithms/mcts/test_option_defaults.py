"""Each Monte Carlo option's default is written once: a constant that every search, agent,
config and schema takes (issue 27). The test reads the source, so a default copied back as a
literal beside an option's name fails it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from searchlab.algorithms.mcts import options
from searchlab.learning.alphazero.train_config import TrainConfig

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
    made = options.MCTSOptions()
    train = TrainConfig()
    assert made.c_puct == train.c_puct == options.DEFAULT_C_PUCT
    assert made.search_batch == train.search_batch == options.DEFAULT_SEARCH_BATCH
    assert made.virtual_loss == train.virtual_loss == options.DEFAULT_VIRTUAL_LOSS
    assert made.fpu == train.fpu == options.DEFAULT_FPU
    assert made.fpu_mode == train.fpu_mode
    assert made.dirichlet_epsilon == train.dirichlet_epsilon == options.DEFAULT_DIRICHLET_EPSILON
    # and what training searches with is the one options object, made from its knobs
    assert train.puct(noise=False) == dataclasses.replace(made, dirichlet_alpha=None)


@pytest.mark.parametrize("name", ["c_puct", "search_batch", "virtual_loss", "fpu", "fpu_mode"])
def test_a_knobs_help_is_written_once(name: str) -> None:
    """The training config's knob and the agents' spec parameter read the option's own
    declaration: its default and its line of help."""
    from searchlab.agents.kinds import option_param

    default, text, _ = options.option_help(name)
    knob = {field.name: field for field in dataclasses.fields(TrainConfig)}[name]
    assert knob.default == default and knob.metadata["help"].startswith(text)
    param = option_param(name)
    assert (param.default, param.help) == (default, text)


def test_the_network_agents_take_their_parameters_from_the_options() -> None:
    from searchlab.learning.agents import AZ_KIND
    from searchlab.learning.alphago.agent import ALPHAGO_KIND

    for kind in (AZ_KIND, ALPHAGO_KIND):
        assert kind.params["c_puct"].default == options.DEFAULT_C_PUCT
        assert kind.params["batch"].default == options.DEFAULT_SEARCH_BATCH
        assert kind.params["batch"].help == options.option_help("search_batch")[1]
