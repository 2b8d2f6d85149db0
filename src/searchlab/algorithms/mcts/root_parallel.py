"""Root parallelism for the compiled MCTS (Chaslot, Winands and van den Herik 2008): ``threads``
searches of the same root, each growing its own tree of arrays with its own seed, run at once
on Python threads that call the compiled kernels without the GIL (``nogil=True``), and their
root children merged at the end (visits and value sums added action by action; a proof found
by any tree holds for all).

This module holds the parts that know nothing of the tree's driver
(:mod:`~searchlab.algorithms.mcts.compiled` uses them): the seed of each thread, the split of a
budget, the merged root and the threads' run with one shared stop.

>>> thread_seed(7, 0), thread_seed(7, 1) == thread_seed(7, 1), thread_seed(7, 1) != 7
(7, True, True)
>>> split_budget(10, 3), split_budget(None, 2)
([4, 3, 3], [None, None])
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

__all__ = ["STOPPED", "merge_roots", "run_parallel", "split_budget", "thread_seed"]

STOPPED = "stopped"
"""What a thread's search returns when another thread ended the search (a proven root, an
error, Ctrl-C)."""


def thread_seed(seed: int, index: int) -> int:
    """The seed of thread ``index`` of a search seeded ``seed``: ``seed`` itself for thread 0
    (so ``threads=1`` is the single-threaded search, draw for draw), else 63 bits of
    SHA-256 of ``(seed, index)``."""
    if index == 0:
        return seed
    digest = hashlib.sha256(f"searchlab-mcts-thread:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def split_budget(total: int | None, threads: int) -> list[int | None]:
    """``total`` (simulations or nodes; ``None``: no limit) split across ``threads`` as evenly
    as integers allow, the first threads taking one more: the parts add up to ``total``."""
    if total is None:
        return [None] * threads
    share, extra = divmod(int(total), threads)
    return [share + (1 if index < extra else 0) for index in range(threads)]


_FIELDS = ("action", "visits", "value", "is_proven", "proven")


def merge_roots(trees: Sequence[Any]) -> SimpleNamespace:
    """The root children of ``trees`` (tree arrays or :meth:`~._kernel_loop.Tree.view`\\ s of
    one root position) merged into one root-only tree with the fields the final-move rule
    (:func:`~._kernel_final.final_choice`) and the result's children read: node 0 the root
    (its visits summed, proven where any tree proved it), then one child per action made in
    any tree, in increasing action order, then the actions no tree has made yet. A child's
    visits and value sums are the trees' sums; its proof the first proving tree's (proofs are
    exact, so trees never disagree). ``owner`` gives, per merged child, the tree where that
    action has the most visits (for the principal variation below it) and its node there.
    """
    made: dict[int, list[Any]] = {}
    unmade: set[int] = set()
    owner: dict[int, tuple[int, int, int]] = {}
    root_visits = 0
    root_proven: float | None = None
    for index, tree in enumerate(trees):
        first = int(tree.first[0])
        if first < 0:
            continue
        root_visits += int(tree.visits[0])
        if tree.is_proven[0] and root_proven is None:
            root_proven = float(tree.proven[0])
        count = int(tree.n_expanded[0])
        block = slice(first, first + int(tree.n_children[0]))
        # the sums before the visits (a reader in another thread: visits read later are never
        # fewer than the sums hold)
        sums = tree.value[block].tolist()
        visits = tree.visits[block].tolist()
        actions = tree.action[block].tolist()
        for offset, action in enumerate(actions):
            if offset >= count:
                unmade.add(int(action))
                continue
            entry = made.setdefault(int(action), [0, 0.0, False, 0.0])
            entry[0] += int(visits[offset])
            entry[1] += float(sums[offset])
            if not entry[2] and tree.is_proven[first + offset]:
                entry[2], entry[3] = True, float(tree.proven[first + offset])
            best = owner.get(int(action))
            if best is None or int(visits[offset]) > best[0]:
                owner[int(action)] = (int(visits[offset]), index, first + offset)
    order = sorted(made) + sorted(unmade - set(made))
    size = 1 + len(order)
    merged = SimpleNamespace(
        first=np.array([1 if order else -1] + [-1] * len(order), dtype=np.int32),
        n_children=np.array([len(order)] + [0] * len(order), dtype=np.int16),
        n_expanded=np.array([len(made)] + [0] * len(order), dtype=np.int16),
        action=np.array([-1, *order], dtype=np.int16),
        visits=np.zeros(size, dtype=np.int32),
        value=np.zeros(size, dtype=np.float64),
        is_proven=np.zeros(size, dtype=np.int8),
        proven=np.zeros(size, dtype=np.float64),
        owner={},
    )
    merged.visits[0] = root_visits
    if root_proven is not None:
        merged.is_proven[0], merged.proven[0] = True, root_proven
    for slot, action in enumerate(order, start=1):
        if action in made:
            visits, total, is_proven, proven = made[action]
            merged.visits[slot], merged.value[slot] = visits, total
            merged.is_proven[slot], merged.proven[slot] = is_proven, proven
            merged.owner[slot] = owner[action][1:]
    return merged


def run_parallel(jobs: Sequence[Callable[[Callable[[], str | None]], str]]) -> list[str]:
    """Run ``jobs`` at once, the first on this thread and the others on their own threads,
    and return what each returned. Each job is called with ``stopped``, a function it asks
    between its slices: it returns :data:`STOPPED` once any job has returned ``"proven"`` or
    raised (an error, or ``KeyboardInterrupt`` on this thread), so that every thread ends
    promptly; the first exception is raised again here after every thread has ended."""
    stop = threading.Event()
    results: list[str] = [STOPPED] * len(jobs)
    errors: list[BaseException] = []

    def stopped() -> str | None:
        return STOPPED if stop.is_set() else None

    def run(index: int) -> None:
        try:
            results[index] = jobs[index](stopped)
            if results[index] == "proven":
                stop.set()
        except BaseException as error:  # handed to the calling thread
            errors.append(error)
            stop.set()

    workers = [
        threading.Thread(target=run, args=(index,), name=f"searchlab-mcts-{index}", daemon=True)
        for index in range(1, len(jobs))
    ]
    for worker in workers:
        worker.start()
    try:
        run(0)
        for worker in workers:
            worker.join()
    except BaseException:  # Ctrl-C on this thread: every thread stops at its next slice
        stop.set()
        raise
    if errors:
        raise errors[0]
    return results
