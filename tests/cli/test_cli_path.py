"""``searchlab path``: one query, scenario runs, the picture, and every bad-input case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_main
from PIL import Image

from searchlab.cli.main import main
from searchlab.domains.path.movingai import Scenario, load_scenarios

REPO = Path(__file__).resolve().parents[2]
ARENA = REPO / "examples" / "maps" / "arena.map"
ARENA_SCEN = REPO / "examples" / "maps" / "arena.map.scen"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_main(capsys, "path", *argv)


def endpoints(scenario: Scenario) -> list[str]:
    return ["--from", "{},{}".format(*scenario.start), "--to", "{},{}".format(*scenario.goal)]


def one_line_error(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_example_files_are_the_shared_ground_truth(shared_data: Path) -> None:
    root = shared_data / "grid_movingai"
    assert ARENA.read_bytes() == (root / "maps" / "dao" / "arena.map").read_bytes()
    assert ARENA_SCEN.read_bytes() == (root / "scenarios" / "dao" / "arena.map.scen").read_bytes()


def test_single_query_prints_cost_and_draws(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scenario = load_scenarios(ARENA_SCEN)[-1]
    png = tmp_path / "arena.png"
    code, out, err = run(capsys, ARENA, *endpoints(scenario), "--png", png)
    assert code == 0 and err == ""
    assert f"cost {scenario.optimal_length:.4f}" in out
    assert "expanded" in out and "ms" in out
    image = Image.open(png)
    assert image.size[0] >= 400 and image.size[0] == image.size[1]


def test_single_query_json(capsys) -> None:  # type: ignore[no-untyped-def]
    scenario = load_scenarios(ARENA_SCEN)[40]
    code, out, _ = run(capsys, ARENA, *endpoints(scenario), "--algorithm", "jps", "--json")
    report = json.loads(out)
    assert code == 0
    assert abs(report["cost"] - scenario.optimal_length) <= 0.01
    assert report["path"][0] == list(scenario.start) and report["path"][-1] == list(scenario.goal)
    assert report["algorithm"] == "jps" and report["status"] == "solved"


@pytest.mark.parametrize("algorithm", ["astar", "jps", "dijkstra"])
def test_scenario_run_checks_every_cost(capsys, algorithm: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ARENA, "--scen", ARENA_SCEN, "--algorithm", algorithm)
    assert code == 0
    assert "160/160 solved" in out
    assert "cost mismatches vs optimal (tolerance 0.01): 0" in out


def test_scenario_run_json_lines(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(
        capsys, ARENA, "--scen", ARENA_SCEN, "--limit", "25", "--algorithm", "wastar",
        "--weight", "1.5", "--json",
    )  # fmt: skip
    rows = [json.loads(line) for line in out.splitlines()]
    scenarios = load_scenarios(ARENA_SCEN)[:25]
    assert code == 0 and len(rows) == 25
    for row, scenario in zip(rows, scenarios, strict=True):
        assert {"index", "cost", "optimal", "expanded", "ms", "status", "start", "goal"} <= set(row)
        assert row["index"] == scenario.index and row["optimal"] == scenario.optimal_length
        assert scenario.optimal_length - 0.01 <= row["cost"] <= 1.5 * scenario.optimal_length + 0.01
    assert "25/25 solved" in err and "bound W = 1.5" in err


def test_suboptimal_algorithms_report_suboptimality(capsys) -> None:  # type: ignore[no-untyped-def]
    for algorithm in ("greedy", "bfs"):
        code, out, _ = run(capsys, ARENA, "--scen", ARENA_SCEN, "--algorithm", algorithm)
        assert code == 0 and "suboptimality" in out and "mismatch" not in out


def test_four_connectivity_is_not_compared_to_octile_lengths(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ARENA, "--scen", ARENA_SCEN, "--limit", "5", "--connectivity", "4")
    assert code == 0 and "costs not compared" in out


def test_max_expansions_makes_the_run_fail(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ARENA, "--scen", ARENA_SCEN, "--max-expansions", "3")
    assert code == 1 and "not solved" in out
    code, _, err = run(capsys, ARENA, "--from", "1,7", "--to", "47,46", "--max-expansions", "3")
    assert code == 1 and "stopped after 3 expansions" in one_line_error(err)


def test_unreachable_goal(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    walled = tmp_path / "walled.map"
    walled.write_text("type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n")
    code, out, err = run(capsys, walled, "--from", "0,0", "--to", "4,2")
    assert code == 1 and out == ""
    assert "no path from (0, 0) to (4, 2)" in one_line_error(err)


def test_wrong_cost_is_reported_as_a_mismatch(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = ARENA_SCEN.read_text().splitlines()
    fields = lines[1].split("\t")
    fields[8] = str(float(fields[8]) + 1.0)
    bad = tmp_path / "bad.scen"
    bad.write_text("\n".join([lines[0], "\t".join(fields), lines[2]]) + "\n")
    code, out, _ = run(capsys, ARENA, "--scen", bad)
    assert code == 1 and "cost mismatches vs optimal (tolerance 0.01): 1" in out


def test_help_teaches_coordinates_and_examples(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as info:
        main(["path", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert "column,row" in out and "(0,0) the top-left" in out
    assert "searchlab path examples/maps/arena.map --from" in out


def scen_with(tmp_path: Path, line: str) -> Path:
    path = tmp_path / f"case{len(list(tmp_path.glob('*.scen')))}.scen"
    path.write_text(f"version 1\n{line}\n")
    return path


Q = [ARENA, "--from", "3,3", "--to", "4,4"]  # a valid single query
S = [ARENA, "--scen", ARENA_SCEN]  # a valid scenario run
BAD_INPUTS = [
    (["nope.map", "--from", "1,1", "--to", "2,2"], "no such file: nope.map"),
    ([ARENA, "--scen", "nope.scen"], "no such file: nope.scen"),
    ([ARENA, "--from", "3;3", "--to", "4,4"], "--from expects X,Y (column,row, integers), got"),
    ([ARENA, "--from", "3,3", "--to", "x,4"], "--to expects X,Y"),
    ([ARENA, "--from", "3,3"], "needs both --from and --to; --to is missing"),
    ([ARENA], "path needs --scen FILE or --from X,Y --to X,Y"),
    ([ARENA, "--from", "3,3", "--to", "99,4"], "goal (99, 4) is off the map 'arena'"),
    ([ARENA, "--from", "0,0", "--to", "4,4"], "start (0, 0) is a blocked cell of 'arena'"),
    ([*Q, "--algorithm", "wastar", "--weight", "0.5"], "--weight expects a number >= 1, got '0.5'"),
    ([*Q, "--algorithm", "wastar", "--weight", "abc"], "--weight expects a number >= 1"),
    ([*Q, "--weight", "2"], "--weight applies to --algorithm weighted_astar only, not 'astar'"),
    ([*Q, "--algorithm", "dfs"], "unknown algorithm 'dfs': expected one of astar, weighted_a"),
    ([*Q, "--connectivity", "6"], "--connectivity expects 8 or 4, got '6'"),
    ([*Q, "--algorithm", "jps", "--connectivity", "4"], "jps needs 8-connectivity"),
    ([*S, "--limit", "0"], "--limit expects a whole number > 0, got '0'"),
    ([*S, "--max-expansions", "-3"], "--max-expansions expects a whole number > 0"),
    ([*S, "--from", "3,3", "--to", "4,4"], "either --scen FILE or --from"),
    ([*S, "--png", "x.png"], "--png draws a single query"),
    ([*Q, "--limit", "3"], "--limit applies to --scen runs only"),
    ([*Q, "--png", "/no/such/dir/x.png"], "--png: no such folder"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_INPUTS, ids=[m[:40] for _, m in BAD_INPUTS])
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list, message: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_line_error(err)
    assert line.startswith("searchlab: error: ") and message in line, line


def test_bad_files_are_one_line_and_exit_2(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad_map = tmp_path / "bad.map"
    bad_map.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.@..\n")
    cases = [
        ([bad_map, "--from", "0,0", "--to", "1,1"], "bad.map:6: expected 3 characters"),
        (
            [*S[:2], scen_with(tmp_path, "0\tm.map\t50\t49\t1\t7\t2\t7\t1")],
            "scenario 0: made for a 50x49 map but 'arena' is 49x49",
        ),
        (
            [*S[:2], scen_with(tmp_path, "0\tm.map\t49\t49\t0\t0\t2\t7\t1")],
            "scenario 0: start (0, 0) is a blocked cell",
        ),
        (
            [*S[:2], scen_with(tmp_path, "0\tm.map\t49\t49\t1\t7\t49\t7\t1")],
            "scenario 0: goal (49, 7) is off the map",
        ),
        ([*S[:2], scen_with(tmp_path, "0\tm.map\t49\t49\t1\t7")], ".scen:2: expected 9 fields"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        assert message in one_line_error(err)
