"""Grid maps and path problems on them (the octile movement model of the Moving AI benchmarks).

A :class:`GridMap` is a rectangle of cells, each passable or blocked; cell ``(x, y)`` is column
``x`` and row ``y`` with ``(0, 0)`` in the upper-left corner. A :class:`GridProblem` asks for a
cheapest path between two passable cells:

* **8-connected** (default): the four cardinal steps cost 1, the four diagonal steps cost
  ``sqrt(2)``, and a diagonal step is allowed only when *both* orthogonal cells it passes are
  passable (no corner cutting). The heuristic is the octile distance.
* **4-connected**: cardinal steps only, cost 1, Manhattan heuristic.

Successors come in a fixed order (N, E, S, W, then NE, SE, SW, NW) so the reference and the
compiled search tiers break ties identically.

>>> grid = GridMap.from_strings(["....", ".@..", "...."])
>>> problem = GridProblem(grid, (0, 0), (3, 2))
>>> [(state, round(cost, 3)) for state, cost in problem.successors((2, 1))]
[((2, 0), 1.0), ((3, 1), 1.0), ((2, 2), 1.0), ((3, 0), 1.414), ((3, 2), 1.414)]
>>> round(problem.heuristic((0, 0)), 4)
3.8284
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from searchlab.core.errors import InvalidParameterError, InvalidStateError

__all__ = [
    "DIRECTIONS",
    "SQRT2",
    "GridMap",
    "GridProblem",
    "manhattan_distance",
    "octile_distance",
]

SQRT2 = math.sqrt(2.0)
"""Cost of a diagonal step (the float every tier uses)."""

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),  # N
    (1, 0),  # E
    (0, 1),  # S
    (-1, 0),  # W
    (1, -1),  # NE
    (1, 1),  # SE
    (-1, 1),  # SW
    (-1, -1),  # NW
)
"""Step directions ``(dx, dy)`` in successor order; the first four are the cardinal ones."""

Cell = tuple[int, int]


def octile_distance(a: Cell, b: Cell) -> float:
    """Cost of the cheapest 8-connected path between two cells on an empty grid.

    Computed as ``(SQRT2 - 1.0) * min(dx, dy) + max(dx, dy)`` (the exact float every tier uses).

    >>> octile_distance((0, 0), (3, 1))
    3.414213562373095
    """
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return (SQRT2 - 1.0) * min(dx, dy) + max(dx, dy)


def manhattan_distance(a: Cell, b: Cell) -> float:
    """Cost of the cheapest 4-connected path between two cells on an empty grid.

    >>> manhattan_distance((0, 0), (3, 1))
    4.0
    """
    return float(abs(a[0] - b[0]) + abs(a[1] - b[1]))


class GridMap:
    """A rectangular map of passable and blocked cells.

    Attributes:
        passable: read-only ``numpy`` bool array of shape ``[height, width]``; ``passable[y, x]``
            is True when cell ``(x, y)`` (column ``x``, row ``y``) can be entered.
        name: a label for messages and pictures (the file name for loaded maps).

    Maps compare by identity (they are large; compiled searchers are cached per map).

    >>> grid = GridMap.from_strings(["..@", "..."], name="tiny")
    >>> grid.width, grid.height, grid.is_passable(2, 0), grid.is_passable(2, 1)
    (3, 2, False, True)
    >>> grid
    GridMap(name='tiny', width=3, height=2, passable_cells=5)
    """

    __slots__ = ("__weakref__", "name", "passable")

    def __init__(self, passable: npt.ArrayLike, name: str = "<grid>") -> None:
        array = np.array(passable, dtype=bool, copy=True)
        if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
            raise InvalidParameterError(
                f"a grid needs a non-empty 2-D array of cells, got shape {array.shape}"
            )
        array.flags.writeable = False
        self.passable: npt.NDArray[np.bool_] = array
        self.name = name

    @classmethod
    def from_strings(cls, rows: Sequence[str], name: str = "<grid>") -> GridMap:
        """Build a map from text rows: ``.`` ``G`` ``S`` are passable, anything else blocked.

        >>> GridMap.from_strings([".@", ".."]).passable.tolist()
        [[True, False], [True, True]]
        """
        if not rows or any(len(row) != len(rows[0]) for row in rows):
            raise InvalidParameterError(
                f"grid rows must be non-empty and of equal length, got {list(rows)!r}"
            )
        passable = [[char in ".GS" for char in row] for row in rows]
        return cls(passable, name=name)

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.passable.shape[1])

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.passable.shape[0])

    def in_bounds(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` lies on the map."""
        return 0 <= x < self.width and 0 <= y < self.height

    def is_passable(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` lies on the map and is not blocked."""
        return self.in_bounds(x, y) and bool(self.passable[y, x])

    def to_strings(self) -> list[str]:
        """The map as text rows (``.`` passable, ``@`` blocked).

        >>> GridMap.from_strings([".@", ".."]).to_strings()
        ['.@', '..']
        """
        return ["".join("." if cell else "@" for cell in row) for row in self.passable]

    def __repr__(self) -> str:
        return (
            f"GridMap(name={self.name!r}, width={self.width}, height={self.height}, "
            f"passable_cells={int(self.passable.sum())})"
        )


class GridProblem:
    """Find a cheapest path from ``start`` to ``goal`` on a :class:`GridMap`.

    Implements the ``Problem``, ``HeuristicProblem`` and ``ReversibleProblem`` protocols of
    :mod:`searchlab.core.problem`; states are ``(x, y)`` tuples. The grid is undirected, so
    :meth:`predecessors` equals :meth:`successors`.

    Args:
        grid: the map.
        start: the initial cell ``(x, y)``; must be on the map and passable.
        goal: the goal cell ``(x, y)``; must be on the map and passable.
        connectivity: 8 (cardinal and diagonal steps, no corner cutting) or 4 (cardinal only).

    Raises:
        InvalidStateError: ``start`` or ``goal`` is off the map or blocked.
        InvalidParameterError: ``connectivity`` is neither 4 nor 8.

    >>> grid = GridMap.from_strings(["...", ".@."])
    >>> GridProblem(grid, (0, 0), (1, 1))
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidStateError: goal (1, 1) is a blocked cell of '<grid>'
    """

    __slots__ = ("_directions", "connectivity", "goal", "grid", "start")

    def __init__(self, grid: GridMap, start: Cell, goal: Cell, *, connectivity: int = 8) -> None:
        if isinstance(connectivity, bool) or connectivity not in (4, 8):
            raise InvalidParameterError(f"connectivity must be 4 or 8, got {connectivity!r}")
        self.grid = grid
        self.connectivity = int(connectivity)
        self.start = _check_cell(grid, start, "start")
        self.goal = _check_cell(grid, goal, "goal")
        self._directions = DIRECTIONS if connectivity == 8 else DIRECTIONS[:4]

    def initial_state(self) -> Cell:
        """The start cell."""
        return self.start

    def is_goal(self, state: Cell) -> bool:
        """True for the goal cell."""
        return state == self.goal

    def goal_state(self) -> Cell:
        """The (single) goal cell."""
        return self.goal

    def successors(self, state: Cell) -> list[tuple[Cell, float]]:
        """Passable neighbours with step costs, in the order N, E, S, W, NE, SE, SW, NW.

        A diagonal step needs both orthogonal cells beside it to be passable.
        """
        x, y = state
        passable = self.grid.passable
        width, height = self.grid.width, self.grid.height
        open_ = [
            0 <= x + dx < width and 0 <= y + dy < height and bool(passable[y + dy, x + dx])
            for dx, dy in DIRECTIONS[:4]
        ]
        result = [
            ((x + dx, y + dy), 1.0)
            for (dx, dy), ok in zip(DIRECTIONS[:4], open_, strict=True)
            if ok
        ]
        if self.connectivity == 8:
            north, east, south, west = open_
            sides = ((north, east), (south, east), (south, west), (north, west))
            for (dx, dy), (side_a, side_b) in zip(DIRECTIONS[4:], sides, strict=True):
                if side_a and side_b and passable[y + dy, x + dx]:
                    result.append(((x + dx, y + dy), SQRT2))
        return result

    def predecessors(self, state: Cell) -> list[tuple[Cell, float]]:
        """Same as :meth:`successors` (every step can be walked backwards at the same cost)."""
        return self.successors(state)

    def heuristic(self, state: Cell) -> float:
        """Octile distance to the goal (8-connected) or Manhattan distance (4-connected);
        admissible and consistent for the movement model."""
        if self.connectivity == 8:
            return octile_distance(state, self.goal)
        return manhattan_distance(state, self.goal)

    def path_cost(self, path: Iterable[Cell]) -> float:
        """Sum of the step costs along ``path``, checking every step is a legal move.

        >>> grid = GridMap.from_strings(["...", "..."])
        >>> GridProblem(grid, (0, 0), (2, 1)).path_cost([(0, 0), (1, 1), (2, 1)])
        2.414213562373095
        """
        cells = list(path)
        cost = 0.0
        for a, b in itertools.pairwise(cells):
            step = dict(self.successors(a)).get(b)
            if step is None:
                raise InvalidStateError(f"{a} -> {b} is not a legal step on {self.grid.name!r}")
            cost += step
        return cost

    def __repr__(self) -> str:
        return (
            f"GridProblem({self.grid!r}, start={self.start}, goal={self.goal}, "
            f"connectivity={self.connectivity})"
        )


def _check_cell(grid: GridMap, cell: Cell, role: str) -> Cell:
    try:
        x, y = cell
        if isinstance(x, bool) or isinstance(y, bool) or int(x) != x or int(y) != y:
            raise ValueError
        x, y = int(x), int(y)
    except (TypeError, ValueError):
        raise InvalidStateError(f"{role} must be a cell (x, y), got {cell!r}") from None
    if not grid.in_bounds(x, y):
        raise InvalidStateError(
            f"{role} {(x, y)} is off the map {grid.name!r} "
            f"(width {grid.width}, height {grid.height}; x is the column, y the row)"
        )
    if not grid.passable[y, x]:
        raise InvalidStateError(f"{role} {(x, y)} is a blocked cell of {grid.name!r}")
    return (x, y)
