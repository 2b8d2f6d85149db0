"""``searchlab play`` and ``searchlab analyse``: the game in the terminal, one search."""

from __future__ import annotations

import json

import pytest
from cli_support import assert_one_line_error, play_typed, run_main

from searchlab.core.game import play
from searchlab.domains.games.connect4 import parse_moves
from searchlab.domains.games.move_list import position_from_moves
from searchlab.games import make


def test_ai_against_ai_json_is_a_legal_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "play", "tictactoe", "--first", "alphabeta:depth=9", "--second", "random", "--json"
    )
    assert code == 0, err
    game = json.loads(out)
    final = play(make("tictactoe").initial_state(), game["moves"])  # every move legal
    assert final.is_terminal()
    assert game["returns"] == list(final.returns())
    assert game["returns"][0] >= 0  # perfect play as X never loses
    assert len(game["seconds"]) == len(game["moves"])


def test_play_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for seed in (5, 5, 6):
        code, out, _ = run_main(capsys, "play", "connect4", "--first", "random", "--second",
                                "greedy", "--seed", str(seed), "--json")  # fmt: skip
        assert code == 0
        runs.append(json.loads(out)["moves"])
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_play_starts_from_given_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "play", "connect4", "--moves", "121212", "--first", "greedy",
                            "--second", "random", "--json")  # fmt: skip
    assert code == 0
    game = json.loads(out)
    assert game["moves"] == ["1"] and game["winner"] == 0  # X completes column 1


AGAINST_EXACT = ("play", "tictactoe", "--second", "alphabeta:depth=9")
"""A game of tic-tac-toe, the person first, against the exact alpha-beta agent."""


def test_human_illegal_move_is_rejected_and_asked_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(capsys, monkeypatch, "z9\nb2\nresign\n", *AGAINST_EXACT)
    assert "illegal move 'z9'" in out and "illegal move: illegal move" not in out
    assert "alphabeta:depth=9 plays" in out  # b2 was accepted, the AI answered
    assert "first (human) resigns: second (alphabeta:depth=9) wins" in out


def test_human_undo_takes_back_the_move_and_the_reply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(capsys, monkeypatch, "a1\nundo\nc3\nresign\n", *AGAINST_EXACT)
    assert "took back your last move" in out
    assert out.rstrip().endswith("moves: c3 b2")  # a1 and its reply are gone


def test_undo_before_any_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(capsys, monkeypatch, "undo\n", "play", "tictactoe")  # then: resigns
    assert "nothing to undo" in out and "resigns" in out


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ("", "after 0 moves: first (human) resigns (end of input): second (random) wins"),
        ("b2\n", "after 2 moves: first (human) resigns (end of input): second (random) wins"),
        ("resign\n", "after 0 moves: first (human) resigns: second (random) wins"),
    ],
)
def test_end_of_input_is_a_resignation_that_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: str, said: str
) -> None:
    """Ctrl-D (or the end of piped moves) resigns for the person, says why, and exits with 0
    like any finished game; a typed ``resign`` says no more than before."""
    out, err = play_typed(capsys, monkeypatch, lines, "play", "tictactoe", "--second", "random")
    assert err == ""
    assert f"game over {said}\n" in out


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["play", "chess"], ["unknown game 'chess'"]),
        (
            ["play", "tictactoe", "--second", "mcts:simulatons=5"],
            ["unknown parameter 'simulatons'"],
        ),
        (["play", "tictactoe", "--first", "deep-blue"], ["unknown agent 'deep-blue'"]),
        (["play", "connect4", "--moves", "4448", "--second", "random"], ["'8'", "no such column"]),
        (["play", "tictactoe", "--json"], ["--json plays agent against agent"]),
        (["analyse", "connect4", "1212121", "--agent", "random"], ["already over"]),
        (["analyse", "connect4", "--agent", "human"], ["needs a search agent"]),
        (["analyse", "othello", "f5z9", "--agent", "random"], ["z9"]),
        (["analyse", "tictactoe", "--agent", "alphabeta:depth=-2"], ["depth must be > 0"]),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, _, err = run_main(capsys, *argv)
    assert_one_line_error(code, err, *fragments)


def test_analyse_json_finds_the_connect4_win(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "445566"  # X to move: columns 3 and 7 win at once
    state = parse_moves(moves)
    code, out, err = run_main(
        capsys, "analyse", "connect4", moves, "--agent", "alphabeta:depth=4", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert {"action", "value", "nodes", "seconds"} <= set(data)
    after = state.apply(state.string_to_action(data["action"]))
    assert after.is_terminal() and after.returns()[0] > 0
    assert data["value"] > 0
    assert data["principal_variation"][0] == data["action"]
    assert data["nodes"] > 0


def test_analyse_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "analyse", "tictactoe", "a1 b2", "--agent", "alphabeta:depth=9")
    assert code == 0
    assert "proven draw" in out and "principal variation:" in out


def test_compact_othello_and_connect4_moves() -> None:
    othello = make("othello")
    assert (
        position_from_moves(othello, "f5d6c3").key()
        == play(othello.initial_state(), "f5 d6 c3").key()
    )
    assert position_from_moves(make("connect4"), "4453").key() == parse_moves("4453").key()


def test_readme_main_command_plays_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's main job (after its install step) runs and ends the game."""
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- main-command -->", 1)[1].split("```bash", 1)[1]
    command = block.split("```", 1)[0].strip().split("&&")[-1]
    argv = shlex.split(command)
    assert argv[0].endswith("searchlab") and argv[1] == "play"
    code, out, err = run_main(capsys, *argv[1:])
    assert code == 0, err
    assert "game over after" in out and "visits" in out  # the analysis is shown


def test_analyse_png_draws_one_bar_per_root_child(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    from PIL import Image

    from searchlab.viz.root_png import ROW, TOP, value_colour

    out = tmp_path / "root.png"
    code, text, err = run_main(
        capsys,
        "analyse",
        "connect4",
        "445566",
        "--agent",
        "mcts:simulations=3000",
        "--png",
        out,
        "--json",
    )
    assert code == 0, err
    data = json.loads(text)
    image = Image.open(out).convert("RGB")
    assert image.height == TOP + ROW * len(data["children"]) + 24
    # the first bar (most visits) is the winning move, drawn in its value's colour
    best = data["children"][0]
    assert best["move"] == data["action"]
    pixel = image.getpixel((80, TOP + ROW // 2))
    assert pixel == value_colour(best["value"])


def test_analyse_png_needs_a_monte_carlo_agent(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    code, _, err = run_main(
        capsys, "analyse", "tictactoe", "--agent", "alphabeta:depth=2", "--png", out
    )
    assert_one_line_error(code, err, "needs a Monte Carlo search")
    assert not out.exists()
