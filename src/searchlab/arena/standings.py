"""The standings of a tournament: wins, draws, losses, score and Elo rating per agent.

``score`` is in points (a win 1, a draw 1/2), so the scores of all agents add up to the number
of games; ``elo`` and ``elo_ci`` (the half-width of its 95 % interval) come from
:func:`~searchlab.arena.elo.elo_ratings` over the same games.

>>> from searchlab.arena.worker import GameRecord
>>> def game(first, second, result):
...     return GameRecord("", "g", first, second, 0, (), (), (), (), result, "end")
>>> rows = standings([game("a", "b", "1-0"), game("b", "a", "1/2-1/2")])
>>> [(row.agent, row.wins, row.draws, row.losses, row.score) for row in rows]
[('a', 1, 1, 0, 1.5), ('b', 0, 1, 1, 0.5)]
>>> sorted(rows[0].as_json())
['agent', 'draws', 'elo', 'elo_ci', 'games', 'losses', 'score', 'wins']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from searchlab.arena.elo import elo_ratings
from searchlab.arena.worker import GameRecord

__all__ = ["Standing", "standings"]


@dataclass(frozen=True, slots=True)
class Standing:
    """One agent's line of the table.

    Attributes:
        agent: its label (spec, plus ``@Ts`` under a time override).
        games, wins, draws, losses: counts over the games given.
        score: points, a win 1 and a draw 1/2.
        elo: rating, the field's mean being 0.
        elo_ci: half-width of the rating's 95 % confidence interval.
        seconds_per_move: mean measured seconds per move it made (0 if it made none).
        moves: moves it made.
    """

    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_ci: float
    seconds_per_move: float
    moves: int

    def as_json(self) -> dict[str, Any]:
        """The line as the ``--json`` output lists it (Elo rounded to 0.1)."""
        return {
            "agent": self.agent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "elo": round(self.elo, 1),
            "elo_ci": round(self.elo_ci, 1),
        }


def standings(records: Iterable[GameRecord], *, virtual_draws: float = 1.0) -> list[Standing]:
    """The table over ``records``, best rating first (then by name)."""
    games = list(records)
    tally: dict[str, list[float]] = {}  # wins, draws, losses, seconds, moves
    for record in games:
        score = record.first_score
        for label, own in ((record.first, score), (record.second, 1.0 - score)):
            row = tally.setdefault(label, [0, 0, 0, 0.0, 0])
            row[0 if own == 1.0 else 1 if own == 0.5 else 2] += 1
        for mover, seconds in zip(record.movers, record.move_times, strict=True):
            row = tally[record.first if mover == 0 else record.second]
            row[3] += seconds
            row[4] += 1
    ratings = elo_ratings(
        ((record.first, record.second, record.first_score) for record in games),
        virtual_draws=virtual_draws,
    )
    rows = [
        Standing(
            agent=label,
            games=int(wins + draws + losses),
            wins=int(wins),
            draws=int(draws),
            losses=int(losses),
            score=wins + 0.5 * draws,
            elo=ratings.elo[label],
            elo_ci=ratings.ci[label],
            seconds_per_move=seconds / moves if moves else 0.0,
            moves=int(moves),
        )
        for label, (wins, draws, losses, seconds, moves) in tally.items()
    ]
    return sorted(rows, key=lambda row: (-row.elo, row.agent))
