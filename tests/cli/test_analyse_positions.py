"""``searchlab analyse GAME --positions FILE --agent SPEC --json``: one JSON object per position
line (Pons' format or move strings), in file order, each the agent's own answer for that
position; az's objects carry visits and the network's priors; bad lines and clashing options
are one line naming the problem, and nothing is searched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from searchlab.agents import make_agent
from searchlab.cli.analyse_positions import read_positions
from searchlab.cli.main import main
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.networks.checkpoint import save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.network import PolicyValueNet

torch.set_num_threads(1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_pons_line_is_one_json_object_with_the_agents_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "Test_L9_R9"
    path.write_text("121212 18\n\n# a comment\n44553 -18\n4 2\n")
    code, out, err = run(
        capsys, "analyse", "connect4", "--positions", str(path), "--agent",
        "alphabeta:depth=3", "--json",
    )  # fmt: skip
    assert code == 0, err
    objects = [json.loads(line) for line in out.splitlines()]
    assert [(o["line"], o["position"], o["score"]) for o in objects] == [
        (1, "121212", 18),
        (4, "44553", -18),
        (5, "4", 2),
    ]
    game = Connect4()
    agent = make_agent("alphabeta:depth=3", game)
    for obj in objects:
        state = game.from_moves(obj["position"])
        agent.reset()
        assert obj["action"] == state.action_to_string(agent.act(state))
        assert obj["agent"] == "alphabeta:depth=3" and obj["seconds"] >= 0
    assert objects[0]["action"] == "1"  # the immediate win


def test_move_strings_and_az_priors_beside_visits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    encoder = encoder_for(TicTacToe())
    net = PolicyValueNet(encoder.shape, encoder.num_actions, seed=0)
    checkpoint = save_checkpoint(tmp_path / "net.ckpt", net, encoder)
    path = tmp_path / "lines.txt"
    path.write_text("a1 b2\nb2\n")
    code, out, err = run(
        capsys, "analyse", "tictactoe", "--positions", str(path), "--agent",
        f"az:checkpoint={checkpoint},simulations=30", "--json",
    )  # fmt: skip
    assert code == 0, err
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["position"] for o in objects] == ["a1 b2", "b2"]
    for obj in objects:
        assert "score" not in obj and obj["simulations"] == 30
        children = obj["children"]
        assert sum(c["visits"] for c in children) == 30
        assert sum(c["prior"] for c in children) == pytest.approx(1.0, abs=1e-3)


def test_text_output_is_one_line_per_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lines.txt"
    path.write_text("a1 b2\nb2\n")
    argv = ["analyse", "tictactoe", "--positions", str(path), "--agent", "random"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and len(out.splitlines()) == 2 and "a1 b2  ->" in out


@pytest.mark.parametrize(
    ("content", "moves", "options", "message"),
    [
        ("a1 b2\nz9\n", [], [], "lines.txt:2: move 1 'z9'"),
        ("a1 b1 a2 b2 a3\n", [], [], "lines.txt:1: the game is already over"),
        ("# nothing\n\n", [], [], "no positions in the file"),
        ("a1 b2\n", [], ["--positions-format", "pons"], "lines.txt:1: expected 'MOVES SCORE'"),
        ("a1\n", ["b2"], [], "drop MOVES"),
        ("a1\n", [], ["--png", "x.png"], "drop --png"),
    ],
)
def test_bad_files_and_options_are_one_line_and_nothing_is_searched(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str,
    moves: list[str],
    options: list[str],
    message: str,
) -> None:
    path = tmp_path / "lines.txt"
    path.write_text(content)
    code, out, err = run(
        capsys, "analyse", "tictactoe", *moves, "--positions", str(path), *options, "--json"
    )
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "analyse", "tictactoe", "--positions", str(tmp_path / "none.txt"))
    assert code == 2 and "none.txt" in err and len(err.strip().splitlines()) == 1


def test_auto_reads_pons_lines_and_moves_format_reads_the_whole_line(tmp_path: Path) -> None:
    game = Connect4()
    path = tmp_path / "lines.txt"
    path.write_text("4 4\n")  # Pons' position "4" scored 4, or the moves 4 then 4
    auto = read_positions(game, path)
    assert [(m, s, st.moves) for _, m, s, st in auto] == [("4", 4, "4")]
    moves = read_positions(game, path, "moves")
    assert [(m, s, st.moves) for _, m, s, st in moves] == [("4 4", None, "44")]
