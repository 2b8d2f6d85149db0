"""Compile the library's kernels into numba's cache once, before the test processes start
(``python tests/kernel_warmup.py PART``; run by ``conftest.pytest_sessionstart`` under
pytest-xdist, both parts side by side).

On a fresh clone numba's cache is empty, and the two test processes and the browser lab's
server each compiled the kernels their first tests needed, the same kernel often twice or three
times at once (Go's alone is a minute of one core). Compiled here, once, every later process
loads them. The tests of a cold cache (``tests/cli/test_cold_cache.py``, the new-process tests)
keep their own empty ``NUMBA_CACHE_DIR`` and are not helped.

``PART`` is ``go`` (Go and Connect Four: about as long as the rest) or ``rest`` (Othello, Snake
Go, the other games' rules, the path searches and the shipped networks' PUCT search, as the
web lab's warm-up does). Prints one line a part; a part that fails says so and the tests that
need it report the error themselves."""

from __future__ import annotations

import importlib.util
import sys

PARTS = {"go": ("go", "connect4")}


def games_of(part: str) -> tuple[str, ...]:
    """The built-in games whose kernels ``part`` compiles (the two parts share them out)."""
    from searchlab.domains.games import GAMES

    if part == "go":
        return PARTS["go"]
    if part == "rest":
        return tuple(name for name in sorted(GAMES) if name not in PARTS["go"])
    raise ValueError(f"unknown part {part!r}: go or rest")


def warm(part: str) -> None:
    """Compile (or load) the kernels of ``part``: see the module."""
    from searchlab.algorithms.warmup import warm_up_game
    from searchlab.domains.games import GAMES, make

    for name in games_of(part):
        warm_up_game(make(name))
    if part == "go":
        return
    from searchlab.algorithms.path import best_first
    from searchlab.algorithms.path.jps import jump_point_search
    from searchlab.domains.path.grid import GridMap, GridProblem

    tiny = GridMap.from_strings(["...", "...", "..."])
    for search in (best_first.astar, best_first.dijkstra, jump_point_search):
        search(GridProblem(tiny, (0, 0), (2, 2)))
        search(GridProblem(tiny, (0, 0), (2, 2)), observer=lambda event: None)
    if importlib.util.find_spec("torch") is None:
        return
    import torch

    from searchlab.agents import make_agent
    from searchlab.learning.shipped import shipped_games

    torch.set_num_threads(1)
    for name in shipped_games():
        if name in GAMES:
            game = make(name)
            make_agent("az:simulations=8", game, seed=0).act(game.initial_state())


if __name__ == "__main__":
    warm(sys.argv[1])
