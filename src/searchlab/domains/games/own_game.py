"""A game of your own (``FILE.py:CLASS``, ``MODULE:CLASS``) that raises: one line, not a traceback.

Every command that takes a game takes yours too. When your game's code raises while a command
runs (``apply`` on a position it did not expect, a ``returns`` that divides by zero), the
command says so in one line and exits with code 2, like any other bad input: which game, what
it raised, and where in your file::

    searchlab: error: play broken.py:Broken: your game failed: KeyError: 'pile' (broken.py
    line 18, in apply)

(on one line). An error that is searchlab's own (raised while a registered game runs) keeps
its traceback: that one is a bug for us, and so does an error raised elsewhere while your game
was in use (no line of your file in its traceback). ``cli/main.py`` applies this to every
command, the arena's workers before the error crosses to the parent process (which loses its
traceback); ``solve`` says ``while solving``.

>>> is_own_game("examples/custom_game.py:Subtraction"), is_own_game("nim"), is_own_game(None)
(True, False, False)
>>> try:
...     {}["pile"]
... except KeyError as error:
...     print(own_game_failure(error, "mygames:Broken", "play"))
play mygames:Broken: your game failed: KeyError: 'pile'
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from searchlab.core.errors import InvalidParameterError

__all__ = ["is_own_game", "own_game_failure", "raised_in_game"]


def is_own_game(name: object) -> bool:
    """Whether ``name`` names a game of your own (``FILE.py:CLASS`` or ``MODULE:CLASS``:
    registered games have no colon in their names)."""
    return isinstance(name, str) and ":" in name


def own_game_failure(
    error: BaseException, name: str, command: str, doing: str = ""
) -> InvalidParameterError:
    """The one-line error for ``error``, raised while ``command`` (``"play"``) ran your game
    ``name``: ``COMMAND NAME: your game failed[ DOING]: TYPE: MESSAGE (FILE line N, in F)``,
    the place being the last line of your game's file in the traceback (when it is there:
    an error from a worker process arrives without one)."""
    reason = f"{type(error).__name__}: {error}".splitlines()[0]
    place = _place_in_game(error, name)
    where = f" ({place})" if place else ""
    during = f" {doing}" if doing else ""
    return InvalidParameterError(f"{command} {name}: your game failed{during}: {reason}{where}")


def raised_in_game(error: BaseException, name: str) -> bool:
    """Whether ``error``'s traceback runs through the file of your game ``name``."""
    return is_own_game(name) and bool(_place_in_game(error, name))


def _place_in_game(error: BaseException, name: str) -> str:
    """``FILE line N, in FUNCTION``: the innermost frame of ``error``'s traceback in the file
    of your game (the ``FILE.py`` of the name, or the file of ``MODULE`` once imported), or
    ''."""
    source = _game_file(name)
    if source is None:
        return ""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if Path(frame.filename).resolve() == source:
            return f"{source.name} line {frame.lineno}, in {frame.name}"
    return ""


def _game_file(name: str) -> Path | None:
    """The file that defines your game ``name`` (nothing is imported), or ``None``."""
    source = name.rpartition(":")[0]
    if source.endswith(".py") or "/" in source or "\\" in source:
        return Path(source).resolve()
    module = sys.modules.get(source)
    filename = getattr(module, "__file__", None)
    return Path(filename).resolve() if filename else None
