"""A game of your own on the command line: ``FILE.py:CLASS`` or ``MODULE:CLASS`` wherever a
command takes a game (play, analyse, perft, arena), as examples/custom_game.py describes.

The example is the subtraction game (take 1..3 counters, who takes the last wins): the player
to move loses exactly when the pile is a multiple of 4, so the theory gives every answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.core.game import play
from searchlab.games import make

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_game.py"
GAME = f"{EXAMPLE}:Subtraction"


def test_play_agent_against_agent(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "play", GAME, "-p", "counters=10", "--first", "alphabeta", "--second", "random",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    final = play(make(GAME, counters=10).initial_state(), game["moves"])  # every move legal
    assert final.is_terminal()
    assert game["winner"] == 0  # 10 is not a multiple of 4: perfect play wins as first


def test_play_a_person_gets_the_notation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("help\n7\n2\nresign\n"))
    code, out, err = run_main(capsys, "play", GAME, "-p", "counters=10", "--second", "random")
    assert code == 0, err
    assert "you play first (player 0) against random" in out
    assert "moves: the number of counters to take, 1 to 3; e.g. 1" in out  # its own notation
    assert "illegal move '7'" in out  # rejected with the reason, asked again
    assert "8 counters, player 1 to move" in out  # then 2 was played


def test_analyse_finds_the_winning_move(capsys: pytest.CaptureFixture[str]) -> None:
    for counters in (10, 11, 13):
        code, out, err = run_main(
            capsys, "analyse", GAME, "-p", f"counters={counters}", "--agent", "alphabeta:depth=20",
            "--json",
        )  # fmt: skip
        assert code == 0, err
        data = json.loads(out)
        assert data["action"] == str(counters % 4)  # leave a multiple of 4
        assert data["outcome"] == "win"


def test_analyse_from_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "analyse", GAME, "3 3", "--agent", "alphabeta:depth=20", "--json"
    )  # 21 - 6 = 15 left: take 3
    assert code == 0, err
    assert json.loads(out)["action"] == "3"


def test_perft_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "perft", GAME, "--depth", "3")
    assert code == 0 and out.strip() == "27"  # 3 choices per ply while counters last
    code, out, _ = run_main(capsys, "perft", GAME, "-p", "counters=2", "--depth", "2")
    assert code == 0 and out.strip() == "1"  # only 1 then 1 lasts 2 plies (2 ends the game)


def test_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    code, out, err = run_main(
        capsys, "arena", GAME, "random", "alphabeta", "--games", "4", "--db", db, "--json"
    )
    assert code == 0, err
    table = {row["agent"]: row for row in json.loads(out)}
    assert set(table) == {"random", "alphabeta"}
    assert table["alphabeta"]["games"] == 4 and table["alphabeta"]["losses"] == 0


def test_module_in_the_current_folder(tmp_path: Path) -> None:
    """``MODULE:CLASS`` finds a module beside you, as ``python -m`` would."""
    (tmp_path / "take_away.py").write_text(EXAMPLE.read_text())
    script = Path(sys.executable).with_name("searchlab")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "searchlab"]
    completed = subprocess.run(
        [*command, "perft", "take_away:Subtraction", "--depth", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "9"


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["play", f"{EXAMPLE}:Nope"], ["has no 'Nope'", "Subtraction"]),
        (["analyse", f"{EXAMPLE}:Pile"], ["needs the parameters left, player"]),
        (["perft", "no_such_module_xyz:Game", "--depth", "1"], ["cannot import"]),
        (["play", GAME, "-p", "colour=red"], ["unknown parameter colour; known: counters"]),
        (["arena", "json:JSONDecoder", "random", "greedy", "--games", "1"], ["is not a game"]),
    ],
)
def test_bad_games_of_your_own_are_one_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(capsys, *argv)
    assert_one_line_error(code, err, *fragments)
