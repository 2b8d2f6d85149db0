"""The game registry: ``make(name, **params)`` builds a registered game by name.

>>> make("nim", piles=(3, 4, 5)).info.name
'nim'
>>> make("mnk", m=4, n=4, k=3)
MNKGame(m=4, n=4, k=3)
>>> make("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: unknown game 'chess'; known games: ..., tictactoe
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import Game

__all__ = ["GAMES", "game_names", "make", "register"]


def _nim(**params: Any) -> Game:
    from searchlab.domains.games.nim import Nim

    return Nim(**params)


def _tictactoe(**params: Any) -> Game:
    from searchlab.domains.games.tictactoe import TicTacToe

    return TicTacToe(**params)


def _mnk(**params: Any) -> Game:
    from searchlab.domains.games.tictactoe import MNKGame

    return MNKGame(**params)


def _kayles(**params: Any) -> Game:
    from searchlab.domains.games.heap_games import kayles

    return kayles(**params)


def _dawsons_chess(**params: Any) -> Game:
    from searchlab.domains.games.heap_games import dawsons_chess

    return dawsons_chess(**params)


def _grundys_game(**params: Any) -> Game:
    from searchlab.domains.games.heap_games import GrundysGame

    return GrundysGame(**params)


def _connect4(**params: Any) -> Game:
    from searchlab.domains.games.connect4 import Connect4

    return Connect4(**params)


def _othello(**params: Any) -> Game:
    from searchlab.domains.games.othello import Othello

    return Othello(**params)


def _gomoku(**params: Any) -> Game:
    from searchlab.domains.games.gomoku import Gomoku

    return Gomoku(**params)


GAMES: dict[str, Callable[..., Game]] = {
    "connect4": _connect4,
    "othello": _othello,
    "gomoku": _gomoku,
    "nim": _nim,
    "tictactoe": _tictactoe,
    "mnk": _mnk,
    "kayles": _kayles,
    "dawsons_chess": _dawsons_chess,
    "grundys_game": _grundys_game,
}
"""Registered game factories by name; later modules (connect4, othello, gomoku) add theirs
with :func:`register`."""


def game_names() -> list[str]:
    """The registered names, sorted.

    >>> "tictactoe" in game_names()
    True
    """
    return sorted(GAMES)


def register(name: str, factory: Callable[..., Game]) -> None:
    """Register ``factory(**params) -> Game`` under ``name`` (replacing an earlier one)."""
    GAMES[name] = factory


def make(name: str, **params: Any) -> Game:
    """Build the game registered as ``name`` with its parameters.

    Raises ``UnknownNameError`` listing the known games, and ``InvalidParameterError`` for a
    parameter the game does not take.
    """
    try:
        factory = GAMES[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown game {name!r}; known games: {', '.join(game_names())}"
        ) from None
    try:
        return factory(**params)
    except TypeError as error:
        raise InvalidParameterError(f"game {name!r}: {error}") from None
