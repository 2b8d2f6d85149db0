"""A game of your own gone wrong, for the tests of what must not hang or be miscounted: it
declares a ``max_game_length`` (or none) and never ends; ``apply(1)`` at one ply can raise,
as a bug in its rules would."""

from __future__ import annotations

from searchlab.core.game import GameInfo


class Endless:
    """Says no game lasts over ``length`` plies (``None``: says nothing), and never ends.
    ``applied`` counts the moves applied; ``apply(1)`` at ply ``bug_at`` raises
    ``ZeroDivisionError``."""

    def __init__(self, length: int | None = 20, *, bug_at: int | None = None) -> None:
        self.info = GameInfo(name="endless", max_game_length=length)
        self.bug_at = bug_at
        self.applied = 0

    def initial_state(self) -> Loop:
        return Loop(self, 0)


class Loop:
    """A position of :class:`Endless`: two moves, 0 and 1, at every ply."""

    def __init__(self, game: Endless, ply: int) -> None:
        self.game, self.ply = game, ply

    def current_player(self) -> int:
        return self.ply % 2

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def apply(self, action: int) -> Loop:
        if self.ply == self.game.bug_at and action == 1:
            raise ZeroDivisionError("a bug in the rules")
        self.game.applied += 1
        return Loop(self.game, self.ply + 1)

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> tuple[float, float]:
        return (0.0, 0.0)

    def key(self) -> tuple[int, int]:
        return (self.ply, 0)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)
