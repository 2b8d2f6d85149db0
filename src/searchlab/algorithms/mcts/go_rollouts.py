"""Fast rollouts of Go positions, compiled: the values that AlphaGo's search mixes with its value
network's.

:class:`GoRollouts` plays each position to the end with the compiled Go tier's playout policy
(``"informed"``: MoGo's, answering the last move's atari, then its 3x3 patterns next to the last
move, then eye-avoiding random moves; or ``"random"``) and scores it by area: +1 when the
player to move in the position wins, -1 when they lose, 0 for a draw (komi an integer). It has
the ``rollout_values(states, seed=)`` call that
:class:`~searchlab.learning.alphago.search.AlphaGoEvaluator` asks of a rollout policy, so
AlphaGo's search runs on Go with it. The same seed gives the same values.

>>> from searchlab.domains.games.go import Go
>>> state = Go(5, komi=0.5).position(black=["B2", "B3", "B4", "B5", "B1"], to_move="white")
>>> GoRollouts().rollout_values([state], seed=1).tolist()  # black owns two columns and more
[-1.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from searchlab.core.compiled_rng import seed_state
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import GoState
from searchlab.domains.games.go.compiled import config_for, encode, rollout

__all__ = ["GO_ROLLOUTS", "GoRollouts"]

GO_ROLLOUTS = ("informed", "random")
"""The playout policies :class:`GoRollouts` plays."""


class GoRollouts:
    """Compiled playouts of Go positions (see the module): ``policy`` ``"informed"`` (MoGo's,
    the default) or ``"random"``."""

    def __init__(self, policy: str = "informed") -> None:
        if policy not in GO_ROLLOUTS:
            raise InvalidParameterError(
                f"go rollouts: policy must be one of {', '.join(GO_ROLLOUTS)}, got {policy!r}"
            )
        self.policy = policy

    def rollout_values(self, states: Sequence[GoState], *, seed: int = 0) -> np.ndarray:
        """``float64 [B]``: one playout's result for the player to move in each state (a
        finished game: its own result)."""
        out = np.zeros(len(states), dtype=np.float64)
        rng = np.uint64(seed_state(seed))
        for index, state in enumerate(states):
            if state.is_terminal():
                out[index] = state.returns()[state.current_player()]
                continue
            pos, history = encode(state)
            config = config_for(state, "outcome", self.policy, priors=False)
            value, word = rollout(pos, history, rng, config)
            rng = np.uint64(word)  # numba hands a uint64 back as a Python int
            out[index] = value
        return out
