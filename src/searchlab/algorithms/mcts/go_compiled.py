"""The compiled MCTS for Go: UCT with RAVE and priors (:mod:`._kernel_go`), and a searcher
that keeps its tree between moves.

:func:`go_mcts` is the kernel :data:`~searchlab.algorithms.kernels.KERNELS` registers for
:class:`~searchlab.domains.games.go.Go`; :func:`searchlab.algorithms.mcts.mcts` reaches it
when ``tier`` allows and the options are ones it runs (``MCTSOptions.why_not_compiled``:
rollouts ``"random"`` or ``"informed"``, ``rave`` any ``k``). :class:`GoSearcher` is the
same search keeping its tree: the ``mcts`` agent with ``reuse=true`` on Go uses it.

What differs from the other compiled games (:mod:`~searchlab.algorithms.mcts.compiled`), all
for playing strength:

* ``rave=k`` mixes each child's AMAF value in (Gelly and Silver 2007; ``k = 0``: plain UCT);
* new children start with heuristic priors (captures, atari escapes, self-ataris, lone
  first-line moves, contact with the last move; :mod:`._kernel_go`); ``priors=False`` turns
  them off (then, with ``rave=0``, this is the reference tier's UCT);
* the tree holds the moves that do not fill the mover's own eye, and the pass (always); a
  legal move outside the tree (an own-eye fill) is reported with no visits;
* a node gets its children once it has been visited ``expand`` times (the root at once), a
  block at a time, so ``nodes`` counts the slots of the child blocks made;
* superko (the game's rule: positional, situational, or only the basic ko) is checked for
  every move the tree plays, against the root's ``history`` and the positions along the
  path; playouts check only the basic ko;
* ``solver`` has no effect (a game of Go ends only by passes or the move limit).

Speed and settings, measured (2026-11-23, 2-core EPYC VM shared with other jobs; raw output
``benchmarks/results/go_playouts_2026-11-23.txt``): on the empty 9x9 board 58 k simulations
per CPU second for plain UCT, 50 k with ``rave=1000`` and the priors, 26 k with the informed
rollouts, against 5.8 k for OpenSpiel's C++ ``MCTSBot`` (random rollouts). In seeded 9x9
self-play matches (colours alternated): ``rave=1000`` beat plain UCT 10/10 at 1000
simulations a move; ``k = 1000`` beat ``k = 300`` 7/10 and ``k = 3000`` 8/9; ``c = 0.3``
beat ``c = 1`` 7/10 (``c = 0.1`` against 0.3: 4/8); the informed rollouts beat the random
ones 8/10 at equal time (0.4 s a move); the priors on beat them off 6/10. Hence the spec for
strong play: ``mcts:time=1,rave=1000,c=0.3,rollout=informed,reuse=true``.

A finished game is worth the sign of the area score for the mover (the ``"outcome"`` value
scale, and any ``win_loss`` game) or the score over ``max_utility`` (``"normalised"`` with
``scoring="area"``). Time slices, growth of the arrays, the final-move rules and the result's
shape are those of :mod:`~searchlab.algorithms.mcts.compiled` (``stats``: ``simulations``,
``children``, ``reused_visits``, ``c``).

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.go import Go
>>> game = Go(7, komi=0.5)  # the row-4 white chain's last liberty is D3, the black row 5's D6
>>> state = game.position(black=[f"{c}5" for c in "ABCDEFG"] + ["A3", "B3", "C3", "E3", "F3", "G3"],
...                       white=[f"{c}4" for c in "ABCDEFG"] + ["A6", "B6", "C6", "E6", "F6", "G6"])
>>> result = go_mcts(game, state=state, limits=Limits(simulations=2000),
...                  options=MCTSOptions(rave=1000), seed=1)
>>> state.action_to_string(result.action), result.tier  # capture seven stones first
('D3', 'compiled')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from searchlab.algorithms.mcts import _kernel_go as K
from searchlab.algorithms.mcts._kernel_rng import seed_state
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.results import (
    EMPTY_SNAPSHOT,
    SearchSnapshot,
    array_tree_view,
    snapshot_of,
    terminal_result,
)
from searchlab.algorithms.mcts.slices import AGAIN, NO_LIMIT, run_in_slices
from searchlab.algorithms.mcts.value_scale import returns_scale
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.go import Go, GoState

__all__ = ["EXPAND_VISITS", "GoSearcher", "go_mcts"]

EXPAND_VISITS = 2
"""Visits a node needs before its children are made (the root's are made at once)."""
_TIME_ONLY_SLOTS = 1 << 17
_MAX_SLOTS = 1 << 22
"""The arrays stop growing here (about 190 MB); the search then goes on without new
blocks."""
_NO_LIMIT = NO_LIMIT
_SEARCH: Callable[..., int] = K.search
_COMPACT: Callable[..., int] = K.compact
_SUPERKO = {"simple": K.NO_SUPERKO, "positional": K.POSITIONAL, "situational": K.SITUATIONAL}
_FIELDS = (
    ("parent", np.int32),
    ("first", np.int32),
    ("n_children", np.int16),
    ("action", np.int16),
    ("visits", np.int32),
    ("value", np.float64),
    ("amaf_n", np.int32),
    ("amaf_w", np.float64),
    ("prior_n", np.float32),
    ("prior_w", np.float32),
    ("flags", np.int8),
)


class _Tree:
    """The node arrays (:mod:`._kernel_go`), grown by doubling."""

    def __init__(self, capacity: int) -> None:
        self.arrays = [np.empty(capacity, dtype=dtype) for _, dtype in _FIELDS]
        self.counters = np.zeros(3, dtype=np.int64)

    def __getattr__(self, name: str) -> np.ndarray:
        for index, (field, _) in enumerate(_FIELDS):
            if field == name:
                return self.arrays[index]
        raise AttributeError(name)

    @property
    def capacity(self) -> int:
        return int(self.arrays[0].shape[0])

    def grow(self, capacity: int) -> None:
        for index, old in enumerate(self.arrays):
            new = np.empty(capacity, dtype=old.dtype)
            new[: old.shape[0]] = old
            self.arrays[index] = new

    def clear(self) -> None:
        """Only the root: no children, no visits."""
        parent, first, n_children, action, visits, value, *rest = self.arrays
        parent[0], first[0], n_children[0], action[0] = -1, -1, 0, -1
        visits[0], value[0] = 0, 0.0
        for array in rest:
            array[0] = 0
        self.counters[:] = (0, 1, 0)


class GoSearcher:
    """Compiled MCTS on one :class:`~searchlab.domains.games.go.Go` game that keeps its tree
    between searches.

    :meth:`search` on a position that follows from the previous root by moves in the tree
    (the same game, the root's moves extended, the path's nodes made) keeps that subtree with
    its statistics, AMAF values and priors, copied to the front of the arrays
    (``stats["reused_visits"]``: the simulations it inherits); any other position starts a
    fresh tree. ``priors`` and ``expand`` are the internal switches of the module docstring.

    >>> from searchlab.core.limits import Limits
    >>> game = Go(size=7)
    >>> searcher = GoSearcher(game, MCTSOptions(rave=1000), seed=2)
    >>> first = searcher.search(game.initial_state(), Limits(simulations=3000))
    >>> state = game.initial_state().apply(first.action)
    >>> state = state.apply(first.principal_variation[1])  # the reply the tree expects
    >>> second = searcher.search(state, Limits(simulations=1000))
    >>> second.stats["reused_visits"] > 0, second.stats["simulations"]
    (True, 1000)
    """

    def __init__(
        self,
        game: Go,
        options: MCTSOptions,
        seed: int | None,
        *,
        priors: bool = True,
        expand: int = EXPAND_VISITS,
    ) -> None:
        if not isinstance(game, Go):
            raise InvalidParameterError(f"GoSearcher: a Go game is needed, got {game!r}")
        if expand < 1:
            raise InvalidParameterError(f"GoSearcher: expand must be >= 1, got {expand!r}")
        _load_kernel()
        self.game = game
        self.options = options
        size = game.size
        points = size * size
        self._points = points
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self._rng_state = np.array([seed_state(seed)], dtype=np.uint64)
        self._tree: _Tree | None = None
        self._root: GoState | None = None
        sign = options.value_scale == "outcome" or game.scoring == "win_loss"
        policy = K.INFORMED if options.rollout == "informed" else K.RANDOM
        self._config = np.zeros(10, dtype=np.int64)
        self._config[K.K_SIZE] = size
        self._config[K.K_SIGN] = int(sign)
        self._config[K.K_POLICY] = policy
        self._config[K.K_SUPERKO] = _SUPERKO[game.superko]
        self._config[K.K_MAX_MOVES] = game.max_moves
        self._config[K.K_PRIORS] = K.TACTICS | K.PATTERNS if priors else 0
        self._config[K.K_EXPAND] = int(expand)
        self._fconfig = np.array(
            [float(game.info.max_utility or 1.0), float(options.c), float(options.rave)]
        )
        from searchlab.domains.games.go_zobrist import SIDE_TO_MOVE_KEY

        self._side_key = np.uint64(SIDE_TO_MOVE_KEY)
        buffer = 8 * points + 64
        self._moves = np.zeros(buffer, dtype=np.int16)
        self._first_color = np.full(points + 1, -1, dtype=np.int8)
        self._path = np.zeros(buffer, dtype=np.int32)
        self._path_hash = np.zeros(buffer, dtype=np.uint64)
        self._points_buffer = np.zeros(points + 1, dtype=np.int16)
        self._root_pos: np.ndarray | None = None
        self._scratch: np.ndarray | None = None
        self._history = np.zeros(0, dtype=np.uint64)

    # --- the root -----------------------------------------------------------------------

    def _reusable_node(self, state: GoState) -> int:
        """The node of ``state`` in the current tree, or -1."""
        old, tree = self._root, self._tree
        if old is None or tree is None or state.game != old.game:
            return -1
        count = len(old.moves)
        if state.moves[:count] != old.moves or tree.first[0] < 0:
            return -1
        node = 0
        replay = old
        for move in state.moves[count:]:
            first = int(tree.first[node])
            if first < 0:
                return -1
            block = tree.action[first : first + int(tree.n_children[node])]
            hits = np.flatnonzero(block == move)
            if hits.size == 0 or tree.flags[first + int(hits[0])] & K.ILLEGAL:
                return -1
            node = first + int(hits[0])
            replay = replay.apply(move)
        if replay.key() != state.key() or replay.history != state.history:
            return -1  # a hand-built position with the same moves: not the tree's
        return node

    def _set_root(self, state: GoState, limits: Limits) -> int:
        """Make ``state`` the root (reusing the subtree when it can); the visits kept."""
        from searchlab.domains.games.go_arrays import encode

        node = self._reusable_node(state)
        if node > 0:
            assert self._tree is not None
            old = self._tree
            fresh = _Tree(old.capacity)
            used = int(_COMPACT(*old.arrays, *fresh.arrays, np.int32(node)))
            fresh.counters[:] = (0, used, 0)
            self._tree = fresh
        elif node < 0 or self._tree is None:
            slots = _TIME_ONLY_SLOTS
            if limits.simulations is not None:
                blocks = int(limits.simulations) // max(1, int(self._config[K.K_EXPAND])) + 2
                slots = max(slots, blocks * (self._points + 1))
            slots = min(slots, _MAX_SLOTS)
            if self._tree is None or self._tree.capacity < slots:
                self._tree = _Tree(slots)
            self._tree.clear()
        else:
            self._tree.counters[K.C_SIMULATIONS] = 0
            self._tree.counters[K.C_MAX_DEPTH] = 0
        tree = self._tree
        self._config[K.K_CAN_GROW] = int(tree.capacity < _MAX_SLOTS)
        self._root = state
        self._root_pos = encode(state)
        self._scratch = np.empty_like(self._root_pos)
        self._history = np.array(sorted(state.history), dtype=np.uint64)
        self._config[K.K_ROOT_MOVES] = len(state.moves)
        self._config[K.K_LAST_MOVE] = -1 if state.last_move is None else int(state.last_move)
        return int(tree.visits[0])

    # --- the search ---------------------------------------------------------------------

    def _call(self, max_simulations: int, max_nodes: int) -> int:
        tree = self._tree
        assert tree is not None
        return int(
            _SEARCH(
                self._config, self._fconfig, *tree.arrays, self._root_pos, self._history,
                self._side_key, self._scratch, self._moves, self._first_color, self._path,
                self._path_hash, self._points_buffer, tree.counters, self._rng_state,
                max_simulations, max_nodes,
            )
        )  # fmt: skip

    def _run(
        self, simulations: int | None, deadline: float | None, max_nodes: int, robust: bool
    ) -> str:
        """Simulate until ``simulations`` more, the clock passes ``deadline`` (after one
        simulation at least), the node limit or (``robust``) agreement of the most visited
        and best valued root child; which stopped it (slices:
        :func:`~searchlab.algorithms.mcts.slices.run_in_slices`)."""
        tree = self._tree
        assert tree is not None

        def step(budget: int) -> str | None:
            code = self._call(budget, max_nodes)
            if code == K.GROW:
                capacity = min(2 * tree.capacity, _MAX_SLOTS)
                tree.grow(capacity)
                self._config[K.K_CAN_GROW] = int(capacity < _MAX_SLOTS)
                return AGAIN
            return "nodes" if code == K.NODE_LIMIT else None

        def robust_child() -> str | None:
            return "robust" if robust and self._choice("robust") >= 0 else None

        return run_in_slices(
            step, lambda: int(tree.counters[K.C_SIMULATIONS]), simulations=simulations,
            deadline=deadline, after_slice=robust_child, short_slices=robust,
        )  # fmt: skip

    def snapshot(self) -> SearchSnapshot:
        """The root's statistics now (see :class:`~searchlab.algorithms.mcts.results.
        SearchSnapshot`): read between the kernel's slices, also from another thread."""
        if self._tree is None or self._tree.first[0] < 0:
            return EMPTY_SNAPSHOT
        return snapshot_of(
            [
                {"action": action, "visits": visits, "value": mean}
                for _, action, visits, mean in self._root_children()
            ]
        )

    def tree_view(self, depth: int, width: int) -> dict[str, Any] | None:
        """The last search's tree, ``depth`` plies deep, ``width`` children a node
        (:func:`~searchlab.algorithms.mcts.results.array_tree_view`: the legal moves only);
        ``None`` before a search."""
        tree = self._tree
        if tree is None:
            return None

        def children(node: int) -> list[int]:
            first = int(tree.first[node])
            if first < 0:
                return []
            block = range(first, first + int(tree.n_children[node]))
            return [child for child in block if not tree.flags[child] & K.ILLEGAL]

        def stats(node: int) -> tuple[int, int, float, float | None]:
            visits = int(tree.visits[node])
            mean = float(tree.value[node]) / visits if visits else 0.0
            return int(tree.action[node]) if node else -1, visits, mean, None

        return array_tree_view(children, stats, depth=depth, width=width)

    def _root_children(self) -> list[tuple[int, int, int, float]]:
        """``(node, action, visits, mean)`` of the root's visited, legal children."""
        tree = self._tree
        assert tree is not None
        first = int(tree.first[0])
        if first < 0:
            return []
        out = []
        for child in range(first, first + int(tree.n_children[0])):
            visits = int(tree.visits[child])
            if visits and not tree.flags[child] & K.ILLEGAL:
                mean = float(tree.value[child]) / visits
                out.append((child, int(tree.action[child]), visits, mean))
        return out

    def _choice(self, rule: str) -> int:
        """The root child ``rule`` picks (:mod:`~searchlab.algorithms.mcts._kernel_final`'s
        rules, among the visited children), or -1."""
        children = self._root_children()
        if not children:
            return -1
        most = max(children, key=lambda c: (c[2], c[3], -c[1]))
        best = max(children, key=lambda c: (c[3], c[2], -c[1]))
        if rule == "most_visits":
            return most[0]
        if rule == "best_value":
            return best[0]
        return most[0] if most[0] == best[0] else -1

    def search(self, state: GoState, limits: Limits) -> SearchResult:
        """Search ``state`` (a position of this searcher's game) within ``limits``
        (``simulations`` and/or ``time``; ``nodes`` caps the slots of the tree)."""
        began = time.perf_counter()
        options = self.options
        if state.is_terminal():
            self._root = None
            return terminal_result(
                state, algorithm="mcts", tier="compiled", start=began,
                scale=returns_scale(self.game, options.value_scale, "mcts"), reused_visits=0,
                c=options.c,
            )  # fmt: skip
        reused = self._set_root(state, limits)
        max_nodes = _NO_LIMIT if limits.nodes is None else int(limits.nodes)
        deadline = None if limits.time is None else began + limits.time
        stopped_by = self._run(limits.simulations, deadline, max_nodes, robust=False)
        chosen = self._choice(options.final_move)
        if chosen < 0 and options.final_move == "robust" and stopped_by != "nodes":
            extra = None if limits.simulations is None else max(1, int(limits.simulations) // 2)
            extra_deadline = None if limits.time is None else time.perf_counter() + limits.time / 2
            stopped_by = self._run(extra, extra_deadline, max_nodes, robust=True)
            chosen = self._choice("robust")
        if chosen < 0:
            chosen = self._choice("most_visits")
        return self._result(state, chosen, stopped_by, began, reused)

    def _result(
        self, state: GoState, chosen: int, stopped_by: str, began: float, reused: int
    ) -> SearchResult:
        tree = self._tree
        assert tree is not None
        legal = set(state.legal_actions())
        entries: dict[int, dict[str, Any]] = {}
        first = int(tree.first[0])
        if first >= 0:
            for child in range(first, first + int(tree.n_children[0])):
                act = int(tree.action[child])
                if act not in legal:
                    continue
                visits = int(tree.visits[child])
                entries[act] = {
                    "action": act,
                    "visits": visits,
                    "value": float(tree.value[child]) / visits if visits else 0.0,
                    "prior": None,
                    "proven": None,
                }
        for act in legal - entries.keys():
            entries[act] = {"action": act, "visits": 0, "value": 0.0, "prior": None, "proven": None}
        children = sorted(entries.values(), key=lambda e: (-e["visits"], e["action"]))
        if chosen >= 0:
            action: int | None = int(tree.action[chosen])
            value = float(tree.value[chosen]) / max(1, int(tree.visits[chosen]))
            line = [int(tree.action[chosen])]
            node = chosen
            while tree.first[node] >= 0:
                f = int(tree.first[node])
                block = tree.visits[f : f + int(tree.n_children[node])]
                best = int(np.argmax(block))
                if block[best] == 0:
                    break
                node = f + best
                line.append(int(tree.action[node]))
            pv = tuple(line)
        else:
            action, value, pv = None, 0.0, ()
        return SearchResult(
            action=action,
            value=value,
            principal_variation=pv,
            nodes=int(tree.counters[K.C_USED]),
            depth=int(tree.counters[K.C_MAX_DEPTH]),
            elapsed=time.perf_counter() - began,
            is_proven=False,
            stopped_by=None if stopped_by == "robust" else stopped_by,
            algorithm="mcts",
            tier="compiled",
            stats={
                "simulations": int(tree.counters[K.C_SIMULATIONS]),
                "children": children,
                "reused_visits": reused,
                "c": self.options.c,
            },
        )


def go_mcts(
    game: Go,
    *,
    state: GoState,
    limits: Limits,
    options: MCTSOptions,
    seed: int | None,
) -> SearchResult | None:
    """Compiled MCTS (RAVE with ``options.rave``, priors) from ``state`` of ``game``, with a
    fresh tree, or ``None`` when the options need the reference tier or ``state`` is not a
    :class:`~searchlab.domains.games.go.GoState`.

    The arguments are those :func:`searchlab.algorithms.mcts.mcts` has checked; the result
    has the reference tier's shape with ``tier="compiled"``.
    """
    if options.why_not_compiled(game) is not None or type(state) is not GoState:
        return None
    return GoSearcher(game, options, seed).search(state, limits)


_loaded = False


def _load_kernel() -> None:
    """Load (or compile) the kernel once per process, so that the first timed search does
    not spend its budget on it (loading the cached kernel takes about a second)."""
    global _loaded
    if not _loaded:
        _loaded = True
        game = Go(size=5)
        GoSearcher(game, MCTSOptions(), 0).search(game.initial_state(), Limits(simulations=8))


def warm_up() -> None:
    """Load (or compile, on the first run) the Go kernel.

    >>> warm_up()
    """
    _load_kernel()
