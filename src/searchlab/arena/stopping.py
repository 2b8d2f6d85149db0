"""When a tournament starts no new game: a stop rule that the runner consults.

:func:`~searchlab.arena.runner.run_tournament` asks ``should_stop()`` before it starts each
game. A :class:`StopRule` answers ``True`` once its SPRT has decided (H0 or H1 accepted on the
games counted so far: those already stored, then each one as it is stored) or once its time
limit has passed. The games then running are finished and stored; running the same tournament
again resumes (and, with the same SPRT, stops at once: the stored games already decide it).

>>> from searchlab.arena.runner import run_tournament
>>> from searchlab.arena.schedule import round_robin
>>> from searchlab.arena.sprt import SPRT
>>> from searchlab.arena.store import ArenaStore
>>> specs = ["alphabeta:depth=9", "random"]
>>> jobs = round_robin("tictactoe", specs, games_per_pairing=200, seed=1)
>>> rule = StopRule.for_tournament(specs, sprt=SPRT(0, 100))
>>> with ArenaStore.open(":memory:") as store:
...     summary = run_tournament(jobs, store, on_record=rule.add, should_stop=rule.should_stop)
>>> summary.is_stopped, rule.is_decided, rule.is_timed_out, summary.played < 200
(True, True, False, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence

from searchlab.arena.schedule import agent_label, canonical_spec
from searchlab.arena.sprt import SPRT, SPRTMonitor
from searchlab.arena.worker import GameRecord
from searchlab.core.errors import InvalidParameterError

__all__ = ["StopRule"]


class StopRule:
    """Stop starting games once ``sprt`` decides or ``seconds`` have passed (either optional).

    Args:
        sprt: the SPRT of one agent against another, fed every game through :meth:`add`
            (``None``: no SPRT).
        seconds: the time limit, counted on ``clock`` from the rule's creation (``None``: no
            limit); a number of seconds > 0, else :class:`InvalidParameterError`.
        clock: seconds as a float, monotonic (:func:`time.monotonic`; tests pass their own).

    A rule with neither never stops a tournament.
    """

    def __init__(
        self,
        *,
        sprt: SPRTMonitor | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
            raise InvalidParameterError(f"--time must be a number of seconds > 0, got {seconds}")
        self.sprt = sprt
        self.seconds = seconds
        self._clock = clock
        self._deadline = None if seconds is None else clock() + seconds

    @classmethod
    def for_tournament(
        cls,
        specs: Sequence[str],
        *,
        sprt: SPRT | None = None,
        seconds: float | None = None,
        move_time: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> StopRule:
        """The rule of a tournament between the agents ``specs``: with ``sprt``, the test of the
        first agent against the second (exactly two agents, named as the arena stores them,
        ``@Ts`` with a ``move_time``; else :class:`InvalidParameterError`).

        >>> rule = StopRule.for_tournament(["mcts", "random"], sprt=SPRT(0, 30), move_time=0.5)
        >>> rule.sprt.agent, rule.sprt.opponent
        ('mcts@0.5s', 'random@0.5s')
        """
        monitor = None
        if sprt is not None:
            if len(specs) != 2:
                raise InvalidParameterError(f"--sprt needs exactly two agents, got {len(specs)}")
            agent, opponent = (agent_label(canonical_spec(spec), move_time) for spec in specs)
            monitor = SPRTMonitor(sprt, agent, opponent)
        return cls(sprt=monitor, seconds=seconds, clock=clock)

    def add(self, record: GameRecord) -> None:
        """Count a stored game (the SPRT ignores games between other agents)."""
        if self.sprt is not None:
            self.sprt.add(record)

    def add_all(self, records: Iterable[GameRecord]) -> None:
        """Count the games stored before the run (a resumed SPRT goes on from them)."""
        for record in records:
            self.add(record)

    @property
    def is_decided(self) -> bool:
        """True once the SPRT accepts H0 or H1 (never without an SPRT)."""
        return self.sprt is not None and self.sprt.is_decided

    @property
    def is_timed_out(self) -> bool:
        """True once the time limit has passed (never without one)."""
        return self._deadline is not None and self._clock() >= self._deadline

    def should_stop(self) -> bool:
        """Start no new game: the SPRT has decided or the time is up."""
        return self.is_decided or self.is_timed_out
