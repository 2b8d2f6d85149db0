"""Go on the command line, for ``play``, ``arena`` and ``analyse``: the rule for ``-p`` with an
SGF record loaded (``--load``, ``--sgf``; the record files themselves are
:mod:`searchlab.cli._record`'s, as for every game) and the folder of ``arena --sgf DIR`` (the
SGF text of an arena game is :func:`searchlab.arena.go_sgf.arena_sgf`). The dead stones
settled at the end of ``play go`` (``--settle``) are the library's
(:class:`searchlab.agents.go_settle.GoSettler`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import SUPERKO_RULES, Go
from searchlab.domains.games.go.sgf import SgfGame, load_sgf

__all__ = ["is_go", "load_record", "save_text", "sgf_folder"]


def is_go(game: Any) -> bool:
    """True for the game of Go (any size, komi, handicap)."""
    return isinstance(game, Go)


def load_record(path: str, params: Mapping[str, Any], option: str) -> SgfGame:
    """The Go game saved in the SGF file ``path``; ``params`` (``-p``) may only choose the
    superko rule: the size, komi and handicap come from the file."""
    others = sorted(set(params) - {"superko"})
    if others:
        raise InvalidParameterError(
            f"{option} takes the board size, komi and handicap from the file; drop "
            + ", ".join(f"-p {name}" for name in others)
            + " (only -p superko=... applies)"
        )
    superko = params.get("superko", "positional")
    if superko not in SUPERKO_RULES:  # the rule names are the game's
        quoted = ", ".join(repr(rule) for rule in SUPERKO_RULES)
        raise InvalidParameterError(f"go: superko must be one of {quoted}, got {superko!r}")
    return load_sgf(path, superko=superko)


# -- arena --sgf DIR -----------------------------------------------------------------------------
def sgf_folder(text: str) -> Path:
    """The folder of ``--sgf DIR``, created when its parent exists; one line otherwise."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise InvalidParameterError(f"--sgf: {text!r} is a file, not a folder")
    if not path.parent.is_dir():
        raise InvalidParameterError(f"--sgf: no such folder {str(path.parent)!r} (for {text!r})")
    path.mkdir(exist_ok=True)
    if not os.access(path, os.W_OK | os.X_OK):
        raise InvalidParameterError(f"--sgf: permission denied, cannot write in {text!r}")
    return path


def save_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it)."""
    write_atomically(path, text.encode("utf-8"))
