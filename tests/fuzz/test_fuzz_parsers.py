"""Property-based fuzzing of every parser and boundary (targets in ``fuzz_targets.py``): for
any input, random or mutated from a valid file, the parser returns a result that passes its
target's checks, or raises a ``SearchlabError`` with a one-line message; nothing else. Bad
input given to the command line is one line ``searchlab...: error: ...`` and exit code 2.

``benchmarks/fuzz_campaign.py`` runs the same targets for millions of inputs.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from fuzz_targets import TARGETS, Target, check_cli_error, cleanup, mutate, outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NAMES = sorted(TARGETS)
CLI_NAMES = sorted(name for name, target in TARGETS.items() if target.cli is not None)
ODD = "\x00\x7f\u00a0\u2028\ufeff\u0663\uff11é€\U0001f600\\'\"%#\r"


def inputs(target: Target) -> st.SearchStrategy:
    """Random text of the target's alphabet, its tokens, and mutations of its valid seeds."""
    seeds = target.seeds()
    mutated = st.builds(
        lambda seed, number: mutate(seed, random.Random(number), target, seeds),
        st.sampled_from(seeds),
        st.integers(0, 2**32 - 1),
    )
    if target.binary:
        return st.one_of(mutated, st.binary(max_size=300))
    alphabet = st.sampled_from(target.alphabet + ODD)
    words = st.sampled_from(target.tokens) if target.tokens else alphabet
    text = st.lists(st.one_of(alphabet, words), max_size=40).map("".join)
    return st.one_of(mutated, text, st.text(max_size=60))


@pytest.mark.parametrize("name", NAMES)
def test_every_seed_is_accepted(name: str) -> None:
    """The valid inputs mutation starts from pass their target's checks (so the checks of an
    accepted input are exercised, not only the rejections)."""
    target = TARGETS[name]
    seeds = target.seeds()
    assert seeds
    results = [outcome(target, seed) for seed in seeds]
    if name == "cli_numbers":  # one option per input length: some seeds fit no option
        assert "ok" in results, results
    else:
        assert set(results) == {"ok"}, list(zip(seeds, results, strict=True))


def steady(examples: int) -> settings:
    """Hypothesis settings for these runs: ``examples`` inputs, the same ones every run (no
    example database), no deadline (a parser may be slow on a busy machine)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.mark.parametrize("name", NAMES)
def test_any_input_is_accepted_or_rejected_in_one_line(name: str) -> None:
    target = TARGETS[name]
    seen: dict[str, int] = {"ok": 0, "rejected": 0}
    examples = 60 if name in ("arena_db", "cli_numbers", "pons_lines") else 300

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)

        @steady(examples)
        @given(data=inputs(target))
        def check(data: str | bytes) -> None:
            try:
                seen[outcome(target, data, workdir)] += 1
            finally:
                cleanup(workdir)

        check()
    assert seen["rejected"] > 0  # the inputs reach the parser's error paths


@pytest.mark.parametrize("name", CLI_NAMES)
def test_rejected_inputs_are_one_line_and_exit_2_on_the_command_line(name: str) -> None:
    target = TARGETS[name]
    checked = [0]

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)

        @steady(25)
        @given(data=inputs(target))
        def check(data: str | bytes) -> None:
            try:
                if outcome(target, data, workdir) == "rejected":
                    check_cli_error(target, data, workdir)
                    checked[0] += 1
            finally:
                cleanup(workdir)

        check()
    assert checked[0] > 0
