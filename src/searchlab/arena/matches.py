"""Whole matches: the two colour-swapped games of a pair, decided by the game's match rule.

Some games are played in matches of two halves with the sides swapped and decided by rules of
their own, not by adding up the halves' results: Snake Go (the half-winner count, then the
total score, then who ate first, then the second mover;
:mod:`searchlab.domains.games.snakego.match`). The arena's schedule already plays games
``2j`` and ``2j + 1`` of every pairing as a colour-swapped pair from the same start (the same
opening, and for a game with a ``seed`` parameter the same seed, so Snake Go's two halves have
the same items): for a game with a match rule that pair **is** match ``j``, game ``2j`` its
first half (the first agent of the sorted pair moves first) and game ``2j + 1`` its second.

The worker stores each half's summary (:meth:`MatchRule.summarize`, JSON); when the second
half of a match is stored, the store decides the match (:func:`decide_records`) in the same
transaction, so a match is stored exactly when both its halves are.

The rules themselves are in :mod:`~searchlab.arena.match_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from searchlab.arena.match_rules import rule_of
from searchlab.arena.worker import GameRecord
from searchlab.core.errors import InvalidParameterError

__all__ = ["MatchRecord", "MatchTally", "decide_records", "match_as_game", "match_tallies"]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One decided match.

    Attributes:
        key: the match key (the halves' keys with ``match J`` for ``game I``).
        game: the game and its parameters, as its halves store it.
        first: the label of the agent that moved first in the first half (seat 0).
        second: the label of the other agent (seat 1).
        first_half, second_half: the job keys of the two halves.
        winner: the label of the agent that won the match.
        reason: the rule that decided it (``halves``, ``score``, ...; the game's words).
        halves_won: halves won by ``first`` and by ``second``.
        total_scores: ``first``'s and ``second``'s scores summed over both halves.
    """

    key: str
    game: str
    first: str
    second: str
    first_half: str
    second_half: str
    winner: str
    reason: str
    halves_won: tuple[int, int]
    total_scores: tuple[int, int]


def decide_records(first: GameRecord, second: GameRecord) -> MatchRecord:
    """The match of two stored halves (``first`` the one whose first agent moved first in
    the match). ``InvalidParameterError`` when they are not the two halves of one match."""
    if (
        first.match_key is None
        or first.match_key != second.match_key
        or (first.half, second.half) != (1, 2)
        or (first.first, first.second) != (second.second, second.first)
        or first.final is None
        or second.final is None
    ):
        raise InvalidParameterError(
            f"not the two halves of one match: {first.key!r} and {second.key!r}"
        )
    winner, reason, halves, totals = rule_of(first.game).decide(first.final, second.final)
    players, halves_keys = (first.first, first.second), (first.key, second.key)
    return MatchRecord(
        first.match_key, first.game, *players, *halves_keys, players[winner], reason, halves, totals
    )


def match_as_game(match: MatchRecord, halves: Iterable[GameRecord] = ()) -> GameRecord:
    """A match as one game won by its winner (``1-0`` when ``first`` won), for the standings
    and the Elo ratings; the moves and move times of ``halves`` (the match's two halves, when
    given) are kept, each credited to the agent that made it, so that seconds per move stay
    right."""
    movers: list[int] = []
    times: list[float] = []
    for half in halves:
        swapped = half.first != match.first
        movers.extend(1 - mover if swapped else mover for mover in half.movers)
        times.extend(half.move_times)
    return GameRecord(
        key=match.key,
        game=match.game,
        first=match.first,
        second=match.second,
        seed=0,
        opening=(),
        moves=(),
        movers=tuple(movers),
        move_times=tuple(times),
        result="1-0" if match.winner == match.first else "0-1",
        termination="end",
    )


@dataclass(frozen=True, slots=True)
class MatchTally:
    """One agent's halves over its matches.

    Attributes:
        agent: its label.
        matches: matches played.
        halves_won: halves it won (of ``2 * matches``).
        points: its score summed over every half it played.
        reasons: how many of its matches (won or lost) each rule decided.
    """

    agent: str
    matches: int
    halves_won: int
    points: int
    reasons: dict[str, int]


def match_tallies(matches: Iterable[MatchRecord]) -> dict[str, MatchTally]:
    """Per agent: matches, halves won, points, and the rules that decided its matches.

    >>> m = MatchRecord("k", "snakego", "a", "b", "h1", "h2", "b", "score", (1, 1), (9, 12))
    >>> match_tallies([m])["b"]
    MatchTally(agent='b', matches=1, halves_won=1, points=12, reasons={'score': 1})
    """
    rows: dict[str, list[int]] = {}
    reasons: dict[str, dict[str, int]] = {}
    for match in matches:
        for seat, agent in enumerate((match.first, match.second)):
            row = rows.setdefault(agent, [0, 0, 0])
            row[0] += 1
            row[1] += match.halves_won[seat]
            row[2] += match.total_scores[seat]
            counts = reasons.setdefault(agent, {})
            counts[match.reason] = counts.get(match.reason, 0) + 1
    return {
        agent: MatchTally(agent, row[0], row[1], row[2], reasons[agent])
        for agent, row in rows.items()
    }
