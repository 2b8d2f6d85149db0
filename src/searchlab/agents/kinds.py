"""The built-in agent kinds, registered by name with their parameters.

========== ============================================================ =====================
kind       parameters                                                   default budget
========== ============================================================ =====================
random     seed                                                         —
greedy     seed                                                         one ply
alphabeta  depth, time, nodes                                           depth=6
flatmc     simulations, time, scale, seed                               simulations=1000
mcts       simulations, time, c, rollout, final, solver, transpositions simulations=1000
           exact, rave, reuse, tier, scale, seed
gtp        command, timeout, clock, label (an external Go engine)       the engine's own
human      —                                                            —
az         checkpoint, simulations, time, c_puct, batch, temperature,   simulations=800
           device, seed (PUCT with a trained network; lazy)
policy     checkpoint, temperature, device, seed (the network alone;    one forward pass
           lazy)
alphago    checkpoint, simulations, lambda, c_puct, batch, device,      simulations=400
           seed (AlphaGo's search with a pipeline's networks; lazy)
========== ============================================================ =====================

The kinds are data (:data:`BUILTIN_KINDS`, :data:`LAZY_KINDS`); :mod:`searchlab.agents.registry`
builds the default registry from them. Nothing registers itself on import.

``az``, ``policy`` and ``alphago`` are lazy kinds
(:class:`~searchlab.agents.spec.LazyAgentKind`): their code lives in the learning layer
(:mod:`searchlab.learning.agents`, :mod:`searchlab.learning.alphago.agent`), which is *above*
this one and needs PyTorch (the ``learn`` extra), so the registry names them by
``"module:attribute"`` and imports them on first use; without PyTorch, using one says so in
one line.

>>> from searchlab.agents.spec import AgentRegistry
>>> from searchlab.games import make
>>> registry = AgentRegistry(BUILTIN_KINDS)
>>> registry.make("mcts:simulations=200,c=0.7,solver=true", make("connect4")).name
'mcts:simulations=200,c=0.7,solver=true'
"""

from __future__ import annotations

from typing import Any

from searchlab.agents.base import Agent
from searchlab.agents.evaluations import default_evaluation
from searchlab.agents.gtp_agent import GTP_KIND
from searchlab.agents.human import HumanAgent
from searchlab.agents.search import AlphaBetaAgent, FlatMonteCarloAgent, MCTSAgent
from searchlab.agents.simple import GreedyAgent, RandomAgent
from searchlab.agents.spec import AgentKind, LazyAgentKind, Param
from searchlab.algorithms.mcts import ValueScale
from searchlab.algorithms.mcts.options import option_help
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game
from searchlab.core.limits import Limits

__all__ = ["BUILTIN_KINDS", "DEFAULT_DEPTH", "DEFAULT_SIMULATIONS", "LAZY_KINDS", "option_param"]

DEFAULT_DEPTH = 6
DEFAULT_SIMULATIONS = 1000


def _budget(name: str, **given: Any) -> Limits:
    """A ``Limits`` from the spec's budget parameters (``None`` when none was given)."""
    try:
        return Limits(**{key: value for key, value in given.items() if value is not None})
    except InvalidParameterError as error:  # pragma: no cover - Param already checked > 0
        raise InvalidParameterError(f"agent spec {name!r}: {error}") from None


def _random(game: Game | None, *, name: str, seed: int | None) -> Agent:
    return RandomAgent(name, seed=seed)


def _greedy(game: Game | None, *, name: str, seed: int | None) -> Agent:
    return GreedyAgent(name, evaluate=default_evaluation(game), seed=seed)


def _alphabeta(
    game: Game,
    *,
    name: str,
    seed: int | None,
    depth: int | None,
    time: float | None,
    nodes: int | None,
) -> Agent:
    if depth is None and time is None and nodes is None:
        depth = DEFAULT_DEPTH
    limits = _budget(name, depth=depth, time=time, nodes=nodes)
    return AlphaBetaAgent(name, game, limits=limits, evaluate=default_evaluation(game))


def _simulation_budget(name: str, simulations: int | None, time: float | None) -> Limits:
    if simulations is None and time is None:
        simulations = DEFAULT_SIMULATIONS
    return _budget(name, simulations=simulations, time=time)


def _flatmc(
    game: Game,
    *,
    name: str,
    seed: int | None,
    simulations: int | None,
    time: float | None,
    scale: ValueScale,
) -> Agent:
    limits = _simulation_budget(name, simulations, time)
    return FlatMonteCarloAgent(name, game, limits=limits, seed=seed, value_scale=scale)


def _mcts(
    game: Game,
    *,
    name: str,
    seed: int | None,
    simulations: int | None,
    time: float | None,
    c: float | None,
    rollout: str,
    final: str,
    solver: bool,
    transpositions: bool,
    exact: int,
    rave: float,
    reuse: bool,
    tier: str,
    scale: ValueScale,
    threads: int,
    parallel: str,
) -> Agent:
    limits = _simulation_budget(name, simulations, time)
    options: dict[str, Any] = {
        "rollout": rollout,
        "final_move": final,
        "solver": solver,
        "transpositions": transpositions,
        "exact_endgame": exact,
        "rave": rave,
        "tier": tier,
        "value_scale": scale,
        "threads": threads,
        "parallel": parallel,
    }
    if c is not None:
        options["c"] = c
    return MCTSAgent(name, game, limits=limits, seed=seed, reuse=reuse, **options)


def _human(game: Game | None, *, name: str, seed: int | None) -> Agent:
    return HumanAgent(name)


def option_param(name: str, *, positive: bool = False) -> Param:
    """The spec parameter of the :class:`~searchlab.algorithms.mcts.options.MCTSOptions`
    field ``name``: its default, help and choices as the options declare them (every agent
    that searches with those options, ``mcts``, ``az`` and ``alphago``, takes its parameters
    from here).

    >>> option_param("c_puct").default, option_param("c_puct").help
    (1.5, 'PUCT exploration constant (with a network)')
    """
    default, text, choices = option_help(name)
    return Param(type(default), default, text, choices, positive=positive)


_TIME = Param(float, help="seconds per move")
_SIMULATIONS = Param(int, help="playouts per move")
_SCALE = option_param("value_scale")

BUILTIN_KINDS: tuple[AgentKind, ...] = (
    AgentKind("random", _random, {}, "a uniformly random legal move"),
    AgentKind("greedy", _greedy, {}, "one ply: a winning move, else the best evaluation"),
    AgentKind(
        "alphabeta",
        _alphabeta,
        {
            "depth": Param(int, help=f"plies (default {DEFAULT_DEPTH} when no budget is given)"),
            "time": _TIME,
            "nodes": Param(int, help="most nodes per move"),
        },
        "iterative-deepening negamax alpha-beta with the game's evaluation",
    ),
    AgentKind(
        "flatmc",
        _flatmc,
        {"simulations": _SIMULATIONS, "time": _TIME, "scale": _SCALE},
        "flat Monte Carlo: random playouts per root move, best mean",
    ),
    AgentKind(
        "mcts",
        _mcts,
        {
            "simulations": Param(int, help=f"playouts per move (default {DEFAULT_SIMULATIONS})"),
            "time": _TIME,
            "c": option_param("c"),
            "rollout": option_param("rollout"),
            "final": option_param("final_move"),
            "solver": option_param("solver"),
            "transpositions": option_param("transpositions"),
            "exact": option_param("exact_endgame"),
            "rave": option_param("rave"),
            "reuse": Param(bool, False, "keep the tree between moves"),
            "tier": option_param("tier"),
            "scale": option_param("value_scale"),
            "threads": option_param("threads", positive=True),
            "parallel": option_param("parallel"),
        },
        "Monte Carlo tree search (UCT, RAVE, MCTS-Solver), compiled for every game with "
        "compiled rules",
    ),
    GTP_KIND,
    AgentKind("human", _human, {}, "you, at the terminal"),
)
"""The built-in kinds, in the order ``--help`` lists them."""

_LEARN = "PyTorch: pip install 'searchlab[learn]'"

LAZY_KINDS: tuple[LazyAgentKind, ...] = (
    LazyAgentKind(
        "az",
        "searchlab.learning.agents:AZ_KIND",
        "AlphaZero: PUCT search guided by a trained policy-value network (checkpoint=FILE|DIR; "
        "left out: the network shipped for the game, Connect Four)",
        requires="torch",
        install=_LEARN,
    ),
    LazyAgentKind(
        "policy",
        "searchlab.learning.agents:POLICY_KIND",
        "a trained network's policy alone, no search (checkpoint=FILE|DIR)",
        requires="torch",
        install=_LEARN,
    ),
    LazyAgentKind(
        "alphago",
        "searchlab.learning.alphago.agent:ALPHAGO_KIND",
        "AlphaGo's search: SL-policy priors, value network and rollouts mixed by lambda "
        "(checkpoint=DIR)",
        requires="torch",
        install=_LEARN,
    ),
)
"""The kinds whose code lives above the agents layer (imported on first use)."""
