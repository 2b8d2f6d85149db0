"""The exception hierarchy: every error searchlab raises on purpose is a ``SearchlabError``.

Errors about bad input also subclass :class:`ValueError` (or :class:`LookupError` for unknown
names), so callers that already catch the builtin keep working. Messages quote the bad input;
the command line prints them as one line and exits non-zero.

>>> try:
...     raise MapFormatError("arena.map line 3: expected 'width <W>', got 'wdth 49'")
... except ValueError as error:
...     print(error)
arena.map line 3: expected 'width <W>', got 'wdth 49'
"""

from __future__ import annotations

__all__ = [
    "AgentSetupError",
    "EndlessGameError",
    "IllegalMoveError",
    "InvalidParameterError",
    "InvalidStateError",
    "MapFormatError",
    "NoPathError",
    "ScenarioFormatError",
    "SearchlabError",
    "UnknownNameError",
    "UnsolvableError",
]


class SearchlabError(Exception):
    """Base class of every error searchlab raises deliberately."""


class InvalidParameterError(SearchlabError, ValueError):
    """A parameter is impossible: a negative weight, a zero time limit, an unknown option value."""


class UnknownNameError(SearchlabError, LookupError):
    """A name (algorithm, game, agent) is not registered; the message lists the known ones."""


class MapFormatError(SearchlabError, ValueError):
    """A grid map file is missing or malformed (bad header, wrong row length, unknown character)."""


class ScenarioFormatError(SearchlabError, ValueError):
    """A scenario file is malformed or does not match its map (size, bounds)."""


class InvalidStateError(SearchlabError, ValueError):
    """A state is not a legal state of its problem: off the map, on a blocked cell, not a
    permutation of the puzzle's tiles."""


class UnsolvableError(SearchlabError, ValueError):
    """The instance provably has no solution (a sliding-tile board of the wrong parity)."""


class NoPathError(SearchlabError):
    """The search space was exhausted without reaching a goal: the goal is unreachable."""


class SearchStopped(SearchlabError):
    """A limit (``limit``: ``"time"`` or ``"nodes"``) ended a search that has no partial answer
    to give (the reference :class:`~searchlab.algorithms.adversarial.solver.Solver`)."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class IllegalMoveError(SearchlabError, ValueError):
    """A move is not legal in the position it was applied to."""


class AgentSetupError(SearchlabError):
    """An agent cannot play at all: an external engine that does not start, dies before its
    first move or does not answer its protocol's handshake. A setup error, never a lost game:
    the match loop (:func:`searchlab.agents.match.play_game`) raises it instead of recording
    a forfeit, so a tournament stops before it stores anything that would distort a rating."""


class EndlessGameError(SearchlabError):
    """A game did not end within the plies it declares (``GameInfo.max_game_length``), or
    within a documented cap when it declares none: a rollout (or a game between agents) of a
    game that never ends would otherwise never return."""
