"""Game records (:mod:`searchlab.domains.games.record`): every registered game saved and read
back to the same moves and positions (the registry is walked, so a new game is covered), the
game's parameters kept, and every malformed record one ``FILE:LINE`` error."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from searchlab.core.game import Game, State
from searchlab.domains.games.go.sgf import SgfFormatError
from searchlab.domains.games.params_text import params_from_text, value_from_text, value_to_text
from searchlab.domains.games.record import (
    GameRecord,
    RecordError,
    RecordFile,
    format_record,
    full_params,
    load_record,
    read_record,
    result_text,
)
from searchlab.domains.games.registry import game_names, make

ROOT = Path(__file__).resolve().parents[3]
MAX_PLIES = 150  # a random game of Go or Gomoku is cut here: a record of an unfinished game


def random_game(game: Game, seed: int) -> tuple[list[State], list[str]]:
    """A seeded random game: its states from the start and its moves in notation."""
    rng = random.Random(seed)
    state = game.initial_state()
    states, moves = [state], []
    while not state.is_terminal() and len(moves) < MAX_PLIES:
        action = rng.choice(list(state.legal_actions()))
        moves.append(state.action_to_string(action))
        state = state.apply(action)
        states.append(state)
    return states, moves


def _same_game(record: GameRecord, states: list[State], moves: list[str]) -> None:
    assert record.moves == tuple(moves)
    assert [state.key() for state in record.states] == [state.key() for state in states]
    assert str(record.final) == str(states[-1])
    assert record.final.is_terminal() == states[-1].is_terminal()


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_round_trips(name: str, tmp_path: Path) -> None:
    game = make(name)
    states, moves = random_game(game, seed=3)
    assert len(moves) >= 3, "the test needs a few moves"
    path = tmp_path / "game.rec"
    recorder = RecordFile(
        path, name, full_params(name, {}), game.initial_state(), players=("random", "greedy")
    )
    half = len(moves) // 2
    recorder.save(states[half], moves[:half])  # the file as it is mid-game
    assert load_record(path).moves == tuple(moves[:half])
    result = "*"
    if states[-1].is_terminal():
        first, second = states[-1].returns()
        result = result_text(None if first == second else 0 if first > second else 1)
        if name == "go":
            result = str(states[-1].result())  # type: ignore[attr-defined]  # SGF's RE
    recorder.save(states[-1], moves, result)
    record = load_record(path)
    _same_game(record, states, moves)
    assert record.game_name == name and record.players == ("random", "greedy")
    assert record.result == result
    assert (record.sgf is not None) == (name == "go")  # Go as SGF, the others as text
    assert record.text() == path.read_text()  # reading and writing again: the same text


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("mnk", {"m": 5, "n": 4, "k": 3}),
        ("nim", {"piles": (2, 5), "misere": True}),
        ("gomoku", {"size": 9}),
        ("othello", {"scoring": "win_loss"}),
        ("go", {"size": 7, "komi": 0.5, "handicap": 2}),
        ("snakego", {"size": 8, "rounds": 20, "items": "2 2 1 0 3\n5 5 2 2 20\n# the last\n"}),
    ],
)
def test_parameters_are_kept(name: str, params: dict[str, Any], tmp_path: Path) -> None:
    game = make(name, **params)
    states, moves = random_game(game, seed=3)
    path = tmp_path / "game.rec"
    RecordFile(path, name, full_params(name, params), game.initial_state(), players=("", "")).save(
        states[-1], moves
    )
    record = load_record(path)
    _same_game(record, states, moves)
    assert repr(record.game) == repr(game)
    if name == "snakego":
        assert record.game.items == game.items  # type: ignore[attr-defined]
    if name != "go":  # the params line, as -p takes it
        written = path.read_text().splitlines()[2]
        assert written.startswith("params: ") and make(name, **params_from_text(written[8:]))


def test_a_game_of_your_own_round_trips(tmp_path: Path) -> None:
    spec = f"{ROOT / 'examples' / 'custom_game.py'}:Subtraction"
    game = make(spec, counters=9)
    states, moves = random_game(game, seed=1)
    path = tmp_path / "own.txt"
    path.write_text(format_record(spec, {"counters": 9}, moves, result="*"))
    _same_game(load_record(path, own_game=spec), states, moves)
    # not named by the reader: refused before anything is imported (a record runs no code)
    with pytest.raises(RecordError, match=r"own.txt:2: the record names a game of your own"):
        load_record(path)
    path.write_text("game: os:system\nparams: command=touch gone\n")
    with pytest.raises(RecordError, match=r"the record names a game of your own, 'os:system'"):
        load_record(path)
    assert not (tmp_path / "gone").exists() and not Path("gone").exists()


def test_the_documented_example_reads_as_written() -> None:
    text = (ROOT / "docs" / "games" / "records.md").read_text()
    example = text.split("```text\n", 1)[1].split("```", 1)[0]
    record = read_record(example, source="records.md")
    assert record.game_name == "connect4" and record.result == "1-0 (second resigns)"
    assert record.players == ("human", "mcts:time=1") and len(record.moves) == 12
    assert record.text() == example


# -- errors: one line naming the file and the line --------------------------------------------
HEAD = "# searchlab game record\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first: human\n\n4 4\n", "g.txt:1: no 'game:' line in the header"),
        (HEAD + "game: connect4\n4 4\n", "g.txt:3: expected 'key: value' in the header, got '4 4'"),
        ("game: nim\ngame: nim\n", "g.txt:2: 'game' again (first on line 1)"),
        (HEAD + "game: chess\n", "g.txt:2: unknown game 'chess'; known games: connect4"),
        ("game: mnk\nparams: m:3\n", "g.txt:2: params: expected NAME=VALUE, got 'm:3'"),
        ("game: mnk\nparams: m=99\n", "g.txt:2: mnk: m must be an integer in 1..26, got 99"),
        ("game: mnk\nparams: rows=3\n", "g.txt:2: game 'mnk': unknown parameter rows"),
        ("game: connect4\n\n1. 4 4\n2. 8\n", "g.txt:4: move number 2. where move 3 comes"),
        ("game: connect4\n\n4 4 8\n", "g.txt:3: move 3 '8': "),
        ("game: tictactoe\n\nb2 a1\n\nb2\n", "g.txt:5: move 3 'b2': illegal move 'b2'"),
        ("game: tictactoe\n\nb1 a1 b2 a2 b3 c3\n", "g.txt:3: move 6 'c3': the game is already"),
        ("game: tictactoe\nresult: won\n", "g.txt:2: result must start with 1-0, 0-1, 1/2-1/2, *"),
        (
            "game: tictactoe\nresult: 0-1\n\nb1 a1 b2 a2 b3\n",
            "g.txt:2: result 0-1, but the moves end the game 1-0",
        ),
    ],
)  # fmt: skip
def test_a_malformed_record_is_one_line_naming_its_place(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(text, source="g.txt")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_files_in_other_encodings_and_bad_sgf_name_the_file(tmp_path: Path) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"game: nim\nevent: caf\xe9\n")
    with pytest.raises(RecordError, match=r"latin.txt:2: not UTF-8 text"):
        load_record(latin)
    sgf = tmp_path / "bad.sgf"
    sgf.write_text("(;GM[1]SZ[9]\n;B[ee];W[ee])")
    with pytest.raises(SgfFormatError, match=r"bad.sgf:2:8: move 2 W\[ee\] \(E5\) is illegal"):
        load_record(sgf)
    with pytest.raises(FileNotFoundError):
        load_record(tmp_path / "missing.txt")


def test_check_names_the_game_or_the_parameter_that_does_not_match() -> None:
    record = read_record("game: mnk\nparams: m=4,n=4,k=3\n", source="g.txt")
    record.check("mnk", {"m": 4, "k": 3})  # the record's values: fine
    with pytest.raises(RecordError, match=r"^g.txt:1: the record is a game of mnk, not 'nim'$"):
        record.check("nim")
    with pytest.raises(RecordError, match=r"^g.txt:2: the record's mnk has m=4, not m=5 "):
        record.check(None, {"m": 5})
    with pytest.raises(RecordError, match=r"^g.txt:2: the record's mnk takes no parameter rows"):
        record.check(None, {"rows": 5})
    defaults = read_record("game: nim\n", source="n.txt")  # no params line: the defaults
    defaults.check("nim", {"piles": (3, 4, 5), "misere": False})
    with pytest.raises(RecordError, match=r"^n.txt:1: the record's nim has misere=false, not "):
        defaults.check("nim", {"misere": True})


def test_state_at_gives_each_position_and_names_the_range() -> None:
    record = read_record("game: connect4\n\n4 4 3\n", source="g.txt")
    assert [record.state_at(n).key() for n in range(4)] == [s.key() for s in record.states]
    assert record.state_at(2).key() == make("connect4").initial_state().apply(3).apply(3).key()
    with pytest.raises(RecordError, match=r"g.txt: move 4 is not in the record: it has moves 0..3"):
        record.state_at(4)


def test_the_writer_refuses_what_it_could_not_read_back() -> None:
    with pytest.raises(RecordError, match=r"cannot record move 2 'a b'"):
        format_record("nim", {}, ["1:1", "a b"])
    with pytest.raises(RecordError, match=r"cannot record first: 'Ann\\nBob'"):
        format_record("nim", {}, [], players=("Ann\nBob", ""))


def test_comments_blank_lines_and_other_keys_are_read() -> None:
    text = "\n# a comment\ngame: nim\nparams: piles=1,2\nevent: club night\n\n2:2 # taken\n1:1\n"
    record = read_record(text, source="g.txt")
    assert record.moves == ("2:2", "1:1") and record.headers == {"event": "club night"}
    assert record.final.is_terminal() and record.result == "*"
    assert "event: club night\n" in record.text()


@pytest.mark.parametrize("value", [True, False, 0, 7, (3, 4, 5), (10,), "win_loss", "7.5"])
def test_a_parameter_value_reads_back_as_the_command_line_gives_it(value: Any) -> None:
    expected = value[0] if value == (10,) else value  # one number: an int, as -p p=10 gives it
    assert value_from_text(value_to_text(value)) == expected


def test_a_go_game_read_from_text_is_saved_as_sgf(tmp_path: Path) -> None:
    text = "game: go\nparams: size=5,komi=0.5\nevent: club\nfirst: random\n\nC3 pass D4\n"
    loaded = read_record(text, source="go.txt")
    path = tmp_path / "go.sgf"
    recorder = RecordFile(
        path, "go", loaded.params, loaded.start, players=("a", "b"), loaded=loaded
    )
    recorder.save(loaded.final, loaded.moves)
    saved = load_record(path)
    assert saved.sgf is not None and saved.moves == ("C3", "pass", "D4")
    assert saved.players == ("a", "b") and saved.headers == {"RU": "Chinese"}  # no 'event' in SGF
    assert saved.final.key() == loaded.final.key()
