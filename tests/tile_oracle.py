"""A plain-Python IDA* for sliding-tile puzzles, the oracle of the compiled kernels' node counts.

It uses the kernels' move order (U, D, L, R of the blank), parent pruning and counting, but
recomputes the domain's heuristic from scratch at every node.
"""

from __future__ import annotations

from searchlab.domains.path.sliding_tile import SlidingTilePuzzle


def python_idastar(puzzle: SlidingTilePuzzle):
    """IDA* with the same move order (U, D, L, R of the blank), parent pruning and counting
    as the kernel, but recomputing the domain's heuristic from scratch at every node."""
    n = puzzle.size
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    expanded = generated = 0
    thresholds = []

    def search(board, blank, came_from, g, bound, path):
        nonlocal expanded, generated
        minimum = None
        for direction, (dr, dc) in enumerate(steps):
            if came_from == direction ^ 1:
                continue
            row, col = blank // n + dr, blank % n + dc
            if not (0 <= row < n and 0 <= col < n):
                continue
            generated += 1
            cell = row * n + col
            child = list(board)
            child[blank], child[cell] = child[cell], 0
            child = tuple(child)
            f = g + 1 + puzzle.heuristic(child)
            if f > bound:
                minimum = f if minimum is None else min(minimum, f)
                continue
            path.append(child)
            if puzzle.is_goal(child):
                return True, None
            expanded += 1
            found, below = search(child, cell, direction, g + 1, bound, path)
            if found:
                return True, None
            path.pop()
            if below is not None:
                minimum = below if minimum is None else min(minimum, below)
        return False, minimum

    start = puzzle.tiles
    bound = puzzle.heuristic(start)
    while True:
        thresholds.append(bound)
        expanded += 1
        path = [start]
        found, bound = search(start, start.index(0), -2, 0, bound, path)
        if found:
            return path, expanded, generated, thresholds
