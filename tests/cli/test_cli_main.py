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


def _with_command(monkeypatch: pytest.MonkeyPatch, func) -> None:  # type: ignore[no-untyped-def]
    """Make ``searchlab perft`` run ``func(args)`` instead."""
    import searchlab.cli.perft as perft

    monkeypatch.setattr(perft, "run", func)


def test_ctrl_c_is_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import signal

    before = signal.getsignal(signal.SIGINT)
    seen = []

    def command(args: object) -> int:
        seen.append(signal.getsignal(signal.SIGINT))
        os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C would
        raise AssertionError("not interrupted")

    _with_command(monkeypatch, command)
    assert main(["perft", "nim", "--depth", "1"]) == 130
    assert capsys.readouterr().err == "searchlab: interrupted\n"
    assert seen and seen[0] is not before  # a handler of its own was installed while running
    assert signal.getsignal(signal.SIGINT) is before  # and put back


def test_ctrl_c_works_even_when_sigint_was_ignored(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import signal

    def command(args: object) -> int:
        os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("not interrupted")

    _with_command(monkeypatch, command)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited as ignored
    try:
        assert main(["perft", "nim", "--depth", "1"]) == 130
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize(
    ("error", "fragment"),
    [
        (ModuleNotFoundError("No module named 'rich'", name="rich"), "'searchlab perft' needs"),
        (ImportError("cannot import name 'Image'", name="PIL"), "(PIL is not installed)"),
        (NotADirectoryError(20, "Not a directory", "a.txt/b"), "not a directory: a.txt/b"),
        (OSError(28, "No space left on device", "out.png"), "No space left on device: out.png"),
    ],
)
def test_errors_while_running_are_one_line(
    error: Exception,
    fragment: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def command(args: object) -> int:
        raise error

    _with_command(monkeypatch, command)
    assert main(["perft", "nim", "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("searchlab: error: ") and fragment in err, err


def test_a_reader_that_goes_away_is_no_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    maps = Path(__file__).resolve().parents[2] / "examples" / "maps"
    lines = (maps / "arena.map.scen").read_text().splitlines()
    (tmp_path / "many.scen").write_text("\n".join([lines[0], *lines[1:] * 40]) + "\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "searchlab", "path", str(maps / "arena.map"), "--scen",
         str(tmp_path / "many.scen"), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"{")
    process.stdout.close()  # like `| head -1`
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert "Traceback" not in err and "Exception ignored" not in err, err
