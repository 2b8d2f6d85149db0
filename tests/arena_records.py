"""The arena's stored games as tests compare them: a game without its measured seconds (the
local pool's and Ray's runs, a stopped tournament's and its resumption's), and the count of
games in a store another process is writing (tests/arena/test_arena_ray.py,
tests/arena/test_arena_runner.py).

>>> from searchlab.arena.worker import GameRecord
>>> comparable.__doc__
'Everything but the measured seconds.'
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from searchlab.arena.worker import GameRecord


def comparable(record: GameRecord) -> tuple:
    """Everything but the measured seconds."""
    return (
        record.key,
        record.game,
        record.first,
        record.second,
        record.seed,
        record.opening,
        record.moves,
        record.movers,
        record.result,
        record.termination,
    )


def count_games(path: Path) -> int:
    """Games in the file, read while another process may be writing it."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05) as raw:
            return int(raw.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0
