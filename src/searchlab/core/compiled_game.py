"""The compiled-game protocol: a game's rules as numba functions, the one contract between a
game and the compiled Monte Carlo engine (:mod:`searchlab.algorithms.mcts`).

A game of your own gets compiled MCTS (UCT, MCTS-Solver, the final-move rules, time and node
budgets, Ctrl-C) by describing its rules once more, in numba, as a :class:`CompiledGame`, and
registering it for its game type (``searchlab.algorithms.mcts.register_compiled_game``); the
built-in Connect Four, Othello and Snake Go register through the same call. Nothing of
searchlab's source changes: ``examples/breakthrough.py`` is a worked example.

**Positions.** A compiled position is a pair ``(a, b)``: two machine words (numpy scalars,
such as ``np.uint64`` bitboards; ``play`` returns new ones), or an array ``a`` that ``play``
changes in place with read-only data ``b`` (each simulation starts from a copy of the root's
``a``). ``encode(state)`` makes the pair from a position of the reference tier (Python).

**The functions** (numba ``@njit``; ``cache=True`` keeps them compiled across processes):

============================================ ================================================
``actions(a, b, out, offset) -> n``           write the ``n`` legal actions of a non-terminal
                                              position into ``out[offset:offset + n]`` (an
                                              ``int16`` array), the same integers, in the same
                                              order, as the state's ``legal_actions()``
``play(a, b, action) -> (a, b)``              the position after the player to move plays
                                              ``action``
``status(a, b, config) -> (is_over, value)``  ``is_over`` a bool; ``value`` (a float in
                                              ``[-1, 1]``) what the finished game is worth to
                                              the player to move in it (+1 win, 0 draw, -1
                                              loss on the ``"outcome"`` scale); 0 otherwise
``rollout(a, b, rng, config) -> (value, rng)`` optional: the game's playout policy from a
                                              non-terminal position to the end (``value`` for
                                              the player to move at its start); random numbers
                                              only from ``next_below(rng, n) -> (rng, k)``.
                                              Without one, uniformly random moves through
                                              ``actions`` and ``play``, at most
                                              ``max_game_length`` plies
``next_player(a, b, before) -> player``       optional: who moves after a ply by ``before``
                                              (0 or 1); without one, players alternate
============================================ ================================================

``config`` is a number (or a tuple of numbers) made by ``config(state, value_scale,
rollout)`` in Python, passed unchanged to ``status`` and ``rollout``: which value scale, which
rollout policy (names in ``rollouts``). ``max_branching`` bounds ``n``.

**Optional hooks** for a game that wants more of the one search loop (Go uses them all; a game
without them pays nothing, the loop compiles them out):

================================================ ============================================
``tree_actions(a, b, out, offset) -> n``          the actions the tree holds (default: the
                                                  legal ones), e.g. Go's moves that fill no
                                                  eye of the mover's, and the pass; a legal
                                                  action left out is reported with no visits
``priors(a, b, actions, offset, n, visits,        makes a node's children a whole block at
value, config)``                                  once (after ``expand_visits`` visits; the
                                                  root's at once) and fills each child's prior
                                                  knowledge: ``visits[offset + i]`` virtual
                                                  visits (integers) whose returns sum to
                                                  ``value[offset + i]`` (Gelly and Silver
                                                  2007); selection is then UCT-RAVE with
                                                  those priors
``repeats(a, b, config, keys, depth, check)       writes the position's key to
-> bool``                                         ``keys[depth]``; with ``check``, whether the
                                                  position repeats one before the root (the
                                                  game's history, in ``b``) or on the path
                                                  (``keys[:depth]``): positional superko. A
                                                  repeating move is never played again
``playout(a, b, rng, config, players, moves)      the game's rollout telling its moves (move
-> (value, rng, n)``                              ``t`` and its player to ``moves[t]``,
                                                  ``players[t]``, at most ``len(moves)``):
                                                  RAVE then runs over the game's own rollout
                                                  policies, not only uniform playouts
================================================ ============================================

``amaf_first`` makes RAVE count only the first play of each action in a simulation (Gelly and
Silver's all-moves-as-first; default: every later play by the node's player, as the
reference tier). ``moves_between(old, new)`` (Python) gives the actions that lead from the
previous search's root to the next position (``None``: not one that follows from it), for
tree reuse in games that record their moves; without it the searcher looks for the position
among the previous tree's first turns by ``key()``.

**Checks.** Registering checks the description's shape (:func:`check_shape`: a function
missing, not compiled, a bad number); the first search on a game plays one seeded random game
through both tiers (:func:`check_against_reference`): the compiled legal actions, ends and
values must be the reference tier's, ply for ply. Every failure is one
:class:`CompiledGameError` line naming the game and the function, never a numba traceback.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def actions(a, b, out, offset):
...     out[offset] = 1; out[offset + 1] = 2
...     return 2
>>> @njit
... def play(a, b, action): return a + action, b
>>> @njit
... def status(a, b, config): return a >= 4, -1.0 if a >= 4 else 0.0
>>> rules = CompiledGame(name="race", actions=actions, play=play, status=status,
...                      encode=lambda state: (np.int64(state), np.int64(0)), max_branching=2)
>>> check_shape(rules) is rules
True
>>> check_shape(CompiledGame(name="race", actions=actions, play=lambda a, b, m: (a, b),
...     status=status, encode=rules.encode, max_branching=2))
Traceback (most recent call last):
...
searchlab.core.compiled_game.CompiledGameError: race: compiled game: play must be a numba \
@njit function, got a plain Python function
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State

__all__ = [
    "CompiledGame",
    "CompiledGameError",
    "check_against_reference",
    "check_rollout_ends",
    "check_shape",
    "default_config",
]

REQUIRED = ("actions", "play", "status")
"""The numba functions every compiled game has."""
OPTIONAL = ("rollout", "next_player", "tree_actions", "priors", "repeats", "playout")
"""The numba functions a compiled game may have."""
MAX_BRANCHING = 32767
"""Actions and child counts are ``int16`` in the tree: both are at most this."""


class CompiledGameError(InvalidParameterError):
    """A compiled game that breaks the protocol: missing or uncompiled functions, wrong types,
    or rules that disagree with the game's reference tier."""


def default_config(state: State, value_scale: str, rollout: str) -> int:
    """The ``config`` of a game that needs none: 0."""
    return 0


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledGame:
    """A game's rules in numba for the compiled MCTS (see the module docstring).

    Attributes:
        name: the game's name, in messages.
        actions, play, status: the required ``@njit`` functions.
        encode: ``state -> (a, b)``, the compiled position of a reference-tier state.
        max_branching: the most legal actions a position has (1 to 32767).
        rollout: the game's own playout policy (``@njit``), or ``None``: uniformly random
            moves, at most ``max_game_length`` plies (the game's ``GameInfo``, else 10,000).
        next_player: who moves after a ply (``@njit``), or ``None``: players alternate.
        config: ``(state, value_scale, rollout) -> config``, the value ``status`` and
            ``rollout`` receive (default: 0).
        rollouts: the ``MCTSOptions.rollout`` names this game's ``rollout`` runs (through
            ``config``); ``("random",)`` by default.
        num_actions: every action is below it (0: not said); needed by compiled RAVE, whose
            all-moves-as-first statistics are kept per (player, action).
        pass_action: an action that gathers no AMAF statistics (a pass: every playout of Go
            ends with passes), or -1; with ``priors`` it also stays last in a block.
        tree_actions, priors, repeats, playout: the optional hooks of the module docstring
            (``@njit``, or ``None``).
        expand_visits: with ``priors``, the visits a node needs before its children are made.
        amaf_first: RAVE counts only the first play of each action in a simulation.
        moves_between: ``(old_state, new_state) -> actions | None``, for tree reuse.
    """

    name: str
    actions: Any
    play: Any
    status: Any
    encode: Callable[[Any], tuple[Any, Any]]
    max_branching: int
    rollout: Any = None
    next_player: Any = None
    config: Callable[[Any, str, str], Any] = default_config
    rollouts: tuple[str, ...] = ("random",)
    num_actions: int = 0
    pass_action: int = -1
    tree_actions: Any = None
    priors: Any = None
    repeats: Any = None
    playout: Any = None
    expand_visits: int = 1
    amaf_first: bool = False
    moves_between: Callable[[Any, Any], Any] | None = None


def _fail(name: str, message: str) -> CompiledGameError:
    return CompiledGameError(f"{name}: compiled game: {message}")


def _is_compiled(function: object) -> bool:
    from numba.core.registry import CPUDispatcher

    return isinstance(function, CPUDispatcher)


def check_shape(compiled: object) -> CompiledGame:
    """``compiled`` itself if it is a :class:`CompiledGame` whose functions are there and
    compiled and whose numbers are in range; else one :class:`CompiledGameError` line."""
    if not isinstance(compiled, CompiledGame):
        raise CompiledGameError(
            f"a compiled game must be a searchlab CompiledGame, got {type(compiled).__name__}"
        )
    name = compiled.name if isinstance(compiled.name, str) and compiled.name else "game"
    for field in (*REQUIRED, *OPTIONAL):
        function = getattr(compiled, field)
        if function is None:
            if field in REQUIRED:
                raise _fail(name, f"{field} is missing (an @njit function)")
            continue
        if not _is_compiled(function):
            what = "a plain Python function" if callable(function) else repr(function)
            raise _fail(name, f"{field} must be a numba @njit function, got {what}")
    for field in ("encode", "config"):
        if not callable(getattr(compiled, field)):
            raise _fail(
                name, f"{field} must be a Python function, got {getattr(compiled, field)!r}"
            )
    branching = compiled.max_branching
    if (
        isinstance(branching, bool)
        or not isinstance(branching, int)
        or not (1 <= branching <= MAX_BRANCHING)
    ):
        raise _fail(
            name, f"max_branching must be an integer in [1, {MAX_BRANCHING}], got {branching!r}"
        )
    if compiled.moves_between is not None and not callable(compiled.moves_between):
        raise _fail(
            name, f"moves_between must be a Python function, got {compiled.moves_between!r}"
        )
    if not isinstance(compiled.amaf_first, bool):
        raise _fail(name, f"amaf_first must be True or False, got {compiled.amaf_first!r}")
    for field, low in (("num_actions", 0), ("pass_action", -1), ("expand_visits", 1)):
        number = getattr(compiled, field)
        if isinstance(number, bool) or not isinstance(number, int) or number < low:
            raise _fail(name, f"{field} must be an integer >= {low}, got {number!r}")
    rollouts = compiled.rollouts
    if not (isinstance(rollouts, tuple) and rollouts and all(isinstance(r, str) for r in rollouts)):
        raise _fail(name, f"rollouts must be a non-empty tuple of names, got {rollouts!r}")
    return compiled


def _call(compiled: CompiledGame, field: str, *args: Any) -> Any:
    """``compiled.<field>(*args)``, a failure to compile or to run as one line."""
    try:
        return getattr(compiled, field)(*args)
    except Exception as error:  # numba's typing errors run to dozens of lines: keep the first
        first = next((line for line in str(error).splitlines() if line.strip()), "")
        kind = type(error).__name__
        raise _fail(compiled.name, f"{field} failed ({kind}: {first.strip()[:200]})") from None


def _pair(compiled: CompiledGame, field: str, result: Any) -> tuple[Any, Any]:
    if not (isinstance(result, tuple) and len(result) == 2):
        raise _fail(compiled.name, f"{field} must return a pair (a, b), got {result!r:.80}")
    return result


def _words(a: Any, b: Any, new_a: Any, new_b: Any) -> tuple[Any, Any]:
    """``play``'s result in the types of the position before: numba hands numpy scalars back
    to Python as ints, and an int of 2**63 or more would not pass for an int64 next time."""
    if isinstance(a, np.generic):
        new_a = type(a)(new_a)
    if isinstance(b, np.generic):
        new_b = type(b)(new_b)
    return new_a, new_b


def _status(compiled: CompiledGame, a: Any, b: Any, config: Any) -> tuple[bool, float]:
    result = _call(compiled, "status", a, b, config)
    if not (isinstance(result, tuple) and len(result) == 2):
        raise _fail(compiled.name, f"status must return (is_over, value), got {result!r:.80}")
    is_over, value = result
    if not isinstance(is_over, bool | np.bool_) or not isinstance(value, float | int):
        raise _fail(compiled.name, f"status must return (bool, float), got {result!r:.80}")
    if not (math.isfinite(value) and -1.0 <= value <= 1.0):
        raise _fail(compiled.name, f"status must value a position in [-1, 1], got {value!r}")
    return bool(is_over), float(value)


ROLLOUT_SECONDS = 10.0
"""A game's own rollout from the initial position must end within this (checked once)."""


def check_rollout_ends(
    compiled: CompiledGame, a: Any, b: Any, config: Any, *, seconds: float = ROLLOUT_SECONDS
) -> None:
    """One run of ``compiled.rollout`` from the position ``(a, b)`` must end within
    ``seconds`` with a value in ``[-1, 1]``: a compiled function that loops cannot be
    interrupted, so it runs in a forked child that is killed when time is up (where the
    system cannot fork, it runs here, unguarded). One :class:`CompiledGameError` line
    otherwise."""
    import os
    import signal
    import time

    from numba import typeof, types

    name = compiled.name
    try:
        signature = (typeof(a), typeof(b), types.uint64, typeof(config))  # type: ignore[no-untyped-call]
        compiled.rollout.compile(signature)
    except Exception as error:  # a typing error runs to dozens of lines: keep the first
        first = next((line for line in str(error).splitlines() if line.strip()), "")
        kind = type(error).__name__
        raise _fail(name, f"rollout failed ({kind}: {first.strip()[:200]})") from None
    start_a = a.copy() if isinstance(a, np.ndarray) else a
    if not hasattr(os, "fork"):  # pragma: no cover - not on this project's systems
        _rollout_value(compiled, start_a, b, config)
        return
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's exit code is what is checked
        code = 2
        try:
            value, _ = compiled.rollout(start_a, b, np.uint64(0x9E3779B97F4A7C15), config)
            code = 0 if -1.0 <= value <= 1.0 else 3
        finally:
            os._exit(code)
    deadline = time.monotonic() + seconds
    done = 0
    try:
        while True:
            done, status = os.waitpid(child, os.WNOHANG)
            if done:
                break
            if time.monotonic() >= deadline:
                raise _fail(
                    name, f"rollout did not end within {seconds:g} s from the initial position "
                    "(a playout must reach the end of the game)",
                )  # fmt: skip
            time.sleep(0.005)
    finally:
        if not done:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
    if os.waitstatus_to_exitcode(status) != 0:  # failed or out of range: say how, here
        _rollout_value(compiled, start_a, b, config)


def _rollout_value(compiled: CompiledGame, a: Any, b: Any, config: Any) -> None:
    result = _call(compiled, "rollout", a, b, np.uint64(0x9E3779B97F4A7C15), config)
    value = result[0] if isinstance(result, tuple) and len(result) == 2 else result
    if not isinstance(value, float | int) or not (math.isfinite(value) and -1.0 <= value <= 1.0):
        raise _fail(
            compiled.name, f"rollout must return (value in [-1, 1], rng), got {result!r:.80}"
        )


def check_against_reference(
    compiled: CompiledGame, game: Game, *, seed: int = 0, value_scale: str = "outcome"
) -> None:
    """Play one seeded random game of ``game`` through the reference tier and ``compiled``
    side by side: at every ply the compiled legal actions (in order), whether the game is
    over and, at the end, its value for the player to move must be the reference's (the sign
    of its returns on the ``"outcome"`` scale). One :class:`CompiledGameError` line on the
    first difference, a function that fails to compile or run, wrong types, or a game that
    does not end within ``max_game_length`` plies (10,000 when the game does not say)."""
    name = compiled.name
    state = game.initial_state()
    limit = game.info.max_game_length or 10_000
    config = compiled.config(state, value_scale, compiled.rollouts[0])
    a, b = _pair(compiled, "encode", _call(compiled, "encode", state))
    if compiled.rollout is not None and not state.is_terminal():
        check_rollout_ends(compiled, a, b, config, seconds=ROLLOUT_SECONDS)
    out = np.zeros(compiled.max_branching, dtype=np.int16)
    rng = random.Random(seed)
    player = state.current_player()
    for ply in range(limit + 1):
        is_over, value = _status(compiled, a, b, config)
        if is_over != state.is_terminal():
            said = "over" if is_over else "not over"
            raise _fail(name, f"status says the game is {said} at ply {ply}, the game does not")
        if is_over:
            player = state.current_player()
            mine = float(state.returns()[player])
            expected = 0.0 if mine == 0 else math.copysign(1.0, mine)
            if value_scale == "outcome" and value != expected:
                raise _fail(
                    name,
                    f"status values the end at ply {ply} {value:g} for the player to move, "
                    f"the game's returns say {expected:g}",
                )
            return
        n = _call(compiled, "actions", a, b, out, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= compiled.max_branching:
            raise _fail(
                name, f"actions must return the count of legal actions (1 to max_branching="
                f"{compiled.max_branching}), got {n!r} at ply {ply}",
            )  # fmt: skip
        legal = list(state.legal_actions())
        if min(legal) < 0 or max(legal) > MAX_BRANCHING:
            raise _fail(
                name, f"actions must be in 0..{MAX_BRANCHING} (the tree keeps them as int16), "
                f"got {min(legal) if min(legal) < 0 else max(legal)} at ply {ply}",
            )  # fmt: skip
        if compiled.num_actions and max(legal) >= compiled.num_actions:
            raise _fail(
                name, f"action {max(legal)} at ply {ply} is not below num_actions="
                f"{compiled.num_actions}",
            )  # fmt: skip
        if out[:n].tolist() != legal:
            raise _fail(
                name, f"actions at ply {ply} are {out[:n].tolist()[:12]}, the game's "
                f"legal_actions() are {legal[:12]}",
            )  # fmt: skip
        action = rng.choice(legal)
        if isinstance(a, np.ndarray):
            a = a.copy()
        a, b = _words(a, b, *_pair(compiled, "play", _call(compiled, "play", a, b, action)))
        state = state.apply(action)
        if compiled.next_player is None:
            player = 1 - player
        else:
            player = _call(compiled, "next_player", a, b, player)
        if not state.is_terminal() and player != state.current_player():
            how = "next_player says" if compiled.next_player is not None else "alternating,"
            raise _fail(
                name, f"after ply {ply} {how} player {player} moves, the game says "
                f"{state.current_player()} (give next_player when players do not alternate)",
            )  # fmt: skip
    raise _fail(name, f"the game did not end within max_game_length={limit} plies")
