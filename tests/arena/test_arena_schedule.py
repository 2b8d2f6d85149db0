"""The round-robin schedule and one game played by the worker."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from searchlab.agents import AGENT_KINDS, AgentBase, register_agent
from searchlab.arena.repeats import Repetition, repetitions
from searchlab.arena.schedule import DEFAULT_OPENING_PLIES, round_robin
from searchlab.arena.worker import play_game
from searchlab.core.errors import InvalidParameterError
from searchlab.games import make

SPECS = ["random", "greedy", "alphabeta:depth=2", "random:seed=5"]


@pytest.mark.parametrize("games", [1, 4, 5])
def test_every_pair_plays_n_games_with_colours_alternating(games: int) -> None:
    jobs = round_robin("tictactoe", SPECS, games, seed=3)
    assert len(jobs) == games * len(list(combinations(SPECS, 2)))
    by_pair = Counter(frozenset((job.first, job.second)) for job in jobs)
    assert set(by_pair) == {frozenset(pair) for pair in combinations(SPECS, 2)}
    assert set(by_pair.values()) == {games}
    as_first = Counter((job.first, job.second) for job in jobs)
    for a, b in combinations(SPECS, 2):
        assert as_first[(a, b)] + as_first[(b, a)] == games
        assert abs(as_first[(a, b)] - as_first[(b, a)]) == games % 2
    for job in jobs:
        assert job.first != job.second
    assert len({job.key for job in jobs}) == len(jobs)
    assert len({job.seed for job in jobs}) == len(jobs)


def test_games_are_listed_round_by_round() -> None:
    jobs = round_robin("tictactoe", SPECS, 3)
    assert [job.index for job in jobs] == sorted(job.index for job in jobs)


def test_same_seed_same_jobs_other_seed_other_seeds() -> None:
    assert round_robin("nim", SPECS, 2, seed=1) == round_robin("nim", SPECS, 2, seed=1)
    seeds_1 = {job.seed for job in round_robin("nim", SPECS, 2, seed=1)}
    seeds_2 = {job.seed for job in round_robin("nim", SPECS, 2, seed=2)}
    assert not seeds_1 & seeds_2


def test_keys_do_not_depend_on_the_order_of_the_specs_or_extra_agents() -> None:
    """Resuming with the agents in another order, or with one more agent, finds the games."""
    two = {job.key: job for job in round_robin("tictactoe", ["random", "greedy"], 4, seed=1)}
    three = round_robin("tictactoe", ["alphabeta:depth=2", "greedy", "random"], 4, seed=1)
    shared = [job for job in three if job.key in two]
    assert len(shared) == 4
    for job in shared:
        assert (job.first, job.second, job.seed) == (
            two[job.key].first,
            two[job.key].second,
            two[job.key].seed,
        )


def test_openings_are_shared_by_colour_swapped_games_and_leave_the_game_open() -> None:
    jobs = round_robin("tictactoe", SPECS[:3], 6, seed=9, openings=3)
    by_round: dict[int, set[tuple[int, ...]]] = {}
    for job in jobs:
        by_round.setdefault(job.index // 2, set()).add(job.opening)
        state = make("tictactoe").initial_state()
        for action in job.opening:
            state = state.apply(action)  # legal, or IllegalMoveError
        assert len(job.opening) == 3 and not state.is_terminal()
    assert all(len(openings) == 1 for openings in by_round.values())
    assert len({next(iter(openings)) for openings in by_round.values()}) > 1


def test_an_opening_that_always_ends_the_game_is_refused() -> None:
    with pytest.raises(InvalidParameterError, match="openings=9"):
        round_robin("tictactoe", ["random", "greedy"], 2, openings=9)


@pytest.mark.parametrize(
    ("specs", "fragment"),
    [(["random"], "at least two"), (["random", " random"], "given twice")],
)
def test_bad_agent_lists(specs: list[str], fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment):
        round_robin("nim", specs, 2)


def test_a_played_game_replays_to_its_result() -> None:
    jobs = round_robin("tictactoe", ["alphabeta:depth=3", "random"], 4, seed=4, openings=1)
    for job in jobs:
        record = play_game(job)
        again = play_game(job)  # deterministic agents, same seed: the same game
        assert replace(record, move_times=()) == replace(again, move_times=())
        state = make("tictactoe").initial_state()
        for move in record.opening:
            state = state.apply(state.string_to_action(move))
        for move, mover in zip(record.moves, record.movers, strict=True):
            assert state.current_player() == mover
            state = state.apply(state.string_to_action(move))
        assert state.is_terminal() and record.termination == "end"
        first, second = state.returns()
        expected = "1-0" if first > second else "0-1" if first < second else "1/2-1/2"
        assert record.result == expected
        assert (record.first, record.second) == (job.first, job.second)
        assert len(record.move_times) == len(record.moves)
        assert all(seconds >= 0 for seconds in record.move_times)


class _Crash(AgentBase):
    def act(self, state, limits=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("out of ideas")


class _Cheat(AgentBase):
    def act(self, state, limits=None):  # type: ignore[no-untyped-def]
        return 99


@pytest.mark.parametrize(
    ("kind", "agent", "termination", "fragment"),
    [("crash", _Crash, "error", "out of ideas"), ("cheat", _Cheat, "illegal move", "99")],
)
def test_an_agent_that_fails_loses_its_game(
    kind: str, agent: type, termination: str, fragment: str
) -> None:
    register_agent(kind, lambda game, *, name, seed: agent(name))
    try:
        for job in round_robin("tictactoe", [kind, "random"], 2):
            record = play_game(job)
            assert record.termination == termination
            assert fragment in (record.error or "")
            loser_moved_first = record.first == kind
            assert record.result == ("0-1" if loser_moved_first else "1-0")
    finally:
        del AGENT_KINDS[kind]


DETERMINISTIC = ["alphabeta:depth=2", "alphabeta:depth=3"]


def games_played(jobs: list) -> list[tuple]:
    return [(record.first, record.opening, record.moves) for record in map(play_game, jobs)]


def test_deterministic_agents_play_different_games_by_default() -> None:
    jobs = round_robin("connect4", DETERMINISTIC, 6, seed=4)
    assert {len(job.opening) for job in jobs} == {DEFAULT_OPENING_PLIES}
    assert all(f"openings={DEFAULT_OPENING_PLIES}|" in job.key for job in jobs)
    by_pair = {}
    for job in jobs:  # games 2j and 2j + 1 swap colours and share their opening
        by_pair.setdefault(job.index // 2, []).append(job)
    assert all(len({job.opening for job in pair}) == 1 for pair in by_pair.values())
    assert all(pair[0].first == pair[1].second for pair in by_pair.values())
    assert len({pair[0].opening for pair in by_pair.values()}) == 3  # each pair its own
    games = games_played(jobs)
    assert len(set(games)) == 6  # every game a different one
    assert games_played(round_robin("connect4", DETERMINISTIC, 6, seed=4)) == games  # same seed
    assert games_played(round_robin("connect4", DETERMINISTIC, 6, seed=5)) != games


def test_without_openings_deterministic_agents_repeat_two_games() -> None:
    """What the default prevents, and what the warning reports."""
    jobs = round_robin("connect4", DETERMINISTIC, 6, seed=4, openings=0)
    records = [play_game(job) for job in jobs]
    assert len({(record.first, record.moves) for record in records}) == 2
    assert repetitions(records) == [Repetition(*sorted(DETERMINISTIC), games=6, distinct=2)]
    assert repetitions([play_game(job) for job in round_robin("connect4", DETERMINISTIC, 6)]) == []


def test_the_default_opening_is_shorter_when_the_game_would_end() -> None:
    one = round_robin("nim", ["random", "greedy"], 4, game_params={"piles": (1, 1)})
    assert {job.opening for job in one} == {(0,), (1,)}  # one ply, the two pairs distinct
    assert "openings=1|" in one[0].key
    none = round_robin("nim", ["random", "greedy"], 4, game_params={"piles": (1,)})
    assert {job.opening for job in none} == {()} and "openings=0|" in none[0].key
    with pytest.raises(InvalidParameterError, match="openings=2"):  # asked for: refused
        round_robin("nim", ["random", "greedy"], 4, game_params={"piles": (1, 1)}, openings=2)


def test_seeded_random_agents_are_not_reported_as_repeating() -> None:
    records = [play_game(job) for job in round_robin("tictactoe", ["random", "greedy"], 8)]
    assert repetitions(records) == []
