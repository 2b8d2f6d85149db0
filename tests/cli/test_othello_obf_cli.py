"""OBF reading (against the FFO table) and `searchlab solve othello` through main(): output,
exit codes, and one test per kind of bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from interrupt_support import interrupt

from searchlab.domains.games.othello import parse_square
from searchlab.domains.games.othello.obf import ObfFormatError, parse_obf_line, read_obf

FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
START = "-" * 27 + "OX------XO" + "-" * 27
FINISHED = "X" * 62 + "OO"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


# -- OBF ---------------------------------------------------------------------------------------
def test_obf_file_agrees_with_the_ffo_table(shared_data: Path) -> None:
    folder = shared_data / "othello_ffo"
    positions = list(read_obf(folder / "ffo_endgame.obf"))
    with (folder / "ffo_endgame.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert len(positions) == len(rows) == 40
    for position, row in zip(positions, rows, strict=True):
        state = position.state()
        assert position.board == row["board"] and position.side_to_move == row["side_to_move"]
        assert state.empties() == int(row["empties"])
        assert position.best_score == int(row["best_score"])
        assert {parse_square(m) for m in row["best_moves"].split(",")} == set(position.best_moves)
        # the README: the listed moves are exactly the legal moves
        assert sorted(a for a, _ in position.move_scores) == list(state.legal_actions())
        assert parse_obf_line(position.to_line()) == parse_obf_line(position.to_line())
        assert parse_obf_line(position.to_line()).move_scores == position.move_scores


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (FFO_1[:-1] + " X", "expected 64 characters (a1..h8), got 63"),
        (FFO_1[:-1] + "? X", "character '?' at h8"),
        (FFO_1 + " Z", "bad side to move 'Z'"),
        (FFO_1, "expected '<64-char board> <X|O>'"),
        (FFO_1 + " X; Z9:+18", "unknown move 'Z9'"),
        (FFO_1 + " X; G8:+x", "bad score '+x'"),
        (FFO_1 + " X; G8", "has no score"),
        (FFO_1 + " X; A1:+2", "move 'A1' is not legal"),
        (FINISHED + " X; G8:+2", "the game is already over"),
    ],
)
def test_malformed_obf_lines_quote_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.obf"
    path.write_text(f"% a comment\n{START} X; F5:+0;\n\n{line}\n")
    with pytest.raises(ObfFormatError) as error:
        list(read_obf(path))
    assert f"{path}:4: " in str(error.value)
    assert message in str(error.value)


# -- the command line ----------------------------------------------------------------------------
def test_solve_ffo_text(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    code, out, _ = run(["solve", "othello", "--obf", str(obf), "--limit", "3"], capsys)
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 4
    assert "score +18  expected +18  best G8" in lines[0] and lines[0].endswith("ok")
    assert "score +2  expected +2  best D1" in lines[1]
    assert "score +32  expected +32  best G8" in lines[2]
    assert lines[3].startswith("3 positions, 0 mismatches, 0 stopped, mean time")
    assert "M nodes/s" in lines[3]


def test_solve_ffo_json(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    code, out, err = run(["solve", "othello", "--obf", str(obf), "--limit", "5", "--json"], capsys)
    assert code == 0
    objects = [json.loads(line) for line in out.strip().splitlines()]
    assert [o["expected"] for o in objects] == [18, 2, 32, 8, -8]  # FFO #1, 3, 5, 7, 9
    for obj in objects:
        assert obj["score"] == obj["expected"] and obj["best_move"] in obj["expected_moves"]
        assert obj["nodes"] > 0 and obj["ms"] >= 0 and obj["empties"] in (14, 15)
    assert "5 positions, 0 mismatches" in err


def test_solve_one_position_with_move_scores(capsys: pytest.CaptureFixture[str]) -> None:
    # '--' keeps argparse from reading a board that starts with '-' as an option
    argv = ["solve", "othello", "--move-scores", "--json", "--", f"{FFO_1} X"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    obj = json.loads(out)
    assert obj["score"] == 18 and obj["best_move"] == "G8" and obj["expected"] is None
    assert obj["status"] == "unchecked"
    # the scores of every move, as FFO #1 lists them
    assert obj["move_scores"] == {
        "G8": 18, "H1": 12, "H7": 6, "A2": 6, "A3": 4, "B1": -4, "A4": -22, "G2": -24
    }  # fmt: skip


def test_solve_finished_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "othello", FINISHED, "O"], capsys)
    assert code == 0
    assert "score -60" in out and "best -" in out


def test_mismatch_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wrong.obf"
    path.write_text(f"{FFO_1} X; G8:+20; H1:+12;\n")
    code, out, _ = run(["solve", "othello", "--obf", str(path)], capsys)
    assert code == 1
    assert "score +18  expected +20" in out and "mismatch" in out
    assert "1 positions, 1 mismatches" in out


def test_node_budget_exhausted_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "othello", "--nodes", "100", "--", f"{FFO_1} X"], capsys)
    assert code == 1
    assert "stopped" in out and "score ?" in out


def test_time_budget_stops_a_deep_position(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The FFO position with the most empties (36) cannot finish in 0.3 s."""
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    deepest = max(read_obf(obf), key=lambda position: position.state().empties())
    position = f"{deepest.board} {deepest.side_to_move}"
    code, out, _ = run(["solve", "othello", "--time", "0.3", "--", position], capsys)
    assert code == 1
    assert "stopped" in out and "score ?" in out


def test_ctrl_c_stops_a_deep_position_within_a_second(shared_data: Path, tmp_path: Path) -> None:
    """SIGINT while the endgame solver works (no time limit: one long kernel call) on the
    36-empty FFO position (hours of search), after a quick one was printed: one line, exit code
    130, and no hang (no timing: :func:`interrupt` fails a command that runs on)."""
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    deepest = max(read_obf(obf), key=lambda position: position.state().empties())
    path = tmp_path / "two.obf"
    path.write_text(f"{FFO_1} X;\n{deepest.board} {deepest.side_to_move};\n")
    stopped = interrupt(["solve", "othello", "--json", "--obf", str(path)], after_lines=1)
    assert stopped.code == 130, stopped
    assert stopped.stderr == "searchlab: interrupted\n", stopped
    assert len(stopped.stdout.splitlines()) == 1, stopped


def test_stopped_positions_report_bounds_that_hold_the_ffo_score(
    shared_data: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A node budget (deterministic) stops the 20-22-empty FFO positions part way: the bounds
    the solver proved so far must contain the published score, and some must be informative."""
    obf = shared_data / "othello_ffo" / "ffo_endgame.obf"
    chosen = [p for p in read_obf(obf) if 20 <= p.state().empties() <= 22]
    path = tmp_path / "mid.obf"
    path.write_text("".join(f"{p.board} {p.side_to_move};\n" for p in chosen))
    code, out, _ = run(
        ["solve", "othello", "--nodes", "1000000", "--threads", "1", "--json", "--obf", str(path)],
        capsys,
    )
    rows = [json.loads(line) for line in out.splitlines()]
    stopped = [(row, p) for row, p in zip(rows, chosen, strict=True) if row["status"] == "stopped"]
    assert code == 1 and stopped
    for row, position in stopped:
        lower, upper = row["bounds"]
        assert lower <= position.best_score <= upper
    assert any(row["bounds"] != [-64, 64] for row, _ in stopped)


@pytest.mark.parametrize(
    ("line", "fragments"),
    [
        (FFO_1[:-1] + " X", ("bad.obf:1", "expected 64 characters")),
        (FFO_1[:-1] + "? X", ("bad.obf:1", "character '?'")),
        (FFO_1 + " W?", ("bad.obf:1", "bad side to move")),
        (FINISHED + " X; G8:+2", ("bad.obf:1", "game is already over")),
        (FFO_1 + " X; I9:+2", ("bad.obf:1", "unknown move 'I9'")),
    ],
)
def test_bad_obf_file_is_one_line_exit_2(
    tmp_path: Path, line: str, fragments: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.obf"
    path.write_text(line + "\n")
    code, _, err = run(["solve", "othello", "--obf", str(path)], capsys)
    assert_one_line_error(code, err, *fragments)


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--", "XO", "X"], ("bad board 'XO'",)),
        (["--", f"{FFO_1} X; Q1:+2"], ("unknown move 'Q1'",)),
        ([], ("give --obf FILE or a position",)),
        (["--obf", "missing.obf"], ("no such file", "missing.obf")),
        (["--limit", "0", "--obf", "x.obf"], ("expected a number > 0",)),
        (["--obf", "x.obf", "--", f"{FFO_1} X"], ("either --obf FILE or one position",)),
        (["--time", "0", "--", f"{FFO_1} X"], ("--time must be > 0 seconds",)),
        (["--time", "-1.5", "--", f"{FFO_1} X"], ("--time must be > 0 seconds",)),
    ],
)
def test_bad_arguments_are_one_line_exit_2(
    argv: list[str], fragments: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["solve", "othello", *argv], capsys)
    assert_one_line_error(code, err, *fragments)
