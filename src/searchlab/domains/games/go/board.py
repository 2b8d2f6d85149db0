"""The board of Go's compiled tier: one ``int64`` array per position and the numba functions
that play on it (the reference rules are :mod:`searchlab.domains.games.go`; the converters
:mod:`.arrays`; the informed playout policy :mod:`.informed`).

A position ``pos`` is a 2-D C-contiguous ``int64`` array of :data:`ROWS` rows of
``L = max((size + 2) ** 2, 32)`` entries. The board is *padded*: with ``W = size + 2``, the
point ``p = row * size + col`` of the reference tier (row 0 = GTP row 1, col 0 = column ``A``)
is the square ``q = (row + 1) * W + col + 1`` of the padded board, whose outer ring holds
:data:`BORDER`, so a neighbour ``q +- 1``, ``q +- W`` or diagonal never leaves the array.
Rows (every row indexed by the padded square ``q`` unless it says otherwise):

========== =======================================================================
row        contents
========== =======================================================================
``HDR``    the header fields ``H_*`` below
``BOARD``  :data:`EMPTY` 0, :data:`BLACK` 1, :data:`WHITE` 2, :data:`BORDER` 3
``NEXT``   for a stone: the next stone of its chain (a chain is a ring of stones)
``HEAD``   for a stone: the square of its chain's head (the chain's id)
``LIBS``   for a head: the chain's *pseudo-liberties* (each adjacency of a stone of the
           chain to an empty square counts once, so an empty square next to two stones
           of the chain counts twice)
``LSUM``   for a head: the sum of the squares ``q`` of those pseudo-liberties
``LSQ``    for a head: the sum of ``q * q`` over them; the chain is in atari (exactly
           one liberty) iff ``LIBS * LSQ == LSUM ** 2`` (Cauchy-Schwarz: all equal),
           and its liberty is then ``LSUM // LIBS``; it has none iff ``LIBS == 0``
``STONES`` for a head: the number of stones of the chain
``EMPTY``  indexed ``0 .. H_N_EMPTY - 1``: the empty squares, in no order
``EIDX``   for an empty square: its index in ``EMPTY`` (-1 for a stone or the border)
``P2Q``    indexed by the point ``p``: its square ``q``
``Q2P``    for a square on the board: its point ``p`` (-1 on the border)
``MARK``   scratch marks (compared with the generation counter ``H_GEN``)
``STACK``  scratch stack of the flood fills (and the informed policy's candidates)
``NBR``    for a square on the board: its neighbours by kind, packed: the empty ones
           times 1, black times 16, white times 256, off-board times 4096 (field
           ``colour`` is ``NBR >> 4 * colour & 15``); a square with an empty neighbour
           is a legal move that fills no eye, the playouts' fast test
========== =======================================================================

Header fields (row ``HDR``): ``H_SIZE``, ``H_W`` (``size + 2``), ``H_N`` (``size * size``,
also the pass action), ``H_TO_MOVE`` (0 black, 1 white), ``H_KO`` (the point the basic ko
forbids to the player to move, -1 none), ``H_PASSES`` (consecutive passes just played),
``H_MOVES`` (plies played, passes included), ``H_CAPT`` and ``H_CAPT + 1`` (stones captured
by black, by white), ``H_LAST`` (the last action: a point, ``H_N`` for a pass, -1 none),
``H_KOMI2`` (twice the komi, an integer), ``H_HASH`` (the Zobrist hash of the board:
``zobrist.board_hash``, XOR of ``ZOBRIST[colour - 1, p]`` over the stones, 0 when empty),
``H_MAX_MOVES`` (the game ends after that many plies), ``H_N_EMPTY``, ``H_GEN``.

No function allocates except :func:`new_position`; :func:`play` is incremental (the chains,
pseudo-liberties, empty list and hash are updated in place, a capture walks the captured
ring once). The functions take points ``p`` (and the pass ``size * size``), never squares,
except those named ``*_q``. Nothing here checks superko: the caller keeps the hashes
(:func:`hash_of`) of the positions seen.

>>> pos = new_position(9, 7.5)
>>> size_of(pos), to_move(pos), passes(pos), hash_of(pos)
(9, 0, 0, 0)
>>> for p in (10, 11, 1):  # black B2, white C2, black B1
...     play(pos, p)
>>> to_move(pos), is_legal(pos, 1), is_legal(pos, 0), area_score(pos)  # 2 - 1 - 7.5
(1, False, True, -6.5)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searchlab.domains.games.go.zobrist import ZOBRIST

__all__ = [
    "BLACK",
    "BORDER",
    "EMPTY",
    "WHITE",
    "area_score",
    "captures",
    "copy_position",
    "hash_of",
    "in_atari",
    "is_legal",
    "is_over",
    "is_own_eye",
    "ko_point",
    "last_move",
    "legal_points",
    "moves_played",
    "new_position",
    "passes",
    "place_q",
    "play",
    "playable_q",
    "playout_points",
    "put_q",
    "random_move",
    "size_of",
    "to_move",
]

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
"""The values of the ``BOARD`` row (a colour is ``to_move + 1``)."""

HDR, BOARD, NEXT, HEAD, LIBS, LSUM, LSQ, STONES = 0, 1, 2, 3, 4, 5, 6, 7
EMPTY_LIST, EIDX, P2Q, Q2P, MARK, STACK, NBR = 8, 9, 10, 11, 12, 13, 14
ROWS = 15
"""The rows of a position (see the module docstring)."""

H_SIZE, H_W, H_N, H_TO_MOVE, H_KO, H_PASSES, H_MOVES, H_CAPT = 0, 1, 2, 3, 4, 5, 6, 7
H_LAST, H_KOMI2, H_HASH, H_MAX_MOVES, H_N_EMPTY, H_GEN = 9, 10, 11, 12, 13, 14
HEADER = 32
"""Header fields (``H_CAPT`` is two fields, black's then white's captures)."""

_Z = ZOBRIST.astype(np.int64)  # the keys are below 2**63: the same bits as int64


# ---------------------------------------------------------------------------- setting up


@njit(cache=True)
def new_position(size, komi):  # pragma: no cover - compiled
    """The empty ``size`` x ``size`` board (black to move) with ``komi``; ``max_moves`` is
    ``3 * size * size`` (change ``pos[HDR, H_MAX_MOVES]`` for another limit)."""
    w = size + 2
    length = max(w * w, HEADER)
    pos = np.zeros((ROWS, length), np.int64)
    for q in range(length):
        pos[BOARD, q] = BORDER
        pos[EIDX, q] = -1
        pos[Q2P, q] = -1
    n = 0
    for row in range(size):
        for col in range(size):
            q = (row + 1) * w + col + 1
            p = row * size + col
            pos[BOARD, q] = EMPTY
            pos[P2Q, p] = q
            pos[Q2P, q] = p
            pos[EMPTY_LIST, n] = q
            pos[EIDX, q] = n
            n += 1
    for p in range(n):
        q = pos[P2Q, p]
        for d in (1, -1, w, -w):
            pos[NBR, q] += 1 << (4 * pos[BOARD, q + d])
    pos[HDR, H_SIZE] = size
    pos[HDR, H_W] = w
    pos[HDR, H_N] = size * size
    pos[HDR, H_KO] = -1
    pos[HDR, H_LAST] = -1
    pos[HDR, H_KOMI2] = np.int64(np.round(komi * 2.0))
    pos[HDR, H_MAX_MOVES] = 3 * size * size
    pos[HDR, H_N_EMPTY] = n
    return pos


@njit(cache=True)
def copy_position(dst, src):  # pragma: no cover - compiled
    """Copy ``src`` into ``dst`` (same shape) without allocating."""
    rows, length = src.shape
    for r in range(rows):
        for i in range(length):
            dst[r, i] = src[r, i]


# ---------------------------------------------------------------------------- header reads


@njit(cache=True, inline="always")
def to_move(pos):  # pragma: no cover - compiled
    """The player to move: 0 black, 1 white."""
    return pos[HDR, H_TO_MOVE]


@njit(cache=True, inline="always")
def size_of(pos):  # pragma: no cover - compiled
    """The board size."""
    return pos[HDR, H_SIZE]


@njit(cache=True, inline="always")
def passes(pos):  # pragma: no cover - compiled
    """The consecutive passes just played."""
    return pos[HDR, H_PASSES]


@njit(cache=True, inline="always")
def hash_of(pos):  # pragma: no cover - compiled
    """The Zobrist hash of the board (``zobrist.board_hash`` of it), a ``uint64``."""
    return np.uint64(pos[HDR, H_HASH])


@njit(cache=True, inline="always")
def ko_point(pos):  # pragma: no cover - compiled
    """The point the basic ko forbids to the player to move, or -1."""
    return pos[HDR, H_KO]


@njit(cache=True, inline="always")
def moves_played(pos):  # pragma: no cover - compiled
    """The plies played (passes included)."""
    return pos[HDR, H_MOVES]


@njit(cache=True, inline="always")
def last_move(pos):  # pragma: no cover - compiled
    """The last action (a point, ``size * size`` for a pass), or -1 before the first."""
    return pos[HDR, H_LAST]


@njit(cache=True, inline="always")
def captures(pos, player):  # pragma: no cover - compiled
    """The stones captured by ``player`` (0 black, 1 white)."""
    return pos[HDR, H_CAPT + player]


@njit(cache=True, inline="always")
def is_over(pos):  # pragma: no cover - compiled
    """Has the game ended (two consecutive passes, or ``max_moves`` plies)?"""
    return pos[HDR, H_PASSES] >= 2 or pos[HDR, H_MOVES] >= pos[HDR, H_MAX_MOVES]


# ---------------------------------------------------------------------------- chains


@njit(cache=True, inline="always")
def in_atari(pos, head):  # pragma: no cover - compiled
    """Has the chain of head ``head`` exactly one liberty?"""
    libs = pos[LIBS, head]
    s = pos[LSUM, head]
    return libs > 0 and libs * pos[LSQ, head] == s * s


@njit(cache=True, inline="always")
def _remove_empty(pos, q):  # pragma: no cover - compiled
    i = pos[EIDX, q]
    last = pos[HDR, H_N_EMPTY] - 1
    moved = pos[EMPTY_LIST, last]
    pos[EMPTY_LIST, i] = moved
    pos[EIDX, moved] = i
    pos[EIDX, q] = -1
    pos[HDR, H_N_EMPTY] = last


@njit(cache=True, inline="always")
def _add_empty(pos, q):  # pragma: no cover - compiled
    n = pos[HDR, H_N_EMPTY]
    pos[EMPTY_LIST, n] = q
    pos[EIDX, q] = n
    pos[HDR, H_N_EMPTY] = n + 1


@njit(cache=True, inline="always")
def _merge(pos, big, small):  # pragma: no cover - compiled
    """Join the chain of head ``small`` into the chain of head ``big``."""
    s = small
    while True:
        pos[HEAD, s] = big
        s = pos[NEXT, s]
        if s == small:
            break
    nb = pos[NEXT, big]
    pos[NEXT, big] = pos[NEXT, small]
    pos[NEXT, small] = nb
    pos[LIBS, big] += pos[LIBS, small]
    pos[LSUM, big] += pos[LSUM, small]
    pos[LSQ, big] += pos[LSQ, small]
    pos[STONES, big] += pos[STONES, small]


@njit(cache=True)
def _capture(pos, head, capturer):  # pragma: no cover - compiled
    """Remove the chain of head ``head``; give its squares back as pseudo-liberties to the
    ``capturer``'s chains around it. Returns the number of stones removed."""
    w = pos[HDR, H_W]
    colour = pos[BOARD, head]
    change = (1 << (4 * colour)) - 1
    h = pos[HDR, H_HASH]
    count = 0
    s = head
    while True:
        pos[BOARD, s] = EMPTY
        _add_empty(pos, s)
        h ^= _Z[colour - 1, pos[Q2P, s]]
        count += 1
        for d in (1, -1, w, -w):
            x = s + d
            pos[NBR, x] -= change
            if pos[BOARD, x] == capturer:
                c = pos[HEAD, x]
                pos[LIBS, c] += 1
                pos[LSUM, c] += s
                pos[LSQ, c] += s * s
        s = pos[NEXT, s]
        if s == head:
            break
    pos[HDR, H_HASH] = h
    return count


@njit(cache=True, inline="always")
def put_q(pos, q, colour):  # pragma: no cover - compiled
    """Put a stone of ``colour`` on the empty square ``q`` and join it to its chains
    (pseudo-liberties, hash, empty list), capturing nothing: how :func:`place_q` starts, and
    how a hand-built board is set up stone by stone."""
    w = pos[HDR, H_W]
    _remove_empty(pos, q)
    pos[BOARD, q] = colour
    pos[HDR, H_HASH] ^= _Z[colour - 1, pos[Q2P, q]]
    pos[HEAD, q] = q
    pos[NEXT, q] = q
    libs = 0
    lsum = 0
    lsq = 0
    change = (1 << (4 * colour)) - 1
    for d in (1, -1, w, -w):
        x = q + d
        pos[NBR, x] += change
        v = pos[BOARD, x]
        if v == EMPTY:
            libs += 1
            lsum += x
            lsq += x * x
        elif v != BORDER:
            c = pos[HEAD, x]
            pos[LIBS, c] -= 1
            pos[LSUM, c] -= q
            pos[LSQ, c] -= q * q
    pos[LIBS, q] = libs
    pos[LSUM, q] = lsum
    pos[LSQ, q] = lsq
    pos[STONES, q] = 1
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == colour:
            a = pos[HEAD, x]
            b = pos[HEAD, q]
            if a != b:
                if pos[STONES, a] >= pos[STONES, b]:
                    _merge(pos, a, b)
                else:
                    _merge(pos, b, a)


@njit(cache=True, inline="always")
def place_q(pos, q, colour):  # pragma: no cover - compiled
    """Put a stone of ``colour`` on the empty square ``q`` (:func:`put_q`) and capture the
    other colour's chains it leaves without liberties. Returns ``(stones captured, square
    of the last chain captured)``; touches no header counter but the hash and the empty
    list (no suicide check: a chain of ``colour`` left without liberties stays)."""
    put_q(pos, q, colour)
    w = pos[HDR, H_W]
    other = 3 - colour
    taken = 0
    where = -1
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == other and pos[LIBS, pos[HEAD, x]] == 0:
            taken += _capture(pos, pos[HEAD, x], colour)
            where = x
    return taken, where


# ---------------------------------------------------------------------------- moves


@njit(cache=True, inline="always")
def play(pos, p):  # pragma: no cover - compiled
    """Play the legal action ``p`` (a point, or ``size * size`` to pass) for the player to
    move: the board, chains, captures, hash, ko point, passes, move count, last move."""
    colour = pos[HDR, H_TO_MOVE] + 1
    pos[HDR, H_TO_MOVE] = 2 - colour
    pos[HDR, H_MOVES] += 1
    pos[HDR, H_LAST] = p
    if p == pos[HDR, H_N]:
        pos[HDR, H_PASSES] += 1
        pos[HDR, H_KO] = -1
        return
    pos[HDR, H_PASSES] = 0
    q = pos[P2Q, p]
    taken, where = place_q(pos, q, colour)
    pos[HDR, H_CAPT + colour - 1] += taken
    head = pos[HEAD, q]
    if taken == 1 and pos[STONES, head] == 1 and pos[LIBS, head] == 1:
        pos[HDR, H_KO] = pos[Q2P, where]
    else:
        pos[HDR, H_KO] = -1


@njit(cache=True, inline="always")
def _legal_q(pos, q, colour):  # pragma: no cover - compiled
    """Is a stone of ``colour`` on the empty square ``q`` legal but for the ko (not suicide)?"""
    w = pos[HDR, H_W]
    for d in (1, -1, w, -w):
        x = q + d
        v = pos[BOARD, x]
        if v == EMPTY:
            return True
        if v != BORDER:
            atari = in_atari(pos, pos[HEAD, x])
            if (v == colour) != atari:  # an own chain keeps a liberty / a capture
                return True
    return False


@njit(cache=True, inline="always")
def is_legal(pos, p):  # pragma: no cover - compiled
    """Is the action ``p`` legal for the player to move (pass always; a point: on the board,
    empty, not suicide, not the ko point)? Superko is the caller's."""
    n = pos[HDR, H_N]
    if p == n:
        return True
    if p < 0 or p > n:
        return False
    q = pos[P2Q, p]
    if pos[BOARD, q] != EMPTY or p == pos[HDR, H_KO]:
        return False
    return _legal_q(pos, q, pos[HDR, H_TO_MOVE] + 1)


@njit(cache=True, inline="always")
def is_own_eye(pos, q, colour):  # pragma: no cover - compiled
    """Would a stone of ``colour`` on the empty square ``q`` fill its own eye: all four
    neighbours are ``colour`` or the edge, and the diagonals hold at most one stone of the
    other colour (none when ``q`` is on the edge or in a corner)?"""
    kinds = pos[NBR, q]
    edge = kinds >> 12
    if (kinds >> (4 * colour) & 15) + edge != 4:
        return False
    w = pos[HDR, H_W]
    other = 3 - colour
    bad = 0
    for d in (w + 1, w - 1, -w + 1, -w - 1):
        if pos[BOARD, q + d] == other:
            bad += 1
    return bad + (edge > 0) <= 1


@njit(cache=True)
def legal_points(pos, out):  # pragma: no cover - compiled
    """Write the legal points (no pass), increasing, to ``out``; return their number."""
    n = pos[HDR, H_N]
    colour = pos[HDR, H_TO_MOVE] + 1
    ko = pos[HDR, H_KO]
    k = 0
    for p in range(n):
        q = pos[P2Q, p]
        if pos[BOARD, q] == EMPTY and p != ko and _legal_q(pos, q, colour):
            out[k] = p
            k += 1
    return k


@njit(cache=True, inline="always")
def playable_q(pos, q, colour):  # pragma: no cover - compiled
    """Is the empty square ``q`` a playout move for ``colour`` (legal, not its own eye)?"""
    if pos[NBR, q] & 15:  # an empty neighbour: a liberty, no eye (and not the ko point)
        return True
    return (
        pos[Q2P, q] != pos[HDR, H_KO]
        and not is_own_eye(pos, q, colour)
        and _legal_q(pos, q, colour)
    )


@njit(cache=True)
def playout_points(pos, out):  # pragma: no cover - compiled
    """Write the points a random playout considers (legal, not filling the mover's own eye),
    increasing, to ``out``; return their number (0: the playout passes)."""
    n = pos[HDR, H_N]
    colour = pos[HDR, H_TO_MOVE] + 1
    k = 0
    for p in range(n):
        q = pos[P2Q, p]
        if pos[BOARD, q] == EMPTY and playable_q(pos, q, colour):
            out[k] = p
            k += 1
    return k


@njit(cache=True, inline="always")
def random_move(pos, rng, below):  # pragma: no cover - compiled
    """``(p, rng)``: a point uniform among :func:`playout_points`, or the pass when there is
    none, drawn with ``below(rng, n)`` (the compiled MCTS's ``next_below``). It draws among
    the empty squares and swaps a rejected one out of the draw (so it may reorder the
    position's list of empty squares, which has no order)."""
    colour = pos[HDR, H_TO_MOVE] + 1
    left = pos[HDR, H_N_EMPTY]
    while left > 0:
        rng, i = below(rng, left)
        q = pos[EMPTY_LIST, i]
        if playable_q(pos, q, colour):
            return pos[Q2P, q], rng
        left -= 1
        last = pos[EMPTY_LIST, left]
        pos[EMPTY_LIST, i] = last
        pos[EIDX, last] = i
        pos[EMPTY_LIST, left] = q
        pos[EIDX, q] = left
    return pos[HDR, H_N], rng


# ---------------------------------------------------------------------------- scoring


@njit(cache=True)
def area_score(pos):  # pragma: no cover - compiled
    """Tromp-Taylor area score: black's stones and the empty regions reaching only black,
    minus white's, minus komi."""
    gen = pos[HDR, H_GEN] + 1
    pos[HDR, H_GEN] = gen
    w = pos[HDR, H_W]
    n = pos[HDR, H_N]
    score = 0
    for p in range(n):
        q = pos[P2Q, p]
        v = pos[BOARD, q]
        if v == BLACK:
            score += 1
        elif v == WHITE:
            score -= 1
        elif pos[MARK, q] != gen:
            pos[MARK, q] = gen
            pos[STACK, 0] = q
            top = 1
            size = 0
            reach = 0
            while top > 0:
                top -= 1
                s = pos[STACK, top]
                size += 1
                for d in (1, -1, w, -w):
                    x = s + d
                    u = pos[BOARD, x]
                    if u == EMPTY:
                        if pos[MARK, x] != gen:
                            pos[MARK, x] = gen
                            pos[STACK, top] = x
                            top += 1
                    elif u != BORDER:
                        reach |= u
            if reach == BLACK:
                score += size
            elif reach == WHITE:
                score -= size
    return score - pos[HDR, H_KOMI2] / 2.0
