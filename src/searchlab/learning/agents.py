"""Agents that play with a trained network: ``az`` (PUCT search guided by the network) and
``policy`` (the network's policy alone, no search).

Both are agent kinds (:data:`AZ_KIND`, :data:`POLICY_KIND`) that the default registry knows
lazily (:data:`searchlab.agents.kinds.LAZY_KINDS`: this layer is above the agents and needs
PyTorch), so they are specs everywhere -- ``play``, ``analyse``, ``arena``::

    searchlab play connect4 --second az:checkpoint=runs/c4,simulations=400
    searchlab analyse connect4 4453 --agent az:checkpoint=runs/c4/gen-0012.pt
    searchlab arena connect4 az:checkpoint=runs/c4 policy:checkpoint=runs/c4 --games 20

``checkpoint=`` is a checkpoint file, or a training directory (its ``latest.pt``); left out, the
checkpoint shipped inside the package for the game (Connect Four: a network searchlab trained
itself, ``searchlab/learning/checkpoints/connect4.ckpt``; see
:mod:`~searchlab.learning.shipped`), and one clear line for a game that has none. The
checkpoint must be for the game played (one clear line otherwise).

* ``az`` searches with the array PUCT of :mod:`~searchlab.learning.puct_arrays` (leaves
  evaluated ``batch`` at a time under virtual loss; no Dirichlet noise) for ``simulations``
  (default 800) or ``time`` seconds per move, then plays the most visited move (``temperature``
  > 0: a move drawn with probability proportional to ``N ** (1 / temperature)``). A per-move
  budget from the caller (the arena's time control) replaces its own. ``last_result`` holds
  the root's children with their visits, mean values **and the network's priors**, which
  ``analyse`` shows side by side.
* ``policy`` plays the legal move with the highest prior (``temperature`` > 0: drawn from the
  priors sharpened by ``1 / temperature``); its ``last_result`` lists each move's prior and the
  network's value of the position after it (one batched forward pass), for the mover.

``symmetries=true`` (either agent) averages the network over the board's symmetries (see
:class:`~searchlab.learning.evaluator.NetworkEvaluator`).

>>> import pathlib, tempfile
>>> from searchlab.agents import make_agent
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.checkpoint import save_checkpoint
>>> from searchlab.learning.encoders import encoder_for
>>> from searchlab.learning.network import PolicyValueNet
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

import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.agents.base import AgentBase
from searchlab.agents.spec import AgentKind, Param
from searchlab.algorithms.mcts.options import DEFAULT_C_PUCT, DEFAULT_SEARCH_BATCH
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.learning.checkpoint import Checkpoint, CheckpointError, load_checkpoint
from searchlab.learning.evaluator import NetworkEvaluator
from searchlab.learning.puct_arrays import PUCTConfig, PUCTTree, evaluate_step
from searchlab.learning.shipped import missing_message, shipped_checkpoint

__all__ = [
    "AZ_KIND",
    "DEFAULT_SIMULATIONS",
    "LATEST",
    "POLICY_KIND",
    "AZAgent",
    "PolicyAgent",
    "resolve_checkpoint",
]

DEFAULT_SIMULATIONS = 800
"""``az``'s simulations per move when the spec gives no budget (AlphaZero's figure)."""

LATEST = "latest.pt"
"""The checkpoint of a training directory that ``checkpoint=DIR`` means."""

_START_CAPACITY = 1_000  # simulations the tree's arrays are first sized for (they grow)


def resolve_checkpoint(path: str | Path | None, game: Game | None, agent: str) -> Path:
    """The checkpoint file that ``checkpoint=`` names: the file itself, a training directory's
    ``latest.pt``, or (``None``) the checkpoint shipped for ``game``. One
    :class:`~searchlab.learning.checkpoint.CheckpointError` line when there is none."""
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


def _sample(weights: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """An index drawn with probability proportional to ``weights ** (1 / temperature)``."""
    scaled = np.asarray(weights, dtype=np.float64)
    scaled = scaled / scaled.max()
    scaled = scaled ** (1.0 / temperature)
    cumulative = np.cumsum(scaled)
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(index, len(scaled) - 1)


class _NetworkAgent(AgentBase):
    """Shared: the checkpoint's network behind an evaluator, a seeded generator."""

    def __init__(
        self,
        name: str,
        game: Game | None,
        *,
        checkpoint: str | None,
        temperature: float,
        device: str,
        seed: int | None,
        symmetries: bool = False,
    ) -> None:
        super().__init__(name)
        self.checkpoint = _load(checkpoint, game, device, name)
        self.evaluator = NetworkEvaluator(
            self.checkpoint.net, self.checkpoint.encoder, device, symmetries=symmetries
        )
        self.temperature = float(temperature)
        self._rng = np.random.default_rng(seed)

    def _check(self, state: State) -> None:
        if state.is_terminal():
            raise InvalidParameterError(f"agent {self.name!r}: the game is already over")


class AZAgent(_NetworkAgent):
    """PUCT with the network, on tree arrays (see the module)."""

    def __init__(
        self,
        name: str,
        game: Game | None,
        *,
        checkpoint: str | None = None,
        simulations: int | None = None,
        time: float | None = None,
        c_puct: float = DEFAULT_C_PUCT,
        batch: int = DEFAULT_SEARCH_BATCH,
        temperature: float = 0.0,
        device: str = "cpu",
        seed: int | None = None,
        symmetries: bool = False,
    ) -> None:
        super().__init__(
            name,
            game,
            checkpoint=checkpoint,
            temperature=temperature,
            device=device,
            seed=seed,
            symmetries=symmetries,
        )
        if simulations is None and time is None:
            simulations = DEFAULT_SIMULATIONS
        self.limits = Limits(simulations=simulations, time=time)  # the budget, held once
        try:
            self.config = PUCTConfig(c_puct=c_puct, batch_size=batch)  # how, not how much
        except InvalidParameterError as error:
            raise InvalidParameterError(f"agent {name!r}: {error}") from None

    def act(self, state: State, limits: Limits | None = None) -> int:
        self._check(state)
        limits = limits or self.limits
        simulations, seconds = limits.simulations, limits.time
        if simulations is None and seconds is None:
            simulations = self.limits.simulations or DEFAULT_SIMULATIONS
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        capacity = min(simulations or _START_CAPACITY, _START_CAPACITY)  # the arrays grow
        tree = PUCTTree(
            state, self.config, self.evaluator.encoder, budget=simulations, capacity=capacity
        )
        evaluated = 0
        while not tree.done:
            if deadline is not None and tree.simulations > 0 and time.perf_counter() >= deadline:
                break
            evaluated += evaluate_step([tree], self.evaluator)
        outcome = tree.outcome()
        if self.temperature > 0:
            index = _sample(np.maximum(outcome.visits, 0) + 1e-12, self.temperature, self._rng)
        else:
            index = outcome.best_index()
        action = outcome.actions[index]
        order = sorted(  # most visited first, ties as best_index breaks them
            range(len(outcome.actions)),
            key=lambda i: (-int(outcome.visits[i]), -float(outcome.values[i]), outcome.actions[i]),
        )
        children = [
            {
                "action": outcome.actions[i],
                "visits": int(outcome.visits[i]),
                "value": float(outcome.values[i]),
                "prior": float(outcome.priors[i]),
            }
            for i in order
        ]
        value = float(outcome.values[index]) if outcome.visits[index] else outcome.root_value
        self.last_result = SearchResult(
            action=action,
            value=value,
            principal_variation=tree.principal_variation(action),
            nodes=tree.nodes,
            depth=tree.depth(),
            elapsed=time.perf_counter() - start,
            stopped_by="time" if deadline is not None and not tree.done else None,
            algorithm="puct",
            tier="compiled",
            stats={
                "simulations": outcome.simulations,
                "children": children,
                "root_value": outcome.root_value,
                "network_value": outcome.network_value,
                "positions_evaluated": evaluated,
            },
        )
        return action


class PolicyAgent(_NetworkAgent):
    """The network's policy alone: the legal move with the highest prior (see the module)."""

    def act(self, state: State, limits: Limits | None = None) -> int:
        self._check(state)
        start = time.perf_counter()
        encoder = self.evaluator.encoder
        actions = list(state.legal_actions())
        children = [state.apply(action) for action in actions]
        open_children = [child for child in children if not child.is_terminal()]
        priors, values = self.evaluator.evaluate_batch([state, *open_children])
        legal = np.array([priors[0, encoder.action_to_index(state, a)] for a in actions])
        if self.temperature > 0:
            index = _sample(legal + 1e-12, self.temperature, self._rng)
        else:
            index = int(np.argmax(legal))  # the first of equals: legal_actions() order
        player = state.current_player()
        rows = []
        row = 1
        for action, child, prior in zip(actions, children, legal, strict=True):
            if child.is_terminal():
                mover_return = child.returns()[player]
                value = float((mover_return > 0) - (mover_return < 0))
            else:
                value = float(values[row])
                if child.current_player() != player:
                    value = -value
                row += 1
            rows.append({"action": action, "visits": 0, "value": value, "prior": float(prior)})
        rows.sort(key=lambda r: -r["prior"])
        action = actions[index]
        self.last_result = SearchResult(
            action=action,
            value=float(values[0]),
            principal_variation=(action,),
            nodes=1 + len(open_children),
            depth=1,
            elapsed=time.perf_counter() - start,
            algorithm="policy",
            tier="compiled",
            stats={"children": rows, "network_value": float(values[0])},
        )
        return action


def _az(game: Game | None, *, name: str, seed: int | None, **params: Any) -> AZAgent:
    return AZAgent(name, game, seed=seed, **params)


def _policy(game: Game | None, *, name: str, seed: int | None, **params: Any) -> PolicyAgent:
    return PolicyAgent(name, game, seed=seed, **params)


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
        "c_puct": Param(float, DEFAULT_C_PUCT, "PUCT exploration constant", positive=False),
        "batch": Param(
            int, DEFAULT_SEARCH_BATCH, "leaves evaluated per forward pass (virtual loss)"
        ),
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
