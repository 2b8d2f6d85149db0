"""Failures that must be loud: one line, a non-zero exit, nothing stored, no hang.

* an external engine that cannot play (a typo in its options, ``false``, ``cat``, one that never
  answers) stops ``arena`` before the first game, and nothing is stored;
* a game of your own whose code raises is one line naming your file and line, in every command
  (``play``, ``analyse``, ``perft``, ``arena``; ``solve`` already did it);
* a game of your own that never ends stops MCTS and the game loops at its ``max_game_length``;
* ``solve nim`` answers huge piles at once (by the XOR rule), and a file that cannot hold the
  arena's database is one line.

The commands that used to hang run in a child process with a timeout, so that a regression
fails instead of hanging the suite.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import GAMES, assert_one_line_error, run_main
from cli_support import GAMES_APPLY_LINE as APPLY_LINE
from hang_guard import hang_guard
from needs import gnugo_program, in_ci


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "my_games.py"
    path.write_text(GAMES)
    assert path.read_text().splitlines()[APPLY_LINE - 1].strip().startswith("raise KeyError")
    return path


def searchlab(*argv: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``searchlab ARGV`` in a child process; a hang fails the test after ``timeout`` s."""
    return subprocess.run(
        [sys.executable, "-m", "searchlab", *map(str, argv)],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


# -- a broken engine ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "fragments"),
    [
        (
            "{gnugo} --mode gtp --levle 10",
            ["--levle 10' exited with code 1 during 'protocol_version'",
             "unrecognized option", "before any move"],
        ),
        ("false", ["GTP engine 'false' exited with code 1 during 'protocol_version'"]),
        ("cat", ["GTP engine 'cat' answered 'protocol_version' with '1 protocol_version'",
                 "not a GTP response"]),
        ("sleep 600,timeout=1", ["GTP engine 'sleep 600' did not answer 'protocol_version' "
                                "within 1 s"]),
    ],
)  # fmt: skip
def test_an_engine_that_cannot_play_stops_the_arena_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, fragments: list[str]
) -> None:
    gnugo = gnugo_program() if "{gnugo}" in command else ""
    spec = "gtp:command=" + command.format(gnugo=gnugo)
    db = tmp_path / "arena.sqlite"
    with hang_guard("an arena with an engine that cannot play"):  # 'sleep 600': its timeout
        code, out, err = run_main(
            capsys, "arena", "go", "mcts:simulations=50", spec, "--games", "4", "-p", "size=5",
            "--db", db,
        )  # fmt: skip
    assert_one_line_error(code, err, *fragments)
    assert out == ""
    assert not db.exists()  # nothing stored: no forfeit distorts a later rating


def test_a_working_engine_still_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "arena.sqlite"
    spec = f"gtp:command={gnugo_program()} --mode gtp --level 0"
    code, _, err = run_main(
        capsys, "arena", "go", "random", spec, "--games", "2", "-p", "size=5", "--db", db,
        "--json",
    )  # fmt: skip
    assert code == 0, err
    with sqlite3.connect(db) as connection:
        terminations = [row[0] for row in connection.execute("SELECT termination FROM games")]
    assert len(terminations) == 2 and "error" not in terminations


# -- a game of your own that raises ---------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["play", "{game}", "--first", "random", "--second", "random"],
        ["play", "{game}", "--first", "random", "--second", "mcts:simulations=50", "--json"],
        ["analyse", "{game}", "--agent", "mcts:simulations=50"],
        ["perft", "{game}", "--depth", "5"],
        ["arena", "{game}", "random", "greedy", "--games", "2", "--db", ":memory:"],
    ],
)
def test_a_game_of_your_own_that_raises_is_one_line(
    games: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    game = f"{games}:Broken"
    code, _, err = run_main(capsys, *(part.format(game=game) for part in argv))
    assert_one_line_error(
        code,
        err,
        f"searchlab: error: {argv[0]} {game}: your game failed: KeyError: 'the pile fell below 5'",
        f"(my_games.py line {APPLY_LINE}, in apply)",
    )


def test_solve_names_the_line_too(games: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "solve", f"{games}:Broken")
    assert_one_line_error(
        code, err, "your game failed while solving: KeyError", f"my_games.py line {APPLY_LINE}"
    )


def test_the_arena_stores_no_game_of_a_game_that_raises(games: Path, tmp_path: Path) -> None:
    """In worker processes too (the error crosses a pipe, without its traceback)."""
    db = tmp_path / "arena.sqlite"
    # no random opening: drawn in this process before any game, it could reach the bug first
    done = searchlab("arena", f"{games}:Broken", "random", "greedy", "--games", "4",
                     "--workers", "2", "--openings", "0", "--db", db)  # fmt: skip
    assert_one_line_error(done.returncode, done.stderr, "your game failed: KeyError")
    assert f"(my_games.py line {APPLY_LINE}, in apply)" in done.stderr  # made in the worker
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


def test_a_searchlab_bug_keeps_its_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a game of your own is blamed: searchlab's own errors are not hidden."""

    def crash(args: object) -> int:
        raise KeyError("a bug of ours")

    monkeypatch.setattr("searchlab.cli.perft.run", crash)
    with pytest.raises(KeyError, match="a bug of ours"):
        run_main(capsys, "perft", "nim", "--depth", "1")


# -- a game of your own that never ends ------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["analyse", "{game}", "--agent", "mcts:simulations=100"],
         "a rollout of the game did not end within 30 plies"),
        (["analyse", "{game}", "--agent", "flatmc:simulations=100"],
         "a rollout of the game did not end within 30 plies"),
        (["analyse", "{game}", "--agent", "mcts:simulations=100,rave=100"],
         "a rollout of the game did not end within 30 plies"),
        (["play", "{game}", "--first", "random", "--second", "random", "--quiet"],
         "game 'endless' is not over after 30 plies, its max_game_length"),
        (["arena", "{game}", "random", "greedy", "--games", "2", "--db", ":memory:"],
         "game 'endless' is not over after 30 plies, its max_game_length"),
    ],
)  # fmt: skip
def test_a_game_that_never_ends_is_cut_at_its_length(
    games: Path, argv: list[str], fragment: str
) -> None:
    done = searchlab(*(part.format(game=f"{games}:Endless") for part in argv), timeout=60)
    assert_one_line_error(done.returncode, done.stderr, fragment)


# -- unbounded work ------------------------------------------------------------------------------
def test_solve_nim_answers_huge_piles_at_once() -> None:
    # no timing: a search of these piles would never end, and the 60 s timeout fails a hang
    done = searchlab("solve", "nim", "99999999999999999999999999,3", "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"move":"1:99999999999999999999999996"' in done.stdout  # leave 3 3
    assert '"after":[3,3]' in done.stdout


def test_solve_nim_piles_past_what_python_reads_are_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    limit = sys.get_int_max_str_digits()
    if not limit:
        pytest.skip("this Python reads numbers of any length")
    code, _, err = run_main(capsys, "solve", "nim", "9" * (limit + 1) + ",3")
    assert_one_line_error(code, err, f"pile 1 has {limit + 1} digits, more than the {limit}")
    assert len(err) < 200  # the number is not quoted
    code, _, err = run_main(capsys, "solve", "nim", "3," + "x" * 500)
    assert_one_line_error(code, err, "malformed piles '3,xxx", "...'")
    assert len(err) < 200


# Off Linux there is no /proc; in CI (Linux, CI=true) never skipped.
@pytest.mark.skipif(not Path("/proc/version").is_file() and not in_ci(), reason="needs /proc")
@pytest.mark.parametrize("path", ["/proc/version", "/dev/null"])
def test_a_database_that_cannot_be_written_is_one_line(
    capsys: pytest.CaptureFixture[str], path: str
) -> None:
    code, out, err = run_main(
        capsys, "arena", "nim", "random", "greedy", "--games", "2", "--db", path
    )
    assert_one_line_error(code, err, f"arena database {path}: ")
    assert out == ""
