"""Pools that run independent tasks: in this process, in local processes, or on a Ray cluster.

One pool for every command that farms out work (self-play and evaluation games of training,
the chunks of an opening book): ``pool.run(tasks, function)`` calls the module-level
``function(task)`` on each task and yields the results as they finish; ``pool.close()``
releases the workers (tasks not started are dropped).

* :class:`InlinePool`: in this process, in order (one worker; the tests');
* :class:`ProcessPool`: ``workers`` local processes (``spawn``: no fork of a process holding
  threads), each set up once by ``initializer``;
* :class:`RayPool`: Ray tasks (``ray`` is an optional package: ``pip install
  'searchlab[ray]'``); ``address`` ``None`` (or ``"local"``) starts a local Ray instance of
  ``workers`` CPUs, ``"auto"`` or ``HOST:PORT`` joins that cluster, and an address where
  nothing answers is one :class:`~searchlab.core.errors.InvalidParameterError` line within
  seconds (Ray itself would retry for minutes).

:func:`make_pool` picks one.

>>> pool = make_pool(workers=1)
>>> type(pool).__name__, list(pool.run([1, 2, 3], abs))
('InlinePool', [1, 2, 3])
>>> pool.close()
>>> make_pool(workers=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: workers must be an integer >= 1, got 0
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from searchlab.core.errors import InvalidParameterError

__all__ = ["InlinePool", "Pool", "ProcessPool", "RayPool", "make_pool", "probe_ray_address"]

Task = TypeVar("Task")
Result = TypeVar("Result")


class InlinePool:
    """Runs each task in this process, when its result is asked for."""

    def run(self, tasks: Sequence[Task], function: Callable[[Task], Result]) -> Iterator[Result]:
        """``function(task)`` of each of ``tasks``, in order."""
        for task in tasks:
            yield function(task)

    def close(self) -> None:
        """Nothing to release."""


class ProcessPool:
    """``workers`` local processes (spawned once, reused for every call of :meth:`run`), each
    running ``initializer()`` first when one is given."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        context = multiprocessing.get_context("spawn")
        self._executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=initializer
        )

    def run(self, tasks: Sequence[Task], function: Callable[[Task], Result]) -> Iterator[Result]:
        """``function(task)`` of each of ``tasks`` (a module-level function), as they
        finish."""
        futures = [self._executor.submit(function, task) for task in tasks]
        try:
            for future in concurrent.futures.as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        """Stop the processes (tasks not started are dropped)."""
        self._executor.shutdown(wait=True, cancel_futures=True)


class RayPool:
    """Ray tasks of one CPU each (see the module for ``address``); each task runs
    ``initializer()`` first when one is given."""

    def __init__(
        self,
        address: str | None,
        workers: int,
        initializer: Callable[[], None] | None = None,
        *,
        timeout: float = 5.0,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise InvalidParameterError("--ray needs Ray: pip install 'searchlab[ray]'") from None
        self._ray = ray
        self._started = False
        self._initializer = initializer
        local = address in (None, "local")
        if not ray.is_initialized():
            if not local:
                probe_ray_address(str(address), timeout)
            try:
                if local:
                    ray.init(
                        num_cpus=max(workers, 1),
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
        self._remote = ray.remote(num_cpus=1)(_ray_call)

    def run(self, tasks: Sequence[Task], function: Callable[[Task], Result]) -> Iterator[Result]:
        """``function(task)`` of each of ``tasks``, as they finish."""
        ray = self._ray
        pending = [self._remote.remote(function, task, self._initializer) for task in tasks]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for reference in pending:
                ray.cancel(reference, force=True)

    def close(self) -> None:
        """Shut down the Ray instance this pool started (a joined cluster stays up)."""
        if self._started:
            self._ray.shutdown()


Pool = InlinePool | ProcessPool | RayPool
"""Any of the pools."""


def probe_ray_address(address: str, timeout: float = 5.0) -> None:
    """One line unless something listens at ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``; ``auto`` is left to Ray) within ``timeout`` seconds."""
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
) -> Any:
    if initializer is not None:
        initializer()
    return function(task)


def make_pool(
    workers: int = 1,
    *,
    ray: bool = False,
    address: str | None = None,
    initializer: Callable[[], None] | None = None,
) -> Pool:
    """The pool for ``workers`` workers: Ray when ``ray`` (at ``address``, or a local
    instance), else local processes when ``workers > 1``, else this process."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidParameterError(f"workers must be an integer >= 1, got {workers!r}")
    if ray:
        return RayPool(address, workers, initializer)
    if workers > 1:
        return ProcessPool(workers, initializer)
    return InlinePool()
