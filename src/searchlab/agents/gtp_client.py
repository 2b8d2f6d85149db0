r"""A client for an external engine that speaks the Go Text Protocol (GTP version 2).

:class:`GtpEngine` starts the engine's command line (split like a shell does, with
:func:`shlex.split`; no shell runs it) as a child process in a session of its own, sends one
command at a time and returns the text of the answer. It is started lazily (by the first
command, or :meth:`GtpEngine.start`) and never outlives its owner: :meth:`GtpEngine.close`
(also the end of a ``with`` block, the garbage collector and the interpreter's exit) asks the
engine to ``quit``, then kills its whole process group and reaps it, so no process or zombie is
left behind.

Every failure is one exception with one clear line, all subclasses of :class:`EngineError`
(a :class:`~searchlab.core.errors.SearchlabError`):

* :class:`GtpError`: the engine answered ``? message`` (it refused the command); the engine
  stays usable.
* :class:`EngineNotFound`: the program does not exist or cannot be run.
* :class:`EngineTimeout`: no complete answer within the time allowed.
* :class:`EngineCrashed`: the engine exited (or closed its output) before answering.
* :class:`EngineProtocolError`: the engine answered something that is not GTP.
* :class:`EngineSetupError`: any of these before the engine has answered its handshake (the
  ``gtp`` agent asks ``protocol_version`` of every engine it starts): the engine cannot play at
  all (a typo in its options, a program that is not a GTP engine), a setup error
  (:class:`~searchlab.core.errors.AgentSetupError`), never a lost game.

After any failure but :class:`GtpError` the engine is in an unknown state: it is killed, and
the next command raises :class:`EngineCrashed` (call :meth:`GtpEngine.start` again, or make a
new engine, to start over).

Commands carry ids (``1 boardsize 9``); an answer with another id is a protocol error, an answer
without one is accepted (some engines leave it out). Carriage returns are dropped, and an answer
ends at its first empty line, as the protocol says (section 2.6).

>>> echo = 'sh -c \'while read id text; do printf "=%s %s\\n\\n" "$id" "$text"; done\''
>>> with GtpEngine(echo, timeout=20) as engine:
...     engine.send("boardsize 9"), engine.send("name")
('boardsize 9', 'name')
>>> GtpEngine("no-such-gtp-engine --mode gtp")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.agents.gtp_client.EngineNotFound: GTP engine 'no-such-gtp-engine --mode gtp': no ...
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from contextlib import suppress
from dataclasses import dataclass
from typing import IO

from searchlab.core.closing import Closing
from searchlab.core.errors import AgentSetupError, InvalidParameterError, SearchlabError

__all__ = [
    "DEFAULT_TIMEOUT",
    "GAMES_DIR",
    "EngineCrashed",
    "EngineError",
    "EngineNotFound",
    "EngineProtocolError",
    "EngineSetupError",
    "EngineTimeout",
    "GtpEngine",
    "GtpError",
    "engine_argv",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds an engine may take to answer one command, unless told otherwise."""

_MAX_ANSWER = 1 << 20  # an answer longer than this (1 MiB) is not GTP
_QUOTE = 120  # characters of a nonsense answer quoted in the error
_STDERR_LINES = 3  # lines of the engine's stderr quoted when it dies
_STDERR_CHARS = 200  # and characters of them, at most
_QUIT_SECONDS = 0.5  # how long close() waits for an answer to ``quit`` before killing


class EngineError(SearchlabError):
    """An external engine failed: missing, refused a command, crashed, hung or spoke nonsense."""


class GtpError(EngineError):
    """The engine answered ``? message`` to ``command`` (a GTP failure response).

    Attributes:
        command: the command as sent (without its id).
        message: the engine's message.
    """

    def __init__(self, engine: str, command: str, message: str) -> None:
        super().__init__(f"GTP engine {engine!r} refused {command!r}: {message or '(no message)'}")
        self.command = command
        self.message = message


class EngineNotFound(EngineError, InvalidParameterError):
    """The engine's program does not exist or cannot be run."""


class EngineTimeout(EngineError):
    """The engine did not answer in time (it is killed)."""


class EngineCrashed(EngineError):
    """The engine exited, or closed its output, before answering."""


class EngineProtocolError(EngineError):
    """The engine answered something that is not a GTP response (it is killed)."""


class EngineSetupError(EngineError, AgentSetupError):
    """The engine failed before it answered its handshake: it cannot play at all (it is
    killed). The message is the failure's own line (exit status, the end of its stderr)."""


GAMES_DIR = "/usr/games"
"""Where Debian installs game programs (GNU Go): searched after ``PATH``."""


def engine_argv(command: str) -> list[str]:
    """The program and arguments of ``command`` (split as a POSIX shell would, no shell run);
    a bare program name is looked up on ``PATH``, then in :data:`GAMES_DIR` (Debian installs
    ``gnugo`` as ``/usr/games/gnugo``, a directory root's ``PATH`` often lacks), and the path
    found replaces it. Raises :class:`EngineNotFound` when the program is in neither (or not
    executable), ``InvalidParameterError`` for an empty or badly quoted command.

    >>> engine_argv("python3 -c 'print(1)'")[1:]
    ['-c', 'print(1)']
    >>> engine_argv("no-such-gtp-engine --mode gtp")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.agents.gtp_client.EngineNotFound: GTP engine 'no-such-gtp-engine --mode gtp': ...
    """
    if not isinstance(command, str):
        raise InvalidParameterError(f"GTP engine command must be a string, got {command!r}")
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise InvalidParameterError(f"GTP engine command {command!r}: {error}") from None
    if not argv:
        raise InvalidParameterError(f"GTP engine command is empty: {command!r}")
    program = argv[0]
    if os.sep in program:
        if not os.path.isfile(program):
            raise EngineNotFound(f"GTP engine {command!r}: no such program {program!r}")
        if not os.access(program, os.X_OK):
            raise EngineNotFound(f"GTP engine {command!r}: {program!r} is not executable")
        return argv
    found = shutil.which(program) or shutil.which(program, path=GAMES_DIR)
    if found is None:
        raise EngineNotFound(
            f"GTP engine {command!r}: no program {program!r} on PATH or in {GAMES_DIR}"
        )
    return [found, *argv[1:]]


@dataclass(slots=True)
class _Batch:
    """Commands sent together: their lines, the first id, the bytes not yet written."""

    lines: list[str]
    first: int
    pending: bytes


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process`` and its process group (it leads one), close its pipes and reap it.
    The group is killed even when its leader has exited (after ``quit``): programs the engine
    started may outlive it in the group (its id stays reserved while any member lives)."""
    with suppress(ProcessLookupError, PermissionError):  # the whole group is already gone
        os.killpg(process.pid, signal.SIGKILL)
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with suppress(OSError):  # a broken pipe on close
                pipe.close()
    with suppress(subprocess.TimeoutExpired):  # SIGKILL is not ignored: never long
        process.wait(timeout=5)


class GtpEngine(Closing):
    """An external GTP engine run as a child process (see the module docstring).

    Args:
        command: the command line, like ``"gnugo --mode gtp --level 10"``.
        timeout: seconds allowed for each answer (finite, > 0); :meth:`send` may override it.
        name: how errors name the engine (default: the command).

    The program is looked up when the engine is made (:class:`EngineNotFound` at once), and
    started by the first command.
    """

    def __init__(
        self, command: str, *, timeout: float = DEFAULT_TIMEOUT, name: str | None = None
    ) -> None:
        self.argv = engine_argv(command)
        self.command = command
        self.name = name or command
        self.timeout = _check_timeout(timeout)
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], GtpEngine] | None = None
        self._buffer = b""
        self._next_id = 1
        self._broken: str | None = None
        self._batch: _Batch | None = None  # commands submitted, not yet collected

    # -- life ----------------------------------------------------------------------------------
    @property
    def is_running(self) -> bool:
        """Whether the engine process is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        """The engine's process id while it runs, else ``None``."""
        return self._process.pid if self.is_running and self._process is not None else None

    def start(self) -> None:
        """Start the engine (a no-op while it runs); after a failure, starts a fresh one."""
        if self.is_running and self._broken is None:
            return
        self.close()
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the engine runs
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=True,  # its own process group: killed whole; no Ctrl-C of ours
                close_fds=True,
            )
        except OSError as error:
            stderr.close()
            reason = error.strerror or str(error)
            raise EngineNotFound(f"GTP engine {self.name!r} could not start: {reason}") from None
        self._process, self._stderr = process, stderr
        self._finalizer = weakref.finalize(self, _kill, process)
        self._buffer, self._next_id, self._broken, self._batch = b"", 1, None, None

    def close(self) -> None:
        """Stop the engine: ``quit`` (briefly), then kill its process group and reap it.
        Safe to call more than once, and on an engine that never started."""
        process = self._process
        if process is None:
            return
        if process.poll() is None and self._broken is None and self._batch is None:
            with suppress(EngineError, OSError):
                ident = self._next_id
                self._exchange(_Batch(["quit"], ident, f"{ident} quit\n".encode()), _QUIT_SECONDS)
        if self._finalizer is not None:
            self._finalizer()  # kills and reaps, once
        if self._stderr is not None:
            self._stderr.close()
        self._process = self._stderr = self._finalizer = None
        self._broken = self._batch = None

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.is_running else "not running"
        return f"<GtpEngine {self.name!r} {state}>"

    # -- commands ------------------------------------------------------------------------------
    def send(self, command: str, *, timeout: float | None = None) -> str:
        """Send one command; return the engine's answer (the text after ``=``, stripped; the
        lines of a multi-line answer joined by ``\\n``). Starts the engine if it is not running.

        Raises :class:`GtpError` for ``? message``, :class:`EngineTimeout` after ``timeout``
        seconds (default: the engine's), :class:`EngineCrashed` or :class:`EngineProtocolError`
        (see the module docstring). An interrupt (Ctrl-C) while waiting kills the engine.
        """
        return self.send_many([command], timeout=timeout)[0]

    def send_many(self, commands: list[str], *, timeout: float | None = None) -> list[str]:
        """Send ``commands`` at once (pipelined, as GTP allows) and return their answers in
        order; ``timeout`` bounds the whole exchange. Every answer is read before the first
        ``? message`` among them raises :class:`GtpError`, so the engine stays in step.

        Writing and reading are interleaved, so a long batch cannot fill both pipes and
        deadlock. Used for long exchanges (replaying a game, asking every position's
        ``all_legal``) that would otherwise cost one round trip per command.
        """
        self.submit(commands)
        return self.collect(timeout=timeout)

    def submit(self, commands: list[str]) -> None:
        """Start sending ``commands`` (what the pipe takes now) and return at once, so the
        engine works while the caller does; :meth:`collect` returns the answers. One batch
        may be outstanding at a time."""
        lines = [" ".join(command.split()) for command in commands]
        for command, line in zip(commands, lines, strict=True):
            if not line or any(ch in command for ch in "\n\r"):
                raise InvalidParameterError(
                    f"GTP command must be one non-empty line, got {command!r}"
                )
        if self._batch is not None:
            raise InvalidParameterError(
                f"GTP engine {self.name!r}: collect() the commands submitted before"
            )
        if self._broken is not None:
            raise EngineCrashed(f"GTP engine {self.name!r} is stopped ({self._broken})")
        if self._process is None:
            self.start()
        first = self._next_id
        self._next_id += len(lines)
        text = "".join(f"{first + k} {line}\n" for k, line in enumerate(lines))
        batch = _Batch(lines, first, text.encode())
        self._batch = batch
        try:
            self._push(batch, wait=0.0)
        except BaseException as error:
            self._fail(error)
            raise

    def collect(self, *, timeout: float | None = None) -> list[str]:
        """The answers to the commands of :meth:`submit`, in order (see :meth:`send_many`)."""
        limit = self.timeout if timeout is None else _check_timeout(timeout)
        batch, self._batch = self._batch, None
        if batch is None:
            raise InvalidParameterError(f"GTP engine {self.name!r}: no commands to collect")
        if self._broken is not None:
            raise EngineCrashed(f"GTP engine {self.name!r} is stopped ({self._broken})")
        try:
            answers = self._exchange(batch, limit)
        except BaseException as error:  # a dead, hung or mad engine, or Ctrl-C: kill it
            self._fail(error)
            raise
        for line, (ok, text) in zip(batch.lines, answers, strict=True):
            if not ok:
                raise GtpError(self.name, line, text)
        return [text for _, text in answers]

    def _fail(self, error: BaseException) -> None:
        """After a failure the engine's state is unknown: kill it."""
        self._broken = str(error) if isinstance(error, EngineError) else "interrupted"
        self._batch = None
        if self._finalizer is not None:
            self._finalizer()

    def _push(self, batch: _Batch, wait: float) -> bool:
        """Write what the pipe takes of ``batch`` within ``wait`` seconds; whether any was."""
        process = self._process
        assert process is not None and process.stdin is not None
        out_fd = process.stdin.fileno()
        wrote = False
        while batch.pending:
            _, writable, _ = select.select([], [out_fd], [], wait)
            if not writable:
                break
            try:
                written = os.write(out_fd, batch.pending[:4096])  # <= PIPE_BUF: never blocks
            except (BrokenPipeError, ConnectionResetError):
                raise self._crashed(batch.lines[0]) from None
            batch.pending = batch.pending[written:]
            wrote, wait = True, 0.0
        return wrote

    def _exchange(self, batch: _Batch, limit: float) -> list[tuple[bool, str]]:
        """Write the rest of ``batch`` while reading its answers."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        out_fd, in_fd = process.stdin.fileno(), process.stdout.fileno()
        lines, first = batch.lines, batch.first
        deadline = time.monotonic() + limit
        answers: list[tuple[bool, str]] = []
        while len(answers) < len(lines):
            current = lines[len(answers)]
            while len(answers) < len(lines):
                answer = self._take_answer(current)
                if answer is None:
                    break
                ok, got, text = answer
                ident = first + len(answers)
                if got is not None and got != ident:
                    raise EngineProtocolError(
                        f"GTP engine {self.name!r} answered {current!r} (id {ident}) with id {got}"
                    )
                answers.append((ok, text))
                if len(answers) < len(lines):
                    current = lines[len(answers)]
            if len(answers) == len(lines):
                break
            if len(self._buffer) > _MAX_ANSWER:
                raise EngineProtocolError(
                    f"GTP engine {self.name!r} answered {current!r} with more than "
                    f"{_MAX_ANSWER} bytes and no end"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeout(
                    f"GTP engine {self.name!r} did not answer {current!r} within {limit:g} s"
                )
            pending = batch.pending
            readable, writable, _ = select.select([in_fd], [out_fd] if pending else [], [], left)
            if writable:
                try:
                    written = os.write(out_fd, pending[:4096])  # <= PIPE_BUF: never blocks
                except (BrokenPipeError, ConnectionResetError):
                    raise self._crashed(current) from None
                batch.pending = pending[written:]
            if readable:
                chunk = os.read(in_fd, 65536)
                if not chunk:
                    raise self._crashed(current)
                self._buffer += chunk.replace(b"\r", b"")
        return answers

    def _take_answer(self, command: str) -> tuple[bool, int | None, str] | None:
        """The first complete answer in the buffer (removed from it), or ``None`` yet."""
        buffer = self._buffer.lstrip(b"\n")  # empty lines before an answer are allowed
        if buffer and buffer[:1] not in (b"=", b"?"):
            end = buffer.find(b"\n")
            if end >= 0 or len(buffer) > _QUOTE:
                raise self._nonsense(command, buffer)
            self._buffer = buffer
            return None
        end = buffer.find(b"\n\n")
        if end < 0:
            self._buffer = buffer
            return None
        self._buffer = buffer[end + 2 :]
        text = buffer[:end].decode("utf-8", errors="replace")
        ok = text[0] == "="
        head, _, rest = text[1:].partition("\n")
        digits = len(head) - len(head.lstrip("0123456789"))
        got = int(head[:digits]) if digits else None
        if digits and head[digits : digits + 1] not in ("", " ", "\t"):
            raise self._nonsense(command, buffer[:end])
        body = head[digits:].strip()
        if rest:  # later lines keep their leading spaces (a board drawn by showboard)
            body = f"{body}\n{rest}" if body else rest
        return ok, got, body.rstrip()

    def _nonsense(self, command: str, data: bytes) -> EngineProtocolError:
        text = data.decode("utf-8", errors="replace").strip()
        quoted = text[:_QUOTE] + ("..." if len(text) > _QUOTE else "")
        return EngineProtocolError(
            f"GTP engine {self.name!r} answered {command!r} with {quoted!r}, not a GTP "
            "response ('= ...' or '? ...')"
        )

    def _crashed(self, command: str) -> EngineCrashed:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        how = "closed its output" if code is None else _exit_text(code)
        said = self._stderr_tail()
        return EngineCrashed(
            f"GTP engine {self.name!r} {how} during {command!r}" + (f": {said}" if said else "")
        )

    def _stderr_tail(self) -> str:
        """The last lines the engine wrote to stderr, joined by `` / `` on one line (at most
        :data:`_STDERR_LINES` lines and :data:`_STDERR_CHARS` characters, its end kept), or ''.
        Several lines, because a program that rejects its options often ends with a hint
        (``Try `gnugo --help'``) after the line that says what was wrong."""
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            text = self._stderr.read().decode("utf-8", errors="replace")
        except (OSError, ValueError):  # pragma: no cover - a closed file
            return ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        said = " / ".join(lines[-_STDERR_LINES:])
        return said if len(said) <= _STDERR_CHARS else "..." + said[-_STDERR_CHARS:]


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:  # pragma: no cover - an unknown signal number
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _check_timeout(timeout: float) -> float:
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not timeout > 0
        or timeout == float("inf")
    ):
        raise InvalidParameterError(
            f"GTP timeout must be a finite number of seconds > 0, got {timeout!r}"
        )
    return float(timeout)
