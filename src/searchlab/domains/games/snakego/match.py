"""A Snake Go match: two halves with the same items, sides swapped, and who wins it.

The rules (docs/games/snakego.md, decision 13): the player who moves first in the first half
moves second in the second (it simply plays as player 1 there, from the other corner). The
match goes to the player with

1. more halves won (a half goes to the larger score; a tie to the player who moved second in
   that half), then
2. the larger total score over both halves, then
3. the earlier first item eaten in the **first** half (``state.first_eat`` holds ply numbers;
   never eating counts as later than any ply), then
4. the player who moved second in the first half.

Players of a match are named by their seat in the first half: ``0`` moved first there (player
0 of half 1, player 1 of half 2), ``1`` moved second. A half is summarised by
:class:`HalfResult` (what the decision needs, and what the arena stores), so that a match can
be decided again from a database without replaying it.

>>> first = HalfResult(scores=(10, 7), first_eat=(4, 1))    # seat 0 wins half 1
>>> second = HalfResult(scores=(9, 9), first_eat=(0, None))  # tie: player 1 = seat 0 wins
>>> decide_halves(first, second)
MatchResult(winner=0, reason='halves', halves_won=(2, 0), total_scores=(19, 16), first_eat=(4, 1))
>>> decide_halves(first, HalfResult(scores=(12, 5), first_eat=(3, 8))).reason  # 1-1: score
'score'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "FinishedHalf",
    "HalfResult",
    "MatchResult",
    "Reason",
    "decide_halves",
    "decide_match",
    "half_result",
]

Reason = Literal["halves", "score", "first item", "second mover"]
"""Which rule decided a match (the first that separates the players)."""


class FinishedHalf(Protocol):
    """What a match needs of a half's final state (``SnakeGoState`` has it)."""

    @property
    def first_eat(self) -> tuple[int | None, int | None]: ...

    def scores(self) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class HalfResult:
    """One half, as the match rules see it; players are that half's players 0 and 1.

    Attributes:
        scores: each player's score at the end (snake cells plus own wall cells).
        first_eat: the ply (global, from 0) at which each player first ate an item, or
            ``None`` for never.
        forfeit: the player who lost this half by forfeit (an agent's error or illegal move
            in the arena), else ``None``; the other player wins the half whatever the scores.
    """

    scores: tuple[int, int]
    first_eat: tuple[int | None, int | None]
    forfeit: int | None = None

    @property
    def winner(self) -> int:
        """The player who wins this half: the larger score, a tie going to player 1 (who
        moved second), unless someone forfeited.

        >>> HalfResult((5, 5), (None, None)).winner, HalfResult((6, 5), (0, 1)).winner
        (1, 0)
        """
        if self.forfeit is not None:
            return 1 - self.forfeit
        return 0 if self.scores[0] > self.scores[1] else 1

    def to_json(self) -> str:
        """The half as a JSON object (how the arena stores it).

        >>> HalfResult((3, 4), (2, None)).to_json()
        '{"scores": [3, 4], "first_eat": [2, null], "forfeit": null}'
        """
        return json.dumps(
            {
                "scores": list(self.scores),
                "first_eat": list(self.first_eat),
                "forfeit": self.forfeit,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> HalfResult:
        """The half that :meth:`to_json` wrote; ``InvalidParameterError`` for anything else.

        >>> HalfResult.from_json(HalfResult((3, 4), (2, None), forfeit=1).to_json()).forfeit
        1
        """
        try:
            data: Any = json.loads(text)
            scores = tuple(_number(value) for value in data["scores"])
            first_eat = tuple(None if v is None else _number(v) for v in data["first_eat"])
            forfeit = data.get("forfeit")
            if len(scores) != 2 or len(first_eat) != 2 or forfeit not in (None, 0, 1):
                raise ValueError("two players")
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            raise InvalidParameterError(f"not a Snake Go half result: {text!r} ({error})") from None
        return cls((scores[0], scores[1]), (first_eat[0], first_eat[1]), forfeit)


def _number(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not a whole number >= 0")
    return value


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The decision of a match; pairs are indexed by seat in the first half (0 moved first).

    Attributes:
        winner: the seat that wins the match (0 or 1).
        reason: the rule that decided it (see the module docstring).
        halves_won: halves won by each seat (2-0, 1-1 or 0-2).
        total_scores: each seat's score summed over both halves.
        first_eat: each seat's first item in the first half (ply, or ``None``).
    """

    winner: int
    reason: Reason
    halves_won: tuple[int, int]
    total_scores: tuple[int, int]
    first_eat: tuple[int | None, int | None]


def half_result(state: FinishedHalf, forfeit: int | None = None) -> HalfResult:
    """The :class:`HalfResult` of a half's final state (``forfeit``: the player who lost it
    by forfeit, if any)."""
    s0, s1 = state.scores()
    e0, e1 = state.first_eat
    return HalfResult((int(s0), int(s1)), (e0, e1), forfeit)


def decide_halves(first: HalfResult, second: HalfResult) -> MatchResult:
    """Who wins the match made of ``first`` and ``second`` (the halves as played: in the
    second, seat 0 of the match is player 1). The rules are listed in the module docstring;
    the last one always decides, so a match is never drawn."""
    halves = (
        int(first.winner == 0) + int(second.winner == 1),
        int(first.winner == 1) + int(second.winner == 0),
    )
    totals = (first.scores[0] + second.scores[1], first.scores[1] + second.scores[0])
    eats = first.first_eat
    winner: int
    reason: Reason
    if halves[0] != halves[1]:
        winner, reason = (0 if halves[0] > halves[1] else 1), "halves"
    elif totals[0] != totals[1]:
        winner, reason = (0 if totals[0] > totals[1] else 1), "score"
    elif _when(eats[0]) != _when(eats[1]):
        winner, reason = (0 if _when(eats[0]) < _when(eats[1]) else 1), "first item"
    else:
        winner, reason = 1, "second mover"
    return MatchResult(winner, reason, halves, totals, eats)


def _when(ply: int | None) -> float:
    """A first-eat ply for comparison: never eating comes after every ply."""
    return float("inf") if ply is None else float(ply)


def decide_match(first_half_state: FinishedHalf, second_half_state: FinishedHalf) -> MatchResult:
    """Who wins the match whose halves ended in these states (see :func:`decide_halves`).

    The second half is the one with the sides swapped: the player who moved first in the
    first half is its player 1. Any objects with ``scores()`` and ``first_eat`` will do.
    """
    return decide_halves(half_result(first_half_state), half_result(second_half_state))
