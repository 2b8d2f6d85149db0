"""The arena's SQLite file: games kept, and files that are not arena files left untouched."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.arena.schedule import round_robin
from searchlab.arena.store import APPLICATION_ID, ArenaDatabaseError, ArenaStore
from searchlab.arena.worker import GameRecord, play_game


def some_records(count: int) -> list[GameRecord]:
    jobs = round_robin("tictactoe", ["random", "greedy"], count, seed=11, openings=1)
    return [play_game(job) for job in jobs]


def arena_file(path: Path, games: int = 40) -> Path:
    with ArenaStore.open(path) as store:
        for record in some_records(games):
            store.add(record)
    return path


def test_games_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite"
    records = some_records(6)
    with ArenaStore.open(path) as store:
        assert [store.add(record) for record in records] == [True] * 6
    with ArenaStore.open(path) as store:
        assert store.records() == records
        assert store.keys() == {record.key for record in records}
        assert store.add(records[0]) is False  # one game per job key
        assert store.count() == 6 and store.count(game="tictactoe") == 6
        assert store.count(game="nim") == 0 and store.records(game="nim") == []
    with sqlite3.connect(path) as raw:
        (application_id,) = raw.execute("PRAGMA application_id").fetchone()
        plies, moves, times = raw.execute("SELECT plies, moves, move_times FROM games").fetchone()
    assert application_id == APPLICATION_ID
    assert plies == len(records[0].opening) + len(records[0].moves)
    assert moves.startswith("[") and times.startswith("[")


def test_an_empty_file_becomes_an_arena_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    with ArenaStore.open(path) as store:
        store.add(some_records(1)[0])
    with ArenaStore.open(path) as store:
        assert store.count() == 1


def foreign_database(path: Path) -> Path:
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        raw.execute("INSERT INTO customers (name) VALUES ('Ada')")
    return path


def newer_arena_file(path: Path) -> Path:
    arena_file(path, 2)
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 2")
    return path


def damaged_schema(path: Path) -> Path:
    arena_file(path, 2)
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE games")
    return path


def truncated_arena_file(path: Path) -> Path:
    arena_file(path, 200)
    data = path.read_bytes()
    assert len(data) > 4 * 4096
    path.write_bytes(data[: len(data) // 2])
    return path


def overwritten_arena_file(path: Path) -> Path:
    """An arena file whose pages after the first were overwritten with noise."""
    arena_file(path, 200)
    data = bytearray(path.read_bytes())
    noise = os.urandom(len(data) - 4096)
    data[4096:] = noise
    path.write_bytes(bytes(data))
    return path


def random_bytes(path: Path) -> Path:
    path.write_bytes(os.urandom(5000))
    return path


def text_file(path: Path) -> Path:
    path.write_text("agent,score\nrandom,3\n")
    return path


BAD_FILES = [
    (foreign_database, "another program"),
    (newer_arena_file, "newer searchlab"),
    (damaged_schema, "damaged schema"),
    (truncated_arena_file, "truncated"),
    (overwritten_arena_file, "damaged SQLite file"),
    (random_bytes, "not an SQLite file"),
    (text_file, "not an SQLite file"),
]


@pytest.mark.parametrize(("make_file", "fragment"), BAD_FILES)
def test_bad_files_are_refused_and_left_unchanged(
    tmp_path: Path, make_file: object, fragment: str
) -> None:
    path = make_file(tmp_path / "games.db")  # type: ignore[operator]
    before = path.read_bytes()
    listing = sorted(os.listdir(tmp_path))
    with pytest.raises(ArenaDatabaseError, match=fragment) as raised:
        ArenaStore.open(path)
    assert str(path) in str(raised.value)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing


@pytest.mark.parametrize(("make_file", "fragment"), BAD_FILES)
def test_the_command_refuses_bad_files_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_file: object, fragment: str
) -> None:
    path = make_file(tmp_path / "games.db")  # type: ignore[operator]
    before = path.read_bytes()
    code, out, err = run_main(
        capsys, "arena", "tictactoe", "random", "greedy", "--games", "2", "--db", path
    )
    assert_one_line_error(code, err, fragment, str(path))
    assert out == ""
    assert path.read_bytes() == before


def test_a_directory_or_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ArenaDatabaseError, match="is a directory"):
        ArenaStore.open(tmp_path)
    with pytest.raises(ArenaDatabaseError, match="does not exist"):
        ArenaStore.open(tmp_path / "nowhere" / "arena.sqlite")
