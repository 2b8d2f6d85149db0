"""The browser tests' own setup: what they lack fails them in CI and skips them elsewhere
(``needs.missing``, the one rule of every test that needs something from outside), and
``scripts/test-deps.sh`` is idempotent (no browser tests here: these run without Chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from needs import in_ci, missing

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "test-deps.sh"


@pytest.mark.parametrize("value", ["true", "1", "True"])
def test_missing_browser_fails_in_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    assert in_ci()
    with pytest.raises(pytest.fail.Exception, match="no chromium; CI must have it"):
        missing("no chromium")


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_missing_browser_skips_outside_ci(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert not in_ci()
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        missing("no chromium")


def test_test_deps_script_is_a_no_op_when_chromium_and_gnugo_are_installed(
    browser_requirements: Any,
) -> None:
    chromium = browser_requirements.CHROMIUM
    if not os.access(chromium, os.X_OK):
        missing(f"{chromium} is missing: the script would install it")
    gnugo = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if gnugo is None:
        missing("gnugo is missing: the script would install it")
    expected = f"test-deps: chromium and gnugo already installed ({chromium}, {gnugo})"
    for _ in range(2):  # idempotent: the same one line every time
        done = subprocess.run(
            ["sh", str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [expected]
        assert done.stderr == ""
