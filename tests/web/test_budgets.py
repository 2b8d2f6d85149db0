"""A search's budget on the server: the agent's own, bounded by the caps (issue 28).

Against the real app (FastAPI's TestClient runs its lifespan: real worker processes):

* ``az`` runs its own simulations (the spec's, or its default of 800), not as many as the time
  cap allows;
* a time budget (``mcts:time=0.5`` on Connect Four) runs for its time, not cut short by a
  simulation cap;
* a spec over a cap runs at the cap, and the reply says so in a note naming the option;
  a cap the agent left open that stops the search is noted too;
* a search sent while the workers still warm up (importing torch, loading the shipped network
  and the kernels) waits for them and keeps its whole budget;
* a tree at the nodes cap fits the workers' memory cap (slow).

The expected counts come from the agents' own defaults in the library (``az``'s
``DEFAULT_SIMULATIONS``), never from the server.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient

from searchlab.learning.agents import DEFAULT_SIMULATIONS as AZ_SIMULATIONS
from searchlab.web.app import create_app
from searchlab.web.caps import ServerCaps

SMALL = ServerCaps(time=0.5, simulations=500, nodes=20_000, depth=4)
"""Caps small enough that a spec goes over them in a fraction of a second."""


@pytest.fixture(scope="module")
def client() -> Any:
    """The default caps: what ``searchlab serve`` runs with."""
    with TestClient(create_app(workers=1)) as test_client:
        yield test_client
        assert test_client.get("/api/status").json()["errors_500"] == 0


@pytest.fixture(scope="module")
def small() -> Any:
    with TestClient(create_app(SMALL, workers=1)) as test_client:
        yield test_client
        assert test_client.get("/api/status").json()["errors_500"] == 0


def search(client: Any, **request: Any) -> dict[str, Any]:
    """The final message (``result`` or ``error``) of one search over the websocket."""
    with client.websocket_connect("/ws/search") as ws:
        ws.send_text(json.dumps({"type": "start", **request}))
        while True:
            message = json.loads(ws.receive_text())
            if message["type"] in ("result", "error"):
                return message


def visits(result: dict[str, Any]) -> int:
    return sum(row["visits"] for row in result["moves"])


# --- the agent's own budget -------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "simulations"), [("az:simulations=50", 50), ("az", AZ_SIMULATIONS)]
)
def test_az_runs_its_own_simulations_not_the_time_cap(
    client: Any, spec: str, simulations: int
) -> None:
    """Before issue 28 the server replaced az's budget with its 10 s cap: 1,526 simulations
    for ``az:simulations=200``, 10 s a move."""
    result = search(client, game="connect4", moves=["4"], agent=spec, seed=1)
    assert result["type"] == "result", result
    assert result["stats"]["simulations"] == simulations
    assert visits(result) == simulations
    assert result["stats"]["stopped_by"] is None
    assert result["limits"]["simulations"] == simulations
    assert result["limits"]["time"] == ServerCaps().time  # the ceiling, not the budget
    assert result["notes"] == []


def test_a_time_budget_runs_for_its_time_not_a_simulation_cap(client: Any) -> None:
    """``mcts:time=0.5`` on Connect Four (hundreds of thousands of compiled simulations a
    second) thinks its half second: before, the 50,000-simulation cap stopped it in 0.04 s."""
    seconds = 0.5
    result = search(client, game="connect4", agent=f"mcts:time={seconds}", seed=2)
    assert result["type"] == "result", result
    assert result["stats"]["stopped_by"] == "time"  # its half second, not a simulation cap
    assert "simulations" not in result["limits"] and result["limits"]["time"] == seconds
    assert result["notes"] == []
    assert visits(result) == result["stats"]["simulations"] > 0


# --- caps that change an agent say so ------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "field", "ran", "note"),
    [
        (
            "mcts:simulations=2000",
            "simulations",
            SMALL.simulations,
            "capped at 500 simulations by the server (--max-simulations)",
        ),
        (
            "alphabeta:depth=8",
            "depth",
            SMALL.depth,
            "capped at depth 4 by the server (--max-depth)",
        ),
    ],
)
def test_a_spec_over_a_cap_runs_at_the_cap_with_a_note(
    small: Any, spec: str, field: str, ran: int, note: str
) -> None:
    result = search(small, game="tictactoe", agent=spec, seed=3)
    assert result["type"] == "result", result
    assert result["stats"][field] == ran and result["limits"][field] == ran
    assert result["notes"] == [note]


def test_a_time_over_the_cap_runs_the_cap(small: Any) -> None:
    result = search(small, game="tictactoe", agent="mcts:time=30,tier=reference", seed=4)
    assert result["type"] == "result", result
    assert result["limits"]["time"] == SMALL.time
    assert result["stats"]["stopped_by"] == "time"  # at the cap's 0.5 s, not its own 30 s
    assert result["notes"] == ["capped at 0.5 s by the server (--max-time)"]


@pytest.mark.parametrize(
    ("game", "spec", "note"),
    [
        # Connect Four's compiled tree reaches 20,000 nodes in milliseconds
        ("connect4", "mcts:time=0.5", "stopped by the server's cap of 20,000 nodes (--max-nodes)"),
        # alpha-beta with a time budget deepens up to the depth cap
        ("tictactoe", "alphabeta:time=0.4", "stopped by the server's cap of depth 4 (--max-depth)"),
    ],
)
def test_a_cap_the_agent_left_open_that_stops_it_is_noted(
    small: Any, game: str, spec: str, note: str
) -> None:
    result = search(small, game=game, agent=spec, seed=5)
    assert result["type"] == "result", result
    assert result["notes"] == [note]


def test_within_the_caps_nothing_is_noted(small: Any) -> None:
    result = search(small, game="tictactoe", agent="mcts:simulations=300", seed=6)
    assert result["type"] == "result", result
    assert result["stats"]["simulations"] == 300 and result["notes"] == []


# --- warm-up --------------------------------------------------------------------------------


def test_a_search_sent_while_the_workers_warm_up_waits_for_them() -> None:
    """The first move of the issue failed: a cold worker imported torch inside the search's
    time budget and overran it. Now the worker warms up first (torch, the shipped network,
    the kernels), and the search, sent before that ends, waits and keeps its budget: here a
    time cap of 0.5 s (stopped at 0.7 s), shorter than importing torch and loading the network
    and its kernels, and ample for 50 simulations once they are loaded."""
    caps = ServerCaps(time=0.5, grace=0.4)
    with TestClient(create_app(caps, workers=1)) as client:
        assert client.get("/api/status").json()["ready"] is False  # still warming up
        result = search(client, game="connect4", agent="az:simulations=50", seed=7)
        assert result["type"] == "result", result
        assert result["stats"]["simulations"] == 50
        assert client.get("/api/status").json()["ready"] is True


# --- the serve command's caps ---------------------------------------------------------------


def test_serve_refuses_a_bad_cap_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "searchlab", "serve", "--max-simulations", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "searchlab: error: --max-simulations expects a whole number >= 1, got '0'"
    ]


# --- memory ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_tree_at_the_nodes_cap_fits_the_memory_cap() -> None:
    """With torch loaded, a worker whose Connect Four tree reaches the nodes cap of 4,000,000
    (4 to 8 s of simulations on a 2-core machine, where a 1 s budget makes about 1,000,000)
    peaks at about 1.9 GB of its 4,096 MB address space (Othello's larger nodes: 2.7 GB,
    measured by hand). The time cap is raised so that a slow machine reaches the nodes cap."""
    caps = ServerCaps(time=60.0)
    assert (caps.nodes, caps.memory_mb) == (ServerCaps().nodes, ServerCaps().memory_mb)
    with TestClient(create_app(caps, workers=1)) as client:
        result = search(client, game="connect4", agent="mcts:time=60", seed=8)
    assert result["type"] == "result", result
    assert result["stats"]["stopped_by"] == "nodes"
    assert result["stats"]["nodes"] >= caps.nodes
    assert result["notes"] == ["stopped by the server's cap of 4,000,000 nodes (--max-nodes)"]
