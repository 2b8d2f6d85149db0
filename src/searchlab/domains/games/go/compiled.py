"""Go for the one compiled search loop (:mod:`~searchlab.algorithms.mcts._kernel_loop`): the
compiled-game functions and hooks (:class:`~searchlab.core.compiled_game.CompiledGame`) on the
board of :mod:`searchlab.domains.games.go.board`, registered for
:class:`~searchlab.domains.games.go.Go` like every compiled game.

A position is ``(pos, history)``: the ``int64`` array of
:mod:`~searchlab.domains.games.go.board` that ``play`` changes in place (each simulation starts
from a copy of the root's) and the sorted superko keys of the game before the root
(``GoState.history``). Players alternate (a pass is a move).

Go uses every optional hook of the protocol:

* ``tree_actions``: the tree holds the moves that do not fill the mover's own eye
  (:func:`~searchlab.domains.games.go.board.playout_points`) and the pass, always; a legal
  move outside the tree (an own-eye fill) is reported with no visits;
* ``priors``: a node's children are made a block at once, after ``expand_visits`` (2) visits
  (the root's at once), each with heuristic prior knowledge (:func:`priors`); selection is
  then UCT-RAVE with priors (``_kernel_loop._select_priors``): the child with the largest
  ``(1 - beta) Q + beta A + c sqrt(2 ln N / n)``, ``n = visits + prior visits``,
  ``Q = (value + prior value) / n``, ``A`` the AMAF mean, ``beta = sqrt(k / (3 n + k))``
  (``k = MCTSOptions.rave``; 0: plain UCT with priors). Without priors (``GoSearcher(priors=
  False)``) every child starts empty, so plain UCT tries every move once, in random order;
* ``repeats``: superko (the game's rule: positional, situational, or only the basic ko) is
  checked for every move the tree plays, against the root's history and the positions along
  the path; a repetition marks the child illegal and the simulation starts again. Playouts
  check only the basic ko;
* ``playout``: the rollouts (eye-avoiding uniform :func:`~searchlab.domains.games.go.board.
  random_move`, or :func:`~searchlab.domains.games.go.informed.informed_move`) tell their
  moves, so RAVE runs over either policy; ``amaf_first``: only the first play of each point
  in a simulation counts, for the player who made it (Gelly and Silver 2007), the pass none.

A playout plays until two passes in a row or the game's ``max_moves`` plies (the game then
ends and is scored as it stands, as :class:`~searchlab.domains.games.go.Go` does; a playout
that cycles in a triple ko also ends there). A finished game is worth, to each player, the sign
of the area score (``sign``, the ``"outcome"`` scale, and any ``win_loss`` game) or the score
over ``max_utility`` (``"normalised"`` with area scoring).

**Priors** (:func:`priors`, set by the bits of the config's mask: :data:`TACTICS`,
:data:`PATTERNS`; 0 turns them off): every new child starts with :data:`PRIOR_EVEN` virtual
visits at an even value (Gelly and Silver's "even game" prior), shifted by virtual wins or
losses (MoGo's and Fuego's kinds of knowledge): wins for a capture, for an escape of an own
chain in atari (to two liberties at least), for contact with the last move and for a 3x3
neighbourhood matching one of MoGo's patterns (the informed playouts' table); losses for a
self-atari of two or more stones that captures nothing and for a first-line move with no
stone within Manhattan distance 2; the pass starts with virtual losses (the constants below).
They steer the first visits toward tactically sensible moves until real visits outweigh them.

>>> from searchlab.domains.games.go import Go
>>> rules = compiled_go(Go(5))
>>> rules.max_branching, rules.pass_action, rules.rollouts
(26, 25, ('random', 'informed'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from searchlab.core.compiled_game import CompiledGame
from searchlab.core.compiled_rng import next_below
from searchlab.core.errors import IllegalMoveError
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.board import (
    BOARD,
    BORDER,
    EMPTY,
    H_GEN,
    H_LAST,
    H_N,
    H_SIZE,
    H_TO_MOVE,
    H_W,
    HDR,
    HEAD,
    MARK,
    NEXT,
    P2Q,
    STONES,
    area_score,
    hash_of,
    in_atari,
    is_over,
    legal_points,
    playout_points,
    random_move,
    to_move,
)
from searchlab.domains.games.go.board import play as play_point
from searchlab.domains.games.go.informed import informed_move, matches_pattern

__all__ = [
    "EXPAND_VISITS",
    "INFORMED",
    "NO_SUPERKO",
    "PATTERNS",
    "POSITIONAL",
    "RANDOM",
    "SITUATIONAL",
    "TACTICS",
    "actions",
    "compiled_go",
    "config_for",
    "encode",
    "moves_between",
    "play",
    "playout",
    "priors",
    "repeats",
    "rollout",
    "status",
    "tree_actions",
]

EXPAND_VISITS = 2
"""Visits a node needs before its children are made (the root's are made at once)."""
RANDOM, INFORMED = 0, 1
POLICIES = {"random": RANDOM, "informed": INFORMED}
"""The rollout policies, by their ``MCTSOptions.rollout`` names."""
NO_SUPERKO, POSITIONAL, SITUATIONAL = 0, 1, 2
_SUPERKO = {"simple": NO_SUPERKO, "positional": POSITIONAL, "situational": SITUATIONAL}
C_SIGN, C_POLICY, C_SUPERKO, C_PRIORS, C_SIDE_KEY, C_MAX_UTILITY = range(6)
"""Slots of the ``config`` tuple (:func:`config_for`): 1 to value a game by the sign of its
score; the rollout policy; the superko rule; the priors' mask; the key XORed in when white is
to move (situational superko); the game's ``max_utility``."""

PRIOR_EVEN = 10.0
"""Virtual visits at an even value (return 0) every new child starts with."""
PRIOR_CAPTURE = 20.0
"""Virtual wins of a move that captures."""
PRIOR_ESCAPE = 15.0
"""Virtual wins of a move that gives an own chain in atari a second liberty."""
PRIOR_SELF_ATARI = 20.0
"""Virtual losses of a move that leaves its own chain of two or more stones in atari (and
captures nothing)."""
PRIOR_EDGE = 15.0
"""Virtual losses of a first-line move with no stone within Manhattan distance 2."""
PRIOR_CONTACT = 5.0
"""Virtual wins of a move among the 8 neighbours of the last move."""
PRIOR_PASS = 20.0
"""Virtual losses of the pass."""
PRIOR_PATTERN = 5.0
"""Virtual wins of a move whose 3x3 neighbourhood matches one of MoGo's patterns
(:data:`~searchlab.domains.games.go.policy.PATTERNS`, the informed playouts' table)."""
TACTICS, PATTERNS = 1, 2
"""Bits of the config's priors mask: the tactical and edge priors; the pattern prior."""


@njit(cache=True, inline="always")
def _liberties_after(pos, q, colour, cap):  # pragma: no cover - compiled
    """The liberties (counted up to ``cap``) of the chain a stone of ``colour`` on the empty
    square ``q`` would make, captures aside: the empty neighbours of ``q`` and those of the
    own chains it joins, each once."""
    w = pos[HDR, H_W]
    gen = pos[HDR, H_GEN] + 1
    pos[HDR, H_GEN] = gen
    pos[MARK, q] = gen
    count = 0
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == EMPTY and pos[MARK, x] != gen:
            pos[MARK, x] = gen
            count += 1
    if count >= cap:
        return count
    h0 = -1
    h1 = -1
    h2 = -1
    for d in (1, -1, w, -w):
        x = q + d
        if pos[BOARD, x] == colour:
            head = pos[HEAD, x]
            if head in (h0, h1, h2):
                continue  # this chain is walked already
            h2 = h1
            h1 = h0
            h0 = head
            s = head
            while True:
                for e in (1, -1, w, -w):
                    y = s + e
                    if pos[BOARD, y] == EMPTY and pos[MARK, y] != gen:
                        pos[MARK, y] = gen
                        count += 1
                        if count >= cap:
                            return count
                s = pos[NEXT, s]
                if s == head:
                    break
    return count


@njit(cache=True)
def priors(pos, history, actions, offset, n, prior_visits, prior_value, config):  # pragma: no cover
    """Fill the priors (module docstring) of the block of ``n`` children from ``offset``,
    whose moves are ``actions[offset:offset + n]`` in the position ``pos``; the config's mask
    0 leaves them empty (no priors)."""
    mask = config[C_PRIORS]
    if mask == 0:
        return
    size = pos[HDR, H_SIZE]
    pass_action = size * size
    last = pos[HDR, H_LAST]  # the move that led here (-1: none; the pass: size * size)
    w = pos[HDR, H_W]
    colour = pos[HDR, H_TO_MOVE] + 1
    other = 3 - colour
    last_row = -10
    last_col = -10
    if 0 <= last < pass_action:
        last_row = last // size
        last_col = last % size
    for i in range(n):
        p = actions[offset + i]
        if p == pass_action:
            prior_visits[offset + i] = int(PRIOR_EVEN + PRIOR_PASS)
            prior_value[offset + i] = -PRIOR_PASS
            continue
        q = pos[P2Q, p]
        pn = PRIOR_EVEN
        pw = 0.0
        if mask & TACTICS:
            captured = 0
            own_atari = False
            for d in (1, -1, w, -w):
                x = q + d
                v = pos[BOARD, x]
                if 0 < v < BORDER:  # a stone
                    head = pos[HEAD, x]
                    if in_atari(pos, head):
                        if v == other:
                            captured += pos[STONES, head]
                        else:
                            own_atari = True
            if captured > 0:
                pn += PRIOR_CAPTURE
                pw += PRIOR_CAPTURE
            else:
                libs = _liberties_after(pos, q, colour, 2)
                if libs <= 1:
                    stones = 1
                    for d in (1, -1, w, -w):
                        if pos[BOARD, q + d] == colour:
                            stones += 1
                    if stones >= 2:
                        pn += PRIOR_SELF_ATARI
                        pw -= PRIOR_SELF_ATARI
                elif own_atari:
                    pn += PRIOR_ESCAPE
                    pw += PRIOR_ESCAPE
            row = p // size
            col = p % size
            if row == 0 or col == 0 or row == size - 1 or col == size - 1:
                lonely = True
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        if abs(dr) + abs(dc) > 2 or (dr == 0 and dc == 0):
                            continue
                        r = row + dr
                        cc = col + dc
                        inside = 0 <= r < size and 0 <= cc < size
                        if inside and pos[BOARD, pos[P2Q, r * size + cc]] != EMPTY:
                            lonely = False
                if lonely:
                    pn += PRIOR_EDGE
                    pw -= PRIOR_EDGE
            if abs(row - last_row) <= 1 and abs(col - last_col) <= 1:
                pn += PRIOR_CONTACT
                pw += PRIOR_CONTACT
        if mask & PATTERNS and matches_pattern(pos, q, w):
            pn += PRIOR_PATTERN
            pw += PRIOR_PATTERN
        prior_visits[offset + i] = int(pn)
        prior_value[offset + i] = pw


# --- the compiled-game functions ---------------------------------------------------------------


@njit(cache=True)
def actions(pos, history, out, offset):  # pragma: no cover - compiled
    """The legal moves (but for superko), increasing, then the pass."""
    n = legal_points(pos, out[offset:])
    out[offset + n] = pos[HDR, H_N]
    return n + 1


@njit(cache=True)
def tree_actions(pos, history, out, offset):  # pragma: no cover - compiled
    """The moves the tree holds: the legal points that fill no eye of the mover's, increasing,
    then the pass."""
    n = playout_points(pos, out[offset:])
    out[offset + n] = pos[HDR, H_N]
    return n + 1


@njit(cache=True, inline="always")
def play(pos, history, action):  # pragma: no cover - compiled
    """Play ``action`` in place."""
    play_point(pos, action)
    return pos, history


@njit(cache=True, inline="always")
def _black(pos, config):  # pragma: no cover - compiled
    """What the finished game ``pos`` is worth to black on the search's scale."""
    score = area_score(pos)
    if config[C_SIGN] != 0:
        return 1.0 if score > 0.0 else -1.0 if score < 0.0 else 0.0
    return score / config[C_MAX_UTILITY]


@njit(cache=True)
def status(pos, history, config):  # pragma: no cover - compiled
    """``(is over, value for the player to move)``."""
    if not is_over(pos):
        return False, 0.0
    black = _black(pos, config)
    return True, black if to_move(pos) == 0 else -black


@njit(cache=True, inline="always")
def _playout(pos, rng, config, players, moves, record):  # pragma: no cover - compiled
    """The config's policy to the end of the game (``pos`` changes in place), with
    ``record`` each move and its player to ``moves``, ``players`` (at most their length):
    ``(value for the player to move at the start, rng, moves played)``."""
    start = to_move(pos)
    informed = config[C_POLICY] == INFORMED
    t = 0
    while not is_over(pos):
        if record and t >= moves.shape[0]:
            break
        if informed:
            move, rng = informed_move(pos, rng, next_below)
        else:
            move, rng = random_move(pos, rng, next_below)
        if record:
            players[t] = to_move(pos)
            moves[t] = move
        play_point(pos, move)
        t += 1
    black = _black(pos, config)
    return (black if start == 0 else -black), rng, t


@njit(cache=True)
def rollout(pos, history, rng, config):  # pragma: no cover - compiled
    """A playout (:func:`_playout`): ``(value for the player to move, rng)``."""
    header = pos[HDR]  # never written (no record)
    value, rng, _ = _playout(pos, rng, config, header, header, False)
    return value, rng


@njit(cache=True)
def playout(pos, history, rng, config, players, moves):  # pragma: no cover - compiled
    """A playout telling its moves, for RAVE: ``(value for the player to move, rng, n)``."""
    return _playout(pos, rng, config, players, moves, True)


@njit(cache=True, inline="always")
def _seen(h, history, keys, depth):  # pragma: no cover - compiled
    """``h`` is in the sorted ``history`` or among ``keys[:depth]``."""
    lo = 0
    hi = history.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if history[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    if lo < history.shape[0] and history[lo] == h:
        return True
    found = False
    for i in range(depth):
        if keys[i] == h:
            found = True
            break
    return found


@njit(cache=True, inline="always")
def repeats(pos, history, config, keys, depth, check):  # pragma: no cover - compiled
    """Keep the position's superko key (the board hash, with the side key mixed in when white
    is to move under situational superko) in ``keys[depth]``; with ``check``, whether it
    repeats the root's history or the path (never under the basic ko alone)."""
    superko = config[C_SUPERKO]
    h = hash_of(pos)
    if superko == SITUATIONAL and to_move(pos) == 1:
        h ^= config[C_SIDE_KEY]
    keys[depth] = h
    if not check or superko == NO_SUPERKO:
        return False
    return _seen(h, history, keys, depth)


# --- Python side -------------------------------------------------------------------------------


def encode(state: GoState) -> tuple[np.ndarray, np.ndarray]:
    """The compiled position of ``state``: its board array and its sorted superko history."""
    from searchlab.domains.games.go.arrays import encode as encode_board

    if not isinstance(state, GoState):
        raise TypeError(f"not a Go position: {type(state).__name__}")
    return encode_board(state), np.array(sorted(state.history), dtype=np.uint64)


def config_for(
    state: GoState, value_scale: str, rollout: str, *, priors: bool = True
) -> tuple[int, int, int, int, np.uint64, float]:
    """The ``config`` of the functions above for ``state``'s game (``priors`` off: no prior
    knowledge)."""
    from searchlab.domains.games.go.zobrist import SIDE_TO_MOVE_KEY

    game = state.game
    sign = value_scale == "outcome" or game.scoring == "win_loss"
    return (
        int(sign), POLICIES[rollout], _SUPERKO[game.superko],
        TACTICS | PATTERNS if priors else 0, np.uint64(SIDE_TO_MOVE_KEY),
        float(game.info.max_utility or 1.0),
    )  # fmt: skip


def _config_without_priors(
    state: GoState, value_scale: str, rollout: str
) -> tuple[int, int, int, int, np.uint64, float]:
    return config_for(state, value_scale, rollout, priors=False)


def moves_between(old: GoState, new: Any) -> Sequence[int] | None:
    """The moves from ``old`` to ``new`` when ``new`` is ``old`` of the same game followed by
    legal moves (the same stones, player and history as replaying them gives); else
    ``None``."""
    if not isinstance(new, GoState) or new.game != old.game:
        return None
    count = len(old.moves)
    if new.moves[:count] != old.moves:
        return None
    replay = old
    try:
        for move in new.moves[count:]:
            replay = replay.apply(move)
    except IllegalMoveError:
        return None
    if replay.key() != new.key() or replay.history != new.history:
        return None  # a hand-built position with the same moves: not the tree's
    return new.moves[count:]


def compiled_go(game: Go, *, priors: bool = True, expand: int = EXPAND_VISITS) -> CompiledGame:
    """Go's rules for the compiled MCTS, for ``game``'s board size (registered for
    :class:`~searchlab.domains.games.go.Go`; ``priors`` and ``expand`` are
    :class:`~searchlab.algorithms.mcts.go_compiled.GoSearcher`'s switches)."""
    points = game.size * game.size
    rules = _RULES
    if not priors or expand != EXPAND_VISITS:
        rules = dataclasses.replace(
            rules, config=config_for if priors else _config_without_priors, expand_visits=expand
        )
    return dataclasses.replace(
        rules, max_branching=points + 1, num_actions=points + 1, pass_action=points
    )


_RULES = CompiledGame(
    name="go", actions=actions, play=play, status=status, rollout=rollout, encode=encode,
    config=config_for, max_branching=2, rollouts=tuple(POLICIES), num_actions=2, pass_action=1,
    tree_actions=tree_actions, priors=priors, repeats=repeats, playout=playout,
    expand_visits=EXPAND_VISITS, amaf_first=True, moves_between=moves_between,
)  # fmt: skip
"""The size-free part of :func:`compiled_go` (the sizes are the board's)."""
