"""Bonus Nim, a tiny game whose players move several plies in a row and repeat actions:
take 1 or ``bonus`` counters; taking ``bonus`` earns another move (unless none are left); who
takes the last counter wins. Shared by the tests of consecutive plies and of RAVE.

>>> state = BonusNim(6).initial_state().apply(3)
>>> state.left, state.current_player()
(3, 0)
"""

from __future__ import annotations

from collections.abc import Hashable

from searchlab.core.game import GameInfo


class BonusNimState:
    """``left`` counters, ``player`` to move; the bonus take is ``bonus`` counters."""

    def __init__(self, left: int, player: int, bonus: int = 3) -> None:
        self.left, self.player, self.bonus = left, player, bonus

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return [n for n in (1, self.bonus) if n <= self.left]

    def apply(self, action: int) -> BonusNimState:
        assert action in self.legal_actions()
        left = self.left - action
        again = action == self.bonus and left > 0
        return BonusNimState(left, self.player if again else 1 - self.player, self.bonus)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> tuple[float, float]:
        if self.left:
            return (0.0, 0.0)
        winner = 1 - self.player  # who took the last counter (and passed the move on)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def key(self) -> Hashable:
        return (self.left, self.player)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def __repr__(self) -> str:
        return f"BonusNimState({self.left}, player={self.player})"


class BonusNim:
    """The game of ``counters`` counters, ``player`` to move first."""

    def __init__(self, counters: int, player: int = 0, bonus: int = 3) -> None:
        self.counters, self.player, self.bonus = counters, player, bonus
        self.info = GameInfo(name="bonus_nim", max_utility=1)

    def initial_state(self) -> BonusNimState:
        return BonusNimState(self.counters, self.player, self.bonus)
