"""Static pictures from the command line: ``searchlab tree --svg/--png`` (the searched tree,
as the exercise answers draw it) and ``searchlab analyse --tree-png`` (an MCTS tree)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from PIL import Image

TREES = Path(__file__).resolve().parents[2] / "examples" / "trees"


def test_tree_svg_and_png_with_alphabeta(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    code, out, err = run_main(
        capsys, "tree", TREES / "deep_cutoff.tree", "--alphabeta", "--svg", svg, "--png", png
    )
    assert code == 0 and err == ""
    assert "pruned: f2, G" in out  # the text output is unchanged
    root = ET.fromstring(svg.read_text())
    cut = sorted(e.get("data-child") for e in root.iter() if e.get("class") == "edge cut")
    assert cut == ["G", "f2"]
    title = [t.text for t in root.iter() if t.get("class") == "title"]
    assert title == ["deep_cutoff.tree: alpha-beta, value 5, best move B, 2 pruned branches"]
    assert Image.open(png).format == "PNG"


def test_tree_svg_with_minimax(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "m.svg"
    code, _, _ = run_main(capsys, "tree", TREES / "aima_fig5_2.json", "--svg", svg)
    assert code == 0
    root = ET.fromstring(svg.read_text())
    assert not [e for e in root.iter() if e.get("class") == "edge cut"]
    circles = sorted(e.get("data-node") for e in root.iter() if e.get("class") == "min")
    assert circles == ["B", "C", "D"]


@pytest.mark.parametrize(
    ("option", "value", "fragment"),
    [
        ("--png", "out.svg", "cannot write .svg"),
        ("--png", "/nonexistent/t.png", "no such folder"),
        ("--svg", "", "needs a file name"),
    ],
)
def test_tree_bad_picture_files(
    capsys: pytest.CaptureFixture[str], option: str, value: str, fragment: str
) -> None:
    code, _, err = run_main(capsys, "tree", TREES / "aima_fig5_2.tree", option, value)
    assert_one_line_error(code, err, fragment)


def test_analyse_tree_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "mcts.png"
    code, text, err = run_main(
        capsys,
        "analyse",
        "tictactoe",
        "b2",
        "--agent",
        "mcts:simulations=400",
        "--tree-png",
        out,
        "--tree-depth",
        "1",
    )
    assert code == 0 and err == ""
    assert f"tree picture: {out}" in text
    image = Image.open(out)
    assert image.format == "PNG" and image.width > 700


def test_analyse_tree_png_in_the_compiled_tier(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "compiled.png"
    code, text, err = run_main(
        capsys, "analyse", "connect4", "44", "--agent", "mcts:simulations=3000,tier=compiled",
        "--tree-png", out, "--tree-depth", "2",
    )  # fmt: skip
    assert code == 0 and err == ""
    assert f"tree picture: {out}" in text and "simulations 3000" in text
    image = Image.open(out)
    assert image.format == "PNG" and image.width > 700


def test_compiled_tree_view_is_the_searchers_tree() -> None:
    from searchlab.agents.registry import make_agent
    from searchlab.games import make

    game = make("connect4")
    agent = make_agent("mcts:simulations=2000,reuse=true", game, seed=1)
    agent.act(game.initial_state())
    view = agent.tree_view(2, 7)  # type: ignore[attr-defined]
    assert view is not None and view["visits"] == 2000
    children = view["children"]
    assert sum(child["visits"] for child in children) == 2000
    rows = [(c["action"], c["visits"]) for c in agent.last_result.stats["children"]]
    assert sorted((c["action"], c["visits"]) for c in children) == sorted(rows)
    for child in children:  # two plies: each child's most visited children, under its visits
        assert len(child["children"]) <= 7
        assert sum(g["visits"] for g in child["children"]) <= child["visits"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--agent", "alphabeta:depth=3", "--tree-png", "t.png"], "is not mcts"),
        (  # tic-tac-toe has no compiled tier (a tree picture itself now runs in either)
            ["--agent", "mcts:simulations=50,tier=compiled", "--tree-png", "t.png"],
            "no compiled tier for the game 'tictactoe'",
        ),
        (["--tree-png", "t.png", "--tree-depth", "0"], "--tree-depth must be 1..6"),
        (["--tree-png", "t.txt"], "cannot write .txt"),
    ],
)
def test_analyse_tree_png_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], fragment: str
) -> None:
    argv = [str(tmp_path / a) if a.startswith("t.") else a for a in argv]
    code, _, err = run_main(capsys, "analyse", "tictactoe", *argv)
    assert_one_line_error(code, err, fragment)
