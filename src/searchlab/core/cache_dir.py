"""Where searchlab keeps what it makes once and reuses across runs: ``cache_directory()``.

``$SEARCHLAB_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/searchlab``, else
``~/.cache/searchlab`` (the XDG base-directory rule; a folder that survives a reboot, unlike
the system's temporary directory). The 15-puzzle's pattern databases are written there, and
the Monte Carlo loops bound to a game's rules (with numba's compiled kernels of them) in its
``kernels`` folder (:func:`~searchlab.algorithms.mcts._kernel_bind.kernel_folder`). Nothing
is created here: a caller makes the folder when it first writes.

>>> import os
>>> saved = os.environ.get("SEARCHLAB_CACHE_DIR")
>>> os.environ["SEARCHLAB_CACHE_DIR"] = "/tmp/my-searchlab-cache"
>>> str(cache_directory())
'/tmp/my-searchlab-cache'
>>> del os.environ["SEARCHLAB_CACHE_DIR"]
>>> cache_directory().name
'searchlab'
>>> if saved is not None: os.environ["SEARCHLAB_CACHE_DIR"] = saved
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_directory"]


def cache_directory() -> Path:
    """searchlab's cache folder: ``$SEARCHLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/searchlab``,
    else ``~/.cache/searchlab`` (see the module)."""
    chosen = os.environ.get("SEARCHLAB_CACHE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "searchlab"
