"""Compiled best-first search on grid maps: A*, weighted A*, Dijkstra, breadth-first, greedy.

One numba kernel implements the best-first engine of :mod:`searchlab.algorithms.path.best_first`
for :class:`~searchlab.domains.path.grid.GridProblem`, with the same parameters
``(g_weight, h_weight, unit_cost, reopen)``, the same priority key
``(f, goal first, larger g first, first in first out)``, the same successor order and the same
counters, so both tiers expand exactly the same cells. The public functions (``astar``,
``dijkstra``, ...) call :func:`grid_best_first`, registered in :mod:`searchlab.algorithms.kernels`,
when they get a grid problem and no user heuristic, with their
:class:`~searchlab.algorithms.path.best_first_options.BestFirstOptions` unchanged.

Speed. The arrays of a search (g, parent, status, heap) are allocated once per map and reused:
a generation counter invalidates them in O(1) between queries (see
:mod:`searchlab.algorithms.path._grid_kernels`). The map is padded with a blocked border so a
neighbour is one addition and no bounds test; indices are unsigned (no wraparound test) and
the heap's child choice is branch-free (measurements in that module's docstring).

Observers. With ``observer=None`` the kernel records nothing but the expansion order (one store
per expansion, used for ``stats["expanded_mask"]``). With an observer the kernel also writes
each event (expand, generate, reopen) into a preallocated log; when the log fills up the kernel
pauses, the events are delivered to the observer in order, and the search resumes. The observer
therefore sees exactly the event sequence of the reference tier, a few thousand events late.

>>> from searchlab.domains.path.grid import GridMap, GridProblem
>>> grid = GridMap.from_strings(["....", ".@..", "...."])
>>> result = compiled_grid_best_first(GridProblem(grid, (0, 0), (3, 2)))
>>> result.status, round(result.cost, 4), result.path, result.tier
('solved', 4.4142, [(0, 0), (1, 0), (2, 0), (3, 1), (3, 2)], 'compiled')
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from searchlab.algorithms.path import _grid_kernels as K
from searchlab.algorithms.path.best_first_options import SAME_COST, BestFirstOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.observer import Expand, Generate, Reopen
from searchlab.core.results import PathResult
from searchlab.domains.path.grid import SQRT2, GridMap, GridProblem

__all__ = ["GridSearcher", "compiled_grid_best_first", "grid_best_first", "grid_searcher"]

_ASTAR = BestFirstOptions(algorithm="astar")

KEEP_BELOW = 1.0 - SAME_COST  # a new g is kept only below old g * KEEP_BELOW
TIME_CHECK_EXPANSIONS = 4096
"""With a time limit, the clock is read every this many expansions."""


@njit(cache=True)
def _best_first_kernel(  # pragma: no cover - compiled
    free, offsets, dxs, dys, n_dirs, padded_width, cell_shift,  # the map
    start, goal, f_start, g_weight, h_weight, unit_cost, reopen,  # the query
    base, tag, gval, parent, heap, pos, order, counters, max_expansions,  # the search's state
    record, log_kind, log_cell, log_parent, log_a, log_b,  # the event log
):  # fmt: skip
    cell_mask = (1 << cell_shift) - 1
    goal_x = goal % padded_width
    goal_y = goal // padded_width
    octile = n_dirs == 8
    use_h = h_weight != 0.0
    open_tag = base + 1
    closed_tag = base + 2
    reopened_tag = base + 3
    size, pushes, expanded, generated, reopened, n_open, max_open, n_log = K.load_counters(counters)
    log_room = log_kind.size - 2 * n_dirs - 2
    w = padded_width
    inv_w = 1.0 / padded_width
    log = (log_kind, log_cell, log_parent, log_a, log_b)
    if pushes == 0:  # a fresh query: put the start on the open list
        size = K.push_start(tag, gval, parent, heap, pos, start, goal, f_start, base, cell_mask)
        pushes = n_open = max_open = 1
    code = 1  # no path
    # The "held" entry: the best entry created by the last expansion, kept out of the heap.
    # When it is also the next to expand (same f, larger g: common along open stretches), it
    # saves a heap push and pop. Measured: 2-35% of the expansions of the hardest Moving AI
    # problems (the last buckets) come from here.
    has_held = False
    held0 = held1 = held2 = 0
    while True:
        # 1. The best entry: the held one if it beats the heap's top (no stale entries exist).
        from_held = False
        if has_held:
            if size == 0 or K.key_less(held0, held1, held2, heap[0, 0], heap[0, 1], heap[0, 2]):
                from_held = True
            else:
                size = K.heap_push(heap, pos, size, held0, held1, held2, cell_mask)
                has_held = False
        elif size == 0:
            break
        c = (held2 if from_held else heap[0, 2]) & cell_mask
        # 2. Goal test on selection: the search ends, the goal is not counted as expanded.
        # 3. Budgets and room: stop or pause *before* taking it, so a later call resumes here.
        stop = K.stop_code(
            c, goal, expanded, max_expansions, order.size, record and n_log > log_room
        )
        if stop >= 0:
            code = stop
            break
        cu = np.uintp(c)
        g = gval[cu]
        if from_held:
            has_held = False
        else:
            size = K.heap_pop(heap, pos, size, cell_mask)
        # 4. Expand: close the cell, then generate its successors in the fixed order
        #    N, E, S, W, NE, SE, SW, NW; a diagonal needs both orthogonal cells free.
        tag[cu] = closed_tag
        n_open -= 1
        order[np.uintp(expanded)] = c
        expanded += 1
        # row and column without an integer division: (c + 0.5) / w is at least 0.5 / w away
        # from an integer, far beyond float64 rounding for any map that fits in memory
        y = int((c + 0.5) * inv_w)
        x = c - y * w
        if record:
            adx = abs(x - goal_x)
            ady = abs(y - goal_y)
            h = (SQRT2 - 1.0) * min(adx, ady) + max(adx, ady) if octile else float(adx + ady)
            if not use_h:
                h = 0.0  # h_weight == 0: h is not evaluated (reported as 0.0, like the reference)
            n_log = K.log_event(log, n_log, 0, c, c, g, h)
        north = free[c - w]
        east = free[c + 1]
        south = free[c + w]
        west = free[c - 1]
        mask = north | (east << 1) | (south << 2) | (west << 3)
        if octile:
            mask |= (north & east & free[c - w + 1]) << 4
            mask |= (south & east & free[c + w + 1]) << 5
            mask |= (south & west & free[c + w - 1]) << 6
            mask |= (north & west & free[c - w - 1]) << 7
        for d in range(n_dirs):
            if not (mask >> d) & 1:
                continue
            s = c + offsets[d]
            su = np.uintp(s)  # see _grid_kernels: no wraparound test
            generated += 1
            ng = g + 1.0 if unit_cost or d < 4 else g + SQRT2
            t = tag[su]
            if not record and t >= base and gval[su] <= ng:
                continue  # fast path: seen with a g at least as good (discarded below anyway)
            # h of the successor (cheap to recompute; keeps one array fewer in cache)
            adx = abs(x + dxs[d] - goal_x)
            ady = abs(y + dys[d] - goal_y)
            h = (SQRT2 - 1.0) * min(adx, ady) + max(adx, ady) if octile else float(adx + ady)
            if not use_h:
                h = 0.0  # h_weight == 0: h is not evaluated (reported as 0.0, like the reference)
            if record:
                n_log = K.log_event(log, n_log, 1, s, c, ng, h)
            if t < base:
                # never seen in this query: record g and parent, push
                tag[su] = open_tag
                n_open, max_open = K.one_more_open(n_open, max_open)
            else:
                old = gval[su]
                if ng >= old * KEEP_BELOW:  # not cheaper, up to float rounding (SAME_COST)
                    continue
                if t == closed_tag:
                    if not reopen:
                        continue
                    tag[su] = reopened_tag
                    reopened += 1
                    n_open, max_open = K.one_more_open(n_open, max_open)
                    if record:
                        n_log = K.log_event(log, n_log, 2, s, c, old, ng)
            K.set_path(gval, parent, su, ng, c)
            k0, k1 = K.entry_keys(g_weight * ng + h_weight * h, ng, s == goal)
            k2 = (pushes << cell_shift) | s
            pushes += 1
            if t >= base and t != closed_tag:
                K.heap_update(heap, pos, size, pos[su], k0, k1, k2, cell_mask)
            elif not has_held:
                held0, held1, held2 = k0, k1, k2
                has_held = True
            elif K.key_less(k0, k1, k2, held0, held1, held2):
                size = K.heap_push(heap, pos, size, held0, held1, held2, cell_mask)
                held0, held1, held2 = k0, k1, k2
            else:
                size = K.heap_push(heap, pos, size, k0, k1, k2, cell_mask)
    if has_held:  # leave every open cell in the heap, so a later call can resume
        size = K.heap_push(heap, pos, size, held0, held1, held2, cell_mask)
    K.store_counters(counters, size, pushes, expanded, generated, reopened, n_open, max_open, n_log)
    return code


class GridSearcher(K.GridArrays):
    """A reusable compiled best-first searcher for one map and connectivity.

    Allocates its arrays once; each :meth:`search` resets them in O(1), so running a whole
    scenario file does not reallocate. :func:`grid_searcher` keeps one per map. A searcher runs
    one search at a time: threads searching the same map need a searcher each.

    >>> from searchlab.domains.path.grid import GridMap
    >>> searcher = GridSearcher(GridMap.from_strings(["...", "...", "..."]), connectivity=4)
    >>> searcher.search((0, 0), (2, 2)).cost
    4.0
    """

    def __init__(self, grid: GridMap, connectivity: int = 8) -> None:
        if connectivity not in (4, 8):
            raise InvalidParameterError(f"connectivity must be 4 or 8, got {connectivity!r}")
        super().__init__(grid)
        self.connectivity = connectivity

    def search(
        self,
        start: tuple[int, int],
        goal: tuple[int, int],
        options: BestFirstOptions = _ASTAR,
        *,
        limits: Limits | None = None,
        observer: Any = None,
    ) -> PathResult:
        """Search from ``start`` to ``goal`` (cells assumed valid; see :class:`GridProblem`)
        with the checked ``options`` (default: A*); the grid's own heuristic is used."""
        began = time.perf_counter()
        g_weight, h_weight = options.g_weight, options.h_weight
        if h_weight != 0.0:
            dx, dy = abs(start[0] - goal[0]), abs(start[1] - goal[1])
            h = (SQRT2 - 1.0) * min(dx, dy) + max(dx, dy) if self.connectivity == 8 else dx + dy
            f_start = h_weight * h
        else:
            f_start = 0.0
        settings = (g_weight, h_weight, options.unit_cost, options.reopen)

        def kernel(base: int, start_cell: int, goal_cell: int, budget: int, record: bool) -> int:
            return int(
                _best_first_kernel(
                    self.free, self.offsets, self.dxs, self.dys, self.connectivity,
                    self.padded_width, self.cell_shift, start_cell, goal_cell, f_start,
                    *settings, base, self.tag, self.g, self.parent, self.heap, self.pos,
                    self.order, self.counters, budget, record, self.log_kind, self.log_cell,
                    self.log_parent, self.log_a, self.log_b,
                )
            )  # fmt: skip

        return self.run(kernel, start, goal, limits, observer, options.algorithm, began)

    def run(
        self,
        kernel: Any,
        start: tuple[int, int],
        goal: tuple[int, int],
        limits: Limits | None,
        observer: Any,
        algorithm: str,
        began: float,
        *,
        jumps: bool = False,
    ) -> PathResult:
        """Drive a resumable kernel to the end: check the clock between slices when there is a
        time limit, flush events to the observer, grow arrays, then build the result."""
        base = self.new_query()
        start_cell, goal_cell = self.cell(*start), self.cell(*goal)
        max_expansions = K.INT64_MAX
        deadline = None
        if limits is not None:
            if limits.expansions is not None:
                max_expansions = int(limits.expansions)
            if limits.time is not None:
                deadline = began + limits.time
        record = observer is not None
        counters = self.counters
        while True:
            budget = max_expansions
            if deadline is not None:
                budget = min(max_expansions, int(counters[K.C_EXPANDED]) + TIME_CHECK_EXPANSIONS)
            code = kernel(base, start_cell, goal_cell, budget, record)
            if record:
                self._flush(observer)
            if code == K.PAUSE_GROW:
                self.grow()
            elif code == K.LIMIT:
                if counters[K.C_EXPANDED] >= max_expansions:
                    break
            elif code != K.PAUSE_LOG:
                break
            # Every pause (time slice, room, a full event log) reads the clock: with an
            # observer the log fills long before a time slice ends.
            if deadline is not None and time.perf_counter() >= deadline:
                code = K.LIMIT
                break
        expanded = int(counters[K.C_EXPANDED])
        xs, ys, cost, mask, traced = K.finish(
            self.parent, self.order, expanded, start_cell, goal_cell, code == K.SOLVED,
            self.padded_width, self.height, self.width, jumps,
        )  # fmt: skip
        solved = code == K.SOLVED
        result = PathResult(
            status="solved" if solved else ("no_path" if code == K.NO_PATH else "limit"),
            path=list(zip(xs.tolist(), ys.tolist(), strict=True)) if solved else None,
            cost=cost if solved else None,
            expanded=expanded,
            generated=int(counters[K.C_GENERATED]),
            reopened=int(counters[K.C_REOPENED]),
            max_open=int(counters[K.C_MAX_OPEN]),
            algorithm=algorithm,
            tier="compiled",
            stats={"expanded_mask": mask},
        )
        if jumps and solved:
            result.stats["jump_points"] = self.xy(traced)
        result.elapsed = time.perf_counter() - began
        return result

    def _flush(self, observer: Any) -> None:
        n = int(self.counters[K.C_LOG])
        kinds = self.log_kind[:n].tolist()
        cells = self.xy(self.log_cell[:n].astype(np.int64))
        parents = self.xy(self.log_parent[:n].astype(np.int64))
        a = self.log_a[:n].tolist()
        b = self.log_b[:n].tolist()
        for i in range(n):
            kind = kinds[i]
            if kind == K.EV_EXPAND:
                observer(Expand(state=cells[i], g=a[i], h=b[i]))
            elif kind == K.EV_GENERATE:
                observer(Generate(state=cells[i], parent=parents[i], g=a[i], h=b[i]))
            else:
                observer(Reopen(state=cells[i], old_g=a[i], new_g=b[i]))
        self.counters[K.C_LOG] = 0


_SEARCHERS: weakref.WeakKeyDictionary[GridMap, dict[Hashable, GridSearcher]] = (
    weakref.WeakKeyDictionary()
)
"""The searchers made for each map, by kind (a connectivity, or ``"jps"``)."""

_Searcher = TypeVar("_Searcher", bound=GridSearcher)


def cached_searcher(grid: GridMap, kind: Hashable, make: Callable[[], _Searcher]) -> _Searcher:
    """The searcher of ``kind`` for ``grid``: the one made earlier, else ``make()`` (kept while
    the map lives)."""
    per_map = _SEARCHERS.setdefault(grid, {})
    searcher = per_map.get(kind)
    if searcher is None:
        searcher = per_map[kind] = make()
    return cast(_Searcher, searcher)


def grid_searcher(grid: GridMap, connectivity: int = 8) -> GridSearcher:
    """The cached :class:`GridSearcher` of a map (one per connectivity; made on first use).

    >>> from searchlab.domains.path.grid import GridMap
    >>> grid = GridMap.from_strings(["..", ".."])
    >>> grid_searcher(grid) is grid_searcher(grid)
    True
    """
    return cached_searcher(grid, connectivity, lambda: GridSearcher(grid, connectivity))


def grid_best_first(
    problem: GridProblem,
    *,
    options: BestFirstOptions,
    limits: Limits | None = None,
    observer: Any = None,
) -> PathResult | None:
    """The registered kernel of ``best_first`` on :class:`GridProblem`: the search that
    ``options`` describe, or ``None`` when they carry a user heuristic (the kernel computes
    the grid's own octile or Manhattan distance). The result is named ``options.algorithm``.

    >>> from searchlab.domains.path.grid import GridMap, GridProblem
    >>> grid = GridMap.from_strings(["...", "..."])
    >>> options = BestFirstOptions.checked("dijkstra", h_weight=0)
    >>> result = grid_best_first(GridProblem(grid, (0, 0), (2, 1)), options=options)
    >>> result.algorithm, result.tier, round(result.cost, 4)
    ('dijkstra', 'compiled', 2.4142)
    """
    if options.heuristic is not None:
        return None
    searcher = grid_searcher(problem.grid, problem.connectivity)
    return searcher.search(problem.start, problem.goal, options, limits=limits, observer=observer)


def compiled_grid_best_first(
    problem: GridProblem,
    *,
    g_weight: float = 1.0,
    h_weight: float = 1.0,
    unit_cost: bool = False,
    reopen: bool = True,
    limits: Limits | None = None,
    observer: Any = None,
    algorithm: str | None = None,
) -> PathResult:
    """Best-first search on a grid problem with the compiled kernel, called directly (the
    public ``astar``, ``dijkstra``, ... reach the same kernel through the registry).

    Args:
        problem: the grid problem (its octile or Manhattan heuristic is used).
        g_weight, h_weight: ``f = g_weight * g + h_weight * h`` (A*: 1, 1; weighted A*: 1, w;
            Dijkstra: 1, 0; greedy: 0, 1).
        unit_cost: count steps instead of costs in ``g`` (breadth-first search); the reported
            cost is still the real path cost.
        reopen: put closed cells back on the open list when a cheaper path reaches them.
        limits: ``Limits(expansions=..., time=...)``; the search stops with status ``"limit"``.
        observer: called with each Expand / Generate / Reopen event, in the reference order.
        algorithm: the name to report; derived from the weights when ``None``.

    Returns:
        A :class:`~searchlab.core.results.PathResult` with ``tier="compiled"`` and
        ``stats["expanded_mask"]``, a bool ``[height, width]`` array of the expanded cells.

    Raises:
        InvalidParameterError: a weight that is not a finite number ``>= 0``.

    >>> from searchlab.domains.path.grid import GridMap, GridProblem
    >>> grid = GridMap.from_strings([".....", ".@@@.", "....."])
    >>> problem = GridProblem(grid, (0, 1), (4, 1))
    >>> result = compiled_grid_best_first(problem, h_weight=0.0)
    >>> result.algorithm, result.cost, result.length  # around the wall, no corner cutting
    ('dijkstra', 6.0, 6)
    """
    if algorithm is None:
        algorithm = _algorithm_name(g_weight, h_weight, unit_cost)
    options = BestFirstOptions.checked(
        algorithm, g_weight=g_weight, h_weight=h_weight, unit_cost=unit_cost, reopen=reopen
    )
    searcher = grid_searcher(problem.grid, problem.connectivity)
    return searcher.search(problem.start, problem.goal, options, limits=limits, observer=observer)


def _algorithm_name(g_weight: float, h_weight: float, unit_cost: bool) -> str:
    if unit_cost:
        return "bfs"
    if g_weight == 0:
        return "greedy"
    if h_weight == 0:
        return "dijkstra"
    if h_weight == g_weight:
        return "astar"
    return "wastar"
