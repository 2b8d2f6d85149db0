"""The four recipes of ``docs/architecture.md`` (a new game, algorithm, agent kind and lab),
followed to the letter: every code block whose first line names a file (``# notakto.py``; a
``# notakto.py, continued`` block adds to it) is saved in an empty folder, the modules are
imported, the ``try_*.py`` scripts run, and every ``searchlab`` command of the recipes runs
there through the real command line. Then the toy game of the recipes (Notakto) is checked to
play, search, pass the conformance harness and appear in the browser lab.

Ground truth from outside the code under test: single-board Notakto is a first-player win and
the centre is the only winning first move (T. Plambeck, "Taming the wild in impartial
combinatorial games", Integers 5(1), 2005; Plambeck and Whitehead, "The secrets of Notakto",
2013); no line of three fills before the fifth mark, so the first three plies have 9 x 8 x 7 =
504 sequences.
"""

from __future__ import annotations

import importlib
import json
import runpy
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cli_support import run_main
from recipe_files import recipe_blocks, write_files

from searchlab.agents import AGENT_KINDS
from searchlab.domains.games import GAMES


def commands() -> list[list[str]]:
    """Every ``searchlab ...`` line of the recipes' shell blocks, as arguments."""
    return [
        shlex.split(line)[1:]
        for language, code in recipe_blocks()
        if language == "bash"
        for line in code.splitlines()
        if line.startswith("searchlab ")
    ]


@pytest.fixture(scope="module")
def recipes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The recipes followed: files written, modules imported, scripts run (their output)."""
    folder = tmp_path_factory.mktemp("recipes")
    names = write_files(folder)
    sys.path.insert(0, str(folder))
    kinds_before, games_before = set(AGENT_KINDS), dict(GAMES)
    modules: dict[str, ModuleType] = {}
    printed: dict[str, str] = {}
    try:
        for name in names:
            stem = name.removesuffix(".py")
            if stem.startswith("try_"):
                continue
            modules[stem] = importlib.import_module(stem)
        for name in names:
            if name.startswith("try_"):
                printed[name] = _run_script(folder / name)
        yield {"folder": folder, "names": names, "modules": modules, "printed": printed}
    finally:
        sys.path.remove(str(folder))
        for stem in [*modules, "try_notakto", "try_one_ply"]:
            sys.modules.pop(stem, None)
        for kind in set(AGENT_KINDS) - kinds_before:
            del AGENT_KINDS[kind]
        GAMES.clear()
        GAMES.update(games_before)


def _run_script(path: Path) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


def test_the_recipes_name_their_files_and_commands(recipes: dict[str, Any]) -> None:
    assert recipes["names"] == [
        "notakto.py", "try_notakto.py", "one_ply.py", "try_one_ply.py", "perft_lab.py"
    ]  # fmt: skip
    assert [args[0] for args in commands()] == ["play", "solve", "perft", "play", "arena"]


def test_the_game_recipe_solves_and_searches_notakto(recipes: dict[str, Any]) -> None:
    lines = recipes["printed"]["try_notakto.py"].splitlines()
    # Plambeck: a first-player win, the centre the only winning first move
    assert lines == ["solve: 1.0 b2", "alphabeta: 1.0", "mcts: c2"]
    notakto = recipes["modules"]["notakto"]
    import searchlab
    from searchlab.domains.games.conformance import assert_conforms

    game = notakto.Notakto()
    assert assert_conforms(game, num_playouts=50).failures == []
    root = game.initial_state()
    values = {root.action_to_string(a): searchlab.solve(game, root.apply(a)).value for a in
              root.legal_actions()}  # fmt: skip
    assert [label for label, value in values.items() if value == -1.0] == ["b2"]


def test_the_commands_of_the_recipes_run(
    recipes: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(recipes["folder"])
    outputs = []
    for args in commands():
        code, out, err = run_main(capsys, *args)
        assert code == 0, f"searchlab {' '.join(args)}: {err}"
        outputs.append(out)
    play_mcts, solve, perft, play_careful, arena = outputs
    assert "game over after" in play_mcts and "mcts:simulations=50 plays" in play_mcts
    assert "win in 6 plies; best move b2" in solve  # Plambeck: the centre, and only it
    assert "b2=+1" in solve and solve.count("=-1") == 8
    assert "504" in perft
    assert "careful plays" in play_careful and "game over after" in play_careful
    assert "played 12 of 12" in arena and "careful:ties=first" in arena


def test_the_algorithm_recipe_runs_both_tiers(recipes: dict[str, Any]) -> None:
    assert recipes["printed"]["try_one_ply.py"].strip() == "one_ply: c2 0.0"
    from searchlab.algorithms.kernels import KERNELS
    from searchlab.core.errors import InvalidParameterError
    from searchlab.core.game import play

    one_ply = recipes["modules"]["one_ply"].one_ply
    notakto = recipes["modules"]["notakto"].Notakto
    assert notakto in KERNELS.domains("one_ply")
    game = notakto()
    # every position of the first three plies: the two tiers agree move for move
    states = [game.initial_state()]
    for _ in range(3):
        states += [s.apply(a) for s in states[-9:] for a in s.legal_actions()][:40]
    for state in states:
        compiled, reference = one_ply(game, state), one_ply(game, state, tier="reference")
        # a finished game (three marks in a line) is the reference tier's case, by the recipe
        assert compiled.tier == ("reference" if state.is_terminal() else "compiled")
        assert (compiled.action, compiled.value) == (reference.action, reference.value)
    # a position where every free cell but c2 completes a line: one ply sees it
    near_end = play(game.initial_state(), ["a3", "b3", "a1", "b1"])
    assert near_end.action_to_string(one_ply(game, near_end).action) == "c2"
    from searchlab.games import make

    with pytest.raises(InvalidParameterError, match="no compiled tier"):
        one_ply(make("tictactoe"), tier="compiled")  # no kernel registered for it


def test_the_agent_recipe_registers_a_kind(recipes: dict[str, Any]) -> None:
    from searchlab.agents import make_agent
    from searchlab.agents.match import play_game

    game = recipes["modules"]["notakto"].Notakto()
    assert "careful" in AGENT_KINDS and AGENT_KINDS.lookup("careful").params["ties"].choices
    for seed in range(6):
        careful = make_agent("careful", game, seed=seed)
        played = play_game(game, [careful, make_agent("random", game, seed=seed)])
        state = game.initial_state()
        for move in played.moves:
            if move.mover == 0:  # careful never completes a line when a free cell does not
                safe = [a for a in state.legal_actions() if not state.apply(a).is_terminal()]
                assert not safe or move.action in safe
            state = state.apply(move.action)


def test_the_game_appears_in_the_web_lab(recipes: dict[str, Any]) -> None:
    """``create_app(games=...)`` (``searchlab serve --game notakto.py:Notakto``): listed by
    ``GET /api/games``, viewed, and searched by a worker process."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from searchlab.web.app import create_app
    from searchlab.web.own_games import parse_game_option

    GAMES.pop("notakto")  # try_notakto.py registered it in this process (restored after)
    name, spec = parse_game_option(str(recipes["folder"] / "notakto.py") + ":Notakto")
    assert name == "notakto"
    with TestClient(create_app(workers=1, games={name: spec})) as client:
        assert "notakto" in [game["name"] for game in client.get("/api/games").json()]
        view = client.post(
            "/api/play/state", json={"game": "notakto", "moves": ["a3", "b3", "a1", "b1"]}
        ).json()
        assert view["text"] == "XX.\n...\nXX.", view
        assert [entry["label"] for entry in view["legal"]] == ["c3", "a2", "b2", "c2", "c1"]
        with client.websocket_connect("/ws/search") as ws:
            ws.send_text(json.dumps({
                "type": "start", "game": "notakto", "moves": ["a3", "b3", "a1", "b1"],
                "agent": "mcts:simulations=300", "seed": 1,
            }))  # fmt: skip
            while (reply := json.loads(ws.receive_text()))["type"] not in ("result", "error"):
                pass
        assert reply["type"] == "result", reply
        assert client.get("/api/status").json()["errors_500"] == 0
    assert json.dumps(reply).count('"c2"') >= 1


def test_a_bad_game_option_is_one_line(
    recipes: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_support import assert_one_line_error

    pytest.importorskip("fastapi")
    mine = recipes["folder"] / "notakto.py"
    code, _, err = run_main(capsys, "serve", "--port", "0", "--game", f"nim={mine}:Notakto")
    assert_one_line_error(code, err, "'nim' is a game of searchlab already")
    code, _, err = run_main(capsys, "serve", "--port", "0", "--game", "no_such.py:Game")
    assert_one_line_error(code, err, "no such file")


def test_the_lab_recipe_mounts_a_router(recipes: dict[str, Any]) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from searchlab.web.app import OPENAPI, create_app

    lab = recipes["modules"]["perft_lab"]
    app = create_app(workers=1)
    app.include_router(lab.router)
    client = TestClient(app)  # no lifespan: no worker starts; the models answer alone
    document = client.get(OPENAPI).json()
    assert "/api/perft" in document["paths"]
    assert {"PerftRequest", "PerftAnswer"} <= set(document["components"]["schemas"])
    bad = client.post("/api/perft", json={"game": "tictactoe", "depth": 9})
    assert bad.status_code == 400 and "depth" in bad.json()["error"]
    # the worker's side, as JOBS would run it: 9 x 8 = 72 two-ply sequences of tic-tac-toe
    assert lab.perft_job({"game": "tictactoe", "moves": [], "depth": 2}, None) == {"nodes": 72}
