"""Elo ratings from game results, with confidence intervals.

**Model.** The logistic Elo model (Bradley-Terry): an agent rated ``d`` Elo above another is
expected to score ``1 / (1 + 10**(-d / 400))`` against it (the formula is
:mod:`searchlab.core.elo`'s, which the training loop uses too). A draw counts as half a win and half
a loss. :func:`elo_ratings` finds the ratings of maximum likelihood by Newton's method; they are
*anchored so that the mean rating is 0* (only differences have a meaning). Two agents, one
scoring a fraction ``p`` of the points: their ratings differ by ``400 log10(p / (1 - p))``.

**Confidence intervals** (95 % by default) come from the curvature of the log-likelihood
at its maximum (the observed Fisher information, a graph Laplacian of the games played): the
covariance of the mean-anchored ratings is its pseudo-inverse, and an agent's interval is
``rating ± z * sqrt(variance)``. It is the interval of one rating against the field's mean;
the interval of a difference between two agents is wider (for two agents, twice as wide).
Counting draws as half wins overstates the variance a little when draws are common, so the
intervals are slightly conservative then.

**Perfect scores.** An agent that won (or lost) every game has no finite maximum-likelihood
rating. Each pairing that was played therefore gets ``virtual_draws`` extra games scored as
draws (default 1: half a point each way), a weak prior in the manner of BayesElo: with 10 wins
out of 10 the gap is ``400 log10(10.5 / 0.5) = 529`` Elo instead of infinite, and with many
games the prior hardly matters (70 % of 100 games: 146 Elo instead of 147).
``virtual_draws=0`` gives the plain maximum likelihood (an error when it does not exist).

Agents never connected by games (two separate groups in one file) cannot be compared: each
connected group is anchored at mean 0 on its own.

>>> ratings = elo_ratings([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)], virtual_draws=0)
>>> round(ratings.elo["a"] - ratings.elo["b"], 1)  # 75 %: 400 log10(3)
190.8
>>> round(ratings.elo["a"] + ratings.elo["b"], 9)
0.0
>>> match_score(wins=60, draws=0, losses=40).score
0.6
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from searchlab.core.elo import ELO_PER_NAT, elo_difference, expected_score
from searchlab.core.errors import InvalidParameterError

__all__ = [
    "ELO_PER_NAT",
    "EloRatings",
    "MatchScore",
    "elo_ratings",
    "expected_score",
    "match_score",
]


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise InvalidParameterError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True, slots=True)
class EloRatings:
    """Ratings (mean 0 within each connected group) and the half-widths of their intervals."""

    elo: Mapping[str, float]
    ci: Mapping[str, float]
    confidence: float = 0.95


def elo_ratings(
    results: Iterable[tuple[str, str, float]],
    *,
    virtual_draws: float = 1.0,
    confidence: float = 0.95,
) -> EloRatings:
    """Maximum-likelihood Elo ratings from ``(first, second, first_score)`` results.

    ``first_score`` is 1 (first won), 0.5 (draw) or 0. See the module docstring for the
    model, the anchoring, the intervals and ``virtual_draws``.
    """
    if virtual_draws < 0:
        raise InvalidParameterError(f"virtual_draws must be >= 0, got {virtual_draws!r}")
    z = _z(confidence)
    games: dict[tuple[str, str], list[float]] = {}  # (a, b) with a < b -> [games, score of a]
    for first, second, score in results:
        if first == second:
            raise InvalidParameterError(f"agent {first!r} cannot play itself")
        a, b = sorted((first, second))
        tally = games.setdefault((a, b), [0.0, 0.0])
        tally[0] += 1
        tally[1] += score if a == first else 1.0 - score
    for tally in games.values():
        tally[0] += virtual_draws
        tally[1] += virtual_draws / 2
    elo: dict[str, float] = {}
    ci: dict[str, float] = {}
    for group in _groups(games):
        ratings, variances = _fit(group, games)
        for name, theta, variance in zip(group, ratings, variances, strict=True):
            elo[name] = float(theta * ELO_PER_NAT)
            ci[name] = float(z * math.sqrt(max(variance, 0.0)) * ELO_PER_NAT)
    return EloRatings(elo, ci, confidence)


def _groups(games: Mapping[tuple[str, str], list[float]]) -> list[list[str]]:
    """The agents in groups connected by games (union-find), each sorted by name."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for a, b in games:
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for name in sorted(parent):
        groups.setdefault(root(name), []).append(name)
    return list(groups.values())


def _fit(
    group: list[str], games: Mapping[tuple[str, str], list[float]]
) -> tuple[np.ndarray, np.ndarray]:
    """Newton's method on the log-likelihood of one connected group; returns the mean-zero
    logit ratings and their variances."""
    m = len(group)
    index = {name: i for i, name in enumerate(group)}
    pairs = [(index[a], index[b], n, s) for (a, b), (n, s) in games.items() if a in index]
    if not _has_finite_maximum(m, pairs):
        raise InvalidParameterError(
            f"no finite Elo ratings for {', '.join(group)}: some agents won or lost every "
            "game against the rest; use virtual_draws > 0"
        )
    theta = np.zeros(m)
    centre = np.full((m, m), 1.0 / m)  # adding it fixes the free mean (the Laplacian's null space)
    system = centre.copy()
    for _ in range(200):
        gradient = np.zeros(m)
        laplacian = np.zeros((m, m))
        for i, j, n, s in pairs:
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            gradient[i] += s - n * p
            gradient[j] -= s - n * p
            w = n * p * (1.0 - p)
            laplacian[i, i] += w
            laplacian[j, j] += w
            laplacian[i, j] -= w
            laplacian[j, i] -= w
        system = laplacian + centre
        step = np.linalg.solve(system, gradient)
        largest = float(np.max(np.abs(step))) if m else 0.0
        if largest > 1.0:  # damped Newton: the log-likelihood is concave, small steps converge
            step /= largest
        theta += step
        if largest < 1e-10:
            break
    covariance = np.linalg.inv(system) - centre
    return theta - theta.mean(), np.diag(covariance).copy()


def _has_finite_maximum(m: int, pairs: list[tuple[int, int, float, float]]) -> bool:
    """Zermelo's condition: the likelihood has a finite maximum iff every agent can be
    reached from every other along "scored at least half a point against" edges."""
    beats: list[set[int]] = [set() for _ in range(m)]
    for i, j, n, s in pairs:
        if s > 0:
            beats[i].add(j)
        if n - s > 0:
            beats[j].add(i)
    beaten: list[set[int]] = [set() for _ in range(m)]
    for i in range(m):
        for j in beats[i]:
            beaten[j].add(i)

    def reach(edges: list[set[int]]) -> int:
        seen, stack = {0}, [0]
        while stack:
            for nxt in edges[stack.pop()] - seen:
                seen.add(nxt)
                stack.append(nxt)
        return len(seen)

    return reach(beats) == m and reach(beaten) == m


@dataclass(frozen=True, slots=True)
class MatchScore:
    """One agent's result in a match against one opponent.

    Attributes:
        games: games played.
        score: points per game (a win 1, a draw 1/2), in ``[0, 1]``.
        score_ci: half-width of the score's confidence interval.
        elo: the Elo difference the score implies (:func:`searchlab.core.elo.elo_difference`:
            ``inf`` for a perfect score).
        elo_low, elo_high: the interval's ends in Elo.
    """

    games: int
    score: float
    score_ci: float
    elo: float
    elo_low: float
    elo_high: float


def match_score(wins: int, draws: int, losses: int, *, confidence: float = 0.95) -> MatchScore:
    """The score of a match and its interval, from the per-game variance of the observed
    wins, draws and losses (normal approximation, as chess engine testers report it).

    >>> result = match_score(wins=60, draws=0, losses=40)
    >>> round(result.score_ci, 4), round(result.elo, 1)  # 1.96 * sqrt(0.24 / 100)
    (0.096, 70.4)
    """
    games = wins + draws + losses
    if min(wins, draws, losses) < 0 or games == 0:
        raise InvalidParameterError(
            f"a match needs games and no negative counts, got {wins}/{draws}/{losses}"
        )
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    half = _z(confidence) * math.sqrt(variance / games)
    return MatchScore(
        games=games,
        score=score,
        score_ci=half,
        elo=elo_difference(score),
        elo_low=elo_difference(max(score - half, 0.0)),
        elo_high=elo_difference(min(score + half, 1.0)),
    )
