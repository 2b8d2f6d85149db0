"""The players' names are written once (``domains/games/players.py``): ``searchlab play``
says them and the browser lab's view of a position carries the same ones, black and white in
Go and Othello (as their rules call them), the first and the second player elsewhere."""

from __future__ import annotations

import io

import pytest
from cli_support import run_main

from searchlab.domains.games import GAMES
from searchlab.domains.games.players import players
from searchlab.games import make
from searchlab.web.views import build_view  # needs no web extra (FastAPI serves it only)


@pytest.mark.parametrize(
    ("game", "intro"),
    [
        ("othello", "you play black (X) against random (O)"),
        ("go", "you play black (X) against random (O)"),
        ("tictactoe", "you play first (X) against random (O)"),
        ("nim", "you play first (player 0) against random (player 1)"),
    ],
)
def test_play_and_the_browser_lab_name_the_players_alike(
    game: str, intro: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    code, out, err = run_main(capsys, "play", game, "--second", "random")
    assert code == 0, err
    assert out.splitlines()[0].startswith(intro), out.splitlines()[0]
    view = build_view(game, make(game).initial_state(), [])
    assert [entry["name"] for entry in view["players"]] == list(players(game).names)
    assert out.splitlines()[0].split()[2] == view["players"][0]["name"]


def test_every_registered_game_has_two_named_players() -> None:
    for name in GAMES:
        named = players(name)
        assert len(set(named.names)) == 2 and len(set(named.marks)) == 2, name
