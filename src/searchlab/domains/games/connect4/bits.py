"""Connect Four's rules on Pons' bitboards, written once: the compiled (numba) bit functions
that the game (:mod:`searchlab.domains.games.connect4`), the compiled solver
(:mod:`searchlab.algorithms.adversarial._connect4_kernels`) and the compiled MCTS
(:mod:`searchlab.domains.games.connect4.compiled`) all call.

A bitboard has bit ``7 * column + row`` for the cell in ``column`` (0 = left) and ``row``
(0 = bottom); bit 6 of each column is a sentinel row that is always empty, so a shift never
carries a line from one column into the next. ``mask`` holds every stone, ``current`` the
stones of the player to move.

Every function is ``@njit(inline="always")``: numba inlines it into each compiled caller, so
sharing it costs the kernels nothing. The game's Python tier runs the very same code as plain
Python through each dispatcher's ``py_func`` (on Python ints, which never overflow; the kernels
use int64, where a left shift may drop bits past 63, but every such value is masked by the
board before it is used, so the answers are equal). No function here calls another, so a
``py_func`` never reaches a dispatcher and the Python tier compiles nothing. After editing this
module, delete the cache files of its callers (``__pycache__/*.nbi`` and ``*.nbc`` beside
``connect4/__init__.py``, ``_connect4_kernels.py`` and ``connect4/compiled.py``): numba checks
only the caller's own source for staleness, and these functions are inlined into the callers.

>>> bool(has_four(0b1111)), bool(has_four(0b111))  # four stones up the first column
(True, False)
>>> bin(winning_cells(0b111, 0b111))  # three in the first column: the fourth cell wins
'0b1000'
>>> bin(drop(0b11, 0)), bool(can_play(0b111111, 0))  # third stone in column 0; full column
('0b100', False)
>>> playable(0) == BOTTOM, popcount(BOARD) == CELLS
(True, True)
"""

from __future__ import annotations

from numba import njit

__all__ = [
    "BOARD",
    "BOTTOM",
    "CELLS",
    "HEIGHT",
    "STRIDE",
    "WIDTH",
    "can_play",
    "column_mask",
    "drop",
    "has_four",
    "playable",
    "popcount",
    "winning_cells",
]

WIDTH = 7
"""Columns."""
HEIGHT = 6
"""Rows."""
STRIDE = HEIGHT + 1
"""Bits per column: the rows and one sentinel bit on top."""
CELLS = WIDTH * HEIGHT
"""Cells on the board (the longest game, in plies)."""
BOTTOM = 0b0000001_0000001_0000001_0000001_0000001_0000001_0000001
"""The bottom cell of every column."""
BOARD = BOTTOM * 63
"""Every playable cell (no sentinels)."""


@njit(cache=True, inline="always")
def has_four(stones: int) -> bool:  # pragma: no cover - compiled
    """Four in a row anywhere in ``stones`` (vertical, horizontal, both diagonals)."""
    for shift in (1, STRIDE, HEIGHT, STRIDE + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=True, inline="always")
def winning_cells(stones: int, mask: int) -> int:  # pragma: no cover - compiled
    """The empty cells (playable now or later) where a stone would give ``stones`` four in a
    row: its *threats* (Pons). ``mask`` holds every stone on the board."""
    found = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: only upwards
    for s in (STRIDE, HEIGHT, STRIDE + 1):  # horizontal, both diagonals
        pair = (stones << s) & (stones << (2 * s))
        found |= pair & (stones << (3 * s))
        found |= pair & (stones >> s)
        pair = (stones >> s) & (stones >> (2 * s))
        found |= pair & (stones << s)
        found |= pair & (stones >> (3 * s))
    return found & (BOARD ^ mask)


@njit(cache=True, inline="always")
def popcount(x: int) -> int:  # pragma: no cover - compiled
    """Number of set bits (few here: threats on one board)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def column_mask(column: int) -> int:  # pragma: no cover - compiled
    """The six cells of ``column``."""
    return 63 << (STRIDE * column)


@njit(cache=True, inline="always")
def can_play(mask: int, column: int) -> bool:  # pragma: no cover - compiled
    """``column`` still has room (its top cell is empty)."""
    return not mask & (1 << (HEIGHT - 1 + STRIDE * column))


@njit(cache=True, inline="always")
def drop(mask: int, column: int) -> int:  # pragma: no cover - compiled
    """The cell where a stone dropped into ``column`` lands (the column must have room)."""
    return (mask + (1 << (STRIDE * column))) & (63 << (STRIDE * column))


@njit(cache=True, inline="always")
def playable(mask: int) -> int:  # pragma: no cover - compiled
    """The cell each non-full column would take next."""
    return (mask + BOTTOM) & BOARD
