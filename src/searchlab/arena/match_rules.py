"""Match rules: games played in matches of two halves with the sides swapped, each decided
by rules of its own (Snake Go: :mod:`searchlab.domains.games.snakego.match`).

A rule says what to keep of a half's final state (:attr:`MatchRule.summarize`, JSON text the
store keeps with the half) and how two such summaries decide the match
(:attr:`MatchRule.decide`). :mod:`~searchlab.arena.matches` builds the stored matches on it.

>>> sorted(MATCH_RULES), has_match_rule("snakego(size=6)"), has_match_rule("tictactoe")
(['snakego'], True, False)
>>> match_key("snakego|a vs b|seed=0|openings=0|move-time=none|game 3")
'snakego|a vs b|seed=0|openings=0|move-time=none|match 1'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.snakego import match as snakego_match

__all__ = ["MATCH_RULES", "MatchRule", "has_match_rule", "match_key", "rule_of"]


@dataclass(frozen=True, slots=True)
class MatchRule:
    """How a game decides a match of two halves.

    Attributes:
        summarize: ``(final state, forfeiting player or None) -> JSON text``: what the
            decision needs of a half (stored with the half).
        decide: ``(first half's JSON, second half's JSON) -> (winning seat, reason,
            halves won per seat, total score per seat)``; seats as in the first half
            (seat 0 moved first there).
    """

    summarize: Callable[[Any, int | None], str]
    decide: Callable[[str, str], tuple[int, str, tuple[int, int], tuple[int, int]]]


def _snakego_decide(first: str, second: str) -> tuple[int, str, tuple[int, int], tuple[int, int]]:
    result = snakego_match.decide_halves(
        snakego_match.HalfResult.from_json(first), snakego_match.HalfResult.from_json(second)
    )
    return result.winner, result.reason, result.halves_won, result.total_scores


MATCH_RULES: dict[str, MatchRule] = {
    "snakego": MatchRule(
        summarize=lambda state, forfeit: snakego_match.half_result(state, forfeit).to_json(),
        decide=_snakego_decide,
    )
}
"""Match rules by game name (the name without its parameters)."""


def _name(game: str) -> str:
    return game.split("(", 1)[0]


def has_match_rule(game: str) -> bool:
    """Whether ``game`` (a name, or a stored game id such as ``"snakego(size=6)"``) is
    played in matches with a rule of its own."""
    return _name(game) in MATCH_RULES


def rule_of(game: str) -> MatchRule:
    """The match rule of ``game``; ``InvalidParameterError`` when it has none."""
    rule = MATCH_RULES.get(_name(game))
    if rule is None:
        raise InvalidParameterError(
            f"{_name(game)} has no match rule (games played in matches: "
            f"{', '.join(sorted(MATCH_RULES))}); it is played in single games"
        )
    return rule


def match_key(game_key: str) -> str:
    """The key of the match that the game with key ``game_key`` (``...|game I``) is a half
    of: ``...|match I // 2``."""
    head, sep, index = game_key.rpartition("|game ")
    if not sep or not index.isdigit():
        raise InvalidParameterError(f"not the key of a scheduled game: {game_key!r}")
    return f"{head}|match {int(index) // 2}"
