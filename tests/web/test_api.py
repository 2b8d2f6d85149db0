"""The lab's HTTP and websocket API against the real app (FastAPI's TestClient runs its
lifespan: real worker processes), and one real ``searchlab serve`` process on a free port.

Answers are checked against the library and the command line: the path counters equal
``searchlab path --json`` and the library call on a Moving AI query, the tree's pruned nodes
equal ``alphabeta_trace``, the MCTS steps' event counts equal a ``TraceRecorder`` on the same
seeded run, a view's cell for each action is the square that the move fills.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_main
from fastapi.testclient import TestClient

from searchlab.agents import agent_kinds
from searchlab.algorithms.adversarial.alphabeta import alphabeta_trace
from searchlab.algorithms.mcts import MCTS
from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.registry import accepted_names
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games import game_names, make
from searchlab.domains.games.explicit_tree import ExplicitTreeGame, load_tree
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.movingai import load_map, load_scenarios
from searchlab.web.app import create_app
from searchlab.web.models import PATH_HEURISTICS

REPO = Path(__file__).resolve().parents[2]
ARENA = REPO / "examples" / "maps" / "arena.map"
AIMA_TREE = REPO / "examples" / "trees" / "aima_fig5_2.tree"


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(workers=2)) as test_client:
        yield test_client
        status = test_client.get("/api/status").json()
        assert status["errors_500"] == 0


def ws_search(client: Any, message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every message of one search, up to its result or error."""
    messages = []
    with client.websocket_connect("/ws/search") as ws:
        ws.send_text(json.dumps({"type": "start", **message}))
        while True:
            reply = json.loads(ws.receive_text())
            messages.append(reply)
            if reply["type"] in ("result", "error"):
                return messages


# --- pages, games, agents ------------------------------------------------------------------


def test_index_and_static_files_are_served(client: Any) -> None:
    index = client.get("/")
    assert index.status_code == 200
    assert index.headers["content-type"].startswith("text/html")
    assert "<nav" in index.text
    assert client.get("/static/style.css").status_code == 200


class PageFrame(HTMLParser):
    """What a page's frame holds: its title, the nav's links (data-testid, href, text, whether
    aria-current), its stylesheets, its scripts, how many top bars and status lines it has."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.title = ""
        self.nav: list[tuple[str, str, str, bool]] = []
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self.headers = self.statuses = 0
        self._in: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "title":
            self._in = "title"
        elif tag == "header":
            self.headers += 1
        elif tag == "a" and (a.get("data-testid") or "").startswith("nav-"):
            current = a.get("aria-current") == "page"
            self.nav.append((a["data-testid"] or "", a.get("href") or "", "", current))
            self._in = "nav"
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.styles.append(a.get("href") or "")
        elif tag == "script":
            self.scripts.append(a.get("src") or "inline")
        if a.get("data-testid") == "status":
            self.statuses += 1

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self.title += data
        elif self._in == "nav":
            testid, href, text, current = self.nav[-1]
            self.nav[-1] = (testid, href, text + data, current)


@pytest.mark.parametrize(
    ("route", "name", "title", "styles"),
    [
        ("/", "index", "searchlab", []),
        ("/play", "play", "Play · searchlab", ["play.css"]),
        ("/path", "path", "Path · searchlab", ["astar_exercise.css"]),
        ("/trees", "trees", "Trees · searchlab", ["trees.css", "astar_exercise.css"]),
        ("/mcts", "mcts", "Monte Carlo · searchlab", ["mcts.css"]),
    ],
)
def test_every_page_has_the_one_frame_with_its_own_lab_marked(
    client: Any, route: str, name: str, title: str, styles: list[str]
) -> None:
    answer = client.get(route)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    frame = PageFrame(answer.text)
    assert frame.title == title
    assert frame.headers == 1 and frame.statuses == 1
    expected_nav = [
        ("nav-play", "/play", "Play", name == "play"),
        ("nav-path", "/path", "Path", name == "path"),
        ("nav-trees", "/trees", "Trees", name == "trees"),
        ("nav-mcts", "/mcts", "Monte Carlo", name == "mcts"),
    ]
    assert frame.nav == expected_nav
    assert frame.styles == ["/static/style.css", *(f"/static/{css}" for css in styles)]
    assert frame.scripts == (["inline"] if name == "index" else [f"/static/{name}.js"])
    for asset in frame.styles + [src for src in frame.scripts if src != "inline"]:
        assert client.get(asset).status_code == 200, asset


def test_the_path_lab_offers_the_servers_heuristics_in_both_searches(client: Any) -> None:
    text = client.get("/path").text
    for select in ("heuristic", "heuristic-2"):
        body = re.search(
            rf'<select data-testid="{select}" id="{select}">(.*?)</select>', text, re.S
        )
        assert body, select
        assert re.findall(r'<option value="(\w+)">\1</option>', body.group(1)) == list(
            PATH_HEURISTICS
        )
    for suffix in ("", "-2"):  # the two run views' counters, as the browser tests find them
        for counter in ("expanded", "generated", "reopened", "cost", "grid", "progress"):
            assert text.count(f'data-testid="{counter}{suffix}"') == 1, counter + suffix


def test_a_missing_page_template_is_a_404_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from searchlab.web import app as web_app

    (tmp_path / "base.html").write_text("{% block main %}{% endblock %}")
    monkeypatch.setattr(web_app, "TEMPLATES", tmp_path)
    answer = TestClient(create_app(workers=1)).get("/play")  # no lifespan: no workers start
    assert answer.status_code == 404
    assert answer.json() == {"error": "page not available: play.html is missing"}


def test_the_package_data_ships_every_page_file() -> None:
    """A fresh ``pip install .`` carries what the server reads: every file under web/static and
    web/templates matches one of the package-data patterns of pyproject.toml."""
    with open(REPO / "pyproject.toml", "rb") as file:
        patterns = tomllib.load(file)["tool"]["setuptools"]["package-data"]["searchlab"]
    package = REPO / "src" / "searchlab"
    files = [
        path.relative_to(package).as_posix()
        for folder in ("web/static", "web/templates")
        for path in (package / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    assert any(name.endswith("base.html") for name in files)
    unshipped = [name for name in files if not any(fnmatch(name, p) for p in patterns)]
    assert unshipped == []


def test_games_and_agents_list_the_registries(client: Any) -> None:
    games = client.get("/api/games").json()
    assert [game["name"] for game in games] == game_names()
    nim = next(game for game in games if game["name"] == "nim")
    assert nim["params"]["piles"] == [3, 4, 5]
    agents = client.get("/api/agents").json()
    assert [agent["kind"] for agent in agents] == agent_kinds()
    mcts = next(agent for agent in agents if agent["kind"] == "mcts")
    assert "simulations" in [param["name"] for param in mcts["params"]]
    az = next(agent for agent in agents if agent["kind"] == "az")
    assert az["help"]


def test_the_agent_list_does_not_import_the_learning_layer() -> None:
    # a fresh interpreter: listing the lazy kinds (az, policy, alphago) must not load torch,
    # which would stall the server's event loop for seconds (and fail without the extra)
    code = (
        "import sys\n"
        "from fastapi.testclient import TestClient\n"
        "from searchlab.web.app import create_app\n"
        "with TestClient(create_app(workers=1)) as client:\n"
        "    kinds = {a['kind']: a for a in client.get('/api/agents').json()}\n"
        "assert kinds['az']['params'] == [] and kinds['az']['help'], kinds['az']\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr


# --- views ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "params", "moves"),
    [
        ("tictactoe", {}, ["b2", "a1"]),
        ("mnk", {"m": 4, "n": 5, "k": 3}, ["b2"]),
        ("connect4", {}, ["4", "4", "3"]),
        ("othello", {}, ["d3"]),
        ("gomoku", {"size": 9}, ["e5"]),
    ],
)
def test_each_cell_of_a_view_is_the_square_its_move_fills(
    client: Any, game: str, params: dict[str, Any], moves: list[str]
) -> None:
    view = client.post("/api/play/state", json={"game": game, "params": params, "moves": moves})
    assert view.status_code == 200, view.text
    view = view.json()
    assert view["moves"] == moves and view["to_move"] == len(moves) % 2
    assert view["grid"]["rows"] == len(view["grid"]["cells"])
    for entry in view["legal"][:12]:
        row, col = entry["cell"]
        assert view["grid"]["cells"][row][col] == "."
        after = client.post(
            "/api/play/state",
            json={"game": game, "params": params, "moves": [*moves, entry["label"]]},
        ).json()
        assert after["grid"]["cells"][row][col] != ".", (game, entry)


def test_connect4_view_maps_every_cell_of_a_column_to_the_drop(client: Any) -> None:
    view = client.post("/api/play/state", json={"game": "connect4", "moves": ["4"]}).json()
    column_four = next(entry for entry in view["legal"] if entry["label"] == "4")
    assert column_four["cell"] == [4, 3]
    assert column_four["cells"] == [[row, 3] for row in range(6)]


def test_cell_less_games_have_buttons_and_a_finished_game_its_result(client: Any) -> None:
    nim = client.post("/api/play/state", json={"game": "nim", "params": {"piles": [1, 2]}})
    nim = nim.json()
    assert nim["grid"] is None
    assert [entry["label"] for entry in nim["legal"]] == ["1:1", "2:1", "2:2"]
    assert all(entry["cell"] is None for entry in nim["legal"])
    snake = client.post(
        "/api/play/state", json={"game": "snakego", "params": {"size": 8, "rounds": 20}}
    ).json()
    assert snake["grid"]["rows"] == 8 and snake["grid"]["cells"][0][0] == "A"
    assert all(entry["cell"] is None for entry in snake["legal"])
    draw = ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]
    over = client.post("/api/play/state", json={"game": "tictactoe", "moves": draw}).json()
    assert over["terminal"] and over["result"] == "draw" and over["legal"] == []
    won = client.post(
        "/api/play/state", json={"game": "tictactoe", "moves": ["a1", "b1", "a2", "b2", "a3"]}
    ).json()
    assert won["result"] == "first (X) wins" and won["returns"] == [1.0, -1.0]  # as `play` names X


# --- the live search ----------------------------------------------------------------------


def test_mcts_search_streams_growing_root_statistics(client: Any) -> None:
    """The reference tier's root statistics arrive about every 0.2 s while it searches: one
    second of Connect Four (a time budget, which no simulation cap cuts short)."""
    messages = ws_search(
        client,
        {
            "game": "connect4",
            "moves": ["4"],
            "agent": "mcts:time=1,tier=reference",
            "seed": 3,
            "id": "m1",
        },
    )
    assert messages[0]["type"] == "queued" and messages[0]["id"] == "m1"
    analyses = [m for m in messages if m["type"] == "analysis"]
    result = messages[-1]
    assert result["type"] == "result", result
    assert result["stats"]["stopped_by"] == "time", result["stats"]
    assert len(analyses) >= 2
    counts = [m["simulations"] for m in analyses]
    assert counts == sorted(counts) and counts[-1] > 0
    last = analyses[-1]["moves"]
    assert sum(row["visits"] for row in last) == analyses[-1]["simulations"]
    assert {row["label"] for row in last} == {str(column) for column in range(1, 8)}
    assert result["label"] in {row["label"] for row in result["moves"]}
    assert result["view"]["moves"] == ["4", result["label"]]
    assert result["stats"]["simulations"] >= counts[-1]


def test_compiled_mcts_streams_growing_root_statistics_too(client: Any) -> None:
    """The compiled tier's root statistics arrive live as well (the searcher's snapshot,
    read between kernel slices). Snake Go with the informed rollouts runs about 1,500
    compiled simulations a second."""
    messages = ws_search(
        client,
        {
            "game": "snakego",
            "params": {"size": 16, "rounds": 512},
            "agent": "mcts:time=1,rollout=informed",
            "seed": 3,
        },
    )
    result = messages[-1]
    assert result["type"] == "result", result
    assert result["stats"]["tier"] == "compiled"
    analyses = [m for m in messages if m["type"] == "analysis" and m["simulations"]]
    assert len(analyses) >= 2
    counts = [m["simulations"] for m in analyses]
    assert counts == sorted(counts)
    for message in analyses:
        assert sum(row["visits"] for row in message["moves"]) == message["simulations"]
    assert result["stats"]["simulations"] >= counts[-1]


def test_alphabeta_search_reports_each_iteration(client: Any) -> None:
    messages = ws_search(
        client, {"game": "connect4", "moves": ["4", "4"], "agent": "alphabeta:depth=5"}
    )
    depths = [m["depth"] for m in messages if m["type"] == "analysis"]
    assert depths == [1, 2, 3, 4, 5]
    result = messages[-1]
    assert result["type"] == "result" and result["stats"]["depth"] == 5
    assert result["pv"][0] == result["label"]


def test_compiled_mcts_result_has_the_root_children(client: Any) -> None:
    messages = ws_search(client, {"game": "connect4", "agent": "mcts:simulations=2000"})
    result = messages[-1]
    assert result["type"] == "result", result
    assert result["stats"]["tier"] == "compiled" and result["stats"]["simulations"] == 2000
    assert sum(row["visits"] for row in result["moves"]) == 2000
    assert len(result["moves"]) == 7


# --- the Path lab -------------------------------------------------------------------------


def _cli_path(
    map_file: Path, start: tuple[int, int], goal: tuple[int, int], algorithm: str
) -> dict:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "searchlab",
            "path",
            str(map_file),
            "--from",
            f"{start[0]},{start[1]}",
            "--to",
            f"{goal[0]},{goal[1]}",
            "--algorithm",
            algorithm,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_path_counters_equal_the_command_line(client: Any) -> None:
    for algorithm in ("astar", "jps"):
        answer = client.post(
            "/api/path",
            json={"map": "arena", "start": [3, 3], "goal": [45, 45], "algorithm": algorithm},
        ).json()
        cli = _cli_path(ARENA, (3, 3), (45, 45), algorithm)
        assert answer["expanded"] == cli["expanded"]
        assert answer["generated"] == cli["generated"]
        assert answer["cost"] == pytest.approx(cli["cost"])
        assert [e[0] for e in answer["events"]].count("expand") == answer["expanded"]
        assert answer["events_truncated"] is False
        assert answer["path"][0] == [3, 3] and answer["path"][-1] == [45, 45]


def test_path_counters_equal_the_library_on_a_moving_ai_query(
    client: Any, shared_data: Path
) -> None:
    root = shared_data / "grid_movingai"
    grid = load_map(root / "maps" / "da2" / "ca_cave.map")
    scenario = load_scenarios(root / "scenarios" / "da2" / "ca_cave.map.scen")[-1]
    problem = GridProblem(grid, scenario.start, scenario.goal)
    for algorithm, search in (("astar", best_first.astar), ("dijkstra", best_first.dijkstra)):
        expected = search(problem)
        answer = client.post(
            "/api/path",
            json={
                "map": "da2/ca_cave",
                "start": list(scenario.start),
                "goal": list(scenario.goal),
                "algorithm": algorithm,
            },
        ).json()
        assert answer["status"] == "solved"
        assert (answer["expanded"], answer["generated"], answer["reopened"]) == (
            expected.expanded,
            expected.generated,
            expected.reopened,
        )
        assert answer["cost"] == pytest.approx(scenario.optimal_length, abs=0.01)
    maps = {entry["name"]: entry for entry in client.get("/api/maps").json()}
    assert maps["da2/ca_cave"]["width"] == 183 and maps["arena"]["height"] == 49
    rows = client.get("/api/maps/da2/ca_cave").json()
    assert rows["rows"] == grid.to_strings()
    assert rows["scenarios"][0]["optimal"] == pytest.approx(
        load_scenarios(root / "scenarios" / "da2" / "ca_cave.map.scen")[0].optimal_length
    )


def test_every_path_algorithm_on_a_drawn_map(client: Any) -> None:
    rows = ["......", ".@@@@.", "......", ".@@@@.", "......"]
    costs = {}
    for algorithm in (
        "astar",
        "weighted_astar",
        "dijkstra",
        "bfs",
        "greedy",
        "jps",
        "bidirectional",
        "idastar",
    ):
        answer = client.post(
            "/api/path",
            json={
                "rows": rows,
                "start": [0, 0],
                "goal": [5, 4],
                "algorithm": algorithm,
                "heuristic": "euclidean",
                "weight": 1.5,
            },
        )
        assert answer.status_code == 200, answer.text
        costs[algorithm] = answer.json()["cost"]
    optimal = costs["dijkstra"]
    for algorithm in ("astar", "jps", "bidirectional", "idastar"):
        assert costs[algorithm] == pytest.approx(optimal)
    assert costs["weighted_astar"] <= 1.5 * optimal + 1e-9


def test_the_command_line_and_the_lab_take_the_same_algorithm_names(
    client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both read the registry: every name and alias runs on both, as the same algorithm, and a
    name that is not one (even a library function's) is the same one line on both."""
    query = {"map": "arena", "start": [3, 3], "goal": [9, 7]}
    cli_query = [str(ARENA), "--from", "3,3", "--to", "9,7", "--json"]
    for name in accepted_names():
        code, out, err = run_main(capsys, "path", *cli_query, "--algorithm", name)
        assert code == 0, err
        answer = client.post("/api/path", json={**query, "algorithm": name, "events": False})
        assert answer.status_code == 200, answer.text
        assert answer.json()["algorithm"] == json.loads(out)["algorithm"]
        assert answer.json()["cost"] == pytest.approx(json.loads(out)["cost"])
    for name in ("dfs", "uniform_cost_search", "breadth_first_search", "WASTAR"):
        code, out, err = run_main(capsys, "path", *cli_query, "--algorithm", name)
        answer = client.post("/api/path", json={**query, "algorithm": name})
        assert (code, answer.status_code) == (2, 400)
        assert err == f"searchlab: error: {answer.json()['error']}\n"
        assert answer.json()["error"].startswith(f"unknown algorithm {name!r}: expected one of")


# --- the Trees lab -------------------------------------------------------------------------


def test_tree_steps_come_from_the_alphabeta_events(client: Any) -> None:
    text = AIMA_TREE.read_text()
    answer = client.post("/api/tree", json={"tree": text, "algorithm": "alphabeta"}).json()
    game = ExplicitTreeGame(load_tree(AIMA_TREE))
    trace = alphabeta_trace(game)
    assert answer["value"] == 3 and answer["best"] == "B"
    assert answer["pruned"] == [name for entry in trace for name in entry.pruned]
    visits = [step for step in answer["steps"] if step["kind"] == "visit"]
    assert [step["node"] for step in visits] == [entry.name for entry in trace]
    assert [(s["alpha"], s["beta"]) for s in visits][:2] == [("-inf", "inf"), ("-inf", "inf")]
    prune = next(step for step in answer["steps"] if step["kind"] == "prune")
    assert prune["node"] == "C" and prune["pruned"] == ["c2", "c3"]
    assert answer["root"]["player"] == "max" and answer["root"]["children"][0]["player"] == "min"
    minimax = client.post("/api/tree", json={"tree": text, "algorithm": "minimax"}).json()
    assert minimax["value"] == 3 and minimax["pruned"] == []


# --- the Monte Carlo lab ------------------------------------------------------------------


def test_mcts_steps_counts_equal_the_trace_recorder(client: Any) -> None:
    request = {"game": "tictactoe", "moves": ["b2", "a1"], "simulations": 60, "c": 1.2, "seed": 5}
    answer = client.post("/api/mcts/steps", json=request).json()
    recorder = TraceRecorder()
    game = make("tictactoe")
    from searchlab.core.game import play

    state = play(game.initial_state(), ["b2", "a1"])
    MCTS(game, seed=5, observer=recorder, c=1.2, tier="reference").search(
        state, Limits(simulations=60)
    )
    assert answer["events"] == dict(recorder.counts())
    assert len(answer["simulations"]) == 60 == recorder.count("playout")
    assert sum(len(s["select"]) for s in answer["simulations"]) == recorder.count("select")
    assert sum(len(s["backup"]) for s in answer["simulations"]) == recorder.count("backup")
    first = answer["simulations"][0]
    assert first["expand"] is not None and first["backup"][-1]["path"] == []
    assert answer["tree"]["visits"] == 60
    assert sum(child["visits"] for child in answer["tree"]["children"]) == 60


# --- exercises ---------------------------------------------------------------------------


def test_alphabeta_exercise_graded_with_one_mistake(client: Any) -> None:
    query = "depth=4&branching=3&leaves=20&values=-9..9&min_cuts=3&seed=11"
    exercise = client.get(f"/api/exercise/alphabeta?{query}")
    assert exercise.status_code == 200, exercise.text
    key = exercise.json()["key"]
    values = {node["name"]: node["value"] for node in key["nodes"] if node["kind"] != "leaf"}
    settings = {
        "depth": 4,
        "branching": 3,
        "leaves": 20,
        "values": "-9..9",
        "min_cuts": 3,
        "seed": 11,
    }
    right = {"values": values, "cuts": key["pruned"]}
    graded = client.post("/api/exercise/alphabeta/grade", json={**settings, "marks": right})
    assert graded.json()["correct"] is True
    wrong_node = next(name for name in values if name != "A")
    wrong = {"values": {**values, wrong_node: values[wrong_node] + 1}, "cuts": key["pruned"]}
    graded = client.post("/api/exercise/alphabeta/grade", json={**settings, "marks": wrong})
    verdict = graded.json()
    assert verdict["correct"] is False and verdict["first_mistake"]["node"] == wrong_node
    astar = client.get("/api/exercise/astar?nodes=5&seed=2&consistent=true").json()
    assert astar["start"] == "S" and astar["goal"] == "T" and astar["is_consistent"]


# --- a real server ------------------------------------------------------------------------


def _start_server(*extra: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "searchlab", "serve", "--port", "0", "--workers", "1", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise AssertionError(f"no URL from searchlab serve: {line!r} {process.stderr.read()}")
    return process, line.split()[2]


def _stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    try:  # a hang guard, not a timing: the server stops within a second or two
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, err


def test_a_real_server_serves_pages_and_a_websocket_search() -> None:
    import httpx
    import websockets

    process, url = _start_server()
    try:
        page = httpx.get(url, timeout=30)
        assert page.status_code == 200 and "<nav" in page.text

        async def search() -> list[dict[str, Any]]:
            ws_url = url.replace("http://", "ws://") + "ws/search"
            async with websockets.connect(ws_url) as ws:
                start = {
                    "type": "start",
                    "game": "tictactoe",
                    "moves": ["a1"],
                    "agent": "mcts:simulations=300",
                    "seed": 1,
                }
                await ws.send(json.dumps(start))
                messages = []
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    messages.append(message)
                    if message["type"] in ("result", "error"):
                        return messages

        messages = asyncio.run(search())
        assert messages[0]["type"] == "queued"
        assert messages[-1]["type"] == "result", messages[-1]
        assert messages[-1]["view"]["moves"][0] == "a1"
    finally:
        code, err = _stop(process)  # fails if the server has not stopped 60 s after SIGINT
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "searchlab: interrupted"


def test_serve_refuses_a_port_in_use_in_one_line() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "searchlab", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"searchlab: error: port {port} on 127.0.0.1 is already in use: stop the other "
        "server or pick another with --port"
    )


def test_serve_warns_when_listening_beyond_this_machine() -> None:
    process, _ = _start_server("--host", "0.0.0.0")
    code, err = _stop(process)
    assert err.splitlines()[0].startswith("searchlab serve: warning: listening on 0.0.0.0")
    assert code == 130


def test_serve_without_the_web_extra_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from searchlab.cli.main import main

    for module in ("fastapi", "uvicorn"):
        monkeypatch.setitem(sys.modules, module, None)
    for module in [name for name in sys.modules if name.startswith("searchlab.web")]:
        monkeypatch.delitem(sys.modules, module)
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith(
        "needs the web extra (uvicorn is not installed): pip install 'searchlab[web]'"
    )
    assert len(err.strip().splitlines()) == 1
