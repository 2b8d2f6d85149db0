"""Go's informed rollout policy (MoGo's, after Gelly, Wang, Munos and Teytaud 2006): answer
the last move's atari, else play a good 3x3 shape next to the last move, else play at random
without filling an own eye. The compiled tier (:mod:`.informed`) implements the same rules;
both pick uniformly from the same candidate set.

For the player to move (colour ``c``), with ``L`` the last move (a point; the stages 1 and 2
are skipped after a pass or before the first move):

1. **Atari.** *Capture*: when the chain of the stone on ``L`` has exactly one liberty ``x``
   and ``x`` is legal, ``x`` is a candidate. *Save*: for each chain of colour ``c`` next to
   ``L`` with exactly one liberty ``x``, ``x`` is a candidate when it is legal and the chain
   it forms (after its captures) has at least two liberties. If there is a candidate, the
   move is drawn among them.
2. **Patterns.** Each empty point among the 8 around ``L`` whose 3x3 neighbourhood matches
   one of MoGo's patterns (:data:`PATTERNS`: hane, cut, edge shapes, in every rotation,
   reflection and colour swap), which is legal and does not fill an own eye (the eye of
   :meth:`GoState.fills_own_eye`), is a candidate. If there is one, the move is drawn among
   them.
3. **Random.** Otherwise the move is drawn among :meth:`GoState.playout_actions` (the legal
   points that fill no own eye), or it is the pass when there are none.

Legal here is the state's own rule (superko included); the compiled twin checks the basic ko
only, so the two agree on every position under ``superko="simple"`` and on every position
where no candidate repeats an earlier one.

>>> import random
>>> from searchlab.domains.games.go import Go
>>> state = Go(5).position(black=["C3"], white=["B3", "C4"], to_move="white")
>>> state = state.apply(state.string_to_action("D3"))  # black C3 in atari: C2 saves it
>>> informed_candidates(state)
(1, [7])
>>> informed_action(state, random.Random(0))
7
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from searchlab.domains.games.go import GoState, chain_at, neighbours

__all__ = [
    "ATARI",
    "NEIGHBOURHOOD",
    "PASS_ONLY",
    "PATTERN",
    "PATTERNS",
    "PATTERN_TABLE",
    "RANDOM",
    "informed_action",
    "informed_candidates",
    "liberties_after",
    "neighbourhood_code",
]

ATARI, PATTERN, RANDOM, PASS_ONLY = 1, 2, 3, 4
"""The stage that produced the candidates (:func:`informed_candidates`)."""

PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # katatsuke, diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut 1: unprotected cut
    ("XO?", "O.X", "???"),  # cut 1: peeped cut
    ("?X?", "O.O", "ooo"),  # cut 2 (de)
    ("OX?", "o.O", "???"),  # cut keima
    ("X.?", "O.?", "   "),  # edge: chase
    ("OX?", "X.O", "   "),  # edge: block side cut
    ("?X?", "x.O", "   "),  # edge: block side connection
    ("?XO", "x.x", "   "),  # edge: sagari
    ("?OX", "X.O", "   "),  # edge: cut
)
"""MoGo's 3x3 playout patterns as michi (Baudis 2015) lists them, the move at the centre,
row 0 on top: ``X`` and ``O`` stones of the two colours (either may be the player to move:
every pattern also holds with the colours swapped), ``.`` empty, a space off the board,
``x`` anything but ``X`` (empty, ``O`` or off the board), ``o`` anything but ``O``,
``?`` anything."""

NEIGHBOURHOOD: tuple[tuple[int, int], ...] = (
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""The 8 points around a point as ``(row step, column step)``, in the order of the 2-bit
fields of :func:`neighbourhood_code` (the row above first: rows grow upwards, as on the
board's text)."""

_OFF = 3  # an off-board point in a neighbourhood code
_VALUES = {"X": (1,), "O": (2,), ".": (0,), " ": (_OFF,), "x": (0, 2, _OFF), "o": (0, 1, _OFF)}
_VALUES["?"] = (0, 1, 2, _OFF)


def _variants(pattern: tuple[str, str, str]) -> set[tuple[str, str, str]]:
    """The pattern in its 8 symmetries, each also with the colours swapped."""
    grids = set()
    swapped = str.maketrans("XOxo", "OXox")
    rows = [list(row) for row in pattern]
    for _ in range(4):
        rows = [[rows[2 - c][r] for c in range(3)] for r in range(3)]  # rotate 90 degrees
        for flip in (False, True):
            cells = [row[::-1] for row in rows] if flip else rows
            text = tuple("".join(row) for row in cells)
            grids.add(text)
            grids.add(tuple(row.translate(swapped) for row in text))
    return grids  # type: ignore[return-value]


def _pattern_table() -> np.ndarray:
    table = np.zeros(1 << 16, dtype=np.uint8)
    for pattern in PATTERNS:
        for grid in _variants(pattern):
            cells = [grid[1 - dr][1 + dc] for dr, dc in NEIGHBOURHOOD]
            for values in itertools.product(*(_VALUES[c] for c in cells)):
                table[sum(v << (2 * i) for i, v in enumerate(values))] = 1
    table.setflags(write=False)
    return table


PATTERN_TABLE: np.ndarray = _pattern_table()
"""``PATTERN_TABLE[code]`` is 1 when the neighbourhood ``code`` (:func:`neighbourhood_code`)
matches a pattern of :data:`PATTERNS`, else 0 (``uint8``, 65536 entries)."""


def neighbourhood_code(board: bytes, size: int, point: int) -> int:
    """The 8 points around ``point`` as 2-bit fields in :data:`NEIGHBOURHOOD` order: 0 empty,
    1 black, 2 white, 3 off the board.

    >>> neighbourhood_code(bytes(25), 5, 0)  # the corner: off the board left and below
    64707
    """
    row, col = divmod(point, size)
    code = 0
    for i, (dr, dc) in enumerate(NEIGHBOURHOOD):
        r, c = row + dr, col + dc
        value = board[r * size + c] if 0 <= r < size and 0 <= c < size else _OFF
        code |= value << (2 * i)
    return code


def liberties_after(state: GoState, point: int) -> int:
    """The liberties of the chain the legal move ``point`` forms (after its captures)."""
    after = state.apply(point)
    return len(chain_at(after.board, state.game.size, point)[1])


def informed_candidates(state: GoState) -> tuple[int, list[int]]:
    """``(stage, candidates)`` of the non-terminal ``state``: the first stage of the module
    docstring that has candidates (:data:`ATARI`, :data:`PATTERN`, :data:`RANDOM`), with
    its candidates in increasing order, or ``(PASS_ONLY, [pass])``."""
    game = state.game
    size = game.size
    board = state.board
    last = state.last_move
    if last is not None and last != game.pass_action and board[last] != 0:
        mine = state.to_move + 1
        found: set[int] = set()
        _, liberties = chain_at(board, size, last)
        if len(liberties) == 1:
            (x,) = liberties
            if state.is_legal(x):
                found.add(x)
        for q in neighbours(last, size):
            if board[q] == mine:
                _, liberties = chain_at(board, size, q)
                if len(liberties) == 1:
                    (x,) = liberties
                    if state.is_legal(x) and liberties_after(state, x) >= 2:
                        found.add(x)
        if found:
            return ATARI, sorted(found)
        row, col = divmod(last, size)
        for dr, dc in NEIGHBOURHOOD:
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size:
                p = r * size + c
                if (
                    board[p] == 0
                    and PATTERN_TABLE[neighbourhood_code(board, size, p)]
                    and state.is_legal(p)
                    and not state.fills_own_eye(p)
                ):
                    found.add(p)
        if found:
            return PATTERN, sorted(found)
    moves = state.playout_actions()
    if moves == [game.pass_action]:
        return PASS_ONLY, moves
    return RANDOM, moves


def informed_action(state: GoState, rng: random.Random) -> int:
    """The informed rollout move of the non-terminal ``state``: uniform (``rng``) among
    :func:`informed_candidates`."""
    _, pool = informed_candidates(state)
    return pool[int(rng.random() * len(pool))]
