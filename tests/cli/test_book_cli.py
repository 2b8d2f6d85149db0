"""``searchlab book`` and ``searchlab solve connect4 --threads/--book``: a build, and bad input
as one line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from needs import require_module

from searchlab.cli.main import build_parser

# A Middle-Easy position of Pons' Test_L2_R1 and its score there.
ROOT, ROOT_SCORE = "4661237137541742643224", 8


def test_build_then_solve_from_the_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.c4book"
    code, stdout, _ = run_main(
        capsys, "book", "build", "connect4", "--depth", "27", "--root", ROOT, "--out", out,
        "--workers", "1",
    )  # fmt: skip
    assert code == 0 and "92 positions" in stdout and out.exists()
    code, stdout, _ = run_main(capsys, "solve", "connect4", ROOT, "--book", out, "--json")
    data = json.loads(stdout)
    assert code == 0 and data["score"] == ROOT_SCORE and data["nodes"] == 0


def test_threads_two_solves_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run_main(
        capsys, "solve", "connect4", ROOT, "--threads", "2", "--no-book", "--json"
    )
    assert code == 0 and json.loads(stdout)["score"] == ROOT_SCORE


def test_a_corrupt_book_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.c4book"
    bad.write_bytes(b"SLC4BOOK" + b"\x01" * 40)
    code, _, err = run_main(capsys, "solve", "connect4", "44", "--book", bad)
    assert_one_line_error(code, err, "bad.c4book")
    code, _, err = run_main(capsys, "book", "info", tmp_path / "missing.c4book")
    assert_one_line_error(code, err, "missing.c4book")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--depth", "30"], "GiB"),
        (["--depth", "-2"], "depth"),
        (["--depth", "4", "--ray", "nonsense"], "HOST:PORT"),
        (["--depth", "4", "--root", "4444444"], "column 4 is full"),
    ],
)
def test_bad_build_input_is_one_line(
    argv: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(
        capsys, "book", "build", "connect4", "--out", tmp_path / "b.c4book", *argv
    )
    assert_one_line_error(code, err, fragment)


def test_zero_workers_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        run_main(capsys, "book", "build", "connect4", "--depth", "4", "--workers", "0",
                 "--out", tmp_path / "b")  # fmt: skip
    err = capsys.readouterr().err
    assert caught.value.code == 2 and err.count("\n") == 1 and "--workers" in err


def test_an_unknown_game_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(
        capsys, "book", "build", "othello", "--depth", "2", "--out", tmp_path / "b"
    )
    assert_one_line_error(code, err, "only connect4")


def test_a_ray_address_that_does_not_answer_is_one_line_soon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_main(
        capsys, "book", "build", "connect4", "--depth", "4", "--out", tmp_path / "b.c4book",
        "--ray", "127.0.0.1:1",
    )  # fmt: skip
    assert_one_line_error(code, err, "no Ray cluster answers")


@pytest.mark.parametrize(
    ("ray", "expected"),
    [
        ([], None),
        (["--ray"], "local"),
        (["--ray", "auto"], "auto"),
        (["--ray", "h:6379"], "h:6379"),
    ],
)
def test_ray_takes_an_optional_address_as_arena_and_train_do(
    ray: list[str], expected: str | None
) -> None:
    """``--ray`` alone is a local Ray instance, as in ``arena`` and ``train``."""
    book = ["book", "build", "connect4", "--depth", "4", "--out", "b"]
    for command in (
        book,
        ["train", "nim", "--out", "r"],
        ["arena", "nim", "a", "b", "--games", "2"],
    ):
        args = build_parser().parse_args([*command, *ray])
        assert args.ray == expected, command
    args = build_parser().parse_args(["book", "build", "connect4", "--ray", "--depth", "4",
                                      "--out", "b"])  # fmt: skip
    assert (args.ray, args.depth) == ("local", 4)  # an option after a bare --ray is no address


def test_a_book_built_on_local_ray_is_the_book_of_local_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ray`` with no address starts a local Ray instance, builds the same file, and shuts
    the instance down."""
    require_module("ray", "ray")
    argv = ["book", "build", "connect4", "--depth", "27", "--root", ROOT, "--chunk", "16"]
    code, _, err = run_main(capsys, *argv, "--out", tmp_path / "local.c4book", "--workers", "2")
    assert code == 0, err
    code, stdout, err = run_main(
        capsys, *argv, "--out", tmp_path / "ray.c4book", "--workers", "2", "--ray"
    )
    assert code == 0, err
    assert "building the depth-27 book on Ray (local)" in err and "92 positions" in stdout
    assert (tmp_path / "ray.c4book").read_bytes() == (tmp_path / "local.c4book").read_bytes()
    import ray

    assert not ray.is_initialized()  # the command shut down the instance it started
