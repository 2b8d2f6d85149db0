"""Agents that search: alpha-beta (the negamax engine), flat Monte Carlo and MCTS.

Each keeps its own budget (``depth``, ``simulations``, ``time``...) and takes a per-move
:class:`~searchlab.core.limits.Limits` from its caller instead when given one (the arena's time
control). The search result behind the last move is in ``last_result``.

>>> from searchlab.games import make
>>> game = make("tictactoe")
>>> agent = AlphaBetaAgent("alphabeta", game, limits=Limits(depth=9))
>>> state = game.initial_state()
>>> for move in ("a1", "b1", "a2", "b2"):  # X threatens a3, O threatens b3
...     state = state.apply(state.string_to_action(move))
>>> state.action_to_string(agent.act(state)), agent.last_result.outcome
('a3', 'win')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from searchlab.agents.base import AgentBase
from searchlab.agents.evaluations import search_position
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.game import Evaluation, Game, State
from searchlab.core.limits import Limits

if TYPE_CHECKING:
    from searchlab.algorithms.mcts import MCTS
    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.algorithms.mcts.value_scale import ValueScale

__all__ = ["AlphaBetaAgent", "FlatMonteCarloAgent", "MCTSAgent"]

_SEED_RANGE = 2**31 - 1


class _BudgetedAgent(AgentBase):
    """A search agent with its own budget per move."""

    def __init__(self, name: str, game: Game, *, limits: Limits) -> None:
        super().__init__(name)
        self._game = game
        self._limits = limits

    @property
    def limits(self) -> Limits:
        """The agent's own budget per move: what :meth:`act` searches with when the caller
        gives none (the web lab bounds it by the server's caps)."""
        return self._limits


class AlphaBetaAgent(_BudgetedAgent):
    """Iterative-deepening negamax alpha-beta (TT, PVS, killers) within ``limits``."""

    def __init__(
        self,
        name: str,
        game: Game,
        *,
        limits: Limits,
        evaluate: Evaluation | None = None,
    ) -> None:
        super().__init__(name, game, limits=limits)
        self._evaluate = evaluate

    def act(self, state: State, limits: Limits | None = None) -> int:
        from searchlab.algorithms.adversarial.negamax import negamax

        game, root = search_position(self._game, state)
        result = negamax(game, root, limits=limits or self._limits, evaluate=self._evaluate)
        self.last_result = result
        if result.action is None:  # pragma: no cover - negamax always answers off-terminal
            return state.legal_actions()[0]
        return result.action


class _SeededSearchAgent(_BudgetedAgent):
    """A search agent that draws a fresh seed per move from one seeded generator."""

    def __init__(self, name: str, game: Game, *, limits: Limits, seed: int | None) -> None:
        super().__init__(name, game, limits=limits)
        self._rng = np.random.default_rng(seed)

    def _next_seed(self) -> int:
        return int(self._rng.integers(_SEED_RANGE))


class FlatMonteCarloAgent(_SeededSearchAgent):
    """Random playouts spread over the root's actions; the best mean value wins (on
    ``value_scale``: the outcome, or the normalised returns)."""

    def __init__(
        self,
        name: str,
        game: Game,
        *,
        limits: Limits,
        seed: int | None,
        value_scale: ValueScale = "outcome",
    ) -> None:
        from searchlab.algorithms.mcts.value_scale import returns_scale

        super().__init__(name, game, limits=limits, seed=seed)
        try:
            returns_scale(game, value_scale, "flat_monte_carlo")  # fail now, not at a move
        except SearchlabError as error:
            raise type(error)(f"agent {name!r}: {error}") from None
        self._value_scale = value_scale

    def act(self, state: State, limits: Limits | None = None) -> int:
        from searchlab.algorithms.mcts import flat_monte_carlo

        result = flat_monte_carlo(
            self._game,
            state,
            limits=limits or self._limits,
            seed=self._next_seed(),
            value_scale=self._value_scale,
        )
        self.last_result = result
        return cast(int, result.action)  # a search from a non-terminal state has one


class MCTSAgent(_SeededSearchAgent):
    """Monte Carlo tree search: UCT (RAVE, MCTS-Solver), compiled for every game with
    compiled rules where the options allow; PUCT with a network when the options carry a
    batch evaluator.

    The options (an :class:`~searchlab.algorithms.mcts.options.MCTSOptions` as ``options=``,
    and/or its fields as keywords) are made and checked once, here, and every move's search
    gets that same object. With ``reuse=True`` the tree is kept between moves: by the
    compiled searcher on every game with a compiled tier (a ``CompiledSearcher`` for Connect
    Four, Othello, Snake Go, Go (``GoSearcher``, with Go's switches) and any game registered
    with compiled rules) unless ``tier="reference"`` or the options need the reference tier; else
    by the reference tier.

    With a network (``options.evaluator`` has ``evaluate_batch``: the ``az``, ``policy`` and
    ``alphago`` specs are this agent so), each move is the compiled PUCT of
    :class:`~searchlab.algorithms.mcts.puct_search.PUCTSearcher`: ``temperature`` > 0 draws
    the move from the visits (the first ``temperature_moves`` moves of a game only, when
    given; with ``rng``, a generator the caller shares, instead of one seeded by ``seed``),
    and ``network_only=True`` searches nothing (the move with the highest prior, whatever
    budget the caller gives).

    >>> from searchlab.games import make
    >>> agent = MCTSAgent("mcts", make("othello"), limits=Limits(simulations=500), seed=1)
    >>> state = make("othello").initial_state()
    >>> agent.act(state) in state.legal_actions(), -1 <= agent.last_result.value <= 1
    (True, True)
    """

    def __init__(
        self,
        name: str,
        game: Game | None,
        *,
        limits: Limits,
        seed: int | None,
        reuse: bool = False,
        options: MCTSOptions | None = None,
        temperature: float = 0.0,
        temperature_moves: int | None = None,
        rng: np.random.Generator | None = None,
        network_only: bool = False,
        algorithm: str = "puct",
        checkpoint: Any = None,
        **overrides: Any,
    ) -> None:
        from searchlab.algorithms.mcts import MCTS
        from searchlab.algorithms.mcts.options import make_options

        super().__init__(name, cast(Game, game), limits=limits, seed=seed)  # checked below
        self._reuse = reuse
        self._searcher: MCTS | None = None
        self._compiled: Any = None
        self._puct: Any = None
        self._network_only = network_only
        self.checkpoint = checkpoint
        """Where the network came from (a checkpoint: the ``az`` and ``policy`` specs), or
        ``None``."""
        try:
            self.options = make_options(options, overrides)
            if self.options.is_batched and self.options.threads > 1:
                raise InvalidParameterError(
                    f"mcts: threads={self.options.threads} runs in the compiled UCT only (root "
                    "parallelism); PUCT with a network searches on one thread: use threads=1"
                )
            if self.options.is_batched:
                from searchlab.algorithms.mcts.puct_search import PUCTSearcher

                self._puct = PUCTSearcher(
                    self.options,
                    seed=seed if rng is None else rng,
                    temperature=temperature,
                    temperature_moves=temperature_moves,
                    algorithm=algorithm,
                )
                self.prepare()
                return
            if game is None:
                raise InvalidParameterError(
                    "mcts needs the game (only PUCT with a network "
                    "reads nothing but the positions it is given)"
                )
            # Fail at construction on an option the game cannot take, not at the first move.
            searcher = MCTS(game, seed=seed, options=self.options)
            self._searcher = searcher if reuse else None
            self._compiled = _compiled_searcher(game, self.options, seed) if reuse else None
            self.prepare()
        except SearchlabError as error:
            raise type(error)(f"agent {name!r}: {error}") from None

    def prepare(self) -> None:
        """Load (or, on an empty numba cache, compile, saying so in one line on stderr) the
        compiled kernels this agent's searches run, so that no move's clock pays for it:
        done at construction (:meth:`~searchlab.algorithms.mcts.compiled.CompiledSearcher.
        prepare`); with a network, the PUCT tree's kernels and the network's first forward
        pass too (:meth:`~searchlab.algorithms.mcts.puct_search.PUCTSearcher.prepare`, on the
        game's initial position; without the game, before the first search's clock);
        nothing for the reference tier."""
        if self._puct is not None:
            if self._game is not None:
                start = self._game.initial_state()
                if not start.is_terminal():
                    self._puct.prepare(start, search=not self._network_only)
            return
        searcher = self._compiled or _compiled_searcher(self._game, self.options, 0)
        if searcher is not None:
            searcher.prepare()

    def act(self, state: State, limits: Limits | None = None) -> int:
        limits = limits or self._limits
        if self._puct is not None:
            if self._network_only:
                result = self._puct.network_move(state)
            else:
                result = self._puct.search(state, limits)
        elif self._compiled is not None:
            result = self._compiled.search(state, limits)
        elif self._searcher is not None:
            result = self._searcher.search(state, limits)
        else:
            from searchlab.algorithms.mcts import mcts

            result = mcts(
                self._game, state, limits=limits, seed=self._next_seed(), options=self.options
            )
        self.last_result = result
        return cast(int, result.action)  # a search from a non-terminal state has one

    @property
    def evaluator(self) -> Any:
        """The evaluator the search is guided by (a network), or ``None`` (UCT)."""
        return self.options.evaluator

    def tree_view(self, depth: int, width: int) -> dict[str, Any] | None:
        """The kept compiled tree of the last search as nested dicts (the compiled
        searcher's ``tree_view``), or ``None`` (no compiled tree kept: see :attr:`tree`)."""
        if self._compiled is None:
            return None
        return cast(dict[str, Any] | None, self._compiled.tree_view(depth, width))

    @property
    def tree(self) -> Any:
        """The root :class:`~searchlab.algorithms.mcts.tree.Node` of the last search's tree,
        kept when the agent reuses its tree (``reuse=True``, reference tier); else ``None``
        (also for Go's compiled searcher, whose tree is arrays)."""
        return None if self._searcher is None else self._searcher.root

    def reset(self) -> None:
        super().reset()
        if self._puct is not None:
            self._puct.reset()
        elif self._reuse:
            from searchlab.algorithms.mcts import MCTS

            seed = self._next_seed()
            self._searcher = MCTS(self._game, seed=seed, options=self.options)
            self._compiled = _compiled_searcher(self._game, self.options, seed)


def _compiled_searcher(game: Game, options: MCTSOptions, seed: int | None) -> Any:
    """The compiled searcher that keeps its tree between moves (chosen in one place,
    :func:`~searchlab.algorithms.mcts.searchers.compiled_searcher`), or ``None`` where the
    reference tier keeps it."""
    from searchlab.algorithms.mcts.searchers import compiled_searcher

    return compiled_searcher(game, options, seed)
