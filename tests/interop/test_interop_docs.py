"""docs/interop.md's examples run as they are written (its ``>>>`` blocks, as doctests)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from needs import require_module

require_module("pyspiel", "openspiel")
require_module("pettingzoo", "pettingzoo")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
def test_the_examples_of_docs_interop_run() -> None:
    """(The two warnings are those ``api_test`` gives every dict observation but PettingZoo's
    own: see ``test_pettingzoo.py``.)"""
    failures, tried = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert tried >= 30 and failures == 0
