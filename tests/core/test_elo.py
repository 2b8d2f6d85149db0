"""The Elo formula written once (core/elo.py): the expected score and its inverse."""

from __future__ import annotations

import math

import pytest

from searchlab.core.elo import ELO_PER_NAT, elo_difference, expected_score
from searchlab.core.errors import InvalidParameterError


@pytest.mark.parametrize("gap", [-800.0, -190.8, 0.0, 35.0, 400.0])
def test_elo_difference_is_the_inverse_of_the_expected_score(gap: float) -> None:
    assert elo_difference(expected_score(gap)) == pytest.approx(gap)


def test_hand_derived_values() -> None:
    assert expected_score(0.0) == 0.5
    assert expected_score(400.0) == pytest.approx(10 / 11)
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(0.5) == 0.0
    assert ELO_PER_NAT * math.log(3) == pytest.approx(400 * math.log10(3))


def test_the_ends_are_infinite_unless_kept_half_a_game_off() -> None:
    assert elo_difference(1.0) == math.inf
    assert elo_difference(0.0) == -math.inf
    assert elo_difference(1.0, games=10) == pytest.approx(400 * math.log10(9.5 / 0.5))
    assert elo_difference(0.0, games=4) == pytest.approx(400 * math.log10(0.125 / 0.875))
    assert elo_difference(0.6, games=10) == elo_difference(0.6)  # inside: unchanged


@pytest.mark.parametrize(
    ("score", "games", "fragment"),
    [(1.5, None, "between 0 and 1"), (math.nan, None, "between 0 and 1"), (0.5, 0, "games")],
)
def test_bad_input_is_one_line(score: float, games: int | None, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment):
        elo_difference(score, games=games)
