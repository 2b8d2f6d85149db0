"""Shared fixtures. Ground truth lives in ../shared/data beside the checkout (CI has it there)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
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
