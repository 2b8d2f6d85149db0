"""Local worker processes that play games: :class:`WorkerPool`.

Each worker is a process with a pipe to the parent; it receives one :class:`GameJob`, plays it
with :func:`~searchlab.arena.worker.play_game` and sends the :class:`GameRecord` back, then
waits for the next. The parent alone writes to the store. Unlike
``concurrent.futures.ProcessPoolExecutor`` there is no manager thread, no queue feeder thread
and no exit hook in the parent, so stopping is plain and immediate: :meth:`WorkerPool.terminate`
sends every worker SIGTERM and joins it.

Signals: a worker ignores SIGINT (Ctrl-C reaches the whole foreground process group; the
parent owns it and decides) and dies at once, silently, on SIGTERM (the default action: the
parent's way to stop it). Stop signals are blocked while a worker is forked, so no signal can
reach a worker that still runs the parent's handlers. A worker also ends when the parent goes
away (its pipe closes).

>>> from searchlab.arena.schedule import round_robin
>>> jobs = round_robin("nim", ["random", "greedy"], 2, seed=1)
>>> with WorkerPool(2) as pool:
...     for job in jobs:
...         pool.submit(job)
...     records = [record for _ in jobs for record in pool.finished()]
>>> sorted(record.key for record in records) == sorted(job.key for job in jobs)
True
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from searchlab.arena.interrupts import STOP_SIGNALS, SignalReceived, signal_name
from searchlab.arena.schedule import GameJob
from searchlab.arena.worker import GameRecord, play_game
from searchlab.core.closing import Closing
from searchlab.core.errors import InvalidParameterError, SearchlabError

__all__ = ["ArenaWorkerError", "WorkerPool"]

_JOIN_SECONDS = 5.0  # how long a worker may take to end before it is killed


class ArenaWorkerError(SearchlabError, RuntimeError):
    """A worker process died while playing a game (not by an agent's error: those lose the
    game). The games finished before are stored; running the tournament again resumes."""


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    connection: Connection
    job: GameJob | None = None


def _serve(
    connection: Connection,
    inherited: list[Connection],
    mask: set[signal.Signals] | None,
) -> None:  # pragma: no cover - runs in the worker processes
    """A worker's life: set its signals, then play the jobs it is sent until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    for other in inherited:  # the parent's ends of earlier workers' pipes, copied by fork
        other.close()
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if job is None:
            return
        try:
            reply: tuple[str, Any] = ("record", play_game(job))
        except Exception as error:  # not an agent's error (play_game catches those)
            reply = ("error", error)
        try:
            try:
                connection.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError):
                connection.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))
        except OSError:  # the parent is gone
            return


class WorkerPool(Closing):
    """``size`` worker processes; use as a context manager (leaving it ends every worker).

    :meth:`submit` gives a job to an idle worker; :meth:`finished` waits for games to end and
    yields their records; :meth:`terminate` ends every worker at once (games in progress are
    lost). The start method is ``multiprocessing``'s default (``fork`` on Linux before Python
    3.14, so agent kinds registered at run time reach the workers).
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise InvalidParameterError(f"workers must be >= 1, got {size}")
        self.size = size
        self._workers: list[_Worker] = []

    # -- starting ------------------------------------------------------------------------------
    def __enter__(self) -> WorkerPool:
        try:
            for _ in range(self.size):
                self._start_one()
        except BaseException:
            self.terminate()
            raise
        return self

    def _start_one(self) -> None:
        context = multiprocessing.get_context()
        ours, theirs = context.Pipe()
        forked = context.get_start_method() == "fork"
        inherited = [worker.connection for worker in self._workers] + [ours] if forked else []
        can_mask = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if can_mask else None
        try:
            process = context.Process(
                target=_serve,
                args=(theirs, inherited, previous),
                name=f"searchlab-arena-worker-{len(self._workers) + 1}",
                daemon=True,
            )
            process.start()
        finally:
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            theirs.close()
        self._workers.append(_Worker(process, ours))

    # -- playing -------------------------------------------------------------------------------
    @property
    def processes(self) -> tuple[BaseProcess, ...]:
        """The worker processes (empty once the pool is closed)."""
        return tuple(worker.process for worker in self._workers)

    @property
    def idle(self) -> int:
        """Workers without a game."""
        return sum(worker.job is None for worker in self._workers)

    @property
    def busy(self) -> int:
        """Workers playing a game."""
        return sum(worker.job is not None for worker in self._workers)

    def submit(self, job: GameJob) -> None:
        """Give ``job`` to an idle worker (``RuntimeError`` when none is idle)."""
        for worker in self._workers:
            if worker.job is None:
                try:
                    worker.connection.send(job)
                except OSError:  # it died while idle
                    raise self._death(worker) from None
                worker.job = job
                return
        raise RuntimeError("no idle worker")

    def finished(
        self, timeout: float | None = None, *, wake: int | None = None
    ) -> Iterator[GameRecord]:
        """Wait until a game ends (or ``timeout`` seconds pass, or the descriptor ``wake``
        becomes readable), then yield the record of every game that has ended.

        A worker's unexpected exception is raised after the other records are yielded.
        Raises :class:`ArenaWorkerError` when a worker died, or :class:`SignalReceived` when
        it was ended by SIGINT or SIGTERM from outside (a stop of the whole tournament); so
        does :meth:`submit`.
        """
        busy: dict[Any, _Worker] = {
            worker.connection: worker for worker in self._workers if worker.job is not None
        }
        if not busy:
            return
        handles: list[Any] = list(busy)
        if wake is not None:
            handles.append(wake)
        failure: BaseException | None = None
        for handle in wait(handles, timeout):
            worker = busy.get(handle)
            if worker is None:  # the wake-up descriptor
                continue
            try:
                kind, payload = worker.connection.recv()
            except (EOFError, OSError):
                failure = failure or self._death(worker)
                continue
            worker.job = None
            if kind == "record":
                yield payload
            else:
                failure = failure or payload
        if failure is not None:
            raise failure

    def _death(self, worker: _Worker) -> BaseException:
        job = worker.job
        worker.job = None
        worker.process.join(_JOIN_SECONDS)
        code = worker.process.exitcode
        if code is not None and -code in STOP_SIGNALS:
            return SignalReceived(-code)
        how = f"killed by {signal_name(-code)}" if code and code < 0 else f"exit code {code}"
        doing = f"while playing {job.key!r}" if job is not None else "between games"
        return ArenaWorkerError(
            f"arena worker process {worker.process.pid} ended ({how}) {doing}; every finished "
            "game is stored: run the same command again to resume"
        )

    # -- stopping ------------------------------------------------------------------------------
    def terminate(self) -> None:
        """End every worker now (SIGTERM, then SIGKILL after a few seconds) and join it."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.terminate()
        self._join_all()

    def close(self) -> None:
        """Tell idle workers to stop, end the busy ones, and join them all."""
        for worker in self._workers:
            try:
                if worker.job is None:
                    worker.connection.send(None)
                elif worker.process.is_alive():
                    worker.process.terminate()
            except OSError:  # already gone
                pass
        self._join_all()

    def _join_all(self) -> None:
        for worker in self._workers:
            worker.process.join(_JOIN_SECONDS)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
            worker.job = None
        self._workers.clear()

    def _leave(self, *, failed: bool) -> None:
        if failed:
            self.terminate()
        else:
            self.close()

    def __repr__(self) -> str:
        return f"WorkerPool(size={self.size}, busy={self.busy}, pid={os.getpid()})"
