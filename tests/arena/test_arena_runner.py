"""Running tournaments: resuming after a kill, worker processes, determinism."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from arena_records import comparable, count_games

from searchlab.arena.runner import ArenaWorkerError, TournamentInterrupted, run_tournament
from searchlab.arena.schedule import round_robin
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord

REPO_ROOT = Path(__file__).resolve().parents[2]


def stored(path: Path) -> dict[str, tuple]:
    with ArenaStore.open(path) as store:
        records = store.records()
    keys = Counter(record.key for record in records)
    assert max(keys.values(), default=1) == 1, "a game stored twice"
    return {record.key: comparable(record) for record in records}


JOBS = round_robin("tictactoe", ["random", "greedy", "alphabeta:depth=2"], 6, seed=5, openings=1)


def test_a_stopped_tournament_resumes_without_losing_or_repeating_games(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite"
    with ArenaStore.open(path) as store:
        first = run_tournament(JOBS, store, should_stop=lambda: store.count() >= 7)
    assert (first.played, first.is_stopped) == (7, True)
    part = stored(path)
    with ArenaStore.open(path) as store:
        second = run_tournament(JOBS, store)
    assert (second.skipped, second.played, second.is_stopped) == (7, len(JOBS) - 7, False)
    whole = stored(path)
    assert set(whole) == {job.key for job in JOBS}
    assert all(whole[key] == game for key, game in part.items())
    with ArenaStore.open(path) as store:
        third = run_tournament(JOBS, store)
    assert (third.skipped, third.played) == (len(JOBS), 0)
    assert stored(path) == whole


def test_the_same_seed_stores_the_same_games(tmp_path: Path) -> None:
    for name in ("a.sqlite", "b.sqlite"):
        with ArenaStore.open(tmp_path / name) as store:
            run_tournament(JOBS, store)
    assert stored(tmp_path / "a.sqlite") == stored(tmp_path / "b.sqlite")
    other = round_robin("tictactoe", ["random", "greedy", "alphabeta:depth=2"], 6, seed=6)
    with ArenaStore.open(tmp_path / "c.sqlite") as store:
        run_tournament(other, store)
    moves_5 = [game[6] for game in stored(tmp_path / "a.sqlite").values()]
    moves_6 = [game[6] for game in stored(tmp_path / "c.sqlite").values()]
    assert moves_5 != moves_6


def test_two_workers_store_the_same_games_as_one(tmp_path: Path) -> None:
    with ArenaStore.open(tmp_path / "one.sqlite") as store:
        one = run_tournament(JOBS, store, workers=1)
    with ArenaStore.open(tmp_path / "two.sqlite") as store:
        two = run_tournament(JOBS, store, workers=2)
    assert one.played == two.played == len(JOBS)
    assert stored(tmp_path / "one.sqlite") == stored(tmp_path / "two.sqlite")


def test_workers_stop_when_asked(tmp_path: Path) -> None:
    with ArenaStore.open(tmp_path / "two.sqlite") as store:
        summary = run_tournament(JOBS, store, workers=2, should_stop=lambda: store.count() >= 5)
        count = store.count()
    # the games already running when the rule fired are finished and stored, no new ones
    assert summary.is_stopped and 5 <= count <= 6 and summary.played == count


ARENA = ["arena", "tictactoe", "alphabeta:depth=9", "random", "--games", "40", "--seed", "3"]


def start_arena(path: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    return subprocess.Popen(
        [sys.executable, "-m", "searchlab", *ARENA, "--db", str(path), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for_games(process: subprocess.Popen[str], path: Path, count: int) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if (found := count_games(path)) >= count:
            return found
        time.sleep(0.05)
    if process.poll() is not None:
        pytest.fail(f"the arena ended before storing {count} games: {process.communicate()[1]}")
    pytest.fail(f"the arena stalled before storing {count} games")


def assert_clean_stop(err: str, kill: signal.Signals, stored_games: int) -> None:
    """One line naming the signal and the games stored; no traceback, nothing 'ignored'."""
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err.count("\n") == 1, err
    assert err.startswith(f"searchlab: interrupted ({kill.name}): {stored_games} of 40 games"), err


@pytest.mark.parametrize(
    ("kill", "extra"),
    [
        pytest.param(signal.SIGKILL, (), id="sigkill-1-worker"),
        pytest.param(signal.SIGTERM, ("--workers", "2"), id="sigterm-2-workers"),
        pytest.param(signal.SIGTERM, (), id="sigterm-1-worker"),
        pytest.param(signal.SIGINT, ("--workers", "2"), id="sigint-2-workers"),
        pytest.param(signal.SIGINT, (), id="sigint-1-worker"),
    ],
)
def test_a_killed_arena_resumes_with_no_game_lost_or_counted_twice(
    tmp_path: Path, kill: signal.Signals, extra: tuple[str, ...]
) -> None:
    path = tmp_path / "arena.sqlite"
    process = start_arena(path, *extra)
    # the arena (and the workers it starts) yields the CPU to this test's polling, so that on
    # a busy machine the kill still comes before its 40 short games are all played (with -n 2
    # under load, once all 40 were stored by the time the poll had seen 3)
    os.setpriority(os.PRIO_PROCESS, process.pid, 10)
    wait_for_games(process, path, 3)
    process.send_signal(kill)
    _, err = process.communicate(timeout=60)
    before = stored(path)
    if kill == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:  # 128 + the signal, as a shell reports it: 130 for SIGINT, 143 for SIGTERM
        assert process.returncode == 128 + kill, err
        assert_clean_stop(err, kill, len(before))
    assert 3 <= len(before) < 40, "the kill came too late to test resuming"

    process = start_arena(path, "--json")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    after = stored(path)
    assert len(after) == 40
    assert all(after[key] == game for key, game in before.items())
    # the resumed games are the games an uninterrupted run plays
    with ArenaStore.open(tmp_path / "whole.sqlite") as store:
        run_tournament(round_robin("tictactoe", ["alphabeta:depth=9", "random"], 40, seed=3), store)
    assert stored(tmp_path / "whole.sqlite") == after


@pytest.mark.parametrize(
    ("kill", "workers"),
    [
        pytest.param(signal.SIGINT, "1", id="sigint-1-worker"),
        pytest.param(signal.SIGINT, "2", id="sigint-2-workers"),
        pytest.param(signal.SIGTERM, "1", id="sigterm-1-worker"),
    ],
)
def test_a_signal_stops_a_move_in_progress_promptly(
    tmp_path: Path, kill: signal.Signals, workers: str
) -> None:
    """Every move takes an hour; the signal comes in the middle of the first one. No timing:
    the 120 s wait is a hang guard (the arena stops in a second or two), and what the stop
    left behind is asserted."""
    path = tmp_path / "slow.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    argv = ["arena", "connect4", "mcts:time=3600", "alphabeta:time=3600", "--games", "2"]
    process = subprocess.Popen(
        [sys.executable, "-m", "searchlab", *argv, "--db", str(path), "--workers", workers],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while not path.exists() and process.poll() is None:  # the games are starting
        assert time.monotonic() < deadline, "the arena did not start within 60 s"
        time.sleep(0.02)
    time.sleep(1.5)
    if process.poll() is not None:
        pytest.fail(f"the arena ended before the signal: {process.communicate()[1]}")
    process.send_signal(kill)
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"{kill.name} did not stop the arena within 120 s (hung)")
    assert (process.returncode, out) == (128 + kill, ""), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err == (
        f"searchlab: interrupted ({kill.name}): 0 of 2 games stored in {path}; "
        "run the same command again to resume\n"
    )
    with ArenaStore.open(path) as store:  # a valid arena file (checked on opening), empty
        assert store.count() == 0


def signal_after(
    games: int, store: ArenaStore, number: signal.Signals
) -> Callable[[GameRecord], None]:
    """An ``on_record`` that sends this process ``number`` once ``games`` games are stored."""

    def on_record(record: GameRecord) -> None:
        if store.count() == games:
            os.kill(os.getpid(), number)

    return on_record


@pytest.mark.parametrize("workers", [1, 2], ids=["1-worker", "2-workers"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_signal_raises_tournament_interrupted_after_cleaning_up(
    tmp_path: Path, workers: int, number: signal.Signals
) -> None:
    path = tmp_path / "arena.sqlite"
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    with ArenaStore.open(path) as store:
        with pytest.raises(TournamentInterrupted) as info:
            run_tournament(JOBS, store, workers=workers, on_record=signal_after(3, store, number))
        count = store.count()
    assert info.value.signal_number == number
    assert isinstance(info.value, KeyboardInterrupt)  # callers' `except KeyboardInterrupt` works
    summary = info.value.summary
    assert summary.is_stopped and summary.played == count
    # in-process, the signal waits for the game being stored: no game after it starts;
    # workers: the games that had already ended may still be stored, none is started
    assert count == 3 if workers == 1 else 3 <= count <= 3 + workers
    assert multiprocessing.active_children() == []  # every worker was joined
    assert {sig: signal.getsignal(sig) for sig in previous} == previous  # handlers restored
    with ArenaStore.open(path) as store:
        again = run_tournament(JOBS, store, workers=workers)
    assert (again.skipped, again.played) == (count, len(JOBS) - count)
    assert set(stored(path)) == {job.key for job in JOBS}


def test_a_worker_that_dies_is_one_clear_error_and_the_rest_is_kept(tmp_path: Path) -> None:
    def kill_a_worker(record: GameRecord) -> None:
        if store.count() == 2:
            os.kill(multiprocessing.active_children()[0].pid, signal.SIGKILL)

    with ArenaStore.open(tmp_path / "arena.sqlite") as store:
        with pytest.raises(ArenaWorkerError, match=r"killed by SIGKILL.*run the same command"):
            run_tournament(JOBS, store, workers=2, on_record=kill_a_worker)
        assert 2 <= store.count() < len(JOBS)
    assert multiprocessing.active_children() == []


def test_a_worker_ended_by_sigterm_from_outside_stops_the_tournament(tmp_path: Path) -> None:
    """``kill -TERM`` to a worker (or to the process group) is a stop, not a crash."""

    def terminate_a_worker(record: GameRecord) -> None:
        if store.count() == 2:
            os.kill(multiprocessing.active_children()[0].pid, signal.SIGTERM)

    with (
        ArenaStore.open(tmp_path / "arena.sqlite") as store,
        pytest.raises(TournamentInterrupted) as info,
    ):
        run_tournament(JOBS, store, workers=2, on_record=terminate_a_worker)
    assert info.value.signal_number == signal.SIGTERM
    assert multiprocessing.active_children() == []


def test_seeded_monte_carlo_agents_store_the_same_games_in_worker_processes(
    tmp_path: Path,
) -> None:
    jobs = round_robin(
        "tictactoe", ["mcts:simulations=40", "flatmc:simulations=40", "random"], 2, seed=8
    )
    for name, workers in (("one.sqlite", 1), ("two.sqlite", 2)):
        with ArenaStore.open(tmp_path / name) as store:
            run_tournament(jobs, store, workers=workers)
    one = stored(tmp_path / "one.sqlite")
    assert len(one) == len(jobs) == 6
    assert one == stored(tmp_path / "two.sqlite")
