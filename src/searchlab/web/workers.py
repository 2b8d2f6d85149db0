"""Worker processes that run the server's searches: :class:`WorkerPool` and the worker loop.

The event loop never searches. A request becomes a *job* (a kind from
:data:`searchlab.web.jobs.JOBS` and a JSON payload) that the pool hands to an idle worker
process through a pipe; the worker sends back progress events (the live analysis) and one
final message: ``result``, ``error`` or ``cancelled``. In the parent, one thread per worker
reads its pipe (blocking reads: a message arrives whole whatever the event loop does to file
descriptors) and hands each message to the event loop, which alone touches the pool's state.

Stopping a search, three ways, from gentle to hard:

1. **cancel**: the parent writes the job's id into a shared integer; the worker's interval
   timer (``SIGALRM`` every 0.1 s, so it works inside compiled kernels too, which return to
   the interpreter between slices) sees it and raises :class:`Cancelled` in the search;
2. **soft cap**: the same timer raises :class:`Overrun` once the job has run half the grace
   period past its time budget (a library search stops at its own time limit before that:
   this catches Python code that does not look at the clock);
3. **hard cap**: a worker still busy ``grace`` seconds past the budget, or after a cancel, is
   killed (SIGKILL) and replaced by a fresh one; its client gets one error line.

Workers are forked from a *forkserver* that has imported the library once
(:mod:`searchlab.web.jobs`, and PyTorch with the learning layer when the ``learn`` extra is
there), so no worker inherits the server's threads or sockets and all share one import of
torch; each warms up (:func:`searchlab.web.jobs.warm_up`: the compiled kernels of every game,
the shipped networks) and says ``ready`` before it gets a job. A job waits in the queue for a
ready worker, and its time budget starts when a worker takes it: no search pays for the
warm-up, and none fails for it. As with ``multiprocessing``'s spawn, a script that creates the app
must guard its entry point with ``if __name__ == "__main__":``. A worker ignores SIGINT (Ctrl-C
is the server's to handle), limits its address space (``memory_mb``), and ends when its pipe
closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import multiprocessing
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from searchlab.core.errors import SearchlabError
from searchlab.web.caps import ServerCaps

__all__ = ["Cancelled", "Job", "JobContext", "JobError", "Overrun", "WorkerPool"]

log = logging.getLogger("searchlab.web")

_TICK = 0.1  # seconds between the worker's checks of the cancel flag and the clock
_PROGRESS_EVERY = 0.2  # seconds between two progress events of one job
_CANCEL_GRACE = 2.0  # seconds a cancelled job may take to stop before its worker is killed
_FINAL = frozenset({"result", "error", "cancelled"})


class JobError(Exception):
    """A job ended without a result: ``status`` (HTTP) and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Cancelled(BaseException):
    """Raised inside a worker's search when its client cancelled it (a ``BaseException`` so
    that no ``except Exception`` in a search can swallow it)."""


class Overrun(BaseException):
    """Raised inside a worker's search that ran past its time budget."""


# --- the worker side ----------------------------------------------------------------------


class JobContext:
    """What a job function gets besides its payload (worker side); its JSON-ready answer is
    sent as JSON text.

    * :meth:`emit` sends a progress event (``kind``, JSON-ready ``data``) to the client;
    * ``progress``: a job may set it to a function returning the current analysis (or
      ``None``); the worker's timer calls it every 0.2 s and sends what it returns, so a search
      reports while it runs without any work of its own;
    * ``seconds``: the job's time budget (the server's cap or less).
    """

    def __init__(
        self, connection: Connection, job_id: int, cancel: Any, seconds: float, margin: float
    ) -> None:
        self.connection = connection
        self.job_id = job_id
        self.seconds = seconds
        self.margin = margin
        self.started = time.perf_counter()
        self.progress: Callable[[], dict[str, Any] | None] | None = None
        self._cancel = cancel
        self._sending = False
        self._in_tick = False
        self._pending: BaseException | None = None
        self._last_progress = self.started
        self._encoding = False  # the search is over: its answer is being written

    @property
    def elapsed(self) -> float:
        """Seconds since the job started."""
        return time.perf_counter() - self.started

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        """Send one progress event now."""
        self._send((self.job_id, kind, data))
        self._last_progress = time.perf_counter()

    def _send(self, message: tuple[int, str, Any]) -> None:
        # A stop raised by the timer while a message is half written would corrupt the pipe:
        # the timer only notes it then, and it is raised here, once the message is whole.
        self._sending = True
        try:
            self.connection.send(message)
        finally:
            self._sending = False
        pending, self._pending = self._pending, None
        if pending is not None:
            raise pending

    def _stop_reason(self) -> BaseException | None:
        if self._cancel.value == self.job_id:
            return Cancelled()
        if not self._encoding and self.elapsed > self.seconds + self.margin:
            return Overrun(
                f"the search ran past its time budget of {self.seconds:g} s and was stopped"
            )
        return None

    def _tick(self, number: int, frame: Any) -> None:
        if self._in_tick:
            return
        self._in_tick = True
        try:
            stop = self._stop_reason()
            if stop is not None:
                if self._sending:
                    self._pending = stop
                    return
                raise stop
            now = time.perf_counter()
            if (
                self.progress is not None
                and not self._sending
                and now - self._last_progress >= _PROGRESS_EVERY
            ):
                data = self.progress()
                if data is not None:
                    self.emit("analysis", data)
        finally:
            self._in_tick = False

    def run(self, function: Callable[[dict[str, Any], JobContext], dict[str, Any]],
            payload: dict[str, Any]) -> None:  # fmt: skip
        """Run ``function(payload, self)`` and send its final message."""
        reply: tuple[str, Any]
        try:
            signal.signal(signal.SIGALRM, self._tick)
            signal.setitimer(signal.ITIMER_REAL, _TICK, _TICK)
            try:
                # JSON text, made here: a large answer (a path search's events) costs the
                # server's event loop nothing but a copy
                answer = function(payload, self)
                self._encoding, self.progress = True, None  # the watchdog still bounds it
                reply = ("result", json.dumps(answer, allow_nan=False, separators=(",", ":")))
            finally:
                # No tick may run after this: one already due would call the handler in the
                # middle of the final message; an ignored signal calls nothing.
                signal.setitimer(signal.ITIMER_REAL, 0.0, 0.0)
                signal.signal(signal.SIGALRM, signal.SIG_IGN)
        except Cancelled:
            reply = ("cancelled", None)
        except Overrun as stop:
            reply = ("error", (400, str(stop)))
        except (SearchlabError, ValueError, LookupError) as error:
            reply = ("error", (400, _one_line(error)))
        except MemoryError:
            reply = ("error", (400, "the request needs more memory than a search may use"))
        except RecursionError:
            reply = ("error", (400, "the request is nested too deeply to search"))
        except Exception as error:  # a bug: the server logs it and answers 500
            reply = ("error", (500, f"{type(error).__name__}: {error}\n{traceback.format_exc()}"))
        self._pending = None
        try:
            self.connection.send((self.job_id, *reply))
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            self.connection.send((self.job_id, "error", (500, f"unpicklable reply: {error}")))


def _one_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return " ".join(text.split("\n"))


def _worker_main(
    connection: Connection,
    cancel: Any,
    memory_mb: int,
    warm: bool,
    games: dict[str, str] | None = None,
) -> None:  # pragma: no cover
    """A worker's life (in the child process): set signals and limits, then run jobs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError, OSError, ImportError):
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from searchlab.web.jobs import JOBS, warm_up
    from searchlab.web.own_games import register_own_games

    register_own_games(games or {})  # the server checked them: they load
    if warm:
        warm_up()
    try:
        connection.send((0, "ready", None))
    except OSError:
        return

    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if message is None:
            return
        job_id, kind, payload, seconds, margin = message
        context = JobContext(connection, job_id, cancel, seconds, margin)
        try:
            context.run(JOBS[kind], payload)
        except (OSError, EOFError):  # the server is gone
            return


# --- the server side ----------------------------------------------------------------------


@dataclass(eq=False)
class Job:
    """One request's work, as the server sees it: events arrive on ``events``; the last one
    is ``("result", json_text)``, ``("error", (status, message))`` or ``("cancelled", None)``."""

    id: int
    kind: str
    payload: dict[str, Any]
    seconds: float
    events: asyncio.Queue[tuple[str, Any]] = field(default_factory=asyncio.Queue)
    done: bool = False
    worker: _Worker | None = None
    queued_at: float = field(default_factory=time.perf_counter)
    started_at: float | None = None

    async def stream(self) -> AsyncIterator[tuple[str, Any]]:
        """The job's events, up to and including the final one."""
        while True:
            kind, data = await self.events.get()
            yield kind, data
            if kind in _FINAL:
                return

    async def outcome(self) -> str:
        """The result (JSON text), skipping progress events; raises :class:`JobError`
        otherwise."""
        async for kind, data in self.stream():
            if kind == "result":
                return data
            if kind == "error":
                raise JobError(*data)
            if kind == "cancelled":
                raise JobError(409, "the search was cancelled")
        raise JobError(500, "the job ended without a result")  # pragma: no cover


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    cancel: Any
    job: Job | None = None
    watchdog: asyncio.TimerHandle | None = None
    ready: bool = False


class WorkerPool:
    """``size`` worker processes fed from one queue, under the server's ``caps``: at most
    ``caps.queue`` jobs wait, each worker's address space is ``caps.memory_mb``, and a job
    ``caps.grace`` seconds over its time is killed with its worker. With ``warm`` each worker
    warms up (:func:`searchlab.web.jobs.warm_up`) before its first job; each registers the
    games of your own in ``games`` (``name -> "FILE.py:CLASS"``,
    :func:`searchlab.web.own_games.register_own_games`) first.

    Use :meth:`start` and :meth:`close` from the event loop (the app's lifespan does).
    :meth:`submit` queues a job; :meth:`cancel` stops one; :meth:`run` is submit and wait.
    """

    def __init__(
        self,
        size: int,
        caps: ServerCaps,
        *,
        name: str = "search",
        warm: bool = True,
        games: Mapping[str, str] | None = None,
    ) -> None:
        self.size = size
        self.games = dict(games or {})
        self.caps = caps
        self.name = name
        self.warm = warm
        self.workers: list[_Worker] = []
        self.pending: deque[Job] = deque()
        self.restarts = 0
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._context = _context()
        self._closed = False

    # -- life ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers (the first start also starts the forkserver: seconds); each then
        warms up on its own. Jobs submitted meanwhile wait for a ready worker."""
        self._loop = asyncio.get_running_loop()
        for _ in range(self.size):
            worker = await asyncio.to_thread(self._spawn)
            if self._closed:  # closed while this one started
                worker.process.kill()
                worker.process.join(1.0)
                return
            self._adopt(worker)

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        cancel = self._context.Value("q", 0, lock=False)
        process = self._context.Process(
            target=_worker_main,
            args=(theirs, cancel, self.caps.memory_mb, self.warm, self.games),
            name=f"searchlab-web-{self.name}",
            daemon=True,
        )
        process.start()
        theirs.close()
        return _Worker(process, ours, cancel)

    def _adopt(self, worker: _Worker) -> None:
        assert self._loop is not None
        self.workers.append(worker)
        threading.Thread(
            target=self._read, args=(worker,), name=f"searchlab-web-read-{self.name}", daemon=True
        ).start()
        self._dispatch()

    async def close(self) -> None:
        """Stop every worker and fail every waiting job."""
        self._closed = True
        while self.pending:
            self._finish(self.pending.popleft(), "error", (503, "the server is shutting down"))
        for worker in list(self.workers):
            self._drop(worker)
            if worker.job is not None:  # busy: it would not read the stop message in time
                self._finish(worker.job, "error", (503, "the server is shutting down"))
                worker.process.kill()
                continue
            with contextlib.suppress(OSError):
                worker.connection.send(None)
        await asyncio.to_thread(self._join, list(self.workers))
        self.workers.clear()

    @staticmethod
    def _join(workers: list[_Worker]) -> None:
        for worker in workers:
            worker.process.join(1.0)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join(1.0)

    # -- jobs ----------------------------------------------------------------------------
    @property
    def ready(self) -> int:
        """Workers started and warm."""
        return sum(worker.ready for worker in self.workers)

    @property
    def all_ready(self) -> bool:
        """Whether all ``size`` workers are started and warm."""
        return self.ready == self.size

    async def wait_ready(self, timeout: float = 60.0) -> bool:
        """Wait until every worker is warm (``False`` after ``timeout`` seconds)."""
        deadline = time.perf_counter() + timeout
        while not self.all_ready:
            if time.perf_counter() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    @property
    def busy(self) -> int:
        """Workers running a job."""
        return sum(worker.job is not None for worker in self.workers)

    def submit(self, kind: str, payload: dict[str, Any], seconds: float) -> Job:
        """Queue a job with time budget ``seconds``; raises :class:`JobError` (429) when the
        queue is full, (503) when the pool is closed."""
        if self._closed:
            raise JobError(503, "the server is shutting down")
        if len(self.pending) >= self.caps.queue:
            raise JobError(
                429, f"the server is busy ({len(self.pending)} searches waiting): try again"
            )
        job = Job(next(self._ids), kind, payload, seconds)
        self.pending.append(job)
        self._dispatch()
        return job

    async def run(self, kind: str, payload: dict[str, Any], seconds: float) -> str:
        """Submit a job and wait for its result (:class:`JobError` if it has none); a caller
        that is cancelled (a client gone) cancels the job."""
        job = self.submit(kind, payload, seconds)
        try:
            return await job.outcome()
        finally:
            if not job.done:
                self.cancel(job)

    def cancel(self, job: Job) -> None:
        """Stop ``job``: dropped from the queue, or its worker told to stop (and killed if it
        has not within a grace period)."""
        if job.done:
            return
        if job.worker is None:
            with contextlib.suppress(ValueError):
                self.pending.remove(job)
            self._finish(job, "cancelled", None)
            return
        worker = job.worker
        worker.cancel.value = job.id
        if worker.watchdog is not None:
            worker.watchdog.cancel()
        assert self._loop is not None
        worker.watchdog = self._loop.call_later(
            _CANCEL_GRACE, self._overrun, worker, job, "it did not stop when cancelled"
        )

    def _dispatch(self) -> None:
        if self._loop is None:
            return
        for worker in self.workers:
            if not self.pending:
                return
            if worker.job is not None or not worker.ready:
                continue
            job = self.pending.popleft()
            worker.job, job.worker = job, worker
            job.started_at = time.perf_counter()
            try:
                worker.connection.send(
                    (job.id, job.kind, job.payload, job.seconds, self.caps.grace / 2)
                )
            except OSError:
                self._died(worker)
                continue
            worker.watchdog = self._loop.call_later(
                job.seconds + self.caps.grace, self._overrun, worker, job, "it overran its time cap"
            )

    def _read(self, worker: _Worker) -> None:
        """A reader thread: every message of ``worker``'s pipe to the event loop."""
        assert self._loop is not None
        loop = self._loop
        while True:
            try:
                message = worker.connection.recv()
            except Exception:  # EOF (the worker ended), a closed pipe, a garbled message
                with contextlib.suppress(OSError):
                    worker.connection.close()
                with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to tell
                    loop.call_soon_threadsafe(self._lost, worker)
                return
            try:
                loop.call_soon_threadsafe(self._message, worker, message)
            except RuntimeError:
                return

    def _lost(self, worker: _Worker) -> None:
        if worker in self.workers and not self._closed:  # not one ended on purpose
            log.error("lost the pipe of search worker %s", worker.process.pid)
            self._died(worker)

    def _message(self, worker: _Worker, message: tuple[int, str, Any]) -> None:
        if worker not in self.workers:
            return
        job_id, kind, data = message
        if kind == "ready":
            worker.ready = True
        else:
            job = worker.job
            if job is None or job.id != job_id:
                return  # a late message of a job already ended
            if kind in _FINAL:
                self._release(worker)
                if kind == "error" and data[0] >= 500:
                    log.error("search job %s (%s) failed: %s", job.id, job.kind, data[1])
                    data = (500, "internal error: " + data[1].splitlines()[0])
                self._finish(job, kind, data)
            else:
                job.events.put_nowait((kind, data))
                return
        self._dispatch()

    def _release(self, worker: _Worker) -> None:
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        if worker.job is not None:
            worker.job.worker = None
        worker.job = None

    @staticmethod
    def _finish(job: Job, kind: str, data: Any) -> None:
        if not job.done:
            job.done = True
            job.events.put_nowait((kind, data))

    def _overrun(self, worker: _Worker, job: Job, why: str) -> None:
        if worker.job is not job or worker not in self.workers:
            return
        log.warning("killing search worker %s: job %s (%s) %s", worker.process.pid, job.id,
                    job.kind, why)  # fmt: skip
        cancelled = worker.cancel.value == job.id
        self._replace(worker)
        if cancelled:
            self._finish(job, "cancelled", None)
        else:
            self._finish(job, "error", (400, f"the search was stopped: {why} ({job.seconds:g} s)"))

    def _died(self, worker: _Worker) -> None:
        job = worker.job
        code = worker.process.exitcode
        self._replace(worker)
        if job is not None:
            how = "its messages could not be read" if code is None else f"exit code {code}"
            self._finish(job, "error", (500, f"the worker running this search died ({how})"))

    def _drop(self, worker: _Worker) -> None:
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and start a fresh one in its place."""
        self._drop(worker)
        if worker in self.workers:
            self.workers.remove(worker)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(1.0)  # its reader thread sees the pipe end and closes it
        job = worker.job
        if job is not None:
            job.worker = None
        worker.job = None
        if self._closed:
            return
        self.restarts += 1
        self._adopt(self._spawn())


_PRELOAD = ["searchlab.web.jobs", "searchlab.learning.agents"]
"""What the forkserver imports once for every worker: the jobs, and the network agents with
PyTorch (skipped without the ``learn`` extra: the forkserver passes over a module it cannot
import)."""


def _context() -> Any:
    """The forkserver context (its server imports :data:`_PRELOAD` once)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    return context
