"""``searchlab exercise alphabeta|astar``: every format, files and folders, seeds, and bad input
as one line with exit code 2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from PIL import Image

from searchlab.domains.games.explicit_tree import ExplicitTree
from searchlab.exercises.alphabeta_exercise import generate_alphabeta
from searchlab.exercises.astar_exercise import generate_astar

SMALL = ["--depth", "3", "--leaves", "12", "--min-cuts", "3"]


def test_markdown_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "exercise", "alphabeta", "--seed", "4", "--size", "large")
    assert code == 0 and err == ""
    exercise = generate_alphabeta(seed=4)  # the library's default: the large size
    assert out.startswith("# Alpha-beta exercise (seed 4)")
    assert f"Root value: **{int(exercise.key.value)}**" in out
    assert exercise.text.rstrip("\n") in out


@pytest.mark.parametrize(
    ("argv", "shape"),
    [
        ([], {"depth": 3, "branching": 3, "leaves": 12, "min_cuts": 3}),  # small: the default
        (["--size", "small"], {"depth": 3, "branching": 3, "leaves": 12, "min_cuts": 3}),
        (["--size", "medium"], {"depth": 4, "branching": 3, "leaves": 20, "min_cuts": 6}),
        (["--size", "large"], {"depth": 6, "branching": 3, "leaves": 50, "min_cuts": 16}),
        (["--size", "medium", "--depth", "5"], {"depth": 5, "branching": 3, "leaves": 20,
                                                "min_cuts": 6}),
    ],
)  # fmt: skip
def test_sizes_for_a_teacher(
    capsys: pytest.CaptureFixture[str], argv: list[str], shape: dict[str, int]
) -> None:
    """``--size small|medium|large`` sets the tree's shape, small (pen and paper) by default;
    an option of its own changes one setting of the size."""
    code, out, _ = run_main(capsys, "exercise", "alphabeta", "--format", "json", *argv)
    assert code == 0
    expected = generate_alphabeta(seed=0, **shape)
    assert json.loads(out) == json.loads(json.dumps(expected.to_dict()))
    tree = expected.tree
    assert tree.height() == shape["depth"] and len(tree.leaves()) <= shape["leaves"]


def test_the_default_picture_fits_a_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    widths = []
    for size in ("small", "large"):
        out = tmp_path / f"{size}.png"
        code, _, _ = run_main(capsys, "exercise", "alphabeta", "--size", size, "--format", "png",
                              "--out", out)  # fmt: skip
        assert code == 0
        widths.append(Image.open(out).size[0])
    assert widths[0] <= 1200 < 3000 <= widths[1]


def test_json_is_the_library_export(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "exercise", "alphabeta", *SMALL, "--values", "0..5",
                            "--seed", "2", "--format", "json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    expected = generate_alphabeta(depth=3, leaves=12, min_cuts=3, low=0, high=5, seed=2)
    assert data == json.loads(json.dumps(expected.to_dict()))


def test_negative_value_ranges_need_no_equals_sign(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(
        capsys, "exercise", "alphabeta", *SMALL, "--values", "-5..-1", "--format", "json"
    )
    assert code == 0, err
    assert json.loads(out)["settings"]["low"] == -5
    code, _, err = run_main(capsys, "exercise", "alphabeta", *SMALL, "--values", "-1..-5")
    assert_one_line_error(code, err, "low end -1 is above the high end -5")


def test_count_gives_consecutive_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(
        capsys, "exercise", "alphabeta", *SMALL, "--seed", "10", "--count", "3", "--format", "json"
    )
    assert code == 0
    lines = out.splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [10, 11, 12]


def test_question_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "exercise", "alphabeta", *SMALL, "--no-answers")
    assert code == 0 and "Answer key" not in out and "- A (MAX)" in out


def test_svg_to_stdout_and_files_to_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run_main(capsys, "exercise", "alphabeta", *SMALL, "--format", "svg")
    assert code == 0
    root = ET.fromstring(out)
    tree = generate_alphabeta(depth=3, leaves=12, min_cuts=3).tree
    squares = [e for e in root.iter() if e.get("class") == "max"]
    assert len(squares) == sum(1 for n in tree.names() if tree.kind(n) == "max")
    code, out, _ = run_main(
        capsys,
        "exercise",
        "alphabeta",
        *SMALL,
        "--count",
        "2",
        "--format",
        "png",
        "--out",
        tmp_path,
    )
    assert code == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["alphabeta-seed0.png", "alphabeta-seed1.png"]
    assert all(Image.open(tmp_path / f).format == "PNG" for f in files)
    code, out, _ = run_main(
        capsys, "exercise", "alphabeta", *SMALL, "--format", "md", "--out", tmp_path / "one.md"
    )
    assert code == 0 and (tmp_path / "one.md").read_text().startswith("# Alpha-beta")


def _two_svgs(capsys: pytest.CaptureFixture[str], out: str) -> tuple[int, str, str]:
    argv = [*SMALL, "--count", "2", "--format", "svg", "--out", out]
    return run_main(capsys, "exercise", "alphabeta", *argv)


@pytest.mark.parametrize("name", ["new/exercises/", "new/exercises"])
def test_out_folder_is_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """The example of ``exercise --help`` (``--count 10 --format png --out exercises/``) works
    in an empty folder: the output folder and its parents are created."""
    code, _, err = _two_svgs(capsys, f"{tmp_path}/{name}")
    assert code == 0 and err == ""
    files = sorted(p.name for p in (tmp_path / "new" / "exercises").iterdir())
    assert files == ["alphabeta-seed0.svg", "alphabeta-seed1.svg"]


def test_out_folder_that_cannot_be_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    code, out, err = _two_svgs(capsys, f"{tmp_path}/file/exercises/")
    assert_one_line_error(code, err, "is a file, not a folder")
    assert out == ""


def test_png_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "ex.png"
    code, text, _ = run_main(
        capsys, "exercise", "alphabeta", *SMALL, "--format", "png", "--out", out
    )
    assert code == 0 and f"picture: {out}" in text
    assert Image.open(out).format == "PNG"


def test_exported_tree_runs_in_searchlab_tree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    exercise = generate_alphabeta(seed=6)
    path = tmp_path / "ex.tree"
    path.write_text(exercise.text)
    code, out, _ = run_main(capsys, "tree", path, "--alphabeta", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["value"] == exercise.key.value
    assert data["best_child"] == exercise.key.best_move
    assert sorted(data["pruned"]) == sorted(exercise.key.pruned)
    assert ExplicitTree.from_text(path.read_text()).names() == exercise.tree.names()


def test_astar_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run_main(
        capsys,
        "exercise",
        "astar",
        "--nodes",
        "5",
        "--consistent",
        "--seed",
        "3",
        "--format",
        "json",
    )
    assert code == 0
    data = json.loads(out)
    expected = generate_astar(nodes=5, consistent=True, seed=3)
    assert data == json.loads(json.dumps(expected.to_dict()))
    assert data["is_consistent"] is True
    code, out, _ = run_main(capsys, "exercise", "astar", "--seed", "3")
    assert code == 0 and out.startswith("# A* exercise (seed 3)") and "Answer key" in out
    code, out, _ = run_main(
        capsys, "exercise", "astar", "--format", "svg", "--out", tmp_path / "a.svg"
    )
    assert code == 0
    ET.fromstring((tmp_path / "a.svg").read_text())


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["alphabeta", "--values", "5..1"], ["low end 5 is above the high end 1"]),
        (["alphabeta", "--values", "1..x"], ["LO..HI"]),
        (["alphabeta", "--values", "nan..inf"], ["LO..HI"]),
        (["alphabeta", "--depth", "0"], ["depth must be 1..12"]),
        (["alphabeta", "--branching", "1"], ["branching must be >= 2"]),
        (["alphabeta", "--size", "large", "--leaves", "5"], ["at least 7 leaves"]),
        (["alphabeta", "--size", "large", "--min-cuts", "49"], ["cannot be reached"]),
        (["alphabeta", "--count", "0"], ["--count must be 1..1000"]),
        (["alphabeta", "--format", "png"], ["needs --out"]),
        (["alphabeta", "--format", "svg", "--count", "2"], ["give --out a folder"]),
        (["alphabeta", "--format", "png", "--out", "x.svg"], ["cannot write .svg"]),
        (["alphabeta", "--out", "/nonexistent/x.md"], ["no such folder"]),
        (["astar", "--nodes", "0"], ["nodes must be a whole number in 1..24"]),
        ([], ["exercise needs a kind"]),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run_main(capsys, "exercise", *argv)
    assert_one_line_error(code, err, *fragments)
    assert out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["alphabeta", "--depth", "inf"],
        ["alphabeta", "--depth", "1.5"],
        ["alphabeta", "--format", "pdf"],
        ["alphabeta", "--size", "huge"],
        ["astar", "--nodes", "many"],
        ["sudoku"],
    ],
)
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run_main(capsys, "exercise", *argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
