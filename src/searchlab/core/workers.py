"""Pools that run independent tasks: in this process, in local processes, or on a Ray cluster.

The one pool of every command that farms out work (the arena's games, self-play and evaluation
games of training, the chunks of an opening book). A task is a picklable value and its
function a module-level function; the pool calls ``function(task)`` in a worker and hands the
result back to the parent, which alone writes anything to disk.

Two ways to use a pool:

* ``pool.run(tasks, function)`` yields the results as they finish, keeping every worker busy;
  leaving the loop early ends the tasks in progress;
* ``pool.submit(function, task)`` while ``pool.idle``, then ``pool.finished(timeout, wake=fd)``
  to wait for results (the arena does this, to wake up at once on a stop signal);
  ``pool.terminate()`` ends the tasks in progress at once.

The pools:

* :class:`InlinePool`: in this process, in order (one worker; the tests');
* :class:`ProcessPool`: ``workers`` local processes, each set up once by ``initializer``.
  There is no manager thread, no queue feeder thread and no exit hook in the parent, so
  stopping is plain and immediate. A worker ignores SIGINT (Ctrl-C reaches the whole
  foreground process group: the parent owns it and decides) and dies at once, silently, on
  SIGTERM (the parent's way to stop it); stop signals are blocked while a worker starts, so no
  signal reaches a worker still running the parent's handlers; a worker also ends when the
  parent goes away. A worker that dies is one :class:`WorkerError` line (one ended by SIGINT or
  SIGTERM from outside is :class:`~searchlab.core.interrupts.SignalReceived`: a stop);
* :class:`RayPool`: Ray tasks of one CPU each (``ray`` is an optional package: ``pip install
  'searchlab[ray]'``); ``address`` ``None`` (or ``"local"``) starts a local Ray instance of
  ``workers`` CPUs, ``"auto"`` or ``HOST:PORT`` joins that cluster, and an address where
  nothing answers is one :class:`~searchlab.core.errors.InvalidParameterError` line within
  seconds (Ray itself would retry for minutes).

An exception raised by ``function`` in a worker is raised again in the parent (after the
results that finished with it). :func:`make_pool` picks a pool.

>>> pool = make_pool(workers=1)
>>> type(pool).__name__, list(pool.run([1, -2, 3], abs))
('InlinePool', [1, 2, 3])
>>> pool.close()
>>> with ProcessPool(2) as pool:
...     sorted(pool.run([1, -2, -3], abs))
[1, 2, 3]
>>> make_pool(workers=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: workers must be an integer >= 1, got 0
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import select
import signal
import socket
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from searchlab.core.closing import Closing
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.interrupts import STOP_SIGNALS, SignalReceived, signal_name

__all__ = [
    "InlinePool",
    "Pool",
    "ProcessPool",
    "RayPool",
    "TaskPool",
    "WorkerError",
    "make_pool",
    "probe_ray_address",
]

_JOIN_SECONDS = 5.0  # how long a worker process may take to end before it is killed
_RAY_POLL_SECONDS = 0.05  # how often a wait on Ray tasks looks at the wake-up descriptor


class WorkerError(SearchlabError, RuntimeError):
    """A worker died while running a task (not by the task's own exception: that one is
    raised as it is)."""


class TaskPool(Protocol):
    """What every pool offers (see the module docstring)."""

    size: int

    @property
    def idle(self) -> int:
        """Workers without a task."""
        ...

    @property
    def busy(self) -> int:
        """Workers running a task."""
        ...

    def submit(self, function: Callable[[Any], Any], task: Any) -> None:
        """Start ``function(task)`` on an idle worker."""
        ...

    def finished(self, timeout: float | None = None, *, wake: int | None = None) -> Iterator[Any]:
        """Wait for tasks to end and yield their results."""
        ...

    def run(self, tasks: Iterable[Any], function: Callable[[Any], Any]) -> Iterator[Any]:
        """``function(task)`` of each of ``tasks``, as they finish."""
        ...

    def terminate(self) -> None:
        """End the tasks in progress at once."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


class _Farm(Closing):
    """:meth:`run` on top of ``submit``/``finished``/``idle``/``busy``/``terminate``."""

    size: int

    @property
    @abstractmethod
    def idle(self) -> int:
        """How many more tasks may be submitted now."""

    @property
    @abstractmethod
    def busy(self) -> int:
        """How many tasks are running."""

    @abstractmethod
    def submit(self, function: Callable[[Any], Any], task: Any) -> None:
        """Start ``function(task)`` (an idle worker must be free)."""

    @abstractmethod
    def finished(self, timeout: float | None = None, *, wake: int | None = None) -> Iterator[Any]:
        """Wait (at most ``timeout``) for tasks to end and yield their results."""

    @abstractmethod
    def terminate(self) -> None:
        """End the tasks in progress at once."""

    def run(self, tasks: Iterable[Any], function: Callable[[Any], Any]) -> Iterator[Any]:
        """``function(task)`` of each of ``tasks`` (a module-level function), as they finish;
        leaving the loop early (or an exception) ends the tasks still running."""
        queue = iter(tasks)
        complete = False
        try:
            while True:
                while self.idle:
                    task = next(queue, _END)
                    if task is _END:
                        break
                    self.submit(function, task)
                if not self.busy:
                    complete = True
                    return
                yield from self.finished()
        finally:
            if not complete and self.busy:
                self.terminate()

    def _leave(self, *, failed: bool) -> None:
        if failed:
            self.terminate()
        self.close()


_END = object()


class InlinePool(_Farm):
    """Runs each task in this process, when its result is asked for (one worker)."""

    size = 1

    def __init__(self) -> None:
        self._task: tuple[Callable[[Any], Any], Any] | None = None

    @property
    def idle(self) -> int:
        """1 without a task, else 0."""
        return int(self._task is None)

    @property
    def busy(self) -> int:
        """1 with a task, else 0."""
        return int(self._task is not None)

    def submit(self, function: Callable[[Any], Any], task: Any) -> None:
        """Keep ``function(task)`` for :meth:`finished` to run."""
        if self._task is not None:
            raise RuntimeError("no idle worker")
        self._task = (function, task)

    def finished(self, timeout: float | None = None, *, wake: int | None = None) -> Iterator[Any]:
        """Run the submitted task here and yield its result."""
        if self._task is not None:
            function, task = self._task
            self._task = None
            yield function(task)

    def run(self, tasks: Iterable[Any], function: Callable[[Any], Any]) -> Iterator[Any]:
        """``function(task)`` of each of ``tasks``, in order."""
        for task in tasks:
            yield function(task)

    def terminate(self) -> None:
        """Drop the submitted task."""
        self._task = None

    def close(self) -> None:
        """Nothing to release."""
        self._task = None


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    connection: Connection
    task: Any = _END


def _serve(
    connection: Connection,
    inherited: list[Connection],
    mask: set[signal.Signals] | None,
    initializer: Callable[[], None] | None,
) -> None:  # pragma: no cover - runs in the worker processes
    """A worker's life: set its signals, then run the tasks it is sent until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    for other in inherited:  # the parent's ends of earlier workers' pipes, copied by fork
        other.close()
    if initializer is not None:
        initializer()
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        function, task = message
        try:
            reply: tuple[str, Any] = ("result", function(task))
        except Exception as error:
            reply = ("error", error)
        try:
            try:
                connection.send(reply)
            except (pickle.PicklingError, TypeError, AttributeError):
                connection.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))
        except OSError:  # the parent is gone
            return


class ProcessPool(_Farm):
    """``workers`` local processes, started when first needed (or on entering ``with``) and
    reused by every call; use as a context manager or call :meth:`close`.

    ``start_method``: ``"spawn"`` (the default: no fork of a process that holds threads, such
    as torch's) or ``None`` for ``multiprocessing``'s default (``fork`` on Linux before Python
    3.14, so that what was registered at run time reaches the workers). ``name`` starts each
    worker's process name and its :class:`WorkerError` lines.
    """

    def __init__(
        self,
        workers: int,
        initializer: Callable[[], None] | None = None,
        *,
        start_method: str | None = "spawn",
        name: str = "searchlab",
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidParameterError(f"workers must be >= 1, got {workers!r}")
        self.size = workers
        self.name = name
        self._initializer = initializer
        self._context = multiprocessing.get_context(start_method)
        self._workers: list[_Worker] = []

    # -- starting ------------------------------------------------------------------------------
    def __enter__(self) -> ProcessPool:
        self.start()
        return self

    def start(self) -> None:
        """Start the worker processes that are missing: all of them at first and after
        :meth:`terminate`, one in place of each that died."""
        if len(self._workers) == self.size:
            return
        try:
            while len(self._workers) < self.size:
                self._start_one()
        except BaseException:
            self.terminate()
            raise

    def _start_one(self) -> None:
        ours, theirs = self._context.Pipe()
        forked = self._context.get_start_method() == "fork"
        inherited = [worker.connection for worker in self._workers] + [ours] if forked else []
        can_mask = hasattr(signal, "pthread_sigmask")
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) if can_mask else None
        try:
            process = self._context.Process(  # type: ignore[attr-defined]
                target=_serve,
                args=(theirs, inherited, previous, self._initializer),
                name=f"{self.name}-worker-{len(self._workers) + 1}",
                daemon=True,
            )
            process.start()
        finally:
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            theirs.close()
        self._workers.append(_Worker(process, ours))

    # -- running -------------------------------------------------------------------------------
    @property
    def processes(self) -> tuple[BaseProcess, ...]:
        """The worker processes (empty before the start and once the pool is closed)."""
        return tuple(worker.process for worker in self._workers)

    @property
    def idle(self) -> int:
        """Workers without a task (counting those not started yet)."""
        return self.size - self.busy

    @property
    def busy(self) -> int:
        """Workers running a task."""
        return sum(worker.task is not _END for worker in self._workers)

    def submit(self, function: Callable[[Any], Any], task: Any) -> None:
        """Give ``function(task)`` to an idle worker (``RuntimeError`` when none is idle)."""
        self.start()
        for worker in self._workers:
            if worker.task is _END:
                try:
                    worker.connection.send((function, task))
                except OSError:  # it died while idle
                    raise self._death(worker) from None
                worker.task = task
                return
        raise RuntimeError("no idle worker")

    def finished(self, timeout: float | None = None, *, wake: int | None = None) -> Iterator[Any]:
        """Wait until a task ends (or ``timeout`` seconds pass, or the descriptor ``wake``
        becomes readable), then yield the result of every task that has ended.

        A task's exception is raised after the other results are yielded. Raises
        :class:`WorkerError` when a worker died, or
        :class:`~searchlab.core.interrupts.SignalReceived` when it was ended by SIGINT or
        SIGTERM from outside (a stop of the whole command); so does :meth:`submit`.
        """
        busy: dict[Any, _Worker] = {
            worker.connection: worker for worker in self._workers if worker.task is not _END
        }
        if not busy:
            return
        handles: list[Any] = list(busy)
        if wake is not None:
            handles.append(wake)
        yield from _results(self._replies(busy, wait(handles, timeout)))

    def _replies(self, busy: dict[Any, _Worker], ready: list[Any]) -> Iterator[tuple[str, Any]]:
        for handle in ready:
            worker = busy.get(handle)
            if worker is None:  # the wake-up descriptor
                continue
            try:
                reply = worker.connection.recv()
            except (EOFError, OSError):
                yield ("error", self._death(worker))
                continue
            worker.task = _END
            yield reply

    def _death(self, worker: _Worker) -> BaseException:
        """The error for ``worker``, which died: it leaves the pool (the next :meth:`submit`
        starts another)."""
        task = worker.task
        self._workers.remove(worker)
        worker.process.join(_JOIN_SECONDS)
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()
        worker.connection.close()
        code = worker.process.exitcode
        if code is not None and -code in STOP_SIGNALS:
            return SignalReceived(-code)
        how = f"killed by {signal_name(-code)}" if code and code < 0 else f"exit code {code}"
        return WorkerError(
            f"{self.name} worker process {worker.process.pid} ended ({how}) {_doing(task)}"
        )

    # -- stopping ------------------------------------------------------------------------------
    def terminate(self) -> None:
        """End every worker now (SIGTERM, then SIGKILL after a few seconds) and join it; the
        next :meth:`submit` starts new ones."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.terminate()
        self._join_all()

    def close(self) -> None:
        """Tell idle workers to stop, end the busy ones, and join them all."""
        for worker in self._workers:
            try:
                if worker.task is _END:
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
            worker.task = _END
        self._workers.clear()

    def __repr__(self) -> str:
        return f"ProcessPool(size={self.size}, busy={self.busy}, pid={os.getpid()})"


def _results(replies: Iterable[tuple[str, Any]]) -> Iterator[Any]:
    """The payloads of the ``("result", value)`` replies; then the first ``("error",
    exception)`` reply's exception is raised, once every result is yielded."""
    failure: BaseException | None = None
    for kind, payload in replies:
        if kind == "result":
            yield payload
        else:
            failure = failure or payload
    if failure is not None:
        raise failure


def _doing(task: Any) -> str:
    """``while running 'key'`` (a task with a ``key``), ``while running a int task``, or
    ``between tasks``."""
    if task is _END:
        return "between tasks"
    key = getattr(task, "key", None)
    if key is not None:
        return f"while running {key!r}"
    return f"while running a {type(task).__name__} task"


class RayPool(_Farm):
    """Ray tasks of one CPU each, at most ``workers`` at a time (see the module for
    ``address``); each task runs ``initializer()`` first when one is given. What a task
    imports must be importable on the cluster's machines (run-time registrations in this
    process do not reach them)."""

    def __init__(
        self,
        address: str | None,
        workers: int,
        initializer: Callable[[], None] | None = None,
        *,
        timeout: float = 5.0,
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidParameterError(f"workers must be >= 1, got {workers!r}")
        try:
            import ray
        except ImportError:
            raise InvalidParameterError("--ray needs Ray: pip install 'searchlab[ray]'") from None
        self.size = workers
        self._ray = ray
        self._started = False
        self._initializer = initializer
        self._pending: dict[Any, Any] = {}
        local = address in (None, "local")
        if not ray.is_initialized():
            if not local:
                probe_ray_address(str(address), timeout)
            try:
                if local:
                    ray.init(
                        num_cpus=workers,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                    )
                else:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError, TimeoutError, SystemError) as error:
                text = " ".join(str(error).split())[:200]
                raise InvalidParameterError(
                    f"--ray {address or 'local'}: Ray did not start ({text})"
                ) from None
            self._started = True
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_ray_call)

    @property
    def idle(self) -> int:
        """Tasks that may still be started (``workers`` less those in flight)."""
        return max(self.size - len(self._pending), 0)

    @property
    def busy(self) -> int:
        """Tasks in flight."""
        return len(self._pending)

    def submit(self, function: Callable[[Any], Any], task: Any) -> None:
        """Start ``function(task)`` as a Ray task."""
        if not self.idle:
            raise RuntimeError("no idle worker")
        self._pending[self._remote.remote(function, task, self._initializer)] = task

    def finished(self, timeout: float | None = None, *, wake: int | None = None) -> Iterator[Any]:
        """Wait until a task ends (or ``timeout`` seconds pass, or ``wake`` becomes readable),
        then yield the result of every task that has ended; a task's exception is raised
        after them, a task lost with its worker is one :class:`WorkerError` line."""
        if not self._pending:
            return
        ray = self._ray
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = _RAY_POLL_SECONDS if deadline is None else deadline - time.monotonic()
            step = max(min(left, _RAY_POLL_SECONDS), 0.0)
            done, _ = ray.wait(list(self._pending), num_returns=1, timeout=step)
            if done:
                done, _ = ray.wait(list(self._pending), num_returns=len(self._pending), timeout=0)
                break
            if wake is not None and select.select([wake], [], [], 0)[0]:
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
        yield from _results(self._replies(done))

    def _replies(self, done: list[Any]) -> Iterator[tuple[str, Any]]:
        for reference in done:
            task = self._pending.pop(reference)
            try:
                yield self._ray.get(reference)
            except self._ray.exceptions.RayError as error:
                text = " ".join(str(error).split())[:200]
                failure = f"a Ray worker failed {_doing(task)} ({type(error).__name__}: {text})"
                yield ("error", WorkerError(failure))

    def terminate(self) -> None:
        """Cancel the tasks in flight (their worker processes are killed)."""
        for reference in self._pending:
            self._ray.cancel(reference, force=True)
        self._pending.clear()

    def close(self) -> None:
        """Cancel the tasks in flight and shut down the Ray instance this pool started (a
        joined cluster stays up)."""
        self.terminate()
        if self._started:
            self._ray.shutdown()
            self._started = False


Pool = InlinePool | ProcessPool | RayPool
"""Any of the pools."""


def probe_ray_address(address: str, timeout: float = 5.0) -> None:
    """One line unless something listens at ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``; ``auto`` is left to Ray) within ``timeout`` seconds.

    >>> probe_ray_address("nowhere")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: --ray 'nowhere': expected HOST:PORT (or ray://HOST:PORT) of a Ray cluster, 'local' or 'auto'
    """  # noqa: E501
    text = address.removeprefix("ray://")
    if text == "auto":
        return
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise InvalidParameterError(
            f"--ray {address!r}: expected HOST:PORT (or ray://HOST:PORT) of a Ray cluster, "
            "'local' or 'auto'"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidParameterError(
            f"--ray {address}: no Ray cluster answers there ({reason})"
        ) from None


def _ray_call(
    function: Callable[[Any], Any], task: Any, initializer: Callable[[], None] | None
) -> tuple[str, Any]:  # pragma: no cover - runs in Ray's worker processes
    """A Ray task: ``("result", function(task))``, or ``("error", the exception)``."""
    if initializer is not None:
        initializer()
    try:
        return ("result", function(task))
    except Exception as error:
        try:
            pickle.dumps(error)
        except Exception:
            return ("error", RuntimeError(f"{type(error).__name__}: {error}"))
        return ("error", error)


def make_pool(
    workers: int = 1,
    *,
    ray: bool = False,
    address: str | None = None,
    initializer: Callable[[], None] | None = None,
    start_method: str | None = "spawn",
    name: str = "searchlab",
) -> Pool:
    """The pool for ``workers`` workers: Ray when ``ray`` (at ``address``, or a local
    instance of ``workers`` CPUs), else local processes (``start_method``, ``name``: see
    :class:`ProcessPool`) when ``workers > 1``, else this process."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidParameterError(f"workers must be an integer >= 1, got {workers!r}")
    if ray:
        return RayPool(address, workers, initializer)
    if workers > 1:
        return ProcessPool(workers, initializer, start_method=start_method, name=name)
    return InlinePool()
