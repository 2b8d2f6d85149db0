"""Shared fixtures. Ground truth lives in ../shared/data beside the checkout (CI has it there)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data; fails (never skips) when the ground truth is missing."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"ground-truth data not found at {SHARED_DATA} (expected ../shared/data)")
    return SHARED_DATA
