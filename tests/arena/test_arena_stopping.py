"""The tournament's stop rule: an SPRT that has decided, or a time limit that has passed."""

from __future__ import annotations

import math

import pytest

from searchlab.arena.runner import run_tournament
from searchlab.arena.schedule import round_robin
from searchlab.arena.sprt import SPRT
from searchlab.arena.stopping import StopRule
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord
from searchlab.core.errors import InvalidParameterError


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def game(first: str, second: str, result: str) -> GameRecord:
    return GameRecord("", "g", first, second, 0, (), (), (), (), result, "end")


def test_a_rule_without_sprt_or_time_never_stops() -> None:
    rule = StopRule()
    for _ in range(50):
        rule.add(game("a", "b", "1-0"))
    assert not rule.should_stop()
    assert (rule.is_decided, rule.is_timed_out) == (False, False)


def test_the_time_limit_counts_from_the_rules_creation() -> None:
    clock = FakeClock()
    rule = StopRule(seconds=5.0, clock=clock)
    assert not rule.should_stop()
    clock.now += 4.999
    assert not rule.should_stop() and not rule.is_timed_out
    clock.now += 0.001
    assert rule.should_stop() and rule.is_timed_out and not rule.is_decided


@pytest.mark.parametrize("seconds", [0.0, -1.0, math.nan, math.inf])
def test_the_time_limit_must_be_a_positive_number(seconds: float) -> None:
    with pytest.raises(InvalidParameterError, match="--time"):
        StopRule(seconds=seconds)


def test_the_sprt_stops_once_decided_and_counts_only_its_pairing() -> None:
    rule = StopRule.for_tournament(["a", "b"], sprt=SPRT(0, 200))
    assert rule.sprt is not None
    for _ in range(30):
        rule.add(game("a", "c", "0-1"))  # another pairing: ignored
    assert rule.sprt.counts == (0, 0, 0) and not rule.should_stop()
    wins = 0
    while not rule.should_stop():
        rule.add(game("b", "a", "0-1"))  # a wins with the second move
        wins += 1
        assert wins < 100, "the SPRT never decided a one-sided match"
    assert rule.is_decided and not rule.is_timed_out
    assert rule.sprt.counts == (wins, 0, 0)
    assert rule.sprt.result.decision == "H1"
    assert wins == next(n for n in range(1, 100) if SPRT(0, 200).test(n, 0, 0).decision)


def test_games_stored_before_count_towards_the_sprt() -> None:
    decided = [game("a", "b", "0-1") for _ in range(60)]  # b always wins: H0
    rule = StopRule.for_tournament(["a", "b"], sprt=SPRT(0, 50))
    rule.add_all(decided)
    assert rule.should_stop()
    assert rule.sprt is not None and rule.sprt.result.decision == "H0"


def test_the_sprt_names_the_agents_as_the_arena_stores_them() -> None:
    rule = StopRule.for_tournament([" mcts: c=0.5", "random"], sprt=SPRT(0, 30), move_time=0.25)
    assert rule.sprt is not None
    assert (rule.sprt.agent, rule.sprt.opponent) == ("mcts:c=0.5@0.25s", "random@0.25s")


@pytest.mark.parametrize("specs", [["a"], ["a", "b", "c"]])
def test_the_sprt_needs_exactly_two_agents(specs: list[str]) -> None:
    with pytest.raises(InvalidParameterError, match="exactly two agents"):
        StopRule.for_tournament(specs, sprt=SPRT(0, 10))
    assert StopRule.for_tournament(specs).sprt is None  # no SPRT: any number of agents


def test_the_runner_starts_no_game_once_the_rule_says_stop() -> None:
    """Run through :func:`run_tournament`: the clock moves one second per stored game, so a
    limit of 3.5 s lets exactly 4 games start; a rerun with no limit plays the rest."""
    clock = FakeClock()
    rule = StopRule(seconds=3.5, clock=clock)
    jobs = round_robin("nim", ["random", "greedy"], games_per_pairing=8, seed=3)

    def on_record(record: GameRecord) -> None:
        rule.add(record)
        clock.now += 1.0

    with ArenaStore.open(":memory:") as store:
        first = run_tournament(jobs, store, on_record=on_record, should_stop=rule.should_stop)
        again = run_tournament(jobs, store, should_stop=StopRule().should_stop)
        total = store.count()
    assert (first.played, first.is_stopped) == (4, True)
    assert (again.skipped, again.played, again.is_stopped) == (4, 4, False)
    assert total == 8


def test_an_sprt_rule_stops_a_real_one_sided_match() -> None:
    specs = ["alphabeta:depth=9", "random"]
    jobs = round_robin("tictactoe", specs, games_per_pairing=200, seed=4)
    rule = StopRule.for_tournament(specs, sprt=SPRT(0, 100))
    with ArenaStore.open(":memory:") as store:
        summary = run_tournament(jobs, store, on_record=rule.add, should_stop=rule.should_stop)
        records = store.records()
    assert summary.is_stopped and rule.is_decided
    assert rule.sprt is not None and rule.sprt.result.decision == "H1"
    assert sum(rule.sprt.counts) == len(records) == summary.played < 200
