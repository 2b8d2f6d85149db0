"""PUCT with a network under a budget: the driver of :mod:`~searchlab.algorithms.mcts.puct`'s
tree for one position at a time, and its one :class:`~searchlab.core.search_result.SearchResult`.

:class:`PUCTSearcher` is what the ``mcts`` agent runs when its options carry a batch evaluator
(``MCTSOptions(evaluator=...)`` with ``evaluate_batch``: a network), and so what the ``az``,
``policy`` and ``alphago`` specs run: they are the ``mcts`` agent with the network of a
checkpoint, with AlphaGo's value/rollout mix, or with no simulations at all.

* :meth:`PUCTSearcher.search` runs the compiled PUCT of
  :class:`~searchlab.algorithms.mcts.puct.PUCTTree` under a
  :class:`~searchlab.core.limits.Limits` (simulations and/or time; the clock is read between
  batches, after at least one simulation), then plays the most visited move (ties: the better
  mean, then the smaller action), or with ``temperature > 0`` a move drawn with probability
  proportional to ``N ** (1 / temperature)``.
* :meth:`PUCTSearcher.prepare` loads (on an empty numba cache, compiles) the tree's kernels and
  runs the evaluator once (a network's first forward pass is slow), so that no clock pays for
  it: the ``mcts`` agent calls it when it is made, :meth:`~PUCTSearcher.search` and
  :meth:`~PUCTSearcher.network_move` before their clocks start, once.
* :meth:`PUCTSearcher.network_move` searches nothing: the move with the highest prior (or one
  drawn from the priors sharpened by ``1 / temperature``), with each move's value read off one
  batched evaluation of the positions after it.

The result's ``stats["children"]`` lists each root action's ``visits``, ``value`` (the mean
for the root's player) and the network's ``prior``, most visited first (by prior with no
search), ``principal_variation`` follows the most visited children.

>>> import numpy as np
>>> from searchlab.algorithms.mcts.options import MCTSOptions
>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> class Cells:
...     def action_to_index(self, state, action): return action
>>> class Uniform:  # equal priors, value 0
...     encoder = Cells()
...     def evaluate_batch(self, states):
...         return np.full((len(states), 9), 1 / 9), np.zeros(len(states))
>>> searcher = PUCTSearcher(MCTSOptions(evaluator=Uniform()), seed=0)
>>> state = TicTacToe().initial_state().apply(0).apply(3).apply(1).apply(4)
>>> result = searcher.search(state, Limits(simulations=200))
>>> state.action_to_string(result.action), result.stats["simulations"]
('c1', 200)
>>> searcher.network_move(state).stats["children"][0]["visits"]
0
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from searchlab.algorithms.mcts.options import MCTSOptions, check_budget
from searchlab.algorithms.mcts.puct import (
    PUCTTree,
    SearchOutcome,
    draw,
    indexer_of,
    run,
    sharpened,
)
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.game import State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["PUCTSearcher"]

_START_CAPACITY = 1_000
"""Simulations the tree's arrays are first sized for at most (they grow)."""
_PREPARE_SIMULATIONS = 2
"""The untimed search of :meth:`PUCTSearcher.prepare`: the root's evaluation, then a batch of
leaves (every kernel a search calls, for the evaluator's types)."""


class PUCTSearcher:
    """PUCT guided by ``options.evaluator`` (a batch evaluator), one position at a time.

    Args:
        options: checked options whose ``evaluator`` has ``evaluate_batch`` and an
            ``encoder`` (:attr:`MCTSOptions.is_batched`).
        seed: seeds the generator of the temperature's draws and of the root's Dirichlet
            noise (when ``options.dirichlet_alpha``): the same seed, the same moves; or that
            generator itself (a match's games can share one).
        temperature: 0 plays the most visited move (the highest prior with no search); > 0
            draws it (see the module) as self-play does
            (:meth:`~searchlab.algorithms.mcts.puct.SearchOutcome.sample_action`).
        temperature_moves: the first so many moves of a game (since :meth:`reset`) are drawn
            at ``temperature``, the rest are the best (``None``: every move).
        algorithm: the name the results carry (``"puct"``; ``"alphago"`` for AlphaGo's mix).
    """

    def __init__(
        self,
        options: MCTSOptions,
        *,
        seed: int | np.random.Generator | None = None,
        temperature: float = 0.0,
        temperature_moves: int | None = None,
        algorithm: str = "puct",
    ) -> None:
        if not options.is_batched:
            raise InvalidParameterError(
                "puct: the options need an evaluator with evaluate_batch(states) and an "
                f"encoder, got {options.evaluator!r}"
            )
        self.options = options
        self.evaluator: Any = options.evaluator
        self._indexer = indexer_of(self.evaluator)
        self.temperature = float(temperature)
        self.temperature_moves = temperature_moves
        self.algorithm = algorithm
        self._rng = np.random.default_rng(seed)  # a Generator given is used as it is
        self._moves = 0
        self._prepared = {"search": False, "network": False}

    def prepare(self, state: State, *, search: bool = True) -> None:
        """Make the first timed move cost what the others do: run a tiny search of ``state``
        (:data:`_PREPARE_SIMULATIONS`, no noise, nothing kept; ``search=False``: one evaluation
        of ``state``, all that :meth:`network_move` needs), which loads or compiles the tree's
        numba kernels for the evaluator's types and makes the evaluator's first, slow, call
        (a network's; a rollout policy's kernels). Once each; later calls do nothing."""
        if self._prepared["search" if search else "network"]:
            return
        self._check(state)
        if search:
            tree = PUCTTree(state, self.options, self._indexer, None, budget=_PREPARE_SIMULATIONS)
            run(tree, self.evaluator)
        else:
            self.evaluator.evaluate_batch([state])
        self._prepared["network"] = True
        self._prepared["search"] |= search

    def reset(self) -> None:
        """A new game: the moves counted for ``temperature_moves`` start again."""
        self._moves = 0

    def _temperature(self) -> float:
        """This move's temperature (0 once ``temperature_moves`` moves have been chosen)."""
        moves, self._moves = self._moves, self._moves + 1
        limit = self.temperature_moves
        return self.temperature if limit is None or moves < limit else 0.0

    def _check(self, state: State) -> None:
        if state.is_terminal():
            raise InvalidStateError(f"{self.algorithm}: the game is already over")

    def search(self, state: State, limits: Limits) -> SearchResult:
        """Search ``state`` within ``limits`` (simulations and/or seconds) and choose."""
        self._check(state)
        limits = check_budget(limits, self.algorithm)
        simulations, seconds = limits.simulations, limits.time
        self.prepare(state)
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        capacity = min(simulations or _START_CAPACITY, _START_CAPACITY)  # the arrays grow
        noise = self._rng if self.options.draws_at_root else None
        tree = PUCTTree(
            state, self.options, self._indexer, noise, budget=simulations, capacity=capacity
        )
        evaluated = run(tree, self.evaluator, deadline)
        outcome = tree.outcome()
        temperature = self._temperature()
        action = outcome.sample_action(temperature, self._rng)
        index = outcome.actions.index(action)
        value = float(outcome.values[index]) if outcome.visits[index] else outcome.root_value
        return SearchResult(
            action=action,
            value=value,
            principal_variation=tree.principal_variation(action),
            nodes=tree.nodes,
            depth=tree.depth(),
            elapsed=time.perf_counter() - start,
            stopped_by="time" if deadline is not None and not tree.done else None,
            algorithm=self.algorithm,
            tier="compiled",
            stats={
                "simulations": outcome.simulations,
                "children": _children(outcome),
                "root_value": outcome.root_value,
                "network_value": outcome.network_value,
                "positions_evaluated": evaluated,
                "temperature": temperature,
                **_improved(outcome),
                **self._extra(),
            },
        )

    def network_move(self, state: State) -> SearchResult:
        """No search: the legal move with the highest prior (or drawn, see the module); each
        move's value is the network's of the position after it, for the mover (a finished
        game's by its outcome), from one batched evaluation with the root."""
        self._check(state)
        self.prepare(state, search=False)
        start = time.perf_counter()
        actions = list(state.legal_actions())
        children = [state.apply(action) for action in actions]
        open_children = [child for child in children if not child.is_terminal()]
        priors, values = self.evaluator.evaluate_batch([state, *open_children])
        index_of = self._indexer.action_to_index
        legal = np.array([priors[0, index_of(state, a)] for a in actions])
        temperature = self._temperature()
        if temperature > 0:
            index = draw(sharpened(legal, temperature), self._rng)
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
        return SearchResult(
            action=action,
            value=float(values[0]),
            principal_variation=(action,),
            nodes=1 + len(open_children),
            depth=1,
            elapsed=time.perf_counter() - start,
            algorithm="policy",
            tier="compiled",
            stats={"children": rows, "network_value": float(values[0]), **self._extra()},
        )

    def _extra(self) -> dict[str, Any]:
        """What the evaluator adds to the results: AlphaGo's ``lambda``."""
        lambda_ = getattr(self.evaluator, "lambda_", None)
        return {} if lambda_ is None else {"lambda": lambda_}


def _improved(outcome: SearchOutcome) -> dict[str, Any]:
    """A Gumbel root's improved policy (``stats["improved_policy"]``: probabilities in the
    order of ``state.legal_actions()``), none otherwise."""
    if outcome.improved_policy is None:
        return {}
    return {"improved_policy": [float(p) for p in outcome.improved_policy]}


def _children(outcome: SearchOutcome) -> list[dict[str, Any]]:
    """The root's children, most visited first (ties as ``best_index`` breaks them)."""
    order = sorted(
        range(len(outcome.actions)),
        key=lambda i: (-int(outcome.visits[i]), -float(outcome.values[i]), outcome.actions[i]),
    )
    return [
        {
            "action": outcome.actions[i],
            "visits": int(outcome.visits[i]),
            "value": float(outcome.values[i]),
            "prior": float(outcome.priors[i]),
        }
        for i in order
    ]
