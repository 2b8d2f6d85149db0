"""The pools: worker processes' signals (SIGINT ignored, SIGTERM ends them), results in any
order, a task's exception, a dead worker as one line, prompt and clean ends."""

from __future__ import annotations

import os
import signal
import time

import pytest
from hang_guard import hang_guard

from searchlab.arena.schedule import round_robin
from searchlab.arena.worker import play_game
from searchlab.core.errors import InvalidParameterError
from searchlab.core.workers import InlinePool, ProcessPool, WorkerError, make_pool

JOBS = round_robin("tictactoe", ["random", "greedy", "alphabeta:depth=2"], 2, seed=3)


def play_all(pool: ProcessPool, jobs: list) -> list:
    records, queue = [], list(jobs)
    while queue or pool.busy:
        while queue and pool.idle:
            pool.submit(play_game, queue.pop(0))
        records.extend(pool.finished())
    return records


def test_workers_play_the_games_the_parent_would() -> None:
    with ProcessPool(2, start_method=None) as pool:
        records = play_all(pool, JOBS)
    by_key = {record.key: record for record in records}
    assert len(by_key) == len(records) == len(JOBS)
    for job in JOBS:
        here, there = play_game(job), by_key[job.key]
        assert (here.moves, here.result, here.opening) == (there.moves, there.result, there.opening)


def test_workers_ignore_sigint_and_end_quietly_on_sigterm(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with ProcessPool(2, start_method=None) as pool:
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
    slow = round_robin("connect4", ["mcts:time=3600", "alphabeta:time=3600"], 2)  # an hour
    with ProcessPool(2, start_method=None) as pool:
        for job in slow:
            pool.submit(play_game, job)
        assert list(pool.finished(timeout=0.5)) == []  # still playing
        processes = list(pool.processes)
        with hang_guard("terminating a pool in the middle of its games"):
            pool.terminate()
        assert pool.busy == 0
        assert [process.is_alive() for process in processes] == [False, False]


def test_the_wake_descriptor_ends_the_wait() -> None:
    read, write = os.pipe()
    try:
        with ProcessPool(1, start_method=None) as pool:
            job = round_robin("connect4", ["mcts:time=3600", "random"], 1)[0]  # an hour
            pool.submit(play_game, job)
            os.write(write, b"\0")
            with hang_guard("a wait with its wake descriptor written"):
                assert list(pool.finished(wake=read)) == []
            assert pool.busy == 1  # woken, not ended: the game plays on
    finally:
        os.close(read)
        os.close(write)


def test_size_must_be_positive() -> None:
    with pytest.raises(InvalidParameterError, match="workers must be >= 1"):
        ProcessPool(0)
    with pytest.raises(InvalidParameterError, match="workers must be an integer >= 1"):
        make_pool(True)


def _fails_on_three(value: int) -> int:
    if value == 3:
        raise ValueError("three")
    return value * value


def _dies_on_three(value: int) -> int:
    if value == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def _sleeps(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("start_method", ["spawn", None])
def test_run_yields_every_result_once_and_the_pool_is_reused(start_method: str | None) -> None:
    with ProcessPool(2, start_method=start_method) as pool:
        assert sorted(pool.run(range(7), abs)) == list(range(7))
        assert sorted(pool.run([-1, -2], abs)) == [1, 2]  # the same processes, a second call
        assert pool.busy == 0 and len(pool.processes) == 2


def test_a_tasks_exception_is_raised_in_the_parent_after_the_others() -> None:
    with ProcessPool(2) as pool, pytest.raises(ValueError, match="three"):
        list(pool.run([1, 2, 3, 4], _fails_on_three))
    assert multiprocessing_children() == []


def test_a_worker_that_dies_is_one_line_naming_it() -> None:
    with ProcessPool(2, name="book") as pool:
        with pytest.raises(WorkerError, match=r"^book worker process \d+ ended \(killed by "
                           r"SIGKILL\) while running a int task$"):  # fmt: skip
            list(pool.run([1, 2, 3, 4], _dies_on_three))
        assert sorted(pool.run([5, 6], abs)) == [5, 6]  # dead or not, the pool works on


def test_leaving_run_early_ends_the_tasks_in_progress_at_once() -> None:
    with ProcessPool(2) as pool:
        results = pool.run([0.0, 3600.0, 3600.0], _sleeps)  # two tasks of an hour
        assert next(results) == 0.0
        with hang_guard("leaving run with two tasks in progress"):
            results.close()
        assert pool.busy == 0
    assert multiprocessing_children() == []


def test_the_inline_pool_runs_in_order_here() -> None:
    pool = InlinePool()
    assert list(pool.run([3, -1, 2], abs)) == [3, 1, 2]
    pool.submit(abs, -4)
    assert (pool.idle, pool.busy) == (0, 1)
    assert list(pool.finished()) == [4]
    assert (pool.idle, pool.busy) == (1, 0)


def multiprocessing_children() -> list:
    import multiprocessing

    return multiprocessing.active_children()
