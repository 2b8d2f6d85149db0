"""The suite's xdist scheduling (tests/suite_schedule.py): whole files to each process, the
browser lab's server files as one unit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from suite_schedule import SERVER_GROUP, scope_of, server_files

REPO = Path(__file__).resolve().parents[1]


def test_server_files_are_those_with_a_test_taking_the_server_or_a_lab_page(
    tmp_path: Path,
) -> None:
    tests = tmp_path / "tests" / "web"
    tests.mkdir(parents=True)
    (tests / "test_page.py").write_text("def test_a(\n    lab: Any, screenshot: Any\n) -> None:\n")
    (tests / "test_raw.py").write_text("def test_b(tmp_path, server):\n    pass\n")
    (tests / "test_api.py").write_text("def test_c(client: Any) -> None:\n    laboratory = 1\n")
    (tests / "helpers.py").write_text("def test_d(lab):\n    pass\n")  # not a test file
    assert server_files(tmp_path) == {"tests/web/test_page.py", "tests/web/test_raw.py"}
    assert scope_of("tests/web/test_raw.py::test_b", server_files(tmp_path)) == SERVER_GROUP


def test_under_xdist_each_file_runs_whole_on_one_process() -> None:
    files = ["tests/core/test_elo.py", "tests/core/test_tier.py"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v",
         "-p", "no:cacheprovider", *files],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "SEARCHLAB_TEST_WARMUP": "0"},  # two files without kernels
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = re.findall(r"\[(gw\d)\] \[ *\d+%\] PASSED (\S+?)::", done.stdout)
    assert {file for _, file in ran} == set(files)
    workers = {file: {gw for gw, name in ran if name == file} for file in files}
    assert all(len(used) == 1 for used in workers.values()), workers


def test_the_kernel_warm_up_parts_share_out_every_built_in_game() -> None:
    """tests/kernel_warmup.py's two parts (run side by side before an xdist run) compile
    every built-in game's kernels, each game in one part only."""
    import kernel_warmup

    from searchlab.domains.games import GAMES

    go, rest = kernel_warmup.games_of("go"), kernel_warmup.games_of("rest")
    assert sorted(go + rest) == sorted(GAMES) and not set(go) & set(rest)
    assert "go" in go  # the longest compile, beside the rest
    with pytest.raises(ValueError, match="unknown part"):
        kernel_warmup.games_of("all")
