"""What a test needs from outside the package: an optional package, a program, the ground-truth
data. There, it is returned; missing, the test is skipped on a developer's machine and fails in
CI (``CI=true``), where the ``test`` extra, scripts/test-deps.sh and ../shared/data provide
everything, so a skip can never hide a missing dependency there."""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """True when the ``CI`` environment variable says so (GitHub Actions sets ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(message: str) -> NoReturn:
    """Fail in CI, skip elsewhere (the calling test, or the whole module at import time)."""
    if in_ci():
        pytest.fail(f"{message}; CI must have it", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def require_module(name: str, extra: str) -> ModuleType:
    """Import ``name`` (a package of the extra ``extra``, which the test extra includes)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"{name} is not installed (pip install 'searchlab[{extra}]')")


def gnugo_program() -> str:
    """GNU Go's program: on PATH, or in /usr/games where Debian puts it (often not on PATH)."""
    found = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if found is None:
        missing("GNU Go (gnugo) is not installed; scripts/test-deps.sh installs it")
    return found
