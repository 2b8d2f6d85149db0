"""Self-play workers: in this process, in local processes, or on Ray; one worker function.

A :class:`SelfPlayTask` says everything a worker needs to play a chunk of games: the game (its
registry name and parameters), the network (architecture and weights), the self-play config,
the seed and the games' ids. :func:`play_chunk` plays it and returns the records; because game
``i`` draws from a generator seeded by ``(seed, i)``, a chunk's games are the same whichever
worker plays it.

A pool runs tasks and hands back their results as they finish:

* :class:`InlinePool`: in this process (``workers=1``; the default, and the tests');
* :class:`ProcessPool`: ``K`` local processes (``spawn``: no fork of a process holding torch
  threads), each with one torch thread;
* :class:`RayPool`: Ray tasks (``ray`` is an optional package: ``pip install
  'searchlab[ray]'``); ``address=None`` starts a local Ray instance, an address joins that
  cluster, and one that does not answer is one ``InvalidParameterError`` line.

>>> pool = make_pool(workers=1)
>>> type(pool).__name__
'InlinePool'
>>> pool.close()
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "InlinePool",
    "ProcessPool",
    "RayPool",
    "SelfPlayTask",
    "make_pool",
    "play_chunk",
]


@dataclass(frozen=True)
class SelfPlayTask:
    """A chunk of self-play games for one worker (plain, picklable data).

    Attributes:
        game_name, game_params: the game, by its registry name and parameters.
        network: the architecture (``NetworkConfig.to_dict()``).
        weights: the network's ``state_dict`` (CPU tensors).
        selfplay: the :class:`~searchlab.learning.selfplay.SelfPlayConfig`.
        seed: the run's seed; first_game, games: the ids ``first_game .. first_game + games - 1``.
        generation: the network's generation (carried back with the result).
        device: where the worker's network evaluates (``cpu``, ``cuda``, ``cuda:N``): the
            run's device for this process and local processes; a Ray task's is ``cpu``.
    """

    game_name: str
    game_params: dict[str, Any]
    network: dict[str, Any]
    weights: dict[str, Any]
    selfplay: Any
    seed: int
    first_game: int
    games: int
    generation: int
    device: str = "cpu"


def play_chunk(task: SelfPlayTask) -> tuple[SelfPlayTask, tuple[Any, ...], Any]:
    """Play ``task``'s games; returns ``(task, records, stats)``."""
    import torch

    from searchlab.domains.games.registry import make
    from searchlab.learning.encoders import encoder_for
    from searchlab.learning.evaluator import NetworkEvaluator
    from searchlab.learning.network import NetworkConfig, PolicyValueNet
    from searchlab.learning.selfplay import self_play

    game = make(task.game_name, **task.game_params)
    encoder = encoder_for(game)
    net = PolicyValueNet(encoder.shape, encoder.num_actions, NetworkConfig.from_dict(task.network))
    net.load_state_dict(task.weights)
    net.eval()
    evaluator = NetworkEvaluator(net, encoder, task.device)
    with torch.inference_mode():
        result = self_play(
            game,
            evaluator,
            task.games,
            config=task.selfplay,
            seed=task.seed,
            first_game=task.first_game,
        )
    return task, result.records, result.stats


def _one_thread() -> None:
    import torch

    torch.set_num_threads(1)


class InlinePool:
    """Runs each task in this process, when its result is asked for."""

    def run(
        self, tasks: Sequence[SelfPlayTask]
    ) -> Iterator[tuple[SelfPlayTask, tuple[Any, ...], Any]]:
        """The results of ``tasks``, in order."""
        for task in tasks:
            yield play_chunk(task)

    def close(self) -> None:
        """Nothing to release."""


class ProcessPool:
    """``workers`` local processes (spawned once, reused for every generation)."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_one_thread
        )

    def run(
        self, tasks: Sequence[SelfPlayTask]
    ) -> Iterator[tuple[SelfPlayTask, tuple[Any, ...], Any]]:
        """The results of ``tasks`` as they finish."""
        futures = [self._executor.submit(play_chunk, task) for task in tasks]
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
    """Ray tasks running :func:`play_chunk`; ``address=None`` starts a local instance."""

    def __init__(self, address: str | None, workers: int) -> None:
        try:
            import ray
        except ImportError:
            raise InvalidParameterError("--ray needs Ray: pip install 'searchlab[ray]'") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            if address is not None:
                _probe(address)
            try:
                if address is None:
                    ray.init(
                        num_cpus=workers,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                    )
                else:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
                text = " ".join(str(error).split())[:200]
                raise InvalidParameterError(
                    f"--ray {address}: no Ray cluster answers there ({text})"
                ) from None
            self._started = True
        self._remote = ray.remote(num_cpus=1)(_ray_play)

    def run(
        self, tasks: Sequence[SelfPlayTask]
    ) -> Iterator[tuple[SelfPlayTask, tuple[Any, ...], Any]]:
        """The results of ``tasks`` as they finish."""
        ray = self._ray
        pending = [self._remote.remote(task) for task in tasks]
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


def _probe(address: str, timeout: float = 5.0) -> None:
    """One line unless something listens at ``address`` (``host:port`` or ``ray://host:port``;
    ``auto`` is left to Ray): Ray itself would retry for minutes."""
    import socket

    text = address.removeprefix("ray://")
    if text == "auto":
        return
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise InvalidParameterError(
            f"--ray {address!r}: expected HOST:PORT (or ray://HOST:PORT) of a Ray cluster"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidParameterError(
            f"--ray {address}: no Ray cluster answers there ({reason})"
        ) from None


def _ray_play(task: SelfPlayTask) -> tuple[SelfPlayTask, tuple[Any, ...], Any]:
    _one_thread()
    return play_chunk(task)


def make_pool(
    workers: int = 1, *, ray: bool = False, address: str | None = None
) -> InlinePool | ProcessPool | RayPool:
    """The pool for ``workers`` workers: Ray when ``ray`` (at ``address``, or a local instance),
    else local processes when ``workers > 1``, else this process."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidParameterError(f"workers must be an integer >= 1, got {workers!r}")
    if ray:
        return RayPool(address, workers)
    if workers > 1:
        return ProcessPool(workers)
    return InlinePool()
