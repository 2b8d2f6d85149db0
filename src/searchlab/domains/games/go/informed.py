"""Go's informed rollout policy in numba, on the positions of :mod:`.board`: the same
rules as the reference :func:`searchlab.domains.games.go.policy.informed_action` (atari
answers to the last move, then MoGo's 3x3 patterns around it, then eye-avoiding random; the
pattern table :data:`~searchlab.domains.games.go.policy.PATTERN_TABLE` is the reference
module's, written once). Legal means :func:`~.board.is_legal`: the basic ko, no superko.

:func:`informed_candidates` writes the candidates of stages 1 and 2 (``ATARI``, ``PATTERN``)
in increasing order; :func:`informed_move` draws uniformly among them with the caller's
``below(rng, n)`` (the compiled MCTS's ``next_below``), and otherwise plays
:func:`~.board.random_move` (uniform among the playout points, else the pass). Nothing
is allocated: the candidates go to the position's scratch row ``STACK``.

>>> import numpy as np
>>> from searchlab.domains.games.go import Go
>>> from searchlab.domains.games.go.arrays import encode
>>> state = Go(5).position(black=["C3"], white=["B3", "C4"], to_move="white")
>>> pos = encode(state.apply(13))  # white D3: black's C3 in atari, C2 saves it
>>> out = np.zeros(26, dtype=np.int64)
>>> informed_candidates(pos, out), out[:1].tolist()
((1, 1), [7])
"""

from __future__ import annotations

from numba import njit

from searchlab.domains.games.go.board import (
    BOARD,
    EMPTY,
    H_GEN,
    H_LAST,
    H_N,
    H_TO_MOVE,
    H_W,
    HDR,
    HEAD,
    LIBS,
    LSUM,
    MARK,
    NEXT,
    P2Q,
    Q2P,
    STACK,
    in_atari,
    is_legal,
    is_own_eye,
    random_move,
)
from searchlab.domains.games.go.policy import ATARI, PATTERN, PATTERN_TABLE, RANDOM

__all__ = ["informed_candidates", "informed_move", "liberties_at_least_two", "matches_pattern"]

_TABLE = PATTERN_TABLE.copy()  # a numba global: frozen into the compiled code


@njit(cache=True)
def liberties_at_least_two(pos, x, colour):  # pragma: no cover - compiled
    """Would the chain a stone of ``colour`` on the empty square ``x`` forms (after its
    captures) have two liberties or more? Exact: counts distinct liberties, the squares of
    the chains it captures included."""
    w = pos[HDR, H_W]
    gen = pos[HDR, H_GEN] + 1
    pos[HDR, H_GEN] = gen
    pos[MARK, x] = gen
    other = 3 - colour
    count = 0
    heads0 = -1
    heads1 = -1
    heads2 = -1
    for k in range(5):  # x itself, then the chains of colour next to it
        if k == 0:
            start = x
        else:
            d = (1, -1, w, -w)[k - 1]
            y = x + d
            if pos[BOARD, y] != colour:
                continue
            start = pos[HEAD, y]
            if start in (heads0, heads1, heads2):
                continue
            if heads0 < 0:
                heads0 = start
            elif heads1 < 0:
                heads1 = start
            else:
                heads2 = start
        s = start
        while True:
            for d in (1, -1, w, -w):
                y = s + d
                if pos[MARK, y] == gen:
                    continue
                v = pos[BOARD, y]
                if v == EMPTY:
                    pos[MARK, y] = gen
                    count += 1
                elif v == other:
                    h = pos[HEAD, y]
                    if in_atari(pos, h) and pos[LSUM, h] // pos[LIBS, h] == x:
                        pos[MARK, y] = gen  # captured: its squares become liberties
                        count += 1
                if count >= 2:
                    return True
            if k == 0:
                break
            s = pos[NEXT, s]
            if s == start:
                break
    return False


@njit(cache=True, inline="always")
def matches_pattern(pos, q, w):  # pragma: no cover - compiled
    """Whether the 3x3 neighbourhood of the padded point ``q`` (row width ``w``) is one of
    MoGo's patterns: its eight neighbours' contents, two bits each, index the table of
    :data:`~searchlab.domains.games.go.policy.PATTERN_TABLE` (the one place the code is made,
    for the playouts here and the priors of the Go MCTS kernel)."""
    code = (
        pos[BOARD, q + w - 1]
        | pos[BOARD, q + w] << 2
        | pos[BOARD, q + w + 1] << 4
        | pos[BOARD, q - 1] << 6
        | pos[BOARD, q + 1] << 8
        | pos[BOARD, q - w - 1] << 10
        | pos[BOARD, q - w] << 12
        | pos[BOARD, q - w + 1] << 14
    )
    return _TABLE[code] != 0


@njit(cache=True)
def _add(out, n, p):  # pragma: no cover - compiled
    """Insert ``p`` into the increasing ``out[:n]`` unless there; the new length."""
    i = n
    while i > 0 and out[i - 1] > p:
        i -= 1
    if i > 0 and out[i - 1] == p:
        return n
    j = n
    while j > i:
        out[j] = out[j - 1]
        j -= 1
    out[i] = p
    return n + 1


@njit(cache=True, inline="always")
def informed_candidates(pos, out):  # pragma: no cover - compiled
    """``(stage, n)``: the candidates of the atari stage (``ATARI``) or, if none, of the
    pattern stage (``PATTERN``) in ``out[:n]``, increasing; ``(RANDOM, 0)`` when neither has
    any (the move is then :func:`~.board.random_move`'s)."""
    last = pos[HDR, H_LAST]
    if last < 0 or last == pos[HDR, H_N]:
        return RANDOM, 0
    w = pos[HDR, H_W]
    ql = pos[P2Q, last]
    if pos[BOARD, ql] == EMPTY:
        return RANDOM, 0
    colour = pos[HDR, H_TO_MOVE] + 1
    n = 0
    head = pos[HEAD, ql]
    if in_atari(pos, head):
        x = pos[LSUM, head] // pos[LIBS, head]
        if is_legal(pos, pos[Q2P, x]):
            n = _add(out, n, pos[Q2P, x])
    for d in (1, -1, w, -w):
        y = ql + d
        if pos[BOARD, y] == colour:
            h = pos[HEAD, y]
            if in_atari(pos, h):
                x = pos[LSUM, h] // pos[LIBS, h]
                p = pos[Q2P, x]
                if is_legal(pos, p) and liberties_at_least_two(pos, x, colour):
                    n = _add(out, n, p)
    if n > 0:
        return ATARI, n
    for d in (w - 1, w, w + 1, -1, 1, -w - 1, -w, -w + 1):
        q = ql + d
        if pos[BOARD, q] != EMPTY:
            continue
        if (
            matches_pattern(pos, q, w)
            and not is_own_eye(pos, q, colour)
            and is_legal(pos, pos[Q2P, q])
        ):
            n = _add(out, n, pos[Q2P, q])
    if n > 0:
        return PATTERN, n
    return RANDOM, 0


@njit(cache=True, inline="always")
def informed_move(pos, rng, below):  # pragma: no cover - compiled
    """``(p, rng)``: the informed rollout move of the position (see the module docstring)."""
    out = pos[STACK]
    _stage, n = informed_candidates(pos, out)
    if n > 0:
        rng, i = below(rng, n)
        return out[i], rng
    return random_move(pos, rng, below)
