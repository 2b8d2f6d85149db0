"""The optional packages of the interop tests: imported, or the test module is skipped, except
in CI (``CI=true``), where the ``test`` extra installs them and a missing one fails."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def optional_module(name: str, extra: str) -> ModuleType:
    """Import ``name``; missing, skip the calling test module (fail in CI)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        message = f"{name} is not installed (pip install 'searchlab[{extra}]')"
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail(f"{message}; CI installs the test extra, which has it", pytrace=False)
        pytest.skip(message, allow_module_level=True)
