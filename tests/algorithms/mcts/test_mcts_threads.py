"""Parallel MCTS (``MCTSOptions.threads``, root parallelism, ``parallel="root"``, in the
compiled tier; tree parallelism: ``test_mcts_tree_parallel.py``): ``threads=1``
is the search recorded before threads existed (``golden/compiled_threads1_golden.json``,
written from main's code before the change), a seeded parallel search under a simulation
budget is reproducible, runs exactly its budget, merges the trees' root visits, stops on time,
on a proof and on Ctrl-C, and bad values are one line."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.agents import make_agent
from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.root_parallel import STOPPED, run_parallel, split_budget
from searchlab.algorithms.mcts.searchers import compiled_searcher
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.go import Go
from searchlab.games import make

GOLDEN = Path(__file__).parent / "golden" / "compiled_threads1_golden.json"


def _summary(result: Any) -> dict[str, Any]:
    return {
        "action": result.action,
        "value": result.value,
        "pv": list(result.principal_variation),
        "nodes": result.nodes,
        "depth": result.depth,
        "proven": result.is_proven,
        "stopped_by": result.stopped_by,
        "simulations": result.stats["simulations"],
        "reused_visits": result.stats["reused_visits"],
        "children": [
            [c["action"], c["visits"], c["value"], c["proven"]] for c in result.stats["children"]
        ],
    }


def _golden_runs() -> dict[str, Any]:
    """The searches the golden file records, with ``threads=1`` given explicitly."""
    c4 = make("connect4")
    c4_state = play(c4.initial_state(), "4 4 5 3")
    one = {"threads": 1}
    runs: dict[str, Any] = {
        "connect4": _summary(mcts(c4, c4_state, limits=Limits(simulations=5000), seed=11, **one)),
        "connect4_solver": _summary(
            mcts(
                c4,
                c4_state,
                limits=Limits(simulations=5000),
                seed=11,
                solver=True,
                final_move="robust",
                **one,
            )
        ),
        "othello": _summary(mcts(make("othello"), limits=Limits(simulations=3000), seed=5, **one)),
        "go7_rave": _summary(
            mcts(Go(size=7), limits=Limits(simulations=2000), seed=3, rave=1000, **one)
        ),
        "snakego": _summary(
            mcts(make("snakego", size=8, rounds=20), limits=Limits(simulations=1000), seed=9)
        ),
    }
    searcher = compiled_searcher(c4, MCTSOptions(threads=1), 4)
    first = searcher.search(c4.initial_state(), Limits(simulations=3000))
    second = searcher.search(play(c4.initial_state(), "4 4"), Limits(simulations=2000))
    runs["connect4_reuse"] = [_summary(first), _summary(second)]
    return runs


def test_one_thread_is_the_search_recorded_before_threads() -> None:
    # JSON round trip: tuples become lists, floats keep every bit
    assert json.loads(json.dumps(_golden_runs())) == json.loads(GOLDEN.read_text())


@pytest.mark.parametrize(
    ("name", "state", "budget"),
    [("connect4", "4 4 5 3", 6001), ("othello", "", 3001)],
)
def test_parallel_search_is_reproducible_and_runs_its_budget(
    name: str, state: str, budget: int
) -> None:
    game = make(name)
    root = play(game.initial_state(), state) if state else game.initial_state()
    runs = [
        mcts(game, root, limits=Limits(simulations=budget), seed=21, threads=2, parallel="root")
        for _ in range(2)
    ]
    first, again = runs
    assert first.stats == again.stats
    assert first.principal_variation == again.principal_variation
    assert (first.action, first.value, first.nodes) == (again.action, again.value, again.nodes)
    assert first.stats["simulations"] == budget
    assert first.stats["threads"] == 2
    # every simulation passes through one root child
    assert sum(child["visits"] for child in first.stats["children"]) == budget
    # another seed: another search (the result depends on the seed, not only the budget)
    other = mcts(
        game, root, limits=Limits(simulations=budget), seed=22, threads=2, parallel="root"
    )
    assert other.stats["children"] != first.stats["children"]


def test_merged_root_is_the_sum_of_the_trees() -> None:
    game = make("connect4")
    searcher = compiled_searcher(game, MCTSOptions(threads=3, parallel="root"), 5)
    result = searcher.search(game.initial_state(), Limits(simulations=9000))
    trees = [searcher._search.tree, *(helper.tree for helper in searcher._helpers)]
    assert len(trees) == 3
    per_tree: list[dict[int, tuple[int, float]]] = []
    for tree in trees:
        first, made = int(tree.first[0]), int(tree.n_expanded[0])
        per_tree.append(
            {
                int(tree.action[child]): (int(tree.visits[child]), float(tree.value[child]))
                for child in range(first, first + made)
            }
        )
        assert int(tree.visits[0]) == 3000  # 9000 split evenly
    # the trees searched differently (their own seeds)
    assert per_tree[0] != per_tree[1] != per_tree[2]
    for child in result.stats["children"]:
        visits = sum(tree.get(child["action"], (0, 0.0))[0] for tree in per_tree)
        total = sum(tree.get(child["action"], (0, 0.0))[1] for tree in per_tree)
        assert child["visits"] == visits
        assert child["value"] == pytest.approx(total / visits)
    best = max(result.stats["children"], key=lambda child: child["visits"])
    assert result.action == best["action"]  # most_visits, on the merged counts
    assert result.nodes == sum(int(tree.counters[2]) for tree in trees)


def test_budget_split_adds_up() -> None:
    for total in (1, 2, 7, 1000, 1001):
        for threads in (1, 2, 3, 8):
            parts = split_budget(total, threads)
            assert sum(p for p in parts if p is not None) == total
            assert (
                max(p for p in parts if p is not None) - min(p for p in parts if p is not None) <= 1
            )
    # fewer simulations than threads: as many trees as simulations
    for parallel in ("root", "tree"):
        result = mcts(
            make("connect4"), limits=Limits(simulations=3), seed=1, threads=8, parallel=parallel
        )
        assert result.stats["simulations"] == 3 and result.stats["threads"] == 3


def test_time_limited_parallel_search_stops() -> None:
    game = make("othello")
    searcher = compiled_searcher(game, MCTSOptions(threads=2, parallel="root"), 3)
    result = searcher.search(game.initial_state(), Limits(time=0.2))
    assert result.stopped_by == "time"
    assert result.action in game.initial_state().legal_actions()
    # both threads searched
    assert searcher._search.simulations > 0 and searcher._helpers[0].simulations > 0
    assert result.stats["simulations"] == (
        searcher._search.simulations + searcher._helpers[0].simulations
    )


def test_a_proof_on_one_thread_stops_them_all() -> None:
    game = make("connect4")
    state = play(game.initial_state(), "4 4 3 3")  # X wins: 2 or 5 makes an open three
    budget = 2_000_000
    result = mcts(game, state, limits=Limits(simulations=budget), seed=2, threads=2, solver=True)
    assert result.is_proven and result.value == 1.0
    assert result.action in (1, 4)
    assert result.stats["simulations"] < budget


def test_tree_reuse_with_threads() -> None:
    game = make("connect4")
    searcher = compiled_searcher(game, MCTSOptions(threads=2, parallel="root"), 4)
    searcher.search(game.initial_state(), Limits(simulations=4000))
    second = searcher.search(play(game.initial_state(), "4 4"), Limits(simulations=2000))
    assert second.stats["reused_visits"] > 0
    assert second.stats["simulations"] == 2000


@pytest.mark.parametrize("game", [Go(size=7), make("snakego", size=8, rounds=20)])
def test_go_and_snake_go_search_on_threads(game: Any) -> None:
    result = mcts(game, limits=Limits(simulations=1001), seed=3, threads=2, parallel="root")
    again = mcts(game, limits=Limits(simulations=1001), seed=3, threads=2, parallel="root")
    assert result.stats["simulations"] == 1001
    assert result.action in game.initial_state().legal_actions()
    assert result.stats == again.stats


def test_ctrl_c_on_the_calling_thread_stops_every_thread() -> None:
    ended = threading.Event()

    def interrupted(stopped: Any) -> str:
        time.sleep(0.05)
        raise KeyboardInterrupt

    def searching(stopped: Any) -> str:
        while stopped() is None:
            time.sleep(0.001)
        ended.set()
        return STOPPED

    with pytest.raises(KeyboardInterrupt):
        run_parallel([interrupted, searching])
    assert ended.is_set()


def test_an_error_on_a_thread_reaches_the_caller() -> None:
    def searching(stopped: Any) -> str:
        while stopped() is None:
            time.sleep(0.001)
        return STOPPED

    def broken(stopped: Any) -> str:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        run_parallel([searching, broken])


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_threads_is_one_error(bad: Any) -> None:
    with pytest.raises(InvalidParameterError, match="threads must be an integer >= 1"):
        MCTSOptions(threads=bad)


def test_threads_need_the_compiled_tier() -> None:
    with pytest.raises(InvalidParameterError, match="compiled tier only"):
        mcts(make("tictactoe"), limits=Limits(simulations=10), threads=2)
    with pytest.raises(InvalidParameterError, match="tier='reference'"):
        mcts(make("connect4"), limits=Limits(simulations=10), threads=2, tier="reference")
    with pytest.raises(InvalidParameterError, match="rollout='informed'"):
        mcts(make("connect4"), limits=Limits(simulations=10), threads=2, rollout="informed")


def test_agent_spec_takes_threads() -> None:
    game = make("connect4")
    agent = make_agent("mcts:simulations=2001,threads=2", game, seed=1)
    agent.act(game.initial_state())
    assert agent.last_result.stats["threads"] == 2
    assert agent.last_result.stats["simulations"] == 2001


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mcts:threads=0", "threads must be > 0"),
        ("mcts:threads=two", "threads must be a whole number"),
        ("mcts:threads=2,tier=reference", "compiled tier only"),
    ],
)
def test_bad_threads_on_the_command_line(
    capsys: pytest.CaptureFixture[str], spec: str, fragment: str
) -> None:
    code, _, err = run_main(capsys, "analyse", "connect4", "44", "--agent", spec)
    assert_one_line_error(code, err, fragment)
