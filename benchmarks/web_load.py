"""Load on the browser lab's server: many clients playing games and running path searches.

  python benchmarks/web_load.py                         (50 clients, 60 s, its own server)
  python benchmarks/web_load.py --clients 10 --seconds 5
  python benchmarks/web_load.py --url http://127.0.0.1:8765/

Each client is one user: it plays tic-tac-toe and Connect Four against small-budget agents
(a move of its own through ``POST /api/play/state``, the agent's through the ``/ws/search``
websocket, its analysis read as it streams) and, every third step, runs a path search on a
bundled map (``POST /api/path``). Without ``--url`` the script starts ``searchlab serve`` on a
free port and stops it at the end.

It reports the requests made, the server errors (HTTP 5xx, a websocket error that is not the
client's fault, a dropped connection), whether every search stayed within the budget the
server ran it under (its result's ``limits``: elapsed <= time + 0.5 s, simulations <= the cap),
and the time from sending a search to its first analysis event (p50, p95, max), queueing
included. The exit code is 0 when there was no server error and every search kept its cap.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

AGENTS = (
    "mcts:simulations=300",
    "mcts:time=0.3,tier=reference",
    "alphabeta:depth=3",
    "alphabeta:time=0.3",
    "random",
)
GAMES = ("tictactoe", "connect4")
PATHS = (
    ("arena", [3, 3], [45, 45], "astar"),
    ("arena", [1, 10], [40, 30], "jps"),
    ("den312d", [59, 5], [63, 76], "astar"),
    ("arena", [5, 40], [44, 4], "dijkstra"),
)
MARGIN = 0.5  # seconds a search may run past its announced time budget


@dataclass
class Tally:
    """What the clients saw."""

    requests: int = 0
    searches: int = 0
    paths: int = 0
    views: int = 0
    server_errors: list[str] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    over_cap: list[str] = field(default_factory=list)
    first_analysis: list[float] = field(default_factory=list)
    first_event: list[float] = field(default_factory=list)
    search_seconds: list[float] = field(default_factory=list)


async def _search(url: str, request: dict[str, Any], tally: Tally) -> dict[str, Any] | None:
    ws_url = url.replace("http://", "ws://") + "ws/search"
    began = time.perf_counter()
    tally.requests += 1
    tally.searches += 1
    seen_analysis = seen_event = False
    try:
        async with websockets.connect(ws_url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "start", **request}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                kind = message["type"]
                now = time.perf_counter() - began
                if kind == "queued":
                    continue
                if not seen_event:
                    seen_event = True
                    tally.first_event.append(now)
                if kind == "analysis" and not seen_analysis:
                    seen_analysis = True
                    tally.first_analysis.append(now)
                if kind == "error":
                    line = f"search {request['agent']}: {message['error']}"
                    if "stopped" in message["error"]:  # by the server's cap: counted apart
                        tally.stopped.append(line)
                    else:
                        tally.server_errors.append(line)
                    return None
                if kind == "result":
                    stats, limits = message["stats"], message["limits"]
                    tally.search_seconds.append(stats["elapsed"])
                    if stats["elapsed"] > limits.get("time", 0) + MARGIN:
                        tally.over_cap.append(f"{request['agent']}: {stats['elapsed']:.3f} s")
                    cap = limits.get("simulations")
                    if cap is not None and (stats.get("simulations") or 0) > cap:
                        tally.over_cap.append(f"{request['agent']}: {stats['simulations']} sims")
                    return message  # type: ignore[no-any-return]
    except (TimeoutError, OSError, websockets.WebSocketException) as error:
        tally.server_errors.append(f"search {request['agent']}: {type(error).__name__} {error}")
        return None


async def _post(client: httpx.AsyncClient, route: str, body: dict[str, Any], tally: Tally) -> Any:
    tally.requests += 1
    try:
        response = await client.post(route, json=body, timeout=60)
    except httpx.HTTPError as error:
        tally.server_errors.append(f"{route}: {type(error).__name__} {error}")
        return None
    if response.status_code >= 500:
        tally.server_errors.append(f"{route}: {response.status_code} {response.text[:200]}")
        return None
    if response.status_code >= 400:
        tally.client_errors.append(f"{route}: {response.status_code} {response.text[:200]}")
        return None
    return response.json()


async def _client(url: str, number: int, deadline: float, tally: Tally) -> None:
    rng = random.Random(number)
    async with httpx.AsyncClient(base_url=url) as client:
        game, moves, view = rng.choice(GAMES), [], None
        step = 0
        while time.perf_counter() < deadline:
            step += 1
            if step % 3 == 0:
                name, start, goal, algorithm = rng.choice(PATHS)
                body = {"map": name, "start": start, "goal": goal, "algorithm": algorithm}
                if await _post(client, "/api/path", body, tally) is not None:
                    tally.paths += 1
                continue
            if view is None or view["terminal"]:
                game, moves = rng.choice(GAMES), []
                view = await _post(client, "/api/play/state", {"game": game, "moves": []}, tally)
                tally.views += 1
                if view is None:
                    await asyncio.sleep(0.1)
                    continue
            if rng.random() < 0.5:  # the user's own move
                label = rng.choice(view["legal"])["label"]
                body = {"game": game, "moves": [*moves, label]}
                answer = await _post(client, "/api/play/state", body, tally)
                tally.views += 1
                if answer is not None:
                    view, moves = answer, answer["moves"]
                continue
            request = {
                "game": game,
                "moves": moves,
                "agent": rng.choice(AGENTS),
                "seed": rng.randrange(1 << 30),
            }
            result = await _search(url, request, tally)
            if result is not None:
                view, moves = result["view"], result["view"]["moves"]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def run_load(url: str, clients: int, seconds: float) -> tuple[Tally, dict[str, Any]]:
    """Run ``clients`` clients against ``url`` for ``seconds``; the tally and the server's
    ``/api/status`` at the end."""
    async with httpx.AsyncClient(base_url=url) as client:
        for _ in range(600):  # the workers load the kernels after the server starts
            if (await client.get("/api/status", timeout=30)).json().get("ready"):
                break
            await asyncio.sleep(0.1)
    deadline = time.perf_counter() + seconds
    tally = Tally()
    await asyncio.gather(*(_client(url, n, deadline, tally) for n in range(clients)))
    async with httpx.AsyncClient(base_url=url) as client:
        status = (await client.get("/api/status", timeout=30)).json()
    return tally, status


def report(tally: Tally, status: dict[str, Any], clients: int, seconds: float) -> str:
    """The summary, as printed."""
    lines = [
        f"clients {clients}, duration {seconds:g} s, server workers {status['workers']}",
        f"requests {tally.requests} ({tally.searches} websocket searches, {tally.paths} path "
        f"searches, {tally.views} views); {tally.requests / seconds:.1f} requests/s",
        f"server errors {len(tally.server_errors)} (server's own count of 500s: "
        f"{status['errors_500']}; workers killed and replaced: {status['restarts']})",
        f"client errors (4xx) {len(tally.client_errors)}",
        f"searches stopped by the server for overrunning their budget {len(tally.stopped)}",
        f"searches over their cap {len(tally.over_cap)} of {len(tally.search_seconds)} "
        f"(elapsed <= time + {MARGIN} s, simulations <= cap)",
    ]
    if tally.search_seconds:
        lines.append(
            f"search time (worker): mean {statistics.fmean(tally.search_seconds):.3f} s, "
            f"max {max(tally.search_seconds):.3f} s"
        )
    for label, values in (
        ("time to first analysis event", tally.first_analysis),
        ("time to first event (analysis or result)", tally.first_event),
    ):
        lines.append(
            f"{label}: n {len(values)}, p50 {_percentile(values, 0.5):.3f} s, "
            f"p95 {_percentile(values, 0.95):.3f} s, max {max(values, default=float('nan')):.3f} s"
        )
    for title, items in (
        ("server errors", tally.server_errors),
        ("client errors", tally.client_errors),
        ("stopped", tally.stopped),
        ("over cap", tally.over_cap),
    ):
        for item in items[:10]:
            lines.append(f"  {title}: {item}")
    return "\n".join(lines)


def start_server(workers: int | None) -> tuple[subprocess.Popen[str], str]:
    """``searchlab serve`` on a free port; the process and its URL."""
    command = [sys.executable, "-m", "searchlab", "serve", "--port", "0"]
    if workers is not None:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"searchlab serve did not start: {line!r}")
    return process, line.split()[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--workers", type=int, help="workers of the server started here")
    args = parser.parse_args()
    process = None
    url = args.url
    if url is None:
        process, url = start_server(args.workers)
    url = url if url.endswith("/") else url + "/"
    try:
        tally, status = asyncio.run(run_load(url, args.clients, args.seconds))
    finally:
        if process is not None:
            process.terminate()
            process.wait(30)
    print(f"web_load: {url} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    print(report(tally, status, args.clients, args.seconds))
    ok = (
        not tally.server_errors
        and not tally.over_cap
        and not tally.stopped
        and status["errors_500"] == 0
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
