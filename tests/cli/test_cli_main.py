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


def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["puzzle", "1 2 3 4 5 6 7 8 0", "--no-such-option"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unrecognized arguments: --no-such-option" in err and "Traceback" not in err


def test_missing_cli_extra_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import searchlab.cli.main as cli_main

    def missing_rich(name: str) -> None:
        raise ModuleNotFoundError("No module named 'rich'", name="rich")

    monkeypatch.setattr(cli_main.importlib, "import_module", missing_rich)
    assert main(["path", "--help"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "searchlab: error: 'searchlab' needs the cli extra (rich is not installed): "
        "pip install 'searchlab[cli]'\n"
    )


def test_missing_searchlab_module_is_a_bug_not_an_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import searchlab.cli.main as cli_main

    def missing_own(name: str) -> None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(cli_main.importlib, "import_module", missing_own)
    with pytest.raises(ModuleNotFoundError):
        main(["path", "--help"])
