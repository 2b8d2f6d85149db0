"""Jump point search (Harabor and Grastien 2011) on 8-connected grids without corner cutting.

JPS is A* on a sparse set of *jump points*: from an expanded cell it scans ("jumps") in a few
directions without adding the cells it passes to the open list, and stops only where an optimal
path may have to turn. It returns the same optimal cost as A* on uniform-cost grids and expands
far fewer nodes.

The rules, for the movement model of the Moving AI benchmarks (cardinal cost 1, diagonal cost
``sqrt(2)``, a diagonal step needs both orthogonal cells beside it free). They differ from the
original paper, which allowed corner cutting (the version of Harabor and Grastien 2014 uses
this model):

* **Straight jump** east (the other three directions are symmetric): step from ``(x, y)`` to
  ``(x + 1, y)``; stop there if it is the goal, or if a side cell ``(x + 1, y +- 1)`` is free
  while the cell behind it, ``(x, y +- 1)``, is blocked. A blocked side cell that *opens up* is
  the only place where the scan can be overtaken: before it, the row beside could be reached
  diagonally from the scanned row at no extra cost; after it, only through this cell.
* **Diagonal jump** north-east: the step needs ``(x + 1, y)``, ``(x, y - 1)`` and
  ``(x + 1, y - 1)`` free; stop at the new cell if it is the goal or if a straight jump east
  or north from it finds a jump point. Diagonal moves have no forced neighbours in this model
  (a cell beside a diagonal step is reached at least as cheaply through the free orthogonal
  cells that the no-corner-cutting rule guarantees).
* **Successors** of a jump point reached moving diagonally ``(dx, dy)``: jumps ``(dx, 0)``,
  ``(0, dy)`` and ``(dx, dy)``. Reached moving straight east: the jump east, plus for each side
  ``s`` where ``(x, y + s)`` is free and ``(x - 1, y + s)`` blocked (the forced neighbours), the
  jumps ``(0, s)`` and ``(1, s)``. The start cell jumps in all eight directions.

Each jump-point step costs its octile length (a segment is straight or diagonal), so ``g`` is
exact and the octile heuristic stays consistent. ``expanded`` counts jump-point expansions and
``generated`` the jump points found; the returned path lists every cell (the segments between
jump points filled in), and ``stats["jump_points"]`` the jump points.

>>> from searchlab.domains.path.grid import GridMap, GridProblem
>>> grid = GridMap.from_strings([".....", ".@@@.", "....."])
>>> result = jump_point_search(GridProblem(grid, (0, 2), (4, 0)))
>>> round(result.cost, 4), result.path[0], result.path[-1], result.stats["jump_points"]
(6.0, (0, 2), (4, 0), [(0, 2), (4, 2), (4, 0)])
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from searchlab.algorithms.kernels import KERNELS
from searchlab.algorithms.path import _grid_kernels as K
from searchlab.algorithms.path.grid_astar import GridSearcher, cached_searcher
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.results import PathResult
from searchlab.core.tier import Tier, check_tier
from searchlab.domains.path.grid import SQRT2, GridMap, GridProblem

__all__ = ["JumpPointSearcher", "grid_jps", "jump_point_search", "jump_point_searcher"]

_ALGORITHM = "jump_point_search"


@njit(cache=True)
def _jump_straight(free, c, step, side, goal):  # pragma: no cover - compiled
    """Scan from ``c`` by ``step`` (a cardinal offset); ``side`` is a perpendicular offset.

    Returns the first jump point (the goal, or a cell where a side cell opens up), or -1 at a
    wall."""
    while True:
        n = c + step
        if free[n] == 0:
            return -1
        if n == goal:
            return n
        if (free[n + side] != 0 and free[c + side] == 0) or (
            free[n - side] != 0 and free[c - side] == 0
        ):
            return n
        c = n


@njit(cache=True)
def _jump_diagonal(free, c, horizontal, vertical, goal):  # pragma: no cover - compiled
    """Scan diagonally from ``c`` by ``horizontal + vertical`` (offsets +-1 and +-width)."""
    side_h = abs(vertical)  # perpendicular of a horizontal scan
    while True:
        if free[c + horizontal] == 0 or free[c + vertical] == 0:
            return -1
        n = c + horizontal + vertical
        if free[n] == 0:
            return -1
        if n == goal:
            return n
        if (
            _jump_straight(free, n, horizontal, side_h, goal) >= 0
            or _jump_straight(free, n, vertical, 1, goal) >= 0
        ):
            return n
        c = n


@njit(cache=True)
def _jps_kernel(  # pragma: no cover - compiled
    free, padded_width, cell_shift, start, goal, f_start,  # the map and the query
    base, tag, gval, parent, heap, pos, order, counters, max_expansions,  # the search's state
    record, log_kind, log_cell, log_parent, log_a, log_b,  # the event log
):  # fmt: skip
    w = padded_width
    cell_mask = (1 << cell_shift) - 1
    goal_x = goal % w
    goal_y = goal // w
    closed_tag = base + 2
    size, pushes, expanded, generated, reopened, n_open, max_open, n_log = K.load_counters(counters)
    log_room = log_kind.size - 20
    log = (log_kind, log_cell, log_parent, log_a, log_b)
    if pushes == 0:  # a fresh query: put the start on the open list
        size = K.push_start(tag, gval, parent, heap, pos, start, goal, f_start, base, cell_mask)
        pushes = n_open = max_open = 1
    jx = np.empty(8, dtype=np.int64)  # horizontal part of each direction to scan
    jy = np.empty(8, dtype=np.int64)  # vertical part (-1, 0, +1)
    code = 1
    while size > 0:
        c = heap[0, 2] & cell_mask
        stop = K.stop_code(
            c, goal, expanded, max_expansions, order.size, record and n_log > log_room
        )
        if stop >= 0:
            code = stop
            break
        g = gval[c]
        size = K.heap_pop(heap, pos, size, cell_mask)
        tag[c] = closed_tag
        n_open -= 1
        order[expanded] = c
        expanded += 1
        x = c % w
        y = c // w
        if record:
            adx = abs(x - goal_x)
            ady = abs(y - goal_y)
            h = (SQRT2 - 1.0) * min(adx, ady) + max(adx, ady)
            n_log = K.log_event(log, n_log, 0, c, c, g, h)
        # Directions to scan: all eight from the start, else the natural and forced ones.
        p = parent[c]
        n_dirs = 0
        if p == c:
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)):
                jx[n_dirs] = dx
                jy[n_dirs] = dy
                n_dirs += 1
        else:
            px = p % w
            py = p // w
            dx = (x > px) - (x < px)
            dy = (y > py) - (y < py)
            if dx != 0 and dy != 0:
                jx[0], jy[0] = dx, 0
                jx[1], jy[1] = 0, dy
                jx[2], jy[2] = dx, dy
                n_dirs = 3
            elif dx != 0:
                jx[0], jy[0] = dx, 0
                n_dirs = 1
                for s in (-1, 1):
                    if free[c + s * w] != 0 and free[c - dx + s * w] == 0:
                        jx[n_dirs], jy[n_dirs] = 0, s
                        jx[n_dirs + 1], jy[n_dirs + 1] = dx, s
                        n_dirs += 2
            else:
                jx[0], jy[0] = 0, dy
                n_dirs = 1
                for s in (-1, 1):
                    if free[c + s] != 0 and free[c + s - dy * w] == 0:
                        jx[n_dirs], jy[n_dirs] = s, 0
                        jx[n_dirs + 1], jy[n_dirs + 1] = s, dy
                        n_dirs += 2
        for i in range(n_dirs):
            dx = jx[i]
            dy = jy[i]
            if dx != 0 and dy != 0:
                j = _jump_diagonal(free, c, dx, dy * w, goal)
            elif dx != 0:
                j = _jump_straight(free, c, dx, w, goal)
            else:
                j = _jump_straight(free, c, dy * w, 1, goal)
            if j < 0:
                continue
            generated += 1
            sx = j % w
            sy = j // w
            steps = max(abs(sx - x), abs(sy - y))
            ng = g + (steps * SQRT2 if (dx != 0 and dy != 0) else float(steps))
            adx = abs(sx - goal_x)
            ady = abs(sy - goal_y)
            h = (SQRT2 - 1.0) * min(adx, ady) + max(adx, ady)
            if record:
                n_log = K.log_event(log, n_log, 1, j, c, ng, h)
            t = tag[j]
            if t < base:
                tag[j] = base + 1
                n_open, max_open = K.one_more_open(n_open, max_open)
            else:
                old = gval[j]
                if old <= ng:
                    continue
                if t == closed_tag:
                    tag[j] = base + 3
                    reopened += 1
                    n_open, max_open = K.one_more_open(n_open, max_open)
                    if record:
                        n_log = K.log_event(log, n_log, 2, j, c, old, ng)
            K.set_path(gval, parent, j, ng, c)
            k0, k1 = K.entry_keys(ng + h, ng, j == goal)
            k2 = (pushes << cell_shift) | j
            if t >= base and t != closed_tag:
                K.heap_update(heap, pos, size, pos[j], k0, k1, k2, cell_mask)
            else:
                size = K.heap_push(heap, pos, size, k0, k1, k2, cell_mask)
            pushes += 1
    K.store_counters(counters, size, pushes, expanded, generated, reopened, n_open, max_open, n_log)
    return code


class JumpPointSearcher(GridSearcher):
    """A reusable compiled JPS searcher for one map (arrays allocated once, like
    :class:`~searchlab.algorithms.path.grid_astar.GridSearcher`).

    >>> from searchlab.domains.path.grid import GridMap
    >>> searcher = JumpPointSearcher(GridMap.from_strings(["....", "....", "...."]))
    >>> result = searcher.search((0, 0), (3, 2))
    >>> round(result.cost, 4), result.stats["jump_points"]
    (3.8284, [(0, 0), (2, 2), (3, 2)])
    """

    def __init__(self, grid: GridMap) -> None:
        super().__init__(grid, connectivity=8)

    def search(  # type: ignore[override]
        self,
        start: tuple[int, int],
        goal: tuple[int, int],
        *,
        limits: Limits | None = None,
        observer: Any = None,
    ) -> PathResult:
        """Jump point search from ``start`` to ``goal`` (cells assumed valid)."""
        began = time.perf_counter()
        dx, dy = abs(start[0] - goal[0]), abs(start[1] - goal[1])
        f_start = (SQRT2 - 1.0) * min(dx, dy) + max(dx, dy)

        def kernel(base: int, start_cell: int, goal_cell: int, budget: int, record: bool) -> int:
            return int(
                _jps_kernel(
                    self.free, self.padded_width, self.cell_shift, start_cell, goal_cell,
                    f_start, base, self.tag, self.g, self.parent, self.heap, self.pos,
                    self.order, self.counters, budget, record, self.log_kind, self.log_cell,
                    self.log_parent, self.log_a, self.log_b,
                )
            )  # fmt: skip

        return self.run(kernel, start, goal, limits, observer, "jps", began, jumps=True)


def jump_point_searcher(grid: GridMap) -> JumpPointSearcher:
    """The cached :class:`JumpPointSearcher` of a map (made on first use)."""
    return cached_searcher(grid, "jps", lambda: JumpPointSearcher(grid))


def grid_jps(
    problem: GridProblem, *, limits: Limits | None = None, observer: Any = None
) -> PathResult:
    """The registered kernel of ``jump_point_search`` on :class:`GridProblem` (8-connected,
    checked by :func:`jump_point_search`)."""
    searcher = jump_point_searcher(problem.grid)
    return searcher.search(problem.start, problem.goal, limits=limits, observer=observer)


def jump_point_search(
    problem: GridProblem,
    *,
    limits: Limits | None = None,
    observer: Any = None,
    tier: Tier = "auto",
) -> PathResult:
    """Optimal path on an 8-connected, uniform-cost grid by jump point search.

    Args:
        problem: a :class:`~searchlab.domains.path.grid.GridProblem` with ``connectivity=8``.
        limits: ``Limits(expansions=..., time=...)``; expansions count jump points.
        observer: receives Expand / Generate / Reopen events for jump points.
        tier: jump point search exists as a compiled kernel for the built-in
            :class:`GridProblem` only (``"auto"`` and ``"compiled"`` run it); it has no
            plain-Python tier, so ``"reference"``, or a subclass of :class:`GridProblem`
            (which may change the moves the pruning rules assume), is an error: use
            :func:`~searchlab.algorithms.path.best_first.astar` there.

    Returns:
        A :class:`~searchlab.core.results.PathResult` (``algorithm="jps"``,
        ``tier="compiled"``) whose ``path`` lists every cell; ``stats["jump_points"]`` holds
        the jump points on it and ``stats["expanded_mask"]`` the expanded cells.

    Raises:
        InvalidParameterError: ``problem`` is not a grid problem, or it is 4-connected (jump
            point search here is defined for 8-connectivity); bad ``limits`` or ``tier``;
            no compiled kernel for ``type(problem)`` or ``tier="reference"``.

    >>> from searchlab.domains.path.grid import GridMap, GridProblem
    >>> grid = GridMap.from_strings(["..........", "..........", ".........."])
    >>> result = jump_point_search(GridProblem(grid, (0, 0), (9, 2)))
    >>> round(result.cost, 4), result.length, result.expanded
    (9.8284, 9, 2)
    """
    check_tier(tier, _ALGORITHM)
    if not isinstance(problem, GridProblem):
        raise InvalidParameterError(
            f"jump_point_search needs a GridProblem, got {type(problem).__name__}"
        )
    if problem.connectivity != 8:
        raise InvalidParameterError(
            "jump_point_search needs 8-connectivity (its pruning rules are for diagonal moves "
            f"without corner cutting); got connectivity={problem.connectivity}: use astar"
        )
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidParameterError(
            f"jump_point_search: limits must be a searchlab Limits object, got {limits!r}"
        )

    def no_reference() -> PathResult:
        raise InvalidParameterError(
            f"jump_point_search: no plain-Python tier (for {type(problem).__name__}, "
            f"tier={tier!r}); jump point search runs compiled on GridProblem: use astar"
        )

    if tier == "reference":
        no_reference()
    return KERNELS.run(
        _ALGORITHM,
        problem,
        tier,
        reference=no_reference,
        limits=limits,
        observer=observer,
    )
