"""One process at a time: :func:`taking_turns`, an advisory lock on a file (``flock``).

For work that several processes may start at once and that the first one done makes cheap for
the others: the search workers of ``searchlab serve`` warming up on an empty numba cache
compile every game's kernels; taking turns, the first compiles and the next ones load what it
kept (measured on the 2-core VM, 2026-11-28: the browser tests' server waited 193 s for its two
workers compiling the same kernels side by side). Where the lock cannot be had (no ``fcntl``,
a folder that cannot be written), the work runs without it.

>>> import tempfile
>>> from pathlib import Path
>>> with taking_turns(Path(tempfile.mkdtemp()) / "demo.lock"):
...     print("alone")
alone
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

__all__ = ["taking_turns"]


@contextlib.contextmanager
def taking_turns(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (made with its folder if missing) while
    the block runs; other processes asking for the same file wait their turn. The lock ends
    with the block, or with the process."""
    try:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a+b")
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
