"""The Elo formula, written once: a rating gap's expected score, and the gap a score stands for.

The logistic Elo model (Bradley-Terry): an agent rated ``d`` Elo above its opponent is expected
to score ``1 / (1 + 10 ** (-d / 400))`` against it (a win 1, a draw 1/2, a loss 0), so a score
``s`` stands for a gap of ``400 log10(s / (1 - s))``. The arena's ratings and match scores
(:mod:`searchlab.arena.elo`) and the training loop's Elo gain per generation
(:mod:`searchlab.learning.alphazero.pipeline`) both use these two functions.

>>> expected_score(0.0), round(expected_score(400.0), 4)
(0.5, 0.9091)
>>> round(elo_difference(0.75), 1), elo_difference(1.0)
(190.8, inf)
>>> round(elo_difference(1.0, games=10), 1)  # a 10-0 sweep, kept half a game off 1: 9.5 / 10
511.5
"""

from __future__ import annotations

import math

from searchlab.core.errors import InvalidParameterError

__all__ = ["ELO_PER_NAT", "elo_difference", "expected_score"]

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of the natural logit: ``elo = ELO_PER_NAT * theta``."""


def expected_score(elo_difference: float) -> float:
    """The expected score of an agent rated ``elo_difference`` above its opponent.

    >>> round(expected_score(-400.0), 4)
    0.0909
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def elo_difference(score: float, *, games: int | None = None) -> float:
    """The Elo gap that ``score`` (points per game, in ``[0, 1]``) stands for: the inverse of
    :func:`expected_score`; ``-inf`` and ``inf`` at 0 and 1.

    With ``games`` (the games the score is over, >= 1) the score is first kept half a game off
    0 and 1 (``0.5 / games``), so that a clean sweep is a finite gain.

    >>> round(elo_difference(0.25), 1), round(elo_difference(0.0, games=4), 1)
    (-190.8, -338.0)
    """
    if not 0.0 <= score <= 1.0:  # NaN fails too
        raise InvalidParameterError(f"a score must be between 0 and 1, got {score!r}")
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise InvalidParameterError(f"games must be an integer >= 1, got {games!r}")
        low = 0.5 / games
        score = min(max(score, low), 1.0 - low)
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))
