"""Nim: take any number of counters from one pile; normal play (taking the last counter wins)
or misere play (taking the last counter loses).

Actions: take ``count`` (>= 1) counters from pile ``pile`` (0-based) is the action
``pile * stride + count - 1`` where ``stride`` is the largest initial pile (piles never grow).
Notation: ``"P:C"`` with a 1-based pile number, e.g. ``"1:2"`` takes 2 from the first pile.

>>> game = Nim((3, 4, 5))
>>> state = game.initial_state().apply(game.string_to_action_any("1:2"))
>>> state.piles, state.current_player()
((1, 4, 5), 1)
>>> state.action_to_string(state.legal_actions()[0])
'1:1'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import boolean, integers
from searchlab.domains.games.heap_games import HeapPosition

__all__ = ["MAX_PILE", "Nim", "NimState", "parse_piles"]

MAX_PILE = 1_000_000
"""The largest pile :class:`Nim` takes (a position has one move per counter; ``solve nim``
answers by rule and takes any size)."""

_QUOTED = 60  # characters of malformed piles quoted in the error


def parse_piles(text: str) -> tuple[int, ...]:
    """Parse ``"3,4,5"`` into ``(3, 4, 5)``; raise ``InvalidParameterError`` quoting bad input
    (at most :data:`_QUOTED` characters of it). Any size is read (``solve nim`` answers by
    rule), up to the digits Python reads in one number (4,300 by default).

    >>> parse_piles("3, 4,5")
    (3, 4, 5)
    >>> parse_piles("3,x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: malformed piles '3,x': expected ...
    """
    piles = []
    for number, part in enumerate(text.split(","), start=1):
        digits = part.strip()
        try:
            piles.append(int(digits))
        except ValueError:
            if digits.isdigit():  # well formed, but more digits than Python reads
                raise InvalidParameterError(
                    f"piles: pile {number} has {len(digits)} digits, more than the "
                    f"{sys.get_int_max_str_digits()} Python reads in one number"
                ) from None
            piles.append(-1)
    if not piles or any(pile < 0 for pile in piles):
        shown = text if len(text) <= _QUOTED else text[:_QUOTED] + "..."
        raise InvalidParameterError(
            f"malformed piles {shown!r}: expected non-negative integers separated by commas, "
            "like 3,4,5"
        )
    return tuple(piles)


class Nim:
    """Nim on the given piles (a sequence, one int, or text like ``"3,4,5"``; 1 to 64 piles of
    0..:data:`MAX_PILE` counters); ``misere=True`` makes taking the last counter lose. Bad
    parameters raise ``InvalidParameterError`` naming the parameter and its range."""

    def __init__(self, piles: Sequence[int] | str = (3, 4, 5), *, misere: bool = False) -> None:
        piles = integers("nim", "piles", piles, 0, MAX_PILE)
        self.piles = piles
        self.misere = boolean("nim", "misere", misere)
        self.stride = max(1, *piles)
        self.info = GameInfo(
            name="nim", impartial=True, max_game_length=sum(piles), max_utility=1.0
        )

    def initial_state(self) -> NimState:
        """Player 0 to move on the initial piles."""
        return NimState(self, self.piles, 0)

    def string_to_action_any(self, text: str) -> int:
        """Parse ``"P:C"`` without checking legality (see :meth:`NimState.string_to_action`)."""
        parts = text.strip().split(":")
        try:
            if len(parts) != 2:
                raise ValueError
            pile, count = int(parts[0]), int(parts[1])
        except ValueError:
            raise IllegalMoveError(
                f"malformed Nim move {text!r}: expected PILE:COUNT like 1:2"
            ) from None
        if not 1 <= pile <= len(self.piles) or not 1 <= count <= self.stride:
            raise IllegalMoveError(
                f"illegal Nim move {text!r}: pile must be 1..{len(self.piles)}, "
                f"count 1..{self.stride}"
            )
        return (pile - 1) * self.stride + count - 1

    def __repr__(self) -> str:
        return f"Nim({self.piles!r}, misere={self.misere})"


class NimState(HeapPosition):
    """A Nim position: the piles (``heaps``, also named ``piles``) and the player to move."""

    __slots__ = ()
    game: Nim

    @property
    def piles(self) -> tuple[int, ...]:
        """The pile sizes (the position's ``heaps``)."""
        return self.heaps

    def mover_wins_at_end(self) -> bool:
        """Misere play: the player who cannot move (the other took the last counter) wins."""
        return bool(self.game.misere)

    def legal_actions(self) -> list[int]:
        """Every ``(pile, count)`` with ``1 <= count <= pile size``, pile by pile."""
        stride = self.game.stride
        return [
            index * stride + count - 1
            for index, size in enumerate(self.piles)
            for count in range(1, size + 1)
        ]

    def apply(self, action: int) -> NimState:
        """Take the counters; raises ``IllegalMoveError`` if the pile is too small."""
        index, count = divmod(action, self.game.stride)
        count += 1
        if action < 0 or index >= len(self.piles) or count > self.piles[index]:
            raise IllegalMoveError(f"illegal Nim action {action!r} with piles {self.piles}")
        piles = list(self.piles)
        piles[index] -= count
        return NimState(self.game, tuple(piles), 1 - self.player)

    def action_to_string(self, action: int) -> str:
        """``"P:C"``: take C from pile P (1-based)."""
        index, count = divmod(action, self.game.stride)
        return f"{index + 1}:{count + 1}"

    def string_to_action(self, text: str) -> int:
        """Parse ``"P:C"`` and check that the pile holds at least C counters."""
        action = self.game.string_to_action_any(text)
        index, count = divmod(action, self.game.stride)
        if count + 1 > self.piles[index]:
            raise IllegalMoveError(
                f"illegal Nim move {text!r}: pile {index + 1} holds {self.piles[index]}"
            )
        return action

    def __str__(self) -> str:
        piles = " ".join(str(pile) for pile in self.piles)
        return f"piles {piles}, player {self.player} to move"

    def __repr__(self) -> str:
        return f"NimState(piles={self.piles}, player={self.player})"
