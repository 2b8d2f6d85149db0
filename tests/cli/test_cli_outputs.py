"""Output files: every bad one is one line and exit code 2 before any search runs, and a
picture is written in the format its extension names, the same rule for every command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import assert_one_line_error, run_main
from needs import missing

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "examples" / "maps" / "arena.map"

MAGIC = {
    ".png": b"\x89PNG\r\n\x1a\n",
    ".jpg": b"\xff\xd8\xff",
    ".jpeg": b"\xff\xd8\xff",
    ".gif": b"GIF8",
    ".bmp": b"BM",
}


def _path_png(out: object) -> list[object]:
    return ["path", MAP, "--from", "3,3", "--to", "45,45", "--png", out]


def _analyse_png(out: object) -> list[object]:
    return ["analyse", "connect4", "44", "--agent", "mcts:simulations=300", "--png", out]


PICTURE_COMMANDS = {"path": _path_png, "analyse": _analyse_png}


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any search makes the test fail: the checks must come first."""

    def searched(*args: object, **kwargs: object) -> None:
        raise AssertionError("a search ran before the output file was checked")

    monkeypatch.setattr("searchlab.cli.path.Solve.__call__", searched)
    monkeypatch.setattr("searchlab.agents.search.MCTSAgent.act", searched)


def _bad_outputs(tmp: Path) -> list[tuple[Path | str, list[str]]]:
    a_file = tmp / "notes.txt"
    a_file.write_text("not a folder")
    (tmp / "folder").mkdir()
    return [
        (tmp / "folder", ["is a folder", "out.png"]),
        (f"{tmp / 'folder'}/", ["is a folder"]),
        (tmp / "picture", ["has no picture extension", "picture.png"]),
        (a_file / "x.png", ["notes.txt' is a file, not a folder"]),
        (a_file / "deeper" / "x.png", ["notes.txt' is a file, not a folder"]),
        (tmp / "missing" / "x.png", ["no such folder"]),
        (tmp / "x.svg", ["cannot write .svg pictures", ".png", ".jpg"]),
        (tmp / "x.txt", ["cannot write .txt pictures"]),
        ("", ["needs a file name"]),
    ]


@pytest.mark.parametrize("command", sorted(PICTURE_COMMANDS))
def test_bad_picture_files_are_one_line_before_the_search(
    command: str, tmp_path: Path, no_search: None, capsys: pytest.CaptureFixture[str]
) -> None:
    for out, fragments in _bad_outputs(tmp_path):
        code, stdout, err = run_main(capsys, *PICTURE_COMMANDS[command](out))
        assert_one_line_error(code, err, "--png", *fragments)
        assert stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "notes.txt"]  # nothing new


def test_unwritable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.access(locked, os.W_OK):  # root ignores permission bits (CI runs as root): deny here
        real_access = os.access
        monkeypatch.setattr(
            os, "access", lambda p, mode, **kw: Path(p) != locked and real_access(p, mode, **kw)
        )
    code, _, err = run_main(capsys, *_path_png(locked / "x.png"))
    assert_one_line_error(code, err, "--png", "permission denied")


@pytest.mark.parametrize("command", sorted(PICTURE_COMMANDS))
@pytest.mark.parametrize("extension", sorted(MAGIC))
def test_the_extension_names_the_format(
    command: str, extension: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"picture{extension.upper() if extension == '.jpg' else extension}"
    code, stdout, err = run_main(capsys, *PICTURE_COMMANDS[command](out))
    assert code == 0, err
    assert out.read_bytes().startswith(MAGIC[extension])
    assert f"picture: {out}" in stdout


def test_webp_when_pillow_writes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import features

    if not features.check("webp"):
        # PyPI's Pillow wheels (what the test extra installs) write WebP: in CI this must run.
        missing("this Pillow has no WebP support (PyPI's wheels have it)")
    out = tmp_path / "search.webp"
    code, _, err = run_main(capsys, *_path_png(out))
    assert code == 0, err
    data = out.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
