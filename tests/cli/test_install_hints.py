"""Every install hint that names an extra is quoted, so that it can be pasted into zsh (where
an unquoted ``searchlab[web]`` is a glob that fails with "no matches found")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

UNQUOTED = re.compile(r"pip install\s+(?:-\S+\s+)*(?!['\"])[^\s'\"`]*\[")
"""``pip install`` (options allowed) followed by an unquoted word holding ``[``."""


def _texts() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    source = ROOT / "src" / "searchlab"
    for pattern in ("*.py", "*.js", "*.html"):
        files.extend(sorted(source.rglob(pattern)))
    return files


def test_the_pattern_finds_an_unquoted_hint() -> None:
    assert UNQUOTED.search("needs the web extra: pip install searchlab[web]")
    assert UNQUOTED.search("pip install -e .[web]")
    assert not UNQUOTED.search("pip install 'searchlab[web]' or pip install -e \".[web]\"")


def test_install_hints_are_quoted() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in _texts()
        for match in UNQUOTED.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == [], f"quote the extra for zsh: {found}"
