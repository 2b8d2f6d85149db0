"""What a person expects from ``searchlab play`` and ``analyse``: told their side and the AI's
spec, the game's notation in ``help`` with an example, Othello's legal moves and last move on
the board, a principal variation cut to a readable length (JSON keeps it whole), clear
messages for bad game parameters, and Ctrl-C at the prompt."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, play_typed, run_main
from interrupt_support import interactive, interrupt_at_prompt, read_prompt

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "custom_game.py"


@pytest.mark.parametrize(
    ("argv", "intro"),
    [
        (["--second", "alphabeta:depth=2"], "you play first (X) against alphabeta:depth=2 (O)"),
        (["--first", "greedy", "--second", "human"], "you play second (O) against greedy (X)"),
        (["--first", "human", "--second", "human"], "two people: first (X) and second (O)"),
    ],
)
def test_told_which_side(
    argv: list[str], intro: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(capsys, monkeypatch, "resign\n", "play", "tictactoe", *argv)
    assert out.splitlines()[0].startswith(intro), out.splitlines()[0]


def test_agents_against_each_other_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "play", "nim", "--first", "greedy", "--second", "random")
    assert code == 0
    assert out.splitlines()[0] == "first (player 0): greedy, second (player 1): random"


@pytest.mark.parametrize(
    ("game", "notation", "example"),
    [
        ("connect4", "a column number 1..7", "e.g. 1"),
        ("othello", "a square, column letter then row number", "e.g. d3"),  # first legal move
        ("tictactoe", "a cell, column letter then row number", "e.g. a1"),
        ("nim", "PILE:COUNT", "e.g. 1:1"),
        ("kayles", "HEAP:OPTION", "e.g. 1:1"),
    ],
)
def test_help_names_the_notation_with_an_example(
    game: str,
    notation: str,
    example: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, _ = play_typed(capsys, monkeypatch, "help\nresign\n", "play", game, "--second", "random")
    help_line = next(line for line in out.splitlines() if "moves: " in line and notation in line)
    assert help_line.endswith(example), help_line
    assert "commands: moves" in out


def test_illegal_move_message_is_not_doubled(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(
        capsys, monkeypatch, "9\n0\nx\nresign\n", "play", "connect4", "--second", "random"
    )
    rejections = [line for line in out.splitlines() if "(type 'moves'" in line]
    assert len(rejections) == 3
    for line in rejections:
        assert line.count("illegal") + line.count("malformed") == 1, line


def _boards(out: str) -> list[list[str]]:
    """The Othello boards printed (the 8 rows under each ``a b c d e f g h`` header)."""
    lines = out.splitlines()
    return [lines[i + 1 : i + 9] for i, line in enumerate(lines) if line == "  a b c d e f g h"]


def _marked(board: list[str], mark: str) -> set[str]:
    squares = set()
    for rank, row in enumerate(board, start=1):
        cells = re.sub(r"[()]", " ", row[1:]).split()
        squares |= {f"{'abcdefgh'[f]}{rank}" for f, cell in enumerate(cells) if cell == mark}
    return squares


def test_othello_shows_legal_moves_and_the_last_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = play_typed(
        capsys, monkeypatch, "f5\nresign\n", "play", "othello", "--second", "alphabeta:depth=1"
    )
    first, after_f5, second = _boards(out)[:3]
    assert _marked(first, "*") == {"d3", "c4", "f5", "e6"}  # black's four opening moves
    assert "(X)" in after_f5[4] and not _marked(after_f5, "*")  # f5; no hints for the AI
    assert "* legal moves: d3 c4 f5 e6" in out
    reply = re.search(r"alphabeta:depth=1 plays (\w\d)", out)
    assert reply is not None
    last = reply.group(1)
    rank, file = int(last[1]), "abcdefgh".index(last[0])
    assert "(O)" in second[rank - 1]  # the reply's white disc in parentheses ...
    assert second[rank - 1].index("(O)") == 1 + 2 * file  # ... on its square
    assert f"last move {last} in ()" in out
    # after the reply, black's legal squares again (the position after f5 and the reply)
    assert _marked(second, "*") and not _marked(second, "*") & {"e4", "d5", "f5"}


def test_analyse_cuts_a_long_principal_variation(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyse", f"{EXAMPLE}:Subtraction", "--agent", "alphabeta:depth=30"]
    code, out, err = run_main(capsys, *argv, "--json")
    assert code == 0, err
    whole = json.loads(out)["principal_variation"]
    assert len(whole) > 10  # 21 counters: the line runs to the end of the game
    code, out, _ = run_main(capsys, *argv)
    line = next(line for line in out.splitlines() if line.startswith("principal variation: "))
    shown = line.removeprefix("principal variation: ").split()
    assert shown[:10] == whole[:10]
    assert shown[10:] == ["...", f"(+{len(whole) - 10}", "more)"]


def test_play_summary_cuts_the_line_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(
        capsys, "play", f"{EXAMPLE}:Subtraction", "--first", "alphabeta:depth=30",
        "--second", "random",
    )  # fmt: skip
    assert code == 0
    summary = next(line for line in out.splitlines() if line.startswith("alphabeta:depth=30 plays"))
    moves = re.search(r"line ([^,]*),", summary)
    assert moves is not None and "..." in moves.group(1)
    assert len(moves.group(1).split("...")[0].split()) == 10


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["play", "connect4", "-p", "rows=0"], ["game 'connect4' takes no parameters, got rows"]),
        (["play", "nim", "-p", "piles=-1"], ["nim: piles must be", "0..1000000", "-1"]),
        (["play", "nim", "-p", "piles=0"], ["already over at the start"]),
        (["analyse", "mnk", "-p", "m=100"], ["mnk: m must be an integer in 1..26, got 100"]),
        (["analyse", "gomoku", "-p", "size=big"], ["gomoku: size must be an integer in 5..26"]),
        (["perft", "nim", "-p", "misere=maybe", "--depth", "1"], ["misere must be true or false"]),
        (["play", "mnk", "-p", "rows=3"], ["unknown parameter rows; known: m, n, k"]),
        (["play", "othello", "-p", "scoring=points"], ["scoring must be one of 'discs'"]),
    ],
)
def test_bad_game_parameters_are_one_clear_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(capsys, *argv)
    assert_one_line_error(code, err, *fragments)


def test_ctrl_c_at_the_prompt() -> None:
    with interactive(["play", "tictactoe", "--second", "random"], ROOT) as process:
        read_prompt(process)
        interrupt_at_prompt(process)
