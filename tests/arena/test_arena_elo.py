"""Elo ratings, match scores and the SPRT, against hand-derived values and simulations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from searchlab.arena.elo import ELO_PER_NAT, elo_ratings, expected_score, match_score
from searchlab.arena.sprt import SPRT, SPRTMonitor
from searchlab.arena.worker import GameRecord
from searchlab.core.errors import InvalidParameterError

Z95 = 1.959963984540054


def results(a: str, b: str, wins: int, draws: int, losses: int) -> list[tuple[str, str, float]]:
    """``a``'s results against ``b``, colours alternating."""
    scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
    out = []
    for n, score in enumerate(scores):
        out.append((a, b, score) if n % 2 == 0 else (b, a, 1.0 - score))
    return out


@pytest.mark.parametrize(
    ("wins", "draws", "losses"), [(3, 0, 1), (7, 2, 1), (30, 40, 30), (1, 0, 9)]
)
def test_two_players_elo_difference_is_the_logit_of_the_score(
    wins: int, draws: int, losses: int
) -> None:
    games = wins + draws + losses
    p = (wins + draws / 2) / games
    ratings = elo_ratings(results("a", "b", wins, draws, losses), virtual_draws=0)
    assert ratings.elo["a"] - ratings.elo["b"] == pytest.approx(400 * math.log10(p / (1 - p)))
    assert ratings.elo["a"] + ratings.elo["b"] == pytest.approx(0, abs=1e-9)
    # Fisher information n p (1 - p) for the difference; each rating carries a quarter of
    # the difference's variance.
    half_width = Z95 * math.sqrt(1 / (4 * games * p * (1 - p))) * 400 / math.log(10)
    assert ratings.ci["a"] == pytest.approx(half_width)
    assert ratings.ci["b"] == pytest.approx(half_width)


def test_virtual_draws_add_half_a_point_each_way() -> None:
    ratings = elo_ratings(results("a", "b", 10, 0, 0))  # default: one virtual draw
    assert ratings.elo["a"] - ratings.elo["b"] == pytest.approx(400 * math.log10(10.5 / 0.5))
    with pytest.raises(InvalidParameterError, match="won or lost every"):
        elo_ratings(results("a", "b", 10, 0, 0), virtual_draws=0)


def test_three_players_consistent_with_the_model_are_recovered_exactly() -> None:
    # a-b and b-c at 75 % (190.8 Elo each), a-c at 90 % (381.7 = 2 x 190.8 Elo)
    games = results("a", "b", 6, 0, 2) + results("b", "c", 6, 0, 2) + results("a", "c", 9, 0, 1)
    ratings = elo_ratings(games, virtual_draws=0)
    gap = 400 * math.log10(3)
    assert ratings.elo["a"] == pytest.approx(gap)
    assert ratings.elo["b"] == pytest.approx(0, abs=1e-9)
    assert ratings.elo["c"] == pytest.approx(-gap)
    assert expected_score(2 * gap) == pytest.approx(0.9)


def test_swapping_sides_or_names_mirrors_the_ratings() -> None:
    games = results("a", "b", 5, 3, 2) + results("b", "c", 4, 1, 5) + results("a", "c", 2, 2, 1)
    ratings = elo_ratings(games)
    swapped = elo_ratings([(second, first, 1.0 - score) for first, second, score in games])
    rename = {"a": "c", "b": "b", "c": "a"}
    mirrored = elo_ratings([(rename[f], rename[s], 1.0 - score) for f, s, score in games])
    for name in "abc":
        assert swapped.elo[name] == pytest.approx(ratings.elo[name])
        assert swapped.ci[name] == pytest.approx(ratings.ci[name])
    # each agent of the renamed, score-flipped field sits where its original's negation was
    for name in "abc":
        assert mirrored.elo[rename[name]] == pytest.approx(-ratings.elo[name])


def test_more_games_narrow_the_interval() -> None:
    few = elo_ratings(results("a", "b", 6, 2, 2))
    many = elo_ratings(results("a", "b", 60, 20, 20))
    most = elo_ratings(results("a", "b", 600, 200, 200))
    assert few.ci["a"] > many.ci["a"] > most.ci["a"]
    assert many.ci["a"] / most.ci["a"] == pytest.approx(math.sqrt(10), rel=0.02)


def test_separate_groups_are_each_anchored_at_zero() -> None:
    ratings = elo_ratings(results("a", "b", 3, 0, 1) + results("c", "d", 1, 0, 3))
    assert ratings.elo["a"] + ratings.elo["b"] == pytest.approx(0, abs=1e-9)
    assert ratings.elo["c"] + ratings.elo["d"] == pytest.approx(0, abs=1e-9)
    assert ratings.elo["a"] > 0 > ratings.elo["c"]


def test_elo_per_nat() -> None:
    assert ELO_PER_NAT * math.log(10) == pytest.approx(400)


def test_match_score_hand_values() -> None:
    result = match_score(wins=30, draws=40, losses=30)
    assert result.score == 0.5 and result.elo == 0
    # per-game variance: (30 * 0.25 + 40 * 0 + 30 * 0.25) / 100 = 0.15
    assert result.score_ci == pytest.approx(Z95 * math.sqrt(0.15 / 100))
    assert result.elo_high == pytest.approx(-result.elo_low)
    assert result.elo_high == pytest.approx(-400 * math.log10(1 / (0.5 + result.score_ci) - 1))
    perfect = match_score(wins=5, draws=0, losses=0)
    assert perfect.score == 1 and perfect.elo == math.inf
    with pytest.raises(InvalidParameterError):
        match_score(0, 0, 0)


# -- SPRT -------------------------------------------------------------------------------------
def test_sprt_bounds_and_parse() -> None:
    test = SPRT.parse("0,10,0.05,0.1")
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    for bad in ("10,0", "0", "a,b", "0,10,0.6,0.05", "0,nan"):
        with pytest.raises(InvalidParameterError):
            SPRT.parse(bad)


def test_sprt_llr_is_zero_without_games_and_grows_with_wins() -> None:
    test = SPRT(0, 20)
    assert test.llr(0, 0, 0) == 0
    llrs = [test.llr(wins, 20, 30) for wins in (10, 25, 30, 40, 60)]
    assert llrs == sorted(llrs)
    midpoint_elo = 10  # halfway between the hypotheses the LLR changes sign
    s_mid = (expected_score(0) + expected_score(20)) / 2
    assert expected_score(midpoint_elo) == pytest.approx(s_mid, abs=1e-4)
    assert test.llr(35, 20, 30) > 0 > test.llr(30, 20, 35)


def simulate(test: SPRT, true_elo: float, draw_rate: float, rng: np.random.Generator) -> str:
    """Play a synthetic match until the test decides (at most 50,000 games)."""
    score = expected_score(true_elo)
    win = score - draw_rate / 2
    wins = draws = losses = 0
    for _ in range(50_000):
        u = rng.random()
        if u < win:
            wins += 1
        elif u < win + draw_rate:
            draws += 1
        else:
            losses += 1
        decision = test.test(wins, draws, losses).decision
        if decision is not None:
            return decision
    return "none"


@pytest.mark.parametrize(("true_elo", "expected"), [(-10, "H0"), (0, "H0"), (30, "H1"), (40, "H1")])
def test_sprt_decides_synthetic_matches_within_its_error_rates(
    true_elo: float, expected: str
) -> None:
    test = SPRT(0, 30)
    rng = np.random.default_rng(2026)
    decisions = [simulate(test, true_elo, 0.3, rng) for _ in range(60)]
    wrong = sum(decision != expected for decision in decisions)
    # at the hypotheses themselves the error rate is alpha = beta = 5 %: 60 runs allow
    # some; far from them almost none
    assert wrong <= 8, decisions


def test_monitor_counts_only_its_pairing_from_either_side() -> None:
    def game(first: str, second: str, result: str) -> GameRecord:
        return GameRecord("", "g", first, second, 0, (), (), (), (), result, "end")

    monitor = SPRTMonitor(SPRT(0, 50), "a", "b")
    for record in (
        game("a", "b", "1-0"),
        game("b", "a", "1-0"),
        game("b", "a", "0-1"),
        game("a", "b", "1/2-1/2"),
        game("a", "c", "1-0"),
    ):
        monitor.add(record)
    assert monitor.counts == (2, 1, 1)
    assert monitor.result.llr == pytest.approx(SPRT(0, 50).llr(2, 1, 1))
