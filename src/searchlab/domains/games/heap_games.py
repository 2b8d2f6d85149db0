"""Impartial heap games whose moves act on one heap and leave zero, one or two heaps: Kayles,
Dawson's chess (and any octal game), and Grundy's game.

A position is a tuple of heap sizes. A move picks one heap and one of that heap's *options*
(:meth:`HeapGame.heap_options`): a tuple of the heaps it leaves. Normal play: the player who
cannot move loses. The action of option ``j`` on heap ``i`` is ``i * stride + j``, where
``stride`` bounds the number of options of any heap that can occur. Notation ``"H:J"``
(1-based heap, 1-based option in the order of ``heap_options``).

>>> game = OctalGame(".77", heaps=(4,))      # Kayles on a row of 4 pins
>>> [options for options in game.heap_options(4)]
[(3,), (1, 2), (2,), (1, 1)]
>>> GrundysGame(heaps=(7,)).heap_options(7)
[(1, 6), (2, 5), (3, 4)]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import GameInfo
from searchlab.domains.games._params import integers

__all__ = [
    "MAX_HEAP",
    "GrundysGame",
    "HeapGame",
    "HeapPosition",
    "HeapState",
    "OctalGame",
    "dawsons_chess",
    "kayles",
]

MAX_HEAP = 1000
"""The largest heap a heap game takes (the move table grows with the square of it)."""


class HeapGame(ABC):
    """Base of the heap games: subclasses define :meth:`heap_options`. ``heaps``: a sequence,
    one int or text like ``"3,4"`` (1 to 64 heaps of 0..:data:`MAX_HEAP` tokens)."""

    def __init__(self, name: str, heaps: Sequence[int] | str) -> None:
        heaps = integers(name, "heaps", heaps, 0, MAX_HEAP)
        self.heaps = heaps
        largest = max(heaps)
        self.stride = max(1, *(len(self.heap_options(n)) for n in range(largest + 1)))
        self.info = GameInfo(name=name, impartial=True, max_game_length=sum(heaps), max_utility=1.0)

    @abstractmethod
    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """The heaps (non-empty ones only) that one move on a heap of size ``n`` can leave."""

    def initial_state(self) -> HeapState:
        """Player 0 to move on the initial heaps."""
        return HeapState(self, self.heaps, 0)


class OctalGame(HeapGame):
    """An octal game given by its code (``".77"`` Kayles, ``".137"`` Dawson's chess,
    ``".07"`` Dawson's Kayles): digit ``d_k`` says when ``k`` tokens may be removed from a heap
    (bit 1: if they are the whole heap; bit 2: leaving one heap; bit 4: leaving two non-empty
    heaps)."""

    def __init__(self, code: str, heaps: Sequence[int] | str = (10,), *, name: str = "") -> None:
        digits = code.split(".", 1)[1] if "." in code else code
        if not digits or any(d not in "01234567" for d in digits):
            raise InvalidParameterError(f"malformed octal game code {code!r}: expected like .77")
        self.code = code
        self.digits = tuple(int(d) for d in digits)
        super().__init__(name or f"octal{code}", heaps)

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """Remove ``k`` tokens as the code allows, in order of ``k``, then of the left part."""
        return list(_octal_options(self.digits, n))


@lru_cache(maxsize=4096)
def _octal_options(digits: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    options: list[tuple[int, ...]] = []
    for k, digit in enumerate(digits, start=1):
        if k > n:
            break
        rest = n - k
        if rest == 0:
            if digit & 1:
                options.append(())
            continue
        if digit & 2:
            options.append((rest,))
        if digit & 4:
            for left in range(1, rest // 2 + 1):
                options.append((left, rest - left))
    return tuple(options)


class GrundysGame(HeapGame):
    """Grundy's game: split one heap into two non-empty heaps of different sizes."""

    def __init__(self, heaps: Sequence[int] | str = (10,)) -> None:
        super().__init__("grundys_game", heaps)

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """``(a, n - a)`` for ``1 <= a < n - a``."""
        return [(a, n - a) for a in range(1, (n + 1) // 2) if a != n - a]


def kayles(heaps: Sequence[int] | str = (10,)) -> OctalGame:
    """Kayles (octal .77): knock down one pin or two adjacent pins of a row."""
    return OctalGame(".77", heaps, name="kayles")


def dawsons_chess(heaps: Sequence[int] | str = (10,)) -> OctalGame:
    """Dawson's chess (octal .137)."""
    return OctalGame(".137", heaps, name="dawsons_chess")


@dataclass(slots=True, eq=False, repr=False)
class HeapPosition:
    """A position on heaps, in any game whose positions are heap sizes and the player to move
    (the heap games here, Nim): the sizes ``heaps``, the ``player`` to move, the ``key``, and
    the returns at the end, when the player to move cannot move: a loss for them under normal
    play, a win under misere play (when :meth:`mover_wins_at_end` says so).

    >>> position = HeapPosition(None, (0, 0), 1)
    >>> position.current_player(), position.key(), position.returns()
    (1, ((0, 0), 1), (1.0, -1.0))
    """

    game: Any
    heaps: tuple[int, ...]
    player: int

    def current_player(self) -> int:
        """The player to move."""
        return self.player

    def is_terminal(self) -> bool:
        """No heap has a move (here: every heap is empty; a game with other rules says)."""
        return not any(self.heaps)

    def mover_wins_at_end(self) -> bool:
        """Whether the player who cannot move wins (misere play); normal play here."""
        return False

    def returns(self) -> tuple[float, float]:
        """0 for both before the end; then +-1, the player to move losing (normal play) or
        winning (misere play)."""
        if not self.is_terminal():
            return (0.0, 0.0)
        mover = 1.0 if self.mover_wins_at_end() else -1.0
        return (mover, -mover) if self.player == 0 else (-mover, mover)

    def key(self) -> Hashable:
        """``(heaps, player)``."""
        return (self.heaps, self.player)


class HeapState(HeapPosition):
    """A position of a heap game: the heap sizes and the player to move."""

    __slots__ = ()
    game: HeapGame

    def legal_actions(self) -> list[int]:
        """Every option of every heap, heap by heap."""
        stride = self.game.stride
        return [
            index * stride + j
            for index, size in enumerate(self.heaps)
            for j in range(len(self.game.heap_options(size)))
        ]

    def apply(self, action: int) -> HeapState:
        """Replace the chosen heap by the heaps its option leaves (at the same place)."""
        index, j = divmod(action, self.game.stride)
        if action < 0 or index >= len(self.heaps):
            raise IllegalMoveError(f"illegal action {action!r} with heaps {self.heaps}")
        options = self.game.heap_options(self.heaps[index])
        if j >= len(options):
            raise IllegalMoveError(f"illegal action {action!r} with heaps {self.heaps}")
        heaps = self.heaps[:index] + options[j] + self.heaps[index + 1 :]
        return HeapState(self.game, heaps, 1 - self.player)

    def is_terminal(self) -> bool:
        """No heap has a move."""
        return not any(self.game.heap_options(size) for size in self.heaps)

    def action_to_string(self, action: int) -> str:
        """``"H:J"`` (1-based heap and option)."""
        index, j = divmod(action, self.game.stride)
        return f"{index + 1}:{j + 1}"

    def string_to_action(self, text: str) -> int:
        """Parse ``"H:J"`` and check it is legal here."""
        parts = text.strip().split(":")
        try:
            if len(parts) != 2:
                raise ValueError
            heap, option = int(parts[0]) - 1, int(parts[1]) - 1
        except ValueError:
            raise IllegalMoveError(f"malformed move {text!r}: expected HEAP:OPTION") from None
        action = heap * self.game.stride + option
        if (
            heap < 0
            or option < 0
            or option >= self.game.stride
            or (action not in self.legal_actions())
        ):
            raise IllegalMoveError(f"illegal move {text!r} with heaps {self.heaps}")
        return action

    def __str__(self) -> str:
        heaps = " ".join(str(h) for h in self.heaps) or "(none)"
        return f"heaps {heaps}, player {self.player} to move"

    def __repr__(self) -> str:
        return f"HeapState(heaps={self.heaps}, player={self.player})"
