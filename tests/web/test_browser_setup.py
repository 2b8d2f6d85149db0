"""The browser tests' own setup: they never skip in CI, and ``scripts/test-deps.sh`` is
idempotent (no browser tests here: these run without Chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "test-deps.sh"


@pytest.mark.parametrize("value", ["true", "1", "True"])
def test_missing_browser_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, browser_requirements: Any, value: str
) -> None:
    monkeypatch.setenv("CI", value)
    assert browser_requirements.in_ci()
    with pytest.raises(pytest.fail.Exception, match="cannot run in CI: no chromium"):
        browser_requirements.missing("no chromium")


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_missing_browser_skips_outside_ci(
    monkeypatch: pytest.MonkeyPatch, browser_requirements: Any, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert not browser_requirements.in_ci()
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        browser_requirements.missing("no chromium")


def test_test_deps_script_is_a_no_op_when_chromium_and_gnugo_are_installed(
    browser_requirements: Any,
) -> None:
    chromium = browser_requirements.CHROMIUM
    if not os.access(chromium, os.X_OK):
        browser_requirements.missing(f"{chromium} is missing: the script would install it")
    gnugo = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if gnugo is None:
        browser_requirements.missing("gnugo is missing: the script would install it")
    expected = f"test-deps: chromium and gnugo already installed ({chromium}, {gnugo})"
    for _ in range(2):  # idempotent: the same one line every time
        done = subprocess.run(
            ["sh", str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [expected]
        assert done.stderr == ""
