"""`searchlab solve connect4` through searchlab.cli.main.main: output against Pons' scores and
one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from interrupt_support import interrupt


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


def pons_head(shared_data: Path, name: str, count: int) -> list[tuple[str, int]]:
    lines = (shared_data / "connect4_pons" / name).read_text().split("\n")[:count]
    return [(m, int(s)) for m, s in (line.split() for line in lines)]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "positions.txt"
    path.write_text(text)
    return path


# -- one position ------------------------------------------------------------------------------
def test_single_position_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "connect4", "4455"], capsys)
    assert code == 0
    assert "X to move: score +18" in out  # Pons' page: 4455 scores 18
    assert "best move 3" in out or "best move 6" in out
    assert out.splitlines()[-3] == "1 2 3 4 5 6 7"
    assert "wins with their stone no. 4, in 3 plies" in out


def test_single_position_json(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for moves, expected in pons_head(shared_data, "Test_L2_R1", 6):
        code, out, _ = run(["solve", "connect4", moves, "--json"], capsys)
        assert code == 0
        data = json.loads(out)
        assert data["moves"] == moves and data["score"] == expected
        assert {"best_move", "nodes", "ms", "outcome"} <= set(data)
        assert data["best_move"] in list("1234567")


# -- a positions file --------------------------------------------------------------------------
def test_positions_file_text(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = pons_head(shared_data, "Test_L3_R1", 30)
    path = write(tmp_path, "".join(f"{m} {s}\n" for m, s in lines))
    code, out, _ = run(["solve", "connect4", "--positions", str(path)], capsys)
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 31
    for (moves, expected), row in zip(lines, rows, strict=False):
        fields = row.split()
        assert fields[0] == moves
        assert int(fields[1]) == expected and int(fields[2]) == expected
        assert int(fields[3]) >= 0 and fields[5] == "ms"
    assert rows[-1].startswith("30 positions, 0 mismatches, mean ")
    assert "nodes/s" in rows[-1]


def test_positions_file_json_and_limit(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = pons_head(shared_data, "Test_L2_R2", 10)
    path = write(tmp_path, "".join(f"{m} {s}\n" for m, s in lines))
    code, out, err = run(
        ["solve", "connect4", "--positions", str(path), "--json", "--limit", "3"], capsys
    )
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["moves"] for o in objects] == [m for m, _ in lines[:3]]
    for obj, (_, expected) in zip(objects, lines, strict=False):
        assert obj["score"] == obj["expected"] == expected and obj["ok"] is True
        assert obj["nodes"] > 0 and obj["ms"] >= 0
    assert "3 positions, 0 mismatches" in err


def test_mismatch_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "4455 18\n44455554221 -14\n\n")
    code, out, _ = run(["solve", "connect4", "--positions", str(path)], capsys)
    assert code == 1
    assert "44455554221 -15 -14" in out and "MISMATCH" in out
    assert "2 positions, 1 mismatches" in out


# -- time limits and Ctrl-C ----------------------------------------------------------------------
def hardest_begin_hard(shared_data: Path) -> tuple[str, int]:
    """The Begin-Hard line with the fewest stones: a minute or more of search."""
    return min(pons_head(shared_data, "Test_L1_R3", 500), key=lambda line: len(line[0]))


def test_time_limit_stops_with_bounds_that_hold_the_score(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves, expected = hardest_begin_hard(shared_data)
    code, out, _ = run(["solve", "connect4", moves, "--time", "0.5", "--json"], capsys)
    assert code == 1
    data = json.loads(out)
    assert data["stopped_by"] == "time" and data["score"] is None
    assert data["outcome"] == "unknown" and data["best_move"] is None
    low, high = data["bounds"]
    assert low <= expected <= high and (low, high) != (-20, 20)  # some progress, and true
    assert data["ms"] < 3000  # 0.5 s asked; slack for a loaded machine


def test_time_limit_in_text_and_in_a_positions_file(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves, expected = hardest_begin_hard(shared_data)
    code, out, _ = run(["solve", "connect4", moves, "--time", "0.2"], capsys)
    assert code == 1 and "score ? in [" in out and "stopped by time" in out
    easy = pons_head(shared_data, "Test_L3_R1", 2)
    path = write(tmp_path, "".join(f"{m} {s}\n" for m, s in [*easy, (moves, expected)]))
    code, out, _ = run(["solve", "connect4", "--positions", str(path), "--time", "0.2"], capsys)
    rows = out.splitlines()
    assert code == 1
    assert [row.split()[1] for row in rows[:2]] == [str(s) for _, s in easy]
    assert rows[2].startswith(f"{moves} ? {expected} ") and "STOPPED in [" in rows[2]
    assert "MISMATCH" not in out  # the proven bounds hold the expected score
    assert rows[3].startswith("3 positions, 0 mismatches, 1 stopped, mean ")


def test_a_node_budget_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "connect4", "4", "--nodes", "12345", "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["stopped_by"] == "nodes" and data["nodes"] == 12345


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_bad_time_limits(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["solve", "connect4", "4455", "--time", value], capsys)
    assert_one_line_error(code, err, "--time must be > 0 seconds", f"got {float(value)}")


def test_ctrl_c_stops_a_hard_position_within_a_second(shared_data: Path, tmp_path: Path) -> None:
    """SIGINT while the compiled solver works on one stone in the centre without the opening
    book (far longer than the hardest Begin-Hard line's minutes), after an easy one has been
    printed: one line, exit code 130, and no hang (no timing: :func:`interrupt` fails a
    command that runs on)."""
    ((easy, score),) = pons_head(shared_data, "Test_L3_R1", 1)
    path = write(tmp_path, f"{easy} {score}\n4 1\n")  # its score is never reached
    argv = ["solve", "connect4", "--positions", str(path), "--json", "--no-book"]
    stopped = interrupt(argv, after_lines=1)
    assert stopped.code == 130, stopped
    assert stopped.stderr == "searchlab: interrupted\n", stopped
    assert json.loads(stopped.stdout)["moves"] == easy  # the easy one, and nothing after it


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "fragments"),
    [
        ("44x5", ("move 3 'x'", "'44x5'")),
        ("4485", ("move 3 '8'", "no such column")),
        ("1111111", ("move 7 '1'", "column 1 is full")),
        ("12121212", ("move 8 '2'", "already over")),
        ("1212121", ("'1212121'", "already over", "X won")),
    ],
)
def test_bad_move_sequences(
    moves: str, fragments: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["solve", "connect4", moves], capsys)
    assert_one_line_error(code, err, *fragments)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("4455 18\n4455\n", (":2:", "expected '<moves> <score>'", "'4455'")),
        ("4455 18 3\n", (":1:", "'4455 18 3'")),
        ("4455 x\n", (":1:", "score 'x' is not an integer")),
        ("4455 18\n449 0\n", (":2:", "move 3 '9'", "'449'")),
        ("1111111 0\n", (":1:", "column 1 is full")),
        ("4455 18\n\n1212121 0\n", (":3:", "already over")),
        ("12121212 0\n", (":1:", "move 8", "already over")),
    ],
)
def test_malformed_positions_lines(
    text: str, fragments: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, text)
    code, out, err = run(["solve", "connect4", "--positions", str(path)], capsys)
    assert_one_line_error(code, err, str(path), *fragments)
    assert out == ""  # every line is checked before any is solved


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["solve", "connect4"], "give either MOVES"),
        (["solve", "connect4", "44", "--positions", "x.txt"], "give either MOVES"),
        (["solve", "connect4", "44", "--limit", "2"], "--limit needs --positions"),
        (["solve", "connect4", "--positions", "x.txt", "--limit", "0"], "--limit"),
        (["solve", "connect4", "44", "--table-log2", "3"], "table_log2"),
        (["solve", "connect4", "--positions", "/no/such/file.txt"], "no such file"),
    ],
)
def test_bad_arguments(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, fragment)
