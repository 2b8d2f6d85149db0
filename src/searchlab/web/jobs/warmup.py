"""A worker's warm-up before its first job: every game's kernels, the path searches, the
shipped networks."""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Callable

from searchlab.agents import make_agent
from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.algorithms.warmup import warm_up_game
from searchlab.core.cache_dir import cache_directory
from searchlab.core.file_lock import taking_turns
from searchlab.domains.games import GAMES, make
from searchlab.domains.path.grid import GridMap, GridProblem
from searchlab.learning.shipped import shipped_games

__all__ = ["warm_up"]


def warm_up() -> None:
    """Make a worker ready for the labs' first searches, before it takes a job (so that no
    search pays for this within its time budget): load (or, on an empty numba cache, compile)
    the kernels of every game the Play lab offers (:func:`~searchlab.algorithms.warmup.
    warm_up_game`: the compiled MCTS, with and without the MCTS-Solver, of Connect Four,
    Othello, Snake Go and Go; the exact solvers; each game's rules) and of the path searches;
    with PyTorch (the ``learn`` extra), run torch on one thread and load each network shipped
    for a game and search with it once (``az``'s PUCT kernels). A part that fails says so in
    one line on stderr; the worker still serves. The workers warm up in turn
    (:func:`~searchlab.core.file_lock.taking_turns`, on ``warmup.lock`` in searchlab's cache
    folder): on an empty cache the first compiles and the others load what it kept."""
    try:
        lock = cache_directory() / "warmup.lock"
    except RuntimeError:  # no home folder to find: warm up without waiting for anyone
        _warm_up_all()
        return
    with taking_turns(lock):
        _warm_up_all()


def _warm_up_all() -> None:
    for name in sorted(GAMES):
        _warm(name, functools.partial(_warm_game, name))

    def paths() -> None:
        tiny = GridMap.from_strings(["...", "...", "..."])
        for search in (best_first.astar, best_first.dijkstra, jump_point_search):
            search(GridProblem(tiny, (0, 0), (2, 2)))
            search(GridProblem(tiny, (0, 0), (2, 2)), observer=lambda event: None)

    _warm("path searches", paths)
    if importlib.util.find_spec("torch") is None:  # no learn extra: no network to load
        return
    import torch

    # One thread per worker: the server runs one search per worker process, and torch's
    # thread pool beside numba's slowed az's 800 simulations from 0.4 s to 3-9 s on a busy
    # 2-core machine (measured after this warm-up).
    torch.set_num_threads(1)
    for name in shipped_games():
        if name in GAMES:
            _warm(f"the network shipped for {name}", functools.partial(_warm_network, name))


def _warm_game(name: str) -> None:
    """Load the kernels of game ``name``'s searches and rules."""
    warm_up_game(make(name))


def _warm_network(name: str) -> None:
    """Load the network shipped for game ``name`` and search with it once."""
    game = make(name)
    make_agent("az:simulations=8", game, seed=0).act(game.initial_state())


def _warm(what: str, function: Callable[[], object]) -> None:
    """Run one part of :func:`warm_up`; a failure is one line on stderr, not the worker's end."""
    try:
        function()
    except Exception as error:  # the searches that need it will report it themselves
        print(f"searchlab serve: could not warm up {what}: {error}", file=sys.stderr, flush=True)
