"""Without the ``cli`` extra (a plain ``pip install searchlab``: no rich, no Pillow), every
command works, or fails with one line naming the extra; never a traceback.

Each command runs in a subprocess where importing rich and PIL fails (``sys.modules[name] =
None``, as if they were not installed): the commands that work and every ``--help`` one after
another in one such subprocess (a fixture of the module), the others each in its own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from searchlab.cli.main import SUBCOMMANDS

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "examples" / "maps"
TREE = ROOT / "examples" / "trees" / "aima_fig5_2.tree"
EXTRA_LINE = "needs the cli extra: pip install 'searchlab[cli]'"

WITHOUT_EXTRA = (
    "import sys\n"
    "sys.modules['rich'] = None\n"
    "sys.modules['PIL'] = None\n"
    "from searchlab.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def run_without_extra(*argv: object, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRA, *map(str, argv)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        timeout=300,
    )


BATCH_WITHOUT_EXTRA = (
    "import contextlib, io, json, sys, traceback\n"
    "sys.modules['rich'] = None\n"
    "sys.modules['PIL'] = None\n"
    "from searchlab.cli.main import main\n"
    "results = []\n"
    "for argv in json.loads(sys.stdin.read()):\n"
    "    out, err = io.StringIO(), io.StringIO()\n"
    "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
    "        try:\n"
    "            code = main(argv)\n"
    "        except SystemExit as stop:\n"
    "            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)\n"
    "        except BaseException:\n"
    "            traceback.print_exc()\n"
    "            code = 1\n"
    "    results.append([code, out.getvalue(), err.getvalue()])\n"
    "with open(sys.argv[1], 'w') as handle:\n"
    "    json.dump(results, handle)\n"
)


def run_many_without_extra(
    commands: list[list[str]], tmp_path: Path
) -> dict[tuple[str, ...], subprocess.CompletedProcess[str]]:
    """Each command of ``commands`` run by ``main`` in turn in ONE subprocess where importing
    rich and PIL fails (as :func:`run_without_extra` does for one; a process start and the
    library's import per command were most of these tests' time); each command's exit code,
    stdout and stderr, by its argv."""
    import json

    results = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-c", BATCH_WITHOUT_EXTRA, str(results)],
        input=json.dumps(commands), capture_output=True, text=True, check=False, cwd=ROOT,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        tuple(argv): subprocess.CompletedProcess(argv, code, out, err)
        for argv, (code, out, err) in zip(commands, json.loads(results.read_text()), strict=True)
    }


def test_the_blocking_works() -> None:
    probe = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRA.split("from")[0] + "import rich.console"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr


COMMANDS_THAT_WORK = [
    (["path", MAPS / "arena.map", "--scen", MAPS / "arena.map.scen", "--limit", "20"], "20/20"),
    (["path", MAPS / "arena.map", "--from", "3,3", "--to", "45,45"], "cost"),
    (["analyse", "tictactoe", "--agent", "mcts:simulations=300"], "root children"),
    (["analyse", "tictactoe", "--agent", "alphabeta:depth=9"], "principal variation"),
    (["play", "tictactoe", "--first", "greedy", "--second", "random"], "game over"),
    (["puzzle", "1 2 3 4 5 6 0 7 8"], "optimal solution: 2 moves"),
    (["perft", "tictactoe", "--depth", "3"], "504"),
    (["tree", TREE, "--alphabeta"], "value: 3"),
    (["solve", "nim", "3,4,5"], "winning move"),
    (["solve", "tictactoe"], "draw"),
]


def _help_argv(command: str) -> list[str]:
    return [*([command] if command else []), "--help"]


@pytest.fixture(scope="module")
def batch(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, ...], subprocess.CompletedProcess[str]]:
    """The commands that work and every command's ``--help``, run once in one subprocess
    without the extra (:func:`run_many_without_extra`)."""
    commands = [[str(word) for word in argv] for argv, _ in COMMANDS_THAT_WORK]
    commands += [_help_argv(command) for command in ["", *SUBCOMMANDS]]
    return run_many_without_extra(commands, tmp_path_factory.mktemp("extras"))


@pytest.mark.parametrize(("argv", "expected"), COMMANDS_THAT_WORK)
def test_commands_work_without_the_extra(
    batch: dict[tuple[str, ...], subprocess.CompletedProcess[str]],
    argv: list[object],
    expected: str,
) -> None:
    completed = batch[tuple(str(word) for word in argv)]
    assert completed.returncode == 0, completed.stderr
    assert expected in completed.stdout
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("command", ["", *SUBCOMMANDS])
def test_help_of_every_command_without_the_extra(
    batch: dict[tuple[str, ...], subprocess.CompletedProcess[str]], command: str
) -> None:
    completed = batch[tuple(_help_argv(command))]
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("usage: searchlab")


def test_solve_files_work_without_the_extra(shared_data: Path) -> None:
    """``solve`` with a file shows a progress bar when it can, and works without one."""
    pons = shared_data / "connect4_pons" / "Test_L3_R1"
    completed = run_without_extra("solve", "connect4", "--positions", pons, "--limit", "3")
    assert completed.returncode == 0, completed.stderr
    assert "3 positions, 0 mismatches" in completed.stdout
    ffo = shared_data / "othello_ffo" / "ffo_endgame.obf"
    completed = run_without_extra("solve", "othello", "--obf", ffo, "--limit", "1")
    assert completed.returncode == 0, completed.stderr
    assert "+18" in completed.stdout  # FFO #1: G8 wins by 18 discs
    assert "Traceback" not in completed.stderr


def test_analyse_table_is_plain_text_without_rich() -> None:
    completed = run_without_extra("analyse", "nim", "-p", "piles=1,2", "--agent", "mcts")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    header = lines.index("root children")
    assert lines[header + 1].split() == ["move", "visits", "value", "prior", "proven"]
    assert "\u2503" not in completed.stdout and "\u2502" not in completed.stdout  # no box


@pytest.mark.parametrize(
    ("argv", "feature"),
    [
        (["path", MAPS / "arena.map", "--from", "3,3", "--to", "45,45", "--png"], "path --png"),
        (["analyse", "connect4", "--agent", "mcts:simulations=200", "--png"], "analyse --png"),
    ],
)
def test_pictures_need_pillow_one_line_before_any_search(
    argv: list[object], feature: str, tmp_path: Path
) -> None:
    out = tmp_path / "picture.png"
    completed = run_without_extra(*argv, out)
    assert completed.returncode == 2
    assert completed.stderr == f"searchlab: error: 'searchlab {feature}' {EXTRA_LINE}\n"
    assert completed.stdout == ""  # nothing searched, nothing printed
    assert not out.exists()


def test_arena_works_without_the_extra(tmp_path: Path) -> None:
    completed = run_without_extra(
        "arena", "tictactoe", "random", "greedy", "--games", "2", "--db", tmp_path / "a.sqlite"
    )
    assert "Traceback" not in completed.stderr
    assert completed.returncode == 0, completed.stderr
    header = next(line for line in completed.stdout.splitlines() if "agent" in line)
    assert header.split()[:3] == ["#", "agent", "games"]  # the plain table
    assert "greedy" in completed.stdout and "random" in completed.stdout
