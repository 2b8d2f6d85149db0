"""Sprague-Grundy values of impartial games under normal play (who cannot move loses).

The Grundy value (nim-value) of a position is the *mex* (minimum excluded non-negative
integer) of its options' values; the player to move loses iff it is 0. A sum of independent
games has the XOR of their values (the Sprague-Grundy theorem), so a heap game needs only the
values of single heaps: :func:`heap_grundy_values`. In Nim a heap of ``n`` has value ``n`` and
a position the XOR of its piles.

>>> from searchlab.domains.games.nim import Nim
>>> grundy_value(Nim((3, 4, 5)))
2
>>> from searchlab.domains.games.heap_games import kayles
>>> heap_grundy_values(kayles(), 12)
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State, check_capabilities

__all__ = [
    "grundy_value",
    "heap_grundy_values",
    "mex",
    "nim_mover_wins",
    "nim_winning_move",
    "winning_moves",
]


def mex(values: Iterable[int]) -> int:
    """The minimum excluded value: the least non-negative integer not in ``values``.

    >>> mex([0, 1, 3]), mex([]), mex([1, 2])
    (2, 0, 0)
    """
    seen = set(values)
    value = 0
    while value in seen:
        value += 1
    return value


def heap_grundy_values(game: Game, max_size: int) -> list[int]:
    """Grundy values of single heaps of size ``0..max_size`` of a heap game (one with
    ``heap_options(n)``, the heaps a move on a heap of ``n`` leaves), by dynamic programming.

    Raises ``InvalidParameterError`` for a game without ``heap_options`` or a negative size.
    """
    check_capabilities(game, "heap_grundy_values", impartial=True)
    options = getattr(game, "heap_options", None)
    if options is None:
        raise InvalidParameterError(f"{game.info.name} is not a heap game (no heap_options)")
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
        raise InvalidParameterError(f"max_size must be an integer >= 0, got {max_size!r}")
    values: list[int] = []
    for n in range(max_size + 1):
        reachable = set()
        for heaps in options(n):
            xor = 0
            for heap in heaps:
                xor ^= values[heap]
            reachable.add(xor)
        values.append(mex(reachable))
    return values


def grundy_value(game: Game, state: State | None = None) -> int:
    """The Grundy value of ``state`` (default: the initial state) of an impartial game.

    Heap games (states with ``heaps``) use the XOR of single-heap values; any other impartial
    game is searched exhaustively with a table keyed by ``state.key()``.

    Raises:
        InvalidParameterError: the game is not impartial, or a terminal state is not a loss
            for the player to move (misere play has no Grundy theory of this kind).
    """
    check_capabilities(game, "grundy_value", impartial=True)
    root = game.initial_state() if state is None else state
    heaps = getattr(root, "heaps", None)
    if heaps is not None and hasattr(game, "heap_options"):
        table = heap_grundy_values(game, max(heaps, default=0))
        xor = 0
        for heap in heaps:
            xor ^= table[heap]
        return xor
    return _Grundy(game).value(root)


class _Grundy:
    def __init__(self, game: Game) -> None:
        self.name = game.info.name
        self.table: dict[Hashable, int] = {}

    def value(self, state: State) -> int:
        key = state.key()
        cached = self.table.get(key)
        if cached is not None:
            return cached
        if state.is_terminal():
            if state.returns()[state.current_player()] >= 0:
                raise InvalidParameterError(
                    f"Grundy values need normal play (who cannot move loses); {self.name} "
                    f"does not lose the player to move at the end ({state})"
                )
            result = 0
        else:
            result = mex(self.value(state.apply(a)) for a in state.legal_actions())
        self.table[key] = result
        return result


def winning_moves(game: Game, state: State | None = None) -> list[int]:
    """The actions that leave a position of Grundy value 0 (empty when the mover loses).

    >>> from searchlab.domains.games.nim import Nim
    >>> game = Nim((3, 4, 5))
    >>> [game.initial_state().action_to_string(a) for a in winning_moves(game)]
    ['1:2']
    """
    root = game.initial_state() if state is None else state
    check_capabilities(game, "winning_moves", impartial=True)
    return [a for a in root.legal_actions() if grundy_value(game, root.apply(a)) == 0]


def nim_mover_wins(piles: Iterable[int], *, misere: bool = False) -> bool:
    """Nim by rule, for piles of any size: normal play, the mover wins iff the XOR of the piles
    is not 0 (Bouton); misere play, the same while some pile has 2 or more counters, else iff
    the number of non-empty piles is even.

    >>> nim_mover_wins([3, 4, 5]), nim_mover_wins([1, 1]), nim_mover_wins([1, 1], misere=True)
    (True, False, True)
    """
    piles = list(piles)
    nim_sum = 0
    for pile in piles:
        nim_sum ^= pile
    if misere and all(pile <= 1 for pile in piles):
        return nim_sum == 0
    return nim_sum != 0


def nim_winning_move(piles: Iterable[int], *, misere: bool = False) -> tuple[int, int] | None:
    """A winning move ``(pile index, counters to take)`` by the rule of :func:`nim_mover_wins`,
    or ``None`` when the mover loses (or there is nothing left to take). Takes from the first
    pile that works, as little as works.

    Computed, not searched: from each pile the move must leave a losing position, which the
    rule names at once (normal play: the pile becomes the XOR of the others; misere play the
    same, unless that leaves no pile of 2 or more, when an odd number of single counters must
    be left), so the time is linear in the number of piles, whatever their sizes.

    >>> nim_winning_move([3, 4, 5]), nim_winning_move([1, 2, 3])
    ((0, 2), None)
    >>> nim_winning_move([1, 1, 2], misere=True)  # leave 1 1 1: three single counters
    (2, 1)
    >>> nim_winning_move([10**30, 3])  # leave 3 3
    (0, 999999999999999999999999999997)
    """
    piles = list(piles)
    if not nim_mover_wins(piles, misere=misere):
        return None
    nim_sum = 0
    for pile in piles:
        nim_sum ^= pile
    big = sum(pile >= 2 for pile in piles)  # piles of 2 or more
    ones = sum(pile == 1 for pile in piles)
    for index, size in enumerate(piles):
        keep = _losing_remainder(
            size,
            others_xor=nim_sum ^ size,
            others_big=big - (size >= 2),
            others_ones=ones - (size == 1),
            misere=misere,
        )
        if keep is not None:
            return index, size - keep
    return None  # pragma: no cover - a winning position always has a winning move


def _losing_remainder(
    size: int, *, others_xor: int, others_big: int, others_ones: int, misere: bool
) -> int | None:
    """The most counters (``< size``) a pile of ``size`` may keep so that the position left,
    with the other piles as they are, is lost for the player to move then; ``None`` if none.

    Lost positions: normal play, XOR 0; misere play, XOR 0 while some pile has 2 or more
    counters, else an odd number of single counters (:func:`nim_mover_wins`)."""
    candidates = []
    keep = others_xor  # the only remainder with XOR 0
    if keep < size and (not misere or keep >= 2 or others_big > 0):
        candidates.append(keep)
    if misere and others_big == 0:  # keep 0 or 1: every pile left has at most 1 counter
        candidates += [k for k in (0, 1) if k < size and (others_ones + k) % 2 == 1]
    return max(candidates, default=None)
