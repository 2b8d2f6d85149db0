"""The documentation's index stays true: ``docs/index.md`` links every page of ``docs/``, and
every link of the README, the index and the tutorials leads to a file that exists (and, with
``#``, to a heading of it). The tutorials' Python examples run as doctests (``pyproject.toml``:
``--doctest-glob=docs/tutorial/*.md``); a test here checks they are collected.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DOCS = REPO_ROOT / "docs"
INDEX = DOCS / "index.md"
TUTORIALS = sorted((DOCS / "tutorial").glob("*.md"))

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def links(page: Path) -> list[str]:
    """The targets of a page's markdown links, code blocks left out."""
    return LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


def local_links(page: Path) -> list[tuple[str, Path, str]]:
    """``(link, file it names, anchor or "")`` for each link to this repository's files."""
    found = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        found.append((target, (page.parent / path).resolve() if path else page, anchor))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("Tic-tac-toe from scratch in five minutes")
    'tic-tac-toe-from-scratch-in-five-minutes'
    >>> slug("Agents, `play` and `analyse`")
    'agents-play-and-analyse'
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def test_the_index_links_every_docs_page() -> None:
    pages = {path.resolve() for path in DOCS.rglob("*.md")} - {INDEX.resolve()}
    linked = {path for _, path, _ in local_links(INDEX)}
    missing = sorted(str(page.relative_to(DOCS)) for page in pages - linked)
    assert not missing, f"docs/index.md does not link: {', '.join(missing)}"


@pytest.mark.parametrize(
    "page", [REPO_ROOT / "README.md", INDEX, *TUTORIALS], ids=lambda page: page.name
)
def test_every_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target, path, anchor in local_links(page):
        if not path.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target} (no heading #{anchor})")
    assert not broken, f"{page.relative_to(REPO_ROOT)}: broken links: {'; '.join(broken)}"


def test_the_tutorials_run_as_doctests() -> None:
    """pytest, as configured, collects one doctest per tutorial page (their examples run in
    the suite, not only in this check)."""
    assert TUTORIALS, "no tutorial pages"
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "docs/tutorial"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    for page in TUTORIALS:
        assert f"docs/tutorial/{page.name}::{page.name}" in collected.stdout, collected.stdout
