"""Games that repeat move for move: :func:`repetitions`, the sign of deterministic agents.

Two agents without randomness (alpha-beta; any agent given a fixed ``seed=``) play the same game
every time they meet from the same position with the same colours. Random openings (the
default, see :mod:`~searchlab.arena.schedule`) vary the positions; with ``openings=0``, or
too few different openings for the games asked, the games repeat and the ratings rest on a
handful of distinct games. This finds such pairings in the stored records.

>>> from searchlab.arena.worker import GameRecord
>>> def game(key, first, second, moves):
...     return GameRecord(key, "nim", first, second, 0, (), moves, (0,), (0.0,), "1-0", "end")
>>> records = [game(f"k{i}", *(("a", "b") if i % 2 else ("b", "a")), ("1:3",)) for i in range(6)]
>>> repetitions(records)
[Repetition(first='a', second='b', games=6, distinct=2)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from searchlab.arena.worker import GameRecord

__all__ = ["MIN_GAMES", "Repetition", "repetitions"]

MIN_GAMES = 4
"""Pairings with fewer games are never reported."""


@dataclass(frozen=True, slots=True)
class Repetition:
    """A pairing whose games repeat: ``distinct`` different games among ``games``.

    ``first`` and ``second`` are the agents' labels in sorted order (not who moved first).
    """

    first: str
    second: str
    games: int
    distinct: int


def repetitions(records: Iterable[GameRecord]) -> list[Repetition]:
    """The pairings (of one game) with at least :data:`MIN_GAMES` games of which at most half
    are different: same agent first, same opening and same moves count as one game. Seeded
    random agents repeat a game only by chance, far below that share; deterministic agents
    from one position play two different games (one per colour) however many are asked.
    """
    games: dict[tuple[str, str, str], int] = {}
    distinct: dict[tuple[str, str, str], set[tuple[str, tuple[str, ...], tuple[str, ...]]]] = {}
    for record in records:
        pairing = (record.game, *sorted((record.first, record.second)))
        key = (pairing[0], pairing[1], pairing[2])
        games[key] = games.get(key, 0) + 1
        distinct.setdefault(key, set()).add((record.first, record.opening, record.moves))
    return [
        Repetition(first=key[1], second=key[2], games=count, distinct=len(distinct[key]))
        for key, count in games.items()
        if count >= MIN_GAMES and 2 * len(distinct[key]) <= count
    ]
