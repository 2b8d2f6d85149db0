"""Snake Go for the compiled MCTS: the game functions of
:mod:`~searchlab.algorithms.mcts._kernel_loop` on the flat arrays of
:mod:`searchlab.domains.games.snakego.arrays`, as a :class:`CompiledGame`.

A position is ``(pos, items)``: the ``int32`` array ``pos`` that ``play`` changes in place
(each simulation starts from a copy of the root's, :func:`~searchlab.algorithms.mcts.
_kernel_loop.start_copy`) and the read-only item list. One player may move several plies in
a row (one per snake), so the player to move comes from ``pos``
(:func:`~searchlab.domains.games.snakego.arrays.to_move`), never from the depth's parity.

``config`` is ``(scoring, sign, policy)``: the arrays' ``scoring`` code (``WIN_LOSS``: +1 /
-1, a tie to player 1; ``SCORE_DIFFERENCE``: the difference over ``size * size``), whether
the search takes the sign of that value (the ``"outcome"`` value scale of the
``score_difference`` game: +1 / 0 / -1) and the rollout policy (:data:`RANDOM` or
:data:`INFORMED`, the course notes' policy of
:mod:`~searchlab.domains.games.snakego.policy`, compiled). :data:`POLICIES` names the rollout
policies this kernel runs (``MCTSOptions.rollout`` names).

>>> from searchlab.domains.games.snakego import SnakeGo
>>> from searchlab.domains.games.snakego.arrays import WIN_LOSS, encode
>>> state = SnakeGo(seed=1, size=8, rounds=20).initial_state()
>>> pos, items = encode(state)
>>> status(pos, items, config_for(WIN_LOSS, False, "random"))
(False, 0.0)
"""

from __future__ import annotations

from numba import njit

from searchlab.core.compiled_game import CompiledGame
from searchlab.core.compiled_rng import next_below
from searchlab.domains.games.snakego import SnakeGoState
from searchlab.domains.games.snakego.arrays import (
    MAX_BRANCHING,
    actions,
    encode,
    informed_rollout,
    play,
    scoring_code,
    to_move,
)
from searchlab.domains.games.snakego.arrays import rollout as random_rollout
from searchlab.domains.games.snakego.arrays import status as game_status

__all__ = [
    "COMPILED",
    "INFORMED",
    "MAX_BRANCHING",
    "POLICIES",
    "RANDOM",
    "actions",
    "config_for",
    "next_player",
    "play",
    "rollout",
    "status",
]

RANDOM, INFORMED = 0, 1
POLICIES = {"random": RANDOM, "informed": INFORMED}
"""The rollout policies the kernel runs, by their ``MCTSOptions.rollout`` names."""


def config_for(scoring: int, sign: bool, policy: str) -> tuple[int, int, int]:
    """The ``config`` of the kernel's functions: the arrays' ``scoring`` code, whether to
    take the sign of the value, and the rollout policy's name (a key of :data:`POLICIES`)."""
    return (int(scoring), int(sign), POLICIES[policy])


@njit(cache=True, inline="always")
def _on_scale(value, config):  # pragma: no cover - compiled
    if config[1] and value != 0.0:
        return 1.0 if value > 0.0 else -1.0
    return value


@njit(cache=True)
def status(pos, items, config):  # pragma: no cover - compiled
    """``(is_terminal, value for the player to move)`` on the search's scale."""
    is_over, value = game_status(pos, items, config[0])
    return is_over, _on_scale(value, config)


@njit(cache=True)
def rollout(pos, items, rng, config):  # pragma: no cover - compiled
    """The ``config``'s policy to the end of the game (``pos`` changes in place):
    ``(value for the player to move at the start, rng)``."""
    if config[2] == INFORMED:
        value, rng = informed_rollout(pos, items, rng, config[0], next_below)
    else:
        value, rng = random_rollout(pos, items, rng, config[0], next_below)
    return _on_scale(value, config), rng


@njit(cache=True, inline="always")
def next_player(pos, items, before):  # pragma: no cover - compiled
    """The player to move, read from the position (a player may move several plies)."""
    return to_move(pos)


def _config(state: SnakeGoState, value_scale: str, rollout: str) -> tuple[int, int, int]:
    # win_loss values are +1 / -1 on both scales; a score difference on the "outcome" scale is
    # its sign (a tie is a draw there, as the reference tier's sign of returns)
    return config_for(scoring_code(state.game.scoring), value_scale == "outcome", rollout)


COMPILED = CompiledGame(
    name="snakego", actions=actions, play=play, status=status, rollout=rollout,
    next_player=next_player, encode=encode, config=_config, max_branching=MAX_BRANCHING,
    rollouts=tuple(POLICIES),
    num_actions=MAX_BRANCHING,
)  # fmt: skip
"""Snake Go's rules for the compiled MCTS (random or the notes' informed rollouts), registered
for :class:`~searchlab.domains.games.snakego.SnakeGo` (:mod:`searchlab.algorithms.kernels`)."""
