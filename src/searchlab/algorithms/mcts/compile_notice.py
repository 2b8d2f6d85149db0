"""Saying so when a Monte Carlo kernel compiles, before any clock starts.

Numba compiles a game's bound search loop (:mod:`~searchlab.algorithms.mcts._kernel_bind`) on
its first call and caches it on disk; a fresh install (an empty cache) spends 10 to 60 s
there on the first search of a game (:data:`ESTIMATES`), a warm one about a second at most.
:class:`~searchlab.algorithms.mcts.compiled.CompiledSearcher` does that first call before its
clock starts (``prepare``), inside :func:`compiling`, which writes one line on stderr
(:data:`notice`) when the work will be long: at once when numba's disk cache holds no kernel
of that loop for this machine (:func:`is_cached`, a read of its small index file), else when
the loading has taken :data:`SLOW_SECONDS` (a cache made stale by another searchlab).
``searchlab warmup`` does it ahead for every built-in game.

>>> lines = []
>>> with compiling("connect4", kernel=None, say=lines.append):
...     pass  # fast: nothing said
>>> lines
[]
>>> compile_message("go", cached=True)
'compiling the Monte Carlo kernels for go, once per machine (15-60 s)...'
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["ESTIMATES", "SLOW_SECONDS", "compile_message", "compiling", "is_cached", "notice"]

ESTIMATES = {"connect4": "10-20 s", "othello": "10-30 s", "snakego": "15-40 s", "go": "15-60 s"}
"""How long a cold compile of each built-in game's kernels takes: issue 28's first runs
(Snake Go 14.4 s, Go 15.2 s) to the shared 2-core VM (2026-11-28, ``searchlab warmup`` on an
empty cache: Connect Four 14.1 s, Othello 23.2 s, Snake Go 37.5 s, Go 55.1 s); other games:
:data:`DEFAULT_ESTIMATE`."""
DEFAULT_ESTIMATE = "10-60 s"
SLOW_SECONDS = 3.0
"""A load from a cache that looked warm is reported once it has taken this long."""


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


notice: Callable[[str], None] | None = _to_stderr
"""Where the line goes (default: stderr); ``None`` says nothing (a library that wants quiet)."""


def compile_message(game: str, *, cached: bool) -> str:
    """The one line said before ``game``'s kernels compile (``cached``: numba keeps them on
    disk, so this happens once per machine)."""
    seconds = ESTIMATES.get(game, DEFAULT_ESTIMATE)
    once = ", once per machine" if cached else ""
    return f"compiling the Monte Carlo kernels for {game}{once} ({seconds})..."


def is_cached(kernel: Any) -> bool | None:
    """Whether numba's disk cache holds ``kernel`` (an ``@njit(cache=True)`` function)
    compiled for this machine from its current source; ``None`` when it cannot tell (a
    function compiled in memory, or a numba whose cache is laid out otherwise)."""
    try:
        cache = kernel._cache
        index = cache._cache_file._load_index()
        wanted = cache._index_key(None, kernel.targetctx.codegen())[1:]
    except Exception:  # numba's private layout: unknown, not an error
        return None
    return any(isinstance(key, tuple) and key[1:] == wanted for key in index)


@contextmanager
def compiling(game: str, kernel: Any, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Around the first call of ``kernel`` (the loop bound to ``game``'s rules): say
    :func:`compile_message` through ``say`` (default :data:`notice`) at once when the disk
    cache is cold, else if the block runs past :data:`SLOW_SECONDS`; at most once."""
    say = notice if say is None else say
    if say is None:
        yield
        return
    cached = is_cached(kernel)
    if cached is False:
        say(compile_message(game, cached=True))
        yield
        return
    timer = threading.Timer(SLOW_SECONDS, say, (compile_message(game, cached=cached is True),))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
