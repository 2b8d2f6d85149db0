"""Rollout (playout, default) policies: how a simulation plays a position to the end.

A rollout policy is any callable ``policy(state, rng) -> action`` where ``rng`` is a
:class:`random.Random` seeded from the search's seed (the only source of randomness, so a
seeded search replays exactly). Two are built in:

* ``"random"``: a uniformly random legal action (the classical UCT playout), drawn from
  ``state.playout_actions()`` where the state defines that method, else from
  ``legal_actions()``. The hook lets a game keep its random playouts from moves no sensible
  player makes and that would keep the playout from ending: Go's ``playout_actions()`` leaves
  out the moves that fill the mover's own eye (a random playout that may fill its own eyes
  kills every group, and a playout that may not is the classical Monte Carlo Go playout,
  Bouzy and Helmstetter 2003; Brügmann 1993). It must return legal actions, at least one
  while the game is not over;
* ``"informed"``: take an immediate win if there is one; otherwise play uniformly among the
  moves after which the opponent has no immediate win. "Block an immediate loss" and "avoid a
  suicide move" are one test: a move that fails to block the opponent's winning reply, or that
  gives the opponent a new one, leaves them an immediate win. When every move does, any move.
  It costs up to ``b * b`` calls to ``apply`` per ply (``b`` legal actions), which buys a far
  better estimate per playout in games of threats (tic-tac-toe, Connect Four, Gomoku).

**Domain-knowledge hook.** Where a built-in game has rollout knowledge of its own, ``"informed"``
plays the game's policy instead of the generic one: :func:`domain_policy` finds it by the
game's registry name (``state.game.info.name``), the way
:func:`searchlab.agents.evaluations.default_evaluation` finds a game's evaluation. Today:
Snake Go (:func:`searchlab.domains.games.snakego.policy.informed_action`: never a deadly move
when a safe one exists, eat, keep away from a shorter opponent's head) and Go
(:func:`searchlab.domains.games.go.policy.informed_action`: captures, escapes from atari and 3x3
patterns around the last move, else an eye-avoiding random move). The lookup lives here,
in the algorithms layer, because the layers import downward only: the game module never
imports search code (nor its own policy module, which imports it). A game of your own passes
its policy as a callable ``rollout=``. For every other game ``"informed"`` is the generic
policy above, unchanged.

**Every rollout ends.** :func:`playout` and :func:`traced_playout` play at most ``max_plies``
plies: the game's ``GameInfo.max_game_length`` (:func:`playout_limit`; no game lasts longer
from any position), or :data:`MAX_PLAYOUT_PLIES` (10,000) for a game that declares none. A
rollout still going after that many plies raises
:class:`~searchlab.core.errors.EndlessGameError` (one line naming the game and the limit)
instead of running forever: the game's rules let it go on longer than it says (declare
``max_game_length``, or make the game end).

>>> import random
>>> from searchlab.core.game import play
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> state = play(TicTacToe().initial_state(), "a1 b1 a2 b2")  # X to move, O threatens b3
>>> state.action_to_string(informed_policy(state, random.Random(0)))  # X wins at a3
'a3'
>>> state = play(TicTacToe().initial_state(), "a1 b1 a2")  # O must block a3
>>> {state.action_to_string(informed_policy(state, random.Random(s))) for s in range(20)}
{'a3'}
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from searchlab.core.errors import EndlessGameError, InvalidParameterError, UnknownNameError
from searchlab.core.game import Game, State

__all__ = [
    "MAX_PLAYOUT_PLIES",
    "ROLLOUT_POLICIES",
    "RolloutPolicy",
    "domain_policy",
    "informed_policy",
    "playout",
    "playout_limit",
    "random_policy",
    "resolve_rollout",
    "traced_playout",
]

RolloutPolicy = Callable[[Any, random.Random], int]
"""``policy(state, rng) -> action``: a legal action of the non-terminal ``state``."""

MAX_PLAYOUT_PLIES = 10_000
"""The longest rollout of a game that declares no ``GameInfo.max_game_length``."""


def playout_limit(game: Game | None) -> int:
    """The most plies a rollout of ``game`` may play: its ``max_game_length`` when it declares
    one, else :data:`MAX_PLAYOUT_PLIES` (also for ``None``, a caller without the game).

    >>> from searchlab.domains.games.nim import Nim
    >>> playout_limit(Nim((3, 4))), playout_limit(None)
    (7, 10000)
    """
    info = getattr(game, "info", None)
    declared = getattr(info, "max_game_length", None)
    return int(declared) if declared is not None else MAX_PLAYOUT_PLIES


def _state_limit(state: object) -> int:
    """:func:`playout_limit` of ``state.game`` (states that keep their game), for callers
    that have only a state."""
    return playout_limit(getattr(state, "game", None))


def _endless(state: object, max_plies: int) -> EndlessGameError:
    """The one line for a rollout that did not end within ``max_plies`` plies."""
    info = getattr(getattr(state, "game", None), "info", None)
    name = getattr(info, "name", None)
    which = f"game {name!r}" if name else "the game"
    return EndlessGameError(
        f"a rollout of {which} did not end within {max_plies} plies (its max_game_length, "
        f"or {MAX_PLAYOUT_PLIES} when it declares none): its rules let a game go on longer "
        "than it says; declare GameInfo.max_game_length, or make the game end"
    )


def random_policy(state: State, rng: random.Random) -> int:
    """A uniformly random action among ``state.playout_actions()`` when the state defines it
    (Go: no move filling one's own eye), else among its legal actions."""
    own = getattr(state, "playout_actions", None)
    actions = state.legal_actions() if own is None else own()
    return actions[int(rng.random() * len(actions))]


def _opponent_wins_now(state: State, opponent: int) -> bool:
    """Can ``opponent`` (to move in ``state``) end the game at once with a win?"""
    for action in state.legal_actions():
        after = state.apply(action)
        if after.is_terminal() and after.returns()[opponent] > 0:
            return True
    return False


def domain_policy(state: object) -> RolloutPolicy | None:
    """The informed rollout policy of ``state``'s game when it has one of its own (found by
    the game's registry name, see the module docstring), else ``None``.

    >>> from searchlab.games import make
    >>> domain_policy(make("snakego", size=8).initial_state()).__name__
    'informed_action'
    >>> domain_policy(make("tictactoe").initial_state()) is None
    True
    """
    name = getattr(getattr(getattr(state, "game", None), "info", None), "name", None)
    if name == "snakego":
        from searchlab.domains.games.snakego.policy import informed_action

        return informed_action
    if name == "go":
        from searchlab.domains.games.go.policy import informed_action as go_informed

        return go_informed
    return None


def informed_policy(state: State, rng: random.Random) -> int:
    """The game's own informed policy where it has one (:func:`domain_policy`); else an
    immediate win if any; else a random move that leaves the opponent no immediate win (which
    blocks their threat and avoids suicide); else any random move."""
    own = domain_policy(state)
    if own is not None:
        return own(state, rng)
    player = state.current_player()
    actions = state.legal_actions()
    candidates = []
    for action in actions:
        after = state.apply(action)
        if after.is_terminal():
            utility = after.returns()[player]
            if utility > 0:
                return action
            if utility < 0:
                continue
        candidates.append((action, after))
    # Uniform among the safe moves by rejection: try the moves in random order and play the
    # first safe one. The first try is usually safe, so a ply costs about 2b calls to apply
    # instead of b * b (Connect Four from the empty board: 298 playouts/s instead of 89,
    # 2-core EPYC VM, 2026-11-22).
    while candidates:
        action, after = candidates.pop(int(rng.random() * len(candidates)))
        if after.is_terminal():
            return action
        opponent = after.current_player()
        if opponent == player or not _opponent_wins_now(after, opponent):
            return action
    return actions[int(rng.random() * len(actions))]


ROLLOUT_POLICIES: dict[str, RolloutPolicy] = {
    "random": random_policy,
    "informed": informed_policy,
}
"""The built-in rollout policies by name (the default first)."""


def resolve_rollout(rollout: str | RolloutPolicy, algorithm: str) -> RolloutPolicy:
    """The policy named ``rollout`` (or ``rollout`` itself when it is a callable).

    >>> resolve_rollout("greedy", "mcts")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.UnknownNameError: mcts: unknown rollout 'greedy'; known rollouts: \
informed, random (or pass a callable (state, rng) -> action)
    """
    if isinstance(rollout, str):
        try:
            return ROLLOUT_POLICIES[rollout]
        except KeyError:
            raise UnknownNameError(
                f"{algorithm}: unknown rollout {rollout!r}; known rollouts: "
                f"{', '.join(sorted(ROLLOUT_POLICIES))} (or pass a callable (state, rng) -> action)"
            ) from None
    if not callable(rollout):
        raise InvalidParameterError(
            f"{algorithm}: rollout must be a name or a callable (state, rng) -> action, "
            f"got {rollout!r}"
        )
    return rollout


def playout(
    state: State, policy: RolloutPolicy, rng: random.Random, max_plies: int | None = None
) -> Sequence[float]:
    """Play ``state`` to the end with ``policy``; the final ``returns()`` of both players.

    At most ``max_plies`` plies (default: :func:`playout_limit` of ``state.game``, else
    :data:`MAX_PLAYOUT_PLIES`); a game still going after them raises
    :class:`~searchlab.core.errors.EndlessGameError` (see the module docstring).
    """
    start = state
    limit = _state_limit(state) if max_plies is None else max_plies
    if policy is random_policy and getattr(state, "playout_actions", None) is None:
        # The uniform playout inlined: the inner loop of every UCT simulation. Relies on the
        # protocol's "legal_actions() is empty iff the game is over".
        draw = rng.random
        actions = state.legal_actions()
        for _ in range(limit):
            if not actions:
                return state.returns()
            state = state.apply(actions[int(draw() * len(actions))])
            actions = state.legal_actions()
        if not actions:
            return state.returns()
        raise _endless(start, limit)
    if policy is informed_policy:  # look the game's own policy up once per playout
        policy = domain_policy(state) or informed_policy
    for _ in range(limit):
        if state.is_terminal():
            return state.returns()
        state = state.apply(policy(state, rng))
    if state.is_terminal():
        return state.returns()
    raise _endless(start, limit)


def traced_playout(
    state: State,
    policy: RolloutPolicy,
    rng: random.Random,
    moves: list[tuple[int, int]],
    max_plies: int | None = None,
) -> Sequence[float]:
    """:func:`playout`, appending each move it plays to ``moves`` as ``(player, action)`` (for
    RAVE's all-moves-as-first statistics); the same moves and random draws as
    :func:`playout` with the same ``rng``, and the same limit ``max_plies``.

    >>> from searchlab.domains.games.nim import Nim
    >>> moves: list[tuple[int, int]] = []
    >>> returns = traced_playout(Nim((2,)).initial_state(), random_policy, random.Random(1), moves)
    >>> [player for player, _ in moves] == [0, 1][: len(moves)], sum(returns)
    (True, 0.0)
    """
    start = state
    limit = _state_limit(state) if max_plies is None else max_plies
    if policy is informed_policy:
        policy = domain_policy(state) or informed_policy
    for _ in range(limit):
        if state.is_terminal():
            return state.returns()
        player = state.current_player()
        action = policy(state, rng)
        moves.append((player, action))
        state = state.apply(action)
    if state.is_terminal():
        return state.returns()
    raise _endless(start, limit)
