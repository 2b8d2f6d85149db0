"""Shared fixtures. Ground truth lives in ../shared/data beside the checkout (CI has it there).

Run in parallel (pytest-xdist: ``-n 2 --dist loadgroup``), each test file runs whole on one
worker (its module fixtures are made once, its tests keep their order), and every test that
uses the browser lab's ``server`` runs on one worker, which starts that server once."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data; fails (never skips) when the ground truth is missing."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"ground-truth data not found at {SHARED_DATA} (expected ../shared/data)")
    return SHARED_DATA


# The xdist group of the tests that share one ``searchlab serve`` (tests/web/conftest.py).
SERVER_GROUP = "web-server"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, group the tests for ``--dist loadgroup``: by file, except those
    that use the ``server`` fixture, which share one group (one server for them all)."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        uses_server = "server" in getattr(item, "fixturenames", ())
        group = SERVER_GROUP if uses_server else item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(group))


def _load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_benchmark() -> Callable[[str], ModuleType]:
    """A loader of benchmark scripts by name: ``load_benchmark("connect4_hardness").main(argv)``."""
    return _load_benchmark


@pytest.fixture
def gtp_registered() -> Iterator[None]:
    """The ``gtp`` agent kind in the default registry (the arena builds agents from it),
    removed again after the test."""
    from searchlab.agents import AGENT_KINDS
    from searchlab.agents.gtp_agent import GTP_KIND

    before = AGENT_KINDS.get("gtp")
    AGENT_KINDS["gtp"] = GTP_KIND
    try:
        yield
    finally:
        if before is None:
            del AGENT_KINDS["gtp"]
        else:
            AGENT_KINDS["gtp"] = before
