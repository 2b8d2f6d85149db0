"""Snake Go on the command line: a person against the AI to the end of a tiny game, the
prompt per snake, illegal actions, undo, item files, bad parameters, and analyse."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, play_typed, run_main

from searchlab.core.game import play
from searchlab.games import make

TINY = ("-p", "size=6", "-p", "rounds=4")


def person_against(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    *extra: str,
) -> tuple[str, str]:
    """``searchlab play snakego`` on the tiny board, the person first against greedy; asserts
    exit code 0; returns (stdout, stderr)."""
    typed = "".join(f"{line}\n" for line in lines)
    return play_typed(capsys, monkeypatch, typed, "play", "snakego", *TINY, "--second", "greedy",
                      *extra)  # fmt: skip


def played(out: str) -> list[str]:
    (line,) = re.findall(r"^moves: (.*)$", out, flags=re.MULTILINE)
    return line.split()


def persons(moves: list[str]) -> list[str]:
    """The moves player 0 (the person) made, found by replaying the game."""
    state = make("snakego", size=6, rounds=4).initial_state()
    mine = []
    for move in moves:
        if state.current_player() == 0:
            mine.append(move)
        state = play(state, [move])
    return mine


def test_a_person_plays_a_tiny_game_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # top-left corner: right, down, right, down keeps snake A on the board for 4 rounds
    out, _ = person_against(capsys, monkeypatch, ["right", "down", "right", "down"])
    moves = played(out)
    final = play(make("snakego", size=6, rounds=4).initial_state(), moves)
    assert final.is_terminal()
    assert persons(moves) == ["right", "down", "right", "down"]
    assert out.count("snake A to act: ") == 4
    first, second = final.scores()
    assert f"scores: first (human) {first}, second (greedy) {second}" in out
    winner = "first (human)" if first > second else "second (greedy)"  # a tie: second mover
    assert f"game over after {len(moves)} moves: {winner} wins" in out


def test_the_prompt_names_each_snake_of_a_turn_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # round 1 right (length 2), round 2 split: round 3 asks snake A, then the new snake B
    lines = ["right", "split", "down", "down", "right", "down"]
    out, _ = person_against(capsys, monkeypatch, lines)
    prompts = re.findall(r"snake ([A-Z]) to act: ([a-z/]+)> ", out)
    assert [name for name, _ in prompts] == ["A", "A", "A", "B", "A", "B"]
    moves = play(make("snakego", size=6, rounds=4).initial_state(), played(out))
    assert moves.is_terminal()
    # each prompt lists exactly the legal actions of the snake it names
    state = make("snakego", size=6, rounds=4).initial_state()
    asked = iter(prompts)
    for move in played(out):
        if state.current_player() == 0:
            _, listed = next(asked)
            assert listed.split("/") == [state.action_to_string(a) for a in state.legal_actions()]
        state = play(state, [move])


def test_illegal_actions_are_one_line_each_and_the_prompt_comes_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["split", "jump", "right", "left", "ray", "down", "right", "down"]
    out, err = person_against(capsys, monkeypatch, lines)
    messages = [
        "illegal move 'split': snake A has length 1 (a split needs length >= 2)",
        "unknown move 'jump': expected up, down, left, right",
        "illegal move 'left': snake A cannot move straight back into its own body",
        "illegal move 'ray': snake A holds no ray",
    ]
    position = 0
    for message in messages:  # in order, each followed by the prompt asked again
        position = out.index(message, position)
        line_end = out.index("\n", position)
        assert out[line_end + 1 :].startswith("snake A to act: ")
    assert persons(played(out)) == ["right", "down", "right", "down"]  # nothing illegal played
    assert "Traceback" not in out + err


def test_undo_takes_back_the_persons_last_action(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["right", "down", "undo", "right", "right", "down"]
    out, _ = person_against(capsys, monkeypatch, lines)
    assert "took back your last move" in out
    assert persons(played(out)) == ["right", "right", "right", "down"]


def test_ai_against_ai_json_reports_both_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "play", "snakego", *TINY, "-p", "seed=5", "--first", "greedy",
        "--second", "random", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    final = play(make("snakego", size=6, rounds=4, seed=5).initial_state(), game["moves"])
    assert final.is_terminal()
    assert game["scores"] == list(final.scores()) and game["returns"] == list(final.returns())


def test_items_from_a_file_are_the_games_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    items = tmp_path / "items.txt"
    items.write_text("1 5 1 0 3\n4 4 2 2 512\n")  # length 3 next to A's corner, a ray
    out, _ = person_against(
        capsys, monkeypatch, ["right", "down", "right", "down"], "-p", f"items=@{items}"
    )
    assert "A at (1, 5) length 2 bank 3" in out  # ate the file's length item at once
    game = make("snakego", size=6, rounds=4, items=items.read_text())
    final = play(game.initial_state(), played(out))
    assert f"scores: first (human) {final.scores()[0]}" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1 1 1 0 3\n2 2 x 0 1\n", "line 2"),
        ("9 2 1 0 1\n", "off the 6x6 board"),
        ("1 1 1 7 3\n", "type 7"),
        ("1 1 1 0\n", "items"),
    ],
)
def test_a_malformed_item_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    items = tmp_path / "items.txt"
    items.write_text(text)
    for command in ("play", "analyse"):
        code, out, err = run_main(
            capsys, command, "snakego", "-p", "size=6", "-p", f"items=@{items}",
            "--first" if command == "play" else "--seed", "random" if command == "play" else "0",
        )  # fmt: skip
        assert_one_line_error(code, err, fragment)
        assert out == ""


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        (("-p", "size=3"), "size must be an integer in 5..32"),
        (("-p", "rounds=0"), "rounds must be"),
        (("-p", "seed=-4"), "seed must be"),
        (("-p", "scoring=points"), "scoring must be one of"),
        (("-p", "items=@no/such/items.txt"), "no such file"),
        (("-p", "items=@"), "needs a file name"),
        (("-p", "items=@/"), "is a directory"),
        (("-p", "items=@a\x00b"), "bad file name"),
        (("-p", "colour=red"), "unknown parameter colour"),
    ],
)
def test_bad_parameters_are_one_line(
    capsys: pytest.CaptureFixture[str], params: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run_main(capsys, "play", "snakego", *params, "--first", "random")
    assert_one_line_error(code, err, fragment)


def test_analyse_a_position_given_by_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "analyse", "snakego", "right up", *TINY, "--agent", "alphabeta:depth=3", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    state = play(make("snakego", size=6, rounds=4).initial_state(), "right up")
    assert data["action"] in [state.action_to_string(a) for a in state.legal_actions()]
    assert play(state, data["principal_variation"])  # the line is legal from there
    code, out, err = run_main(
        capsys, "analyse", "snakego", "right up", *TINY, "--agent", "mcts:simulations=200"
    )
    assert code == 0, err
    assert "snake A" in out and "root children" in out


def test_analyse_names_an_illegal_move_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # after right (A) and up (a), A cannot turn straight back left
    code, _, err = run_main(capsys, "analyse", "snakego", "right up left", *TINY)
    assert_one_line_error(code, err, "move 3 'left'", "cannot move straight back")


def test_the_default_opponent_is_the_strongest_measured_on_snake_go(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Left out, ``--second`` is greedy on Snake Go (it beat informed MCTS in every half,
    docs/games/snakego.md), not the ``mcts:time=1`` with random rollouts the docs call weak;
    other games keep ``mcts:time=1``."""
    from searchlab.cli.play import DEFAULT_OPPONENT, default_opponent

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # resigns at once (end of input)
    code, out, err = run_main(capsys, "play", "snakego", *TINY)
    assert code == 0, err
    assert "second (greedy) wins" in out
    assert default_opponent("snakego") == "greedy" != DEFAULT_OPPONENT
    assert default_opponent("connect4") == DEFAULT_OPPONENT
