"""Monte Carlo tree search: UCT and PUCT, MCTS-Solver, transpositions, tree reuse.

Each simulation is the four steps of the textbook loop (:meth:`MCTS._simulate`), iterative
(no recursion, whatever the game length):

1. **selection**: from the root, follow the tree policy (UCT, or PUCT with an evaluator)
   while the edge taken leads to a node already in the tree;
2. **expansion**: the first edge leading outside the tree adds one node (with
   transpositions, an edge to a position already in the tree links to its node instead);
3. **simulation**: the new node is valued by a rollout to the end of the game, or by the
   evaluator, or by a mix of both (``lambda_``); a terminal or proven node by its exact value;
4. **backpropagation**: every node on the path adds the return for the player who moved into
   it; with MCTS-Solver, proofs are backed up too, and a proven root ends the search.

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.nim import Nim
>>> game = Nim((1, 2, 4))  # the only winning move takes 1 from the third pile
>>> result = mcts(game, limits=Limits(simulations=2000), seed=7, tier="reference")
>>> game.initial_state().action_to_string(result.action), result.algorithm
('3:1', 'mcts')
>>> result.stats["children"][0]["action"] == result.action
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any

from searchlab.algorithms.mcts.endgame import ProofSearch
from searchlab.algorithms.mcts.evaluator import Evaluator, check_value, prior_list
from searchlab.algorithms.mcts.final_move import child_value, choose_final
from searchlab.algorithms.mcts.options import DEFAULT_C, MCTSOptions, check_budget, make_options
from searchlab.algorithms.mcts.results import children_stats, principal_variation, terminal_result
from searchlab.algorithms.mcts.rollout import RolloutPolicy, playout
from searchlab.algorithms.mcts.selection import (
    prove,
    proven_value_for_player,
    select_puct,
    select_uct,
)
from searchlab.algorithms.mcts.tree import Node, path_actions, reachable_nodes
from searchlab.algorithms.path.best_first import Tier
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State, check_capabilities
from searchlab.core.game_events import Backup, Playout, Select, Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import Observer
from searchlab.core.search_result import SearchResult

__all__ = ["MCTS", "mcts"]

_REUSE_PLIES = 2  # the new root is looked for this many plies below the previous one


class MCTS:
    """A Monte Carlo tree searcher bound to one game, keeping its tree between searches.

    ``search(state, limits)`` searches ``state``; the next call looks for its new state among
    the previous tree's root, children and grandchildren (by ``state.key()``: the positions
    after one's own move and the opponent's reply) and, when found, keeps that subtree with its
    statistics (``stats["reused_visits"]`` says how many simulations were inherited). The
    options are those of :func:`mcts`; ``limits`` here is a default budget for
    :meth:`search`. Only the reference tier keeps a tree, so ``tier="auto"`` and
    ``"reference"`` run it here; ``tier="compiled"`` runs the compiled kernel on every call,
    with a fresh tree each time (as :func:`mcts` does).

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
        c: float = DEFAULT_C,
        rollout: str | RolloutPolicy = "random",
        final_move: str = "most_visits",
        transpositions: bool = False,
        solver: bool = False,
        exact_endgame: int = 0,
        evaluator: Evaluator | None = None,
        c_puct: float = 1.5,
        lambda_: float = 1.0,
        dirichlet_alpha: float | None = None,
        dirichlet_epsilon: float = 0.25,
        seed: int | None = None,
        tier: Tier = "auto",
        observer: Observer | None = None,
    ) -> None:
        check_capabilities(game, "mcts")
        self.options: MCTSOptions = make_options(
            c=c,
            rollout=rollout,
            final_move=final_move,
            transpositions=transpositions,
            solver=solver,
            exact_endgame=exact_endgame,
            evaluator=evaluator,
            c_puct=c_puct,
            lambda_=lambda_,
            dirichlet_alpha=dirichlet_alpha,
            dirichlet_epsilon=dirichlet_epsilon,
            seed=seed,
            tier=tier,
            observer=observer,
        )
        if tier == "compiled" and not self.options.is_plain:
            _refuse_compiled(self.options)
        self.game = game
        self.limits = None if limits is None else check_budget(limits, "mcts")
        self.algorithm = "puct" if evaluator is not None else "mcts"
        self._rng = random.Random(seed)
        self._seed = seed
        self._noise_rng: Any = None
        self._prover = ProofSearch(exact_endgame) if exact_endgame else None
        self._use_proofs = solver or exact_endgame > 0
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

    def _find_reusable(self, state: State) -> Node | None:
        """The node of ``state`` within the previous tree's first plies, if any."""
        if self._root is None:
            return None
        key = state.key()
        frontier = [self._root]
        for ply in range(_REUSE_PLIES + 1):
            following: list[Node] = []
            for node in frontier:
                if node.player == state.current_player() and node.key() == key:
                    return node
                if ply < _REUSE_PLIES:
                    following.extend(child for child in node.children if child is not None)
            frontier = following
        return None

    def _prepare_root(self, state: State) -> tuple[Node, int]:
        """The root for ``state`` (reused or new) and the visits it inherits."""
        root = self._find_reusable(state)
        if root is None:
            root = self._new_node(state, mover=1 - state.current_player())
            self._table = {state.key(): root} if self.options.transpositions else None
            reused = 0
        else:
            root.state = state  # same position; keep the caller's object (its history)
            reused = root.visits
            if self.options.transpositions:
                self._table = {node.key(): node for node in reachable_nodes(root)}
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
        node = Node(state, mover)
        self._nodes += 1
        if node.is_terminal:
            node.proven = float(state.returns()[mover])
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
            key = state.key()
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
        evaluator = self.options.evaluator
        assert evaluator is not None
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
            if observer is not None:
                line = path_actions(path)
                observer(Visit(line, child.key(), -math.inf, math.inf, len(line)))
            node = child
            if is_new or child.proven is not None or child.is_terminal:
                break
        leaf = path[-1]
        # Step 3. Simulation.
        returns = self._leaf_returns(leaf)
        if observer is not None:
            observer(Playout(path_actions(path), leaf.key(), tuple(float(r) for r in returns)))
        # Step 4. Backpropagation.
        for visited in path:
            visited.visits += 1
            visited.value_sum += returns[visited.mover]
        if options.solver:
            for position in range(len(path) - 2, -1, -1):
                if path[position + 1].proven is None or not prove(path[position]):
                    break
        if observer is not None:
            self._emit_backups(path)
        return len(path) - 1

    def _leaf_returns(self, leaf: Node) -> Sequence[float]:
        """Step 3: the returns of both players credited to this simulation."""
        if leaf.proven is not None:
            return _both(leaf.mover, leaf.proven)
        options = self.options
        if options.evaluator is None:
            return playout(leaf.state, options.policy, self._rng)  # type: ignore[arg-type]
        value = self._evaluate(leaf) if options.lambda_ < 1.0 or leaf.priors is None else 0.0
        if options.lambda_ > 0.0:
            rolled = playout(leaf.state, options.policy, self._rng)  # type: ignore[arg-type]
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
        budget = check_budget(limits if limits is not None else self.limits, "mcts")
        root_state = self.game.initial_state() if state is None else state
        if self.options.tier == "compiled":
            seed = self._rng.randrange(1 << 31) if self._seed is not None else None
            return _compiled(self.game, root_state, budget, self.options, seed)  # type: ignore[return-value]
        start = time.perf_counter()
        if root_state.is_terminal():
            self.reset()
            return terminal_result(root_state, self.algorithm, start, self.options.c)
        self._nodes = 0
        root, reused = self._prepare_root(root_state)
        root_priors = self._root_priors(root)
        deadline = None if budget.time is None else start + budget.time
        stopped_by, simulations, depth = self._loop(
            root, root_priors, budget.simulations, deadline, budget.nodes, 0
        )
        index = choose_final(root, self.options.final_move, self._use_proofs)
        if index is None and self.options.final_move == "robust" and stopped_by != "proven":
            # Robust-max child: search on (up to half the budget again) until the most visited
            # child is also the best valued one.
            extra = None if budget.simulations is None else max(1, budget.simulations // 2)
            extra_deadline = None if budget.time is None else time.perf_counter() + budget.time / 2
            stopped_by, more, deeper = self._loop(
                root, root_priors, extra, extra_deadline, budget.nodes, 1
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

            self._noise_rng = np.random.default_rng(self._seed)
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


def _both(player: int, value: float) -> tuple[float, float]:
    """Zero-sum returns in which ``player`` gets ``value``."""
    return (value, 0.0 - value) if player == 0 else (0.0 - value, value)


def _refuse_compiled(options: MCTSOptions) -> None:
    raise InvalidParameterError(
        f"mcts: the compiled tier runs plain UCT only, and {options.why_not_plain()} needs the "
        "reference tier; use tier='auto' or tier='reference'"
    )


def _compiled(
    game: Game, root: State, budget: Limits, options: MCTSOptions, seed: int | None
) -> SearchResult | None:
    """The compiled kernel's result; ``None`` (run the reference) or an error for
    ``tier="compiled"`` when there is none for these options or this game."""
    if not options.is_plain:
        _refuse_compiled(options)
    from searchlab.algorithms.mcts.compiled import compiled_mcts

    result = compiled_mcts(
        game,
        root,
        limits=budget,
        c=float(options.c),
        seed=seed,
        final_move=options.final_move,
        solver=options.solver,
    )
    if result is None and options.tier == "compiled":
        raise InvalidParameterError(
            f"mcts: no compiled tier for the game {game.info.name!r} ({type(game).__name__}); "
            "use tier='auto' or tier='reference'"
        )
    return result


def mcts(
    game: Game,
    state: State | None = None,
    *,
    limits: Limits | None = None,
    c: float = DEFAULT_C,
    rollout: str | RolloutPolicy = "random",
    final_move: str = "most_visits",
    transpositions: bool = False,
    solver: bool = False,
    exact_endgame: int = 0,
    evaluator: Evaluator | None = None,
    c_puct: float = 1.5,
    lambda_: float = 1.0,
    dirichlet_alpha: float | None = None,
    dirichlet_epsilon: float = 0.25,
    seed: int | None = None,
    tier: Tier = "auto",
    observer: Observer | None = None,
) -> SearchResult:
    """Monte Carlo tree search from ``state`` (default: the initial state).

    Args:
        game: a two-player, zero-sum, deterministic, perfect-information game.
        limits: the budget, required: ``Limits(simulations=...)`` and/or
            ``Limits(time=...)`` (seconds; at least one simulation runs); ``nodes`` caps the
            tree nodes created; other fields are not used.
        c: UCT exploration constant in ``W/N + c * sqrt(2 ln N_parent / N)`` (>= 0; default 1:
            UCB1's bonus on returns in ``[-1, 1]``, OpenSpiel's ``uct_c = sqrt(2) * c``).
        rollout: ``"random"``, ``"informed"`` (win now, else no move that leaves the opponent
            a win), or a callable ``(state, rng: random.Random) -> action``.
        final_move: ``"most_visits"`` (default), ``"best_value"`` or ``"robust"`` (most
            visits and best value agree, searching on by up to half the budget until they do).
        transpositions: share one node per ``state.key()`` (the tree becomes a DAG).
        solver: MCTS-Solver: back up proven wins, losses and draws; stop once the root is
            proven (``is_proven``; the value is then exact for win/draw/loss games).
        exact_endgame: ``K > 0`` runs a ``K``-ply proof search (node budget 5000) at each new
            node; a proven node is valued exactly instead of by a rollout.
        evaluator: an :class:`~searchlab.algorithms.mcts.evaluator.Evaluator` switches to PUCT
            ``Q + c_puct * P * sqrt(N_parent) / (1 + N)`` with its priors.
        c_puct: PUCT's exploration constant (>= 0).
        lambda_: with an evaluator, leaf value ``(1 - lambda_) * value + lambda_ * rollout``;
            1 (default) uses the evaluator for priors only, 0 (AlphaZero) never rolls out.
        dirichlet_alpha, dirichlet_epsilon: with an evaluator, root priors become
            ``(1 - epsilon) * P + epsilon * Dir(alpha)`` (AlphaZero's exploration noise).
        seed: seeds every random choice: the same seed gives the same tree and result.
        tier: ``"auto"`` runs a compiled kernel when the game has one and the options are the
            plain ones (random rollouts, no evaluator, no transpositions, no endgame search, no
            observer), else this reference tier; ``"reference"`` always runs this one;
            ``"compiled"`` insists on a kernel.
        observer: receives a :class:`~searchlab.core.game_events.Visit` per node selected
            (path, key; alpha/beta are -inf/+inf) and a
            :class:`~searchlab.core.game_events.Backup` per node updated (its mean for
            player 0 after the update; ``action``: the edge taken below it).

    Returns:
        A :class:`~searchlab.core.search_result.SearchResult`: ``action`` chosen; ``value``
        the chosen child's mean return for the root's player (or the proven value);
        ``principal_variation`` the most visited line; ``nodes`` tree nodes created;
        ``depth`` the deepest leaf reached; ``is_proven``; ``stopped_by`` ``"simulations"`` /
        ``"time"`` / ``"nodes"`` (``None`` when a proof ended it); ``algorithm`` ``"mcts"``
        (UCT) or ``"puct"``; ``stats``: ``simulations``, ``children`` (per root action:
        ``action``, ``visits``, ``value`` (mean for the root's player), ``prior``, ``proven``
        ``"win"``/``"loss"``/``"draw"``/``None``; most visited first), ``reused_visits``,
        ``c`` (and ``c_puct``, ``lambda`` with an evaluator).

    Raises:
        InvalidParameterError: a missing game capability, no budget, ``c < 0``, ``lambda_``
            outside ``[0, 1]`` (or set without an evaluator), ``tier="compiled"`` without a
            kernel for the game and options; UnknownNameError: an unknown ``rollout`` or
            ``final_move`` name.
    """
    searcher = MCTS(
        game,
        c=c,
        rollout=rollout,
        final_move=final_move,
        transpositions=transpositions,
        solver=solver,
        exact_endgame=exact_endgame,
        evaluator=evaluator,
        c_puct=c_puct,
        lambda_=lambda_,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_epsilon=dirichlet_epsilon,
        seed=seed,
        tier=tier,
        observer=observer,
    )
    budget = check_budget(limits, "mcts")
    root = game.initial_state() if state is None else state
    options = searcher.options
    if tier != "reference" and (options.is_plain or tier == "compiled"):
        result = _compiled(game, root, budget, options, seed)
        if result is not None:  # None: no kernel here, and tier="auto" (else it raised)
            return result
    return searcher.search(root, budget)
