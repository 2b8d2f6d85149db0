"""A first search on an empty numba cache keeps its budget (issue 28): the kernels load or
compile before the clock starts, the compile is said in one line on stderr (never in
``--json`` output), Ctrl-C stops it, the compiled loops land in searchlab's cache folder (not
the system's temporary one, which a reboot empties), and ``az`` (the ``mcts`` agent with a
network) prepares its PUCT kernels and its network's first forward pass when it is made."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from searchlab.algorithms.mcts.compile_notice import compile_message


def _cold(tmp_path: Path) -> dict[str, str]:
    """An environment whose numba cache and searchlab cache folder start empty (the bound
    kernels' folder by its default rule: no ``SEARCHLAB_KERNEL_DIR``)."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "SEARCHLAB_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("SEARCHLAB_KERNEL_DIR", None)
    return env


def _run(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], env=env, capture_output=True, text=True, timeout=600,
        check=False,
    )  # fmt: skip


@pytest.mark.slow
def test_a_cold_cache_keeps_the_first_searchs_budget(tmp_path: Path) -> None:
    """Up to two empty caches, each run cold then warm, in turn (the tests run on two
    processes and the machine is shared, so the load moves between runs): the better cold run
    reaches 80% of the simulations of the worse warm run (a fresh process just done compiling
    has run at 0.85-0.87 of a warm one in fresh-clone CI runs). The second cache is tried only
    when the first pair falls short (a cold compile is 10-25 s here): what passes after one
    pair passes the check over both, since the better cold is no worse and the worse warm no
    better. Before, the compile ran inside the timed search: 64 simulations in 10.5 s, against
    620,154 warm."""
    argv = ("-m", "searchlab", "analyse", "connect4", "--agent", "mcts:time=1", "--json")
    said = compile_message("connect4", cached=True) + "\n"
    colds: list[subprocess.CompletedProcess[str]] = []
    warms: list[subprocess.CompletedProcess[str]] = []
    for name in ("a", "b"):
        env = _cold(tmp_path / name)
        colds.append(_run(*argv, env=env))  # compiles (10-20 s here), then searches 1 s
        warms.append(_run(*argv, env=env))
        for run in (colds[-1], warms[-1]):
            assert run.returncode == 0, run.stderr[-2000:]
        cold = max((json.loads(run.stdout) for run in colds), key=lambda d: d["simulations"])
        warm = min((json.loads(run.stdout) for run in warms), key=lambda d: d["simulations"])
        if cold["simulations"] >= 0.8 * warm["simulations"] and "" in [r.stderr for r in warms]:
            break
    assert cold["simulations"] >= 0.8 * warm["simulations"], (cold, warm)
    assert [run.stderr for run in colds] == [said] * len(colds)
    # a warm run says nothing; on a machine so busy that loading the cached kernel passes
    # SLOW_SECONDS one may say the line late, but not both (a stale cache says it in each)
    assert all(run.stderr in ("", said) for run in warms), [run.stderr for run in warms]
    assert "" in [run.stderr for run in warms]
    # the loop bound to Connect Four's rules is kept in searchlab's cache folder
    assert list((tmp_path / "a" / "cache" / "kernels").glob("searchlab_bound_*.py"))


def test_the_first_go_command_says_what_it_compiles_and_ctrl_c_stops_it(
    tmp_path: Path,
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "searchlab", "analyse", "go", "--agent", "mcts:time=1"],
        env=_cold(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stderr is not None
    said = child.stderr.readline()  # before compiling: the search has not started
    assert said == compile_message("go", cached=True) + "\n"
    time.sleep(1.0)  # well inside the compile (30 s or more)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)  # a hang guard, not a timing
    assert child.returncode == 130
    assert err == "searchlab: interrupted\n" and "Traceback" not in err
    assert out == ""


def test_a_warm_go_command_says_nothing_of_compiling() -> None:
    from searchlab.algorithms.mcts.go_compiled import warm_up

    warm_up()  # this machine's usual cache (the suite's Go tests need it anyway)
    argv = ("-m", "searchlab", "analyse", "go", "-p", "size=5", "--agent", "mcts:simulations=200")
    done = _run(*argv, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


# -- az: the network's agent ----------------------------------------------------------------------
# Made on an empty numba cache, the az agent for Connect Four (its shipped network) and one
# search: which numba functions compiled while it was made, and which during its first search.
_AZ_CHILD = """\
import json, sys
from numba.core import event
from searchlab.agents import make_agent
from searchlab.games import make

game = make("connect4")
with event.install_recorder("numba:compile") as made:
    agent = make_agent(sys.argv[1], game, seed=1)
with event.install_recorder("numba:compile") as searched:
    agent.act(game.initial_state())


def names(recorded):
    return sorted({e.data["dispatcher"].py_func.__qualname__ for _, e in recorded.buffer})


print(json.dumps({"made": names(made), "searched": names(searched)}))
"""


@pytest.mark.slow
def test_az_compiles_its_kernels_when_made_not_in_its_first_timed_search(
    tmp_path: Path,
) -> None:
    """Before: the PUCT tree's kernels (collect, expand_backup, ...) compiled inside the first
    search's clock: 3 simulations in ``az:time=1`` against 2,340 warm."""
    script = tmp_path / "az_child.py"
    script.write_text(_AZ_CHILD)
    done = _run(str(script), "az:simulations=50", env=_cold(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    compiled = json.loads(done.stdout)
    assert {"collect", "expand_backup", "expand_backup_many"} <= set(compiled["made"])
    assert compiled["searched"] == []


class _SlowFirstCall:
    """Wraps an evaluator: its first ``evaluate_batch`` takes ``delay`` s more (a network's
    first forward pass, a kernel compiled for it), and each call is logged."""

    def __init__(self, inner: Any, delay: float, log: list[str]) -> None:
        self.inner, self.encoder, self.delay, self.log = inner, inner.encoder, delay, log

    def evaluate_batch(self, states: Any) -> Any:
        if not self.log:
            time.sleep(self.delay)
        self.log.append("evaluate")
        return self.inner.evaluate_batch(states)


@pytest.mark.parametrize("network_only", [False, True])
def test_a_network_agents_first_move_keeps_its_budget(tmp_path: Path, network_only: bool) -> None:
    """The az and policy agents (the ``mcts`` agent with a network) make the network's first,
    slow, call when they are made, before any clock."""
    from searchlab.agents.search import MCTSAgent
    from searchlab.core.limits import Limits
    from searchlab.domains.games.tictactoe import TicTacToe
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import PolicyValueNet

    game = TicTacToe()
    encoder = encoder_for(game)
    log: list[str] = []
    net = PolicyValueNet(encoder.shape, encoder.num_actions, seed=0)
    evaluator = _SlowFirstCall(NetworkEvaluator(net, encoder), 0.5, log)
    agent = MCTSAgent(
        "az", game, limits=Limits(time=0.2), seed=1, evaluator=evaluator,
        network_only=network_only,
    )  # fmt: skip
    assert log  # made: the slow call is behind it
    log.append("act")
    agent.act(game.initial_state())
    result = agent.last_result
    # the slow call came before the move (no timing: the log says when it was made)
    assert result is not None and log.index("act") > 0 and log.count("act") == 1
    assert "evaluate" in log[log.index("act") :]  # the move's own calls, after it
    if not network_only:
        assert result.stopped_by == "time" and result.stats["simulations"] > 0
