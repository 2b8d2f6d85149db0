"""Snake Go matches: the match rule (every tie-break, on hand-built final states) and whole
matches in the arena (per-pair item seeds, both halves on the same items, stored, decided
and rated)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.arena.matches import MatchRecord, decide_records, match_as_game, match_tallies
from searchlab.arena.schedule import round_robin
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord, play_game
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import play
from searchlab.domains.games.snakego import SnakeGo, SnakeGoState
from searchlab.domains.games.snakego.match import (
    HalfResult,
    decide_halves,
    decide_match,
    half_result,
)
from searchlab.games import make

GAME = SnakeGo(items=(), size=6, rounds=4)


def final(s0: int, s1: int, first_eat: tuple[int | None, int | None]) -> SnakeGoState:
    """A finished half (no snakes left) whose players own ``s0`` and ``s1`` wall cells."""
    walls = {(i % 6, i // 6): 0 for i in range(s0)}
    walls.update({(i % 6, i // 6): 1 for i in range(s0, s0 + s1)})
    state = GAME.state_from(snakes=((), ()), walls=walls, first_eat=first_eat, ply=9)
    assert state.is_terminal() and state.scores() == (s0, s1)
    return state


# -- the rule --------------------------------------------------------------------------------
# Seat 0 moved first in the first half: player 0 there, player 1 in the second half.


def test_two_halves_won_decide_even_against_a_lower_total() -> None:
    # half 1: seat 0 wins 3-2; half 2: seat 0 (player 1) wins 2-1; totals 5 vs 3
    result = decide_match(final(3, 2, (None, 0)), final(1, 2, (0, None)))
    assert (result.winner, result.reason, result.halves_won) == (0, "halves", (2, 0))
    assert result.total_scores == (3 + 2, 2 + 1)
    # seat 1 wins both halves by one cell although seat 0 never scores less than 9
    result = decide_match(final(9, 10, (0, 1)), final(20, 9, (0, 1)))
    assert (result.winner, result.reason, result.halves_won) == (1, "halves", (0, 2))
    assert result.total_scores == (9 + 9, 10 + 20)


def test_a_tied_half_goes_to_the_player_who_moved_second_in_it() -> None:
    # half 1 tied 4-4: seat 1 (player 1) wins it; half 2 tied 4-4: seat 0 (player 1) wins it
    result = decide_match(final(4, 4, (None, None)), final(6, 6, (None, None)))
    assert result.halves_won == (1, 1)
    assert HalfResult((4, 4), (None, None)).winner == 1


def test_one_half_each_then_the_total_score() -> None:
    # half 1: seat 0 wins 7-2; half 2: seat 1 (player 0) wins 9-3; totals 7+3=10 vs 2+9=11
    result = decide_match(final(7, 2, (0, 5)), final(9, 3, (1, 2)))
    assert (result.winner, result.reason, result.halves_won) == (1, "score", (1, 1))
    assert result.total_scores == (10, 11)
    # half 1: seat 1 wins 7-2; half 2: seat 0 (player 1) wins 12-3; totals 2+12=14 vs 7+3=10
    result = decide_match(final(2, 7, (0, 5)), final(3, 12, (1, 2)))
    assert (result.winner, result.reason, result.halves_won) == (0, "score", (1, 1))
    assert result.total_scores == (14, 10)


def test_equal_totals_then_the_earlier_first_item_of_the_first_half() -> None:
    # half 1: seat 0 wins 6-3; half 2: seat 1 (player 0) wins 6-3: totals 9 and 9
    seat0_earlier = decide_match(final(6, 3, (4, 7)), final(6, 3, (0, None)))
    assert (seat0_earlier.winner, seat0_earlier.reason) == (0, "first item")
    assert seat0_earlier.halves_won == (1, 1) and seat0_earlier.total_scores == (9, 9)
    seat1_earlier = decide_match(final(6, 3, (8, 3)), final(6, 3, (None, 0)))
    assert (seat1_earlier.winner, seat1_earlier.reason) == (1, "first item")
    # never eating comes after eating at any ply, for either seat
    assert decide_match(final(6, 3, (None, 50)), final(6, 3, (0, 0))).winner == 1
    assert decide_match(final(6, 3, (50, None)), final(6, 3, (0, 0))).winner == 0
    # only the first half counts: the second half's first items change nothing
    assert decide_match(final(6, 3, (4, 7)), final(6, 3, (None, 0))).winner == 0


def test_everything_equal_goes_to_the_player_who_moved_second_in_the_first_half() -> None:
    nobody_ate = decide_match(final(6, 3, (None, None)), final(6, 3, (2, 1)))
    assert (nobody_ate.winner, nobody_ate.reason) == (1, "second mover")
    # both ate at the same ply (items under both snakes at the start of a round)
    same_ply = decide_match(final(6, 3, (4, 4)), final(6, 3, (None, None)))
    assert (same_ply.winner, same_ply.reason) == (1, "second mover")


def test_a_forfeited_half_is_lost_whatever_the_scores() -> None:
    first = HalfResult((20, 1), (0, None), forfeit=0)  # seat 0 forfeits half 1 while ahead
    second = HalfResult((1, 20), (None, 0))  # seat 0 (player 1) wins half 2
    result = decide_halves(first, second)
    assert result.halves_won == (1, 1) and result.total_scores == (40, 2)
    assert (result.winner, result.reason) == (0, "score")


def test_half_results_round_trip_through_json_and_bad_text_is_refused() -> None:
    state = final(5, 2, (3, None))
    half = half_result(state, forfeit=1)
    assert HalfResult.from_json(half.to_json()) == half == HalfResult((5, 2), (3, None), 1)
    for text in ("", "[]", '{"scores": [1], "first_eat": [0, 0]}', '{"scores": [1, -2]}'):
        with pytest.raises(InvalidParameterError, match="not a Snake Go half result"):
            HalfResult.from_json(text)


# -- the schedule ----------------------------------------------------------------------------
PARAMS = {"size": 6, "rounds": 6}


def test_each_pair_gets_its_own_item_seed_and_both_halves_share_it() -> None:
    specs = ["random", "greedy", "mcts:simulations=20"]
    jobs = round_robin("snakego", specs, 6, seed=3, game_params={**PARAMS, "seed": 40})
    pairings = {(job.pairing, job.index): job for job in jobs}
    for (pairing, index), job in pairings.items():
        assert job.game_seed == 40 + index // 2  # pair j plays seed base + j
        assert job.half == index % 2 + 1 and job.opening == ()  # no random plies by default
        if index % 2:
            first_half = pairings[(pairing, index - 1)]
            assert job.match_key == first_half.match_key
            assert (job.first, job.second) == (first_half.second, first_half.first)
    assert len({job.match_key for job in jobs}) == 3 * 3  # 3 pairings x 3 matches
    # the seeds give different item lists (on a board and length where items do appear)
    lists = {make("snakego", seed=seed, size=8, rounds=60).items for seed in (40, 41, 42)}
    assert len(lists) == 3
    # games without a seed of their own keep their openings and have no halves
    plain = round_robin("tictactoe", ["random", "greedy"], 2)[0]
    assert (plain.game_seed, plain.match_key, plain.half) == (None, None, 0)
    assert len(plain.opening) == 2


def test_the_worker_plays_the_halves_on_the_same_items() -> None:
    jobs = round_robin("snakego", ["random", "greedy"], 4, seed=1, game_params=PARAMS)
    records = [play_game(job) for job in jobs]
    for job, record in zip(jobs, records, strict=True):
        assert record.game_seed == job.game_seed and record.half == job.half
        game = make("snakego", seed=record.game_seed, **PARAMS)
        replayed = play(game.initial_state(), list(record.moves))
        assert replayed.is_terminal()
        assert HalfResult.from_json(record.final or "") == half_result(replayed)
    assert records[0].game_seed == records[1].game_seed != records[2].game_seed


# -- the store -------------------------------------------------------------------------------
def snakego_records(games: int = 4, seed: int = 1) -> list[GameRecord]:
    jobs = round_robin("snakego", ["random", "greedy"], games, seed=seed, game_params=PARAMS)
    return [play_game(job) for job in jobs]


def replayed_match(first: GameRecord, second: GameRecord) -> int:
    """The winning seat of a stored match, from the halves replayed on their items."""
    states = [
        play(make("snakego", seed=record.game_seed, **PARAMS).initial_state(), list(record.moves))
        for record in (first, second)
    ]
    return decide_match(states[0], states[1]).winner


def test_a_match_is_stored_when_its_second_half_is(tmp_path: Path) -> None:
    records = snakego_records()
    with ArenaStore.open(tmp_path / "a.sqlite") as store:
        store.add(records[0])
        assert store.matches() == []  # one half only
        store.add(records[1])
        store.add(records[3])
        assert len(store.matches()) == 1
        store.add(records[2])
        assert store.add(records[2]) is False  # stored once
    with ArenaStore.open(tmp_path / "a.sqlite") as store:
        matches = store.matches(game=records[0].game)
        assert store.records() == [records[0], records[1], records[3], records[2]]
    assert [match.key for match in matches] == [records[1].match_key, records[3].match_key]
    for match, (first, second) in zip(matches, [records[0:2], records[2:4]], strict=True):
        assert (match.first_half, match.second_half) == (first.key, second.key)
        assert match.winner == (first.first, first.second)[replayed_match(first, second)]
        assert match == decide_records(first, second)


def test_halves_of_different_matches_are_not_a_match() -> None:
    records = snakego_records()
    with pytest.raises(InvalidParameterError, match="not the two halves of one match"):
        decide_records(records[0], records[3])


def test_a_file_from_before_matches_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    tictactoe = [play_game(job) for job in round_robin("tictactoe", ["random", "greedy"], 2)]
    with ArenaStore.open(path) as store:
        for record in tictactoe:
            store.add(record)
    with sqlite3.connect(path) as raw:  # as an older searchlab wrote it: no match tables
        raw.execute("DROP TABLE halves")
        raw.execute("DROP TABLE matches")
    before = path.read_bytes()
    with ArenaStore.open(path) as store:
        assert store.records() == tictactoe and store.matches() == []
    assert path.read_bytes() == before  # reading leaves it as it was
    records = snakego_records(2)
    with ArenaStore.open(path) as store:
        for record in records:
            store.add(record)
    with ArenaStore.open(path) as store:
        assert store.records() == tictactoe + records
        assert len(store.matches()) == 1
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (1,)


def test_match_standings_count_matches_and_credit_each_move() -> None:
    records = snakego_records()
    matches = [decide_records(records[0], records[1]), decide_records(records[2], records[3])]
    game = match_as_game(matches[0], records[0:2])
    assert game.result == ("1-0" if matches[0].winner == matches[0].first else "0-1")
    moves_of_first = sum(
        record.movers.count(0 if record.first == matches[0].first else 1) for record in records[0:2]
    )
    assert game.movers.count(0) == moves_of_first
    tallies = match_tallies(matches)
    assert sum(t.matches for t in tallies.values()) == 4
    assert sum(t.halves_won for t in tallies.values()) == 4  # every half has a winner
    assert isinstance(matches[0], MatchRecord)


# -- the command -----------------------------------------------------------------------------
ARENA = ("arena", "snakego", "random", "greedy", "-p", "size=6", "-p", "rounds=6")


def test_arena_plays_whole_matches_stores_and_rates_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "m.sqlite"
    code, out, err = run_main(capsys, *ARENA, "--matches", "3", "--db", db)
    assert code == 0, err
    assert "3 matches (6 halves)" in out and "played 6 of 6 scheduled halves" in out
    assert "decided by:" in out and "±95%" in out
    with ArenaStore.open(db) as store:
        records = {record.key: record for record in store.records()}
        matches = store.matches()
    assert len(records) == 6 and len(matches) == 3
    assert len({record.game_seed for record in records.values()}) == 3
    for match in matches:
        first, second = records[match.first_half], records[match.second_half]
        assert first.game_seed == second.game_seed
        assert match.winner == (match.first, match.second)[replayed_match(first, second)]
    code, out, err = run_main(capsys, *ARENA, "--matches", "3", "--db", db, "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert sorted(row["agent"] for row in rows) == ["greedy", "random"]
    assert all(row["matches"] == 3 and row["elo_ci"] > 0 for row in rows)
    assert sum(row["wins"] for row in rows) == 3 and sum(row["halves_won"] for row in rows) == 6
    wins = {row["agent"]: row["wins"] for row in rows}
    assert wins == {
        agent: sum(match.winner == agent for match in matches) for agent in ("greedy", "random")
    }


def test_games_mode_stores_the_same_halves_and_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(capsys, *ARENA, "--games", "4", "--db", tmp_path / "g.sqlite")
    assert code == 0, err
    code, out, err = run_main(capsys, *ARENA, "--matches", "2", "--db", tmp_path / "g.sqlite")
    assert code == 0, err
    assert "played 0 of 4 scheduled halves, 4 already stored" in out
    assert "2 matches (4 halves)" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("arena", "tictactoe", "random", "greedy", "--matches", "2"), "no match rule"),
        ((*ARENA, "--matches", "2", "--sprt", "0,50"), "--sprt counts games"),
        ((*ARENA, "--matches", "2", "-p", "items=@items.txt"), "no parameter from a file"),
        ((*ARENA, "--matches", "2", "-p", "seed=-1"), "seed must be"),
    ],
)
def test_bad_match_requests_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run_main(capsys, *argv, "--db", tmp_path / "x.sqlite")
    assert_one_line_error(code, err, fragment)
    assert not (tmp_path / "x.sqlite").exists()
