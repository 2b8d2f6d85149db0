"""Running the real ``searchlab`` command line in tests (every subcommand registered)."""

from __future__ import annotations

import os
import shutil

import pytest

from searchlab.cli.main import main


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``searchlab ARGV...``; returns (exit code, stdout, stderr)."""
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Bad input: exit code 2, one line ``searchlab: error: ...`` on stderr, no traceback."""
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("searchlab"), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


def gnugo_program() -> str:
    """GNU Go's program (on PATH, or in /usr/games where Debian puts it); missing, the test is
    skipped, or fails in CI (``CI=true``), where scripts/test-deps.sh installs it."""
    found = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")
    if found is None:
        message = "GNU Go (gnugo) is not installed; scripts/test-deps.sh installs it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found
