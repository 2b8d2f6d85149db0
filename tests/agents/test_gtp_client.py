"""GtpEngine against small fake engines: answers, ids, failures, and no process left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hang_guard import hang_guard

from searchlab.agents.gtp_client import (
    EngineCrashed,
    EngineError,
    EngineNotFound,
    EngineProtocolError,
    EngineTimeout,
    GtpEngine,
    GtpError,
    engine_argv,
)
from searchlab.core.errors import InvalidParameterError, SearchlabError

# A GTP engine in a few lines whose misbehaviour is chosen by the command it gets:
# "hang" never answers, "die" exits with code 3 after a word on stderr, "babble" answers
# without '='/'?', "wrongid" answers with another id, "noid" answers without the id,
# "fail" answers '? ...', "lines" answers two lines (the second indented), anything else
# is echoed back. "child" starts a grandchild (sleep) and answers its pid.
FAKE = r"""
import subprocess, sys, time
for raw in sys.stdin:
    parts = raw.split()
    if not parts:
        continue
    ident, command = parts[0], parts[1:]
    word = command[0] if command else ""
    if word == "hang":
        time.sleep(600)
    elif word == "die":
        sys.stderr.write("fake engine: out of memory\n"); sys.stderr.flush(); sys.exit(3)
    elif word == "babble":
        sys.stdout.write("I am not GTP\n\n")
    elif word == "wrongid":
        sys.stdout.write("=999 x\n\n")
    elif word == "noid":
        sys.stdout.write("= plain\r\n\r\n")
    elif word == "fail":
        sys.stdout.write("?" + ident + " unknown command\n\n")
    elif word == "lines":
        sys.stdout.write("=" + ident + " first\n  second\n\n")
    elif word == "child":
        child = subprocess.Popen(["sleep", "600"])
        sys.stdout.write("=" + ident + " " + str(child.pid) + "\n\n")
    elif word == "quit":
        sys.stdout.write("=" + ident + "\n\n"); sys.stdout.flush(); sys.exit(0)
    else:
        sys.stdout.write("=" + ident + " " + " ".join(command) + "\n\n")
    sys.stdout.flush()
"""


@pytest.fixture
def fake(tmp_path: Path) -> str:
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE)
    return f"{sys.executable} {script}"


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_dead(pid: int, seconds: float = 60.0) -> bool:
    """Whether ``pid`` dies within ``seconds`` (a hang guard: a killed process is gone in
    milliseconds; polled, so a quick death returns at once)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def test_answers_and_ids(fake: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        assert not engine.is_running  # started lazily
        assert engine.send("boardsize   9") == "boardsize 9"
        assert engine.is_running
        assert engine.send("noid") == "plain"  # no id and CRLF: accepted
        assert engine.send("lines") == "first\n  second"
        assert engine.send_many(["a", "b c", "d"]) == ["a", "b c", "d"]
        pid = engine.pid
        assert pid is not None
    assert wait_dead(pid)


def test_long_pipelined_batch_does_not_deadlock(fake: str) -> None:
    # 20,000 answers of ~110 bytes: far more than both pipes hold
    commands = [f"echo {k} " + "x" * 100 for k in range(20_000)]
    with GtpEngine(fake, timeout=60) as engine:
        answers = engine.send_many(commands)
    assert answers == [command for command in commands]


def test_failure_response_is_gtp_error_and_engine_stays_usable(fake: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        with pytest.raises(GtpError, match="refused 'fail now': unknown command") as caught:
            engine.send("fail now")
        assert caught.value.message == "unknown command"
        assert engine.send("still here") == "still here"
        # in a batch, every answer is read before the failure is raised: still in step
        with pytest.raises(GtpError):
            engine.send_many(["one", "fail", "three"])
        assert engine.send("after") == "after"


def test_timeout_kills_the_engine(fake: str) -> None:
    engine = GtpEngine(fake, timeout=20)
    engine.send("hello")
    pid = engine.pid
    assert pid is not None
    # "hang" sleeps 600 s: only the 0.3 s timeout ends the wait (the message names it)
    with (
        hang_guard("a send to a hung engine"),
        pytest.raises(EngineTimeout, match=r"did not answer 'hang' within 0.3 s"),
    ):
        engine.send("hang", timeout=0.3)
    assert wait_dead(pid)
    with pytest.raises(EngineCrashed, match="is stopped"):
        engine.send("hello")
    engine.start()  # a fresh engine after a failure
    assert engine.send("hello") == "hello"
    engine.close()


def test_crash_names_exit_code_and_stderr(fake: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        engine.send("x")
        with pytest.raises(
            EngineCrashed, match=r"exited with code 3 during 'die': fake engine: out of memory"
        ):
            engine.send("die")
        assert not engine.is_running


def test_killed_engine_is_a_crash(fake: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        engine.send("x")
        pid = engine.pid
        assert pid is not None
        os.kill(pid, 9)
        with pytest.raises(EngineCrashed, match=r"killed by SIGKILL|closed its output"):
            engine.send("y")


@pytest.mark.parametrize(
    ("command", "pattern"),
    [
        ("babble", r"answered 'babble' with 'I am not GTP', not a GTP response"),
        ("wrongid", r"answered 'wrongid' \(id 1\) with id 999"),
    ],
)
def test_nonsense_is_a_protocol_error(fake: str, command: str, pattern: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        with pytest.raises(EngineProtocolError, match=pattern):
            engine.send(command)
        assert not engine.is_running


def test_program_that_is_not_an_engine(tmp_path: Path) -> None:
    # `cat` echoes the command back: "1 name" is not a GTP response
    with (
        GtpEngine("cat", timeout=5) as engine,
        pytest.raises(EngineProtocolError, match="'1 name'"),
    ):
        engine.send("name")
    # a program that exits at once
    crashed = pytest.raises(EngineCrashed, match=r"exited with code 0|closed its output")
    with GtpEngine("true", timeout=5) as engine, crashed:
        engine.send("name")


def test_missing_and_bad_commands(tmp_path: Path) -> None:
    missing = "no program 'no-such-engine-xyz' on PATH or in /usr/games"
    with pytest.raises(EngineNotFound, match=missing):
        GtpEngine("no-such-engine-xyz --mode gtp")
    with pytest.raises(EngineNotFound, match="no such program"):
        GtpEngine(str(tmp_path / "nothing"))
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(EngineNotFound, match="is not executable"):
        GtpEngine(str(script))
    with pytest.raises(InvalidParameterError, match="empty"):
        GtpEngine("   ")
    with pytest.raises(InvalidParameterError, match="No closing quotation"):
        GtpEngine("gnugo 'oops")
    for error in (EngineNotFound, EngineTimeout, EngineCrashed, EngineProtocolError, GtpError):
        assert issubclass(error, EngineError) and issubclass(error, SearchlabError)
    assert engine_argv("sh -c 'echo a b'")[1:] == ["-c", "echo a b"]


def test_bad_arguments(fake: str) -> None:
    with pytest.raises(InvalidParameterError, match="timeout"):
        GtpEngine(fake, timeout=0)
    with pytest.raises(InvalidParameterError, match="timeout"):
        GtpEngine(fake, timeout=float("nan"))
    with GtpEngine(fake, timeout=20) as engine:
        with pytest.raises(InvalidParameterError, match="one non-empty line"):
            engine.send("play b D4\nplay w C3")
        with pytest.raises(InvalidParameterError, match="one non-empty line"):
            engine.send("  ")


def test_close_kills_the_process_group_and_reaps(fake: str) -> None:
    engine = GtpEngine(fake, timeout=20)
    grandchild = int(engine.send("child"))
    pid = engine.pid
    assert pid is not None and alive(grandchild)
    engine.close()
    assert wait_dead(pid) and wait_dead(grandchild)
    engine.close()  # twice is fine
    assert not engine.is_running


def test_close_of_a_hung_engine_is_quick(fake: str) -> None:
    engine = GtpEngine(fake, timeout=20)
    engine.send("x")
    pid = engine.pid
    assert pid is not None
    with pytest.raises(EngineTimeout):
        engine.send("hang", timeout=0.2)
    with hang_guard("closing a hung engine"):  # it sleeps 600 s: close must not wait for it
        engine.close()
    assert wait_dead(pid)


def test_garbage_collection_and_exit_stop_the_engine(fake: str, tmp_path: Path) -> None:
    engine = GtpEngine(fake, timeout=20)
    engine.send("x")
    pid = engine.pid
    assert pid is not None
    del engine
    assert wait_dead(pid)
    # a program that forgets to close its engine leaves no process behind at exit
    code = (
        "from searchlab.agents.gtp_client import GtpEngine\n"
        f"engine = GtpEngine({fake!r}, timeout=20)\n"
        "print(engine.send('child'), engine.pid, flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    grandchild, child = (int(word) for word in done.stdout.split())
    assert wait_dead(child) and wait_dead(grandchild)


def test_submit_then_collect(fake: str) -> None:
    with GtpEngine(fake, timeout=20) as engine:
        engine.submit(["a", "b"])
        with pytest.raises(InvalidParameterError, match="collect"):
            engine.submit(["c"])  # one batch at a time
        assert engine.collect() == ["a", "b"]
        with pytest.raises(InvalidParameterError, match="no commands to collect"):
            engine.collect()
        # a batch larger than the pipe: submit writes what fits, collect the rest
        commands = [f"echo {k} " + "y" * 200 for k in range(2_000)]
        engine.submit(commands)
        assert engine.collect() == commands
        engine.submit(["hang"])
        with pytest.raises(EngineTimeout):
            engine.collect(timeout=0.2)
        assert not engine.is_running


def test_a_bare_program_name_is_found_in_debians_games_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Debian installs gnugo as /usr/games/gnugo, and root's PATH often lacks /usr/games
    from searchlab.agents import gtp_client

    games = tmp_path / "games"
    games.mkdir()
    program = games / "my-gtp-engine"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(gtp_client, "GAMES_DIR", str(games))
    assert engine_argv("my-gtp-engine --mode gtp") == [str(program), "--mode", "gtp"]
    monkeypatch.setattr(gtp_client, "GAMES_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(EngineNotFound, match="no program 'my-gtp-engine' on PATH or in"):
        engine_argv("my-gtp-engine --mode gtp")
