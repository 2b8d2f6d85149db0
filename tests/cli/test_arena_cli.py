"""``searchlab arena``: standings, --json, SPRT, and one-line errors that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.arena.schedule import DEFAULT_OPENING_PLIES
from searchlab.arena.store import ArenaStore

KEYS = {"agent", "games", "wins", "draws", "losses", "score", "elo", "elo_ci"}


def arena(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    return run_main(capsys, "arena", *argv, "--db", db)


def test_json_standings_are_consistent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    specs = ["random", "greedy", "alphabeta:depth=3"]
    code, out, err = arena(capsys, db, "tictactoe", *specs, "--games", "6", "--json")
    assert code == 0, err
    assert out.count("\n") == 1
    rows = json.loads(out)
    assert isinstance(rows, list) and {row["agent"] for row in rows} == set(specs)
    total = 3 * 6
    for row in rows:
        assert set(row) == KEYS
        assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 12
        assert row["score"] == row["wins"] + row["draws"] / 2
        assert row["elo_ci"] > 0
    assert sum(row["score"] for row in rows) == total
    assert sum(row["wins"] for row in rows) == sum(row["losses"] for row in rows)
    assert sum(row["elo"] for row in rows) == pytest.approx(0, abs=0.2)
    assert [row["elo"] for row in rows] == sorted((row["elo"] for row in rows), reverse=True)
    with ArenaStore.open(db) as store:
        assert store.count() == total


def test_a_rerun_resumes_and_more_games_extend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nim.sqlite"
    argv = ("nim", "-p", "piles=2,3", "random", "greedy")
    assert arena(capsys, db, *argv, "--games", "4")[0] == 0
    code, out, _ = arena(capsys, db, *argv, "--games", "4")
    assert code == 0 and "played 0 of 4 scheduled games, 4 already stored" in out
    code, out, _ = arena(capsys, db, *argv, "--games", "10", "--json")
    assert code == 0
    assert {row["games"] for row in json.loads(out)} == {10}


def test_text_output_is_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = arena(
        capsys, tmp_path / "t.sqlite", "tictactoe", "random", "greedy", "--games", "2"
    )
    assert code == 0
    assert "tictactoe: 2 games in" in out
    assert "random" in out and "greedy" in out and "Elo" in out


def test_move_time_renames_the_agents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = arena(
        capsys, tmp_path / "t.sqlite", "tictactoe", "random", "alphabeta", "--games", "2",
        "--move-time", "0.01", "--json",
    )  # fmt: skip
    assert code == 0
    assert {row["agent"] for row in json.loads(out)} == {"random@0.01s", "alphabeta@0.01s"}


def test_sprt_stops_a_decided_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sprt.sqlite"
    argv = ("tictactoe", "alphabeta:depth=9", "random", "--games", "200", "--sprt", "0,100")
    code, out, err = arena(capsys, db, *argv)
    assert code == 0, err
    assert "H1 accepted" in out
    with ArenaStore.open(db) as store:
        played = store.count()
    assert 2 <= played < 200
    # rerun: already decided, nothing more is played
    code, out, _ = arena(capsys, db, *argv)
    assert code == 0 and "H1 accepted" in out and "played 0 of 200" in out
    with ArenaStore.open(db) as store:
        assert store.count() == played


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (("tictactoe", "random", "minimax"), ("unknown agent 'minimax'",)),
        (("tictactoe", "random", "mcts:simulatons=10"), ("unknown parameter 'simulatons'",)),
        (("tictactoe", "random", "alphabeta:depth=x"), ("depth must be a whole number",)),
        (("tictactoe", "random", "alphabeta:depth"), ("expected NAME=VALUE",)),
        (("tictactoe", "random", "human"), ("searchlab play",)),
        (("tictactoe", "random"), ("at least two",)),
        (("tictactoe", "random", "random"), ("given twice",)),
        (("chess", "random", "greedy"), ("unknown game 'chess'",)),
        (("tictactoe", "random", "greedy", "--sprt", "10,0"), ("elo0 < elo1",)),
        (("tictactoe", "random", "greedy", "alphabeta", "--sprt", "0,10"), ("exactly two",)),
        (("tictactoe", "random", "greedy", "--openings", "9"), ("openings=9",)),
        (("tictactoe", "random", "greedy", "--openings", "-1"), ("--openings",)),
        (("tictactoe", "random", "greedy", "--move-time", "0"), ("--move-time",)),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    fragments: tuple[str, ...],
) -> None:
    db = tmp_path / "arena.sqlite"
    code, out, err = arena(capsys, db, *argv, "--games", "2")
    assert_one_line_error(code, err, *fragments)
    assert out == ""
    assert not db.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("games", ["0", "-3", "many"])
def test_games_must_be_positive(capsys: pytest.CaptureFixture[str], games: str) -> None:
    with pytest.raises(SystemExit) as info:  # argparse's own errors exit directly
        run_main(capsys, "arena", "nim", "random", "greedy", "--games", games)
    assert_one_line_error(info.value.code, capsys.readouterr().err, "--games")


def test_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_main(capsys, "arena", "--help")
    out = capsys.readouterr().out
    for fragment in ("--games N", "--workers", "--db", "--sprt", "--openings", "examples:"):
        assert fragment in out


def test_help_documents_openings_time_and_signals(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_main(capsys, "arena", "--help")
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert f"(default {DEFAULT_OPENING_PLIES}," in out
    for fragment in ("--time S", "130", "143", "deterministic", "resume"):
        assert fragment in out, fragment


DETERMINISTIC = ("connect4", "alphabeta:depth=2", "alphabeta:depth=3", "--games", "6", "--json")


def test_repeated_games_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = arena(capsys, tmp_path / "a.sqlite", *DETERMINISTIC, "--openings", "0")
    assert code == 0
    assert err == (
        "searchlab: warning: games repeat move for move (alphabeta:depth=2 vs "
        "alphabeta:depth=3: 2 different games of 6): the agents are deterministic; "
        "--openings K starts each game pair from K random plies\n"
    )
    code, _, err = arena(capsys, tmp_path / "b.sqlite", *DETERMINISTIC)  # default openings
    assert (code, err) == (0, "")
    with ArenaStore.open(tmp_path / "b.sqlite") as store:
        records = store.records()
    assert len({(record.first, record.opening, record.moves) for record in records}) == 6


def test_a_time_limit_stops_starting_games_and_a_rerun_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    argv = ("tictactoe", "random", "greedy", "--games", "6")
    code, out, err = arena(capsys, db, *argv, "--time", "1e-9")
    assert code == 0
    assert "played 0 of 6 scheduled games" in out
    assert err.startswith("searchlab: time limit of 1e-09 s reached: played 0 of the 6 games")
    code, out, _ = arena(capsys, db, *argv, "--time", "600")
    assert code == 0 and "played 6 of 6 scheduled games" in out


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
def test_the_time_limit_must_be_a_positive_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    db = tmp_path / "arena.sqlite"
    code, out, err = arena(capsys, db, "tictactoe", "random", "greedy", "--games", "2",
                           "--time", seconds)  # fmt: skip
    assert_one_line_error(code, err, "--time")
    assert out == "" and not db.exists()


def test_one_p_carries_several_game_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-p m=4,n=3,k=3`` as in every other command: the games are played on that board."""
    db = tmp_path / "p.sqlite"
    code, _, err = arena(capsys, db, "mnk", "random", "greedy", "-p", "m=4,n=3,k=3",
                           "--games", "2", "--json")  # fmt: skip
    assert code == 0, err
    with ArenaStore.open(db) as store:
        games = {record.game for record in store.records()}
    assert games and all("m=4" in game and "n=3" in game and "k=3" in game for game in games)
