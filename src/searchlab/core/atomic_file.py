"""Writing a file so that a reader (or a run started again after a kill) sees the old file or
the new one, never a part of one.

The bytes go to a temporary file beside the target, named ``.NAME.PID.tmp`` (hidden, and a
``.*.tmp`` leftover is recognisable as one), are flushed to the disk (``fsync``), and the
temporary file is renamed over the target (``os.replace``, atomic on POSIX), after which the
directory itself is flushed so the rename survives a power cut. If anything fails, the
temporary file is removed and the target is untouched.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "result.json"
>>> write_atomically(path, b'{"moves": 3}')
>>> path.read_bytes(), sorted(p.name for p in path.parent.iterdir())
(b'{"moves": 3}', ['result.json'])
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` by a file holding ``data``, atomically (see the module). An
    ``OSError`` (no such folder, no space, no permission) propagates; nothing is left behind."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    _fsync_directory(target.parent)


def _fsync_directory(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    try:
        descriptor = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
