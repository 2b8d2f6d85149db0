"""Stopping a tournament on SIGINT (Ctrl-C) or SIGTERM: note the signal, act on it when safe.

Python's default for SIGINT raises ``KeyboardInterrupt`` wherever the main thread happens to
be. With worker processes that is anywhere inside ``concurrent.futures`` (half-way through
acquiring the locks of ``wait()``, between forking a worker and registering it, in the
interpreter's exit hook that joins the pool's manager thread), so an interrupted tournament
sometimes printed ``Exception ignored in ... threading`` or hung, and its workers played on.

:class:`StopSignals` replaces that for the duration of a tournament: a signal is only
*recorded* (``received``) and wakes the parent's wait (``fileno()``), and the parent acts on it
at its next safe point: it starts no new game, stops its workers and commits what finished.
Only work running in the parent itself, inside :meth:`StopSignals.raising`, is interrupted at
once, by :class:`SignalReceived`, so that a game played in-process stops promptly too.

>>> import os, signal
>>> with StopSignals() as signals:
...     os.kill(os.getpid(), signal.SIGTERM)  # recorded, nothing raised
...     signals.received == signal.SIGTERM
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from searchlab.core.closing import Closing

__all__ = ["STOP_SIGNALS", "SignalReceived", "StopSignals", "exit_code", "signal_name"]

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a tournament."""


def signal_name(number: int) -> str:
    """``"SIGINT"`` for 2: the signal's name, or its number when it has none.

    >>> signal_name(2), signal_name(15)
    ('SIGINT', 'SIGTERM')
    """
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def exit_code(number: int) -> int:
    """The exit code of a command stopped by signal ``number``: 128 + the number, as a shell
    reports a process that the signal ended (130 for SIGINT, 143 for SIGTERM).

    >>> exit_code(signal.SIGINT), exit_code(signal.SIGTERM)
    (130, 143)
    """
    return 128 + int(number)


class SignalReceived(KeyboardInterrupt):
    """A stop signal arrived while work ran inside :meth:`StopSignals.raising`.

    A ``KeyboardInterrupt`` so that ``except Exception`` in an agent cannot swallow it.
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_name(signal_number))
        self.signal_number = signal_number


class StopSignals(Closing):
    """While active (``with``), SIGINT and SIGTERM are recorded instead of acted on.

    * ``received``: the first stop signal's number, or ``None``.
    * ``fileno()``: a file descriptor that becomes readable when a signal arrives, for
      ``select``-style waits (``multiprocessing.connection.wait``); ``None`` when inactive.
    * :meth:`raising`: a block in which a signal raises :class:`SignalReceived` at once.

    Outside the main thread signals cannot be handled: the object is then inactive (nothing
    is installed, ``received`` stays ``None``), and the caller keeps its own arrangements.
    The previous handlers are restored on leaving the ``with`` block.
    """

    def __init__(self, signals: tuple[signal.Signals, ...] = STOP_SIGNALS) -> None:
        self.signals = signals
        self.received: int | None = None
        self._raising = False
        self._previous: dict[signal.Signals, object] = {}
        self._wakeup: tuple[int, int] | None = None

    @property
    def is_active(self) -> bool:
        """Whether the handlers are installed (the ``with`` block runs in the main thread)."""
        return self._wakeup is not None

    def fileno(self) -> int | None:
        """The read end of the wake-up pipe (readable once a signal arrived), or ``None``."""
        return None if self._wakeup is None else self._wakeup[0]

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = number
        if self._wakeup is not None:
            with contextlib.suppress(OSError):  # full pipe: it is readable anyway
                os.write(self._wakeup[1], b"\0")
        if self._raising:
            self._raising = False
            raise SignalReceived(number)

    @contextlib.contextmanager
    def raising(self) -> Iterator[None]:
        """Run the block so that a stop signal interrupts it at once (:class:`SignalReceived`),
        also one that arrived before the block began."""
        self._raising = True  # first, so that no signal falls between the check and the block
        try:
            if self.received is not None:
                raise SignalReceived(self.received)
            yield
        finally:
            self._raising = False

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is not threading.main_thread():
            return self
        read, write = os.pipe()
        os.set_blocking(write, False)
        self._wakeup = (read, write)
        try:
            for number in self.signals:
                self._previous[number] = signal.signal(number, self._handle)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Restore the previous handlers and close the wake-up pipe (leaving the ``with`` block
        does it)."""
        for number, previous in self._previous.items():
            signal.signal(number, previous)  # type: ignore[arg-type]
        self._previous.clear()
        if self._wakeup is not None:
            for descriptor in self._wakeup:
                os.close(descriptor)
            self._wakeup = None
