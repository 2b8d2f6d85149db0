"""The files of the recipes in ``docs/architecture.md``: every fenced Python block whose first
line names a file (``# notakto.py``; a ``# notakto.py, continued`` block adds to it), saved in a
folder. Used by ``tests/test_recipes.py`` (which follows the recipes) and by the browser lab's
server fixture (``tests/web/conftest.py``), which serves the recipes' toy game, Notakto, with
``searchlab serve --game``."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "architecture.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
FILE_LINE = re.compile(r"# (\w+\.py)(, continued)?")
OWN_GAME = "notakto"
"""The recipe's toy game (its file ``notakto.py``, class ``Notakto``), which the browser lab's
test server serves beside the built-in games (``searchlab serve --game FILE.py:CLASS``), as a
person who followed the recipe would."""


def recipe_blocks() -> list[tuple[str, str]]:
    """``(language, code)`` of every fenced block of the recipes section, in page order."""
    text = PAGE.read_text(encoding="utf-8")
    return BLOCK.findall(text[text.index("## Recipes") :])


def write_files(folder: Path) -> list[str]:
    """Save the recipes' files in ``folder``; their names in page order."""
    names: list[str] = []
    for language, code in recipe_blocks():
        if language != "python":
            continue
        match = FILE_LINE.fullmatch(code.splitlines()[0])
        assert match, f"a Python block of the recipes names no file: {code.splitlines()[0]!r}"
        name, continued = match.groups()
        with (folder / name).open("a" if continued else "w", encoding="utf-8") as handle:
            handle.write(("\n\n" if continued else "") + code)
        if name not in names:
            names.append(name)
    return names
