"""A guard against a hang, for the tests of what must stop: never a timing (issue 29).

A test of "X stops promptly" gives X a budget it could never use up within the test (an
hour, 10**12 simulations) and asserts what the stop left behind; this guard only turns a
broken stop (X running on for its hour) into a failure instead of a stuck suite. Its seconds
must be far above the block's normal time (>= 30x), so a loaded machine never trips it.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

import pytest

__all__ = ["HANG_SECONDS", "hang_guard"]

HANG_SECONDS = 120.0  # the default guard: each block using it normally ends within 4 s


class _Hung(BaseException):
    """Raised in the main thread by the alarm (a BaseException: no ``except Exception`` in
    the code under test swallows it)."""


def _alarm(number: int, frame: FrameType | None) -> None:
    raise _Hung


@contextlib.contextmanager
def hang_guard(what: str, seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Fail the test with "WHAT did not stop within SECONDS s (hung)" if the block is still
    running after ``seconds`` (SIGALRM: main thread only; a compiled kernel is interrupted
    when it returns to Python). Nothing is asserted on how long the block took otherwise."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Hung:
        pytest.fail(f"{what} did not stop within {seconds:g} s (hung)")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
