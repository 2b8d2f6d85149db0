"""``searchlab analyse go --sgf FILE [--move N]``: the search runs on the position the record
reaches after move N (the last by default), the same position as the moves typed out; bad
files and move numbers are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.domains.games.go import Go
from searchlab.domains.games.go.sgf import write_sgf

AGENT = ["--agent", "mcts:simulations=60,tier=reference", "--seed", "5"]
RECORD = "(;GM[1]FF[4]SZ[7]KM[6.5];B[dd];W[cc];B[ce];W[])"  # D4 C5 C3 pass


def _analyse(capsys: pytest.CaptureFixture[str], *argv: object) -> dict:
    code, out, err = run_main(capsys, "analyse", "go", *argv, *AGENT, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_the_position_after_move_n_is_the_one_its_moves_reach(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.sgf"
    path.write_text(RECORD)
    loaded = _analyse(capsys, "--sgf", path, "--move", "2")
    typed = _analyse(capsys, "D4 C5", "-p", "size=7", "-p", "komi=6.5")
    assert loaded["move"] == 2 and loaded["sgf"] == str(path)
    for key in ("action", "value", "children", "principal_variation"):
        assert loaded[key] == typed[key]
    last = _analyse(capsys, "--sgf", path)  # default: after the last move (W passed)
    typed = _analyse(capsys, "D4 C5 C3 pass", "-p", "size=7", "-p", "komi=6.5")
    assert last["move"] == 4
    for key in ("action", "value", "children", "principal_variation"):
        assert last[key] == typed[key]


def test_the_text_shows_the_position_of_that_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.sgf"
    path.write_text(RECORD)
    code, out, err = run_main(capsys, "analyse", "go", "--sgf", path, "--move", "3", *AGENT)
    assert code == 0, err
    assert "last move: black C3" in out and "white (O) to move, move 4" in out


def test_move_zero_is_the_start_with_its_handicap(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Go(9, 0.5, handicap=2)
    state = game.initial_state().apply(40)
    path = tmp_path / "h.sgf"
    path.write_text(write_sgf(state))
    code, out, err = run_main(capsys, "analyse", "go", "--sgf", path, "--move", "0", *AGENT)
    assert code == 0, err
    assert "white (O) to move, move 1, komi 0.5" in out
    assert out.count("X") == 2  # the two handicap stones


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--sgf", "{tmp}/g.sgf", "--move", "9"],
         ["--move 9:", "move 9 is not in the record: it has moves 0..4"]),
        (["--sgf", "{tmp}/g.sgf", "--move", "-1"], ["move -1 is not in the record"]),
        (["--move", "2"], ["--move N picks a move of a saved game: give --load FILE"]),
        (["D4", "--sgf", "{tmp}/g.sgf"], ["--sgf and MOVES: give one"]),
        (["--sgf", "{tmp}/g.sgf", "-p", "komi=0.5"], ["--sgf takes the board size, komi"]),
        (["--sgf", "{tmp}/missing.sgf"], ["no such file", "missing.sgf"]),
        (["--sgf", "{tmp}/bad.sgf"], ["bad.sgf:1:16: unterminated value: 'W[cc)'"]),
        (["--sgf", "{tmp}/over.sgf"], ["the game is already over after move 3 of", "over.sgf"]),
    ],
)  # fmt: skip
def test_bad_records_and_moves_are_one_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "g.sgf").write_text(RECORD)
    (tmp_path / "bad.sgf").write_text("(;SZ[9];B[ee];W[cc)")
    (tmp_path / "over.sgf").write_text("(;SZ[9];B[ee];W[];B[])")
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    code, _, err = run_main(capsys, "analyse", "go", *args, *AGENT)
    assert_one_line_error(code, err, *[f.replace("{tmp}", str(tmp_path)) for f in fragments])


def test_sgf_is_for_go(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "g.sgf").write_text(RECORD)
    code, _, err = run_main(capsys, "analyse", "tictactoe", "--sgf", tmp_path / "g.sgf")
    assert_one_line_error(code, err, "--sgf reads a Go game: use 'analyse go'")
