"""``searchlab play go``: a person at the terminal (points, pass, undo, resign), the board after
each move, the score at the end with dead stones settled by playing out, the game saved as SGF
after every move and continued with --load; every bad input one line or asked again.

The engines here are small reference-tier searches (``tier=reference``) or random players, so
the tests are quick and do not depend on the compiled Go kernels."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from interrupt_support import interactive, interrupt_at_prompt, read_prompt

from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.sgf import load_sgf, read_sgf, write_sgf

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["-p", "size=5", "-p", "komi=0.5"]
PEOPLE = ["--first", "human", "--second", "human"]
# 22 moves of a 5x5 game after which Black's A1 would repeat an earlier position (superko).
SUPERKO_LINE = "B4 A3 E3 B1 D4 D5 B3 B2 C3 E1 A1 D1 A4 D3 C5 D2 E4 B5 C4 C1 A2 A3"


class Typist:
    """Stands in for stdin: gives the lines one by one and runs ``look()`` before each, so a
    test can see what was saved at every prompt."""

    def __init__(self, lines: list[str], look: Callable[[], object] | None = None) -> None:
        self.lines = list(lines)
        self.look = look
        self.seen: list[object] = []

    def readline(self) -> str:
        if self.look is not None:
            self.seen.append(self.look())
        return self.lines.pop(0) + "\n" if self.lines else ""


def _type(
    monkeypatch: pytest.MonkeyPatch, lines: list[str], look: Callable[[], object] | None = None
) -> Typist:
    typist = Typist(lines, look)
    monkeypatch.setattr("sys.stdin", typist)
    return typist


def stones(state: GoState, colour: int) -> list[int]:
    return [point for point, value in enumerate(state.board) if value == colour]


def _moves_in(path: Path) -> list[str]:
    if not path.exists():
        return []
    record = load_sgf(path)
    return [record.final.action_to_string(action) for action in record.moves]


# -- a person plays ------------------------------------------------------------------------------
def test_two_people_play_to_two_passes_and_the_record_is_saved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sgf = tmp_path / "game.sgf"
    typist = _type(monkeypatch, ["C3", "d4", "b3", "pass", "PASS"], look=lambda: _moves_in(sgf))
    code, out, err = run_main(
        capsys, "play", "go", *SMALL, *PEOPLE, "--settle", "none", "--sgf", sgf
    )
    assert code == 0, err
    assert "two people: black (X) and white (O) take turns" in out
    # the board after each move: the last stone in parentheses, who is to move
    assert " 3 . .(X). .  3" in out and "white (O) to move, move 2" in out
    assert "last move: white D4" in out
    # saved at every prompt: the file always holds the game so far
    assert typist.seen == [[], ["C3"], ["C3", "D4"], ["C3", "D4", "B3"], ["C3", "D4", "B3", "pass"]]
    record = load_sgf(sgf)
    assert [record.final.action_to_string(a) for a in record.moves] == [
        "C3",
        "D4",
        "B3",
        "pass",
        "pass",
    ]
    # scored as it stands (--settle none): Tromp-Taylor area with komi, by the rules' own count
    score = record.final.area_score()
    assert (
        record.metadata["RE"]
        == record.final.result()
        == ("B+" if score > 0 else "W+") + f"{abs(score):g}"
    )
    assert record.metadata["PB"] == "human" and record.metadata["RU"] == "Chinese"
    assert "dead stones not settled: the board is scored as it stands" in out
    assert f"game over after 5 moves: black (human) wins by {score:g} points" in out


def test_a_bad_point_an_occupied_point_and_superko_are_asked_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _type(monkeypatch, ["I3", "z9", "c4", "a1", "resign"])
    code, out, err = run_main(
        capsys, "play", "go", *SMALL, *PEOPLE, "--moves", SUPERKO_LINE, "--settle", "none"
    )
    assert code == 0, err
    assert "'I3' is not a vertex: Go has no column I" in out
    assert "'z9' is not a vertex" in out
    assert "illegal move C4 for black: occupied" in out
    assert "illegal move A1 for black: superko" in out
    assert "black (human) resigns: white (human) wins" in out


def test_undo_takes_back_your_move_and_the_reply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sgf = tmp_path / "game.sgf"
    typist = _type(monkeypatch, ["c3", "undo", "resign"], look=lambda: _moves_in(sgf))
    code, out, err = run_main(
        capsys, "play", "go", *SMALL, "--second", "random", "--sgf", sgf, "--settle", "none"
    )
    assert code == 0, err
    assert "took back your last move" in out
    first, after_reply, after_undo = typist.seen
    assert first == [] and after_reply[0] == "C3" and len(after_reply) == 2
    assert after_undo == []  # the move and the engine's reply are gone from the file too
    record = load_sgf(sgf)
    assert record.moves == () and record.metadata["RE"] == "W+R"
    assert record.metadata["PW"] == "random"


def _wall(tmp_path: Path) -> tuple[Path, GoState]:
    """A black wall on the D line; the lone white stone in the one-line strip behind it is
    dead, but as the board stands it keeps the strip from being black's."""
    start = Go(5, 0.5).position(black=["D1", "D2", "D3", "D4", "D5"], white=["E3"], to_move=0)
    saved = tmp_path / "wall.sgf"
    saved.write_text(write_sgf(start, start=start))
    return saved, start


def test_dead_stones_are_settled_by_play_outs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved, start = _wall(tmp_path)
    _type(monkeypatch, ["pass", "pass"])
    code, out, err = run_main(capsys, "play", "go", "--load", saved, *PEOPLE, "--sgf", saved)
    assert code == 0, err
    assert start.result() == "B+18.5"  # as it stands E1 E2 E4 E5 are nobody's, E3 white's
    assert "dead stones settled by 100 random play-outs from the final position" in out
    assert "dead: black none; white E3" in out
    assert "score (Tromp-Taylor area): black 25, white 0, komi 0.5: B+24.5" in out
    assert "black (human) wins by 24.5 points (B+24.5)" in out
    assert load_sgf(saved).metadata["RE"] == "B+24.5"


def test_an_engine_can_settle_by_playing_both_sides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved, start = _wall(tmp_path)
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--first", "random", "--second", "random",
        "--settle", "random", "--seed", "3", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    final = start
    for move in game["moves"]:
        final = final.apply(final.string_to_action(move))
    assert final.is_terminal()
    # the play-out starts from the final position (not ended) under area scoring
    state = Go(5, 0.5, scoring="area").position(
        black=stones(final, 1), white=stones(final, 2), to_move=final.to_move
    )
    for move in game["settle_moves"]:
        state = state.apply(state.string_to_action(move))
    assert state.is_terminal() and game["settled_by"] == "random"
    assert game["score"] == state.area_score()
    for colour, name in ((1, "black"), (2, "white")):
        gone = [p for p in stones(final, colour) if state.board[p] != colour]
        assert game["dead"][name] == [final.action_to_string(p) for p in gone]


def test_agents_against_each_other_as_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "g.sgf"
    code, out, err = run_main(
        capsys, "play", "go", *SMALL, "--first", "random", "--second", "random", "--seed", "4",
        "--settle", "none", "--sgf", sgf, "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    record = load_sgf(sgf)
    assert [record.final.action_to_string(a) for a in record.moves] == game["moves"]
    assert record.final.is_terminal()
    assert game["score"] == record.final.area_score()
    assert game["sgf_result"] == record.metadata["RE"] == record.final.result()
    assert game["returns"] == list(record.final.returns())  # win/loss by the area score


def test_load_continues_a_saved_game_and_keeps_its_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "old.sgf"
    saved.write_text("(;GM[1]FF[4]SZ[7]KM[6.5]GN[club game]C[first session];B[dd];W[cc]C[hm])")
    _type(monkeypatch, ["e5", "resign"])
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--sgf", saved, "--first", "human",
        "--second", "random", "--settle", "none",
    )  # fmt: skip
    assert code == 0, err
    assert "black (X) to move, move 3, komi 6.5" in out
    record = load_sgf(saved)
    names = [record.final.action_to_string(a) for a in record.moves]
    assert names[:3] == ["D4", "C5", "E5"] and len(names) == 4  # E5 and the engine's reply
    assert record.game.size == 7 and record.game.komi == 6.5
    assert record.metadata["GN"] == "club game" and record.comments == {0: "first session", 2: "hm"}
    assert record.metadata["RE"] == "W+R"


def test_load_numbers_the_moves_after_the_loaded_ones_and_lists_them_all(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "old.sgf"
    saved.write_text("(;GM[1]FF[4]SZ[7]KM[6.5];B[dd];W[cc];B[ee];W[])")
    _type(monkeypatch, ["b2", "pass", "resign"])
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--second", "random", "--settle", "none",
        "--seed", "1",
    )  # fmt: skip
    assert code == 0, err
    prompts = [line for line in out.splitlines() if line.startswith("move ")]
    assert prompts[:3] == [
        "move 5: black (human) to play",  # four moves in the file
        "move 6: white (random) to play",
        "move 7: black (human) to play",
    ]
    moves = out.split("moves: ")[-1].split()
    assert moves[:5] == ["D4", "C5", "E3", "pass", "B2"] and moves[6] == "pass"
    assert len(moves) == 8 and f"game over after {len(moves)} moves" in out
    # in JSON the moves played here, and the loaded ones before them
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--first", "random", "--second", "random",
        "--settle", "none", "--json",
    )  # fmt: skip
    assert code == 0, err
    game = json.loads(out)
    assert game["earlier_moves"] == ["D4", "C5", "E3", "pass"] and game["moves"]


# -- the engine passes when passing keeps the win, and resigns below --resign-below --------------
def _saved(tmp_path: Path, name: str, black: list[str], white: list[str], to_move: int) -> Path:
    """A 5x5 position (komi 0.5) saved as the start of an SGF file."""
    start = Go(5, 0.5).position(black=black, white=white, to_move=to_move)
    saved = tmp_path / name
    saved.write_text(write_sgf(start, start=start))
    return saved


# black's B column against white's C column: white is 5.5 ahead, black to move
COLUMNS = {"black": [f"B{row}" for row in range(1, 6)], "white": [f"C{row}" for row in range(1, 6)]}
# white's columns B to D with two eyes at A2 and A4; the E column white's too; black has nothing
WHITE_BOARD = [f"{col}{row}" for col in "BCD" for row in range(1, 6)] + ["A1", "A3", "A5"]
ENGINE = "mcts:simulations=300,tier=reference"
COMPILED = "mcts:simulations=300"  # the compiled Go search (its tree ranks the pass last)


def test_the_engine_passes_after_your_pass_when_it_has_won(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = _saved(tmp_path, "won.sgf", COLUMNS["black"], COLUMNS["white"], to_move=0)
    _type(monkeypatch, ["pass"] * 10)
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--second", COMPILED, "--sgf", saved
    )
    assert code == 0, err
    # the game ends at once (before the rule, white filled its own area while you passed)
    assert f"{COMPILED} plays pass" in out
    assert "black passed and white wins the game scored now (W+5.5): passing ends it" in out
    assert f"game over after 2 moves: white ({COMPILED}) wins by 5.5 points (W+5.5)" in out
    assert out.rstrip().endswith("moves: pass pass")
    assert load_sgf(saved).metadata["RE"] == "W+5.5"


def test_the_engine_passes_first_when_the_board_is_closed_and_won(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = _saved(tmp_path, "closed.sgf", [], WHITE_BOARD, to_move=1)
    _type(monkeypatch, ["pass"])
    code, out, err = run_main(
        capsys, "play", "go", "--load", saved, "--second", COMPILED, "--seed", "2"
    )
    assert code == 0, err
    # no neutral point, the count wins, and the search values passing as its own move
    assert f"{COMPILED} plays pass" in out and "    passes instead of E" in out
    assert "no neutral point is left and white wins the game scored now (W+25.5)" in out
    assert out.rstrip().endswith("moves: pass pass")


def test_the_engine_resigns_below_resign_below_and_not_without_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    white = [stone for stone in WHITE_BOARD if not stone.startswith("D")]  # D and E open
    saved = _saved(tmp_path, "lost.sgf", [], white, to_move=0)
    _type(monkeypatch, ["pass"] * 40)
    argv = ["play", "go", "--load", saved, "--first", ENGINE, "--second", "human"]
    code, out, err = run_main(capsys, *argv, "--resign-below", "-0.5", "--sgf", saved)
    assert code == 0, err
    said = rf"{re.escape(ENGINE)} resigns: the search's value (\S+) was below -0.5 at 2 moves"
    found = re.search(said + " in a row", out)
    assert found is not None and float(found[1]) < -0.5, out
    assert f"game over after 2 moves: black ({ENGINE}) resigns: white (human) wins" in out
    assert load_sgf(saved).metadata["RE"] == "W+R"
    _type(monkeypatch, ["pass"] * 40)
    code, out, err = run_main(capsys, *argv)  # off by default: played to the end
    assert code == 0, err
    assert "resigns" not in out and "white (human) wins by" in out


def test_ctrl_c_keeps_every_move_in_the_file(tmp_path: Path) -> None:
    sgf = tmp_path / "game.sgf"
    argv = ["play", "go", *SMALL, "--second", "random", "--sgf", str(sgf)]
    with interactive(argv, ROOT) as process:
        assert process.stdin is not None
        read_prompt(process)
        process.stdin.write("c3\n")
        process.stdin.flush()
        read_prompt(process)  # the engine has replied
        interrupt_at_prompt(process)
    record = load_sgf(sgf)
    assert len(record.moves) == 2 and record.final.action_to_string(record.moves[0]) == "C3"
    assert "RE" not in record.metadata  # the game did not end
    assert not list(tmp_path.glob(".*.tmp"))


# -- bad input: one line, exit code 2 ------------------------------------------------------------
def test_a_malformed_sgf_is_one_line_with_its_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9]\n;B[ee];W[ee])")
    code, _, err = run_main(capsys, "play", "go", "--load", bad)
    assert_one_line_error(code, err, f"{bad}:2:8: move 2 W[ee] (E5) is illegal: occupied")
    bad.write_text("(;GM[1]SZ[9];B[ee]")
    code, _, err = run_main(capsys, "play", "go", "--load", bad)
    assert_one_line_error(code, err, f"{bad}:1:19: unbalanced parentheses")


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["play", "go", "--load", "{tmp}/missing.sgf"], ["no such file", "missing.sgf"]),
        (
            ["play", "go", "--load", "{tmp}/ok.sgf", "-p", "size=9"],
            ["--load takes the board size", "-p size"],
        ),
        (["play", "go", "--load", "{tmp}/ok.sgf", "--moves", "D4"], ["--load and --moves"]),
        (["play", "go", "--load", "{tmp}/over.sgf"], ["the game is already over in", "over.sgf"]),
        (["play", "tictactoe", "--sgf", "{tmp}/t.sgf"], ["--sgf is for Go"]),
        (["play", "tictactoe", "--load", "{tmp}/ok.sgf"], ["--load reads a Go game"]),
        (["play", "go", "--sgf", "{tmp}/no/such/dir/g.sgf"], ["--sgf: no such folder"]),
        (["play", "go", "--sgf", "{tmp}"], ["--sgf:", "is a folder"]),
        (["play", "go", "--settle", "human"], ["--settle needs a search agent"]),
        (["play", "go", "--settle", "mcts:bogus=1"], ["bogus"]),
        (["play", "go", "--moves", "D4 D4"], ["move 2 'D4'", "occupied"]),
        (["play", "go", "--moves", f"{SUPERKO_LINE} A1"], ["move 23 'A1'", "superko"]),
        (["play", "go", "-p", "size=21"], ["size must be an integer in 5..19, got 21"]),
        (["play", "go", "--resign-below", "lost"], ["--resign-below takes", "got 'lost'"]),
        (["play", "go", "--resign-below", "1.5"], ["from -1 (lost) to 1 (won)", "got '1.5'"]),
        (["play", "go", "--resign-below", "nan"], ["--resign-below takes", "got 'nan'"]),
        (["play", "tictactoe", "--resign-below", "-0.9"], ["--resign-below is for Go"]),
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "ok.sgf").write_text("(;SZ[9];B[ee])")
    (tmp_path / "over.sgf").write_text("(;SZ[9];B[ee];W[];B[])")
    code, _, err = run_main(capsys, *[arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    assert_one_line_error(code, err, *fragments)


def test_the_record_is_read_by_the_module_the_same(tmp_path: Path) -> None:
    """The written file is plain SGF text our reader and a second reader agree on."""
    from sgfmill import sgf as sgfmill

    path = tmp_path / "g.sgf"
    code = subprocess.run(
        [sys.executable, "-m", "searchlab", "play", "go", *SMALL, "--first", "random", "--second",
         "random", "--settle", "none", "--sgf", str(path), "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    ).returncode  # fmt: skip
    assert code == 0
    text = path.read_text()
    ours = read_sgf(text)
    theirs = sgfmill.Sgf_game.from_string(text)
    assert theirs.get_size() == 5 and theirs.get_komi() == 0.5
    assert len(theirs.get_main_sequence()) - 1 == len(ours.moves)
    assert theirs.get_root().get("RE") == ours.metadata["RE"]


def test_help_names_the_go_notation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _type(monkeypatch, ["help", "resign"])
    code, out, _ = run_main(capsys, "play", "go", *SMALL, "--second", "random")
    assert code == 0
    assert "moves: a point, column letter (A..T, no I) then row number" in out
    assert "you play black (X) against random (O)" in out
