"""The clock of every compiled Monte Carlo search, written once: numba cannot read the clock,
so a kernel runs slices of simulations and the driver reads the clock between them.

:func:`run_in_slices` runs the first 64 simulations, then slices of about
:data:`SLICE_SECONDS` worth at the measured rate under a time limit (half the time left at
most), or of about :data:`INTERRUPT_SLICE_SECONDS` under a simulation budget alone, so that
Ctrl-C (``KeyboardInterrupt``, taken between slices) stops a long search promptly. The kernel
resumes where it was, so the result is the one of a single long call. The compiled searcher of
every game with compiled rules (``compiled.py``, Go's included) uses it.

>>> done = [0]
>>> def step(budget):  # a kernel that runs every simulation it is allowed
...     done[0] = budget
...     return None
>>> run_in_slices(step, lambda: done[0], simulations=1000, deadline=None), done[0]
('simulations', 1000)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from searchlab.core.limits import MAX_COUNT

__all__ = ["AGAIN", "INTERRUPT_SLICE_SECONDS", "NO_LIMIT", "SLICE_SECONDS", "run_in_slices"]

SLICE_SECONDS = 0.005
"""With a time limit, the clock is read about this often (and after the first 64
simulations). A kernel call costs a few microseconds, so the overhead is below 1%."""
INTERRUPT_SLICE_SECONDS = 0.1
"""Slice length under a simulation budget alone: the kernel returns to Python this often, so
that Ctrl-C stops a long search promptly."""
FIRST_SLICE = 64
NO_LIMIT = MAX_COUNT
"""No simulation or node limit: the kernels count in int64; ``Limits`` never holds more."""
AGAIN = "again"
"""What a step returns when it only made room (grew its arrays): the slice runs again."""


def run_in_slices(
    step: Callable[[int], str | None],
    done: Callable[[], int],
    *,
    simulations: int | None,
    deadline: float | None,
    after_slice: Callable[[], str | None] | None = None,
    short_slices: bool = False,
) -> str:
    """Run ``step(budget)`` (simulate until ``done() == budget``) slice after slice until
    ``simulations`` more have run (``"simulations"``), the clock passes ``deadline`` after at
    least one simulation (``"time"``), or ``step`` (or ``after_slice``, asked after each
    slice that did not finish the budget) names another reason to stop. ``step`` returns
    ``None`` when its slice ran, :data:`AGAIN` when it only made room, or the reason;
    ``short_slices`` keeps time slices to :data:`SLICE_SECONDS` under a simulation budget too
    (a search that must check something between slices)."""
    start = done()
    target = NO_LIMIT if simulations is None else min(start + simulations, NO_LIMIT)
    slice_size = FIRST_SLICE
    while True:
        before = done()
        budget = min(target, before + slice_size)
        began = time.perf_counter()
        reason = step(budget)
        if reason == AGAIN:
            continue
        if reason is not None:
            return reason
        if done() >= target:
            return "simulations"
        if after_slice is not None:
            reason = after_slice()
            if reason is not None:
                return reason
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return "time"
        rate = (done() - before) / max(now - began, 1e-6)
        if deadline is None:  # a simulation budget: slices long enough to cost nothing
            seconds = INTERRUPT_SLICE_SECONDS
        else:
            seconds = min(SLICE_SECONDS, (deadline - now) / 2)
        if short_slices:
            seconds = min(seconds, SLICE_SECONDS)
        slice_size = max(1, int(rate * seconds))
