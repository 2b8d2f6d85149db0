"""The documentation site builds with ``mkdocs build --strict`` and no warning: every link between
pages and every anchor resolves, every API page renders from the docstrings, and every link to a
file outside ``docs/`` (raw outputs, examples, tests) names a file of the repository
(``scripts/mkdocs_hooks.py``). MkDocs comes with the ``docs`` extra, which the ``test`` extra
includes: missing, the test is skipped, except in CI, where it fails.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from needs import require_module

REPO_ROOT = Path(__file__).resolve().parents[1]


def load_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mkdocs_hooks", REPO_ROOT / "scripts" / "mkdocs_hooks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_strict_without_a_warning(tmp_path: Path) -> None:
    require_module("mkdocs", "docs")
    require_module("mkdocstrings_handlers.python", "docs")
    require_module("material", "docs")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(REPO_ROOT / "mkdocs.yml"),
            "-d",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert result.returncode == 0 and not warnings, "\n".join(warnings) or result.stderr[-2000:]
    # the API reference rendered members from the docstrings, not only headings
    core = (tmp_path / "site" / "reference" / "core" / "index.html").read_text(encoding="utf-8")
    assert "SearchlabError" in core and "doc-class" in core


def test_a_link_outside_docs_is_checked_and_marked(caplog: pytest.LogCaptureFixture) -> None:
    hooks = load_hooks()
    docs, page = REPO_ROOT / "docs", REPO_ROOT / "docs" / "games" / "connect4.md"
    assert hooks._outside("../../README.md#go", page, docs, REPO_ROOT) == "blob/README.md#go"
    assert (
        hooks._outside("../../benchmarks/results", page, docs, REPO_ROOT)
        == "tree/benchmarks/results"
    )
    assert hooks._outside("othello.md", page, docs, REPO_ROOT) is None  # MkDocs checks these
    assert hooks._outside("https://example.org/x", page, docs, REPO_ROOT) is None
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.searchlab_links"):
        assert (
            hooks._outside("../../benchmarks/results/none_such.txt", page, docs, REPO_ROOT) is None
        )
    assert "none_such.txt" in caplog.text and "no such file" in caplog.text


def test_the_hook_leaves_code_blocks_and_resolves_marks() -> None:
    hooks = load_hooks()
    page = type(
        "Page",
        (),
        {
            "file": type("F", (), {"abs_src_path": str(REPO_ROOT / "docs" / "arena.md")})(),
            "url": "arena/",
        },
    )()
    config = {
        "docs_dir": str(REPO_ROOT / "docs"),
        "config_file_path": str(REPO_ROOT / "mkdocs.yml"),
        "site_dir": str(REPO_ROOT / "site"),
        "repo_url": None,
    }
    markdown = "[out](../README.md) [in](agents.md)\n```text\n[code](../README.md)\n```\n"
    marked = hooks.on_page_markdown(markdown, page, config, None)
    assert marked.startswith(f"[out]({hooks.SCHEME}blob/README.md) [in](agents.md)")
    assert "[code](../README.md)" in marked
    html = f'<a href="{hooks.SCHEME}blob/README.md">out</a>'
    assert hooks.on_page_content(html, page, config, None) == '<a href="../../README.md">out</a>'
    config["repo_url"] = "https://example.org/searchlab"
    assert hooks.on_page_content(html, page, config, None) == (
        '<a href="https://example.org/searchlab/blob/HEAD/README.md">out</a>'
    )
