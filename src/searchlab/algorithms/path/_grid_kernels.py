"""Compiled (numba) building blocks shared by the grid searches: the open-list heap and the
searcher that owns the per-map arrays.

Everything here is internal; the public entry points are
:func:`searchlab.algorithms.path.grid_astar.compiled_grid_best_first` and
:func:`searchlab.algorithms.path.jps.jump_point_search`.

Layout. The map is padded with a one-cell border of blocked cells and flattened row-major, so a
neighbour is ``cell + offset`` and no bounds test is ever needed: padded cell
``(y + 1) * (width + 2) + (x + 1)`` is map cell ``(x, y)``.

Reset between queries. Per-cell arrays (``tag``, ``g``, ``parent``) are allocated once per map;
``tag[cell] = 4 * generation + status``, so a cell is unseen in the current query when its tag
is below ``4 * generation``, and a new query just increments the generation instead of clearing
``O(width * height)`` memory. One array read answers "seen?" and "open or closed?".

Open list. An *indexed* binary heap of int64 triples compared lexicographically: ``bits(f)``
(f >= 0, whose bit pattern orders like the float), ``INF_BITS - bits(g)`` (larger g first on
ties of f) or ``-1`` for the goal cell (goals first), and ``counter * CELL_SPAN + cell`` (first
in, first out; the cell rides along in the low bits, ``CELL_SPAN`` a power of two). This is
exactly the key ``(f, 0 if goal else 1, -g, counter)`` of the engine semantics, as integers in
one row. ``pos[cell]`` is the slot of the cell's entry, so an open cell reached more cheaply
gets its entry re-keyed in place (with a fresh counter, as if pushed again) instead of a second
entry. The reference tier pushes duplicates and skips the stale ones when popped; since keys
are unique and totally ordered, both pop the same valid entries in the same order, but the
indexed heap holds only the open cells (on 512x512 maps about a tenth of the lazy heap) and
never pops a stale entry. Measured (CPU time, best of 9, 2-core box) together with the held
entry of the A* kernel: 1.2-1.5x faster than the lazy heap on 8-connected 512x512 maps, about
even on 4-connected ones.

Machine-level details, each measured (CPU time, best of 5, A* on 12 hard scenarios each of
sc1/Aftershock and mazes/maze512-32-0, 2-core box, 2026-11-22, same nodes expanded):
the smaller child in the heap is chosen branch-free (1.2-1.3x: that choice is unpredictable);
array indices are cast to ``np.uintp`` so numba emits no negative-index wraparound test
(1.11-1.14x); the A* kernel derives row and column with a float multiply instead of an
integer division (1.0-1.09x); ``finish`` marks the expanded mask on the padded layout
(350 -> 100 us for 84k expansions). Together: 4.2 -> 5.1 M expansions/s (Aftershock,
8-connected) and 3.9 -> 6.2 M (maze512-32-0), through ``GridSearcher.search``. Tried and
dropped: a 4-ary heap with branch-free child choice (0.89-0.95x), a kernel specialised
for ``record=False`` (no gain: the flag is a well-predicted branch).

Resumable kernels. A kernel keeps its whole state in these arrays and in ``counters``, and
returns a code: finished (solved, no path), stopped at ``max_expansions`` (the driver checks the
clock and calls again when only a time limit is set), or paused because the event log is full
or the expansion-order array needs room (the driver flushes or grows them and calls again).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from searchlab.domains.path.grid import DIRECTIONS, SQRT2, GridMap

__all__ = [
    "CLOSED",
    "OPEN",
    "REOPENED",
    "GridArrays",
]

# Cell status (valid while stamp == generation).
OPEN = 1
CLOSED = 2
REOPENED = 3  # open again after having been closed (counts as "expanded" for the picture)

# Kernel return codes.
SOLVED = 0
NO_PATH = 1
LIMIT = 2
PAUSE_LOG = 3
PAUSE_GROW = 4

# counters[] slots.
C_HEAP = 0  # heap size
C_PUSHES = 1  # insertion counter (FIFO tie-break)
C_EXPANDED = 2
C_GENERATED = 3
C_REOPENED = 4
C_OPEN = 5  # distinct open states
C_MAX_OPEN = 6
C_LOG = 7  # events in the log
N_COUNTERS = 8

# Event kinds in the log.
EV_EXPAND = 0
EV_GENERATE = 1
EV_REOPEN = 2

LOG_CAPACITY = 1 << 14
INT32_MAX = int(np.iinfo(np.int32).max)
INT64_MAX = int(np.iinfo(np.int64).max)


INF_BITS = 0x7FF0000000000000
"""Bit pattern of +inf: ``INF_BITS - bits(g)`` is positive and decreases as ``g`` grows."""
GOAL_KEY = -1
"""Second key of the goal cell's entries (below every other second key: goals first)."""


@njit(cache=True)
def entry_keys(f, g, is_goal):  # pragma: no cover - compiled
    """The first two heap keys of an entry with priority ``f >= 0`` and path cost ``g``.

    Non-negative float64 values order like their bit patterns read as int64, so the keys are
    exact integers: ``(bits(f), -1 if goal else INF_BITS - bits(g))``.
    """
    k0 = np.float64(f + 0.0).view(np.int64)  # + 0.0 turns -0.0 into +0.0
    k1 = GOAL_KEY if is_goal else INF_BITS - np.float64(g).view(np.int64)
    return k0, k1


@njit(cache=True)
def key_less(a0, a1, a2, b0, b1, b2):  # pragma: no cover - compiled
    """True when key ``(a0, a1, a2)`` comes before ``(b0, b1, b2)``."""
    return a0 < b0 or (a0 == b0 and (a1 < b1 or (a1 == b1 and a2 < b2)))


@njit(cache=True)
def _move(heap, pos, i, c, cell_mask):  # pragma: no cover - compiled
    """Copy the entry in slot ``c`` to slot ``i`` (keeps ``pos`` in step)."""
    cu = np.uintp(c)
    iu = np.uintp(i)
    heap[iu, 0] = heap[cu, 0]
    heap[iu, 1] = heap[cu, 1]
    e = heap[cu, 2]
    heap[iu, 2] = e
    pos[np.uintp(e & cell_mask)] = i


@njit(cache=True)
def _place(heap, pos, i, k0, k1, k2, cell_mask):  # pragma: no cover - compiled
    """Write the entry ``(k0, k1, k2)`` into slot ``i`` (keeps ``pos`` in step)."""
    iu = np.uintp(i)
    heap[iu, 0] = k0
    heap[iu, 1] = k1
    heap[iu, 2] = k2
    pos[np.uintp(k2 & cell_mask)] = i


@njit(cache=True)
def _sift_up(heap, pos, i, k0, k1, k2, cell_mask):  # pragma: no cover - compiled
    """Move entry ``(k0, k1, k2)`` up from slot ``i`` to its place; keeps ``pos`` in step.

    Array indices are cast to ``np.uintp`` (here and in the other heap helpers): numba then
    drops its negative-index wraparound test from every access. Measured (CPU time, A* on
    512x512 maps, 2-core box): 1.11-1.14x faster searches."""
    while i > 0:
        p = (i - 1) >> 1
        pu = np.uintp(p)
        p0 = heap[pu, 0]
        if p0 < k0 or (p0 == k0 and (heap[pu, 1] < k1 or (heap[pu, 1] == k1 and heap[pu, 2] < k2))):
            break
        _move(heap, pos, i, p, cell_mask)
        i = p
    _place(heap, pos, i, k0, k1, k2, cell_mask)


@njit(cache=True)
def _smaller_child(heap, c, size):  # pragma: no cover - compiled
    """The smaller of the children ``c`` and ``c + 1`` (``c`` alone at the end of the heap).

    Branch-free: which child is smaller is a coin toss the branch predictor cannot learn, so
    the comparison is computed with non-short-circuit ``&`` / ``|`` and added to ``c`` (the
    compiler emits no jump). Measured (CPU time, A* on 512x512 maps, 2-core box): 1.2-1.3x
    faster searches than the short-circuit comparison.
    """
    r = c + 1
    if r < size:
        cu = np.uintp(c)
        ru = np.uintp(r)
        c0 = heap[cu, 0]
        r0 = heap[ru, 0]
        c1 = heap[cu, 1]
        r1 = heap[ru, 1]
        less = (r0 < c0) | ((r0 == c0) & ((r1 < c1) | ((r1 == c1) & (heap[ru, 2] < heap[cu, 2]))))
        return c + np.int64(less)
    return c


@njit(cache=True)
def heap_push(heap, pos, size, k0, k1, k2, cell_mask):  # pragma: no cover - compiled
    """Insert the entry ``(k0, k1, k2)`` (its cell is ``k2 & cell_mask``); returns the new size.

    ``heap`` is int64 ``[capacity, 3]``, smallest key first (lexicographic); ``pos[cell]`` is
    the slot of the cell's entry (each cell has at most one: an *indexed* heap)."""
    _sift_up(heap, pos, size, k0, k1, k2, cell_mask)
    return size + 1


@njit(cache=True)
def heap_pop(heap, pos, size, cell_mask):  # pragma: no cover - compiled
    """Remove the top entry (read it first); returns the new size.

    Floyd's variant: move the hole at the top down to a leaf along the smaller children (one
    comparison per level), then sift the last entry up from there (usually a level or two).
    """
    size -= 1
    if size == 0:
        return 0
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        c = _smaller_child(heap, c, size)
        _move(heap, pos, i, c, cell_mask)
        i = c
    last = np.uintp(size)
    _sift_up(heap, pos, i, heap[last, 0], heap[last, 1], heap[last, 2], cell_mask)
    return size


@njit(cache=True)
def heap_update(heap, pos, size, i, k0, k1, k2, cell_mask):  # pragma: no cover - compiled
    """Give the entry in slot ``i`` the key ``(k0, k1, k2)`` and restore the heap order.

    The new key of an improved state is usually smaller (lower f) but can be larger (same f,
    smaller g, later counter), so the entry moves up or down."""
    iu = np.uintp(i)
    o0 = heap[iu, 0]
    if k0 < o0 or (k0 == o0 and (k1 < heap[iu, 1] or (k1 == heap[iu, 1] and k2 < heap[iu, 2]))):
        _sift_up(heap, pos, i, k0, k1, k2, cell_mask)
        return
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        c = _smaller_child(heap, c, size)
        cu = np.uintp(c)
        c0 = heap[cu, 0]
        if k0 < c0 or (k0 == c0 and (k1 < heap[cu, 1] or (k1 == heap[cu, 1] and k2 < heap[cu, 2]))):
            break
        _move(heap, pos, i, c, cell_mask)
        i = c
    _place(heap, pos, i, k0, k1, k2, cell_mask)


@njit(cache=True)
def load_counters(counters):  # pragma: no cover - compiled
    """The counters of a resumed search, in slot order: heap size, pushes, expanded, generated,
    reopened, open cells, most open cells, logged events (slots ``C_HEAP`` to ``C_LOG``)."""
    return (
        counters[C_HEAP], counters[C_PUSHES], counters[C_EXPANDED], counters[C_GENERATED],
        counters[C_REOPENED], counters[C_OPEN], counters[C_MAX_OPEN], counters[C_LOG],
    )  # fmt: skip


@njit(cache=True)
def store_counters(counters, size, pushes, expanded, generated, reopened, n_open, max_open, n_log):
    # pragma: no cover - compiled
    """Write the counters back (the order of :func:`load_counters`) for the driver and for the
    next call of a paused search."""
    counters[C_HEAP] = size
    counters[C_PUSHES] = pushes
    counters[C_EXPANDED] = expanded
    counters[C_GENERATED] = generated
    counters[C_REOPENED] = reopened
    counters[C_OPEN] = n_open
    counters[C_MAX_OPEN] = max_open
    counters[C_LOG] = n_log


@njit(cache=True)
def push_start(tag, gval, parent, heap, pos, start, goal, f_start, base, cell_mask):
    # pragma: no cover - compiled
    """Open the start cell of a fresh query (g 0, its own parent, priority ``f_start``);
    returns the heap size, 1."""
    tag[start] = base + OPEN
    gval[start] = 0.0
    parent[start] = start
    k0, k1 = entry_keys(f_start, 0.0, start == goal)
    return heap_push(heap, pos, 0, k0, k1, start, cell_mask)


@njit(cache=True)
def stop_code(cell, goal, expanded, max_expansions, room, log_full):  # pragma: no cover
    """Why the search ends or pauses before expanding ``cell`` (the best open cell): ``SOLVED``
    at the goal, ``LIMIT`` at ``max_expansions``, ``PAUSE_GROW`` when the expansion-order array
    (``room`` entries) is full, ``PAUSE_LOG`` when the event log is; -1 to go on."""
    if cell == goal:
        return SOLVED
    if expanded >= max_expansions:
        return LIMIT
    if expanded >= room:
        return PAUSE_GROW
    if log_full:
        return PAUSE_LOG
    return -1


@njit(cache=True)
def one_more_open(n_open, max_open):  # pragma: no cover - compiled
    """The open-cell counts after a cell enters (or re-enters) the open list."""
    n_open += 1
    return n_open, max(max_open, n_open)


@njit(cache=True)
def set_path(gval, parent, cell, g, from_cell):  # pragma: no cover - compiled
    """Record the best known path to ``cell``: cost ``g``, through ``from_cell``."""
    gval[cell] = g
    parent[cell] = from_cell


@njit(cache=True)
def log_event(log, n_log, kind, cell, parent, a, b):  # pragma: no cover - compiled
    """Append one event (``EV_EXPAND``: g, h; ``EV_GENERATE``: g, h and the parent;
    ``EV_REOPEN``: old g, new g) at slot ``n_log`` of ``log``, the tuple ``(log_kind,
    log_cell, log_parent, log_a, log_b)`` of event-log arrays; returns the new event count."""
    log_kind, log_cell, log_parent, log_a, log_b = log
    log_kind[n_log] = kind
    log_cell[n_log] = cell
    log_parent[n_log] = parent
    log_a[n_log] = a
    log_b[n_log] = b
    return n_log + 1


@njit(cache=True)
def trace_path(parent, start, goal):  # pragma: no cover - compiled
    """Cells from ``start`` to ``goal`` following ``parent`` links (padded indices)."""
    length = 1
    c = goal
    while c != start:
        c = parent[c]
        length += 1
    out = np.empty(length, dtype=np.int64)
    c = goal
    for i in range(length - 1, -1, -1):
        out[i] = c
        if i > 0:
            c = parent[c]
    return out


@njit(cache=True)
def interpolate(jump_points, padded_width):  # pragma: no cover - compiled
    """Every cell of the path through ``jump_points`` (each segment straight or diagonal)."""
    w = padded_width
    total = 1
    for i in range(1, jump_points.size):
        a = jump_points[i - 1]
        b = jump_points[i]
        total += max(abs(b % w - a % w), abs(b // w - a // w))
    out = np.empty(total, dtype=np.int64)
    out[0] = jump_points[0]
    k = 1
    for i in range(1, jump_points.size):
        a = jump_points[i - 1]
        b = jump_points[i]
        dx = (b % w > a % w) - (b % w < a % w)
        dy = (b // w > a // w) - (b // w < a // w)
        step = dy * w + dx
        c = a
        while c != b:
            c += step
            out[k] = c
            k += 1
    return out


@njit(cache=True)
def finish(parent, order, n_expanded, start, goal, solved, padded_width, height, width, jumps):
    # pragma: no cover - compiled
    """Everything a result needs, in one call: the path as columns ``xs`` and rows ``ys``, its
    cost (the real step costs summed from the start, in path order, like the reference tier),
    the expanded-cell mask ``[height, width]`` and the padded cells traced through ``parent``
    (the jump points when ``jumps``: the path is then filled in between them)."""
    w = padded_width
    # marked on the padded layout (a store per cell, no division), then the border cut off
    padded = np.zeros((height + 2) * w, dtype=np.bool_)
    for i in range(n_expanded):
        padded[order[i]] = True
    mask = padded.reshape((height + 2, w))[1:-1, 1:-1].copy()
    if not solved:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, 0.0, mask, empty
    traced = trace_path(parent, start, goal)
    cells = interpolate(traced, w) if jumps else traced
    cost = 0.0
    for i in range(1, cells.size):
        delta = abs(cells[i] - cells[i - 1])
        cost += 1.0 if (delta == 1 or delta == w) else SQRT2
    return cells % w - 1, cells // w - 1, cost, mask, traced


class GridArrays:
    """The per-map arrays of a compiled grid search, allocated once and reused across queries.

    Attributes:
        grid: the map.
        width, height: map size; ``padded_width = width + 2``.
        free: uint8 ``[(height + 2) * (width + 2)]``, 1 for passable cells, 0 for the border.
        offsets, dxs, dys: int64 ``[8]`` neighbour offsets and steps in successor order.
        tag: int32 per cell, ``4 * generation + status`` (status OPEN, CLOSED or REOPENED);
            a cell is unseen in this query when ``tag < 4 * generation``.
        g, parent: float64 and int32 per cell, valid for cells seen in this query.
        heap, pos: the open list, int64 ``[passable cells + 1, 3]``, and each open cell's slot
            in it (see :func:`heap_push`).
        order: int32, the cells in expansion order.
        cell_shift: ``CELL_SPAN = 1 << cell_shift`` exceeds every padded cell index.
    """

    def __init__(self, grid: GridMap) -> None:
        self.grid = grid
        self.width, self.height = grid.width, grid.height
        self.padded_width = self.width + 2
        padded = np.zeros((self.height + 2, self.padded_width), dtype=np.uint8)
        padded[1:-1, 1:-1] = grid.passable
        self.free = padded.ravel()
        size = self.free.size
        self.cell_shift = int(size).bit_length()
        self.dxs = np.array([dx for dx, _ in DIRECTIONS], dtype=np.int64)
        self.dys = np.array([dy for _, dy in DIRECTIONS], dtype=np.int64)
        self.offsets = self.dys * self.padded_width + self.dxs
        self.tag = np.zeros(size, dtype=np.int32)
        self.generation = 0
        self.g = np.zeros(size, dtype=np.float64)
        self.parent = np.zeros(size, dtype=np.int32)
        self.pos = np.zeros(size, dtype=np.int32)
        capacity = int(grid.passable.sum()) + 1
        # every cell is at most once in the indexed heap: it never needs to grow
        self.heap = np.empty((capacity, 3), dtype=np.int64)
        self.order = np.zeros(capacity, dtype=np.int32)
        self.counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self.log_kind = np.zeros(LOG_CAPACITY, dtype=np.int8)
        self.log_cell = np.zeros(LOG_CAPACITY, dtype=np.int32)
        self.log_parent = np.zeros(LOG_CAPACITY, dtype=np.int32)
        self.log_a = np.zeros(LOG_CAPACITY, dtype=np.float64)
        self.log_b = np.zeros(LOG_CAPACITY, dtype=np.float64)

    def grow(self) -> None:
        """Double the expansion-order array (reopened cells expand again), keeping it."""
        order = np.zeros(2 * self.order.size, dtype=np.int32)
        order[: self.order.size] = self.order
        self.order = order

    def new_query(self) -> int:
        """Start a query: invalidate every cell in O(1) and reset the counters.

        Returns the tag base ``4 * generation`` of the new query.
        """
        self.generation += 1
        if 4 * self.generation + 3 > INT32_MAX:
            self.tag[:] = 0
            self.generation = 1
        self.counters[:] = 0
        return 4 * self.generation

    def cell(self, x: int, y: int) -> int:
        """Padded index of map cell ``(x, y)``."""
        return (y + 1) * self.padded_width + (x + 1)

    def xy(self, cells: npt.NDArray[np.int64]) -> list[tuple[int, int]]:
        """Map cells ``(x, y)`` of padded indices."""
        ys, xs = np.divmod(cells, self.padded_width)
        return list(zip((xs - 1).tolist(), (ys - 1).tolist(), strict=True))
