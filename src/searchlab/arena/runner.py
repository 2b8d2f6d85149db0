"""Run a tournament: hand the jobs not yet stored to workers, store each game as it ends.

Resuming is the default: jobs whose key the store already holds are skipped, so running the
same tournament again after a kill plays only the missing games, and never stores one twice.

Where the games run:

* ``workers=1``: in this process, one after another.
* ``workers=K > 1``: ``K`` local processes (``concurrent.futures.ProcessPoolExecutor``); the
  parent keeps ``K`` games in flight and alone writes to the store.
* ``executor=...``: any ``concurrent.futures.Executor`` whose ``submit(play_game, job)``
  returns a future, e.g. a few lines around Ray (``ray.remote(play_game).remote(job)
  .future()``) to spread the games over a cluster; :func:`play_game` and the jobs are plain
  picklable values, so nothing else changes.

Agent kinds registered at run time (``register_agent``) reach local worker processes started
by ``fork`` (the default on Linux with Python < 3.14); elsewhere register them when a module
the workers import is imported.

>>> from searchlab.arena.schedule import round_robin
>>> from searchlab.arena.store import ArenaStore
>>> jobs = round_robin("nim", ["random", "greedy"], games_per_pairing=6, seed=2)
>>> with ArenaStore.open(":memory:") as store:
...     first = run_tournament(jobs, store, should_stop=lambda: store.count() >= 4)
...     again = run_tournament(jobs, store)
...     total = store.count()
>>> (first.played, first.is_stopped), (again.skipped, again.played), total
((4, True), (4, 2), 6)
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from searchlab.arena.schedule import GameJob
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord, play_game
from searchlab.core.errors import InvalidParameterError

__all__ = ["TournamentSummary", "run_tournament"]


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """What one call of :func:`run_tournament` did.

    Attributes:
        scheduled: jobs in the schedule.
        skipped: jobs already stored before this call (resumed).
        played: games played and stored by this call.
        forfeits: of those, games an agent lost by an error or an illegal move.
        is_stopped: ``should_stop`` ended the run before every job was played.
    """

    scheduled: int
    skipped: int
    played: int
    forfeits: int
    is_stopped: bool


def _worker_signals() -> None:  # pragma: no cover - runs in the worker processes
    """Worker initialiser: Ctrl-C is the parent's to handle (it stops the pool), and
    SIGTERM ends a worker quietly whatever handler the parent had installed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_tournament(
    jobs: Iterable[GameJob],
    store: ArenaStore,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> TournamentSummary:
    """Play the jobs of ``jobs`` that ``store`` does not hold; store each game when it ends.

    ``on_record(record)`` is called after each game is stored (progress bars, the SPRT);
    ``should_stop()`` is asked before each new game is started: once it answers ``True`` no
    more games start, and those already running are finished and stored.
    """
    if workers < 1:
        raise InvalidParameterError(f"workers must be >= 1, got {workers}")
    schedule = list(jobs)
    stored = store.keys()
    pending = [job for job in schedule if job.key not in stored]
    stop = should_stop or (lambda: False)
    played = forfeits = 0

    def keep(record: GameRecord) -> None:
        nonlocal played, forfeits
        if store.add(record):
            played += 1
            forfeits += record.termination != "end"
        if on_record is not None:
            on_record(record)

    if executor is None and workers == 1:
        remaining = iter(pending)
        for job in remaining:
            if stop():
                break
            keep(play_game(job))
    else:
        owned = executor is None
        pool = executor or ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)
        try:
            _run_pool(pool, pending, workers, keep, stop)
        except BaseException:
            _abandon(pool, owned)
            raise
        if owned:
            pool.shutdown()
    return TournamentSummary(
        scheduled=len(schedule),
        skipped=len(schedule) - len(pending),
        played=played,
        forfeits=forfeits,
        is_stopped=played < len(pending),
    )


def _run_pool(
    pool: Executor,
    pending: list[GameJob],
    capacity: int,
    keep: Callable[[GameRecord], None],
    stop: Callable[[], bool],
) -> None:
    """Keep ``capacity`` games in flight; store each as it finishes."""
    queue = iter(pending)
    in_flight: dict[Future[GameRecord], GameJob] = {}

    def fill() -> None:
        while len(in_flight) < capacity and not stop():
            job = next(queue, None)
            if job is None:
                return
            in_flight[pool.submit(play_game, job)] = job

    fill()
    while in_flight:
        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        for future in done:
            del in_flight[future]
            keep(future.result())
        fill()


def _abandon(pool: Executor, owned: bool) -> None:
    """Stop a pool after an error or Ctrl-C: cancel queued games, end our worker processes
    (their games in progress are lost; every finished one is already stored)."""
    processes = list((getattr(pool, "_processes", None) or {}).values()) if owned else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
