"""``searchlab path`` and the Path lab's job run the registry's algorithms alike: each entry,
through the command line and through the web job, gives the same cost and expansions."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_support import run_main

from searchlab.algorithms.path.registry import PATH_ALGORITHMS
from searchlab.web.jobs import path_job

ROWS = ["........", ".@@@@@..", "......@.", ".@@.@.@.", "....@..."]
QUERIES = [((0, 0), (7, 4)), ((7, 0), (0, 4))]


@pytest.fixture(scope="module")
def map_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("maps") / "small.map"
    header = f"type octile\nheight {len(ROWS)}\nwidth {len(ROWS[0])}\nmap\n"
    path.write_text(header + "\n".join(ROWS) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(PATH_ALGORITHMS))
def test_each_algorithm_gives_the_same_answer_on_the_command_line_and_in_the_lab(
    capsys: pytest.CaptureFixture[str], map_file: Path, name: str
) -> None:
    weight = ["--weight", "1.5"] if "weight" in PATH_ALGORITHMS[name].options else []
    for start, goal in QUERIES:
        code, out, err = run_main(
            capsys, "path", str(map_file), "--from", "{},{}".format(*start), "--to",
            "{},{}".format(*goal), "--algorithm", name, *weight, "--json",
        )  # fmt: skip
        assert code == 0, err
        cli = json.loads(out)
        payload = {
            "file": None, "rows": ROWS, "start": list(start), "goal": list(goal),
            "connectivity": 8, "algorithm": name, "heuristic": "octile", "weight": 1.5,
            "expansions": 10_000, "events": True,
        }  # fmt: skip
        lab = path_job(payload, SimpleNamespace(seconds=60.0))
        assert cli["algorithm"] == lab["algorithm"] == name
        assert cli["status"] == lab["status"] == "solved"
        assert (cli["cost"], cli["expanded"], cli["generated"]) == (
            lab["cost"],
            lab["expanded"],
            lab["generated"],
        )
        assert cli["path"] == lab["path"]
        assert [event[0] for event in lab["events"]].count("expand") == lab["expanded"]
