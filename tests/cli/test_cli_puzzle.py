"""``searchlab puzzle``: solutions checked against the shared data, limits, and one-line errors
with exit code 2 for every kind of bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.cli import main as cli_main
from searchlab.cli import puzzle as cli_puzzle
from searchlab.domains.path.sliding_tile import apply_moves, goal_tiles, parse_tiles

HARD31 = "8 6 7 2 5 4 3 0 1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_main(capsys, "puzzle", *argv)


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_puzzle_is_a_registered_subcommand() -> None:
    assert "puzzle" in cli_main.SUBCOMMANDS


# -- solving -------------------------------------------------------------------------------------


def test_text_output_solves_the_hardest_8_puzzle(capsys, shared_data) -> None:
    rows = read_tsv(shared_data / "sliding_tile" / "eight_puzzle.tsv")
    expected = next(int(r["optimal_goal_blank_last"]) for r in rows if r["tiles"] == HARD31)
    code, out, err = run(capsys, HARD31)
    assert code == 0 and err == ""
    assert f"optimal solution: {expected} moves" in out
    blank = next(line for line in out.splitlines() if line.startswith("blank moves:"))
    tiles = next(line for line in out.splitlines() if line.startswith("tiles moved:"))
    goal = goal_tiles(3, "blank-last")
    assert apply_moves(parse_tiles(HARD31), blank.split(":")[1].strip()) == goal
    assert apply_moves(parse_tiles(HARD31), list(parse_tiles(tiles.split(":")[1]))) == goal
    assert "expanded" in out and "ms" in out


def test_json_output_for_a_korf_instance(capsys, shared_data) -> None:
    row = next(
        r
        for r in read_tsv(shared_data / "sliding_tile" / "korf100_15puzzle.tsv")
        if r["id"] == "12"
    )
    code, out, err = run(capsys, row["tiles"], "--goal", "blank-first", "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert out.count("\n") == 1
    assert report["length"] == int(row["optimal_length"])
    assert report["status"] == "solved" and report["tier"] == "compiled"
    assert (report["algorithm"], report["goal"], report["heuristic"]) == (
        "idastar",
        "blank-first",
        "linear_conflict",
    )
    assert report["expanded"] > 0 and report["ms"] >= 0
    start = parse_tiles(row["tiles"])
    assert apply_moves(start, report["moves"]) == goal_tiles(4, "blank-first")
    assert apply_moves(start, report["blank_moves"]) == goal_tiles(4, "blank-first")


def test_default_goal_is_blank_last_and_numbers_may_be_separate_arguments(capsys) -> None:
    code, out, _ = run(capsys, "1", "2", "3", "4", "5", "6", "7", "0", "8", "--json")
    report = json.loads(out)
    assert code == 0 and report["goal"] == "blank-last"
    assert report["length"] == 1 and report["moves"] == [8] and report["blank_moves"] == "R"


@pytest.mark.parametrize("heuristic", ["manhattan", "misplaced", "linear_conflict"])
def test_astar_and_every_heuristic_find_the_optimal_length(capsys, heuristic) -> None:
    # OEIS A089473 / the shared README: this board is 31 moves from 1 2 3 / 4 5 6 / 7 8 _.
    for algorithm in ("astar", "idastar"):
        if heuristic == "misplaced" and algorithm == "astar":
            continue  # ~100k Python expansions: slow and adds nothing
        code, out, _ = run(
            capsys, HARD31, "--algorithm", algorithm, "--heuristic", heuristic, "--json"
        )
        report = json.loads(out)
        assert code == 0 and report["length"] == 31 and report["heuristic"] == heuristic
        assert report["tier"] == ("reference" if algorithm == "astar" else "compiled")


def test_already_solved_board(capsys) -> None:
    code, out, _ = run(capsys, "0 1 2 3", "--goal", "blank-first")
    assert code == 0 and "optimal solution: 0 moves" in out


# -- limits: exit code 1 and one line saying what to do -------------------------------------------

KORF_17 = "15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12"  # Korf #17, 66 moves: beyond small budgets


def test_astar_on_a_15_puzzle_has_a_default_budget_and_suggests_idastar(
    capsys, monkeypatch
) -> None:
    monkeypatch.setattr(cli_puzzle, "ASTAR_DEFAULT_EXPANSIONS", 2_000)
    code, out, err = run(capsys, KORF_17, "--goal", "blank-first", "--algorithm", "astar")
    assert code == 1
    assert err.count("\n") == 1 and "2,000 expansions" in err and "idastar" in err
    assert "optimal solution" not in out


def test_max_expansions_and_time_limits(capsys) -> None:
    code, out, err = run(capsys, KORF_17, "--goal", "blank-first", "--max-expansions", "5000")
    assert code == 1 and "5,000 expansions" in err and err.count("\n") == 1
    code, out, err = run(capsys, KORF_17, "--goal", "blank-first", "--time", "0.3", "--json")
    report = json.loads(out)
    assert code == 1 and report["status"] == "limit" and report["length"] is None
    assert err.count("\n") == 1 and "--time" in err


# -- bad input: one line, exit 2 ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["1 1 2 3 4 5 6 7 8"], ["not a permutation", "'1 1 2 3 4 5 6 7 8'"]),
        (["1 2 3 4 5 6 7 8"], ["8 numbers is not a square board", "'1 2 3 4 5 6 7 8'"]),
        (["0 1 2 3 4 5 6 7 9"], ["not a permutation"]),
        (["1 2 3 4 5 6 8 7 0"], ["cannot reach the blank-last goal", "parit"]),
        (["1 2 3 0", "--goal", "blank-first"], ["cannot reach the blank-first goal"]),
        ([KORF_17], ["cannot reach the blank-last goal", "can reach the blank-first goal"]),
        (["1 2 three 0"], ["cannot read tiles", "'three'"]),
        (["1;2;3;0"], ["cannot read tiles", "'1;2;3;0'"]),
        ([], ["needs the start board"]),
        ([HARD31, "--goal", "centre"], ["unknown goal 'centre'", "blank-first, blank-last"]),
        ([HARD31, "--algorithm", "bfs"], ["unknown algorithm 'bfs'", "idastar, astar"]),
        ([HARD31, "--heuristic", "euclid"], ["unknown heuristic 'euclid'", "manhattan"]),
        ([HARD31, "--max-expansions", "lots"], ["--max-expansions", "'lots'"]),
        ([HARD31, "--max-expansions", "0"], ["--max-expansions", "'0'"]),
        ([HARD31, "--max-expansions", "-5"], ["--max-expansions", "'-5'"]),
        ([HARD31, "--time", "0"], ["--time", "'0'"]),
        ([HARD31, "--time", "soon"], ["--time", "'soon'"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, fragments) -> None:
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_one_line_error(code, err, *fragments)


def test_help_teaches_with_examples(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        cli_main.main(["puzzle", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    for fragment in ("examples:", "--goal blank-first", "Korf", "blank moves up", "exit codes"):
        assert fragment in text
