"""Ctrl-C while the command is still loading (``import searchlab``: numpy, numba, the path
searches) is one line and exit code 130, like Ctrl-C anywhere later
(tests/cli/test_cli_interrupt.py)."""

from __future__ import annotations

import importlib.abc
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import _searchlab_cli


class _InterruptedImport(importlib.abc.MetaPathFinder):
    """Raise KeyboardInterrupt when ``searchlab.cli.main`` is imported (as Ctrl-C would)."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "searchlab.cli.main":
            raise KeyboardInterrupt
        return None


def test_ctrl_c_during_the_import_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "searchlab.cli.main", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_InterruptedImport(), *sys.meta_path])
    try:
        code = _searchlab_cli.main()
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C during the import escaped as a KeyboardInterrupt (a traceback)")
    assert code == 130
    assert capsys.readouterr().err == "searchlab: interrupted\n"


def test_the_console_script_is_the_guarded_entry_point() -> None:
    script = Path(sys.executable).with_name("searchlab")
    if not script.exists():  # pragma: no cover - the test command installs it
        script = Path(shutil.which("searchlab") or "searchlab")
    assert "from _searchlab_cli import main" in script.read_text(encoding="utf-8")


@pytest.mark.parametrize("delay", [0.2, 0.3, 0.4])
def test_ctrl_c_soon_after_start_is_one_line(delay: float) -> None:
    """A real SIGINT early in the run: while the package loads on this machine, or just after;
    either way one line and 130, never a traceback."""
    import time

    process = subprocess.Popen(
        [sys.executable, "-c", "import sys, _searchlab_cli; sys.exit(_searchlab_cli.main())",
         "perft", "connect4", "--depth", "10"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "searchlab: interrupted\n")


def _ignore_sigint() -> None:  # pragma: no cover - runs in the child before exec
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_ctrl_c_while_loading_counts_when_sigint_was_inherited_as_ignored() -> None:
    """A shell's background job starts with SIGINT ignored; an ignored signal is dropped, so
    a Ctrl-C while the package loads was lost and the command ran to its end (perft to depth
    10: a minute). The console script takes SIGINT from its first line."""
    import time

    process = subprocess.Popen(
        [sys.executable, "-c", "import sys, _searchlab_cli; sys.exit(_searchlab_cli.main())",
         "perft", "connect4", "--depth", "10"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=_ignore_sigint,
    )  # fmt: skip
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("Ctrl-C was lost: the command ran on (SIGINT inherited as ignored)")
    assert (process.returncode, err) == (130, "searchlab: interrupted\n")


def test_ctrl_c_inside_a_compiled_kernel_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while a numba kernel hands its result back reaches Python as SystemErrors
    wrapping the KeyboardInterrupt (seen in a fresh clone's CI run of ``path --scen``): one
    line and 130, not a traceback; a SystemError of another cause still propagates."""
    from searchlab.cli import main as cli_main
    from searchlab.cli import perft

    def wrapped(args: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("returned a result with an exception set") from interrupt

    monkeypatch.setattr(perft, "run", wrapped)
    assert cli_main.main(["perft", "tictactoe", "--depth", "1"]) == 130
    assert capsys.readouterr().err == "searchlab: interrupted\n"

    def broken(args: object) -> int:
        raise SystemError("a bug")

    monkeypatch.setattr(perft, "run", broken)
    with pytest.raises(SystemError, match="a bug"):
        cli_main.main(["perft", "tictactoe", "--depth", "1"])
