"""Moving AI map and scenario files: parsing against the shared data, and every bad-input case."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from one_line import raises_one_line

from searchlab.core.errors import (
    InvalidParameterError,
    InvalidStateError,
    MapFormatError,
    ScenarioFormatError,
)
from searchlab.domains.path.grid import GridMap, GridProblem, manhattan_distance, octile_distance
from searchlab.domains.path.movingai import (
    Scenario,
    check_scenarios,
    load_map,
    load_scenarios,
    parse_map,
    parse_scenarios,
)

GOOD = "type octile\nheight 2\nwidth 3\nmap\n.@T\nGSW\n"


def manifest(shared_data: Path) -> list[dict[str, str]]:
    with open(shared_data / "grid_movingai" / "MANIFEST.tsv", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_every_map_matches_its_manifest_row(shared_data: Path) -> None:
    root = shared_data / "grid_movingai"
    rows = manifest(shared_data)
    assert len(rows) == 12
    for row in rows:
        grid = load_map(root / row["map_file"])
        assert (grid.width, grid.height) == (int(row["width"]), int(row["height"]))
        assert int(grid.passable.sum()) == int(row["passable_cells"]), row["map_file"]
        scenarios = load_scenarios(root / row["scen_file"])
        assert len(scenarios) == int(row["n_scenarios"])
        assert max(s.optimal_length for s in scenarios) == pytest.approx(
            float(row["max_optimal_length"]), abs=1e-4
        )
        check_scenarios(grid, scenarios)  # every start and goal is a free cell of the map


def test_scenario_fields_version_1_and_1_0(shared_data: Path) -> None:
    root = shared_data / "grid_movingai" / "scenarios"
    first = load_scenarios(root / "dao" / "arena.map.scen")[0]
    line = (root / "dao" / "arena.map.scen").read_text().splitlines()[1].split("\t")
    assert first == Scenario(
        index=0,
        bucket=int(line[0]),
        map_name=line[1],
        width=int(line[2]),
        height=int(line[3]),
        start=(int(line[4]), int(line[5])),
        goal=(int(line[6]), int(line[7])),
        optimal_length=float(line[8]),
    )
    bg = load_scenarios(root / "bg512" / "AR0011SR.map.scen")  # 'version 1.0', spaces
    assert bg[0].map_name == "maps/bgmaps/AR0011SR.map"
    assert (bg[0].width, bg[0].height) == (512, 512)


def test_map_characters() -> None:
    grid = parse_map(GOOD)
    # '.', 'G', 'S' passable; '@', 'T', 'W' (and 'O') blocked
    assert grid.passable.tolist() == [[True, False, False], [True, True, False]]
    assert not parse_map("type octile\nheight 1\nwidth 1\nmap\nO\n").passable[0, 0]


def test_crlf_and_trailing_blank_lines() -> None:
    grid = parse_map(GOOD.replace("\n", "\r\n") + "\r\n\r\n")
    assert grid.passable.shape == (2, 3)


BAD_MAPS = {
    "typ octile\nheight 2\nwidth 3\nmap\n...\n...\n": "x.map:1: expected 'type octile'",
    "type octile\nheight two\nwidth 3\nmap\n...\n...\n": "x.map:2: expected 'height <H>'",
    "type octile\nheight 2\nwdth 3\nmap\n": "x.map:3: expected 'width <W>', got 'wdth 3'",
    "type octile\nheight 2\nwidth 3\nmapp\n...\n...\n": "x.map:4: expected 'map'",
    "type octile\nheight 2\nwidth 3\n": "x.map:4: expected 'map', got end of file",
    "type hex\nheight 2\nwidth 3\nmap\n...\n...\n": "x.map:1: only 'type octile'",
    "type octile\nheight 2\nwidth 3\nmap\n...\n..\n": "x.map:6: expected 3 characters",
    "type octile\nheight 2\nwidth 3\nmap\n...\n": "x.map:6: expected 2 map rows",
    "type octile\nheight 1\nwidth 3\nmap\n...\n...\n": "x.map:6: expected 1 map rows",
    "type octile\nheight 1\nwidth 3\nmap\n.x.\n": "x.map:5: unknown map character 'x' at",
    "type octile\nheight 1\nwidth 3\nmap\n.é.\n": "x.map:5: unknown map character 'é'",
    "type octile\nheight 0\nwidth 3\nmap\n": "x.map:2: the map is empty",
}  # fmt: skip


@pytest.mark.parametrize(("text", "fragment"), BAD_MAPS.items())
def test_malformed_maps(text: str, fragment: str) -> None:
    raises_one_line(MapFormatError, lambda: parse_map(text, source="x.map"), fragment)


def test_wrong_row_length_quotes_the_row(tmp_path: Path) -> None:
    path = tmp_path / "bad.map"
    path.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.@..\n")
    with pytest.raises(MapFormatError, match=r"bad\.map:6: .*got 4 in '\.@\.\.'"):
        load_map(path)


def test_missing_map_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_map(tmp_path / "nope.map")
    with pytest.raises(FileNotFoundError):
        load_scenarios(tmp_path / "nope.map.scen")


def test_loaded_map_is_named_after_the_file(tmp_path: Path) -> None:
    path = tmp_path / "tiny.map"
    path.write_text(GOOD)
    assert load_map(path).name == "tiny"


BAD_SCENARIOS = {
    "": "x.scen:1: expected 'version 1' or 'version 1.0', got an empty file",
    "version 2\n": "x.scen:1: expected 'version 1'",
    "version 1\n0\tm.map\t3\t2\t0\t0\t2\n": "x.scen:2: expected 9 fields",
    "version 1\n0\tm.map\t3\t2\tA\t0\t2\t1\t2.0\n": "x.scen:2: expected whole numbers",
}


@pytest.mark.parametrize(("text", "fragment"), BAD_SCENARIOS.items())
def test_malformed_scenarios(text: str, fragment: str) -> None:
    raises_one_line(ScenarioFormatError, lambda: parse_scenarios(text, source="x.scen"), fragment)


def test_scenarios_that_do_not_fit_the_map() -> None:
    grid = parse_map(GOOD, source="g.map")

    def scenario(start: tuple[int, int], goal: tuple[int, int], width: int = 3) -> Scenario:
        return Scenario(7, 0, "g.map", width, 2, start, goal, 1.0)

    check_scenarios(grid, [scenario((0, 0), (1, 1))])
    cases = [
        (scenario((0, 0), (1, 1), width=4), "scenario 7: made for a 4x2 map but 'g.map' is 3x2"),
        (scenario((3, 0), (1, 1)), "scenario 7: start (3, 0) is off the map"),
        (scenario((0, 0), (0, -1)), "scenario 7: goal (0, -1) is off the map"),
        (scenario((1, 0), (1, 1)), "scenario 7: start (1, 0) is a blocked cell"),
        (scenario((0, 0), (2, 1)), "scenario 7: goal (2, 1) is a blocked cell"),
    ]
    for bad, message in cases:
        with pytest.raises(
            ScenarioFormatError, match=message.replace("(", r"\(").replace(")", r"\)")
        ):
            check_scenarios(grid, [bad])


def test_grid_problem_rejects_bad_cells_and_connectivity() -> None:
    grid = GridMap.from_strings(["..@", "..."], name="g")
    with pytest.raises(InvalidStateError, match=r"start \(3, 0\) is off the map 'g'"):
        GridProblem(grid, (3, 0), (0, 0))
    with pytest.raises(InvalidStateError, match=r"goal \(0, 2\) is off the map"):
        GridProblem(grid, (0, 0), (0, 2))
    with pytest.raises(InvalidStateError, match=r"goal \(2, 0\) is a blocked cell of 'g'"):
        GridProblem(grid, (0, 0), (2, 0))
    with pytest.raises(InvalidStateError, match="must be a cell"):
        GridProblem(grid, (0.5, 0), (0, 0))  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="connectivity must be 4 or 8, got 6"):
        GridProblem(grid, (0, 0), (1, 1), connectivity=6)
    with pytest.raises(InvalidParameterError):
        GridMap.from_strings(["..", "."])


def test_successors_follow_the_movement_model() -> None:
    """Checked against a brute-force reading of the README rule, on a random map."""
    rng = np.random.default_rng(5)
    passable = rng.random((9, 11)) > 0.3
    grid = GridMap(passable)
    problem8 = GridProblem(grid, _free(passable, 0), _free(passable, 1))
    problem4 = GridProblem(grid, _free(passable, 0), _free(passable, 1), connectivity=4)
    order = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)]

    def free(x: int, y: int) -> bool:
        return 0 <= x < 11 and 0 <= y < 9 and bool(passable[y, x])

    for y in range(9):
        for x in range(11):
            if not passable[y, x]:
                continue
            expected = [
                ((x + dx, y + dy), 1.0 if dx == 0 or dy == 0 else 2**0.5)
                for dx, dy in order
                if free(x + dx, y + dy) and free(x + dx, y) and free(x, y + dy)
            ]
            assert problem8.successors((x, y)) == expected
            assert problem8.predecessors((x, y)) == expected
            assert problem4.successors((x, y)) == [e for e in expected if e[1] == 1.0]


def test_heuristics() -> None:
    assert octile_distance((2, 7), (5, 3)) == (2**0.5 - 1) * 3 + 4
    assert manhattan_distance((2, 7), (5, 3)) == 7.0
    grid = GridMap.from_strings(["....", "...."])
    assert GridProblem(grid, (0, 0), (3, 1), connectivity=4).heuristic((0, 0)) == 4.0


def _free(passable: np.ndarray, which: int) -> tuple[int, int]:
    ys, xs = np.nonzero(passable)
    index = 0 if which == 0 else len(xs) - 1
    return int(xs[index]), int(ys[index])
