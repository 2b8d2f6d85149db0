"""``play --save``, ``play --load`` and ``analyse --load`` for every game: the record written
after every move (an interrupted game loses nothing), resumed to the end with the moves
numbered on, analysed as the same position typed out; every bad record one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main

from searchlab.core.game import play
from searchlab.domains.games.record import format_record, load_record
from searchlab.domains.games.registry import make

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["--first", "random", "--second", "random"]


class Typist:
    """Stands in for stdin: gives the lines one by one, and before each notes the moves the
    record holds (so a test sees what was saved at every prompt)."""

    def __init__(self, lines: list[str], record: Path) -> None:
        self.lines, self.record = list(lines), record
        self.seen: list[tuple[str, ...]] = []

    def readline(self) -> str:
        self.seen.append(load_record(self.record).moves if self.record.exists() else ())
        return self.lines.pop(0) + "\n" if self.lines else ""


def test_the_record_holds_the_game_so_far_at_every_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "game.txt"
    typist = Typist(["1:3", "undo", "2:4", "resign"], saved)
    monkeypatch.setattr("sys.stdin", typist)
    code, out, err = run_main(
        capsys, "play", "nim", "-p", "piles=3,4,5", "--second", "random", "--save", saved
    )
    assert code == 0, err
    before, after_reply, after_undo, after_second = typist.seen
    assert before == () and after_reply[0] == "1:3" and len(after_reply) == 2
    assert after_undo == ()  # your move and the reply are gone from the file too
    assert after_second[0] == "2:4" and len(after_second) == 2
    record = load_record(saved)
    assert record.moves == after_second and record.result == "0-1 (first resigns)"
    assert record.params == {"piles": (3, 4, 5), "misere": False}
    assert record.players == ("human", "random")
    assert f"saved: {saved}" in out


def test_an_interrupted_game_is_saved_and_resumed_to_the_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.txt"
    # the person types one move, then the input ends (Ctrl-D, the end of piped moves)
    done = subprocess.run(
        [sys.executable, "-m", "searchlab", "play", "tictactoe", "--second", "random",
         "--save", str(saved)],
        input="b2\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "resigns (end of input)" in done.stdout
    interrupted = load_record(saved)
    assert interrupted.moves[0] == "b2" and len(interrupted.moves) == 2
    assert interrupted.result == "* (end of input)"  # unfinished: it can be resumed
    assert interrupted.players == ("human", "random")
    assert interrupted.text() == saved.read_text()
    code, out, err = run_main(
        capsys, "play", "--load", saved, "--first", "random", "--save", saved, "--seed", "3"
    )
    assert code == 0, err
    prompts = [line for line in out.splitlines() if line.startswith("move ")]
    assert prompts[0] == "move 3: first (random) to play"  # numbered on from the file's two
    played = out.split("moves: ")[-1].split()
    assert played[:2] == list(interrupted.moves) and f"game over after {len(played)} moves" in out
    final = load_record(saved)
    assert final.moves == tuple(played) and final.final.is_terminal()
    assert final.final.key() == play(make("tictactoe").initial_state(), played).key()
    first, second = final.final.returns()
    assert final.result == ("1-0" if first > second else "0-1" if second > first else "1/2-1/2")
    assert final.players == ("random", "random") and final.date == interrupted.date


def test_load_plays_on_with_the_record_s_players_and_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.txt"
    saved.write_text(
        format_record("mnk", {"m": 4, "n": 4, "k": 3}, ["b2", "a1"], players=("random", "greedy"))
    )
    code, out, err = run_main(capsys, "play", "--load", saved, "--json")
    assert code == 0, err
    game = json.loads(out)
    assert (game["game"], game["first"], game["second"]) == ("mnk", "random", "greedy")
    assert game["earlier_moves"] == ["b2", "a1"]
    final = play(make("mnk", m=4, n=4, k=3).initial_state(), ["b2", "a1", *game["moves"]])
    assert final.is_terminal()  # the loaded moves and the new ones make one whole game
    code, out, err = run_main(capsys, "play", "mnk", "-p", "m=4", "--load", saved, "--json")
    assert code == 0, err  # GAME and a -p that repeat the record's are fine


def test_moves_and_parameters_given_on_the_command_line_are_recorded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "c4.txt"
    code, out, err = run_main(
        capsys, "play", "connect4", "--moves", "4453", *AGENTS, "--save", saved, "--json"
    )
    assert code == 0, err
    game = json.loads(out)
    record = load_record(saved)
    assert game["earlier_moves"] == ["4", "4", "5", "3"]
    assert record.moves == ("4", "4", "5", "3", *game["moves"])
    assert record.final.is_terminal() and record.game_name == "connect4"
    snake = tmp_path / "snake.txt"
    items = tmp_path / "items.txt"
    items.write_text("# two items\n3 3 1 0 2\n4 4 2 0 1\n")
    code, out, err = run_main(
        capsys, "play", "snakego", "-p", "size=6,rounds=12", "-p", f"items=@{items}", *AGENTS,
        "--save", snake, "--json",
    )  # fmt: skip
    assert code == 0, err
    record = load_record(snake)
    assert record.moves == tuple(json.loads(out)["moves"]) and record.final.is_terminal()
    expected = make("snakego", size=6, rounds=12, items=items.read_text())
    assert record.game.items == expected.items  # type: ignore[attr-defined]


def _analyse(capsys: pytest.CaptureFixture[str], *argv: object) -> dict[str, object]:
    code, out, err = run_main(capsys, "analyse", *argv, "--agent", "alphabeta:depth=4", "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("game", "moves", "params"),
    [
        ("connect4", ["4", "4", "3", "5", "5", "3", "2", "6"], []),
        ("othello", ["f5", "d6", "c3", "d3", "c4"], []),
        ("nim", ["1:2", "3:1", "2:2"], ["-p", "piles=3,4,5,misere=true"]),
    ],
)
def test_analyse_load_is_the_position_given_directly(
    game: str,
    moves: list[str],
    params: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    saved = tmp_path / "game.txt"
    code, _, err = run_main(capsys, "play", game, *params, "--moves", " ".join(moves),
                            *AGENTS, "--save", saved, "--json")  # fmt: skip
    assert code == 0, err
    recorded = load_record(saved).moves
    assert recorded[: len(moves)] == tuple(moves)
    for move in (len(moves), len(moves) - 1):
        loaded = _analyse(capsys, "--load", saved, "--move", move)
        typed = _analyse(capsys, game, " ".join(moves[:move]), *params)
        assert loaded["load"] == str(saved) and loaded["move"] == move
        for key in ("action", "value", "principal_variation", "nodes"):
            assert loaded[key] == typed[key], key
    unfinished = tmp_path / "unfinished.txt"
    unfinished.write_text(format_record(game, load_record(saved).params, moves))
    last = _analyse(capsys, game, "--load", unfinished)  # default: after the last move
    typed = _analyse(capsys, game, " ".join(moves), *params)
    assert last["move"] == len(moves) and last["action"] == typed["action"]


def test_go_is_saved_as_sgf_and_loaded_by_the_same_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "go.sgf"
    code, out, err = run_main(
        capsys, "play", "go", "-p", "size=5,komi=0.5", *AGENTS, "--settle", "none",
        "--save", saved, "--seed", "4", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    assert saved.read_text().startswith("(;GM[1]")
    record = load_record(saved)
    assert record.moves == tuple(game["moves"]) and record.result == game["sgf_result"]
    loaded = _analyse(capsys, "--load", saved, "--move", 3)
    typed = _analyse(capsys, "go", " ".join(game["moves"][:3]), "-p", "size=5,komi=0.5")
    assert loaded["action"] == typed["action"] and loaded["value"] == typed["value"]


# -- bad records and options: one line, exit code 2 ----------------------------------------------
RECORDS = {
    "ok.txt": "game: mnk\nparams: m=4,n=4,k=3\nfirst: random\nsecond: random\n\n1. b2 a1\n",
    "illegal.txt": "# a game\ngame: tictactoe\n\n1. b2 a1\n3. b2\n",
    "chess.txt": "game: chess\n\ne4 e5\n",
    "header.txt": "game: nim\nplayers human random\n",
    "over.txt": "game: tictactoe\n\nb1 a1 b2 a2 b3\n",
    "ok.sgf": "(;GM[1]SZ[5];B[cc])",
}


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        ("play --load @illegal.txt", ["illegal.txt:5: move 3 'b2': illegal move"]),
        ("analyse --load @illegal.txt", ["illegal.txt:5: move 3 'b2'"]),
        ("play --load @chess.txt", ["chess.txt:1: unknown game 'chess'"]),
        ("play --load @header.txt", ["header.txt:2: expected 'key: value'"]),
        ("play nim --load @ok.txt", ["ok.txt:1: the record is a game of mnk, not 'nim'"]),
        ("play --load @ok.txt -p m=5", ["ok.txt:2: the record's mnk has m=4, not m=5"]),
        ("analyse --load @ok.txt -p x=1", ["ok.txt:2: the record's mnk takes no parameter x"]),
        ("play --load @over.txt", ["the game is already over in", "over.txt"]),
        ("play --load @ok.txt --moves c3", ["--load and --moves: give one"]),
        ("play --load @missing.txt", ["no such file", "missing.txt"]),
        ("analyse --load @ok.txt --move 3", ["--move 3:", "ok.txt: move 3 is not in the record"]),
        ("analyse mnk c3 --load @ok.txt", ["--load and MOVES: give one"]),
        ("analyse --load @ok.txt --sgf @ok.sgf", ["--load and --sgf are one option"]),
        ("play mnk --load @ok.sgf", ["--load reads a Go game: use 'play go', not 'mnk'"]),
        ("play tictactoe --save @", ["--save:", "is a folder"]),
        ("play tictactoe --save @no/such/g.txt", ["--save: no such folder"]),
        ("play", ["play needs a GAME (like 'play connect4') or --load FILE"]),
        ("analyse --agent random", ["analyse needs a GAME"]),
    ],
)
def test_bad_records_and_options_are_one_line(
    argv: str, fragments: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, text in RECORDS.items():
        (tmp_path / name).write_text(text)
    words = [word.replace("@", f"{tmp_path}/") for word in argv.split()]  # @: the test's folder
    code, _, err = run_main(capsys, *words)
    assert_one_line_error(code, err, *fragments)


def test_reading_a_record_runs_nothing_it_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    saved = tmp_path / "engine.txt"
    saved.write_text(f"game: tictactoe\nfirst: gtp:command=touch {marker}\nsecond: random\n")
    monkeypatch.setattr("sys.stdin", Typist([], tmp_path / "none"))  # the input ends at once
    code, out, err = run_main(capsys, "play", "--load", saved)
    assert code == 0, err
    assert f"the record's first player 'gtp:command=touch {marker}' runs outside searchlab" in out
    assert "first (human) resigns (end of input)" in out and not marker.exists()
    own = f"{ROOT / 'examples' / 'custom_game.py'}:Subtraction"
    saved.write_text(format_record(own, {"counters": 5}, ["1"], players=("random", "random")))
    code, _, err = run_main(capsys, "play", "--load", saved)
    assert_one_line_error(code, err, "engine.txt:2: the record names a game of your own")
    code, out, err = run_main(capsys, "play", own, "--load", saved, "--json")  # named: imported
    assert code == 0, err
    assert json.loads(out)["earlier_moves"] == ["1"]
