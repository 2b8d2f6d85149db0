"""Self-play workers: in this process, in local processes, or on Ray; one worker function.

A :class:`SelfPlayTask` says everything a worker needs to play a chunk of games: the game (its
registry name and parameters), the network (architecture and weights), the self-play config,
the seed and the games' ids. :func:`play_chunk` plays it and returns the records; because game
``i`` draws from a generator seeded by ``(seed, i)``, a chunk's games are the same whichever
worker plays it.

A :class:`MatchGameTask` is one evaluation game of a generation (the new network against
the previous one or a reference agent); :func:`play_match_game` plays it.

A pool runs tasks (``pool.run(tasks, function)``: :func:`play_chunk` or
:func:`play_match_game`) and hands
back their results as they finish:

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "InlinePool",
    "MatchGameTask",
    "ProcessPool",
    "RayPool",
    "SelfPlayTask",
    "make_pool",
    "play_chunk",
    "play_match_game",
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


@dataclass(frozen=True)
class MatchGameTask:
    """One evaluation game for a worker (plain, picklable data): a network searching with
    PUCT against another network's weights (``opponent_weights``) or an agent
    (``opponent_spec``), game ``number`` of the match seeded by ``seed``
    (:func:`searchlab.learning.evaluation.evaluation_game`).

    Attributes:
        game_name, game_params: the game, by its registry name and parameters.
        network: the architecture of both networks (``NetworkConfig.to_dict()``).
        weights: the network's ``state_dict`` (CPU tensors); it plays first in even games.
        opponent_weights: the other network's, or ``None`` for the agent ``opponent_spec``
            (seeded by the match's seed and the game's number).
        search: how both networks search (an
            :class:`~searchlab.algorithms.mcts.options.MCTSOptions`'s PUCT knobs).
        seed, number: the match's seed and the game's number in it.
        match: a label carried back with the result (which match the game belongs to).
        device: where the networks evaluate.
        simulations: each network's simulations per move.
    """

    game_name: str
    game_params: dict[str, Any]
    network: dict[str, Any]
    weights: dict[str, Any]
    opponent_weights: dict[str, Any] | None
    opponent_spec: str
    search: Any
    seed: int
    number: int
    match: str
    device: str = "cpu"
    simulations: int = 100


def play_match_game(task: MatchGameTask) -> tuple[MatchGameTask, int]:
    """Play ``task``'s game; returns ``(task, outcome)``, ``+1``/``0``/``-1`` for the network."""
    import numpy as np

    from searchlab.agents import Agent, make_agent
    from searchlab.agents.match import close_agent
    from searchlab.domains.games.registry import make
    from searchlab.learning.encoders import encoder_for
    from searchlab.learning.evaluation import evaluation_game, game_generator, network_agent
    from searchlab.learning.evaluator import NetworkEvaluator
    from searchlab.learning.network import NetworkConfig, PolicyValueNet

    game = make(task.game_name, **task.game_params)
    encoder = encoder_for(game)
    config = NetworkConfig.from_dict(task.network)
    rng = game_generator(task.seed, task.number)

    def network(weights: dict[str, Any], name: str) -> Any:
        net = PolicyValueNet(encoder.shape, encoder.num_actions, config)
        net.load_state_dict(weights)
        evaluator = NetworkEvaluator(net.eval(), encoder, task.device)
        return network_agent(evaluator, task.search, task.simulations, rng=rng, name=name)

    opponent: Agent
    if task.opponent_weights is not None:
        opponent = network(task.opponent_weights, "previous")
    else:
        agent_seed = int(np.random.SeedSequence([task.seed, task.number, 13]).generate_state(1)[0])
        opponent = make_agent(task.opponent_spec, game, seed=agent_seed)
    try:
        outcome = evaluation_game(game, network(task.weights, "new"), opponent, number=task.number)
    finally:
        close_agent(opponent)  # a reference that runs an external engine stops with its game
    return task, outcome


Task = TypeVar("Task")
Result = TypeVar("Result")


def _one_thread() -> None:
    import torch

    torch.set_num_threads(1)


class InlinePool:
    """Runs each task in this process, when its result is asked for."""

    def run(
        self,
        tasks: Sequence[Task],
        function: Callable[[Task], Result],
    ) -> Iterator[Result]:
        """``function(task)`` of each of ``tasks`` (:func:`play_chunk`, :func:`play_match_game`),
        in order."""
        for task in tasks:
            yield function(task)

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
        self,
        tasks: Sequence[Task],
        function: Callable[[Task], Result],
    ) -> Iterator[Result]:
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
        self._remote = ray.remote(num_cpus=1)(_ray_call)

    def run(
        self,
        tasks: Sequence[Task],
        function: Callable[[Task], Result],
    ) -> Iterator[Result]:
        """``function(task)`` of each of ``tasks``, as they finish."""
        ray = self._ray
        pending = [self._remote.remote(function, task) for task in tasks]
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


def _ray_call(function: Callable[[Any], Any], task: Any) -> Any:
    _one_thread()
    return function(task)


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
