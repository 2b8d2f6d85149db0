"""What every game of ``searchlab solve`` shares: :class:`GameCommand`, how a game parses its
arguments and runs, and :func:`run_stoppable`, which keeps a long compiled solve stoppable by
Ctrl-C.

The per-game modules (``cli/solve_connect4.py``, ``cli/solve_othello.py``, and
``cli/solve_reference.py`` for tic-tac-toe, m,n,k and any other game by the plain-Python
solver) import this module and build their commands; ``cli/solve.py`` imports them and lists
the games. Imports run one way only: solve -> per-game module -> this module. (The plain-Python
solver needs no :func:`run_stoppable`: it runs in the main thread, which takes Ctrl-C between
two bytecodes.)

>>> run_stoppable(lambda: 6 * 7, stop=lambda: None)
42
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["STOP_WAIT_SECONDS", "GameCommand", "run_stoppable"]

R = TypeVar("R")

STOP_WAIT_SECONDS = 5.0
"""How long Ctrl-C waits for a stopped solver to return (it stops within one node)."""


@dataclass(frozen=True)
class GameCommand:
    """One game of ``solve``: its one-line help, how to add its arguments to a parser, and how
    to run it (returning the exit code)."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def run_stoppable(work: Callable[[], R], stop: Callable[[], None]) -> R:
    """Return ``work()``, run in a worker thread while this (the main) thread waits, so that
    Ctrl-C is seen at once even while a compiled kernel runs: on ``KeyboardInterrupt``,
    ``stop()`` is called (it must make ``work`` return soon, e.g. a solver's ``stop``), the
    worker is awaited (at most :data:`STOP_WAIT_SECONDS`) and the interrupt is raised again.
    An exception raised by ``work`` is raised here.

    The kernels must release the GIL (numba ``nogil=True``) for the main thread to run while
    they do.
    """
    outcome: list[R] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the main thread
            failure.append(error)

    worker = threading.Thread(target=target, name="searchlab-solve", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        stop()
        worker.join(STOP_WAIT_SECONDS)
        raise
    if failure:
        raise failure[0]
    return outcome[0]
