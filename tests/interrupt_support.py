"""Ctrl-C on the real ``searchlab`` command, in a child process: that it stops, and what it
says (never how fast: a test gives the command far more work than the guard allows, so a
command that does not stop fails as hung)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = [
    "HANG_SECONDS", "Interrupted", "interactive", "interrupt", "interrupt_at_prompt", "read_prompt",
]  # fmt: skip

HANG_SECONDS = 120.0
"""How long a command may run on after SIGINT before it fails as hung (not a timing)."""


@dataclass(frozen=True)
class Interrupted:
    """What a command did after SIGINT."""

    code: int
    stdout: str
    stderr: str


def interrupt(argv: list[str], *, after_lines: int = 0, delay: float = 0.5) -> Interrupted:
    """Run ``python -m searchlab ARGV``; once it has printed ``after_lines`` lines on stdout
    (so that it is busy with what comes next), wait ``delay`` seconds and send SIGINT. A
    command still running ``HANG_SECONDS`` after the signal is killed and fails the test as
    hung (a guard, not a timing: a command stops in a second or two, and the tests give it
    work of an hour or more)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "searchlab", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    enough = threading.Event()
    errors: list[str] = []

    def read_stdout() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            if len(lines) >= after_lines:
                enough.set()
        enough.set()

    def read_stderr() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            errors.append(line)

    readers = [threading.Thread(target=read_stdout), threading.Thread(target=read_stderr)]
    for reader in readers:
        reader.start()
    if after_lines:
        enough.wait(120)
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    try:
        code = child.wait(HANG_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        for reader in readers:
            reader.join()
        pytest.fail(f"searchlab {' '.join(argv)}: still running {HANG_SECONDS:g} s after SIGINT")
    for reader in readers:
        reader.join()
    return Interrupted(code, "".join(lines), "".join(errors))


@contextlib.contextmanager
def interactive(argv: list[str], cwd: Path) -> Iterator[subprocess.Popen[str]]:
    """``python -m searchlab ARGV`` in ``cwd`` with pipes for stdin, stdout and stderr (text);
    killed at the end of the block if it is still running."""
    child = subprocess.Popen(
        [sys.executable, "-m", "searchlab", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    try:
        yield child
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def read_prompt(child: subprocess.Popen[str], prompt: str = "your move> ") -> str:
    """What ``child`` prints on stdout up to and including ``prompt`` (read a character at a
    time: the prompt ends without a newline); fails if its output ends first."""
    assert child.stdout is not None
    seen = ""
    while not seen.endswith(prompt):
        char = child.stdout.read(1)
        assert char, f"no prompt: {seen!r}"
        seen += char
    return seen


def interrupt_at_prompt(child: subprocess.Popen[str]) -> None:
    """Ctrl-C (SIGINT) to ``child`` waiting at its prompt: it says ``searchlab: interrupted``
    and nothing more on stderr and exits with 130 within 30 s."""
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert (err, child.returncode) == ("searchlab: interrupted\n", 130)
