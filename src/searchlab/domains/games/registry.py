"""The game registry: ``make(name, **params)`` builds a registered game by name, or a game of
your own given as ``"module:Class"`` or ``"path/to/file.py:Class"``.

Every parameter is checked before the game is built: a name the game does not take is one
:class:`~searchlab.core.errors.InvalidParameterError` listing the ones it does; a bad value is
one naming the parameter and its range (each game checks its own values).

>>> make("nim", piles=(3, 4, 5)).info.name
'nim'
>>> make("mnk", m=4, n=4, k=3)
MNKGame(m=4, n=4, k=3)
>>> make("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: unknown game 'chess'; known games: ..., tictactoe ...
>>> make("connect4", rows=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: game 'connect4' takes no parameters, got rows
>>> make("mnk", rows=0)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: game 'mnk': unknown parameter rows; known: m, n, k

A game of your own (any class whose instances satisfy the :class:`~searchlab.core.game.Game`
protocol), imported from its module or its file; its constructor's keywords are its
parameters:

>>> import pathlib, searchlab
>>> example = pathlib.Path(searchlab.__file__).parents[2] / "examples" / "custom_game.py"
>>> make(f"{example}:Subtraction", counters=10).initial_state().legal_actions()
[1, 2, 3]
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from searchlab.core.errors import InvalidParameterError, SearchlabError, UnknownNameError
from searchlab.core.game import Game, GameInfo, State
from searchlab.domains.games.own_file import NotAPythonFileError, import_game_file

__all__ = ["GAMES", "game_names", "game_parameters", "load_game_class", "make", "register"]


class _Deferred:
    """A registered game class (or function) named ``"module:attribute"``, imported on the
    first call or look at its parameters, not before (a game's compiled kernels load only when
    it is used). Its parameters are the target's own, so they are written once, there.

    >>> factory = _Deferred("searchlab.domains.games.nim:Nim")
    >>> list(inspect.signature(factory).parameters)
    ['piles', 'misere']
    >>> factory(piles="2,2").initial_state().legal_actions()
    [0, 1, 2, 3]
    """

    def __init__(self, path: str) -> None:
        self.path = path

    def _target(self) -> Callable[..., Game]:
        module, _, attribute = self.path.partition(":")
        target: Callable[..., Game] = getattr(importlib.import_module(module), attribute)
        return target

    def __call__(self, **params: Any) -> Game:
        return self._target()(**params)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self._target())

    def __repr__(self) -> str:
        return f"_Deferred({self.path!r})"


# Factories for the games whose registered parameters are not all their constructor's (those
# it takes that a name and text cannot give: Gomoku's move_order, MNKGame's name)
def _mnk(m: int = 3, n: int = 3, k: int = 3) -> Game:
    from searchlab.domains.games.tictactoe import MNKGame

    return MNKGame(m, n, k)


def _gomoku(size: int = 15, candidate_radius: int | None = None) -> Game:
    from searchlab.domains.games.gomoku import Gomoku

    return Gomoku(size, candidate_radius=candidate_radius)


_GAMES = "searchlab.domains.games"

GAMES: dict[str, Callable[..., Game]] = {
    "connect4": _Deferred(f"{_GAMES}.connect4:Connect4"),
    "othello": _Deferred(f"{_GAMES}.othello:Othello"),
    "gomoku": _gomoku,
    "nim": _Deferred(f"{_GAMES}.nim:Nim"),
    "tictactoe": _Deferred(f"{_GAMES}.tictactoe:TicTacToe"),
    "mnk": _mnk,
    "kayles": _Deferred(f"{_GAMES}.heap_games:kayles"),
    "dawsons_chess": _Deferred(f"{_GAMES}.heap_games:dawsons_chess"),
    "grundys_game": _Deferred(f"{_GAMES}.heap_games:GrundysGame"),
    "snakego": _Deferred(f"{_GAMES}.snakego:SnakeGo"),
    "go": _Deferred(f"{_GAMES}.go:Go"),
}
"""Registered game factories by name; the factory's keyword parameters are the game's."""


def game_names() -> list[str]:
    """The registered names, sorted.

    >>> "tictactoe" in game_names()
    True
    """
    return sorted(GAMES)


def register(name: str, factory: Callable[..., Game]) -> None:
    """Register ``factory(**params) -> Game`` under ``name`` (replacing an earlier one)."""
    GAMES[name] = factory


def game_parameters(name: str) -> dict[str, Any]:
    """The parameters of game ``name`` (registered or ``module:Class``) and their defaults
    (``inspect.Parameter.empty`` where there is none).

    >>> game_parameters("mnk")
    {'m': 3, 'n': 3, 'k': 3}
    """
    signature = _signature(_factory(name))
    if signature is None:  # a builtin or an odd callable: nothing to show
        return {}
    return {
        parameter.name: parameter.default
        for parameter in signature.parameters.values()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    }


def make(name: str, **params: Any) -> Game:
    """Build the game registered as ``name``, or the class ``"module:Class"`` /
    ``"path/to/file.py:Class"`` (see :func:`load_game_class`), with its parameters.

    Raises:
        UnknownNameError: ``name`` is not registered (the message lists the known games).
        InvalidParameterError: a parameter the game does not take (the message lists the ones
            it does), a bad value, or a ``module:Class`` that cannot be loaded or is not a game.
    """
    factory = _factory(name)
    _check_names(name, factory, params)
    try:
        game = factory(**params)
    except SearchlabError:
        raise
    except Exception as error:
        raise InvalidParameterError(
            f"game {name!r}: cannot build it with {params or 'no parameters'}: "
            f"{type(error).__name__}: {error}"
        ) from None
    if ":" in name:
        _check_game(name, game)
    return game


def _factory(name: str) -> Callable[..., Game]:
    if not isinstance(name, str):
        raise UnknownNameError(f"a game name must be a string, got {name!r}")
    factory = GAMES.get(name)
    if factory is not None:
        return factory
    if ":" in name:
        return load_game_class(name)
    raise UnknownNameError(
        f"unknown game {name!r}; known games: {', '.join(game_names())} "
        "(or MODULE:CLASS, FILE.py:CLASS for a game of your own)"
    )


def _signature(factory: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or an odd callable: let the call decide
        return None


def _check_names(name: str, factory: Callable[..., Game], params: dict[str, Any]) -> None:
    signature = _signature(factory)
    if signature is None:
        return
    accepted = [
        parameter
        for parameter in signature.parameters.values()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    ]
    if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
        return
    known = [parameter.name for parameter in accepted]
    unknown = [key for key in params if key not in known]
    if unknown:
        if not known:
            raise InvalidParameterError(
                f"game {name!r} takes no parameters, got {', '.join(unknown)}"
            )
        plural = "s" if len(unknown) > 1 else ""
        raise InvalidParameterError(
            f"game {name!r}: unknown parameter{plural} {', '.join(unknown)}; "
            f"known: {', '.join(known)}"
        )
    missing = [p.name for p in accepted if p.default is p.empty and p.name not in params]
    if missing:
        raise InvalidParameterError(
            f"game {name!r} needs the parameter{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (-p NAME=VALUE)"
        )


# -- games of your own ---------------------------------------------------------------------------
_LOADED: dict[str, Callable[..., Game]] = {}


def load_game_class(spec: str) -> Callable[..., Game]:
    """The class (or factory) named by ``"module:Class"`` or ``"path/to/file.py:Class"``.

    A module is imported as Python would (the current directory is tried too); a file is
    loaded by :func:`~searchlab.domains.games.own_file.import_game_file` (once per contents,
    its numba caches valid in a copy of it). ``Class(**params)`` must return a :class:`Game`, which
    :func:`make` checks. Every failure is one ``InvalidParameterError`` line: the module or
    file cannot be imported (with the reason), it has no such name (with the classes it
    defines), or the name is not callable.
    """
    if spec in _LOADED:
        return _LOADED[spec]
    source, _, attribute = spec.rpartition(":")
    if not source or not attribute:
        raise InvalidParameterError(
            f"game {spec!r}: expected MODULE:CLASS or FILE.py:CLASS (like mygames:Subtraction)"
        )
    module = _import_source(spec, source)
    target: Any = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            defined = sorted(
                key
                for key, value in vars(module).items()
                if inspect.isclass(value) and value.__module__ == module.__name__
            )
            raise InvalidParameterError(
                f"game {spec!r}: {source} has no {attribute!r}; it defines "
                f"{', '.join(defined) or 'no classes'}"
            )
        target = getattr(target, part)
    if not callable(target):
        raise InvalidParameterError(
            f"game {spec!r}: {attribute!r} is a {type(target).__name__}, not a class"
        )
    factory: Callable[..., Game] = target
    _LOADED[spec] = factory
    return factory


def _import_source(spec: str, source: str) -> Any:
    """Import the module ``source`` (a dotted name, or a ``.py`` file)."""
    try:
        if source.endswith(".py") or "/" in source or "\\" in source:
            path = Path(source)
            if not path.is_file():
                raise InvalidParameterError(f"game {spec!r}: no such file {source}")
            try:
                return import_game_file(path)
            except NotAPythonFileError as error:
                raise InvalidParameterError(f"game {spec!r}: {error}") from None
        try:
            return importlib.import_module(source)
        except ModuleNotFoundError as error:
            if error.name != source.split(".")[0] or "" in sys.path:
                raise
            sys.path.insert(0, "")  # a module in the current directory, as `python -m` finds
            return importlib.import_module(source)
    except SearchlabError:
        raise
    except Exception as error:  # the user's module failed to import: say why, in one line
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        raise InvalidParameterError(f"game {spec!r}: cannot import {source}: {reason}") from None


_GAME_PARTS = ("info", "initial_state")
_STATE_PARTS = tuple(
    name for name in dir(State) if not name.startswith("_") and callable(getattr(State, name))
)


def _check_game(spec: str, game: object) -> None:
    """Raise ``InvalidParameterError`` unless ``game`` satisfies the Game protocol and its
    initial state the State protocol (naming what is missing)."""
    lacking = [part for part in _GAME_PARTS if not hasattr(game, part)]
    if not lacking and not isinstance(game.info, GameInfo):  # type: ignore[attr-defined]
        lacking = ["info (a GameInfo)"]
    if lacking or not isinstance(game, Game):
        raise InvalidParameterError(
            f"game {spec!r}: a {type(game).__name__} is not a game: it lacks "
            f"{', '.join(lacking) or 'initial_state()'} (see searchlab.core.game.Game)"
        )
    try:
        state = game.initial_state()
    except SearchlabError:
        raise
    except Exception as error:
        raise InvalidParameterError(
            f"game {spec!r}: initial_state() failed: {type(error).__name__}: {error}"
        ) from None
    missing = [part for part in _STATE_PARTS if not callable(getattr(state, part, None))]
    if missing:
        raise InvalidParameterError(
            f"game {spec!r}: its initial state (a {type(state).__name__}) is not a State: "
            f"it lacks {', '.join(missing)} (see searchlab.core.game.State)"
        )
