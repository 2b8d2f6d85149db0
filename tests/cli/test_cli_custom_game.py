"""A game of your own on the command line: ``FILE.py:CLASS`` or ``MODULE:CLASS`` wherever a
command takes a game (play, analyse, perft, arena, solve), as examples/custom_game.py describes.

The example is the subtraction game (take 1..3 counters, who takes the last wins): the player
to move loses exactly when the pile is a multiple of 4, so the theory gives every answer.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from interrupt_support import interrupt

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
    """A perfect player (alpha-beta as deep as the game is long) wins every arena game in
    which it ever moves at a winning pile (not a multiple of 4); flat Monte Carlo with 3
    playouts and the greedy player fail this. The random openings can leave it a lost pile,
    and the random player can then play perfectly by chance: 'never loses' would depend on
    the seeds, and they on the path of the game's file (a fresh clone's failed)."""
    db = tmp_path / "games.sqlite"
    perfect = "alphabeta:depth=21"
    code, out, err = run_main(
        capsys, "arena", GAME, "-p", "counters=21", "random", perfect, "--games", "16", "--db", db,
        "--json",
    )  # fmt: skip
    assert code == 0, err
    table = {row["agent"]: row for row in json.loads(out)}
    assert set(table) == {"random", perfect} and table[perfect]["games"] == 16
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT first, opening, moves, movers, result FROM games")
        games = rows.fetchall()
    assert len(games) == 16
    chances = 0
    for first, opening, moves, movers, result in games:
        seat = 0 if first == perfect else 1
        left = 21 - sum(int(move) for move in json.loads(opening))
        could_win = False
        for move, mover in zip(json.loads(moves), movers, strict=True):
            could_win = could_win or (int(mover) == seat and left % 4 != 0)
            left -= int(move)
        assert left == 0
        if could_win:
            chances += 1
            assert result == ("1-0" if seat == 0 else "0-1"), (first, opening, moves, result)
    assert chances >= 1  # the check ran on at least one game


def _theory(left: int) -> tuple[str, int, str | None, dict[str, int]]:
    """The subtraction game by hand: (outcome, plies to the end under best play, the winning
    move, each move's value) for the player to move with ``left`` counters. A multiple of 4
    loses; otherwise take ``left % 4``. Each later round of two plies removes 4 counters (the
    loser takes t, the winner 4 - t), so the game lasts ``2 * (left // 4)`` more plies."""
    values = {str(t): 1 if (left - t) % 4 == 0 else -1 for t in (1, 2, 3) if t <= left}
    if left % 4 == 0:
        return "loss", 2 * (left // 4), None, values
    return "win", 1 + 2 * (left // 4), str(left % 4), values


@pytest.mark.parametrize("counters", [1, 2, 3, 4, 5, 8, 10, 11, 13, 16, 21])
def test_solve_agrees_with_the_theory(counters: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "solve", GAME, "-p", f"counters={counters}", "--json")
    assert code == 0, err
    data = json.loads(out)
    outcome, plies, move, values = _theory(counters)
    assert data["outcome"] == outcome and data["value"] == (1 if outcome == "win" else -1)
    assert data["plies_to_end"] == plies
    assert data["move_values"] == values
    if move is not None:  # a lost position: any move is as bad (the slowest loss is chosen)
        assert data["move"] == move
    assert data["game"] == GAME and data["to_move"] == "player 0" and "stopped_by" not in data


def test_solve_from_moves_and_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "solve", GAME, "3", "2", "--json")  # 21 - 5 = 16 left
    assert code == 0, err
    data = json.loads(out)
    assert (data["player"], data["outcome"], data["plies_to_end"]) == (0, "loss", 8)
    code, out, err = run_main(capsys, "solve", GAME, "-p", "counters=10", "3 3 1")  # 3 left
    assert code == 0, err
    assert "3 counters, player 1 to move" in out  # the position, as the game prints it
    assert "player 1 to move: win in 1 plies; best move 3" in out
    assert "move values: 1=-1 2=-1 3=+1" in out
    code, out, err = run_main(capsys, "solve", GAME, "-p", "counters=2", "1 1")
    assert code == 0, err
    assert "game over: loss for player 0" in out  # player 1 took the last counter


def test_solve_stops_at_its_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # counters=10 takes 20 positions (10..0 counters, each with either player to move, less
    # the two that cannot be reached): a budget of 20 solves it, 19 does not.
    code, out, _ = run_main(capsys, "solve", GAME, "-p", "counters=10", "--nodes", "20", "--json")
    assert code == 0 and json.loads(out)["positions"] == 20
    code, out, _ = run_main(capsys, "solve", GAME, "-p", "counters=10", "--nodes", "19", "--json")
    data = json.loads(out)
    assert code == 1 and data["stopped_by"] == "nodes" and data["positions"] == 19
    assert data["value"] is None and data["outcome"] == "unknown" and data["move"] is None
    # A game far too big to finish (5x5 gomoku, as your own file): --time stops it.
    slow = tmp_path / "slow.py"
    slow.write_text("from searchlab.domains.games.gomoku import Gomoku as Slow\n")
    code, out, _ = run_main(capsys, "solve", f"{slow}:Slow", "-p", "size=5", "--time", "0.3")
    assert code == 1
    assert "player 0 to move: not solved (stopped by --time after" in out


def test_ctrl_c_stops_solving_a_game_of_your_own(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("from searchlab.domains.games.gomoku import Gomoku as Slow\n")
    stopped = interrupt(["solve", f"{slow}:Slow", "-p", "size=5"], delay=2.0)
    assert (stopped.code, stopped.stdout, stopped.stderr) == (130, "", "searchlab: interrupted\n")


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
        (["solve", f"{EXAMPLE}:Nope"], ["has no 'Nope'", "Subtraction"]),
        (["solve", "no/such/file.py:Game"], ["no such file no/such/file.py"]),
        (["solve", "no_such_module_xyz:Game"], ["cannot import no_such_module_xyz"]),
        (["solve", "json:JSONDecoder"], ["is not a game"]),
        (["solve", "chess"], ["solve: unknown game 'chess'", "kayles", "FILE.py:CLASS"]),
        (["solve", GAME, "-p", "colour=red"], ["unknown parameter colour; known: counters"]),
        (["solve", GAME, "-p", "counters=0"], ["counters must be an integer >= 1, got 0"]),
        (["solve", GAME, "-p", "counters"], ["-p expects NAME=VALUE, got 'counters'"]),
        (["solve", GAME, "2", "7"], ["move 2 '7'", "illegal move '7'"]),
        (["solve", GAME, "--time", "nan"], ["--time must be > 0 seconds", "nan"]),
        (["solve", GAME, "--nodes", "0"], ["--nodes"]),
        (["solve", GAME, "--depth", "3"], ["unrecognized arguments: --depth"]),
        (["solve", GAME, "-p", "counters=5000"], ["too long for the plain-Python solver"]),
    ],
)
def test_bad_games_of_your_own_are_one_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(capsys, *argv)
    assert_one_line_error(code, err, *fragments)


def test_solve_a_game_that_fails_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error raised by your own game's code while it is solved names the game and the
    error, in one line."""
    broken = tmp_path / "broken.py"
    broken.write_text(
        f"import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('example', {str(EXAMPLE)!r})\n"
        "example = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(example)\n"
        "class Broken(example.Subtraction):\n"
        "    def initial_state(self):\n"
        "        return BrokenPile(self.counters, 0)\n"
        "class BrokenPile(example.Pile):\n"
        "    def apply(self, action):\n"
        "        if self.left < 5:\n"
        "            raise ValueError('no moves below 5')\n"
        "        return BrokenPile(self.left - action, 1 - self.player)\n"
    )
    code, _, err = run_main(capsys, "solve", f"{broken}:Broken")
    assert_one_line_error(code, err, f"{broken}:Broken", "ValueError: no moves below 5")
