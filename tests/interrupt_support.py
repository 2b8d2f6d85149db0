"""Ctrl-C on the real ``searchlab`` command, in a child process: how fast it stops and what it
says."""

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

__all__ = ["Interrupted", "interactive", "interrupt", "interrupt_at_prompt", "read_prompt"]


@dataclass(frozen=True)
class Interrupted:
    """What a command did after SIGINT."""

    code: int
    seconds: float  # from SIGINT to the first line on stderr (the process exits after it)
    stdout: str
    stderr: str


def interrupt(argv: list[str], *, after_lines: int = 0, delay: float = 0.5) -> Interrupted:
    """Run ``python -m searchlab ARGV``; once it has printed ``after_lines`` lines on stdout
    (so that it is busy with what comes next), wait ``delay`` seconds, send SIGINT and time
    how long it takes to answer on stderr (the interpreter's own shutdown after that is not
    counted); the command is killed if it has not exited 30 s after the signal."""
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
    answered: list[float] = []

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
            if not answered:
                answered.append(time.perf_counter())
            errors.append(line)

    readers = [threading.Thread(target=read_stdout), threading.Thread(target=read_stderr)]
    for reader in readers:
        reader.start()
    if after_lines:
        enough.wait(120)
    time.sleep(delay)
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    try:
        code = child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()
        code = child.wait()
    for reader in readers:
        reader.join()
    seconds = (answered[0] if answered else time.perf_counter()) - sent
    return Interrupted(code, seconds, "".join(lines), "".join(errors))


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
