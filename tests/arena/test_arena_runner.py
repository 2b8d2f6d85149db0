"""Running tournaments: resuming after a kill, worker processes, determinism."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from searchlab.arena.runner import run_tournament
from searchlab.arena.schedule import round_robin
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord

REPO_ROOT = Path(__file__).resolve().parents[2]


def comparable(record: GameRecord) -> tuple:
    """Everything but the measured seconds."""
    return (
        record.key,
        record.game,
        record.first,
        record.second,
        record.seed,
        record.opening,
        record.moves,
        record.movers,
        record.result,
        record.termination,
    )


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


def count_games(path: Path) -> int:
    """Games in the file, read while another process may be writing it."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05) as raw:
            return int(raw.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


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
    pytest.fail(f"the arena ended or stalled before storing {count} games: {process.poll()}")


@pytest.mark.parametrize(
    ("kill", "extra"), [(signal.SIGKILL, ()), (signal.SIGTERM, ("--workers", "2"))]
)
def test_a_killed_arena_resumes_with_no_game_lost_or_counted_twice(
    tmp_path: Path, kill: signal.Signals, extra: tuple[str, ...]
) -> None:
    path = tmp_path / "arena.sqlite"
    process = start_arena(path, *extra)
    wait_for_games(process, path, 3)
    process.send_signal(kill)
    _, err = process.communicate(timeout=60)
    if kill == signal.SIGTERM:
        assert process.returncode == 130 and err.strip().endswith("searchlab: interrupted")
    else:
        assert process.returncode == -signal.SIGKILL
    before = stored(path)
    assert 3 <= len(before) < 40, "the kill came too late to test resuming"

    process = start_arena(path, "--json")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    after = stored(path)
    assert len(after) == 40
    assert all(after[key] == game for key, game in before.items())
    # the resumed games are the games an uninterrupted run plays
    with ArenaStore.open(tmp_path / "whole.sqlite") as store:
        run_tournament(round_robin("tictactoe", ["alphabeta:depth=9", "random"], 40, seed=3), store)
    assert stored(tmp_path / "whole.sqlite") == after


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
