"""Abuse of the lab's server: every bad request gets one clear JSON error (4xx) or a clean
stop, never a 500 and never a stuck worker.

Malformed JSON, wrong types, non-finite numbers, unknown games / agents / maps / algorithms,
illegal moves, budgets and maps over the caps, a client that disconnects mid-search, a worker
frozen mid-search (SIGSTOP: what a search stuck in native code looks like), concurrent
searches, and a short load of 10 clients on a real ``searchlab serve``. The app runs with small
caps so that the limits are reached quickly.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from searchlab.web.app import create_app
from searchlab.web.caps import ServerCaps

REPO = Path(__file__).resolve().parents[2]
# Searches that must still run when the test looks use Othello on the reference tier (about
# 2,000 simulations/s, so the 2 s budget ends them): tic-tac-toe could end before its first
# analysis event.
CAPS = ServerCaps(time=2.0, simulations=5_000, map_cells=10_000, tree_leaves=50, grace=1.0)
POST_ROUTES = (
    "/api/play/state",
    "/api/path",
    "/api/tree",
    "/api/mcts/steps",
    "/api/exercise/alphabeta/grade",
)


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(CAPS, workers=2)) as test_client:
        yield test_client
        assert test_client.get("/api/status").json()["errors_500"] == 0


def lab(client: Any) -> Any:
    return client.app.state.lab


def wait_idle(client: Any, seconds: float = 20.0) -> dict[str, Any]:
    """The server's status once no worker is busy and every worker is warm."""
    deadline = time.perf_counter() + seconds
    while True:
        status = client.get("/api/status").json()
        if (status["busy"] == 0 and status["ready"]) or time.perf_counter() > deadline:
            return status
        time.sleep(0.05)


def error_of(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return body["error"]


def start_slow_search(ws: Any, *, analysis: bool = True) -> None:
    """Start a search that is still running when the test looks (see ``CAPS``): Othello,
    reference MCTS for 2 s; it is queued, then (with ``analysis``) sends its first analysis."""
    ws.send_text(
        json.dumps({"type": "start", "game": "othello", "agent": "mcts:time=2,tier=reference"})
    )
    assert json.loads(ws.receive_text())["type"] == "queued"
    if analysis:
        assert json.loads(ws.receive_text())["type"] == "analysis"


def until_final(ws: Any) -> list[dict[str, Any]]:
    messages = []
    while True:
        message = json.loads(ws.receive_text())
        messages.append(message)
        if message["type"] in ("result", "error", "cancelled"):
            return messages


def search(client: Any, **request: Any) -> dict[str, Any]:
    with client.websocket_connect("/ws/search") as ws:
        ws.send_text(json.dumps({"type": "start", **request}))
        return until_final(ws)[-1]


# --- malformed requests -------------------------------------------------------------------


@pytest.mark.parametrize("route", POST_ROUTES)
def test_malformed_bodies_are_one_line_400s(client: Any, route: str) -> None:
    cases = {
        b"{not json": "not valid JSON",
        b"": "empty",
        b"[1, 2]": "expected a JSON object, got list",
        b'{"game": NaN, "x": Infinity}': "NaN is not a number JSON allows",
        b'{"tree": "max A: 1 2", "c": 1e999}': "1e999 is not a finite number",
    }
    for body, expected in cases.items():
        response = client.post(route, content=body, headers={"content-type": "application/json"})
        message = error_of(response)
        assert expected in message, (route, body, message)


def test_wrong_types_name_the_field(client: Any) -> None:
    assert "field 'game' must be a str" in error_of(
        client.post("/api/play/state", json={"game": 5})
    )
    assert "field 'moves' must be a list" in error_of(
        client.post("/api/play/state", json={"game": "nim", "moves": "1:1"})
    )
    assert "field 'start' must be [x, y]" in error_of(
        client.post("/api/path", json={"map": "arena", "start": [1, 2, 3], "goal": [4, 4]})
    )
    assert "'simulations' must be a whole number" in error_of(
        client.post("/api/mcts/steps", json={"game": "nim", "simulations": 2.5})
    )
    assert "missing field 'tree'" in error_of(client.post("/api/tree", json={}))
    assert "must be a label" in error_of(
        client.post("/api/play/state", json={"game": "nim", "moves": [{"a": 1}]})
    )


def test_unknown_names(client: Any) -> None:
    message = error_of(client.post("/api/play/state", json={"game": "chess"}))
    assert message.startswith("unknown game 'chess'; known games:") and "tictactoe" in message
    message = error_of(client.post("/api/play/state", json={"game": "os:system"}))
    assert message.startswith("unknown game 'os:system'")  # no module:Class over the web
    assert "unknown algorithm 'dfs'" in error_of(
        client.post(
            "/api/path", json={"map": "arena", "start": [3, 3], "goal": [4, 4], "algorithm": "dfs"}
        )
    )
    assert "unknown heuristic 'magic'" in error_of(
        client.post(
            "/api/path",
            json={"map": "arena", "start": [3, 3], "goal": [4, 4], "heuristic": "magic"},
        )
    )
    assert "unknown map 'atlantis'" in error_of(
        client.post("/api/path", json={"map": "atlantis", "start": [3, 3], "goal": [4, 4]})
    )
    assert "unknown map 'atlantis'" in error_of(client.get("/api/maps/atlantis"), 404)
    assert "no such page or API route" in error_of(client.get("/api/nothing"), 404)
    assert "is not allowed" in error_of(client.get("/api/path"), 405)
    assert "unknown algorithm 'expectimax'" in error_of(
        client.post("/api/tree", json={"tree": "max A: 1 2", "algorithm": "expectimax"})
    )
    assert "not 'connect4'" in error_of(client.post("/api/mcts/steps", json={"game": "connect4"}))
    reply = search(client, game="tictactoe", agent="superbot")
    assert reply["type"] == "error" and reply["error"].startswith("unknown agent 'superbot'")
    reply = search(client, game="tictactoe", agent="mcts:simulatons=10")
    assert reply["type"] == "error" and "unknown parameter 'simulatons'" in reply["error"]
    reply = search(client, game="tictactoe", agent="human")
    assert reply["type"] == "error" and "'human' is a person" in reply["error"]
    reply = search(client, game="go", agent="gtp:command=touch /tmp/searchlab-web-gtp")
    assert reply["type"] == "error" and "does not start external programs" in reply["error"]


def test_illegal_moves_and_positions(client: Any) -> None:
    message = error_of(
        client.post("/api/play/state", json={"game": "tictactoe", "moves": ["b2", "b2"]})
    )
    assert message == "move 2 'b2' in 'b2 b2': illegal move 'b2': the cell is taken"
    assert "'z9'" in error_of(
        client.post("/api/play/state", json={"game": "tictactoe", "moves": ["z9"]})
    )
    reply = search(client, game="connect4", moves=["4"] * 7, agent="random")
    assert reply["type"] == "error" and "move 7" in reply["error"]
    finished = ["a1", "b1", "a2", "b2", "a3"]
    reply = search(client, game="tictactoe", moves=finished, agent="random")
    assert reply["type"] == "error" and "already over" in reply["error"]
    assert "blocked" in error_of(
        client.post("/api/path", json={"rows": ["..", "@."], "start": [0, 1], "goal": [1, 1]})
    )
    assert "goal (5, 5) is off the map" in error_of(
        client.post("/api/path", json={"rows": ["..", ".."], "start": [0, 0], "goal": [5, 5]})
    )
    assert "more than a page can list" in error_of(
        client.post("/api/play/state", json={"game": "nim", "params": {"piles": [1000000]}})
    )
    assert (
        error_of(client.post("/api/play/state", json={"game": "mnk", "params": {"m": 100}}))
        == "mnk: m must be an integer in 1..26, got 100"
    )


# --- caps ---------------------------------------------------------------------------------


BAD_BUDGETS = {
    "mcts:time=inf": "time must be a finite number",
    "mcts:simulations=100000000000000000000000000000": "must be at most",
    "mcts:exact=50": "depth 50 is over the server's cap of 12",
    "mcts:simulations=-5": "must be > 0",
}
"""Budgets a search refuses (one over a cap runs at the cap, with a note: test_budgets.py)."""


@pytest.mark.parametrize(("agent", "expected"), BAD_BUDGETS.items())
def test_bad_budgets_are_refused_naming_the_fault(client: Any, agent: str, expected: str) -> None:
    reply = search(client, game="tictactoe", agent=agent)
    assert reply["type"] == "error" and expected in reply["error"], (agent, reply)


def test_requests_over_the_caps_are_refused_naming_the_cap(client: Any) -> None:
    assert "simulations must be in 1..2000" in error_of(
        client.post("/api/mcts/steps", json={"game": "nim", "simulations": 10**6})
    )
    huge = ["." * 101] * 100
    assert "10100 cells, over the server's cap of 10000" in error_of(
        client.post("/api/path", json={"rows": huge, "start": [0, 0], "goal": [1, 1]})
    )
    assert "over the server's cap of 10000" in error_of(
        client.post("/api/path", json={"map": "da2/ca_cave", "start": [0, 0], "goal": [1, 1]})
    )
    wide = "max A: " + " ".join(str(i) for i in range(60))
    assert "60 leaves, over the server's cap of 50" in error_of(
        client.post("/api/tree", json={"tree": wide})
    )
    assert "over the server's cap of 50" in error_of(
        client.get("/api/exercise/alphabeta?leaves=500")
    )
    assert "moves is over the server's cap" in error_of(
        client.post("/api/play/state", json={"game": "nim", "moves": ["1:1"] * 3000})
    )


def test_searches_keep_the_caps(client: Any) -> None:
    with client.websocket_connect("/ws/search") as ws:
        ws.send_text(json.dumps({"type": "start", "game": "tictactoe", "agent": "mcts"}))
        assert json.loads(ws.receive_text())["type"] == "queued"
        result = until_final(ws)[-1]
    limits = {"time": 2.0, "depth": 12, "nodes": CAPS.nodes, "simulations": 1000}
    assert result["limits"] == limits  # mcts's own 1,000 simulations, under the caps
    assert result["stats"]["simulations"] == 1000
    timed = search(client, game="tictactoe", agent="mcts:time=2,tier=reference", seed=1)
    assert timed["type"] == "result"
    # the budget the search ran under and why it stopped (what it reports, not seconds)
    assert timed["limits"]["time"] == CAPS.time and timed["stats"]["stopped_by"] == "time"
    deep = search(client, game="othello", agent="alphabeta:time=1")
    assert deep["type"] == "result" and deep["stats"]["depth"] <= CAPS.depth
    assert deep["limits"]["time"] == 1.0 and deep["stats"]["stopped_by"] == "time", deep


# --- stopping searches ------------------------------------------------------------------


def test_a_client_that_disconnects_frees_its_worker(client: Any) -> None:
    restarts = wait_idle(client)["restarts"]
    with client.websocket_connect("/ws/search") as ws:
        start_slow_search(ws)
    status = wait_idle(client, 1.5)  # stopped by its cancel flag, well before its 2 s
    assert status["busy"] == 0 and status["restarts"] == restarts
    assert search(client, game="tictactoe", agent="mcts:simulations=200")["type"] == "result"


def test_cancel_stops_the_search_and_the_connection_goes_on(client: Any) -> None:
    with client.websocket_connect("/ws/search") as ws:
        start_slow_search(ws, analysis=False)
        ws.send_text(json.dumps({"type": "cancel"}))
        messages = until_final(ws)
        assert messages[-1]["type"] == "cancelled"
        ws.send_text(json.dumps({"type": "start", "game": "nim", "agent": "random"}))
        assert until_final(ws)[-1]["type"] == "result"
    assert wait_idle(client, 1.5)["busy"] == 0


def test_a_frozen_worker_is_killed_and_replaced(client: Any) -> None:
    """SIGSTOP freezes the worker mid-search, as a search stuck in native code would be: the
    watchdog kills it at the time cap plus the grace, the client gets one error line, a fresh
    worker takes its place."""
    restarts = wait_idle(client)["restarts"]
    with client.websocket_connect("/ws/search") as ws:
        start_slow_search(ws)
        busy = [w for w in lab(client).searches.workers if w.job is not None]
        assert len(busy) == 1
        os.kill(busy[0].process.pid, signal.SIGSTOP)
        final = until_final(ws)[-1]
    assert final == {
        "type": "error",
        "error": "the search was stopped: it overran its time cap (2 s)",
    }
    status = wait_idle(client)
    assert status["restarts"] == restarts + 1 and status["workers"] == 2
    assert search(client, game="tictactoe", agent="mcts:simulations=100")["type"] == "result"


def test_a_frozen_worker_that_was_cancelled_is_replaced(client: Any) -> None:
    restarts = wait_idle(client)["restarts"]
    with client.websocket_connect("/ws/search") as ws:
        start_slow_search(ws)
        busy = [w for w in lab(client).searches.workers if w.job is not None]
        os.kill(busy[0].process.pid, signal.SIGSTOP)
        ws.send_text(json.dumps({"type": "cancel"}))
        assert until_final(ws)[-1]["type"] == "cancelled"
    status = wait_idle(client)
    assert status["restarts"] == restarts + 1 and status["busy"] == 0


def test_searches_run_side_by_side_and_per_connection_caps_hold(client: Any) -> None:
    wait_idle(client)
    with client.websocket_connect("/ws/search") as ws:
        for ident in (1, 2, 3):
            ws.send_text(
                json.dumps(
                    {
                        "type": "start",
                        "game": "othello",
                        "id": ident,
                        "agent": "mcts:time=2,tier=reference",
                    }
                )
            )
        replies = [json.loads(ws.receive_text()) for _ in range(3)]
        refused = [m for m in replies if m["type"] == "error"]
        assert len(refused) == 1 and refused[0]["id"] == 3
        assert "already runs 2 searches (the server's cap is 2)" in refused[0]["error"]
        # both workers search; a third client's request waits in the queue, not refused
        assert lab(client).searches.busy == 2
        ws.send_text(json.dumps({"type": "cancel"}))
    assert wait_idle(client, 3)["busy"] == 0
    with client.websocket_connect("/ws/search") as ws:
        start_slow_search(ws)
        path = client.post("/api/path", json={"map": "arena", "start": [3, 3], "goal": [45, 45]})
        assert path.status_code == 200  # answered by the other worker during the search
        assert lab(client).searches.busy >= 1
        last = until_final(ws)[-1]
        assert last["type"] == "result"


def test_odd_websocket_messages(client: Any) -> None:
    with client.websocket_connect("/ws/search") as ws:
        ws.send_bytes(b"\x00\x01")
        assert json.loads(ws.receive_text()) == {
            "type": "error",
            "error": "send JSON text messages",
        }
        ws.send_text("{oops")
        assert json.loads(ws.receive_text())["error"].startswith("the request body is not valid")
        ws.send_text("[1]")
        assert "JSON object" in json.loads(ws.receive_text())["error"]
        ws.send_text(json.dumps({"type": "dance"}))
        assert "unknown message type 'dance'" in json.loads(ws.receive_text())["error"]
        ws.send_text(json.dumps({"type": "start", "game": "nim", "agent": "random", "seed": -1}))
        assert "seed must be" in json.loads(ws.receive_text())["error"]
        ws.send_text(json.dumps({"type": "start", "game": "nim", "agent": "random"}))
        assert until_final(ws)[-1]["type"] == "result"


# --- load ---------------------------------------------------------------------------------


def _load_module() -> Any:
    spec = importlib.util.spec_from_file_location("web_load", REPO / "benchmarks" / "web_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["web_load"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def wait_ready(url: str, seconds: float = 600.0) -> None:
    """Wait until the server at ``url`` says its workers are warm (on an empty numba cache
    they compile first, in turn with any other warm-up on this machine: minutes)."""
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        with urllib.request.urlopen(url.rstrip("/") + "/api/status", timeout=10) as answer:
            if json.load(answer)["ready"]:
                return
        assert time.monotonic() < deadline, f"the workers were not warm within {seconds:.0f} s"
        time.sleep(0.25)


def test_ten_clients_for_five_seconds_on_a_real_server() -> None:
    web_load = _load_module()
    process, url = web_load.start_server(2)
    try:
        wait_ready(url)  # the load measures the searches, not the workers' warm-up
        tally, status = asyncio.run(web_load.run_load(url, 10, 5.0))
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    summary = web_load.report(tally, status, 10, 5.0)
    assert tally.server_errors == [], summary
    assert tally.over_cap == [], summary
    assert tally.stopped == [], summary
    assert tally.client_errors == [], summary
    assert status["errors_500"] == 0 and status["restarts"] == 0, summary
    assert tally.searches > 0 and tally.paths > 0 and tally.views > 0, summary


def test_the_load_benchmark_runs_as_a_script() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "web_load.py"),
            "--clients",
            "2",
            "--seconds",
            "1",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "server errors 0" in done.stdout
