"""Every searcher that keeps a tree shows what it knows while it runs: ``snapshot()`` of the
reference ``MCTS``, the compiled ``CompiledSearcher`` and Go's ``GoSearcher`` (the web lab's
live analysis reads it in every tier)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from searchlab.algorithms.mcts import MCTS
from searchlab.algorithms.mcts.compiled import CompiledSearcher
from searchlab.algorithms.mcts.go_compiled import GoSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.limits import Limits
from searchlab.games import make


def searchers() -> list[tuple[str, Any, Any]]:
    connect4, go = make("connect4"), make("go", size=7)
    return [
        ("reference", connect4, MCTS(connect4, seed=1, tier="reference")),
        ("compiled", connect4, CompiledSearcher(connect4, MCTSOptions(), seed=1)),
        ("go", go, GoSearcher(go, MCTSOptions(rave=300), seed=1)),
    ]


@pytest.mark.parametrize("index", range(3))
def test_a_snapshot_after_a_search_is_its_root_statistics(index: int) -> None:
    _, game, searcher = searchers()[index]
    assert searcher.snapshot().simulations == 0 and searcher.snapshot().children == ()
    result = searcher.search(game.initial_state(), Limits(simulations=1500))
    snapshot = searcher.snapshot()
    visited = [row for row in result.stats["children"] if row["visits"]]
    assert [(r["action"], r["visits"]) for r in snapshot.children] == [
        (r["action"], r["visits"]) for r in visited
    ]
    assert [r["value"] for r in snapshot.children] == pytest.approx([r["value"] for r in visited])
    assert snapshot.simulations == sum(r["visits"] for r in visited) > 0


@pytest.mark.parametrize("index", range(3))
def test_snapshots_grow_while_the_search_runs_in_another_thread(index: int) -> None:
    _, game, searcher = searchers()[index]
    searcher.search(game.initial_state(), Limits(simulations=10))  # load the kernels
    done: list[Any] = []
    worker = threading.Thread(
        target=lambda: done.append(searcher.search(game.initial_state(), Limits(time=1.0)))
    )
    worker.start()
    seen = []
    while worker.is_alive():
        now = searcher.snapshot()
        seen.append(now.simulations)
        assert now.simulations == sum(row["visits"] for row in now.children)
        time.sleep(0.05)
    worker.join()
    assert seen == sorted(seen) and len({s for s in seen if s}) >= 2
    final = searcher.snapshot()
    assert final.simulations >= seen[-1] and final.simulations > 0
    most = final.children[0]["visits"]
    assert done and done[0].action in {r["action"] for r in final.children if r["visits"] == most}


def test_snapshots_read_while_the_compiled_tree_grows_and_is_kept_are_whole() -> None:
    """Read as fast as possible while the search thread grows its arrays (from a tree sized
    for 10 simulations) and keeps a subtree: every snapshot is read from one set of arrays
    (a half-grown block once gave an IndexError or garbage)."""
    game = make("connect4")
    for seed in range(3):
        searcher = CompiledSearcher(game, MCTSOptions(), seed=seed)
        searcher.search(game.initial_state(), Limits(simulations=10))  # a small tree to grow
        worker = threading.Thread(
            target=lambda s=searcher: s.search(game.initial_state(), Limits(time=0.5))
        )
        worker.start()
        reads = 0
        while worker.is_alive():
            now = searcher.snapshot()
            assert now.simulations == sum(row["visits"] for row in now.children)
            assert all(0 <= row["action"] < 7 for row in now.children)
            assert all(-1.0 <= row["value"] <= 1.0 for row in now.children)
            reads += 1
        worker.join()
        assert reads > 10
