"""The arena on Ray: a tournament's games as Ray tasks on a local Ray instance store the same
games and standings as local worker processes, resume after a stop, and an address where no
cluster answers is one line. Ray is the ``ray`` extra (in the ``test`` extra): these tests fail
in CI without it."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arena_records import comparable, count_games
from cli_support import assert_one_line_error, run_main
from needs import require_module

from searchlab.arena.runner import run_tournament
from searchlab.arena.schedule import round_robin
from searchlab.arena.standings import standings
from searchlab.arena.store import ArenaStore
from searchlab.core.workers import RayPool, WorkerError, make_pool

REPO_ROOT = Path(__file__).resolve().parents[2]
JOBS = round_robin("nim", ["random", "greedy", "alphabeta:depth=3"], 4, seed=11, openings=1)


def table(store: ArenaStore) -> list[tuple]:
    """The standings, but the measured seconds per move."""
    return [
        (row.agent, row.games, row.wins, row.draws, row.losses, row.score, row.elo, row.moves)
        for row in standings(store.records())
    ]


def games(store: ArenaStore) -> dict[str, tuple]:
    records = store.records()
    assert len({record.key for record in records}) == len(records), "a game stored twice"
    return {record.key: comparable(record) for record in records}


def test_ray_tasks_store_the_games_of_local_processes_and_resume(tmp_path: Path) -> None:
    require_module("ray", "ray")
    with ArenaStore.open(tmp_path / "local.sqlite") as store:
        run_tournament(JOBS, store, workers=2)
        local, local_table = games(store), table(store)
    pool = make_pool(2, ray=True)
    assert isinstance(pool, RayPool)
    try:
        with ArenaStore.open(tmp_path / "ray.sqlite") as store:
            first = run_tournament(JOBS, store, pool=pool, should_stop=lambda: store.count() >= 5)
            assert first.is_stopped and 5 <= first.played < len(JOBS)
            part = games(store)
            second = run_tournament(JOBS, store, pool=pool)
            assert (second.skipped, second.played) == (first.played, len(JOBS) - first.played)
            on_ray, ray_table = games(store), table(store)
        with pytest.raises(ValueError, match="invalid literal"):  # a task's own error
            list(pool.run(["7", "x"], int))
        with pytest.raises(WorkerError, match=r"^a Ray worker failed while running a int task"):
            list(pool.run([3], os._exit))  # the task's process dies
        assert sorted(pool.run(["2", "1"], int)) == [1, 2]  # and the pool works on
    finally:
        pool.close()
    assert all(on_ray[key] == game for key, game in part.items())  # none changed on resuming
    assert on_ray == local
    assert ray_table == local_table
    assert multiprocessing.active_children() == []


def test_searchlab_arena_ray_gives_the_standings_of_local_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_module("ray", "ray")
    argv = ["arena", "nim", "random", "greedy", "--games", "6", "--workers", "2", "--json"]
    code, out, err = run_main(capsys, *argv, "--db", tmp_path / "local.sqlite")
    assert code == 0, err
    code, on_ray, err = run_main(capsys, *argv, "--ray", "--db", tmp_path / "ray.sqlite")
    assert code == 0, err
    assert json.loads(on_ray) == json.loads(out)
    with (
        ArenaStore.open(tmp_path / "local.sqlite") as a,
        ArenaStore.open(tmp_path / "ray.sqlite") as b,
    ):
        assert games(a) == games(b) and len(games(a)) == 6
    import ray

    assert not ray.is_initialized()  # the command shut down the instance it started


def test_a_ray_address_where_nothing_answers_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_module("ray", "ray")
    db = tmp_path / "t.sqlite"
    argv = ["arena", "nim", "random", "greedy", "--games", "2", "--ray", "127.0.0.1:1"]
    code, _, err = run_main(capsys, *argv, "--db", db)
    assert_one_line_error(code, err, "--ray 127.0.0.1:1: no Ray cluster answers there")
    with ArenaStore.open(db) as store:
        assert store.count() == 0


def session_processes(session: int) -> list[str]:
    """The processes left in ``session`` (``ps``: pid and command)."""
    table = subprocess.run(["ps", "-eo", "sid=,pid=,args="], capture_output=True, text=True)
    return [line for line in table.stdout.splitlines() if line.split()[0] == str(session)]


def test_ctrl_c_stops_an_arena_on_ray_cleanly_and_it_resumes(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C (Ray's own processes get it
    too): exit 130, the one line, no process left behind; the same games resume locally."""
    require_module("ray", "ray")
    path = tmp_path / "arena.sqlite"
    argv = ["arena", "tictactoe", "alphabeta:depth=9", "random", "--games", "40", "--seed", "3"]
    process = subprocess.Popen(
        [sys.executable, "-m", "searchlab", *argv, "--db", str(path), "--workers", "2", "--ray"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")},
        start_new_session=True,
    )
    deadline = time.monotonic() + 240  # Ray's start takes a while on a busy machine
    while count_games(path) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()[1]
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    ours = [line for line in err.splitlines() if line.startswith("searchlab")]
    with ArenaStore.open(path) as store:
        before = games(store)
    assert ours == [
        f"searchlab: interrupted (SIGINT): {len(before)} of 40 games stored in {path}; run the "
        "same command again to resume"
    ], err
    assert 3 <= len(before) < 40, "the stop came too late to test resuming"
    deadline = time.monotonic() + 30
    while session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert session_processes(process.pid) == []
    jobs = round_robin("tictactoe", ["alphabeta:depth=9", "random"], 40, seed=3)
    with ArenaStore.open(path) as store:
        again = run_tournament(jobs, store, workers=2)
        after = games(store)
    assert (again.skipped, again.played) == (len(before), 40 - len(before))
    assert all(after[key] == game for key, game in before.items())
    with ArenaStore.open(tmp_path / "whole.sqlite") as store:
        run_tournament(jobs, store)
        assert games(store) == after
