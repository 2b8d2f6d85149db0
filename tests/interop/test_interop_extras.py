"""Without its extra, importing an adapter is one line naming the extra to install (quoted for
zsh); the package itself, and searchlab, import without either."""

from __future__ import annotations

import importlib
import sys

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.domains.games import registry

ADAPTERS = [
    ("searchlab.interop.openspiel", "pyspiel", "OpenSpiel", "openspiel"),
    ("searchlab.interop.pettingzoo", "pettingzoo", "PettingZoo", "pettingzoo"),
]


def _without(monkeypatch: pytest.MonkeyPatch, adapter: str, blocked: str) -> None:
    """Make ``blocked`` impossible to import (as if not installed) and ``adapter`` not yet
    imported; both are put back after the test."""
    monkeypatch.setitem(sys.modules, blocked, None)
    monkeypatch.delitem(sys.modules, adapter, raising=False)


@pytest.mark.parametrize(("adapter", "blocked", "package", "extra"), ADAPTERS)
def test_importing_an_adapter_without_its_extra_is_one_line(
    monkeypatch: pytest.MonkeyPatch, adapter: str, blocked: str, package: str, extra: str
) -> None:
    _without(monkeypatch, adapter, blocked)
    with pytest.raises(ImportError) as caught:
        importlib.import_module(adapter)
    assert str(caught.value) == (
        f"{adapter} needs {package} ({blocked} is not installed): pip install 'searchlab[{extra}]'"
    )
    assert caught.value.name == blocked
    importlib.reload(importlib.import_module("searchlab.interop"))  # the package needs neither


def test_the_command_line_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without(monkeypatch, "searchlab.interop.openspiel", "pyspiel")
    monkeypatch.setattr(registry, "_LOADED", {})  # forget a class an earlier test loaded
    code, _, err = run_main(
        capsys, "solve", "searchlab.interop.openspiel:OpenSpielGame", "-p", "game=tic_tac_toe"
    )
    assert_one_line_error(code, err, "needs OpenSpiel", "pip install 'searchlab[openspiel]'")
