"""Core types: Limits validation, PathResult, the error hierarchy, the trace recorder."""

from __future__ import annotations

import pytest

from searchlab.core import (
    Expand,
    Generate,
    InvalidParameterError,
    Limits,
    MapFormatError,
    NoPathError,
    PathResult,
    Reopen,
    SearchlabError,
    TraceRecorder,
    UnknownNameError,
)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"time": 0}, "Limits.time must be > 0 seconds, got 0"),
        ({"time": -1.5}, "Limits.time must be > 0 seconds, got -1.5"),
        ({"expansions": 0}, "Limits.expansions must be > 0, got 0"),
        ({"expansions": 2.5}, "Limits.expansions must be a whole number, got 2.5"),
        ({"depth": True}, "Limits.depth must be a number, got True"),
        ({"nodes": "10"}, "Limits.nodes must be a number, got '10'"),
    ],
)
def test_limits_reject_impossible_values(kwargs: dict, fragment: str) -> None:
    with pytest.raises(InvalidParameterError) as info:
        Limits(**kwargs)
    assert str(info.value) == fragment


def test_limits_accept_and_repr_only_set_fields() -> None:
    limits = Limits(expansions=5, simulations=100)
    assert (limits.expansions, limits.simulations, limits.time) == (5, 100, None)
    assert repr(limits) == "Limits(expansions=5, simulations=100)"
    assert repr(Limits()) == "Limits()"


def test_path_result_properties() -> None:
    solved = PathResult(status="solved", path=["a", "b", "c"], cost=2.0, expanded=4, elapsed=2.0)
    assert solved.is_solved and solved.length == 2 and solved.expansions_per_second == 2.0
    assert solved.raise_for_status() is solved
    failed = PathResult(status="no_path", expanded=7, algorithm="dijkstra")
    assert not failed.is_solved and failed.length is None and failed.expansions_per_second == 0
    with pytest.raises(NoPathError, match=r"dijkstra: no path exists .* after 7 expansions"):
        failed.raise_for_status()
    with pytest.raises(SearchlabError, match="stopped by its limits"):
        PathResult(status="limit", algorithm="astar").raise_for_status()


def test_error_hierarchy_subclasses_builtins() -> None:
    assert issubclass(MapFormatError, ValueError) and issubclass(MapFormatError, SearchlabError)
    assert issubclass(UnknownNameError, LookupError)
    assert issubclass(InvalidParameterError, ValueError)
    assert not issubclass(NoPathError, ValueError)


def test_trace_recorder_counts_events() -> None:
    recorder = TraceRecorder()
    recorder(Expand(state=1, g=0.0, h=2.0))
    recorder(Generate(state=2, parent=1, g=1.0, h=1.0))
    recorder(Generate(state=3, parent=1, g=1.0, h=1.0))
    recorder(Reopen(state=2, old_g=1.0, new_g=0.5))
    assert recorder.counts() == {"expand": 1, "generate": 2, "reopen": 1}
    assert recorder.states("generate") == [2, 3]


def test_play_turns_a_custom_games_plain_exception_into_an_illegal_move() -> None:
    """A user's game rejecting a move with ``int("x")`` gets an IllegalMoveError, not a crash."""
    from searchlab.core.errors import IllegalMoveError
    from searchlab.core.game import play

    class Countdown:
        def __init__(self, n: int) -> None:
            self.n = n

        def is_terminal(self) -> bool:
            return self.n == 0

        def string_to_action(self, text: str) -> int:
            return int(text)  # ValueError on "x"

        def apply(self, action: int) -> Countdown:
            return Countdown(self.n - {1: 1, 2: 2}[action])  # KeyError on 3

    assert play(Countdown(3), "1 2").n == 0  # type: ignore[arg-type]
    for moves, kind in (("1 x", "ValueError"), ("3", "KeyError")):
        with pytest.raises(IllegalMoveError, match=kind):
            play(Countdown(3), moves)  # type: ignore[arg-type]
