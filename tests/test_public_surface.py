"""``import searchlab`` is the curated surface its docstring describes: every name in
``__all__`` resolves to the object its home module defines, the layers it lists are the ones
the architecture test enforces, and the names loaded on first use (the adversarial and Monte
Carlo searches, the agents) are not imported, nor their compiled kernels, by ``import
searchlab`` itself."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys

import pytest
from test_architecture import LAYERS

import searchlab

# What the docs promise a user finds at the top (issue 8, README "Quick start").
PROMISED = {
    "Game": "searchlab.core.game",
    "State": "searchlab.core.game",
    "GameInfo": "searchlab.core.game",
    "SearchResult": "searchlab.core.search_result",
    "Limits": "searchlab.core.limits",
    "PathResult": "searchlab.core.results",
    "SearchlabError": "searchlab.core.errors",
    "InvalidParameterError": "searchlab.core.errors",
    "IllegalMoveError": "searchlab.core.errors",
    "UnknownNameError": "searchlab.core.errors",
    "astar": "searchlab.algorithms.path.best_first",
    "dijkstra": "searchlab.algorithms.path.best_first",
    "idastar": "searchlab.algorithms.path.idastar",
    "minimax": "searchlab.algorithms.adversarial.minimax",
    "alphabeta": "searchlab.algorithms.adversarial.alphabeta",
    "negamax": "searchlab.algorithms.adversarial.negamax",
    "solve": "searchlab.algorithms.adversarial.solver",
    "mcts": "searchlab.algorithms.mcts.search",
    "Agent": "searchlab.agents.base",
    "make_agent": "searchlab.agents.registry",
    "games": "searchlab.games",
}
FIRST_REACH = [
    "Game", "State", "SearchResult", "Limits", "games", "astar", "minimax", "alphabeta",
    "negamax", "solve", "mcts", "Agent", "make_agent", "SearchlabError",
]  # fmt: skip
ON_FIRST_USE = ["alphabeta", "minimax", "negamax", "solve", "mcts", "Agent", "make_agent"]


def test_every_name_in_all_resolves_once() -> None:
    assert len(searchlab.__all__) == len(set(searchlab.__all__))
    for name in searchlab.__all__:
        assert getattr(searchlab, name) is not None, name
    namespace: dict[str, object] = {}
    exec("from searchlab import *", namespace)
    assert set(searchlab.__all__) <= set(namespace)


@pytest.mark.parametrize(("name", "home"), sorted(PROMISED.items()))
def test_the_promised_names_are_their_home_modules_objects(name: str, home: str) -> None:
    assert name in searchlab.__all__
    module = importlib.import_module(home)
    expected = module if name == "games" else getattr(module, name)
    assert getattr(searchlab, name) is expected
    assert name in dir(searchlab)


def test_games_make_is_the_registry() -> None:
    assert searchlab.games.make("connect4").info.name == "connect4"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'searchlab' has no attribute 'astra'"):
        searchlab.astra  # noqa: B018


def test_the_docstring_lists_the_layers_the_architecture_test_enforces() -> None:
    doc = searchlab.__doc__ or ""
    chain = re.search(r"^\s*(core <- .*)$", doc, re.MULTILINE)
    assert chain, "no layer chain in searchlab's docstring"
    levels = [[name.strip() for name in level.split(",")] for level in chain[1].split("<-")]
    assert sorted(name for level in levels for name in level) == sorted(LAYERS)
    for number, level in enumerate(levels):
        assert {LAYERS[name] for name in level} == {number}, level
    for name in FIRST_REACH:
        assert re.search(rf"\b{name}\b", doc), f"the docstring does not mention {name}"


def test_import_searchlab_loads_no_search_kernels_until_first_use() -> None:
    code = (
        "import json, sys\n"
        "import searchlab\n"
        "before = sorted(m for m in sys.modules if m.startswith('searchlab'))\n"
        "searchlab.mcts, searchlab.solve, searchlab.make_agent\n"
        "after = sorted(m for m in sys.modules if m.startswith('searchlab'))\n"
        "print(json.dumps([before, after]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = json.loads(out.stdout)
    lazy = ("searchlab.algorithms.adversarial", "searchlab.algorithms.mcts", "searchlab.agents")
    assert not [m for m in before if m.startswith(lazy)]
    for package in lazy:
        assert package in after
    assert set(ON_FIRST_USE) <= set(searchlab.__all__)
