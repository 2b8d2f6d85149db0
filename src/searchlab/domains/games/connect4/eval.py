"""A threat-based evaluation of Connect Four positions, for depth-limited play.

A *threat* is an empty cell where a player's stone would complete four in a row. Threats decide
Connect Four endgames (Allis, "A Knowledge-based Approach of Connect-Four", 1988): the first
player (X) profits from threats on odd rows (1, 3, 5 counted from the bottom), the second
player (O) from threats on even rows, because when the board fills up column by column, the
zugzwang gives X the odd cells and O the even ones.

:class:`ThreatEvaluation` scores, for the player to move:

* an immediate win (a threat the mover can play now): ``+win_value``;
* two playable opponent threats (only one can be blocked): ``-win_value``;
* otherwise ``tanh(raw / scale)`` of a weighted sum of differences (mover minus opponent):
  threats, threats on the player's good row parity, and stones in the centre column.

It is an :data:`~searchlab.core.game.Evaluation` (``evaluate(state) -> float`` in ``(-1, 1)``
for the player to move); pass it, or your own function, to any depth-limited search:

>>> from searchlab.algorithms.adversarial.negamax import negamax
>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.connect4 import Connect4, parse_moves
>>> evaluate = ThreatEvaluation()
>>> evaluate(parse_moves("445566"))  # X to move completes the bottom row
0.99
>>> result = negamax(Connect4(), parse_moves("4455"), limits=Limits(depth=3), evaluate=evaluate)
>>> result.action in (2, 5)  # columns 3 or 6 make an open three
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from searchlab.domains.games.connect4 import (
    BOARD_MASK,
    BOTTOM_MASK,
    Connect4State,
    winning_cells,
)

__all__ = ["ThreatEvaluation", "threat_evaluation"]

_ODD_ROWS = BOTTOM_MASK * 0b010101  # rows 1, 3, 5 (1-based): X's good threats
_EVEN_ROWS = BOTTOM_MASK * 0b101010  # rows 2, 4, 6: O's good threats
_CENTRE = 0b111111 << (7 * 3)


@dataclass(frozen=True, slots=True)
class ThreatEvaluation:
    """Weighted threats, good-parity threats and centre stones, squashed into ``(-1, 1)``.

    Attributes:
        threat_weight: per threat (mover's minus opponent's).
        parity_weight: extra per threat on the owner's good row parity.
        centre_weight: per stone in the centre column.
        scale: ``tanh(raw / scale)``: larger values give a flatter evaluation.
        win_value: the value of a forced result one move ahead (below 1, the proven win).
    """

    threat_weight: float = 1.0
    parity_weight: float = 1.0
    centre_weight: float = 0.25
    scale: float = 6.0
    win_value: float = 0.99

    def __call__(self, state: Connect4State) -> float:
        """The value of ``state`` for the player to move."""
        mask = state.mask
        mine, theirs = state.current, state.current ^ mask
        playable = (mask + BOTTOM_MASK) & BOARD_MASK
        my_threats = winning_cells(mine, mask)
        their_threats = winning_cells(theirs, mask)
        if my_threats & playable:
            return self.win_value
        urgent = their_threats & playable
        if urgent & (urgent - 1):
            return -self.win_value
        my_parity, their_parity = (
            (_ODD_ROWS, _EVEN_ROWS) if state.current_player() == 0 else (_EVEN_ROWS, _ODD_ROWS)
        )
        raw = (
            self.threat_weight * (my_threats.bit_count() - their_threats.bit_count())
            + self.parity_weight
            * ((my_threats & my_parity).bit_count() - (their_threats & their_parity).bit_count())
            + self.centre_weight * ((mine & _CENTRE).bit_count() - (theirs & _CENTRE).bit_count())
        )
        return math.tanh(raw / self.scale) * self.win_value


threat_evaluation = ThreatEvaluation()
"""The default weights, ready to pass as ``evaluate=``."""
