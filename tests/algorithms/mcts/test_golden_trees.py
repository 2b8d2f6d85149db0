"""Every Monte Carlo search gives, for a fixed seed and simulation budget, the result recorded
before the MCTS engines were merged into one (``golden/mcts_golden.json``, written by
``golden_cases.py --write``): the move, the value, the node count, and every root child's
visits, mean value, prior and proof, exactly.

A legitimate change of a search's behaviour (not a refactor) records the file again, in its own
commit that says why."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import torch
from golden_cases import CASES, GOLDEN, TORCH_CASES, run_case

torch.set_num_threads(1)

STORED: dict[str, Any] = json.loads(GOLDEN.read_text())


def test_every_case_is_recorded() -> None:
    assert sorted(STORED) == sorted(CASES)


def _compare(found: Any, expected: Any, where: str, floats_exact: bool) -> None:
    """``found == expected``, naming the first place they differ. Integers (visits, actions,
    node counts), strings, ``None`` and booleans compare exactly, type and all; floats exactly
    too (an integer of the same value passes), unless ``floats_exact`` is off (then to 1e-5
    relative: float32's rounding, about 1e-7, summed over a network's layers)."""
    if isinstance(expected, dict):
        assert isinstance(found, dict), where
        assert sorted(found) == sorted(expected), f"{where}: keys"
        for key in expected:
            _compare(found[key], expected[key], f"{where}.{key}", floats_exact)
    elif isinstance(expected, list):
        assert isinstance(found, list), where
        assert len(found) == len(expected), f"{where}: length {len(found)} != {len(expected)}"
        for index, (got, want) in enumerate(zip(found, expected, strict=True)):
            _compare(got, want, f"{where}[{index}]", floats_exact)
    elif isinstance(expected, float):
        assert isinstance(found, int | float) and not isinstance(found, bool), where
        if floats_exact:
            assert found == expected, f"{where}: {found!r} != {expected!r}"
        else:
            assert math.isfinite(found), where
            assert found == pytest.approx(expected, rel=1e-5, abs=1e-7), (
                f"{where}: {found!r} != {expected!r}"
            )
    else:
        assert type(found) is type(expected) and found == expected, (
            f"{where}: {found!r} != {expected!r}"
        )


@pytest.mark.parametrize("name", sorted(CASES))
def test_search_matches_its_golden_result(name: str) -> None:
    # The searches are seeded and budgeted in simulations, so a float is the same sum of the
    # same numbers in the same order: compared exactly. Where a PyTorch network gives the
    # priors and values, its float32 arithmetic may round differently on another CPU (the
    # matrix kernels torch picks depend on the instruction set), so those floats are compared
    # to 1e-5 relative (an AVX-512 Xeon and an AVX2 EPYC differ by about 3e-8); visits,
    # actions and node counts are still exact.
    _compare(run_case(name), STORED[name], name, floats_exact=name not in TORCH_CASES)
