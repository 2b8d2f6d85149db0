"""Games of your own in the browser lab: ``searchlab serve --game [NAME=]FILE.py:CLASS``.

A game of your own is named on the command line as ``FILE.py:CLASS`` or ``MODULE:CLASS``
(:func:`~searchlab.domains.games.registry.load_game_class`); the lab lists games by name, so
:func:`parse_game_option` gives it one (``NAME=`` before the spec, else the ``info.name`` of the
game built with its defaults), and :func:`register_own_games` registers it, in the server
process (``GET /api/games``, the requests' checks) and in every worker process before its
warm-up (the searches), under that name. The Play page draws it from its text, every legal
move a button (:func:`~searchlab.web.views.build_view`).

>>> import pathlib, searchlab
>>> example = pathlib.Path(searchlab.__file__).parents[2] / "examples" / "custom_game.py"
>>> parse_game_option(f"{example}:Subtraction")[0]
'subtraction'
>>> parse_game_option(f"pile={example}:Subtraction")[0]
'pile'
>>> parse_game_option(f"nim={example}:Subtraction")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: --game ...: 'nim' is a game of searchlab already; ...
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.registry import GAMES, load_game_class, make, register

__all__ = ["parse_game_option", "register_own_games"]

_NAME = re.compile(r"[a-z][a-z0-9_]*")


def parse_game_option(text: str) -> tuple[str, str]:
    """``(name, spec)`` of one ``--game [NAME=]FILE.py:CLASS`` option, checked: the spec loads
    and builds a game with its defaults (:func:`~searchlab.domains.games.registry.make`), and
    the name (``NAME``, else the game's ``info.name``) is lower-case letters, digits and ``_``
    and not a registered game's (a built-in one's). Any failure is one
    :class:`InvalidParameterError` line."""
    name, sep, spec = text.partition("=")
    if not sep or ":" in name:  # no NAME=, or the "=" is inside the path
        name, spec = "", text
    source, _, attribute = spec.rpartition(":")
    if source.endswith(".py"):  # the workers load it by the same path, wherever they run
        spec = f"{Path(source).resolve()}:{attribute}"
    try:
        game = make(spec)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"--game {text}: {error}") from None
    name = name or str(getattr(game.info, "name", ""))
    if not _NAME.fullmatch(name):
        raise InvalidParameterError(
            f"--game {text}: the lab's name for it must be lower-case letters, digits and _ "
            f"(starting with a letter), got {name!r}; name it with NAME=FILE.py:CLASS"
        )
    if name in GAMES:  # a built-in game (or one registered already in this process)
        raise InvalidParameterError(
            f"--game {text}: {name!r} is a game of searchlab already; name yours with "
            "NAME=FILE.py:CLASS"
        )
    return name, spec


def register_own_games(games: Mapping[str, str]) -> None:
    """Register each ``name -> "FILE.py:CLASS"`` of ``games`` in this process's game registry
    (its class loaded once: the module runs, and whatever it registers, an agent kind or a
    compiled game, is registered with it)."""
    for name, spec in games.items():
        register(name, load_game_class(spec))
