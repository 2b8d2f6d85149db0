"""`searchlab solve | perft | tree` through searchlab.cli.main.main: output and bad input."""

from __future__ import annotations

import json
from functools import reduce
from operator import xor
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from interrupt_support import interrupt

TREES = Path(__file__).resolve().parents[2] / "examples" / "trees"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_main(capsys, *argv)


def test_solve_nim_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "nim", "3,4,5"], capsys)
    assert code == 0
    assert "winner: the player to move" in out
    assert "grundy value: 2" in out  # 3 ^ 4 ^ 5 = 2
    assert "winning move: 1:2" in out  # 3 -> 1 makes 1 ^ 4 ^ 5 = 0


@pytest.mark.parametrize("piles", [[3, 4, 5], [1, 2, 3], [7], [0, 0], [2, 2, 1], [1, 1, 1]])
@pytest.mark.parametrize("misere", [False, True])
def test_solve_nim_json(piles: list[int], misere: bool, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "nim", ",".join(map(str, piles)), "--json"] + (["--misere"] if misere else [])
    code, out, _ = run(argv, capsys)
    assert code == 0
    data = json.loads(out)
    nim_sum = reduce(xor, piles, 0)
    # Bouton: misere differs from normal play only when every pile is 0 or 1
    wins = nim_sum == 0 if misere and all(p <= 1 for p in piles) else nim_sum != 0
    assert data["value"] == (1 if wins else -1)
    assert data["grundy"] == nim_sum
    if data["move"] is None:
        assert not wins or not any(piles)
    else:
        pile, take = (int(x) for x in data["move"].split(":"))
        after = list(piles)
        after[pile - 1] -= take
        assert after == data["after"] and min(after) >= 0
        if not misere or any(p > 1 for p in after):
            assert reduce(xor, after, 0) == 0
        else:  # misere, all piles <= 1 left: the opponent must face an odd number of ones
            assert sum(after) % 2 == 1


def test_solve_tictactoe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "tictactoe", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["value"] == 0 and data["outcome"] == "draw"
    assert set(data["move_values"].values()) == {0} and len(data["move_values"]) == 9
    # X: a1, a2; O: b1, b2: X to move wins at once with a3.
    code, out, _ = run(["solve", "tictactoe", "a1", "b1", "a2", "b2", "--json"], capsys)
    data = json.loads(out)
    assert data["value"] == 1 and data["move"] == "a3" and data["plies_to_end"] == 1
    code, out, _ = run(["solve", "mnk", "--m", "3", "--n", "2", "--k", "2"], capsys)
    assert code == 0 and "X to move: win in 3 plies" in out


@pytest.mark.parametrize(
    "params",
    [["-p", "m=3,n=2,k=2"], ["-p", "m=3", "-p", "n=2", "-p", "k=2"], ["-p", "m=3,n=2", "--k", "2"]],
)
def test_solve_mnk_takes_p_like_every_command(
    params: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["solve", "mnk", *params, "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and err == "" and data["plies_to_end"] == 3 and data["value"] == 1


def test_several_params_in_one_p(capsys: pytest.CaptureFixture[str]) -> None:
    """``-p m=4,n=3,k=3`` is three parameters in every command (``piles=3,4,5`` stays one)."""
    joined = run(["perft", "mnk", "-p", "m=4,n=3,k=3", "--depth", "2"], capsys)
    apart = run(["perft", "mnk", "-p", "m=4", "-p", "n=3", "-p", "k=3", "--depth", "2"], capsys)
    assert joined[0] == 0 and joined == apart and "132" in joined[1]
    code, out, _ = run(["perft", "nim", "-p", "piles=3,4,5,misere=true", "--depth", "1"], capsys)
    assert code == 0 and "12" in out


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["solve", "chess"], ["unknown game 'chess'", "nim"]),
        (["solve", "nim", "3,x"], ["malformed piles '3,x'"]),
        (["solve", "nim"], ["searchlab solve nim", "piles"]),
        (["solve", "nim", "3,4", "--colour"], ["unrecognized arguments: --colour"]),
        (["solve", "tictactoe", "b2", "a1", "b2"], ["move 3 'b2'", "taken"]),
        (["solve", "tictactoe", "zz"], ["move 1 'zz'", "malformed"]),
        (["perft", "othello9", "--depth", "2"], ["unknown game 'othello9'"]),
        (["perft", "tictactoe", "--depth", "0"], ["--depth must be >= 1, got 0"]),
        (["perft", "tictactoe", "--depth", "-3"], ["--depth must be >= 1, got -3"]),
        (["perft", "tictactoe", "--depth", "2", "--moves", "a1 q7"], ["move 2 'q7'"]),
        (["perft", "nim", "-p", "piles=3,x", "--depth", "1"], ["nim: piles must be", "'3,x'"]),
        (["perft", "nim", "-p", "oops", "--depth", "1"], ["-p expects NAME=VALUE, got 'oops'"]),
        (["tree", "no/such/file.tree"], ["no such file: no/such/file.tree"]),
        (["solve", "mnk", "-p", "m=x"], ["mnk: m must be an integer in 1..26, got 'x'"]),
        (["solve", "mnk", "-p", "m=4,n=x"], ["mnk: n must be an integer in 1..26, got 'x'"]),
        (["solve", "mnk", "-p", "rows=4"], ["unknown parameter rows; known: m, n, k"]),
        (["solve", "mnk", "-p", "m"], ["-p expects NAME=VALUE, got 'm'"]),
        (["solve", "mnk", "-p", "m=4", "--m", "4"], ["give m once"]),
        (["play", "mnk", "-p", "m=4,n=x"], ["mnk: n must be an integer in 1..26, got 'x'"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, *fragments)


def test_ctrl_c_stops_the_reference_solver() -> None:
    """4x4 tic-tac-toe (k = 4) takes the plain-Python solver far longer than 2 s."""
    stopped = interrupt(["solve", "mnk", "--m", "4", "--n", "4", "--k", "4"], delay=2.0)
    assert (stopped.code, stopped.stdout, stopped.stderr) == (130, "", "searchlab: interrupted\n")


def test_perft_counts_and_divide(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = (shared_data / "small_game_facts" / "tictactoe_counts.tsv").read_text().splitlines()
    expected = {row.split("\t")[0]: int(row.split("\t")[1]) for row in table[1:]}
    code, out, _ = run(["perft", "tictactoe", "--depth", "6"], capsys)
    assert code == 0 and out.strip() == str(expected["6"])
    code, out, _ = run(["perft", "tictactoe", "--depth", "3", "--divide"], capsys)
    lines = out.strip().splitlines()
    assert lines[-1] == str(expected["3"]) and len(lines) == 10
    assert sum(int(line.split()[1]) for line in lines[:-1]) == expected["3"]
    code, out, _ = run(["perft", "nim", "-p", "piles=1,2", "--depth", "2", "--json"], capsys)
    assert json.loads(out)["leaves"] == 5  # see test_perft: 2 + 2 + 1


def test_perft_expect_mismatch_prints_the_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["perft", "tictactoe", "--depth", "2", "--expect", "73"], capsys)
    assert code == 1 and out.strip() == "72"
    assert "perft(2) = 72, expected 73; divide:" in err and "b2 8" in err
    code, _, _ = run(["perft", "tictactoe", "--depth", "2", "--expect", "72"], capsys)
    assert code == 0


def test_tree_alphabeta(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(TREES / "aima_fig5_2.tree")
    code, out, _ = run(["tree", path, "--alphabeta", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert (data["value"], data["best_child"], data["pruned"]) == (3, "B", ["c2", "c3"])
    assert data["nodes"] == 11 and data["tree_nodes"] == 13
    c_entry = next(entry for entry in data["trace"] if entry["node"] == "C")
    assert (c_entry["alpha"], c_entry["beta"], c_entry["pruned"]) == (3, "inf", ["c2", "c3"])
    code, out, _ = run(["tree", path], capsys)
    assert code == 0 and "value: 3 (for MAX)" in out and "best child: B" in out
    assert "visited 13 of 13" in out
    code, out, _ = run(["tree", path, "--alphabeta"], capsys)
    assert "pruned: c2, c3" in out and "prunes c2, c3 (alpha 3 >= beta 2)" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("max A: B\n", "bad.tree:1: child 'B' of 'A' is not defined"),
        ("max A: 1 2\nmin A: 3\n", "bad.tree:2: node 'A' is defined twice"),
        ("# only a comment\nmux A: 1\n", "bad.tree:2: node type must be max or min"),
    ],
)
def test_tree_file_errors_quote_file_and_line(
    text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.tree"
    path.write_text(text)
    code, _, err = run(["tree", str(path)], capsys)
    assert_one_line_error(code, err, fragment)
