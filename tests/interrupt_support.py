"""Ctrl-C on the real ``searchlab`` command, in a child process: how fast it stops and what it
says."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

__all__ = ["Interrupted", "interrupt"]


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
