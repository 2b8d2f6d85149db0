"""Compiled exact Othello endgame solver: the final disc difference under perfect play.

The score of a position is the final disc count of the side to move minus the opponent's,
empty squares counted for the winner (World Othello Federation rule, the convention of Edax
and of the FFO test suite); it lies in ``-64..64`` and is even. The search is negamax
alpha-beta over bitboards, in numba (:mod:`._othello_endgame_search`), as a numbered recipe
per node:

1. count the node; past the node budget, raise the abort flag and unwind;
2. few empties (``<= SHALLOW_EMPTIES``): a search with no table and no sorting
   (:mod:`._othello_endgame_last`), trying the squares of the regions (quadrants) with an
   odd number of empties first ("parity"), corners first and X squares last in each; two
   empties are played out directly and the last empty square is scored directly;
3. no legal move: pass (the opponent moves), or, when the opponent cannot move either, the
   game is over and the final score is exact;
4. stability cutoff: the opponent's stable discs (:mod:`._othello_endgame_stability`) bound
   the score from above; when that bound is at most ``alpha`` the node is cut;
5. transposition table lookup (positions with ``>= TABLE_EMPTIES`` empties; buckets of two
   entries, the deeper kept): exact lower and upper bounds of the score narrow the window or
   answer at once; the stored move is tried first;
6. move ordering (:mod:`._othello_endgame_order`): "fastest first" as in Edax (the
   opponent's mobility after the move, corners counted twice, fewest first, then the mover's
   stable corner discs, the opponent's potential mobility, parity); from 10 empties up, plus
   the value of a shallow alpha-beta search of a small mobility evaluation, deeper the more
   empties; a child whose stored bound already refutes the node cuts off before any search
   (enhanced transposition cutoff, from ``ETC_EMPTIES`` empties), and one whose stored bound
   shows that it fails low is not searched at all;
7. principal variation search: the first move with the window ``(alpha, beta)``, the others
   with a null window ``(alpha, alpha + 1)``, searched again when they land inside;
8. store the bounds this search proved (met with those already stored) and the best move.

At the root the exact score is found by null-window tests, MTD(f)-like: each test asks
"is the score above ``t``?", and its fail-soft answer moves a lower or an upper bound until
they meet; the move that proved the final lower bound is a best move.

With ``threads > 1`` the threads share the table (its entries are written lockless: the
position's keys are stored xor-ed with the data word, so a torn entry reads as a miss) and
split the work as in ABDADA (Weill 1996, in the simplified form of T. Kerrigan): each thread
searches the whole tree in the same order, but at a node with at least ``DEFER_EMPTIES``
empties a younger move that another thread is searching at that moment (a hash of the
positions being searched, ``busy``) is deferred to after the other moves, so the threads spread
over the moves of the nodes where every move must be searched, and each finds the others'
results in the table. At the root, each null-window test shares the root moves the same way;
it ends when a move fails high or a thread has seen every move's score, and the other threads
are then stopped within a node. Every bound a thread stores is proved, so the scores are exact;
the node counts (summed over the threads) vary with the timing.

Bounds in the table are exact facts about a position (there is no depth), so one table serves
any number of solves, and a search stopped by its node budget can be restarted where it
left off: the work it finished is in the table. That is how a time limit is kept: the kernel
cannot read the clock, so it runs in chunks of nodes and the clock is read between them.
The kernel releases the GIL, so :meth:`EndgameSolver.stop`, called from another thread (the
command line's main thread on Ctrl-C), ends a solve within one node.
:func:`solve_endgame` (or :class:`EndgameSolver`, to keep the table) returns a
:class:`~searchlab.core.search_result.SearchResult` whose ``score`` is the disc difference and
whose ``value`` is in the units of the state's ``returns()`` (the same disc difference with
``scoring="discs"``, its sign with ``scoring="win_loss"``).

>>> from searchlab.domains.games.othello import Othello
>>> board = "OOOOOOOO" * 3 + "XXXXXXXX" * 4 + "XXXXXX--"
>>> result = solve_endgame(Othello().state_from_board(board, "O"))
>>> result.score, result.value, result.depth, result.is_proven
(0, 0.0, 2, True)
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.algorithms.adversarial._othello_endgame_order import (
    deep_key,
    fast_key,
    odd_regions,
)
from searchlab.algorithms.adversarial._othello_endgame_search import (
    ABORTED,
    BUDGET,
    ETC_EMPTIES,
    MAX_MOVES,
    NODES,
    SHALLOW_EMPTIES,
    TABLE_EMPTIES,
    probe,
    search,
)
from searchlab.algorithms.adversarial._othello_endgame_stability import edge_stability_table
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.othello import PASS, Othello, OthelloState
from searchlab.domains.games.othello.bits import flips

__all__ = [
    "ETC_EMPTIES",
    "MAX_THREADS",
    "SHALLOW_EMPTIES",
    "TABLE_EMPTIES",
    "EndgameSolver",
    "default_threads",
    "solve_as_reference",
    "solve_endgame",
    "warm_up",
]

_UNLIMITED = int(np.iinfo(np.int64).max)
_FIRST_RATE = 5e6  # nodes per second assumed before the first chunk is measured
_CHUNK_SECONDS = 0.1  # a time-limited search reads the clock about this often
_BUSY_SLOTS = 1 << 16  # hash slots of the positions the threads are searching now
MAX_THREADS = 256
"""The most threads a solver takes (more is a typo)."""


def default_threads() -> int:
    """Every core this process may run on (at least 1, at most :data:`MAX_THREADS`): the
    threads ``searchlab solve othello`` uses unless told.

    >>> 1 <= default_threads() <= MAX_THREADS
    True
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


@dataclass(frozen=True, slots=True)
class _Child:
    action: int
    child_player: int
    child_opponent: int
    key: int


class _Run:
    """The limits of one solve: a node limit and a deadline, the latter kept by handing the
    kernel budgets of about :data:`_CHUNK_SECONDS` of work at a time."""

    def __init__(self, limits: Limits, stats: np.ndarray) -> None:
        self.stats = stats
        self.start = time.perf_counter()
        self.node_limit = _UNLIMITED if limits.nodes is None else int(limits.nodes)
        self.deadline = None if limits.time is None else self.start + float(limits.time)
        self.stopped_by: str | None = None
        self.stop_requested = False
        self.thread_nodes: dict[int, int] = {}  # nodes by thread, of a parallel solve

    def stop(self) -> None:
        """Ask the search to stop (from any thread): the flag first, then a zero budget, so a
        chunk started in between sees one or the other."""
        self.stop_requested = True
        self.stats[BUDGET] = 0

    def start_chunk(self) -> None:
        """Give the kernel its next budget (zero once a stop was asked)."""
        self.stats[BUDGET] = self.next_budget()
        if self.stop_requested:
            self.stats[BUDGET] = 0

    def next_budget(self) -> int:
        if self.deadline is None:
            return self.node_limit
        now = time.perf_counter()
        done = int(self.stats[NODES])
        rate = done / (now - self.start) if done > 100_000 else _FIRST_RATE
        seconds = min(_CHUNK_SECONDS, max(self.deadline - now, 0.0))
        return min(self.node_limit, done + max(int(rate * seconds), 1000))

    def may_go_on(self) -> bool:
        """After a chunk ran out: may the search go on (then the abort flag is cleared)?"""
        if self.stop_requested:
            self.stopped_by = "stop"
        elif self.stats[NODES] >= self.node_limit:
            self.stopped_by = "nodes"
        elif self.deadline is not None and time.perf_counter() >= self.deadline:
            self.stopped_by = "time"
        else:
            self.stats[ABORTED] = 0
            return True
        return False


def _finished_game(state: OthelloState, algorithm: str, start: float, **stats: Any) -> SearchResult:
    """The compiled tier's result at a finished game: its disc difference as ``score``."""
    return SearchResult.for_terminal(
        state, algorithm=algorithm, tier="compiled", start=start, score=state.score(), **stats
    )


def _sort_depth(empties: int) -> int:
    """Depth of the shallow search ordering the moves of a node with ``empties`` empties
    (-1: the fast key alone): one ply per 3 empties from 10 empties, the least time on FFO
    #33, #37, #41 among starts 8, 10, 12 and steps 2, 3, 4 (starting at 14, as Edax does with
    its far better evaluation, took 1.1x the nodes)."""
    if empties < 10:
        return -1
    return min((empties - 10) // 3, 6)


class EndgameSolver:
    """An exact endgame solver with its own transposition table (``2**table_bits`` entries,
    24 bytes each, in buckets of two), kept between solves, searched by ``threads`` threads
    (1: one thread, node counts repeat exactly run to run; more: ABDADA over the shared table,
    see the module's notes; the scores stay exact, the nodes vary with the timing).

    >>> from searchlab.domains.games.othello import Othello
    >>> solver = EndgameSolver(table_bits=10)
    >>> state = Othello().state_from_board("X" * 60 + "O---", "O")
    >>> result = solver.solve(state, move_scores=True)
    >>> result.value, result.stats["move_scores"]   # O must pass; X takes f8
    (-64.0, {64: -64})
    """

    def __init__(self, *, table_bits: int = 20, threads: int = 1) -> None:
        if isinstance(table_bits, bool) or not isinstance(table_bits, int):
            raise InvalidParameterError(f"table_bits must be an integer, got {table_bits!r}")
        if not 4 <= table_bits <= 28:
            raise InvalidParameterError(f"table_bits must be in 4..28, got {table_bits}")
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise InvalidParameterError(f"threads must be an integer, got {threads!r}")
        if not 1 <= threads <= MAX_THREADS:
            raise InvalidParameterError(f"threads must be in 1..{MAX_THREADS}, got {threads}")
        self.threads = threads
        self.table = np.zeros((1 << table_bits, 3), dtype=np.uint64)
        self.table.fill(0)  # touch the pages now, not inside the first timed solve
        self.buffers = [
            (np.zeros((65, MAX_MOVES, 3), dtype=np.uint64), np.zeros((65, MAX_MOVES), np.int64))
            for _ in range(threads)
        ]
        self.move_buffer, self.key_buffer = self.buffers[0]
        # the positions being searched now, by hash (ABDADA); one slot: no helper threads
        self.busy = np.zeros(1 if threads == 1 else _BUSY_SLOTS, dtype=np.uint64)
        self.edge_table = edge_stability_table()
        self.sort_depths = np.array([_sort_depth(empties) for empties in range(65)], np.int64)
        self._lock = threading.Lock()
        self._run: _Run | None = None

    def stop(self) -> None:
        """Stop the :meth:`solve` in progress, if any, within one node (safe from any thread);
        it returns the bounds proved so far with ``stopped_by="stop"``."""
        with self._lock:
            if self._run is not None:
                self._run.stop()

    def _context(self, stats: np.ndarray, thread: int = 0) -> tuple[np.ndarray, ...]:
        move_buffer, key_buffer = self.buffers[thread]
        return (
            stats,
            self.table,
            move_buffer,
            key_buffer,
            self.edge_table,
            self.sort_depths,
            self.busy,
        )

    def score(self, player: int, opponent: int, alpha: int, beta: int, stats: np.ndarray) -> int:
        """Fail-soft score of ``(player, opponent)`` (bitboards, side to move first) within
        ``(alpha, beta)``; ``stats`` is ``[nodes, node budget, aborted]`` (int64)."""
        empties = 64 - (player | opponent).bit_count()
        return int(
            search(
                np.uint64(player),
                np.uint64(opponent),
                np.int64(alpha),
                np.int64(beta),
                np.int64(empties),
                self._context(stats),
            )
        )

    def solve(
        self, state: OthelloState, *, limits: Limits | None = None, move_scores: bool = False
    ) -> SearchResult:
        """The exact score of ``state`` for the side to move and a best move.

        With ``move_scores``, ``stats["move_scores"]`` maps every legal action to its exact
        score (the score after it, seen by the mover). ``limits.nodes`` and ``limits.time``
        cap the search: a search stopped by one has ``stopped_by`` ``"nodes"`` or ``"time"``,
        ``is_proven`` False, and as ``value`` the best score proved so far (a lower bound;
        ``-64`` and ``action`` None when no move was proved yet; ``score`` None);
        ``stats["bounds"]`` holds the lower and upper bounds proved. :meth:`stop` (from
        another thread) stops it the same way, with ``stopped_by="stop"``. The node count
        may pass ``limits.nodes`` a little: the budget is checked at nodes with more than
        ``SHALLOW_EMPTIES`` empties only. ``score`` is the exact disc difference; ``value``
        the same in the units of ``returns()`` (its sign when the state scores win/loss).
        """
        stats = np.array([0, 0, 0], dtype=np.int64)
        run = _Run(limits or Limits(), stats)
        empties = state.empties()
        if state.is_terminal():
            return _finished_game(state, "othello_endgame", run.start, empties=empties)
        with self._lock:
            self._run = run
        try:
            children = self._ordered_children(state, stats)
            extra: dict[str, Any] = {"empties": empties}
            if move_scores:
                lower, upper, action, scores = self._all_scores(children, run)
                extra["move_scores"] = scores
            else:
                lower, upper, action = self._mtd(children, run)
        finally:
            with self._lock:
                self._run = None
        extra["bounds"] = (lower, upper)
        if run.thread_nodes:
            extra["thread_nodes"] = [run.thread_nodes[t] for t in sorted(run.thread_nodes)]
        proven = run.stopped_by is None
        value = float(lower) if state.scoring == "discs" else float((lower > 0) - (lower < 0))
        return SearchResult(
            action=action,
            value=value,
            principal_variation=(action,) if action is not None else (),
            nodes=int(stats[NODES]),
            depth=empties,
            elapsed=time.perf_counter() - run.start,
            is_proven=proven,
            stopped_by=run.stopped_by,
            algorithm="othello_endgame",
            tier="compiled",
            stats=extra,
            score=lower if proven else None,
        )

    def _child_score(self, child: _Child, alpha: int, beta: int, run: _Run) -> int | None:
        """Score of the root move ``child`` within ``(alpha, beta)``, or None when stopped;
        a chunk that runs out is run again (the table keeps what it finished)."""
        empties = 64 - (child.child_player | child.child_opponent).bit_count()
        context = self._context(run.stats)
        mine, theirs = np.uint64(child.child_player), np.uint64(child.child_opponent)
        while True:
            run.start_chunk()
            score = search(mine, theirs, np.int64(-beta), np.int64(-alpha), empties, context)
            if not run.stats[ABORTED]:
                return -int(score)
            if not run.may_go_on():
                return None

    def _mtd(self, children: list[_Child], run: _Run) -> tuple[int, int, int | None]:
        """``(lower, upper, action)``: null-window tests at the root until the bounds meet."""
        lower, upper, action = -64, 64, None
        guess = 0
        while lower < upper:
            threshold = guess + 1 if guess <= lower else guess - 1  # odd: scores are even
            if self.threads > 1:
                answer = self._parallel_test(children, threshold, run)
                if answer is None:
                    return lower, upper, action
                best, best_child = answer
            else:
                best, best_child = -65, None
                for child in children:
                    score = self._child_score(child, threshold, threshold + 1, run)
                    if score is None:
                        return lower, upper, action
                    if score > best:
                        best, best_child = score, child
                        if score > threshold:
                            break
            if best > threshold:
                assert best_child is not None  # best > threshold >= -63 > -65
                lower, action = best, best_child.action
                children.remove(best_child)
                children.insert(0, best_child)
            else:
                upper = best
            guess = best
        return lower, upper, action

    def _parallel_test(
        self, children: list[_Child], threshold: int, run: _Run
    ) -> tuple[int, _Child | None] | None:
        """``(best, child)``: is the score above ``threshold``? Answered by ``threads``
        threads over the shared table, or None when stopped by the limits.

        Each thread runs the root moves in order: the first together (its subtree is split
        by the kernel's deferral of busy moves), a younger one that another thread is
        searching is deferred to a second pass. A move whose score is above ``threshold``
        ends the test (the other threads are stopped within a node); so does the first
        thread to finish its moves, as then every move has its score."""
        # a node limit is shared out between the threads; a thread past its share stops all
        remaining = max(run.node_limit - int(run.stats[NODES]), 0)
        share = remaining if run.node_limit == _UNLIMITED else remaining // self.threads
        stats = [np.array([0, share, 0], dtype=np.int64) for _ in range(self.threads)]
        for thread in range(self.threads):
            run.thread_nodes.setdefault(thread, 0)
        self.busy.fill(0)
        lock = threading.Lock()
        done: dict[int, int] = {}
        searching = [0] * len(children)
        finished = threading.Event()

        def halt() -> None:
            finished.set()
            for counters in stats:
                counters[BUDGET] = 0

        def work(thread: int) -> None:
            context = self._context(stats[thread], thread)
            deferred: list[int] = []
            for second_pass in (False, True):
                for index in deferred if second_pass else range(len(children)):
                    with lock:
                        if finished.is_set():
                            return
                        if index in done:
                            continue
                        if not second_pass and index > 0 and searching[index]:
                            deferred.append(index)
                            continue
                        searching[index] += 1
                    child = children[index]
                    empties = 64 - (child.child_player | child.child_opponent).bit_count()
                    score = -int(
                        search(
                            np.uint64(child.child_player),
                            np.uint64(child.child_opponent),
                            np.int64(-threshold - 1),
                            np.int64(-threshold),
                            np.int64(empties),
                            context,
                        )
                    )
                    with lock:
                        searching[index] -= 1
                        if stats[thread][ABORTED]:
                            if not finished.is_set():  # this thread's share of nodes ran out
                                run.stopped_by = run.stopped_by or "nodes"
                                halt()
                            return
                        done.setdefault(index, score)
                        if score > threshold:
                            halt()
                            return
            with lock:
                halt()

        workers = [
            threading.Thread(target=work, args=(t,), daemon=True) for t in range(1, self.threads)
        ]
        for worker in workers:
            worker.start()
        monitor = threading.Thread(
            target=self._watch, args=(stats, run, halt, finished), daemon=True
        )
        monitor.start()
        work(0)
        for worker in workers:
            worker.join()
        finished.set()
        monitor.join()
        run.stats[NODES] += sum(int(counters[NODES]) for counters in stats)
        for thread, counters in enumerate(stats):
            run.thread_nodes[thread] += int(counters[NODES])
        if run.stopped_by is not None:
            return None
        best_index = max(done, key=lambda index: done[index])
        return done[best_index], children[best_index]

    @staticmethod
    def _watch(stats: list[np.ndarray], run: _Run, halt: Any, finished: threading.Event) -> None:
        """Stop the threads of a parallel test when ``run``'s limits are reached."""
        while not finished.wait(_CHUNK_SECONDS / 2):
            nodes = int(run.stats[NODES]) + sum(int(counters[NODES]) for counters in stats)
            if run.stop_requested:
                run.stopped_by = "stop"
            elif nodes >= run.node_limit:
                run.stopped_by = "nodes"
            elif run.deadline is not None and time.perf_counter() >= run.deadline:
                run.stopped_by = "time"
            else:
                continue
            halt()
            return

    def _all_scores(
        self, children: list[_Child], run: _Run
    ) -> tuple[int, int, int | None, dict[int, int]]:
        """Every root move's exact score (full window each)."""
        best, action = -65, None
        scores: dict[int, int] = {}
        for child in children:
            score = self._child_score(child, -64, 64, run)
            if score is None:
                return max(best, -64), 64, action, scores
            scores[child.action] = score
            if score > best:
                best, action = score, child.action
        return best, best, action, scores

    def _ordered_children(self, state: OthelloState, stats: np.ndarray) -> list[_Child]:
        """Root moves with the positions after them (side to move first), ordered as the
        kernel orders moves (the table's move first)."""
        mine, theirs = state.mover_bits()
        row = int(probe(self.table, np.uint64(mine), np.uint64(theirs)))
        table_square = int(self.table[row, 2] >> 16 & 0xFF) if row >= 0 else -1
        odd = np.uint64(odd_regions(~np.uint64(mine | theirs)))
        sort_depth = int(self.sort_depths[state.empties()])
        children = []
        for action in state.legal_actions():
            if action == PASS:
                children.append(_Child(PASS, theirs, mine, 0))
                continue
            bit = np.uint64(1 << action)
            turned = int(flips(bit, np.uint64(mine), np.uint64(theirs)))
            child_player, child_opponent = theirs & ~turned, mine | turned | (1 << action)
            position = (bit, np.uint64(child_player), np.uint64(child_opponent), odd)
            if action == table_square:
                key = 1 << 60
            elif sort_depth < 0:
                key = int(fast_key(*position))
            else:
                key = int(deep_key(*position, sort_depth, stats))
            children.append(_Child(action, child_player, child_opponent, key))
        children.sort(key=lambda child: -child.key)
        return children


def solve_endgame(
    state: OthelloState,
    *,
    limits: Limits | None = None,
    move_scores: bool = False,
    table_bits: int = 20,
    threads: int = 1,
) -> SearchResult:
    """Solve ``state`` exactly with a fresh :class:`EndgameSolver` (see
    :meth:`EndgameSolver.solve`) on ``threads`` threads."""
    solver = EndgameSolver(table_bits=table_bits, threads=threads)
    return solver.solve(state, limits=limits, move_scores=move_scores)


def solve_as_reference(game: Othello, *, state: OthelloState) -> SearchResult | None:
    """The registered ``solve`` kernel of :class:`Othello`: ``state`` solved with the meaning
    of the reference :func:`~searchlab.algorithms.adversarial.solver.solve`, or ``None`` (run
    the reference) for a state of another type or one scored ``"win_loss"``.

    With ``scoring="discs"`` the endgame solver's exact disc difference is the value (and the
    ``score``). Plies are not part of its score, so the line is rebuilt as the reference builds
    it: among the moves that keep the exact value (each checked by a null-window search around
    it), the fastest win / slowest loss (ties: first in ``legal_actions()`` order),
    recursively with memoisation; a draw follows its first drawing move. ``"win_loss"`` is
    left to the reference: every winning move would have to be followed, not only the
    disc-optimal ones.

    >>> state = Othello().state_from_board("X" * 60 + "O---", "O")  # O must pass
    >>> result = solve_as_reference(Othello(), state=state)
    >>> result.value, result.score, result.principal_variation[0], result.algorithm
    (-64.0, -64, 64, 'solve')
    """
    if type(state) is not OthelloState or state.scoring != "discs":
        return None
    start = time.perf_counter()
    if state.is_terminal():
        return _finished_game(state, "solve", start, action_values={})
    solver = EndgameSolver(table_bits=16 if state.empties() <= 12 else 20)
    counters = np.array([0, np.iinfo(np.int64).max, 0], dtype=np.int64)
    table: dict[Any, tuple[int, int | None]] = {}
    root = solver.solve(state, move_scores=True)
    root_scores: dict[int, int] = dict(root.stats["move_scores"])

    def keeps(position: OthelloState, action: int, value: int) -> bool:
        """Does ``action`` keep the exact ``value`` of ``position`` (for its mover)?"""
        if position is state:
            return root_scores[action] == value
        child = position.apply(action)
        if child.is_terminal():
            return -child.score() == value
        mine, theirs = child.mover_bits()
        return solver.score(mine, theirs, -value - 1, -value + 1, counters) == -value

    def best_line(position: OthelloState, value: int) -> tuple[int, int | None]:
        """``(plies to the end, best action)`` of ``position``, whose exact value is known."""
        key = position.key()
        entry = table.get(key)
        if entry is not None:
            return entry
        action, plies = None, 0
        if not position.is_terminal():
            for candidate in position.legal_actions():
                if not keeps(position, candidate, value):
                    continue
                child_plies = best_line(position.apply(candidate), -value)[0] + 1
                if (
                    action is None
                    or (value > 0 and child_plies < plies)
                    or (value < 0 and child_plies > plies)
                ):
                    action, plies = candidate, child_plies
                if value == 0:
                    break  # the reference keeps the first drawing move
        table[key] = entry = (plies, action)
        return entry

    assert root.score is not None  # unlimited: exact
    value = root.score
    plies, action = best_line(state, value)
    line = []
    position, step_value = state, value
    while not position.is_terminal():
        step = best_line(position, step_value)[1]
        assert step is not None
        line.append(step)
        position, step_value = position.apply(step), -step_value
    return SearchResult(
        action=action,
        value=float(value),
        principal_variation=tuple(line),
        nodes=root.nodes + int(counters[0]),
        depth=plies,
        elapsed=time.perf_counter() - start,
        is_proven=True,
        plies_to_end=plies if value != 0 else None,
        algorithm="solve",
        tier="compiled",
        stats={"action_values": {a: float(root_scores[a]) for a in state.legal_actions()}},
        score=value,
    )


def warm_up(solver: EndgameSolver | None = None) -> None:
    """Load (or compile) every kernel of ``solver`` (default: a fresh one), so that timings
    exclude compilation: a 9-empty position."""
    board = "XXXXXXXX" * 3 + "OOOOOOXX" + "XOXOXOOX" + "OXXOOXOX" + "OX---X-O" + "O-O-XO--"
    (solver or EndgameSolver()).solve(Othello().state_from_board(board, "X"))
