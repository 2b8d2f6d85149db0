"""The command line's shell: help, version, and one-line errors with exit code 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from searchlab.cli.main import main


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: searchlab" in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("searchlab 0.")


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


def test_console_script_runs_as_module() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "searchlab", "--help"], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0
    assert "path" in completed.stdout and "puzzle" in completed.stdout
