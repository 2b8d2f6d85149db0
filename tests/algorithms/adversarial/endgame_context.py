"""The argument tuple of the compiled Othello endgame search, for the tests that call the
kernel on a table of their own (shared by the kernel and thread tests)."""

from __future__ import annotations

import numpy as np

from searchlab.algorithms.adversarial._othello_endgame_stability import edge_stability_table


def search_context(stats: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(stats, table, move buffer, key buffer, edge table, sort depths, busy)`` with fresh
    buffers, searchlab's edge-stability table, no sort depths and no helper threads.

    >>> stats = np.array([0, 1 << 40, 0], dtype=np.int64)
    >>> len(search_context(stats, np.zeros((16, 3), dtype=np.uint64)))
    7
    """
    return (
        stats,
        table,
        np.zeros((65, 40, 3), dtype=np.uint64),
        np.zeros((65, 40), dtype=np.int64),
        edge_stability_table(),
        np.full(65, -1, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),  # no helper threads
    )
