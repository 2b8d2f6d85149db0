"""The worker processes: signals (SIGINT ignored, SIGTERM ends them), results, clean ends."""

from __future__ import annotations

import os
import signal
import time

import pytest

from searchlab.arena.pool import WorkerPool
from searchlab.arena.schedule import round_robin
from searchlab.arena.worker import play_game
from searchlab.core.errors import InvalidParameterError

JOBS = round_robin("tictactoe", ["random", "greedy", "alphabeta:depth=2"], 2, seed=3)


def play_all(pool: WorkerPool, jobs: list) -> list:
    records, queue = [], list(jobs)
    while queue or pool.busy:
        while queue and pool.idle:
            pool.submit(queue.pop(0))
        records.extend(pool.finished())
    return records


def test_workers_play_the_games_the_parent_would() -> None:
    with WorkerPool(2) as pool:
        records = play_all(pool, JOBS)
    by_key = {record.key: record for record in records}
    assert len(by_key) == len(records) == len(JOBS)
    for job in JOBS:
        here, there = play_game(job), by_key[job.key]
        assert (here.moves, here.result, here.opening) == (there.moves, there.result, there.opening)


def test_workers_ignore_sigint_and_end_quietly_on_sigterm(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with WorkerPool(2) as pool:
        pids = [worker.process.pid for worker in pool._workers]
        processes = [worker.process for worker in pool._workers]
        for pid in pids:  # Ctrl-C reaches the whole process group: the parent decides
            os.kill(pid, signal.SIGINT)
        time.sleep(0.2)
        assert all(process.is_alive() for process in processes)
        assert len(play_all(pool, JOBS)) == len(JOBS)  # and they still play
        pool.terminate()
        assert [process.exitcode for process in processes] == [-signal.SIGTERM] * 2
    assert capfd.readouterr().err == ""  # no traceback from any worker


def test_a_game_in_progress_is_abandoned_at_once() -> None:
    slow = round_robin("connect4", ["mcts:time=30", "alphabeta:time=30"], 2)
    with WorkerPool(2) as pool:
        for job in slow:
            pool.submit(job)
        assert list(pool.finished(timeout=0.5)) == []  # still playing
        start = time.monotonic()
        pool.terminate()
        assert time.monotonic() - start < 5
        assert pool.busy == 0


def test_the_wake_descriptor_ends_the_wait() -> None:
    read, write = os.pipe()
    try:
        with WorkerPool(1) as pool:
            pool.submit(round_robin("connect4", ["mcts:time=30", "random"], 1)[0])
            os.write(write, b"\0")
            start = time.monotonic()
            assert list(pool.finished(wake=read)) == []
            assert time.monotonic() - start < 5
    finally:
        os.close(read)
        os.close(write)


def test_size_must_be_positive() -> None:
    with pytest.raises(InvalidParameterError, match="workers must be >= 1"):
        WorkerPool(0)
