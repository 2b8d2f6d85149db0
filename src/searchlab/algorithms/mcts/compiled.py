"""The compiled tier of MCTS (numba kernels for the built-in games).

``compiled_mcts`` is the kernel that :data:`~searchlab.algorithms.kernels.KERNELS` registers
for :class:`~searchlab.domains.games.connect4.Connect4`,
:class:`~searchlab.domains.games.othello.Othello` and
:class:`~searchlab.domains.games.snakego.SnakeGo`; :func:`searchlab.algorithms.mcts.mcts`
reaches it through the registry when ``tier`` allows. It takes the options the reference tier
takes (one checked :class:`~searchlab.algorithms.mcts.options.MCTSOptions`, passed unchanged)
and returns ``None`` when the game's kernel does not run them
(:meth:`~searchlab.algorithms.mcts.options.MCTSOptions.why_not_compiled`: the rollout
policies the kernel compiles, :data:`~searchlab.algorithms.kernels.MCTS_ROLLOUTS`, and the
options beyond plain UCT it runs, :data:`~searchlab.algorithms.kernels.MCTS_FEATURES`), and
the reference tier runs instead.

It runs the reference tier's algorithm (UCT with UCB1 ``W/N + c * sqrt(2 ln N_parent / N)``,
one node added per simulation, untried actions in random order, uniformly random rollouts or,
on Snake Go, the notes' informed ones, optional MCTS-Solver, the same final-move rules and
the same result) on the built-in Connect Four
(:class:`~searchlab.domains.games.connect4.Connect4`), Othello
(:class:`~searchlab.domains.games.othello.Othello`, either scoring) and Snake Go
(:class:`~searchlab.domains.games.snakego.SnakeGo`, either scoring, any size; a player may
move several plies in a row) with the tree as arrays
(:mod:`~searchlab.algorithms.mcts._kernel_loop`). The two tiers draw different random numbers,
so they agree in distribution (root visit shares, chosen moves), not simulation by simulation;
the same seed gives the same result within a tier. Both value a finished game on the options'
``value_scale`` (Othello's kernel: the sign of the disc difference, or the difference over
64; Snake Go's: +1 / -1 for ``win_loss``; for ``score_difference`` the sign of the score
difference, or the difference over ``size * size``).

Threads. With ``options.threads > 1`` the search runs on that many threads at once (the kernel
releases the GIL), the budget split: tree parallelism by default
(:mod:`~searchlab.algorithms.mcts.tree_parallel`: one tree, virtual loss), or root parallelism
(``parallel="root"``, and always with RAVE or Go's priors;
:mod:`~searchlab.algorithms.mcts.root_parallel`: a tree a thread, each with its own seed, the
root children merged for the final move). ``threads=1`` is the single-threaded search, draw
for draw.

Budgets. Numba cannot read the clock: the kernel runs in slices and the clock is read between
them (:mod:`~searchlab.algorithms.mcts.slices`, shared with Go's searcher); the tree stays in
its arrays. The arrays start sized for the simulation budget and double when the kernel pauses
for room.

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.connect4 import parse_moves
>>> state = parse_moves("4455")  # X to move: 3 or 6 makes an open three on the bottom row
>>> options = MCTSOptions(c=1.0)
>>> result = compiled_mcts(
...     Connect4(), state=state, limits=Limits(simulations=3000), options=options, seed=1)
>>> result.tier, result.stats["simulations"], result.action in (2, 5)
('compiled', 3000, True)
>>> again = compiled_mcts(
...     Connect4(), state=state, limits=Limits(simulations=3000), options=options, seed=1)
>>> again.stats == result.stats and again.principal_variation == result.principal_variation
True
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.algorithms.kernels import compiled_game_for
from searchlab.algorithms.mcts import _kernel_loop as L
from searchlab.algorithms.mcts._kernel_bind import bind
from searchlab.algorithms.mcts._kernel_final import MOST_VISITS, RULES, final_choice
from searchlab.algorithms.mcts.compile_notice import compiling
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.results import (
    EMPTY_SNAPSHOT,
    SearchSnapshot,
    array_tree_view,
    snapshot_of,
    terminal_result,
)
from searchlab.algorithms.mcts.root_parallel import (
    merge_roots,
    run_parallel,
    split_budget,
    thread_seed,
)
from searchlab.algorithms.mcts.slices import AGAIN, NO_LIMIT, run_in_slices
from searchlab.algorithms.mcts.tree_parallel import Lane, run_shared
from searchlab.algorithms.mcts.value_scale import returns_scale
from searchlab.core.compiled_game import CompiledGame, CompiledGameError
from searchlab.core.compiled_rng import seed_state
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.snakego import SnakeGo

__all__ = [
    "CompiledSearcher",
    "compiled_mcts",
    "warm_up",
]

_MAX_INITIAL_SLOTS = 1 << 20
_TIME_ONLY_SLOTS = 1 << 16
_BLOCK_TIME_ONLY_SLOTS = 1 << 17
_MAX_BLOCK_SLOTS = 1 << 22
"""With children made a block at a time (a game with ``priors``) the arrays stop growing here
(about 260 MB): the search then goes on without new blocks."""
_MAX_PLIES = 1 << 16
"""The longest path and playout the kernel records (a game may state a longer
``max_game_length``: Go's ``max_moves`` goes to 10**9)."""
_NO_LIMIT = NO_LIMIT
_STOPS = {L.ROOT_PROVEN: "proven", L.ROBUST: "robust", L.NODE_LIMIT: "nodes"}
"""The kernel's reasons to stop before its budget, as the reference tier names them."""
_MAX_PLAYOUT = 10_000
"""The longest uniform playout of a game that states no ``max_game_length``."""


@dataclass(frozen=True, slots=True)
class _Kernel:
    """A game's bound kernel (:func:`~searchlab.algorithms.mcts._kernel_bind.bind`), its
    ``config``, the root position ``(a, b)`` (two words, or an array and read-only data: see
    :mod:`~searchlab.algorithms.mcts._kernel_loop`), the most children one node can have, and
    the player to move at the root."""

    search: Callable[..., int]
    config: Any
    a: Any
    b: Any
    max_branching: int
    player: int = 0
    name: str = "game"
    max_plies: int = 10_000
    num_actions: int = 0
    pass_action: int = -1
    blocks: bool = False
    expand: int = 1
    amaf_first: bool = False
    moves_between: Callable[[Any, Any], Any] | None = None


def _kernel_for(
    game: Game, state: State, options: MCTSOptions, rules: CompiledGame | None = None
) -> _Kernel | None:
    """The bound kernel for ``state`` of ``game``, through the game's registered compiled
    rules (:func:`~searchlab.algorithms.kernels.compiled_game_for`) or ``rules``, or ``None``
    when it has none or ``state`` is not a position its ``encode`` takes (another state
    type)."""
    compiled = compiled_game_for(game) if rules is None else rules
    if compiled is None:
        return None
    try:
        a, b = compiled.encode(state)
    except (AttributeError, TypeError):
        return None
    config = compiled.config(state, options.value_scale, str(options.rollout))
    search = bind(compiled, isinstance(a, np.ndarray))
    return _Kernel(
        search, config, a, b, compiled.max_branching, state.current_player(), compiled.name,
        min(game.info.max_game_length or _MAX_PLAYOUT, _MAX_PLIES), compiled.num_actions,
        compiled.pass_action, compiled.priors is not None, compiled.expand_visits,
        compiled.amaf_first, compiled.moves_between,
    )  # fmt: skip


class _Search:
    """One compiled search: the tree arrays and the driver of the resumable kernel."""

    def __init__(
        self,
        kernel: _Kernel,
        limits: Limits,
        options: MCTSOptions,
        seed: int | None,
        report_rave: bool = True,
    ) -> None:
        self.kernel = kernel
        self.c = float(options.c)
        self.rave = float(options.rave)
        self.extra_stats = {"rave": options.rave} if options.rave and report_rave else {}
        self.solver = options.solver
        self.max_nodes = _NO_LIMIT if limits.nodes is None else int(limits.nodes)
        if kernel.blocks:  # a block of children every ``expand`` simulations, at most
            slots = _BLOCK_TIME_ONLY_SLOTS
            if limits.simulations is not None:
                blocks = int(limits.simulations) // kernel.expand + 2
                slots = max(slots, blocks * kernel.max_branching)
            slots = min(slots, _MAX_BLOCK_SLOTS)
        elif limits.simulations is not None:
            slots = min(2 * int(limits.simulations) + 2 * kernel.max_branching, _MAX_INITIAL_SLOTS)
        else:
            slots = _TIME_ONLY_SLOTS
        self.tree = L.Tree(max(slots, 4 * kernel.max_branching))
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self.tree.set_root(kernel.a, kernel.b, seed_state(seed), player=kernel.player)

    @property
    def simulations(self) -> int:
        return int(self.tree.counters[L.C_SIMULATIONS])

    def reroot(self, node: int, kernel: _Kernel, limits: Limits) -> int:
        """Keep the subtree of ``node`` (the position of ``kernel``) for a search within
        ``limits``; return the simulations it inherits."""
        self.kernel = kernel
        self.max_nodes = _NO_LIMIT if limits.nodes is None else int(limits.nodes)
        return self.tree.reroot(
            node, kernel.a, kernel.b, player=kernel.player, solver=self.solver,
            blocks=kernel.blocks,
        )  # fmt: skip

    @property
    def can_grow(self) -> bool:
        """May the arrays grow (with blocks, up to :data:`_MAX_BLOCK_SLOTS`)?"""
        return not self.kernel.blocks or self.tree.parent.shape[0] < _MAX_BLOCK_SLOTS

    def settings(
        self, max_simulations: int, robust: bool, virtual_loss: bool = False
    ) -> tuple[Any, ...]:
        """The kernel's settings for a run up to ``max_simulations``."""
        kernel = self.kernel
        return L.settings(
            self.c, max_simulations, self.max_nodes, self.solver, robust, self.rave,
            kernel.max_plies, kernel.num_actions, kernel.pass_action, kernel.max_branching,
            kernel.expand, kernel.amaf_first, self.can_grow, virtual_loss,
        )  # fmt: skip

    def _call(self, max_simulations: int, robust: bool) -> int:
        tree, kernel = self.tree, self.kernel
        return int(
            kernel.search(
                kernel.config,
                *tree.arrays(),
                tree.counters,
                tree.rng_state,
                self.settings(max_simulations, robust),
            )
        )

    def check(self, code: int) -> str | None:
        """The reason a kernel's return ``code`` stands for (``None``: the slice ran);
        :class:`CompiledGameError` on a bad value."""
        if code == L.BAD_VALUE:
            raise CompiledGameError(
                f"{self.kernel.name}: compiled game: status or rollout gave a value "
                "outside [-1, 1] (or a uniform playout did not end within the game's "
                "max_game_length plies)"
            )
        return _STOPS.get(code)

    def grow(self) -> None:
        """Double the arrays (with blocks, up to :data:`_MAX_BLOCK_SLOTS`)."""
        capacity = 2 * self.tree.parent.shape[0]
        self.tree.grow(min(capacity, _MAX_BLOCK_SLOTS) if self.kernel.blocks else capacity)

    def run(
        self,
        simulations: int | None,
        deadline: float | None,
        robust: bool = False,
        stopped: Callable[[], str | None] | None = None,
    ) -> str:
        """Simulate until ``simulations`` more have run, the clock passes ``deadline`` (after
        one simulation at least), the node limit, a proven root (solver) or, with ``robust``,
        agreement of the most visited and the best valued root child; return which stopped it
        (the reference tier's names: ``simulations``, ``time``, ``nodes``, ``proven``,
        ``robust``), or what ``stopped`` (asked between slices: another thread's search has
        ended the search) returns. The clock is read between slices
        (:func:`~searchlab.algorithms.mcts.slices.run_in_slices`)."""

        def step(budget: int) -> str | None:
            code = self._call(budget, robust)
            if code == L.GROW:
                self.grow()
                return AGAIN
            return self.check(code)

        return run_in_slices(
            step,
            lambda: self.simulations,
            simulations=simulations,
            deadline=deadline,
            after_slice=stopped,
        )

    def final_choice(self, rule: int) -> int:
        """The id of the root child ``rule`` picks (-1: none)."""
        tree = self.tree
        return int(
            final_choice(
                tree.first, tree.n_children, tree.n_expanded, tree.action, tree.visits,
                tree.value, tree.is_proven, tree.proven, rule, self.solver,
            )
        )  # fmt: skip

    def result(
        self,
        chosen: int,
        stopped_by: str,
        began: float,
        legal_actions: list[int],
        reused_visits: int = 0,
    ) -> SearchResult:
        """The :class:`SearchResult` of the reference tier's shape for root child ``chosen``
        (-1: none, when a node limit stopped the search before its first simulation)."""
        tree = self.tree
        return _root_result(
            tree,
            chosen,
            0 <= chosen < int(tree.first[0]) + int(tree.n_expanded[0]),
            self.solver,
            self._principal_variation(chosen) if chosen >= 0 else (),
            int(tree.counters[L.C_NODES]),
            int(tree.counters[L.C_MAX_DEPTH]),
            began,
            stopped_by,
            {
                "simulations": self.simulations,
                "children": self._children(legal_actions),
                "reused_visits": reused_visits,
                "c": self.c,
                **self.extra_stats,
            },
        )

    def _children(self, legal_actions: list[int] | None, tree: Any = None) -> list[dict[str, Any]]:
        """Per root action: visits, mean for the root's player, prior (None), proof; from
        ``tree`` (default: this search's), or a :meth:`~._kernel_loop.Tree.view`. With
        ``legal_actions``, exactly those: a legal action the tree does not hold (a game's
        ``tree_actions`` leave some out) has no visits, a child that is not legal (a superko
        repetition) is left out."""
        tree = self.tree if tree is None else tree
        first, made = int(tree.first[0]), int(tree.n_expanded[0])
        if first < 0:  # no simulation ran
            return [
                {"action": a, "visits": 0, "value": 0.0, "prior": None, "proven": None}
                for a in sorted(legal_actions or ())
            ]
        legal = None if legal_actions is None else set(legal_actions)
        block = slice(first, first + int(tree.n_children[0]))
        # the sums before the visits: a reader in another thread may see the search run on
        # between two reads, and visits read later are never fewer than the sums hold
        sums = tree.value[block].tolist()
        counts = tree.visits[block].tolist()
        actions = tree.action[block].tolist()
        entries: list[dict[str, Any]] = []
        for offset, action in enumerate(actions):
            if legal is not None:
                if action not in legal:
                    continue
                legal.discard(action)
            child = first + offset
            visits = int(counts[offset]) if offset < made else 0
            proven = None
            if self.solver and visits and tree.is_proven[child]:
                p = float(tree.proven[child])
                proven = "win" if p > 0 else "loss" if p < 0 else "draw"
            entries.append(
                {
                    "action": int(action),
                    "visits": visits,
                    "value": float(sums[offset]) / visits if visits else 0.0,
                    "prior": None,
                    "proven": proven,
                }
            )
        for action in legal or ():
            entries.append(
                {"action": action, "visits": 0, "value": 0.0, "prior": None, "proven": None}
            )
        entries.sort(key=lambda entry: (-entry["visits"], entry["action"]))
        return entries

    def _principal_variation(self, chosen: int) -> tuple[int, ...]:
        """The chosen action, then the most visited child at each node below it (the first
        in block order on ties), while it has visits."""
        tree = self.tree
        line = [int(tree.action[chosen])]
        if chosen >= int(tree.first[0]) + int(tree.n_expanded[0]):
            return tuple(line)  # not made yet (every made child is a proven loss)
        node = chosen
        while tree.first[node] >= 0 and tree.n_expanded[node] > 0:
            first = int(tree.first[node])
            node = first + int(np.argmax(tree.visits[first : first + int(tree.n_expanded[node])]))
            if tree.visits[node] == 0:
                break  # a block made at the last simulation's leaf: none of it visited
            line.append(int(tree.action[node]))
        return tuple(line)


def compiled_mcts(
    game: Game,
    *,
    state: State,
    limits: Limits,
    options: MCTSOptions,
    seed: int | None,
) -> SearchResult | None:
    """Compiled UCT from ``state`` of ``game``, with a fresh tree, or ``None`` when the game
    has no compiled rules, its kernel does not run ``options`` (see the module docstring) or
    ``state`` is not a position its rules take.

    The arguments are those :func:`searchlab.algorithms.mcts.mcts` has checked (``limits``
    bounds ``simulations`` and/or ``time``; ``nodes`` caps the tree); this function does not
    check them again. The result has the reference tier's shape with ``tier="compiled"``
    (``stats``: ``simulations``, ``children``, ``reused_visits`` (0), ``c``; with
    ``threads > 1``, ``threads``: the threads that searched).
    """
    if options.why_not_compiled(game) is not None:
        return None
    if _kernel_for(game, state, options) is None:
        return None
    return CompiledSearcher(game, options, seed).search(state, limits)


class CompiledSearcher:
    """Compiled UCT on one game that keeps its tree between searches (tree reuse), for every
    game with compiled rules (:func:`~searchlab.algorithms.kernels.compiled_game_for`).

    ``search(state, limits)`` looks for ``state`` in the previous tree, as the reference
    tier's :class:`~searchlab.algorithms.mcts.MCTS` does (from the root through its player's
    plies, then the opponent's, by ``state.key()``), and keeps that subtree, compacted, with
    its statistics (``stats["reused_visits"]``); else it starts a fresh tree. The first
    search is :func:`compiled_mcts`'s with the same seed; a kept tree goes on with its own
    random stream, a fresh one after the first takes a seed drawn from ``seed``.

    >>> from searchlab.core.game import play
    >>> from searchlab.games import make
    >>> game = make("connect4")
    >>> searcher = CompiledSearcher(game, MCTSOptions(), seed=1)
    >>> first = searcher.search(game.initial_state(), Limits(simulations=2000))
    >>> second = searcher.search(play(game.initial_state(), "4 4"), Limits(simulations=2000))
    >>> second.stats["reused_visits"] > 0, second.stats["simulations"]
    (True, 2000)
    """

    report_rave = True
    """Whether ``stats`` carries ``rave`` (Go's results never did)."""

    def __init__(
        self,
        game: Game,
        options: MCTSOptions,
        seed: int | None,
        *,
        rules: CompiledGame | None = None,
    ) -> None:
        reason = options.why_not_compiled(game)
        if reason is not None or (rules is None and compiled_game_for(game) is None):
            why = reason or f"{type(game).__name__} has no compiled rules"
            raise InvalidParameterError(f"mcts: the compiled tier cannot search: {why}")
        self.game = game
        self.options = options
        self._rules = rules
        self._seed = random.SystemRandom().getrandbits(63) if seed is None else seed
        self._seeds = random.Random(self._seed)
        self._first = True
        self._search: _Search | None = None
        self._helpers: list[_Search] = []
        """With ``threads > 1``: the trees of threads 1, 2, ... (``_search`` is thread 0's)."""
        self._root: State | None = None

    def prepare(self, state: State | None = None) -> None:
        """Load (or, on an empty cache, compile: 10 to 60 s, said in one line on stderr) the
        kernels a search of ``state`` (default: the start) needs, before any clock starts;
        once per process and game (a later call costs a position's encoding). :meth:`search`
        does it too before its own clock; callers that time the whole move (an agent, the
        arena's time control) call this first."""
        state = self.game.initial_state() if state is None else state
        if state.is_terminal():
            return
        kernel = _kernel_for(self.game, state, self.options, self._rules)
        if kernel is not None:
            _make_ready(kernel, self.game, state, self.options, self._rules)

    def reset(self) -> None:
        """Forget the tree (the next search starts afresh)."""
        self._search = None
        self._helpers = []
        self._root = None

    def snapshot(self) -> SearchSnapshot:
        """The root's statistics now (see :class:`~searchlab.algorithms.mcts.results.
        SearchSnapshot`): read between the kernel's slices, also from another thread."""
        search, root = self._search, self._root
        if search is None or root is None:
            return EMPTY_SNAPSHOT
        # one read of the blocks: every field from the same arrays, whatever the search
        # thread rebinds meanwhile (growth, a kept subtree)
        helpers = self._helpers
        if not helpers:
            return snapshot_of(search._children(None, L.Tree.view(search.tree.blocks)))
        views = [L.Tree.view(tree.tree.blocks) for tree in (search, *helpers)]
        return snapshot_of(search._children(None, merge_roots(views)))

    def tree_view(self, depth: int, width: int) -> dict[str, Any] | None:
        """The last search's tree, ``depth`` plies deep, ``width`` children a node
        (:func:`~searchlab.algorithms.mcts.results.array_tree_view`; for pictures); ``None``
        before a search. With ``threads > 1``, thread 0's tree."""
        search = self._search
        if search is None:
            return None
        tree = search.tree

        def children(node: int) -> Sequence[int]:
            first = int(tree.first[node])
            if first < 0:
                return ()
            block = range(first, first + int(tree.n_expanded[node]))
            return [child for child in block if tree.status[child] != L.ILLEGAL]

        def stats(node: int) -> tuple[int, int, float, float | None]:
            visits = int(tree.visits[node])
            mean = float(tree.value[node]) / visits if visits else 0.0
            proven = float(tree.proven[node]) if tree.is_proven[node] else None
            return int(tree.action[node]) if node else -1, visits, mean, proven

        return array_tree_view(children, stats, depth=depth, width=width)

    def _find_reusable(self, state: State, search: _Search | None = None) -> int:
        """The node of ``state`` in the previous tree (``search``'s, default thread 0's; -1:
        none): where the game's ``moves_between`` leads, else among the first turns (by
        ``key()``)."""
        search = self._search if search is None else search
        if search is None or self._root is None:
            return -1
        tree = search.tree
        moves_between = search.kernel.moves_between
        if moves_between is not None:
            return self._follow(moves_between(self._root, state), search)
        key, player = state.key(), state.current_player()
        own = self._root.current_player()
        frontier = [(0, self._root, False)]
        while frontier:
            following = []
            for node, position, replied in frontier:
                mover = position.current_player()
                if mover == player and position.key() == key:
                    return node
                if (replied and mover == own) or tree.first[node] < 0:
                    continue
                first = int(tree.first[node])
                for child in range(first, first + int(tree.n_expanded[node])):
                    after = position.apply(int(tree.action[child]))
                    following.append((child, after, replied or mover != own))
            frontier = following
        return -1

    def _follow(self, moves: Any, search: _Search) -> int:
        """The node the ``moves`` lead to from the root of ``search``'s tree through made,
        legal children (-1: none, or ``moves`` is ``None``)."""
        tree = search.tree
        if moves is None or tree.first[0] < 0:
            return -1
        node = 0
        for move in moves:
            first = int(tree.first[node])
            if first < 0:
                return -1
            block = tree.action[first : first + int(tree.n_expanded[node])]
            hits = np.flatnonzero(block == move)
            if hits.size == 0 or tree.status[first + int(hits[0])] == L.ILLEGAL:
                return -1
            node = first + int(hits[0])
        return node

    def search(self, state: State, limits: Limits) -> SearchResult:
        """Search ``state`` within ``limits`` (checked by the caller), keeping what the
        previous tree knows of it."""
        options = self.options
        if state.is_terminal():
            self.reset()
            return terminal_result(
                state, algorithm="mcts", tier="compiled", start=time.perf_counter(),
                reused_visits=0, scale=returns_scale(self.game, options.value_scale, "mcts"),
                c=options.c,
            )  # fmt: skip
        kernel = _kernel_for(self.game, state, options, self._rules)
        if kernel is None:
            raise InvalidParameterError(
                f"mcts: the compiled tier has no {type(state).__name__} positions"
            )
        _make_ready(kernel, self.game, state, options, self._rules)
        began = time.perf_counter()  # the clock starts with the kernel loaded (or compiled)
        if options.threads > 1 and _shares_a_tree(kernel, options):
            return self._search_shared(state, kernel, limits, began)
        if options.threads > 1:
            return self._search_threads(state, kernel, limits, began)
        search, reused = self._one_tree(state, kernel, limits)
        self._search, self._root = search, state
        deadline = None if limits.time is None else began + limits.time
        stopped_by = search.run(limits.simulations, deadline)
        rule = RULES[options.final_move]
        chosen = search.final_choice(rule)
        if chosen < 0 and options.final_move == "robust" and stopped_by != "proven":
            # Robust-max child: search on (up to half the budget again) until the most
            # visited child is also the best valued one, as the reference tier does.
            extra = None if limits.simulations is None else max(1, int(limits.simulations) // 2)
            extra_deadline = None if limits.time is None else time.perf_counter() + limits.time / 2
            stopped_by = search.run(extra, extra_deadline, robust=True)
            chosen = search.final_choice(rule)
        if chosen < 0:
            chosen = search.final_choice(MOST_VISITS)
        return search.result(chosen, stopped_by, began, list(state.legal_actions()), reused)

    def _one_tree(self, state: State, kernel: _Kernel, limits: Limits) -> tuple[_Search, int]:
        """The tree of a search of ``state`` on one thread or shared by all: the previous
        tree's subtree where it holds ``state`` (and the simulations it inherits), else a
        fresh one seeded by the searcher's seed (its first search) or its stream."""
        node = self._find_reusable(state)
        if node >= 0 and self._search is not None:
            search = self._search
            reused = search.reroot(node, kernel, limits)
        else:
            seed = self._seed if self._first else self._seeds.getrandbits(63)
            search = _Search(kernel, limits, self.options, seed, self.report_rave)
            reused = 0
        self._first = False
        return search, reused

    def _search_shared(
        self, state: State, kernel: _Kernel, limits: Limits, began: float
    ) -> SearchResult:
        """Tree parallelism (:mod:`~searchlab.algorithms.mcts.tree_parallel`): the threads
        simulate in one tree (kept from the previous search where it holds ``state``), each
        with its own copy of the position and its own random stream, the budget split."""
        options = self.options
        shares = _thread_limits(limits, options.threads)
        search, reused = self._one_tree(state, kernel, limits)
        self._search, self._helpers, self._root = search, [], state
        lanes = []
        for index in range(len(shares)):
            own = kernel if index == 0 else _kernel_for(self.game, state, options, self._rules)
            assert own is not None  # as for ``kernel``
            word = int(search.tree.rng_state[0]) if index == 0 else self._seeds.getrandbits(63)
            lanes.append(Lane.make(own.config, own.a, own.b, word if index == 0 else
                                   int(seed_state(word))))  # fmt: skip
        lanes[0].counters[:] = search.tree.counters  # the root made, the nodes kept
        room = 2 * kernel.max_branching

        def run(parts: Sequence[int | None], deadline: float | None, robust: bool) -> str:
            return run_shared(
                search.tree, kernel.search, lanes, parts, deadline,
                lambda budget: search.settings(budget, robust, virtual_loss=True), room,
                search.grow, search.check,
            )  # fmt: skip

        deadline = None if limits.time is None else began + limits.time
        stopped_by = run([share.simulations for share in shares], deadline, False)
        rule = RULES[options.final_move]
        chosen = search.final_choice(rule)
        if chosen < 0 and options.final_move == "robust" and stopped_by != "proven":
            extra = None if limits.simulations is None else max(1, limits.simulations // 2)
            end = None if limits.time is None else time.perf_counter() + limits.time / 2
            stopped_by = run(split_budget(extra, len(lanes)), end, True)
            chosen = search.final_choice(rule)
        if chosen < 0:
            chosen = search.final_choice(MOST_VISITS)
        search.tree.rng_state[0] = lanes[0].rng_state[0]
        result = search.result(chosen, stopped_by, began, list(state.legal_actions()), reused)
        return dataclasses.replace(
            result,
            stats={
                **result.stats,
                "threads": len(lanes),
                "parallel": "tree",
                "thread_simulations": [lane.simulations for lane in lanes],
            },
        )

    def _search_threads(
        self, state: State, kernel: _Kernel, limits: Limits, began: float
    ) -> SearchResult:
        """Root parallelism (:mod:`~searchlab.algorithms.mcts.root_parallel`): one tree a
        thread (kept from the previous search where it holds ``state``, else fresh: thread
        ``i``'s first tree seeded :func:`~.root_parallel.thread_seed`\\ ``(seed, i)``), the
        budget split, the roots merged for the final move."""
        options = self.options
        shares = _thread_limits(limits, options.threads)
        previous = [self._search, *self._helpers] if self._search is not None else []
        searches: list[_Search] = []
        reused = 0
        for index, share in enumerate(shares):
            # each thread its own position words and config (a game's arrays are not shared)
            own = kernel if index == 0 else _kernel_for(self.game, state, options, self._rules)
            assert own is not None  # as for ``kernel``
            old = previous[index] if index < len(previous) else None
            node = -1 if old is None else self._find_reusable(state, old)
            if old is not None and node >= 0:
                reused += old.reroot(node, own, share)
                searches.append(old)
                continue
            seed = thread_seed(self._seed, index) if self._first else self._seeds.getrandbits(63)
            searches.append(_Search(own, share, options, seed, self.report_rave))
        self._first = False
        self._search, self._helpers, self._root = searches[0], searches[1:], state
        deadline = None if limits.time is None else began + limits.time
        simulations = [share.simulations for share in shares]
        stopped_by = _run_threads(searches, simulations, deadline)
        rule = RULES[options.final_move]
        merged = merge_roots([search.tree for search in searches])
        chosen = _merged_choice(merged, rule, options.solver)
        if chosen < 0 and options.final_move == "robust" and stopped_by != "proven":
            # search on, all threads, up to half the budget again, in up to eight rounds,
            # until the merged most visited child is also the best valued one
            extra = None if limits.simulations is None else max(1, limits.simulations // 2)
            rounds = 8
            end = None if limits.time is None else time.perf_counter() + limits.time / 2
            for _ in range(rounds):
                per_round = None if extra is None else max(len(searches), extra // rounds)
                round_end = (
                    None
                    if end is None
                    else min(end, time.perf_counter() + (limits.time or 0.0) / (2 * rounds))
                )
                parts = split_budget(per_round, len(searches))
                stopped_by = _run_threads(searches, parts, round_end)
                merged = merge_roots([search.tree for search in searches])
                chosen = _merged_choice(merged, rule, options.solver)
                if chosen >= 0 or stopped_by == "proven":
                    break
                if end is not None and time.perf_counter() >= end:
                    break
        if chosen < 0:
            chosen = _merged_choice(merged, MOST_VISITS, options.solver)
        return self._merged_result(
            searches, merged, chosen, stopped_by, began, list(state.legal_actions()), reused
        )

    def _merged_result(
        self,
        searches: list[_Search],
        merged: Any,
        chosen: int,
        stopped_by: str,
        began: float,
        legal_actions: list[int],
        reused_visits: int,
    ) -> SearchResult:
        """The result of a search on several threads: :meth:`_Search.result`'s shape, from
        the merged root (``chosen`` a slot of it); ``nodes`` and ``simulations`` the trees'
        sums, ``depth`` the deepest, the principal variation below the chosen move that of
        the tree where it has the most visits; ``stats["threads"]`` the threads."""
        head = searches[0]
        if chosen < 0:
            line: tuple[int, ...] = ()
        elif chosen in merged.owner:
            index, node = merged.owner[chosen]
            line = searches[index]._principal_variation(node)
        else:
            line = (int(merged.action[chosen]),)
        return _root_result(
            merged,
            chosen,
            1 <= chosen < 1 + int(merged.n_expanded[0]),
            self.options.solver,
            line,
            sum(int(search.tree.counters[L.C_NODES]) for search in searches),
            max(int(search.tree.counters[L.C_MAX_DEPTH]) for search in searches),
            began,
            stopped_by,
            {
                "simulations": sum(search.simulations for search in searches),
                "children": head._children(legal_actions, merged),
                "reused_visits": reused_visits,
                "c": head.c,
                **head.extra_stats,
                "threads": len(searches),
                "parallel": "root",
            },
        )


def _root_result(
    tree: Any,
    chosen: int,
    is_made: bool,
    solver: bool,
    line: tuple[int, ...],
    nodes: int,
    depth: int,
    began: float,
    stopped_by: str,
    stats: dict[str, Any],
) -> SearchResult:
    """The :class:`SearchResult` for root child ``chosen`` of ``tree`` (a search's tree or the
    merged root of several; -1: none). Its value: the root's proof (``solver``), else the
    chosen child's proof, else its mean, 0 for a child not made (``is_made``) or unvisited."""
    root_value = -float(tree.proven[0]) if solver and tree.is_proven[0] else None
    if root_value is not None:
        value = root_value
    elif is_made and solver and tree.is_proven[chosen]:
        value = float(tree.proven[chosen])
    elif is_made and tree.visits[chosen]:
        value = float(tree.value[chosen]) / int(tree.visits[chosen])
    else:
        value = 0.0
    return SearchResult(
        action=int(tree.action[chosen]) if chosen >= 0 else None,
        value=value,
        principal_variation=line,
        nodes=nodes,
        depth=depth,
        elapsed=time.perf_counter() - began,
        is_proven=root_value is not None,
        stopped_by=None if stopped_by in ("proven", "robust") else stopped_by,
        algorithm="mcts",
        tier="compiled",
        stats=stats,
    )


def _shares_a_tree(kernel: _Kernel, options: MCTSOptions) -> bool:
    """Do the threads search in one tree (tree parallelism)? When ``options.parallel`` asks
    for it and the search is plain UCT, with or without the solver: RAVE's and the priors'
    block updates are not written to be shared (root parallelism there)."""
    return options.parallel == "tree" and not kernel.blocks and not options.rave


def _thread_limits(limits: Limits, threads: int) -> list[Limits]:
    """Each thread's budget: the simulations and nodes of ``limits`` split
    (:func:`~.root_parallel.split_budget`: they add up to the whole), the time the same;
    fewer threads than asked when the budget has fewer simulations or nodes than that."""
    count = threads
    for total in (limits.simulations, limits.nodes):
        if total is not None:
            count = min(count, int(total))
    return [
        dataclasses.replace(limits, simulations=simulations, nodes=nodes)
        for simulations, nodes in zip(
            split_budget(limits.simulations, count), split_budget(limits.nodes, count), strict=True
        )
    ]


_REASONS = ("proven", "time", "nodes", "simulations", "robust")
"""Why a search on several threads stopped, from its threads' reasons: the first of these
that any thread gave."""


def _run_threads(
    searches: list[_Search], simulations: Sequence[int | None], deadline: float | None
) -> str:
    """Run ``searches`` at once, each on its own thread (the first on this one) for its
    ``simulations`` until ``deadline`` (:func:`~.root_parallel.run_parallel`: a proven root,
    an error or Ctrl-C stops them all); return why the search stopped (:data:`_REASONS`)."""
    jobs = [
        lambda stopped, search=search, budget=budget: search.run(budget, deadline, stopped=stopped)
        for search, budget in zip(searches, simulations, strict=True)
    ]
    reasons = run_parallel(jobs)
    for reason in _REASONS:
        if reason in reasons:
            return reason
    return reasons[0]


def _merged_choice(merged: Any, rule: int, solver: bool) -> int:
    """The slot of the merged root (:func:`~.root_parallel.merge_roots`) that ``rule`` picks
    (-1: none)."""
    return int(
        final_choice(
            merged.first, merged.n_children, merged.n_expanded, merged.action, merged.visits,
            merged.value, merged.is_proven, merged.proven, rule, solver,
        )
    )  # fmt: skip


_READY: set[tuple[Any, bool]] = set()
"""The bound kernels (and whether with the solver) that have run once in this process."""
_READY_SIMULATIONS = 8


def _make_ready(
    kernel: _Kernel, game: Game, state: State, options: MCTSOptions, rules: CompiledGame | None
) -> None:
    """Run every compiled step a search of ``state`` takes (a few simulations, the final
    choice, keeping a subtree) once per process, so that numba loads or compiles them now, not
    inside a timed search; one line on stderr when that is long
    (:func:`~searchlab.algorithms.mcts.compile_notice.compiling`)."""
    key = (kernel.search, bool(options.solver))
    if key in _READY:
        return
    limits = Limits(simulations=_READY_SIMULATIONS)
    with compiling(kernel.name, kernel.search):
        search = _Search(kernel, limits, options, 0, report_rave=False)
        search.run(_READY_SIMULATIONS, None)
        chosen = search.final_choice(RULES[options.final_move])
        if chosen < 0:  # robust: no agreement yet
            chosen = search.final_choice(MOST_VISITS)
        if 0 <= chosen < int(search.tree.first[0]) + int(search.tree.n_expanded[0]):
            child = state.apply(int(search.tree.action[chosen]))
            after = None if child.is_terminal() else _kernel_for(game, child, options, rules)
            if after is not None:  # keeping a subtree compacts the arrays (compiled too)
                search.reroot(chosen, after, limits)
                search.run(_READY_SIMULATIONS, None)
    _READY.add(key)


def warm_up() -> None:
    """Load (or compile, on the first run: 10 to 30 s each) the kernels of Connect Four,
    Othello and Snake Go (Go's: :func:`~searchlab.algorithms.mcts.go_compiled.warm_up`).

    >>> warm_up()
    """
    options = MCTSOptions()
    for game in (Connect4(), Othello(), SnakeGo(size=5, rounds=2)):
        CompiledSearcher(game, options, 0).prepare()
