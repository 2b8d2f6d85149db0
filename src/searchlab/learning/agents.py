"""Agents that play with a trained network: ``az`` (PUCT search guided by the network) and
``policy`` (the network's policy alone, no search).

Both are **the** ``mcts`` agent (:class:`~searchlab.agents.search.MCTSAgent`) with the
checkpoint's network as its evaluator: one code path, the compiled PUCT of
:class:`~searchlab.algorithms.mcts.puct_search.PUCTSearcher` on the engine's one tree; ``az``
and ``policy`` are short specs for it that load the network. They are agent kinds
(:data:`AZ_KIND`, :data:`POLICY_KIND`) that the default registry knows lazily
(:data:`searchlab.agents.kinds.LAZY_KINDS`: this layer is above the agents and needs PyTorch),
so they are specs everywhere -- ``play``, ``analyse``, ``arena``::

    searchlab play connect4 --second az:checkpoint=runs/c4,simulations=400
    searchlab analyse connect4 4453 --agent az:checkpoint=runs/c4/best.pt
    searchlab arena connect4 az:checkpoint=runs/c4 policy:checkpoint=runs/c4 --games 20

``checkpoint=`` is a checkpoint file, or a training directory (its ``latest.pt``); left out, the
checkpoint shipped inside the package for the game (Connect Four: a network searchlab trained
on the exact solver's labels, ``searchlab/learning/checkpoints/connect4.ckpt``; see
:mod:`~searchlab.learning.shipped`), and one clear line for a game that has none. The
checkpoint must be for the game played (one clear line otherwise).

* ``az`` searches with PUCT (leaves evaluated ``batch`` at a time under virtual loss; no
  Dirichlet noise; ``c_puct`` and ``batch`` are the ``MCTSOptions`` fields ``c_puct`` and
  ``search_batch``, their defaults and help written there once) for ``simulations`` (default
  800) or ``time`` seconds per move (``root=gumbel``: Gumbel AlphaZero's root, with
  ``nonroot``, ``max_num_considered_actions``, ``c_visit``, ``c_scale``, the ``MCTSOptions``
  fields of the same names), then plays the most visited move (``temperature`` > 0: a
  move drawn with probability proportional to ``N ** (1 / temperature)``). A per-move budget
  from the caller (the arena's time control) replaces its own. ``last_result`` holds the
  root's children with their visits, mean values **and the network's priors**, which
  ``analyse`` shows side by side.
* ``policy`` plays the legal move with the highest prior (``temperature`` > 0: drawn from the
  priors sharpened by ``1 / temperature``) whatever budget a caller gives; its
  ``last_result`` lists each move's prior and the network's value of the position after it
  (one batched forward pass), for the mover.

``symmetries=true`` (either agent) averages the network over the board's symmetries (see
:class:`~searchlab.learning.networks.evaluator.NetworkEvaluator`).

>>> import pathlib, tempfile
>>> from searchlab.agents import make_agent
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.checkpoint import save_checkpoint
>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.learning.networks.network import PolicyValueNet
>>> encoder = encoder_for(TicTacToe())
>>> path = pathlib.Path(tempfile.mkdtemp()) / "net.ckpt"
>>> _ = save_checkpoint(path, PolicyValueNet(encoder.shape, encoder.num_actions, seed=0), encoder)
>>> agent = make_agent(f"az:checkpoint={path},simulations=50", TicTacToe(), seed=1)
>>> state = TicTacToe().initial_state()
>>> agent.act(state) in state.legal_actions(), agent.last_result.stats["simulations"]
(True, 50)
>>> sorted(agent.last_result.stats["children"][0])
['action', 'prior', 'value', 'visits']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from searchlab.agents.kinds import option_param
from searchlab.agents.search import MCTSAgent
from searchlab.agents.spec import AgentKind, Param
from searchlab.algorithms.mcts.options import GUMBEL_OPTIONS
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game
from searchlab.core.limits import Limits
from searchlab.learning.networks.checkpoint import Checkpoint, CheckpointError, load_checkpoint
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.shipped import missing_message, shipped_checkpoint

__all__ = [
    "AZ_KIND",
    "DEFAULT_SIMULATIONS",
    "LATEST",
    "POLICY_KIND",
    "resolve_checkpoint",
]

DEFAULT_SIMULATIONS = 800
"""``az``'s simulations per move when the spec gives no budget (AlphaZero's figure)."""

LATEST = "latest.pt"
"""The checkpoint of a training directory that ``checkpoint=DIR`` means."""


def resolve_checkpoint(path: str | Path | None, game: Game | None, agent: str) -> Path:
    """The checkpoint file that ``checkpoint=`` names: the file itself, a training directory's
    ``latest.pt``, or (``None``) the checkpoint shipped for ``game``. One
    :class:`~searchlab.learning.networks.checkpoint.CheckpointError` line when there is none."""
    if path is None:
        name = getattr(getattr(game, "info", None), "name", None)
        shipped = None if name is None else shipped_checkpoint(name)
        if shipped is None:
            raise CheckpointError(missing_message(name, agent))
        return shipped
    target = Path(path).expanduser()
    if target.is_dir():
        latest = target / LATEST
        if not latest.is_file():
            raise CheckpointError(
                f"agent {agent!r}: training directory {target} has no {LATEST} (no generation "
                "finished yet?)"
            )
        return latest
    return target


def _load(path: str | None, game: Game | None, device: str, agent: str) -> Checkpoint:
    return load_checkpoint(resolve_checkpoint(path, game, agent), game, device=device)


def _network_agent(
    game: Game | None,
    *,
    name: str,
    checkpoint: str | None,
    device: str,
    symmetries: bool,
    **agent: Any,
) -> MCTSAgent:
    """The ``mcts`` agent guided by the network of ``checkpoint`` (see the module); ``agent``
    holds the rest of its arguments (seed, budget, temperature, options)."""
    loaded = _load(checkpoint, game, device, name)
    evaluator = NetworkEvaluator(loaded.net, loaded.encoder, device, symmetries=symmetries)
    try:
        return MCTSAgent(name, cast(Game, game), checkpoint=loaded, evaluator=evaluator, **agent)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"agent {name!r}: {error}") from None


def _az(
    game: Game | None,
    *,
    name: str,
    seed: int | None,
    simulations: int | None,
    time: float | None,
    c_puct: float,
    batch: int,
    **params: Any,
) -> MCTSAgent:
    if simulations is None and time is None:
        simulations = DEFAULT_SIMULATIONS
    return _network_agent(
        game,
        name=name,
        seed=seed,
        limits=Limits(simulations=simulations, time=time),  # the budget, held once
        network_only=False,
        c_puct=c_puct,
        search_batch=batch,
        **params,
    )


def _policy(game: Game | None, *, name: str, seed: int | None, **params: Any) -> MCTSAgent:
    # no simulations: the budget is never read (a caller's time control included)
    return _network_agent(
        game, name=name, seed=seed, limits=Limits(simulations=1), network_only=True, **params
    )


_CHECKPOINT = Param(
    str,
    None,
    "checkpoint file, or training directory (its latest.pt); default: the network shipped "
    "inside searchlab for the game (connect4: searchlab/learning/checkpoints/connect4.ckpt)",
)
_TEMPERATURE = Param(
    float, 0.0, "0: the best move; > 0: drawn, sharper as it falls", positive=False
)
_DEVICE = Param(str, "cpu", "torch device: cpu, cuda, cuda:N, mps")
_SYMMETRIES = Param(
    bool,
    False,
    "true: average the network over the board's symmetries (Connect Four: the mirror image; "
    "the square's 8 for Othello, Gomoku, Go), all in one forward pass",
)

AZ_KIND = AgentKind(
    "az",
    _az,
    {
        "checkpoint": _CHECKPOINT,
        "simulations": Param(int, help=f"simulations per move (default {DEFAULT_SIMULATIONS})"),
        "time": Param(float, help="seconds per move"),
        "c_puct": option_param("c_puct"),
        "batch": option_param("search_batch", positive=True),
        **{name: option_param(name) for name in GUMBEL_OPTIONS},
        "temperature": _TEMPERATURE,
        "device": _DEVICE,
        "symmetries": _SYMMETRIES,
    },
    "AlphaZero: PUCT search guided by a trained policy-value network (checkpoint=FILE|DIR; "
    "left out: the network shipped for the game, Connect Four)",
)
"""The ``az`` kind: ``az:checkpoint=PATH,simulations=N[,time,c_puct,batch,temperature,device,
symmetries,seed]``."""

POLICY_KIND = AgentKind(
    "policy",
    _policy,
    {
        "checkpoint": _CHECKPOINT,
        "temperature": _TEMPERATURE,
        "device": _DEVICE,
        "symmetries": _SYMMETRIES,
    },
    "a trained network's policy alone: the move with the highest prior, no search",
)
"""The ``policy`` kind: ``policy:checkpoint=PATH[,temperature,device,symmetries,seed]``."""
