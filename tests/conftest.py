"""Shared fixtures. Ground truth lives in ../shared/data beside the checkout (CI has it there).

Run in parallel (pytest-xdist: ``-n 2 --dist loadfile``), each test file runs whole on one
worker (its module fixtures are made once, its tests keep their order), and every test that
uses the browser lab's ``server`` runs on one worker, which starts that server once
(tests/suite_schedule.py)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import suite_schedule

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data; fails (never skips) when the ground truth is missing."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"ground-truth data not found at {SHARED_DATA} (expected ../shared/data)")
    return SHARED_DATA


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist (``-n N``), before the test processes start: compile the library's
    kernels into numba's cache once, in two processes side by side (tests/kernel_warmup.py),
    so that the test processes and the browser lab's server load them instead of each
    compiling the same ones at once on a fresh clone's empty cache. Nothing to do in a test
    process, nor without ``-n``, nor with ``SEARCHLAB_TEST_WARMUP=0`` (a run of a few files
    that need no kernel); a part that fails prints its error and the tests go on."""
    config = session.config
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if os.environ.get("SEARCHLAB_TEST_WARMUP") == "0":
        return
    if config.getoption("collectonly", False):
        return
    import subprocess

    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(REPO_ROOT / "src"), os.environ.get("PYTHONPATH")])
        ),
    }
    script = str(REPO_ROOT / "tests" / "kernel_warmup.py")
    parts = [
        subprocess.Popen(
            [sys.executable, script, part],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for part in ("go", "rest")
    ]
    for part in parts:
        _, err = part.communicate()
        if part.returncode != 0:
            print(
                f"kernel warm-up failed (the tests go on): {err.strip()[-2000:]}", file=sys.stderr
            )


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``-n N --dist loadfile`` (or ``loadgroup``): whole files to each process, the
    browser lab's server files together and first (tests/suite_schedule.py)."""
    if config.getvalue("dist") not in ("loadfile", "loadgroup"):
        return None
    return suite_schedule.make_scheduler(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that uses the browser lab's ``server`` is in a file the scheduler keeps
    with the server's (a test that reaches it through a fixture of its own would start a
    second server under xdist): a collection error otherwise."""
    server = suite_schedule.server_files(REPO_ROOT)
    stray = sorted(
        {
            item.nodeid.split("::", 1)[0]
            for item in items
            if "server" in getattr(item, "fixturenames", ())
            and item.nodeid.split("::", 1)[0] not in server
        }
    )
    if stray:
        raise pytest.UsageError(
            f"{', '.join(stray)}: tests use the server through another fixture; take "
            f"{' or '.join(sorted(suite_schedule.SERVER_FIXTURES))} in the test itself"
        )


def _load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def load_benchmark() -> Iterator[Callable[[str], ModuleType]]:
    """A loader of benchmark scripts by name: ``load_benchmark("connect4_hardness").main(argv)``.
    The agent kinds a script registers in the default registry (``connect4_mistakes``'s
    ``azjl-minimax``) are removed again after the test, so that no later test in the same
    process sees them (the test files go to the two processes in no fixed order)."""
    from searchlab.agents import AGENT_KINDS

    before = set(AGENT_KINDS)
    yield _load_benchmark
    for name in set(AGENT_KINDS) - before:
        del AGENT_KINDS[name]


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
