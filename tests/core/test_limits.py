"""Limits: every number is checked where it enters (finite, in range, fits int64)."""

from __future__ import annotations

import math

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import MAX_COUNT, Limits


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"time": math.nan}, "Limits.time must be a finite number of seconds, got nan"),
        ({"time": math.inf}, "Limits.time must be a finite number of seconds, got inf"),
        ({"time": -math.inf}, "Limits.time must be a finite number of seconds, got -inf"),
        (
            {"simulations": 10**20},
            "Limits.simulations must be at most 9223372036854775807 (a 64-bit integer), "
            "got 100000000000000000000",
        ),
        (
            {"nodes": 2**63},
            f"Limits.nodes must be at most {MAX_COUNT} (a 64-bit integer), got {2**63}",
        ),
        ({"expansions": 1e19}, "Limits.expansions must be at most"),
        ({"depth": 10**400}, "Limits.depth must be at most"),
        ({"simulations": math.nan}, "Limits.simulations must be a whole number, got nan"),
        ({"simulations": math.inf}, "Limits.simulations must be a whole number, got inf"),
        ({"depth": -3}, "Limits.depth must be > 0, got -3"),
    ],
)
def test_limits_reject_numbers_no_search_can_honour(kwargs: dict, message: str) -> None:
    with pytest.raises(InvalidParameterError) as raised:
        Limits(**kwargs)
    assert str(raised.value).startswith(message)


def test_limits_accept_the_extremes_of_their_range() -> None:
    assert Limits(simulations=MAX_COUNT).simulations == MAX_COUNT
    assert Limits(nodes=1, depth=1.0, time=1e-9).depth == 1.0
    assert Limits(time=1e300).time == 1e300
