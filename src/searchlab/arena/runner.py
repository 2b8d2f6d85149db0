"""Run a tournament: hand the jobs not yet stored to workers, store each game as it ends.

Resuming is the default: jobs whose key the store already holds are skipped, so running the
same tournament again after a kill plays only the missing games, and never stores one twice.

Where the games run:

* ``workers=1``: in this process, one after another.
* ``workers=K > 1``: ``K`` local processes (:class:`~searchlab.core.workers.ProcessPool`);
  the parent keeps ``K`` games in flight and alone writes to the store.
* ``pool=...``: a pool of :mod:`searchlab.core.workers` that the caller made and closes, e.g.
  ``make_pool(K, ray=True)`` for the games as Ray tasks on a local Ray instance or a
  cluster (``searchlab arena --ray``); the parent keeps ``pool.size`` games in flight and
  alone writes to the store, so a stopped or killed run resumes the same way.

**Stopping.** While it runs (in the main thread), SIGINT (Ctrl-C) and SIGTERM stop the
tournament cleanly, every time (:class:`~searchlab.core.interrupts.StopSignals`): no new game
starts, games in progress are abandoned (worker processes are terminated and joined, Ray tasks
cancelled; a game played in this process is interrupted at once), every finished game is
already committed, and
:class:`TournamentInterrupted` (a ``KeyboardInterrupt``) is raised with the signal and what
was done. Running the same tournament again plays exactly the missing games.

**Failures that are not results.** An agent that cannot play at all
(:class:`~searchlab.core.errors.AgentSetupError`: an external engine that fails its handshake),
a crash in the code of a game of your own, and a game that outlasts its ``max_game_length``
(:class:`~searchlab.core.errors.EndlessGameError`) are raised by the match loop, not recorded:
the run stops with that exception (from a worker process too), the failed game is not stored,
and the games finished before are. Check the agents before a run
(:func:`searchlab.agents.match.check_ready`, as ``searchlab arena`` does) to fail before any
game.

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

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from searchlab.arena.schedule import GameJob
from searchlab.arena.store import ArenaStore
from searchlab.arena.worker import GameRecord, play_game
from searchlab.core.errors import InvalidParameterError
from searchlab.core.interrupts import SignalReceived, StopSignals, signal_name
from searchlab.core.workers import InlinePool, ProcessPool, TaskPool, WorkerError

__all__ = ["ArenaWorkerError", "TournamentInterrupted", "TournamentSummary", "run_tournament"]


class ArenaWorkerError(WorkerError):
    """A worker process (or Ray worker) died while playing a game (not by an agent's error:
    those lose the game). The games finished before are stored; running the tournament again
    resumes."""


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """What one call of :func:`run_tournament` did.

    Attributes:
        scheduled: jobs in the schedule.
        skipped: jobs already stored before this call (resumed).
        played: games played and stored by this call.
        forfeits: of those, games an agent lost by an error or an illegal move (a resignation is
            a result, not a forfeit).
        is_stopped: the run ended before every job was played (``should_stop``, or a signal).
    """

    scheduled: int
    skipped: int
    played: int
    forfeits: int
    is_stopped: bool


class TournamentInterrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped :func:`run_tournament`; raised once everything is cleaned up.

    Attributes:
        signal_number: the signal (``signal.SIGINT`` or ``signal.SIGTERM``).
        summary: what the call did before it stopped (every played game is stored).
    """

    def __init__(self, signal_number: int, summary: TournamentSummary) -> None:
        super().__init__(f"tournament stopped by {signal_name(signal_number)}")
        self.signal_number = signal_number
        self.summary = summary


def run_tournament(
    jobs: Iterable[GameJob],
    store: ArenaStore,
    *,
    workers: int = 1,
    pool: TaskPool | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> TournamentSummary:
    """Play the jobs of ``jobs`` that ``store`` does not hold; store each game when it ends.

    ``on_record(record)`` is called after each game is stored (progress bars, the SPRT);
    ``should_stop()`` is asked before each new game is started: once it answers ``True`` no
    more games start, and those already running are finished and stored. SIGINT and SIGTERM
    stop the run at once and raise :class:`TournamentInterrupted` (see the module docstring).
    ``pool`` (the caller's, left open) plays the games instead of ``workers`` local processes.
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
            forfeits += record.termination not in ("end", "resign")
        if on_record is not None:
            on_record(record)

    def summary() -> TournamentSummary:
        return TournamentSummary(
            scheduled=len(schedule),
            skipped=len(schedule) - len(pending),
            played=played,
            forfeits=forfeits,
            is_stopped=played < len(pending),
        )

    with StopSignals() as signals:
        try:
            if pool is not None and not isinstance(pool, InlinePool):
                _run_pool(pool, pending, keep, stop, signals)
            elif pool is not None or workers == 1 or len(pending) <= 1:
                _run_here(pending, keep, stop, signals)
            elif pending:
                size = min(workers, len(pending))
                with ProcessPool(size, start_method=None, name="arena") as processes:
                    _run_pool(processes, pending, keep, stop, signals)
        except SignalReceived as stopped:
            signals.received = signals.received or stopped.signal_number
        except WorkerError as error:
            if signals.received is None:  # else a Ctrl-C to the process group ended the worker
                raise ArenaWorkerError(
                    f"{error}; every finished game is stored: run the same command again to resume"
                ) from None
    if signals.received is not None:
        raise TournamentInterrupted(signals.received, summary())
    return summary()


def _run_here(
    pending: list[GameJob],
    keep: Callable[[GameRecord], None],
    stop: Callable[[], bool],
    signals: StopSignals,
) -> None:
    """One game after another in this process; a signal interrupts the game at once."""
    for job in pending:
        if signals.received is not None or stop():
            return
        with signals.raising():
            record = play_game(job)
        keep(record)  # outside ``raising``: a signal now waits until the game is committed


def _run_pool(
    pool: TaskPool,
    pending: list[GameJob],
    keep: Callable[[GameRecord], None],
    stop: Callable[[], bool],
    signals: StopSignals,
) -> None:
    """Keep the pool's workers busy with games; store each as it finishes; on a stop signal,
    keep the games that ended with it and end the others at once."""
    queue = iter(pending)
    try:
        while True:
            while pool.idle and signals.received is None and not stop():
                job = next(queue, None)
                if job is None:
                    break
                pool.submit(play_game, job)
            if not pool.busy or signals.received is not None:
                break
            for record in pool.finished(wake=signals.fileno()):
                keep(record)
        if signals.received is not None:
            for record in pool.finished(timeout=0):  # games that ended with the signal
                keep(record)
    finally:
        if pool.busy:  # a stop signal, or a failure: the games in progress are abandoned
            pool.terminate()
