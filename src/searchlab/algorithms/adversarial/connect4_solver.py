"""The compiled exact-score Connect Four solver (Pascal Pons' design, in numba).

Scores follow Pons' convention, for the player to move: ``0`` a draw; ``22 - k`` when the mover
wins with their ``k``-th stone; ``k - 22`` when the opponent wins with their ``k``-th stone (so
wins sooner score higher, losses later score higher). See
``shared/data/connect4_pons/README.md``.

The search, as in Pons' solver without an opening book:

* bitboards: ``current`` (the mover's stones) and ``mask`` (all stones), 64-bit integers;
* an immediate win is found before searching; inside the search the mover never has one
  (the parent only plays *non-losing* moves: it blocks a single threat, gives up against two,
  and never plays under an opponent's threat);
* negamax with alpha-beta, the window clipped by the stones left on the board;
* iterative narrowing of the score by null-window searches (like MTD), probing near 0 first;
* a transposition table of preallocated numpy arrays (``2**table_log2`` entries, a prime
  number of slots, key ``current + mask``) holding a lower or an upper bound per position;
* move ordering by the number of threats a move creates, centre column first among equals.

A solve returns a :class:`~searchlab.core.search_result.SearchResult` whose ``score`` is Pons'
score and whose ``value`` is in the units of the game's ``returns()`` (+1 win, 0 draw, -1 loss).
It can be limited (``limits=Limits(nodes=..., time=...)``) and stopped from another thread
(:meth:`Connect4Solver.stop`): the kernels release the GIL and check a shared node budget at
every node, so a deadline (kept by a timer thread) or a stop ends the search within one node,
and the bounds on the score proved so far are reported. Node counts do not change: an
unlimited solve runs as one uninterrupted search.

>>> result = solve_connect4("4455")
>>> result.score, result.value, result.action  # Pons' page: 4455 scores 18
(18, 1.0, 2)
>>> solve_connect4("44455554221").score  # the opponent wins next move with their 7th stone
-15
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.algorithms.adversarial import _connect4_kernels as kernels
from searchlab.algorithms.adversarial.connect4_book import Connect4Book, default_book
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.connect4 import Connect4, Connect4State, bits, parse_moves

__all__ = [
    "Connect4Solver",
    "alphabeta_connect4",
    "plies_to_end",
    "solve_as_reference",
    "solve_connect4",
    "warm_up",
]

# The board rules at the root, as plain Python (the game's own functions, not copies).
_playable = bits.playable.py_func
_column_mask = bits.column_mask.py_func
_CELLS = kernels.CELLS
_UNLIMITED = int(np.iinfo(np.int64).max)


def _largest_prime_at_most(n: int) -> int:
    def is_prime(k: int) -> bool:
        if k < 2 or k % 2 == 0:
            return k == 2
        return all(k % d for d in range(3, int(k**0.5) + 1, 2))

    while not is_prime(n):
        n -= 1
    return n


def _as_state(position: Connect4State | str) -> Connect4State:
    return parse_moves(position) if isinstance(position, str) else position


def plies_to_end(score: int, num_moves: int) -> int | None:
    """Plies until the game ends with best play, from Pons' ``score`` of a position with
    ``num_moves`` stones; ``None`` for a draw.

    >>> plies_to_end(18, 4), plies_to_end(-15, 11)  # a win in 3 plies; a loss after 2
    (3, 2)
    """
    if score == 0:
        return None
    mover_stones = num_moves // 2
    if score > 0:
        return 2 * (22 - score - mover_stones) - 1
    return 2 * (22 + score - (num_moves - mover_stones))


class Connect4Solver:
    """An exact solver with its own transposition table (reuse it for many positions).

    Args:
        table_log2: the table has the largest prime number of slots at most
            ``2**table_log2`` (8 bytes each: about 67 MB for the default 23).
        threads: search threads sharing the table (Lazy SMP with simplified ABDADA: the
            helpers put off the moves another thread is searching; the first thread to finish
            answers, exactly). ``1`` (the default) is one uninterrupted search whose node count
            is reproducible; with more, ``nodes`` is the sum over the threads, varies from run
            to run, and a node budget applies to each thread.
        book: an opening book (:class:`~searchlab.algorithms.adversarial.connect4_book.
            Connect4Book` or the path of a book file), ``"default"`` (the book shipped with
            searchlab, read on first use) or ``None`` (search every position). A position in
            the book, or whose children all are, is answered with 0 nodes.

    >>> solver = Connect4Solver(table_log2=16)
    >>> solver.score("4455"), solver.score("44455554221"), solver.score("4455", weak=True)
    (18, -15, 1)
    >>> solver.best_move("4455") in (2, 5)  # column 3 or 6: an open three on the bottom row
    True
    """

    def __init__(
        self,
        *,
        table_log2: int = 23,
        threads: int = 1,
        book: Connect4Book | str | Path | None = "default",
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise InvalidParameterError(f"threads must be an integer >= 1, got {threads!r}")
        if threads > _MAX_THREADS:
            raise InvalidParameterError(f"threads must be at most {_MAX_THREADS}, got {threads}")
        self.threads = threads
        self._book_spec = book
        self._book: Connect4Book | None = None
        self._book_loaded = False
        if isinstance(table_log2, bool) or not isinstance(table_log2, int):
            raise InvalidParameterError(f"table_log2 must be an integer, got {table_log2!r}")
        if not 10 <= table_log2 <= 30:
            raise InvalidParameterError(f"table_log2 must be within 10..30, got {table_log2}")
        size = _largest_prime_at_most(1 << table_log2)
        self.table = np.empty(size, dtype=np.int64)
        self.table.fill(0)  # touch every page now, not during the first searches
        # an entry: generation | quotient << 8 | value (see the kernel); keys have 49 bits
        self._generation_shift = 8 + (1 << 49).bit_length() - size.bit_length() + 1
        self._max_generation = (1 << (63 - self._generation_shift)) - 1
        self.generation = 1
        self._buffer = np.zeros((_CELLS + 1, 2 * kernels.WIDTH), dtype=np.int64)
        # [nodes, budget, aborted, low, high]: shared with the kernels (see _connect4_kernels)
        self._counter = np.zeros(5, dtype=np.int64)
        self._counter[kernels.BUDGET] = _UNLIMITED
        self._order = kernels.COLUMN_ORDER_ADDED.copy()
        # Lazy SMP helpers: each its own move buffer, counter and tie-break order; one table
        self._helpers = [
            (np.zeros_like(self._buffer), np.zeros_like(self._counter), _helper_order(i))
            for i in range(1, threads)
        ]
        # the positions being searched now, shared by the threads (empty: one thread)
        self._busy = np.zeros(_BUSY_SLOTS if threads > 1 else 0, dtype=np.int64)
        self._lock = threading.Lock()
        self._running: object | None = None  # the token of the solve in progress
        self._stopped_by: str | None = None

    @property
    def nodes(self) -> int:
        """Positions searched since the last :meth:`solve` began (later :meth:`score` and
        :meth:`best_move` calls add theirs)."""
        return int(self._counter[kernels.NODES])

    def stop(self) -> None:
        """Stop the :meth:`solve` in progress, if any, within one node (safe to call from any
        thread, e.g. on Ctrl-C while another thread solves); it returns the bounds proved so
        far with ``stopped_by="stop"``."""
        self._stop(self._running, "stop")

    def _stop(self, token: object | None, reason: str) -> None:
        with self._lock:
            if token is not None and self._running is token:
                if self._stopped_by is None:
                    self._stopped_by = reason
                self._counter[kernels.BUDGET] = 0
                for _, counter, _ in self._helpers:
                    counter[kernels.BUDGET] = 0

    @property
    def book(self) -> Connect4Book | None:
        """The opening book this solver reads (loaded on first use; ``None`` without one)."""
        if not self._book_loaded:
            spec = self._book_spec
            if spec is None or isinstance(spec, Connect4Book):
                self._book = spec
            elif spec == "default":
                self._book = default_book()
            else:
                self._book = Connect4Book.load(Path(spec))
            self._book_loaded = True
        return self._book

    def reset(self) -> None:
        """Forget every table entry (O(1): entries of older generations never match)."""
        self.generation += 1
        if self.generation > self._max_generation:
            self.table[:] = 0
            self.generation = 1

    def _check(self, state: Connect4State) -> None:
        if state.is_terminal():
            outcome = "a draw" if not state.is_won else f"{'XO'[1 - state.current_player()]} won"
            raise InvalidStateError(
                f"position {state.moves!r}: the game is already over ({outcome})"
            )

    @property
    def _aborted(self) -> bool:
        return bool(self._counter[kernels.ABORTED])

    def _args(self) -> tuple[Any, ...]:
        return (
            self.table,
            self.generation << self._generation_shift,
            self._buffer,
            self._counter,
            self._order,
            self._busy,
        )

    def _bounds(self, state: Connect4State, weak: bool) -> tuple[int, int]:
        """``(low, high)``: the bounds on the score proved (equal unless stopped); with
        ``weak``, on its sign."""
        current, mask, n = state.current, state.mask, state.num_moves
        if kernels.winning_cells(current, mask) & _playable(mask):
            score = 1 if weak else (_CELLS + 1 - n) // 2
            return score, score
        book = self.book
        if book is not None:
            known = book.score(current, mask, n)
            if known is not None:
                score = _sign(known) if weak else known
                return score, score
        low, high = -((_CELLS - n) // 2), (_CELLS + 1 - n) // 2
        if weak:
            low, high = -1, 1
        if self._helpers:
            low, high = self._parallel_solve(current, mask, n, low, high)
        else:
            kernels.solve(current, mask, n, low, high, *self._args())
            low, high = int(self._counter[kernels.LOW]), int(self._counter[kernels.HIGH])
        if weak:  # fail-soft: a weak search may return any bound beyond its window
            return max(-1, min(low, 1)), max(-1, min(high, 1))
        return low, high

    def _parallel_solve(
        self, current: int, mask: int, n: int, low: int, high: int
    ) -> tuple[int, int]:
        """Lazy SMP: this thread and ``threads - 1`` helper threads run the same null-window
        search of the root (each with its own tie-break order among equally ranked moves) over
        the one shared table; the first to finish stops the others, and its bounds are the
        answer (every table entry is a proven bound, so whoever finishes is exact). The node
        count is the sum over the threads."""
        main, busy = self._counter, self._busy
        busy.fill(0)
        table, generation = self.table, self.generation << self._generation_shift
        saved_budget = int(main[kernels.BUDGET])
        winner: list[tuple[int, int]] = []

        def finish(counter: np.ndarray) -> None:
            with self._lock:
                if counter[kernels.ABORTED] or winner:
                    return
                winner.append((int(counter[kernels.LOW]), int(counter[kernels.HIGH])))
                main[kernels.BUDGET] = 0
                for _, other, _ in self._helpers:
                    other[kernels.BUDGET] = 0

        def helper(buffer: np.ndarray, counter: np.ndarray, order: np.ndarray) -> None:
            kernels.solve(
                current, mask, n, low, high, table, generation, buffer, counter, order, busy
            )
            finish(counter)

        threads = []
        with self._lock:
            stopped = self._stopped_by is not None or saved_budget == 0
            for _, counter, _ in self._helpers:
                counter[kernels.NODES] = counter[kernels.ABORTED] = 0
                counter[kernels.BUDGET] = 0 if stopped else saved_budget
        for buffer, counter, order in self._helpers:
            thread = threading.Thread(target=helper, args=(buffer, counter, order), daemon=True)
            thread.start()
            threads.append(thread)
        kernels.solve(current, mask, n, low, high, *self._args())
        finish(main)
        with self._lock:  # the main search ended (a node budget, a stop): end the helpers
            for _, counter, _ in self._helpers:
                counter[kernels.BUDGET] = 0
        for thread in threads:
            thread.join()
        main[kernels.NODES] += sum(int(counter[kernels.NODES]) for _, counter, _ in self._helpers)
        with self._lock:
            if winner:
                if self._stopped_by is None:  # a helper won: the main search was not stopped
                    main[kernels.ABORTED] = 0
                    main[kernels.BUDGET] = saved_budget
                return winner[0]
        return int(main[kernels.LOW]), int(main[kernels.HIGH])

    def _unlimited(self) -> None:
        """Lift a budget left by a stopped solve, for a call outside :meth:`solve`."""
        if self._running is None:
            self._counter[kernels.BUDGET] = _UNLIMITED
            self._counter[kernels.ABORTED] = 0

    def score(self, position: Connect4State | str, *, weak: bool = False) -> int:
        """Pons' score of ``position`` (a state or a move string) for the player to move; with
        ``weak``, only its sign (``-1``, ``0``, ``+1``). Keeps the table from earlier calls."""
        state = _as_state(position)
        self._check(state)
        self._unlimited()
        return self._bounds(state, weak)[0]

    def best_move(self, position: Connect4State | str, score: int | None = None) -> int:
        """A column (0-based) that keeps the exact ``score`` (computed when not given): the
        first in the search's move order."""
        state = _as_state(position)
        self._check(state)
        self._unlimited()
        if score is None:
            score = self._bounds(state, False)[0]
        column = self._best_move(state, score)
        assert column is not None  # unlimited: never stopped
        return column

    def _best_move(self, state: Connect4State, score: int) -> int | None:
        """:meth:`best_move` of a checked state; ``None`` when the budget ran out."""
        current, mask, n = state.current, state.mask, state.num_moves
        wins = kernels.winning_cells(current, mask) & _playable(mask)
        if wins:
            return _column_of(wins & -wins)
        book = self.book
        if book is not None:
            for column in _CENTRE_FIRST:
                if state.can_play(column):
                    child = state.apply(column)
                    if child.is_terminal():
                        continue
                    known = book.score(child.current, child.mask, n + 1)
                    if known is not None and -known == score:
                        return column
        safe = int(kernels.non_losing_moves(current, mask))
        order = sorted(
            (c for c in range(kernels.WIDTH) if safe & _column_mask(c)),
            key=lambda c: (
                -kernels.popcount(kernels.winning_cells(current | (safe & _column_mask(c)), mask))
            ),
        )  # stable: centre-first order among equals, as in the search
        args = self._args()
        for column in order:
            move = safe & _column_mask(column)
            child_score = kernels.negamax(
                current ^ mask, mask | move, n + 1, -score, -score + 1, *args
            )
            if self._aborted:
                return None
            if child_score <= -score:
                return column
        return next(c for c in _CENTRE_FIRST if state.can_play(c))  # every move loses at once

    def solve(
        self,
        position: Connect4State | str,
        *,
        weak: bool = False,
        find_move: bool = True,
        principal_variation: bool = False,
        reset: bool = True,
        limits: Limits | None = None,
    ) -> SearchResult:
        """Solve ``position`` (a state or Pons' move string) exactly.

        Returns a :class:`SearchResult`: ``score`` = Pons' score (with ``weak``, only its
        sign), ``value`` its sign (the game's returns: +1 win, 0 draw, -1 loss), ``action`` a
        best column (``None`` unless ``find_move``), ``nodes`` the positions searched
        (``stats["score_nodes"]`` those of the score alone, the figure Pons reports),
        ``plies_to_end`` for a decisive score, ``principal_variation`` (only when asked: it
        costs a best-move search per ply). ``reset`` clears the table first, so the node count
        of a position does not depend on what was solved before.

        ``limits.nodes`` and ``limits.time`` cap the search (:meth:`stop` ends it from another
        thread): a stopped solve has ``stopped_by`` ``"nodes"``, ``"time"`` or ``"stop"``,
        ``is_proven`` False, ``score`` None unless the score itself was finished (then only
        the move search was cut: ``action`` None), ``value`` the sign when the bounds already
        decide it (else 0), and ``stats["bounds"]`` the lower and upper bounds on the score
        proved so far.

        Raises:
            IllegalMoveError: a malformed or illegal move string.
            InvalidStateError: the game is already over.
            InvalidParameterError: ``limits`` is not a :class:`Limits`.
        """
        state = _as_state(position)
        self._check(state)
        if limits is not None and not isinstance(limits, Limits):
            raise InvalidParameterError(
                f"connect4_solver: limits must be a searchlab Limits object, got {limits!r}"
            )
        if reset:
            self.reset()
        token = object()
        counter = self._counter
        with self._lock:
            self._running, self._stopped_by = token, None
            counter[kernels.NODES] = counter[kernels.ABORTED] = 0
            budget = None if limits is None else limits.nodes
            counter[kernels.BUDGET] = _UNLIMITED if budget is None else int(budget)
        timer = None
        if limits is not None and limits.time is not None:
            timer = threading.Timer(float(limits.time), self._stop, (token, "time"))
            timer.daemon = True
            timer.start()
        try:
            start = time.perf_counter()
            low, high = self._bounds(state, weak)
            score_nodes = self.nodes
            action = None
            line: tuple[int, ...] = ()
            if not self._aborted and find_move and not weak:
                action = self._best_move(state, low)
            if not self._aborted and principal_variation and not weak:
                line = self._line(state, low)
            elapsed = time.perf_counter() - start
        finally:
            if timer is not None:
                timer.cancel()
            with self._lock:
                self._running = None
        stopped_by = (self._stopped_by or "nodes") if self._aborted else None
        exact = low == high
        ending = None if weak or not exact else plies_to_end(low, state.num_moves)
        stats: dict[str, Any] = {"score_nodes": score_nodes, "weak": weak}
        if stopped_by is not None:
            stats["bounds"] = (low, high)
        return SearchResult(
            action=action,
            value=float(_sign(low) if exact or low > 0 else _sign(high) if high < 0 else 0),
            principal_variation=line if stopped_by is None else (),
            nodes=self.nodes,
            depth=ending if ending is not None else _CELLS - state.num_moves,
            elapsed=elapsed,
            is_proven=stopped_by is None,
            plies_to_end=ending,
            stopped_by=stopped_by,
            algorithm="connect4_solver",
            tier="compiled",
            stats=stats,
            score=low if exact else None,
        )

    def _line(self, state: Connect4State, score: int) -> tuple[int, ...]:
        line = []
        while not state.is_terminal():
            column = self._best_move(state, score)
            if column is None:
                return ()
            line.append(column)
            state = state.apply(column)
            score = -score
        return tuple(line)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


_CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


_MAX_THREADS = 256
_BUSY_SLOTS = 65521  # a prime


def _helper_order(index: int) -> np.ndarray:
    """The tie-break order of helper ``index`` (1, 2, ...): the mirror of the main order first
    (centre first, right before left), then seeded shuffles of the non-centre columns."""
    base = kernels.COLUMN_ORDER_ADDED
    if index == 1:
        return np.array([0, 6, 1, 5, 2, 4, 3], dtype=np.int64)
    rng = np.random.default_rng(index)
    return np.concatenate([rng.permutation(base[:-1]), base[-1:]]).astype(np.int64)


def _column_of(bit: int) -> int:
    return (bit.bit_length() - 1) // 7


def solve_connect4(
    position: Connect4State | str,
    *,
    weak: bool = False,
    principal_variation: bool = False,
    table_log2: int = 20,
    threads: int = 1,
    book: Connect4Book | str | Path | None = "default",
) -> SearchResult:
    """Solve one position with a fresh :class:`Connect4Solver` (``2**table_log2`` slots; use a
    solver object with the default, larger table for hard positions or many of them);
    ``threads`` and ``book`` as in :class:`Connect4Solver`.

    >>> solve_connect4("4455", threads=2).score
    18
    """
    solver = Connect4Solver(table_log2=table_log2, threads=threads, book=book)
    return solver.solve(position, weak=weak, principal_variation=principal_variation)


def solve_as_reference(game: Connect4, *, state: Connect4State) -> SearchResult | None:
    """The registered ``solve`` kernel of :class:`Connect4`: ``state`` solved with the meaning
    of the reference :func:`~searchlab.algorithms.adversarial.solver.solve` (``None`` for a
    state of another type, which runs the reference).

    Pons' score ``s`` maps to ``value = sign(s)`` (the game's returns are +-1/0) and
    ``plies_to_end(s)``: a higher score is a sooner win or a later loss, the reference's
    preference; a draw fills the board. The best move keeps the exact score;
    ``stats["action_values"]`` holds every root move's value; ``score`` is Pons' score.

    >>> result = solve_as_reference(Connect4(), state=parse_moves("4455"))
    >>> result.value, result.score, result.plies_to_end, result.algorithm, result.tier
    (1.0, 18, 3, 'solve', 'compiled')
    """
    if type(state) is not Connect4State:
        return None
    start = time.perf_counter()
    if state.is_terminal():
        return SearchResult.for_terminal(
            state, algorithm="solve", tier="compiled", start=start, action_values={}
        )
    solver = Connect4Solver(table_log2=20 if state.num_moves >= 16 else 23)
    found = solver.solve(state, principal_variation=True)
    score = found.score
    assert score is not None  # unlimited: exact
    mover = state.current_player()
    action_values = {}
    for action in state.legal_actions():
        child = state.apply(action)
        if child.is_terminal():
            action_values[action] = float(child.returns()[mover])
        else:
            action_values[action] = float(-solver.score(child, weak=True))
    ending = plies_to_end(score, state.num_moves)
    return SearchResult(
        action=found.action,
        value=found.value,
        principal_variation=found.principal_variation,
        nodes=solver.nodes,  # the score, moves, line and move values
        depth=len(found.principal_variation),
        elapsed=time.perf_counter() - start,
        is_proven=True,
        plies_to_end=ending,
        algorithm="solve",
        tier="compiled",
        stats={"action_values": action_values},
        score=score,
    )


def alphabeta_connect4(position: Connect4State | str, depth: int) -> SearchResult:
    """Compiled textbook alpha-beta on Connect Four (the tree of
    :func:`~searchlab.algorithms.adversarial.alphabeta.alphabeta` with ``evaluate = 0`` at the
    horizon: columns in order, no table, pruning on ``alpha >= beta``); ``value`` for the
    player to move: +1 win, -1 loss, 0 draw or unknown at the horizon. ``nodes`` counts every
    position visited, as the reference does, so the two agree node for node.

    >>> alphabeta_connect4("445566", 3).value  # X completes the bottom row 4567 (or 3456)
    1.0
    """
    state = _as_state(position)
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidParameterError(f"alphabeta_connect4: depth must be >= 1, got {depth!r}")
    if state.is_terminal():
        raise InvalidStateError(f"position {state.moves!r}: the game is already over")
    counter = np.zeros(1, dtype=np.int64)
    start = time.perf_counter()
    value, column = kernels.alphabeta_root(
        state.current, state.mask, state.num_moves, depth, counter
    )
    elapsed = time.perf_counter() - start
    return SearchResult(
        action=int(column),
        value=float(value),
        nodes=int(counter[0]),
        depth=depth,
        elapsed=elapsed,
        is_proven=False,
        algorithm="alphabeta",
        tier="compiled",
    )


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel, so timings exclude compilation."""
    solver = Connect4Solver(table_log2=10)
    solver.solve("4455")
    solver.solve("44455554221")
    solver.solve("2252576253462244111563365343671351441")
    alphabeta_connect4("4", 2)
