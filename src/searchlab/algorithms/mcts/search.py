"""Monte Carlo tree search: UCT and PUCT, MCTS-Solver, transpositions, tree reuse.

Each simulation is the four steps of the textbook loop (:meth:`MCTS._simulate`), iterative
(no recursion, whatever the game length):

1. **selection**: from the root, follow the tree policy (UCT, or PUCT with an evaluator)
   while the edge taken leads to a node already in the tree;
2. **expansion**: the first edge leading outside the tree adds one node (with
   transpositions, an edge to a position already in the tree, after a move of the same
   player, links to its node instead);
3. **simulation**: the new node is valued by a rollout to the end of the game, or by the
   evaluator, or by a mix of both (``lambda_``); a terminal or proven node by its exact value;
4. **backpropagation**: every node on the path adds the return for the player who moved into
   it; with MCTS-Solver, proofs are backed up too, and a proven root ends the search; with
   RAVE (``rave > 0``) every node on the path also adds the simulation to the all-moves-as-first
   statistics of the actions its player played later on, in the tree and in the rollout
   (:mod:`~searchlab.algorithms.mcts.rave`), and selection mixes them into UCT's value.

The player to move is read from each position, never from the parity of the depth: a player
may move several plies in a row (Snake Go), and every node keeps its statistics for its own
``mover`` (:mod:`~searchlab.algorithms.mcts.tree`), so nothing flips a sign from ply to ply.

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.nim import Nim
>>> game = Nim((1, 2, 4))  # the only winning move takes 1 from the third pile
>>> result = mcts(game, limits=Limits(simulations=2000), seed=7, tier="reference")
>>> game.initial_state().action_to_string(result.action), result.algorithm
('3:1', 'mcts')
>>> result.stats["children"][0]["action"] == result.action
True

The options are one :class:`~searchlab.algorithms.mcts.options.MCTSOptions`, made (and
checked) once and passed unchanged to the reference search here and to the compiled kernels,
which the registry :data:`~searchlab.algorithms.kernels.KERNELS` chooses by the game's type.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any, cast

from searchlab.algorithms.kernels import KERNELS
from searchlab.algorithms.mcts.endgame import ProofSearch
from searchlab.algorithms.mcts.evaluator import Evaluator, check_value, prior_list
from searchlab.algorithms.mcts.final_move import child_value, choose_final
from searchlab.algorithms.mcts.options import (
    MCTSOptions,
    check_budget,
    check_compiled,
    check_seed,
    make_options,
)
from searchlab.algorithms.mcts.rave import select_rave, update_amaf
from searchlab.algorithms.mcts.results import (
    EMPTY_SNAPSHOT,
    SearchSnapshot,
    children_stats,
    principal_variation,
    snapshot_of,
    terminal_result,
)
from searchlab.algorithms.mcts.rollout import playout, playout_limit, traced_playout
from searchlab.algorithms.mcts.selection import (
    prove,
    proven_value_for_player,
    select_puct,
    select_uct,
)
from searchlab.algorithms.mcts.tree import Node, path_actions, reachable_nodes
from searchlab.algorithms.mcts.value_scale import returns_scale
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State, check_capabilities
from searchlab.core.game_events import Backup, Playout, Select, Visit
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["MCTS", "mcts"]


class MCTS:
    """A Monte Carlo tree searcher bound to one game, keeping its tree between searches.

    ``search(state, limits)`` searches ``state``; the next call looks for its new state in
    the previous tree, from its root through the root player's plies and then the opponent's
    (by ``state.key()``: the positions after one's own move and the opponent's reply; with
    alternating players, the root, its children and grandchildren) and, when found, keeps that
    subtree with its statistics (``stats["reused_visits"]`` says how many simulations were
    inherited). The options are those of :func:`mcts` (an ``options=`` object and/or its
    fields as keywords); ``limits`` here is a default budget for :meth:`search`. Only the
    reference tier keeps a tree, so ``tier="auto"`` and ``"reference"`` run it here;
    ``tier="compiled"`` (and ``threads > 1``, which only the compiled tier runs) runs the
    compiled kernel on every call, with a fresh tree each time (as :func:`mcts` does).

    >>> from searchlab.core.game import play
    >>> from searchlab.core.limits import Limits
    >>> from searchlab.domains.games.tictactoe import TicTacToe
    >>> searcher = MCTS(TicTacToe(), seed=3)
    >>> first = searcher.search(TicTacToe().initial_state(), Limits(simulations=1000))
    >>> state = play(TicTacToe().initial_state(), "b2 a1")  # two plies below the old root
    >>> second = searcher.search(state, Limits(simulations=1000))
    >>> second.stats["reused_visits"] > 0
    True
    """

    def __init__(
        self,
        game: Game,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        options: MCTSOptions | None = None,
        **overrides: Any,
    ) -> None:
        check_capabilities(game, "mcts")
        self.options: MCTSOptions = make_options(options, overrides)
        evaluator = self.options.evaluator
        if evaluator is not None and not callable(getattr(evaluator, "evaluate", None)):
            raise InvalidParameterError(
                "mcts: this search evaluates one position at a time and needs an evaluator "
                "with evaluate(state); a batch evaluator (evaluate_batch only) runs in the "
                "compiled PUCT (algorithms.mcts.puct, the mcts agent)"
            )
        check_compiled(self.options, game)  # tier="compiled": options the game's kernel runs
        why_not_threads = self.options.why_not_threads(game)  # threads > 1: compiled only
        if why_not_threads is not None:
            raise InvalidParameterError(why_not_threads)
        self.game = game
        self.limits = None if limits is None else check_budget(limits, "mcts")
        self.algorithm = self.options.algorithm
        self._scale = returns_scale(game, self.options.value_scale, "mcts")
        self._seed = check_seed(seed, "mcts")
        self._rng = random.Random(seed)
        self._noise_rng: Any = None
        exact = self.options.exact_endgame
        self._prover = ProofSearch(exact, scale=self._scale) if exact else None
        self._use_proofs = self.options.solver or exact > 0
        self._no_amaf = getattr(game, "pass_action", None)  # RAVE: the pass gathers none
        self._max_plies = playout_limit(game)  # a rollout longer than the game: one line
        self._root: Node | None = None
        self._table: dict[Hashable, Node] | None = None
        self._nodes = 0

    # --- the tree between searches ----------------------------------------------------

    @property
    def root(self) -> Node | None:
        """The root of the current tree (``None`` before the first search)."""
        return self._root

    def reset(self) -> None:
        """Forget the tree (the next search starts afresh; the random stream goes on)."""
        self._root = None
        self._table = None

    def snapshot(self) -> SearchSnapshot:
        """The root's statistics now (see :class:`~searchlab.algorithms.mcts.results.
        SearchSnapshot`), also while a search runs in another thread."""
        root = self._root
        if root is None:
            return EMPTY_SNAPSHOT
        return snapshot_of(children_stats(root, self._use_proofs))

    def _find_reusable(self, state: State) -> Node | None:
        """The node of ``state`` within the previous tree's first turns, if any: breadth
        first from the old root through its player's plies, then through the opponent's
        plies, down to the first nodes where the old root's player is to move again (two plies
        when the players alternate; more when a player moves several plies in a row)."""
        if self._root is None:
            return None
        key = state.key()
        player = state.current_player()
        own = self._root.player
        frontier = [(self._root, False)]  # (node, the opponent has moved on the path)
        seen = {id(self._root)}
        while frontier:
            following: list[tuple[Node, bool]] = []
            for node, replied in frontier:
                if node.player == player and node.key() == key:
                    return node
                if replied and node.player == own:
                    continue  # the old root's player to move again: deep enough
                for child in node.children:
                    if child is not None and id(child) not in seen:
                        seen.add(id(child))
                        following.append((child, replied or node.player != own))
            frontier = following
        return None

    def _prepare_root(self, state: State) -> tuple[Node, int]:
        """The root for ``state`` (reused or new) and the visits it inherits."""
        root = self._find_reusable(state)
        if root is None:
            root = self._new_node(state, mover=1 - state.current_player())
            self._table = {_table_key(root): root} if self.options.transpositions else None
            reused = 0
        else:
            root.state = state  # same position; keep the caller's object (its history)
            reused = root.visits
            if self.options.transpositions:
                self._table = {_table_key(node): node for node in reachable_nodes(root)}
            # A root is proven only through its children (so that a move can be chosen); an
            # endgame proof of the node itself does not count.
            root.proven = None
            if self.options.solver:
                prove(root)
        self._root = root
        return root, reused

    # --- nodes --------------------------------------------------------------------------

    def _new_node(self, state: State, mover: int) -> Node:
        """A node for ``state``: terminal value, shuffled edges (UCT), endgame proof."""
        node = Node(state, mover, amaf=self.options.rave > 0)
        self._nodes += 1
        if node.is_terminal:
            node.proven = self._scale(state.returns())[mover]
        elif self.options.evaluator is None and len(node.actions) > 1:
            self._rng.shuffle(node.actions)
        return node

    def _prove_leaf(self, node: Node) -> None:
        """Exact endgame search on a new non-terminal, non-root node."""
        assert self._prover is not None
        value = self._prover.prove(node.state)
        if value is not None:
            node.proven = value if node.mover == node.player else 0.0 - value

    def _expand(self, node: Node, index: int) -> tuple[Node, bool]:
        """Step 2: the child behind edge ``index`` of ``node``; ``True`` if it is new."""
        state = node.state.apply(node.actions[index])
        if self._table is not None:
            key = (state.key(), node.player)  # as _table_key of the child
            existing = self._table.get(key)
            if existing is not None:
                node.children[index] = existing
                return existing, False
            child = self._new_node(state, node.player)
            self._table[key] = child
        else:
            child = self._new_node(state, node.player)
        if self._prover is not None and child.proven is None:
            self._prove_leaf(child)
        node.children[index] = child
        return child, True

    def _evaluate(self, node: Node) -> float:
        """The evaluator's value of ``node`` for its player to move; sets its priors."""
        evaluator = cast(Evaluator, self.options.evaluator)  # checked: it has evaluate()
        priors, value = evaluator.evaluate(node.state)
        if node.priors is None:
            node.priors = prior_list(priors, node.actions, self.algorithm)
        return check_value(value, self.algorithm)

    # --- one simulation -----------------------------------------------------------------

    def _simulate(self, root: Node, root_priors: list[float] | None) -> int:
        """Run the four steps once; return the depth of the leaf."""
        options = self.options
        use_proofs = options.solver
        observer = options.observer
        is_puct = options.evaluator is not None
        rave = options.rave
        # RAVE: the edges taken (by index) and the rollout's (player, action) moves
        taken: list[int] | None = [] if rave else None
        moves: list[tuple[int, int]] | None = [] if rave else None
        # Step 1. Selection (and Step 2. Expansion, at the first edge out of the tree).
        node = root
        path = [root]
        on_path = {id(root)} if self._table is not None else None
        if observer is not None:
            observer(Visit((), root.key(), -math.inf, math.inf, 0))
        while True:
            if is_puct:
                priors = root_priors if node is root and root_priors is not None else node.priors
                index = select_puct(node, options.c_puct, priors, use_proofs)  # type: ignore[arg-type]
            elif rave:
                index = select_rave(node, options.c, rave, use_proofs)
            else:
                index = select_uct(node, options.c, use_proofs)
            if index < 0:  # every child is a proven loss (seen through a transposition)
                prove(node)
                break
            child = node.children[index]
            if observer is not None:
                visits = 0 if child is None else child.visits
                mean = 0.0 if child is None or not visits else child.value_sum / visits
                observer(Select(path_actions(path), node.key(), node.actions[index], visits, mean))
            is_new = False
            if child is None:
                child, is_new = self._expand(node, index)
            if on_path is not None:
                if id(child) in on_path:  # a cycle through transpositions: stop here
                    break
                on_path.add(id(child))
            path.append(child)
            if taken is not None:
                taken.append(index)
            if observer is not None:
                line = path_actions(path)
                observer(Visit(line, child.key(), -math.inf, math.inf, len(line)))
            node = child
            if is_new or child.proven is not None or child.is_terminal:
                break
        leaf = path[-1]
        # Step 3. Simulation.
        returns = self._leaf_returns(leaf, moves)
        if observer is not None:
            observer(Playout(path_actions(path), leaf.key(), tuple(float(r) for r in returns)))
        # Step 4. Backpropagation.
        for visited in path:
            visited.visits += 1
            visited.value_sum += returns[visited.mover]
        if taken is not None and moves is not None:
            update_amaf(path, taken, moves, returns, self._no_amaf)
        if options.solver:
            for position in range(len(path) - 2, -1, -1):
                if path[position + 1].proven is None or not prove(path[position]):
                    break
        if observer is not None:
            self._emit_backups(path)
        return len(path) - 1

    def _leaf_returns(
        self, leaf: Node, moves: list[tuple[int, int]] | None = None
    ) -> Sequence[float]:
        """Step 3: the returns of both players credited to this simulation (the rollout's
        moves appended to ``moves`` when it is a list: RAVE)."""
        if leaf.proven is not None:
            return _both(leaf.mover, leaf.proven)
        options = self.options
        if options.evaluator is None:
            if moves is not None:
                return self._scale(
                    traced_playout(leaf.state, options.policy, self._rng, moves, self._max_plies)
                )
            return self._scale(playout(leaf.state, options.policy, self._rng, self._max_plies))
        value = self._evaluate(leaf) if options.lambda_ < 1.0 or leaf.priors is None else 0.0
        if options.lambda_ > 0.0:
            rolled = self._scale(playout(leaf.state, options.policy, self._rng, self._max_plies))
            value = (1.0 - options.lambda_) * value + options.lambda_ * rolled[leaf.player]
        return _both(leaf.player, value)

    def _emit_backups(self, path: list[Node]) -> None:
        observer = self.options.observer
        assert observer is not None
        line = path_actions(path)
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            action = line[depth] if depth < len(line) else None
            value = node.mean if node.mover == 0 else 0.0 - node.mean
            observer(Backup(line[:depth], node.key(), value, action))

    # --- the search ----------------------------------------------------------------------

    def search(self, state: State | None = None, limits: Limits | None = None) -> SearchResult:
        """Search ``state`` (default: the initial state) within ``limits`` (default: the
        constructor's); see :func:`mcts` for the result."""
        limits = check_budget(limits if limits is not None else self.limits, "mcts")
        root = self.game.initial_state() if state is None else state
        if self.options.tier != "compiled" and self.options.threads == 1:
            return self._search(root, limits)
        seed = self._rng.randrange(1 << 31) if self._seed is not None else None
        return _run_tiers(self.game, root, limits, self.options, seed, self)

    def _search(self, root_state: State, limits: Limits) -> SearchResult:
        """The reference tier's search of ``root_state`` (arguments already checked)."""
        if self.options.threads > 1:
            raise InvalidParameterError(
                f"mcts: threads={self.options.threads} runs in the compiled tier only (root "
                f"parallelism), and the compiled kernel has no {type(root_state).__name__} "
                "positions; use threads=1"
            )
        start = time.perf_counter()
        if root_state.is_terminal():
            self.reset()
            return terminal_result(
                root_state, algorithm=self.algorithm, start=start, scale=self._scale,
                reused_visits=0, c=self.options.c,
            )  # fmt: skip
        self._nodes = 0
        root, reused = self._prepare_root(root_state)
        root_priors = self._root_priors(root)
        deadline = None if limits.time is None else start + limits.time
        stopped_by, simulations, depth = self._loop(
            root, root_priors, limits.simulations, deadline, limits.nodes, 0
        )
        index = choose_final(root, self.options.final_move, self._use_proofs)
        if index is None and self.options.final_move == "robust" and stopped_by != "proven":
            # Robust-max child: search on (up to half the budget again) until the most visited
            # child is also the best valued one.
            extra = None if limits.simulations is None else max(1, limits.simulations // 2)
            extra_deadline = None if limits.time is None else time.perf_counter() + limits.time / 2
            stopped_by, more, deeper = self._loop(
                root, root_priors, extra, extra_deadline, limits.nodes, 1
            )
            simulations += more
            depth = max(depth, deeper)
            index = choose_final(root, self.options.final_move, self._use_proofs)
        if index is None:
            index = choose_final(root, "most_visits", self._use_proofs)
        return self._result(root, index, simulations, depth, reused, start, stopped_by)

    def _root_priors(self, root: Node) -> list[float] | None:
        """PUCT: evaluate the root for its priors; add Dirichlet noise when asked."""
        options = self.options
        if options.evaluator is None:
            return None
        if root.priors is None:
            self._evaluate(root)
        if options.dirichlet_alpha is None:
            return None
        if self._noise_rng is None:
            import numpy as np

            # abs: numpy refuses negative seeds (random.Random uses abs(seed) too)
            seed = None if self._seed is None else abs(self._seed)
            self._noise_rng = np.random.default_rng(seed)
        noise = self._noise_rng.dirichlet([options.dirichlet_alpha] * len(root.actions))
        epsilon = options.dirichlet_epsilon
        return [
            (1.0 - epsilon) * prior + epsilon * float(eta)
            for prior, eta in zip(root.priors, noise, strict=True)  # type: ignore[arg-type]
        ]

    def _loop(
        self,
        root: Node,
        root_priors: list[float] | None,
        simulations: int | None,
        deadline: float | None,
        node_limit: int | None,
        robust: int,
    ) -> tuple[str, int, int]:
        """Simulate until a budget is spent, the root is proven, or (``robust``) the most
        visited child is the best valued one; ``(stopped_by, simulations, max depth)``."""
        count = depth = 0
        final_move = self.options.final_move
        is_solver = self.options.solver
        while True:
            if is_solver and root.proven is not None:
                return "proven", count, depth
            if robust and choose_final(root, final_move, self._use_proofs) is not None:
                return "robust", count, depth
            if simulations is not None and count >= simulations:
                return "simulations", count, depth
            if deadline is not None and count and time.perf_counter() >= deadline:
                return "time", count, depth
            if node_limit is not None and self._nodes >= node_limit:
                return "nodes", count, depth
            reached = self._simulate(root, root_priors)
            count += 1
            if reached > depth:
                depth = reached

    def _result(
        self,
        root: Node,
        index: int | None,
        simulations: int,
        depth: int,
        reused: int,
        start: float,
        stopped_by: str,
    ) -> SearchResult:
        use_proofs = self._use_proofs
        root_value = proven_value_for_player(root) if self.options.solver else None
        action = None if index is None else root.actions[index]
        chosen = None if index is None else root.children[index]
        if root_value is not None:
            value = root_value
        elif chosen is not None:
            value = child_value(chosen, use_proofs)
        else:
            value = 0.0
        stats: dict[str, Any] = {
            "simulations": simulations,
            "children": children_stats(root, use_proofs),
            "reused_visits": reused,
            "c": self.options.c,
        }
        if self.options.rave:
            stats["rave"] = self.options.rave
        if self.options.evaluator is not None:
            stats["c_puct"] = self.options.c_puct
            stats["lambda"] = self.options.lambda_
        if self._prover is not None:
            stats["endgame_proofs"] = self._prover.proofs
        return SearchResult(
            action=action,
            value=float(value),
            principal_variation=principal_variation(root, index),
            nodes=self._nodes,
            depth=depth,
            elapsed=time.perf_counter() - start,
            is_proven=root_value is not None,
            stopped_by=None if stopped_by in ("proven", "robust") else stopped_by,
            algorithm=self.algorithm,
            tier="reference",
            stats=stats,
        )


def _table_key(node: Node) -> tuple[Hashable, int]:
    """A node's key in the transposition table: its position and its ``mover``. A position
    reached after moves of either player (a player who moves again, or the opponent) has one
    node per mover, as a node's statistics are for its mover; when the players alternate,
    the mover follows from the position and this is one node per position."""
    return (node.key(), node.mover)


def _both(player: int, value: float) -> tuple[float, float]:
    """Zero-sum returns in which ``player`` gets ``value``."""
    return (value, 0.0 - value) if player == 0 else (0.0 - value, value)


def _run_tiers(
    game: Game, root: State, limits: Limits, options: MCTSOptions, seed: int | None, searcher: MCTS
) -> SearchResult:
    """The search of ``root`` by the tier ``options.tier`` picks: the compiled kernel
    registered for ``game``'s type when it runs these options (``tier="auto"`` or
    ``"compiled"``), else ``searcher``'s reference search (``"compiled"``: an error saying
    why not)."""
    reason = options.why_not_compiled(game)
    why_not = (
        f"{reason} needs the reference tier"
        if reason is not None
        else f"the compiled kernel has no {type(root).__name__} positions"
    )
    return KERNELS.run(
        "mcts",
        game,
        options.tier,
        reference=lambda: searcher._search(root, limits),
        why_not=why_not,
        state=root,
        limits=limits,
        options=options,
        seed=seed,
    )


def mcts(
    game: Game,
    state: State | None = None,
    *,
    limits: Limits | None = None,
    seed: int | None = None,
    options: MCTSOptions | None = None,
    **overrides: Any,
) -> SearchResult:
    """Monte Carlo tree search from ``state`` (default: the initial state).

    Args:
        game: a two-player, zero-sum, deterministic, perfect-information game.
        limits: the budget, required: ``Limits(simulations=...)`` and/or
            ``Limits(time=...)`` (seconds; at least one simulation runs); ``nodes`` caps the
            tree nodes created; other fields are not used.
        seed: seeds every random choice: the same seed gives the same tree and result.
        options: an :class:`~searchlab.algorithms.mcts.options.MCTSOptions`; its fields may
            also be given (or overridden) as keywords: ``c``, ``rollout``, ``final_move``,
            ``transpositions``, ``solver``, ``exact_endgame``, ``rave``, ``evaluator``, ``c_puct``,
            ``lambda_``, ``dirichlet_alpha``, ``dirichlet_epsilon``, ``value_scale``, ``threads``
            (root parallelism, compiled tier), ``tier``, ``observer`` (their meaning, defaults
            and checks are written once, there).
            ``tier="auto"`` runs the compiled kernel registered for the game
            (:data:`~searchlab.algorithms.kernels.KERNELS`) when the options are plain.

    Returns:
        A :class:`~searchlab.core.search_result.SearchResult`: ``action`` chosen; ``value``
        the chosen child's mean value for the root's player (or the proven value), on the
        options' ``value_scale``, in ``[-1, 1]`` (default: +1 win, 0 draw, -1 loss);
        ``principal_variation`` the most visited line; ``nodes`` tree nodes created;
        ``depth`` the deepest leaf reached; ``is_proven``; ``stopped_by`` ``"simulations"`` /
        ``"time"`` / ``"nodes"`` (``None`` when a proof ended it); ``algorithm`` ``"mcts"``
        (UCT) or ``"puct"``; ``tier``; ``stats``: ``simulations``, ``children`` (per root
        action: ``action``, ``visits``, ``value`` (mean for the root's player), ``prior``,
        ``proven`` ``"win"``/``"loss"``/``"draw"``/``None``; most visited first),
        ``reused_visits``, ``c`` (and ``rave`` with RAVE, ``c_puct``, ``lambda`` with an
        evaluator).

    Raises:
        InvalidParameterError: a missing game capability, no budget, a bad option (see
            ``MCTSOptions``), ``tier="compiled"`` without a kernel for the game and options;
            UnknownNameError: an unknown option, ``rollout``, ``final_move`` or
            ``value_scale`` name.
    """
    searcher = MCTS(game, seed=seed, options=options, **overrides)
    limits = check_budget(limits, "mcts")
    root = game.initial_state() if state is None else state
    return _run_tiers(game, root, limits, searcher.options, seed, searcher)
