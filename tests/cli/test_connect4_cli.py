"""`searchlab solve connect4` through searchlab.cli.main.main: output against Pons' scores and
one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main


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
