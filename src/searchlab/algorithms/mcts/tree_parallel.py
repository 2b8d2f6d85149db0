"""Tree parallelism for the compiled MCTS: ``threads`` searches in **one** tree, at once, on
Python threads that run the compiled loop without the GIL, each simulation counted on its way
down as a virtual loss (Chaslot, Winands and van den Herik 2008; the lock-free form of
Enzenberger and Müller 2009).

Root parallelism (:mod:`~searchlab.algorithms.mcts.root_parallel`, a tree a thread, merged at
the end) adds little here: on Connect Four two merged trees of 5,000 simulations scored 0.502
over 200 games against one tree of 5,000, where one tree of 10,000 scored 0.635
(``benchmarks/results/mcts_tree_parallel_*.txt``): its trees agree on the move one tree would
pick, and Connect Four's errors are the depth of its tactics, not the noise that averaging
removes. Threads that share a tree deepen it as one search of their summed simulations does.

How threads share the arrays without locks:

* each thread takes new child blocks from its own **region** of the arrays (``C_END`` in its
  ``counters``), so no slot is ever written by two threads' allocations; when a region is
  full, every thread pauses, the arrays grow and each thread gets a new region;
* a node's child block and a new child are written whole before they are published (the
  block's ``first`` written last, a child counted in ``n_expanded`` last), so a thread never
  reads a slot that is half made;
* the statistics are updated without atomics: two threads that add to one node at the same
  instant may lose one of the two updates, a known, small price of the lock-free form
  (Enzenberger and Müller measured no loss of strength from it); two threads may make the
  same new child at once (both write the same action and results), or the same block (one
  block wins, the nodes the other made below it in that simulation are left out of the tree).

So a search on several threads is not reproducible simulation by simulation; ``threads=1``
never comes here and stays the single-threaded search, draw for draw.

>>> regions(used=10, capacity=110, threads=3)
[(10, 43), (43, 76), (76, 110)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.algorithms.mcts import _kernel_loop as L
from searchlab.algorithms.mcts.root_parallel import run_parallel
from searchlab.algorithms.mcts.slices import run_in_slices

__all__ = ["PAUSE", "Lane", "regions", "run_shared"]

PAUSE = "pause"
"""What a thread's run returns when a thread's region is full: the arrays grow, then every
thread goes on."""


def regions(used: int, capacity: int, threads: int) -> list[tuple[int, int]]:
    """The free slots ``[used, capacity)`` split into ``threads`` regions ``(start, end)`` as
    evenly as integers allow, the last taking the rest."""
    size = (capacity - used) // threads
    bounds = [used + index * size for index in range(threads)] + [capacity]
    return [(bounds[index], bounds[index + 1]) for index in range(threads)]


@dataclass
class Lane:
    """One thread's share of a search in one tree: its own copy of the root position
    (``a``, ``b``, ``scratch``; a game's arrays are not shared) and ``config``, its counters
    (simulations, slots, nodes, depth and its region's end) and its random stream."""

    config: Any
    a: Any
    b: Any
    scratch: Any
    rng_state: np.ndarray
    counters: np.ndarray

    @classmethod
    def make(cls, config: Any, a: Any, b: Any, seed_word: int) -> Lane:
        """A lane for the root ``(a, b)``, its stream seeded by ``seed_word``."""
        if isinstance(a, np.ndarray):
            a = np.ascontiguousarray(a)
            scratch = np.empty(a.shape, dtype=a.dtype)
        else:
            scratch = a
        rng_state = np.array([seed_word], dtype=np.uint64)
        return cls(config, a, b, scratch, rng_state, np.zeros(5, dtype=np.int64))

    @property
    def simulations(self) -> int:
        return int(self.counters[L.C_SIMULATIONS])


def run_shared(
    tree: L.Tree,
    search: Callable[..., int],
    lanes: Sequence[Lane],
    simulations: Sequence[int | None],
    deadline: float | None,
    settings: Callable[[int], tuple[Any, ...]],
    room: int,
    grow: Callable[[], None],
    check: Callable[[int], str | None],
) -> str:
    """Run every lane's ``simulations`` more (``None``: no limit) in ``tree`` at once, until
    ``deadline``; return why the search stopped (a reason of
    :func:`~searchlab.algorithms.mcts.slices.run_in_slices`, or ``"proven"`` as soon as any
    lane proved the root). ``search`` is the bound kernel, ``settings(budget)`` its settings
    for a budget (virtual loss on), ``room`` the free slots a lane needs before a simulation,
    ``grow`` enlarges the arrays, ``check(code)`` turns the kernel's code into a reason (or
    ``None``: the slice ran; it raises on a bad value). The lanes' counters hold what each ran;
    the tree's hold their sums (simulations, nodes), the deepest depth and the last slot
    used."""
    targets = [
        None if count is None else lane.simulations + int(count)
        for lane, count in zip(lanes, simulations, strict=True)
    ]
    while True:
        _assign_regions(tree, lanes, room, grow)
        pause = threading.Event()
        jobs = [
            _job(tree, search, lane, target, deadline, settings, check, pause)
            for lane, target in zip(lanes, targets, strict=True)
        ]
        reasons = run_parallel(jobs)
        _gather(tree, lanes)
        if "proven" in reasons:
            return "proven"
        if PAUSE not in reasons:
            for reason in ("time", "nodes", "robust", "simulations"):
                if reason in reasons:
                    return reason
            return reasons[0]
        grow()


def _job(
    tree: L.Tree,
    search: Callable[..., int],
    lane: Lane,
    target: int | None,
    deadline: float | None,
    settings: Callable[[int], tuple[Any, ...]],
    check: Callable[[int], str | None],
    pause: threading.Event,
) -> Callable[[Callable[[], str | None]], str]:
    """One lane's run for :func:`~.root_parallel.run_parallel`."""

    def step(budget: int) -> str | None:
        nodes = tuple(getattr(tree, name) for name, _ in L.Tree.FIELDS)
        code = int(
            search(lane.config, nodes, lane.a, lane.b, lane.scratch, lane.counters,
                   lane.rng_state, settings(budget))
        )  # fmt: skip
        if code == L.GROW:
            pause.set()
            return PAUSE
        return check(code)

    def run(stopped: Callable[[], str | None]) -> str:
        if target is not None and lane.simulations >= target:
            return "simulations"

        def after_slice() -> str | None:
            return stopped() or (PAUSE if pause.is_set() else None)

        left = None if target is None else target - lane.simulations
        reason = run_in_slices(
            step, lambda: lane.simulations, simulations=left, deadline=deadline,
            after_slice=after_slice,
        )  # fmt: skip
        return reason

    return run


def _assign_regions(
    tree: L.Tree, lanes: Sequence[Lane], room: int, grow: Callable[[], None]
) -> None:
    """Give each lane its region of the free slots, growing the arrays until each region has
    ``room`` slots twice over."""
    used = int(tree.counters[L.C_USED])
    while (tree.parent.shape[0] - used) // len(lanes) < 2 * room:
        grow()
    for lane, (start, end) in zip(
        lanes, regions(used, tree.parent.shape[0], len(lanes)), strict=True
    ):
        lane.counters[L.C_USED] = start
        lane.counters[L.C_END] = end


def _gather(tree: L.Tree, lanes: Sequence[Lane]) -> None:
    """The tree's counters from its lanes'."""
    tree.counters[L.C_SIMULATIONS] = sum(int(lane.counters[L.C_SIMULATIONS]) for lane in lanes)
    tree.counters[L.C_NODES] = sum(int(lane.counters[L.C_NODES]) for lane in lanes)
    tree.counters[L.C_MAX_DEPTH] = max(int(lane.counters[L.C_MAX_DEPTH]) for lane in lanes)
    tree.counters[L.C_USED] = max(int(lane.counters[L.C_USED]) for lane in lanes)
