"""``searchlab expert go`` and the expert-games reader: GNU Go's games checked by searchlab's Go
rules and by sgfmill (an SGF library no one here wrote); resuming, Ctrl-C, duplicates, a missing
or dying GNU Go, bad records in the folder; the held-out split."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from needs import gnugo_program
from sgfmill import sgf as sgfmill_sgf

from searchlab.cli.main import main
from searchlab.domains.games.go import Go
from searchlab.domains.games.go.sgf import SgfFormatError, write_sgf
from searchlab.learning.alphago.expert_games import (
    ExpertGameError,
    game_key,
    is_held_out,
    load_expert_games,
    read_expert_game,
)
from searchlab.learning.alphago.go_expert import expert_file_name

GAMES = 4
ROOT = Path(__file__).resolve().parents[3]


def expert(folder: Path, *extra: str, games: int = GAMES) -> list[str]:
    return ["expert", "go", "--games", str(games), "--out", str(folder), "--level", "1", *extra]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GAMES games by GNU Go at level 1, two at a time (made once for the module)."""
    gnugo = gnugo_program()
    folder = tmp_path_factory.mktemp("expert")
    assert main(expert(folder, "--workers", "2", "--gnugo", gnugo)) == 0
    return folder


def sgfmill_replay(text: bytes) -> tuple[list[tuple[str | None, object]], object]:
    """The moves of a record by sgfmill, each checked legal on sgfmill's own board: an empty
    point, no suicide, no retaking a simple ko; returns the moves and the final board."""
    game = sgfmill_sgf.Sgf_game.from_bytes(text)
    board = __import__("sgfmill.boards", fromlist=["Board"]).Board(game.get_size())
    ko = None
    moves = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        moves.append((colour, point))
        if point is None:
            ko = None
            continue
        assert point != ko, f"{point} retakes a ko"
        ko = board.play(point[0], point[1], colour)
        assert board.get(point[0], point[1]) == colour, f"{point} is suicide"
    return moves, board


def test_every_game_is_legal_by_searchlab_and_by_sgfmill(generated: Path) -> None:
    files = sorted(generated.glob("*.sgf"))
    assert len(files) == GAMES
    numbers = set()
    for path in files:
        game = read_expert_game(path)  # replays every move by searchlab's rules
        record = game.record
        assert record.game.size == 9 and record.game.komi == 7.5
        final = record.final
        assert final.is_terminal()  # GNU Go played on to two passes
        notation = [final.action_to_string(action) for action in record.moves]
        assert path.name == expert_file_name(9, game_key(9, notation))  # named by its moves
        moves, board = sgfmill_replay(path.read_bytes())
        assert len(moves) == len(record.moves)
        for point in range(81):  # the same final position by both readers
            row, column = divmod(point, 9)
            colour = board.get(row, column)
            assert {None: 0, "b": 1, "w": 2}[colour] == final.board[point]
        result = record.metadata["RE"]
        assert result[:2] in ("B+", "W+") and game.winner == "BW".index(result[0])
        assert "level=1" in record.metadata["SO"]
        numbers.add(record.metadata["SO"].rsplit("game=", 1)[1])
        # the four random opening moves are not the expert's
        assert game.opening == 4 and len(list(game.positions())) == len(record.moves) - 4
        for state, move, outcome in game.positions():
            assert outcome == (1 if state.current_player() == game.winner else -1)
            assert move in state.legal_actions()
    assert numbers == {str(n) for n in range(GAMES)}
    assert not list(generated.glob(".*"))  # no temporary file left


def test_a_rerun_adds_nothing(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(generated)
    assert main(expert(generated, "--gnugo", gnugo_program())) == 0
    assert f"{GAMES} games in" in capsys.readouterr().out
    assert snapshot(generated) == before


def test_a_game_played_again_is_a_duplicate_refused(
    generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(generated, folder)
    by_number = {}
    for path in folder.glob("*.sgf"):
        number = read_expert_game(path).record.metadata["SO"].rsplit("game=", 1)[1]
        by_number[number] = path
    # game 0 no longer says it is this run's (so it is played again), game 1 is gone
    kept = by_number["0"]
    kept.write_text(kept.read_text().replace("SO[searchlab expert go", "SO[someone else"))
    by_number["1"].unlink()
    before = snapshot(folder)
    assert main(expert(folder, "--workers", "2", "--gnugo", gnugo_program())) == 0
    # GNU Go with the same seeds replays game 0 move for move: refused; game 1 is added again
    assert f"{GAMES} games in {folder} (1 added, 1 duplicates refused)" in capsys.readouterr().out
    after = snapshot(folder)
    assert {name: after[name] for name in before} == before
    assert by_number["1"].read_bytes() == (generated / by_number["1"].name).read_bytes()


def test_ctrl_c_stops_with_one_line_and_a_rerun_finishes(tmp_path: Path) -> None:
    gnugo = gnugo_program()
    folder = tmp_path / "games"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "searchlab", *expert(folder, "--workers", "2", games=5)]
    child = subprocess.Popen(
        [*command, "--gnugo", gnugo], env=env, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while not (folder.is_dir() and list(folder.glob("*.sgf"))) and time.monotonic() < deadline:
        assert child.poll() is None
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err.strip().count("\n") == 0 and "interrupted (SIGINT)" in err, err
    stored = sorted(folder.iterdir())
    assert 1 <= len(stored) < 5 and all(path.suffix == ".sgf" for path in stored)
    for path in stored:
        read_expert_game(path)  # whole records
    done = subprocess.run([*command, "--gnugo", gnugo], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(list(folder.iterdir())) == 5


def one_line_failure(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("searchlab: error: "), err
    return err


def test_a_missing_gnugo_is_one_line_and_nothing_is_lost(
    generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(generated, folder)
    before = snapshot(folder)
    err = one_line_failure(expert(folder, "--gnugo", "/nonexistent", games=GAMES + 2), capsys)
    assert "/nonexistent" in err
    assert snapshot(folder) == before


DYING_ENGINE = textwrap.dedent(
    """\
    import sys
    taken, moves = set(), 0
    for line in sys.stdin:
        words = line.split()
        ident, command = words[0], words[1:]
        if command[0] == "play" and command[2].lower() != "pass":
            taken.add(command[2].upper())
        if command[0] == "genmove":
            moves += 1
            if moves == 3:
                sys.exit(1)  # dies mid-game, without an answer
            answer = next(v for v in ("C3", "G7", "C7", "G3", "E5") if v not in taken)
            taken.add(answer)
        else:
            answer = "2" if command[0] == "protocol_version" else ""
        print(f"={ident} {answer}\\n", flush=True)
    """
)


def test_a_gnugo_dying_mid_game_is_one_line_and_nothing_is_lost(
    generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(generated, folder)
    before = snapshot(folder)
    script = tmp_path / "dying.py"
    script.write_text(DYING_ENGINE)
    engine = tmp_path / "dying-gnugo"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} {script}\n")
    engine.chmod(0o755)
    argv = [*expert(folder, "--gnugo", str(engine), "--opening", "0", games=GAMES + 2)]
    err = one_line_failure(argv, capsys)
    assert "exited" in err and f"{GAMES} games stored" in err, err
    assert snapshot(folder) == before  # no partial file, nothing removed


@pytest.mark.parametrize(
    ("text", "expected"),
    [("(;GM[1]SZ[13];B[aa])", "a 13x13 game, not 9x9"), ("(;GM[1]SZ[9];B[zz", "bad.sgf:1:")],
)
def test_a_bad_record_in_the_folder_is_one_line_naming_it(
    generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(generated, folder)
    (folder / "bad.sgf").write_text(text)
    before = snapshot(folder)
    err = one_line_failure(expert(folder, "--gnugo", gnugo_program(), games=GAMES + 2), capsys)
    assert "bad.sgf" in err and expected in err, err
    assert snapshot(folder) == before


def random_games(folder: Path, count: int, seed: int) -> None:
    """``count`` short random games of 9x9 Go as SGF files (a person's own collection)."""
    rng = np.random.default_rng(seed)
    for index in range(count):
        state = Go(9, komi=6.5).initial_state()
        for _ in range(int(rng.integers(1, 12))):
            actions = [a for a in state.legal_actions() if a != state.game.pass_action]
            state = state.apply(int(rng.choice(actions)))
        result = "B+R" if index % 2 else "W+3.5"
        (folder / f"human-{index:02d}.sgf").write_text(write_sgf(state, metadata={"RE": result}))


def test_the_split_is_deterministic_disjoint_and_by_the_game(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    random_games(folder, 40, seed=3)
    split = load_expert_games(folder, holdout=0.25, seed=1)
    again = load_expert_games(folder, holdout=0.25, seed=1)
    keys = {game.key for game in split.train}
    held = {game.key for game in split.held_out}
    assert keys.isdisjoint(held) and len(keys | held) == 40 and held
    assert held == {game.key for game in again.held_out}
    assert held == {key for key in keys | held if is_held_out(key, 0.25, seed=1)}
    # other file names, same games: the same games held out
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    for path in folder.iterdir():
        shutil.copy(path, renamed / f"z-{path.stem[::-1]}.sgf")
    assert held == {game.key for game in load_expert_games(renamed, holdout=0.25, seed=1).held_out}
    assert held != {game.key for game in load_expert_games(folder, holdout=0.25, seed=2).held_out}
    winners = {game.name: game.winner for game in split.train + split.held_out}
    assert winners["human-01.sgf"] == 0 and winners["human-00.sgf"] == 1


def test_the_reader_refuses_a_bad_record_or_skips_it_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    random_games(folder, 3, seed=4)
    (folder / "big.sgf").write_text("(;GM[1]SZ[19];B[aa])")
    with pytest.raises(ExpertGameError, match=r"big\.sgf: a 19x19 game, not 9x9"):
        load_expert_games(folder)
    (folder / "a-broken.sgf").write_text("(;GM[1]SZ[9];B[ee];W[ee])")  # read before big.sgf
    with pytest.raises(SgfFormatError, match=r"a-broken\.sgf:1:\d+: move 2 .* occupied"):
        load_expert_games(folder)
    split = load_expert_games(folder, skip_bad=True, holdout=0.0)
    assert len(split.train) == 3 and len(split.skipped) == 2
    assert any("big.sgf" in line for line in split.skipped)
