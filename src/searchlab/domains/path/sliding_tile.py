"""Sliding-tile puzzles (the 8-puzzle, the 15-puzzle, any n x n board) as a search problem.

A board is a tuple of ``n * n`` ints in row-major order (top row left to right, then the next
row); ``0`` is the blank. One move slides a tile next to the blank into it (unit cost). Two goals
are offered:

* ``"blank-first"``: ``0 1 2 ... n*n-1`` (blank top-left; Korf's convention, used by his 100
  published 15-puzzle instances);
* ``"blank-last"``: ``1 2 ... n*n-1 0`` (blank bottom-right; how most people write the goal).

Moves are written two ways (see :func:`moves_between`): as the numbers of the tiles slid, or as
the directions the *blank* moves, one letter each: ``U`` (the blank moves up, i.e. the tile
above it slides down), ``D``, ``L``, ``R``.

>>> puzzle = SlidingTilePuzzle([1, 2, 3, 4, 5, 6, 7, 0, 8], goal="blank-last")
>>> [state for state, cost in puzzle.successors(puzzle.initial_state())][-1]
(1, 2, 3, 4, 5, 6, 7, 8, 0)
>>> puzzle.heuristic(puzzle.initial_state())
1.0
>>> print(render(puzzle.initial_state()))
1 2 3
4 5 6
7 . 8
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from searchlab.core.errors import (
    IllegalMoveError,
    InvalidParameterError,
    InvalidStateError,
    UnknownNameError,
    UnsolvableError,
)
from searchlab.domains.path.sliding_tile_goals import GOALS, check_goal, goal_tiles

__all__ = [
    "GOALS",
    "HEURISTICS",
    "MoveSequence",
    "SlidingTilePuzzle",
    "apply_moves",
    "check_goal",
    "check_heuristic",
    "goal_tiles",
    "is_solvable",
    "line_conflict_removals",
    "moves_between",
    "parse_tiles",
    "render",
    "swap_goal_convention",
]

HeuristicName = Literal["manhattan", "linear_conflict", "misplaced", "pattern_database"]

HEURISTICS: tuple[str, ...] = ("manhattan", "linear_conflict", "misplaced", "pattern_database")
"""The built-in heuristics; all are admissible. ``pattern_database`` (15-puzzle only) is the
6-6-3 additive pattern database of :mod:`searchlab.domains.path.sliding_tile_pdb`, built on
first use (seconds) and cached on disk."""


def check_heuristic(name: str) -> None:
    """Raise ``UnknownNameError`` (listing :data:`HEURISTICS`) unless ``name`` is one of them.

    >>> check_heuristic("manhattan")
    >>> check_heuristic("euclid")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.UnknownNameError: unknown heuristic 'euclid': expected one of \
manhattan, linear_conflict, misplaced, pattern_database
    """
    if name not in HEURISTICS:
        raise UnknownNameError(
            f"unknown heuristic {name!r}: expected one of {', '.join(HEURISTICS)}"
        )


# Blank directions in the order successors are generated: (letter, row step, column step).
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("U", -1, 0),
    ("D", 1, 0),
    ("L", 0, -1),
    ("R", 0, 1),
)

State = tuple[int, ...]


class MoveSequence(NamedTuple):
    """One solution written two ways: the tiles slid, and the directions the blank moved."""

    tiles: tuple[int, ...]
    """The number of the tile slid into the blank at each move."""
    blank_directions: str
    """One letter per move, where the blank went: ``U``p, ``D``own, ``L``eft, ``R``ight."""


def parse_tiles(text: str) -> State:
    """Parse a board written as integers separated by spaces and/or commas.

    Only the syntax is checked here; :class:`SlidingTilePuzzle` checks that it is a board.

    >>> parse_tiles("1 2 3 4 5 6 7 8 0")
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> parse_tiles("1,2, 3,0")
    (1, 2, 3, 0)
    >>> parse_tiles("1 2 x 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidStateError: cannot read tiles from '1 2 x 0': ... 'x' is not one
    """
    parts = [part for part in re.split(r"[\s,]+", text.strip()) if part]
    if not parts:
        raise InvalidStateError(f"cannot read tiles from {text!r}: no numbers in it")
    tiles = []
    for part in parts:
        if not re.fullmatch(r"[+-]?\d+", part):
            raise InvalidStateError(
                f"cannot read tiles from {text!r}: expected whole numbers separated by "
                f"spaces or commas, {part!r} is not one"
            )
        tiles.append(int(part))
    return tuple(tiles)


def _board_size(tiles: Sequence[int]) -> int:
    """Side length of a board, or InvalidStateError if the count is not a square >= 4."""
    count = len(tiles)
    size = math.isqrt(count)
    if count < 4 or size * size != count:
        raise InvalidStateError(
            f"tiles {_quote(tiles)}: {count} numbers is not a square board "
            "(need 4, 9, 16, 25, ... numbers, one per cell, 0 = blank)"
        )
    return size


def _quote(tiles: Iterable[object]) -> str:
    return "'" + " ".join(str(tile) for tile in tiles) + "'"


def _validated(tiles: Sequence[int] | str) -> State:
    """The tiles as a tuple of ints, checked to be a permutation of 0..n*n-1 on a square."""
    if isinstance(tiles, str):
        tiles = parse_tiles(tiles)
    try:
        values = list(tiles)
    except TypeError:
        raise InvalidStateError(f"tiles must be a sequence of ints, got {tiles!r}") from None
    board = []
    for value in values:
        try:
            if isinstance(value, bool):
                raise TypeError
            board.append(operator.index(value))
        except TypeError:
            raise InvalidStateError(
                f"tiles {_quote(values)}: {value!r} is not a whole number"
            ) from None
    _board_size(board)
    if sorted(board) != list(range(len(board))):
        missing = sorted(set(range(len(board))) - set(board))
        repeated = sorted({tile for tile in board if board.count(tile) > 1})
        detail = []
        if repeated:
            detail.append(f"repeated: {', '.join(map(str, repeated))}")
        if missing:
            detail.append(f"missing: {', '.join(map(str, missing))}")
        raise InvalidStateError(
            f"tiles {_quote(board)} are not a permutation of 0..{len(board) - 1} "
            f"({'; '.join(detail)})"
        )
    return tuple(board)


def _parity_mismatch(tiles: State, goal: State) -> str | None:
    """Why ``tiles`` cannot reach ``goal`` (None if it can).

    Every move swaps the blank with a tile (flipping the parity of the permutation that maps
    ``tiles`` onto ``goal``) and moves the blank one cell (flipping the parity of its taxicab
    distance to its goal cell). Both parities therefore stay equal or stay different forever;
    equal is also sufficient (Johnson & Story 1879). For odd n this reduces to "even number of
    tile inversions"; for even n it is the inversions-plus-blank-row rule.
    """
    size = math.isqrt(len(tiles))
    position = {tile: index for index, tile in enumerate(goal)}
    permutation = [position[tile] for tile in tiles]
    seen = [False] * len(tiles)
    transpositions = 0
    for start in range(len(tiles)):
        length = 0
        cell = start
        while not seen[cell]:
            seen[cell] = True
            cell = permutation[cell]
            length += 1
        transpositions += max(length - 1, 0)
    blank, blank_goal = tiles.index(0), goal.index(0)
    blank_distance = abs(blank // size - blank_goal // size) + abs(blank % size - blank_goal % size)
    if transpositions % 2 == blank_distance % 2:
        return None
    kind = "odd" if transpositions % 2 else "even"
    other = "even" if transpositions % 2 else "odd"
    return (
        f"the permutation of the tiles is {kind} but the blank is an {other} number of moves "
        "from its goal cell (each move flips both parities)"
    )


def is_solvable(tiles: Sequence[int] | str, goal: str = "blank-first") -> bool:
    """True when the board can reach the goal (the parity rule; half of all boards can).

    >>> is_solvable([1, 2, 3, 4, 5, 6, 7, 8, 0], "blank-last")
    True
    >>> is_solvable([2, 1, 3, 4, 5, 6, 7, 8, 0], "blank-last")
    False
    """
    check_goal(goal)
    board = _validated(tiles)
    return _parity_mismatch(board, goal_tiles(_board_size(board), goal)) is None


def swap_goal_convention(tiles: Sequence[int]) -> State:
    """Map a board for one goal onto the equivalent board for the other goal.

    Rotates the board 180 degrees and renames tile ``v`` to ``n*n - v`` (the blank stays 0):
    a move-preserving isomorphism between "blank-first" and "blank-last", so the optimal
    length is the same. It is its own inverse.

    >>> swap_goal_convention((0, 1, 2, 3, 4, 5, 6, 7, 8))
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> swap_goal_convention(swap_goal_convention((8, 6, 7, 2, 5, 4, 3, 0, 1)))
    (8, 6, 7, 2, 5, 4, 3, 0, 1)
    """
    board = tuple(tiles)
    cells = len(board)
    return tuple(
        0 if board[cells - 1 - c] == 0 else cells - board[cells - 1 - c] for c in range(cells)
    )


def line_conflict_removals(goal_positions: Sequence[int]) -> int:
    """Fewest tiles to take out of a line so that the rest are in goal order.

    ``goal_positions`` are the goal positions along the line (column for a row, row for a
    column) of the tiles that lie in their goal line, in the order they appear. Two such tiles
    in reverse order conflict; every tile taken out costs at least 2 extra moves (out of the
    line and back). The fewest removals is the length minus the longest increasing
    subsequence: the minimum vertex cover of the conflict graph, not a pairwise count (which
    can count one tile twice and overestimate).

    >>> line_conflict_removals([2, 0, 1])  # tile 2 leaves; 0 1 stay in order
    1
    >>> line_conflict_removals([3, 2, 1, 0])
    3
    """
    tails: list[int] = []
    for position in goal_positions:
        index = bisect_left(tails, position)
        if index == len(tails):
            tails.append(position)
        else:
            tails[index] = position
    return len(goal_positions) - len(tails)


class SlidingTilePuzzle:
    """The n x n sliding-tile puzzle from a start board to a goal board.

    Implements the ``Problem``, ``HeuristicProblem`` and ``ReversibleProblem`` protocols of
    :mod:`searchlab.core.problem`: states are tuples of ints (row-major, 0 = blank), every
    move costs 1.0, and ``predecessors`` equal ``successors`` (every move can be undone).

    Args:
        tiles: the start board, ``n * n`` ints (or a string that :func:`parse_tiles` reads).
        goal: ``"blank-first"`` (``0 1 2 ...``, Korf's convention) or ``"blank-last"``
            (``1 2 ... 0``).
        heuristic: ``"linear_conflict"`` (Manhattan distance plus 2 per tile that must leave
            its goal row or column to let others pass; Hansson, Mayer & Yung 1992),
            ``"manhattan"``, ``"misplaced"`` (tiles not on their goal cell) or, for the 15-puzzle,
            ``"pattern_database"`` (6-6-3 additive pattern database; built on first use and
            cached on disk, see :mod:`searchlab.domains.path.sliding_tile_pdb`).

    Raises:
        InvalidStateError: the tiles are not a permutation of ``0..n*n-1`` on a square board.
        UnsolvableError: the board cannot reach the goal (wrong parity).
        InvalidParameterError: unknown goal; ``pattern_database`` on a board that is not 4 x 4.
        UnknownNameError: unknown heuristic.

    >>> puzzle = SlidingTilePuzzle("8 6 7 2 5 4 3 0 1", goal="blank-last")
    >>> puzzle.size, puzzle.goal_state()
    (3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    >>> puzzle.heuristic(puzzle.initial_state()), puzzle.manhattan(puzzle.initial_state())
    (23.0, 21)
    >>> SlidingTilePuzzle([0, 2, 1, 3])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.UnsolvableError: tiles '0 2 1 3' cannot reach the blank-first goal ...
    """

    def __init__(
        self,
        tiles: Sequence[int] | str,
        *,
        goal: str = "blank-first",
        heuristic: str = "linear_conflict",
    ) -> None:
        check_goal(goal)
        check_heuristic(heuristic)
        board = _validated(tiles)
        self.size: int = _board_size(board)
        """Side length n of the board."""
        self.tiles: State = board
        """The start board."""
        self.goal: str = goal
        """The goal convention, ``"blank-first"`` or ``"blank-last"``."""
        self.heuristic_name: str = heuristic
        """The name of the heuristic :meth:`heuristic` computes."""
        self._goal = goal_tiles(self.size, goal)
        reason = _parity_mismatch(board, self._goal)
        if reason is not None:
            other = GOALS[1 - GOALS.index(goal)]
            if _parity_mismatch(board, goal_tiles(self.size, other)) is None:
                reason += f"; it can reach the {other} goal instead"
            raise UnsolvableError(
                f"tiles {_quote(board)} cannot reach the {goal} goal {_quote(self._goal)}: {reason}"
            )
        n = self.size
        cell_of_tile = [0] * (n * n)
        for cell, tile in enumerate(self._goal):
            cell_of_tile[tile] = cell
        self._goal_row = [cell // n for cell in cell_of_tile]
        self._goal_col = [cell % n for cell in cell_of_tile]
        self._neighbours = [
            [
                (letter, (cell // n + dr) * n + cell % n + dc)
                for letter, dr, dc in DIRECTIONS
                if 0 <= cell // n + dr < n and 0 <= cell % n + dc < n
            ]
            for cell in range(n * n)
        ]
        if heuristic == "pattern_database" and n != 4:
            raise InvalidParameterError(
                f"heuristic 'pattern_database' is available for the 15-puzzle (4 x 4) only, "
                f"not for {n} x {n} tiles {_quote(board)}"
            )
        self._heuristic = {
            "manhattan": self.manhattan,
            "linear_conflict": self.linear_conflict,
            "misplaced": self.misplaced,
            "pattern_database": self.pattern_database,
        }[heuristic]

    def __repr__(self) -> str:
        return (
            f"SlidingTilePuzzle({list(self.tiles)!r}, goal={self.goal!r}, "
            f"heuristic={self.heuristic_name!r})"
        )

    # -- the Problem protocols ---------------------------------------------------------------

    def initial_state(self) -> State:
        """The start board."""
        return self.tiles

    def goal_state(self) -> State:
        """The goal board."""
        return self._goal

    def is_goal(self, state: State) -> bool:
        """True when ``state`` is the goal board."""
        return state == self._goal

    def successors(self, state: State) -> list[tuple[State, float]]:
        """The boards one move away, each with cost 1.0; the blank moves U, D, L, R in turn."""
        blank = state.index(0)
        result = []
        for _, cell in self._neighbours[blank]:
            board = list(state)
            board[blank], board[cell] = board[cell], 0
            result.append((tuple(board), 1.0))
        return result

    def predecessors(self, state: State) -> list[tuple[State, float]]:
        """The boards one move before ``state``: the same as :meth:`successors`."""
        return self.successors(state)

    def heuristic(self, state: State) -> float:
        """The chosen heuristic (``heuristic_name``): a lower bound on the moves to the goal."""
        return float(self._heuristic(state))

    # -- the heuristics ----------------------------------------------------------------------

    def manhattan(self, state: State) -> int:
        """Sum over tiles (not the blank) of the row plus column distance to the goal cell."""
        n = self.size
        total = 0
        for cell, tile in enumerate(state):
            if tile:
                total += abs(cell // n - self._goal_row[tile]) + abs(
                    cell % n - self._goal_col[tile]
                )
        return total

    def misplaced(self, state: State) -> int:
        """Number of tiles (not the blank) that are not on their goal cell."""
        return sum(
            1 for tile, wanted in zip(state, self._goal, strict=True) if tile and tile != wanted
        )

    def pattern_database(self, state: State) -> int:
        """The 6-6-3 additive pattern-database value (15-puzzle only; loads or builds it)."""
        from searchlab.domains.path.sliding_tile_pdb import pattern_database

        return pattern_database(self.goal).value(state)

    def linear_conflict(self, state: State) -> int:
        """Manhattan distance plus 2 for each tile that must leave its goal row or column.

        Per row: the tiles that belong in that row, in their current order; the fewest of
        them to remove so the rest are in goal order (:func:`line_conflict_removals`) each
        cost 2 moves more than Manhattan counts. The same per column. Admissible and
        consistent (Hansson, Mayer & Yung 1992).
        """
        n = self.size
        removals = 0
        for line in range(n):
            row = [
                self._goal_col[t]
                for t in state[line * n : line * n + n]
                if t and self._goal_row[t] == line
            ]
            column = [self._goal_row[t] for t in state[line::n] if t and self._goal_col[t] == line]
            removals += line_conflict_removals(row) + line_conflict_removals(column)
        return self.manhattan(state) + 2 * removals


def moves_between(path: Sequence[Sequence[int]]) -> MoveSequence:
    """The moves along a path of boards, as tile numbers and as blank directions.

    Raises :class:`IllegalMoveError` when two consecutive boards are not one move apart.

    >>> moves_between([(1, 2, 3, 4, 5, 6, 7, 0, 8), (1, 2, 3, 4, 5, 6, 7, 8, 0)])
    MoveSequence(tiles=(8,), blank_directions='R')
    """
    tiles: list[int] = []
    letters: list[str] = []
    for step, (before, after) in enumerate(itertools.pairwise(path), start=1):
        before, after = tuple(before), tuple(after)
        n = math.isqrt(len(before))
        blank = before.index(0)
        moved = None
        for letter, dr, dc in DIRECTIONS:
            row, col = blank // n + dr, blank % n + dc
            if not (0 <= row < n and 0 <= col < n):
                continue
            board = list(before)
            board[blank], board[row * n + col] = board[row * n + col], 0
            if tuple(board) == after:
                moved = (letter, before[row * n + col])
                break
        if moved is None:
            raise IllegalMoveError(
                f"step {step}: {_quote(after)} is not one move from {_quote(before)}"
            )
        letters.append(moved[0])
        tiles.append(moved[1])
    return MoveSequence(tuple(tiles), "".join(letters))


def apply_moves(tiles: Sequence[int], moves: str | Sequence[int]) -> State:
    """Play moves on a board and return the board reached (to check a solution).

    ``moves`` is either a string of blank directions (``"URDL"``, spaces ignored) or a
    sequence of tile numbers, each of which must be next to the blank when it is played.

    >>> apply_moves((1, 2, 3, 4, 5, 6, 7, 0, 8), "R")
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> apply_moves((1, 2, 3, 4, 5, 6, 7, 0, 8), [8])
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    >>> apply_moves((1, 2, 3, 4, 5, 6, 7, 0, 8), "D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.IllegalMoveError: move 1 'D': the blank is on the bottom edge of ...
    """
    board = list(_validated(tiles))
    n = _board_size(board)
    offsets = {letter: (dr, dc) for letter, dr, dc in DIRECTIONS}
    edges = {"U": "top", "D": "bottom", "L": "left", "R": "right"}
    steps = [m for m in moves if m != " "] if isinstance(moves, str) else list(moves)
    for number, move in enumerate(steps, start=1):
        blank = board.index(0)
        row, col = divmod(blank, n)
        if isinstance(move, str):
            if move.upper() not in offsets:
                raise IllegalMoveError(
                    f"move {number} {move!r}: not a blank direction (expected U, D, L or R)"
                )
            dr, dc = offsets[move.upper()]
            if not (0 <= row + dr < n and 0 <= col + dc < n):
                raise IllegalMoveError(
                    f"move {number} {move!r}: the blank is on the {edges[move.upper()]} edge "
                    f"of {_quote(board)}"
                )
            cell = (row + dr) * n + col + dc
        else:
            if move not in board or move == 0:
                raise IllegalMoveError(f"move {number} {move!r}: no such tile on {_quote(board)}")
            cell = board.index(move)
            if abs(cell // n - row) + abs(cell % n - col) != 1:
                raise IllegalMoveError(
                    f"move {number} {move!r}: tile {move} is not next to the blank on "
                    f"{_quote(board)}"
                )
        board[blank], board[cell] = board[cell], 0
    return tuple(board)


def render(state: Sequence[int]) -> str:
    """The board as text, one row per line, the blank shown as ``.``.

    >>> print(render((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
     .  1  2  3
     4  5  6  7
     8  9 10 11
    12 13 14 15
    """
    n = _board_size(state)
    width = len(str(len(state) - 1))
    cells = [("." if tile == 0 else str(tile)).rjust(width) for tile in state]
    return "\n".join(" ".join(cells[row * n : row * n + n]) for row in range(n))
