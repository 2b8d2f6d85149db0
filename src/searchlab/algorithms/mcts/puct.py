"""PUCT on a tree of numpy arrays, its leaves evaluated in batches (AlphaZero's search).

The search is the reference PUCT of :mod:`searchlab.algorithms.mcts` (its readable
specification), with the statistics in arrays and the hot loop compiled, so that a network
sees many positions per call:

* **selection** from the root by ``Q + c_puct * P * sqrt(N_parent) / (1 + N)`` (``N_parent``
  at least 1, so the first pick follows the priors; ties go to the first legal action), where
  ``Q`` is the child's mean return for the player who chose it. An unvisited child's ``Q`` is
  its **first-play urgency** (FPU): a constant (``fpu_mode="absolute"``, ``fpu=0``: the
  reference's), or the parent's own mean for its player to move minus ``fpu``
  (``fpu_mode="reduction"``, Leela Zero's);
* **virtual loss**: a leaf on its way to the evaluator counts, on every node of its path, as
  ``virtual_loss`` extra visits lost by their mover, so the next selections of the same batch
  look elsewhere; ``search_batch`` leaves (at most) are collected, then evaluated by **one**
  ``evaluate_batch`` call. A selection that reaches a leaf already in the batch (a
  *collision*) ends the batch early: the simulations stay exact, none is counted twice;
* **expansion** of an evaluated leaf: one child per legal action with the prior the network
  gives it (renormalised over the legal actions); a terminal leaf is valued by the game's
  outcome (+1 win, 0 draw, -1 loss, the sign of its return: the reference's ``"outcome"``
  value scale) without the evaluator;
* **backup**: every node on the path adds the leaf's value for **its own mover** (the player
  who chose the edge into it, read from the positions: a player may move twice in a row), so
  no sign is flipped by depth.

The root is evaluated first (its priors; that evaluation is not a simulation, as in the
reference), then **Dirichlet noise** ``(1 - epsilon) * P + epsilon * Dir(alpha)`` is mixed
into the root's priors when ``dirichlet_alpha`` is set (drawn from the ``rng`` given). At the
end the **most visited** root action is the move (ties: the better mean, then the smaller
action), or one is **sampled** with probability proportional to ``N ** (1 / temperature)``
(self-play's first plies).

With ``search_batch=1`` and no noise the root visits are those of the reference PUCT
(``mcts(game, state, evaluator=E, lambda_=0, ...)``) exactly, bit for bit
(``tests/learning/alphazero/test_puct_arrays.py`` checks it).

The knobs are the PUCT fields of :class:`~searchlab.algorithms.mcts.options.MCTSOptions`
(written once there, with their defaults and help); the budget is the tree's own ``budget``.

The evaluator is any object with ``evaluate_batch(states) -> (priors, values)``: ``priors``
an array ``[B, num_actions]`` over the encoder's action indices, ``values`` an array ``[B]``
in ``[-1, 1]`` for the player to move in each state; and an ``encoder`` whose
``action_to_index(state, action)`` says which column of ``priors`` an action is (the
:class:`~searchlab.learning.networks.evaluator.NetworkEvaluator` of a network, or a stand-in):

>>> import numpy as np
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> class Cells:  # tic-tac-toe's action index is the cell itself
...     def action_to_index(self, state, action): return action
>>> class Uniform:  # equal priors, value 0: plain PUCT
...     encoder = Cells()
...     def evaluate_batch(self, states):
...         return np.full((len(states), 9), 1 / 9), np.zeros(len(states))
>>> state = TicTacToe().initial_state()
>>> outcome = search(state, Uniform(), num_simulations=200, search_batch=8)
>>> int(outcome.visits.sum()), outcome.simulations
(200, 200)
>>> state = state.apply(0).apply(3).apply(1).apply(4)  # X to move: c1 wins at once
>>> state.action_to_string(search(state, Uniform(), num_simulations=100).best_action())
'c1'
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from searchlab.algorithms.mcts.batched import (
    EXPANDED,
    TERMINAL,
    WAITING,
    Tree,
    backup,
    collect,
    expand_backup,
    expand_backup_many,
    select_child,
)
from searchlab.algorithms.mcts.evaluator import ActionIndexer, BatchEvaluator
from searchlab.algorithms.mcts.gumbel import (
    GumbelRoot,
    completed_q,
    improved_policy,
    interior_index,
    logits_of,
    sigma,
)
from searchlab.algorithms.mcts.options import MCTSOptions, make_options
from searchlab.core.checks import check_integer, check_number
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.game import State

__all__ = [
    "ActionIndexer",
    "BatchEvaluator",
    "PUCTTree",
    "SearchOutcome",
    "draw",
    "evaluate_step",
    "run",
    "search",
    "sharpened",
]

_NAME = "puct"
_TIME_ONLY_CAPACITY = 1_000
"""Simulations a tree is first sized for at most (its arrays grow): the whole budget when it is
smaller."""
_MAX_ACTION = 32767
"""Actions are ``int16`` in the tree."""

# --- the numbers, checked once ------------------------------------------------------------


def _integer(value: Any, name: str, *, low: int) -> None:
    check_integer(value, name, owner=_NAME, low=low)


def _number(value: Any, name: str, *, low: float, high: float = math.inf) -> None:
    check_number(value, name, owner=_NAME, low=low, high=high)


# --- the tree: the one layout of every Monte Carlo search (algorithms.mcts) ----------------------


def _blocks(tree: Tree) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tree's four blocks, as the compiled functions of
    :mod:`~searchlab.algorithms.mcts.batched` take them."""
    i32, i16, i8, f64 = tree.blocks
    return i32, i16, i8, f64


def _outcome_value(state: State) -> float:
    """A finished game's value for player 0 on the outcome scale: +1, 0 or -1."""
    value = state.returns()[0]
    return 1.0 if value > 0 else -1.0 if value < 0 else 0.0


# --- the result ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class SearchOutcome:
    """What one search found at its root.

    Attributes:
        actions: the root's legal actions, in ``state.legal_actions()`` order; the arrays below
            are aligned with them.
        visits: simulations through each root action (they sum to ``simulations``).
        values: each action's mean return for the root's player to move (0 where unvisited).
        priors: the evaluator's priors of the actions (renormalised, before any noise).
        root_value: the mean return of all simulations for the root's player to move.
        network_value: the evaluator's value of the root itself, for its player to move.
        simulations: simulations run.
        player: the root's player to move.
        improved_policy: with ``root="gumbel"``, the improved policy ``softmax(logits +
            sigma(completed Q))`` over :attr:`actions` (the training target of Gumbel
            AlphaZero; :mod:`~searchlab.algorithms.mcts.gumbel`); else ``None``.
        chosen: with ``root="gumbel"``, the index of the action sequential halving left (the
            best ``g + logits + sigma`` among the most visited): :meth:`best_index`; else
            ``None``.
    """

    actions: tuple[int, ...]
    visits: np.ndarray
    values: np.ndarray
    priors: np.ndarray
    root_value: float
    network_value: float
    simulations: int
    player: int
    improved_policy: np.ndarray | None = None
    chosen: int | None = None

    def best_index(self) -> int:
        """The index of the most visited action (ties: the better mean, then the smaller
        action; the reference's ``final_move="most_visits"``); a Gumbel root's
        :attr:`chosen`."""
        if self.chosen is not None:
            return self.chosen
        keys = [
            (int(visits), float(value), -action)
            for visits, value, action in zip(self.visits, self.values, self.actions, strict=True)
        ]
        return max(range(len(keys)), key=keys.__getitem__)

    def best_action(self) -> int:
        """The most visited action (see :meth:`best_index`)."""
        return self.actions[self.best_index()]

    def best_value(self) -> float:
        """The mean return of the most visited action for the root's player."""
        return float(self.values[self.best_index()])

    def policy(self, temperature: float = 1.0) -> np.ndarray:
        """Probabilities over :attr:`actions`: ``N ** (1 / temperature)`` normalised; at
        temperature 0, all on :meth:`best_index` (AlphaZero's policy target is temperature 1,
        the visit counts themselves)."""
        _number(temperature, "temperature", low=0.0)
        if temperature == 0.0:
            probabilities = np.zeros(len(self.actions), dtype=np.float64)
            probabilities[self.best_index()] = 1.0
            return probabilities
        return sharpened(self.visits, temperature)

    def sample_action(self, temperature: float, rng: np.random.Generator) -> int:
        """An action drawn from :meth:`policy` with ``rng`` (temperature 0: the best one,
        drawing nothing)."""
        if temperature == 0.0:
            return self.best_action()
        return self.actions[draw(self.policy(temperature), rng)]


def sharpened(weights: np.ndarray, temperature: float) -> np.ndarray:
    """``weights ** (1 / temperature)`` normalised to probabilities (``temperature`` > 0;
    the weights are scaled by their largest first, so a low temperature cannot overflow).
    The move temperature of every PUCT search: over the visits (self-play, the agents), or
    over the priors (the network alone)."""
    scaled = np.asarray(weights, dtype=np.float64)
    scaled = scaled / scaled.max()
    powered: np.ndarray = np.power(scaled, 1.0 / temperature)
    return powered / powered.sum()


def draw(probabilities: np.ndarray, rng: np.random.Generator) -> int:
    """An index drawn from ``probabilities`` with one ``rng.random()``."""
    cumulative = np.cumsum(probabilities)
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(index, len(probabilities) - 1)


# --- one game's tree, stepped from outside -----------------------------------------------------


class PUCTTree:
    """One search in progress, stepped by its caller so that many can share a batch.

    :meth:`collect` returns the positions to evaluate now (the root alone first, then up to
    ``search_batch`` leaves under virtual loss); the caller evaluates them (possibly with other
    trees' positions, in one ``evaluate_batch`` call) and hands the rows back, in the same
    order, to :meth:`backup`; until :attr:`done`. :func:`search` is that loop for one tree;
    :func:`~searchlab.learning.alphazero.selfplay.self_play` runs it for many games in lock step.

    Args:
        state: the root position (not terminal).
        options: a checked :class:`~searchlab.algorithms.mcts.options.MCTSOptions`: its PUCT
            knobs (``c_puct``, ``search_batch``, ``virtual_loss``, ``fpu``, ``fpu_mode``,
            ``dirichlet_alpha``, ``dirichlet_epsilon``) say how to search; the evaluator is
            the caller's (it evaluates what :meth:`collect` hands out).
        indexer: the evaluator's encoder (``action_to_index``).
        rng: draws the root's Dirichlet noise (``options.dirichlet_alpha``), then a Gumbel
            root's noise (``options.root="gumbel"``; needs ``budget``).
        budget: the simulations to run (>= 1), or ``None``: no limit, the caller stops on
            its clock.
        capacity: the simulations the arrays are first sized for (default the budget, at
            most 1,000); they grow as needed.
    """

    def __init__(
        self,
        state: State,
        options: MCTSOptions,
        indexer: ActionIndexer,
        rng: np.random.Generator | None = None,
        *,
        budget: int | None,
        capacity: int | None = None,
    ) -> None:
        if state.is_terminal():
            raise InvalidStateError(f"{_NAME}: cannot search a finished game:\n{state}")
        self.options = options
        self.budget: int | None = budget
        if self.budget is not None:
            _integer(self.budget, "budget", low=1)
        self._indexer = indexer
        # an encoder whose index of an action is the action itself (range-checked by the
        # expansion): no call per action
        self._identity = bool(getattr(indexer, "actions_are_indices", False))
        self._rng = rng
        self._c_puct = float(options.c_puct)
        self._fpu = float(options.fpu)
        self._relative = options.fpu_mode == "reduction"
        self._virtual = float(options.virtual_loss)
        self._gumbel_root = options.root == "gumbel"
        self._gumbel_inside = options.nonroot == "gumbel"
        if self._gumbel_root and self.budget is None:
            raise InvalidParameterError(
                f"{_NAME}: root='gumbel' spreads a budget of simulations by sequential halving; "
                "give it simulations (a time limit alone is not one)"
            )
        self._gumbel: GumbelRoot | None = None
        self._raw: dict[int, float] = {}
        """The network value of each evaluated node below the root, for its player to move
        (kept for ``nonroot="gumbel"``'s mixed value)."""
        if capacity is None:  # a budget of 10**18 grows its arrays, it does not allocate them
            capacity = min(self.budget or _TIME_ONLY_CAPACITY, _TIME_ONLY_CAPACITY)
        capacity = 1 + 8 * (capacity + 1)
        self._tree = Tree(capacity)
        self._size = 1
        player = state.current_player()
        tree = self._tree
        tree.parent[0], tree.first[0], tree.action[0] = -1, -1, -1
        tree.n_children[0] = tree.n_expanded[0] = 0
        tree.visits[0], tree.pending[0], tree.value[0], tree.prior[0] = 0, 0, 0.0, 0.0
        tree.mover[0], tree.player[0], tree.status[0] = 1 - player, player, WAITING
        tree.is_proven[0], tree.proven[0] = False, 0.0
        self._states: list[State | None] = [state]
        self._out = np.zeros(options.search_batch, dtype=np.int64)
        self._in_flight: list[int] = []
        self._root_priors: np.ndarray | None = None
        self._network_value = 0.0
        self.simulations = 0

    @property
    def root_state(self) -> State:
        """The position searched."""
        state = self._states[0]
        assert state is not None
        return state

    @property
    def done(self) -> bool:
        """Every simulation of the budget has been backed up (never, without a budget: the
        caller stops on its clock)."""
        return self.budget is not None and self.simulations >= self.budget

    def collect(self) -> list[State]:
        """The positions to evaluate next (empty when this step needed none: the leaves it
        reached were terminal; call again). Each must come back through :meth:`backup`."""
        if self._in_flight:
            raise InvalidStateError(
                f"{_NAME}: collect() called again before backup() of {len(self._in_flight)} "
                "positions in flight"
            )
        if self._root_priors is None:
            self._in_flight = [0]
            return [self.root_state]
        batch = self.options.search_batch
        tree, out = self._tree, self._out
        states = self._states
        leaves = self._in_flight
        while len(leaves) < batch:
            budget = batch - len(leaves)
            if self.budget is not None:
                budget = min(budget, self.budget - self.simulations - len(leaves))
            if budget <= 0:
                break
            if self._gumbel_root or self._gumbel_inside:
                count, finished, collided = self._collect_stepwise(budget)
            else:
                count, finished, collided = collect(
                    *_blocks(tree), 0, self._c_puct, self._fpu, self._relative, self._virtual,
                    budget, out,
                )  # fmt: skip
            self.simulations += finished
            for leaf in out[:count].tolist():
                parent_state = states[tree.parent[leaf]]
                assert parent_state is not None
                state = parent_state.apply(int(tree.action[leaf]))
                if state.is_terminal():
                    tree.status[leaf] = TERMINAL
                    tree.is_proven[leaf] = True
                    for_zero = _outcome_value(state)  # kept for the node's mover
                    tree.proven[leaf] = for_zero if tree.mover[leaf] == 0 else 0.0 - for_zero
                    backup(*_blocks(tree), leaf, tree.proven[leaf], tree.mover[leaf], 1)
                    self.simulations += 1
                else:
                    states[leaf] = state
                    tree.player[leaf] = state.current_player()
                    leaves.append(leaf)
            if collided:
                break
        return [states[leaf] for leaf in leaves]  # type: ignore[misc]

    def _collect_stepwise(self, budget: int) -> tuple[int, int, bool]:
        """The compiled ``collect`` one selection at a time, each started where a Gumbel rule
        leads (:meth:`_descend`); the same ``(leaves, terminal simulations, collided)``."""
        leaves = finished = 0
        while leaves + finished < budget:
            start = self._descend()
            count, done, collided = collect(
                *_blocks(self._tree), start, self._c_puct, self._fpu, self._relative,
                self._virtual, 1, self._out[leaves:],
            )  # fmt: skip
            leaves += count
            finished += done
            if collided:
                return leaves, finished, True
        return leaves, finished, False

    def _descend(self) -> int:
        """The node a selection goes on from: the root's child sequential halving picks
        (``root="gumbel"``), then (``nonroot="gumbel"``) the deterministic Gumbel rule's
        children down to a node not expanded; PUCT's compiled selection goes on from there."""
        node = 0
        if self._gumbel_root:
            node = self._gumbel_child(0)
        elif self._gumbel_inside:
            blocks = _blocks(self._tree)
            chosen = select_child(
                *blocks, 0, self._c_puct, self._fpu, self._relative, self._virtual
            )
            node = int(chosen)
        if self._gumbel_inside:
            while int(self._tree.status[node]) == EXPANDED:
                node = self._gumbel_child(node)
        return node

    def _sigmas(self, node: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """``node``'s first child, its children's visits (with those in flight), completed
        visits, and ``sigma`` of their completed Q-values (for ``node``'s player to move)."""
        tree = self._tree
        first, count = int(tree.first[node]), int(tree.n_children[node])
        block = slice(first, first + count)
        done = tree.visits[block].astype(np.int64)
        seen = done + tree.pending[block]
        q = np.divide(tree.value[block], done, out=np.zeros(count), where=done > 0)
        value = self._network_value if node == 0 else self._raw.get(node, 0.0)
        completed = completed_q(q, done, tree.prior[block], value)
        options = self.options
        return first, seen, done, sigma(completed, done, options.c_visit, options.c_scale)

    def _gumbel_child(self, node: int) -> int:
        """The child of expanded ``node`` that the Gumbel rules pick: sequential halving at
        the root, ``argmax pi' - N / (1 + sum N)`` below it."""
        first, seen, _, sigmas = self._sigmas(node)
        if node == 0 and self._gumbel is not None:
            return first + self._gumbel.choose(seen, sigmas)
        count = int(self._tree.n_children[node])
        return first + interior_index(
            logits_of(self._tree.prior[first : first + count]), sigmas, seen
        )

    @property
    def in_flight(self) -> int:
        """Positions handed out by the last :meth:`collect` and not yet backed up."""
        return len(self._in_flight)

    def backup(self, priors: Any, values: Any) -> None:
        """Expand and back up the positions of the last :meth:`collect` with their evaluations:
        ``priors`` ``[k, num_actions]`` and ``values`` ``[k]`` (for each one's player to move),
        rows in :meth:`collect`'s order."""
        priors = _check_priors(priors, len(self._in_flight))
        self.receive(priors, _check_values(values, len(self._in_flight)), 0)

    def receive(self, priors: np.ndarray, values: np.ndarray, offset: int) -> None:
        """:meth:`backup` from rows ``offset...`` of a batch already checked
        (:func:`evaluate_step`): ``priors`` a 2-d array, ``values`` a float64 array in
        ``[-1, 1]``. The leaves are expanded and backed up in their order, in one compiled
        call."""
        leaves = self._in_flight
        states = self._states
        legal = [states[leaf].legal_actions() for leaf in leaves]  # type: ignore[union-attr]
        counts = np.fromiter(map(len, legal), np.int64, len(leaves))
        total = int(counts.sum())
        actions = np.fromiter(itertools.chain.from_iterable(legal), np.int64, total)
        if self._identity:
            columns = actions
        else:
            index = self._indexer.action_to_index
            pairs = zip(leaves, legal, strict=True)
            columns = np.fromiter(
                (index(states[leaf], a) for leaf, acts in pairs for a in acts), np.int64, total
            )
        if self._size + total > self._tree.parent.shape[0]:
            self._reserve(total)
        if leaves[0] == 0:  # the root comes alone: its priors are kept and noised, no backup
            status = expand_backup(
                *_blocks(self._tree), 0, self._size, actions, priors, offset, columns,
                values[offset], False,
            )  # fmt: skip
            done = 0 if status else 1
        else:
            done, status = expand_backup_many(
                *_blocks(self._tree), np.array(leaves, np.int64), self._size, counts, actions,
                columns, priors, offset, values,
            )  # fmt: skip
            if self._gumbel_inside:
                self._raw.update(
                    zip(leaves[:done], values[offset : offset + done].tolist(), strict=True)
                )
        expanded = int(counts[:done].sum())
        self._size += expanded
        states.extend([None] * expanded)
        if status:
            self._refuse(priors, offset + done, counts, done, actions, columns)
        if leaves[0] == 0:
            self._expand_root(float(values[offset]))
        else:
            self.simulations += done
        self._in_flight = []

    @staticmethod
    def _refuse(
        priors: np.ndarray,
        row: int,
        counts: np.ndarray,
        done: int,
        actions: np.ndarray,
        columns: np.ndarray,
    ) -> None:
        """The line for the leaf of batch row ``row`` (the ``done``-th of the call) whose
        expansion failed (checked in the compiled expansion, which changed nothing): an
        action the tree cannot hold, its columns do not fit the priors, or a prior is negative
        or not finite."""
        first = int(counts[:done].sum())
        span = slice(first, first + int(counts[done]))
        mine_actions = actions[span]
        low, high = int(mine_actions.min()), int(mine_actions.max())
        if low < 0 or high > _MAX_ACTION:
            raise InvalidParameterError(
                f"{_NAME}: actions must be in 0..{_MAX_ACTION} (the tree keeps them as int16), "
                f"got {low if low < 0 else high}"
            )
        mine = columns[span]
        if mine.size and (mine.min() < 0 or mine.max() >= priors.shape[1]):
            raise InvalidParameterError(
                f"{_NAME}: the encoder's action indices {mine.tolist()} do not fit "
                f"priors of {priors.shape[1]} columns"
            )
        raw = priors[row, mine].tolist()
        raise InvalidParameterError(
            f"{_NAME}: evaluator priors must be finite and >= 0, got {raw!r}"
        )

    def _expand_root(self, value: float) -> None:
        """The root's evaluation: keep its priors and value, mix in the noise."""
        first, count = int(self._tree.first[0]), int(self._tree.n_children[0])
        priors = self._tree.prior[first : first + count]
        self._root_priors = priors.copy()
        self._network_value = value
        alpha = self.options.dirichlet_alpha
        if alpha is not None:
            rng = self._rng if self._rng is not None else np.random.default_rng()
            noise = rng.dirichlet([alpha] * count)
            epsilon = self.options.dirichlet_epsilon
            priors[:] = (1.0 - epsilon) * priors + epsilon * noise
        if self._gumbel_root:
            assert self.budget is not None
            rng = self._rng if self._rng is not None else np.random.default_rng()
            self._gumbel = GumbelRoot(
                logits_of(priors),
                rng.gumbel(size=count),
                self.options.max_num_considered_actions,
                simulations=self.budget,
            )

    def _reserve(self, count: int) -> None:
        """Room for ``count`` more nodes (the arrays double when full)."""
        while self._tree.parent.shape[0] < self._size + count:
            self._tree.grow()

    def outcome(self) -> SearchOutcome:
        """The root's statistics (after :attr:`done`)."""
        if self._root_priors is None:
            raise InvalidStateError(f"{_NAME}: the root has not been evaluated yet")
        tree = self._tree
        first, count = int(tree.first[0]), int(tree.n_children[0])
        children = slice(first, first + count)
        visits = tree.visits[children].astype(np.int64)
        sums = tree.value[children]
        values = np.divide(sums, visits, out=np.zeros(count), where=visits > 0)
        player = int(tree.player[0])
        root_visits = int(tree.visits[0])
        root_mean = tree.value[0] / root_visits if root_visits else 0.0
        improved = chosen = None
        if self._gumbel is not None:
            _, _, done, sigmas = self._sigmas(0)
            improved = improved_policy(self._gumbel.logits, sigmas)
            chosen = self._gumbel.final(done, sigmas)
        return SearchOutcome(
            actions=tuple(int(a) for a in tree.action[children]),
            visits=visits,
            values=values,
            priors=self._root_priors,
            root_value=float(0.0 - root_mean if tree.mover[0] != player else root_mean),
            network_value=self._network_value,
            simulations=self.simulations,
            player=player,
            improved_policy=improved,
            chosen=chosen,
        )

    @property
    def nodes(self) -> int:
        """Nodes allocated (the root and every child of an expanded node)."""
        return self._size

    def principal_variation(self, first_action: int) -> tuple[int, ...]:
        """``first_action`` (a root action), then the most visited child at each node below
        it while that child has visits (ties: the first in block order)."""
        tree = self._tree
        node = 0
        line: list[int] = []
        action: int | None = first_action
        while True:
            start, count = int(tree.first[node]), int(tree.n_children[node])
            if start < 0 or count == 0 or int(tree.status[node]) != EXPANDED:
                break
            block = tree.action[start : start + count]
            if action is not None:
                matches = np.flatnonzero(block == action)
                if matches.size == 0:
                    break
                child = start + int(matches[0])
            else:
                child = start + int(np.argmax(tree.visits[start : start + count]))
            if tree.visits[child] <= 0:
                break
            line.append(int(tree.action[child]))
            node, action = child, None
        return tuple(line) if line else (first_action,)

    def depth(self) -> int:
        """The deepest visited node below the root (plies)."""
        tree = self._tree
        size = self._size
        levels = np.zeros(size, dtype=np.int64)
        deepest = 0
        for node in range(1, size):  # a child comes after its parent
            parent = int(tree.parent[node])
            levels[node] = levels[parent] + 1
            if tree.visits[node] > 0 and levels[node] > deepest:
                deepest = int(levels[node])
        return deepest


def _check_priors(priors: Any, count: int) -> np.ndarray:
    """``priors`` as a 2-d array of ``count`` rows, else one clear line."""
    array = np.asarray(priors)
    if array.ndim != 2 or array.shape[0] != count:
        raise InvalidParameterError(
            f"{_NAME}: evaluate_batch gave priors of shape {array.shape} for {count} "
            f"positions; expected ({count}, num_actions)"
        )
    return array


def _check_values(values: Any, count: int) -> np.ndarray:
    """``values`` as ``count`` floats in ``[-1, 1]`` (rounding error of 1e-6 clipped)."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if array.shape[0] != count:
        raise InvalidParameterError(
            f"{_NAME}: evaluate_batch gave {array.shape[0]} values for {count} positions"
        )
    if not np.all(np.abs(array) <= 1.0 + 1e-6):  # catches NaN too
        raise InvalidParameterError(
            f"{_NAME}: evaluator values must be in [-1, 1] for the player to move, got "
            f"{array.tolist()!r}"
        )
    return np.clip(array, -1.0, 1.0)


def indexer_of(evaluator: Any) -> ActionIndexer:
    """The ``encoder`` of ``evaluator`` after checking it can evaluate batches and index
    actions (one clear line otherwise)."""
    if not callable(getattr(evaluator, "evaluate_batch", None)):
        raise InvalidParameterError(
            f"{_NAME}: the evaluator must have evaluate_batch(states) -> (priors, values), "
            f"got {evaluator!r}"
        )
    indexer: Any = getattr(evaluator, "encoder", None)
    if not callable(getattr(indexer, "action_to_index", None)):
        raise InvalidParameterError(
            f"{_NAME}: the evaluator needs an 'encoder' with action_to_index(state, action), "
            f"got {indexer!r}"
        )
    return cast(ActionIndexer, indexer)


def as_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    """A numpy generator: ``rng`` itself, or a new one seeded with it (an int >= 0, or
    ``None`` for fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int) or rng < 0):
        raise InvalidParameterError(
            f"{_NAME}: rng must be a numpy Generator, an integer seed >= 0 or None, got {rng!r}"
        )
    return np.random.default_rng(rng)


def search(
    state: State,
    evaluator: BatchEvaluator,
    options: MCTSOptions | None = None,
    *,
    num_simulations: int = 100,
    rng: np.random.Generator | int | None = None,
    **overrides: Any,
) -> SearchOutcome:
    """Search ``state`` with PUCT and return its root statistics.

    Args:
        state: a non-terminal position (``InvalidStateError`` otherwise).
        evaluator: ``evaluate_batch(states) -> (priors, values)`` and an ``encoder`` (see the
            module); called once per batch of up to ``search_batch`` positions.
        options: an :class:`~searchlab.algorithms.mcts.options.MCTSOptions`; its PUCT fields
            may also be given (or overridden) as keywords: ``c_puct``, ``search_batch``,
            ``virtual_loss``, ``fpu``, ``fpu_mode``, ``dirichlet_alpha``,
            ``dirichlet_epsilon``.
        num_simulations: simulations to run (>= 1; the root's own evaluation is not one).
        rng: the generator (or an integer seed) of the root's Dirichlet noise and of a Gumbel
            root's noise: the same seed, the same search.

    Returns:
        A :class:`SearchOutcome`; ``best_action()`` is the move to play.
    """
    _integer(num_simulations, "num_simulations", low=1)
    indexer = indexer_of(evaluator)
    options = make_options(options, {"evaluator": evaluator, **overrides})
    noise_rng = as_rng(rng) if options.draws_at_root else None
    tree = PUCTTree(state, options, indexer, noise_rng, budget=num_simulations)
    run(tree, evaluator)
    return tree.outcome()


def run(tree: PUCTTree, evaluator: BatchEvaluator, deadline: float | None = None) -> int:
    """Step ``tree`` with ``evaluator`` until its budget is spent, or (``deadline``, a
    ``time.perf_counter()`` reading) the clock passes it after at least one simulation (read
    between batches); the positions evaluated. The loop of every one-tree PUCT search."""
    evaluated = 0
    while not tree.done:
        if deadline is not None and tree.simulations > 0 and time.perf_counter() >= deadline:
            break
        evaluated += evaluate_step([tree], evaluator)
    return evaluated


def evaluate_step(trees: Sequence[PUCTTree], evaluator: BatchEvaluator) -> int:
    """One lock step: every tree's :meth:`~PUCTTree.collect`, **one** ``evaluate_batch``
    call for all their positions (none if no tree needs one), the rows checked once and
    handed back to their trees. Returns the number of positions evaluated."""
    batch: list[State] = []
    owners: list[tuple[PUCTTree, int]] = []
    for tree in trees:
        if tree.done:
            continue
        states = tree.collect()
        if states:
            owners.append((tree, len(batch)))
            batch.extend(states)
    if not batch:
        return 0
    priors, values = evaluator.evaluate_batch(batch)
    priors = _check_priors(priors, len(batch))
    checked = _check_values(values, len(batch))
    for tree, offset in owners:
        tree.receive(priors, checked, offset)
    return len(batch)
