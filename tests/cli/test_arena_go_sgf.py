"""``searchlab arena go ... --sgf DIR``: every Go game finished in the run is also an SGF file
in DIR with the players, the result and the date, the same game as the arena's database holds;
bad folders and games other than Go are one line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.arena import ArenaStore
from searchlab.arena.go_sgf import arena_sgf
from searchlab.arena.schedule import round_robin
from searchlab.arena.worker import GameRecord, play_game
from searchlab.domains.games.go.sgf import load_sgf, read_sgf
from searchlab.domains.games.record import today

AGENTS = ["random", "mcts:simulations=20,tier=reference"]


def test_every_finished_game_is_written_as_the_store_has_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, folder = tmp_path / "go.sqlite", tmp_path / "games"
    argv = ["arena", "go", *AGENTS, "--games", "4", "-p", "size=5", "--db", db, "--sgf", folder]
    code, _, err = run_main(capsys, *argv)
    assert code == 0, err
    files = sorted(folder.glob("*.sgf"))
    assert len(files) == 4
    with ArenaStore.open(db) as store:
        records = {(r.first, r.second, r.key.rsplit("game ", 1)[1]): r for r in store.records()}
    for path in files:
        record = load_sgf(path)
        first, second = record.metadata["PB"], record.metadata["PW"]
        index = path.stem.split("_game")[1].split("_")[0]
        stored = records[(first, second, index)]
        moves = [record.final.action_to_string(a) for a in record.moves]
        assert moves == [*stored.opening, *stored.moves]
        assert record.final.is_terminal() and record.game.size == 5
        result = record.metadata["RE"]
        assert result == record.final.result()  # the area score of the final position
        assert result.startswith({"1-0": "B+", "0-1": "W+"}[stored.result])
        assert record.metadata["DT"] == today() and record.metadata["RU"] == "Chinese"
    # a second run plays nothing and writes nothing new
    for path in files:
        path.unlink()
    code, _, err = run_main(capsys, *argv)
    assert code == 0, err
    assert not list(folder.glob("*.sgf"))


def test_a_forfeit_is_recorded_with_its_reason() -> None:
    job = round_robin("go", AGENTS, 1, seed=2, game_params={"size": 5})[0]
    played = play_game(job)
    moves = played.moves[:3]
    forfeit = GameRecord(
        played.key, played.game, played.first, played.second, played.seed, played.opening,
        moves, played.movers[:3], played.move_times[:3], "0-1", "error",
        f"{played.first}: RuntimeError: engine crashed",
    )  # fmt: skip
    name, text = arena_sgf(forfeit, job)
    record = read_sgf(text)
    assert record.metadata["RE"] == "W+F"
    assert record.comments[0] == f"error: {played.first}: RuntimeError: engine crashed"
    assert len(record.moves) == len(played.opening) + 3 and not record.final.is_terminal()
    assert name.endswith(".sgf") and "/" not in name and " " not in name
    resigned = replace(forfeit, result="1-0", termination="resign", error=None)
    assert read_sgf(arena_sgf(resigned, job)[1]).metadata["RE"] == "B+R"


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["arena", "tictactoe", "random", "greedy", "--games", "1", "--sgf", "{tmp}/d"],
         ["--sgf writes Go games", "'tictactoe' is not Go"]),
        (["arena", "go", "random", "greedy", "--games", "1", "--sgf", "{tmp}/no/such"],
         ["--sgf: no such folder"]),
        (["arena", "go", "random", "greedy", "--games", "1", "--sgf", "{tmp}/file.txt"],
         ["--sgf:", "is a file, not a folder"]),
    ],
)  # fmt: skip
def test_bad_sgf_folders_are_one_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "file.txt").write_text("x")
    db = ["--db", str(tmp_path / "a.sqlite")]
    code, _, err = run_main(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv], *db)
    assert_one_line_error(code, err, *fragments)
    assert not (tmp_path / "a.sqlite").exists()  # checked before the database is opened
