"""Self-play workers: in this process, in local processes, or on Ray; one worker function.

A :class:`SelfPlayTask` says everything a worker needs to play a chunk of games: the game (its
registry name and parameters), the network (architecture and weights), the self-play config,
the seed and the games' ids. :func:`play_chunk` plays it and returns the records; because game
``i`` draws from a generator seeded by ``(seed, i)``, a chunk's games are the same whichever
worker plays it.

A :class:`MatchGameTask` is one evaluation game of a generation (the new network against
the previous one or a reference agent); :func:`play_match_game` plays it.

A pool (:mod:`searchlab.core.workers`, the one pool of every command that farms out work)
runs tasks (``pool.run(tasks, function)``: :func:`play_chunk` or :func:`play_match_game`) and
hands back their results as they finish: in this process (``workers=1``; the default, and the
tests'), in ``K`` local processes, or on Ray; :func:`make_pool` sets each worker to one torch
thread.

>>> pool = make_pool(workers=1)
>>> type(pool).__name__
'InlinePool'
>>> pool.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from searchlab.core.workers import Pool
from searchlab.core.workers import make_pool as make_core_pool

__all__ = [
    "MatchGameTask",
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
        selfplay: the :class:`~searchlab.learning.alphazero.selfplay.SelfPlayConfig`.
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
    from searchlab.learning.alphazero.selfplay import self_play
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

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
    (:func:`searchlab.learning.alphazero.evaluation.evaluation_game`).

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
    from searchlab.learning.alphazero.evaluation import (
        evaluation_game,
        game_generator,
        network_agent,
    )
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

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


def _one_thread() -> None:
    import torch

    torch.set_num_threads(1)


def make_pool(workers: int = 1, *, ray: bool = False, address: str | None = None) -> Pool:
    """The pool for ``workers`` workers (:func:`searchlab.core.workers.make_pool`), each
    process or Ray task set to one torch thread: Ray when ``ray`` (at ``address``, or a local
    instance), else local processes when ``workers > 1``, else this process."""
    return make_core_pool(workers, ray=ray, address=address, initializer=_one_thread)
