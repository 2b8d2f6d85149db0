"""The units a Monte Carlo search averages: the outcome of a game, or its normalised returns.

UCT's constant, PUCT's, an evaluator's value and MCTS-Solver's proofs all assume returns in
``[-1, 1]``. A game's ``returns()`` need not be: Othello's are disc differences up to 64. Fed
as they are, one lucky playout (+40) outweighs many narrow losses, the exploration bonus is
drowned and the search settles on the first move it tried. So every Monte Carlo search here
turns the returns of a finished game into one of two scales before it averages them:

* ``"outcome"`` (the default): win, draw or loss, ``+1 / 0 / -1`` for each player (the sign of
  its return). The mean is then the expected score, and a value ``v`` reads as "wins
  ``(1 + v) / 2`` of the games", whatever the game;
* ``"normalised"``: the returns divided by the game's declared range
  (:attr:`~searchlab.core.game.GameInfo.max_utility`), for score-maximising play (win by
  more discs): still in ``[-1, 1]``, but a narrow win counts little.

For win/draw/loss games (returns +1 / 0 / -1) both scales are the returns themselves.

>>> from searchlab.domains.games.othello import Othello
>>> outcome = returns_scale(Othello(), "outcome", "mcts")
>>> outcome((10.0, -10.0)), outcome((0.0, 0.0))
((1.0, -1.0), (0.0, 0.0))
>>> returns_scale(Othello(), "normalised", "mcts")((16.0, -16.0))
(0.25, -0.25)
>>> returns_scale(Othello(), "percent", "mcts")
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: mcts: unknown value_scale 'percent'; known: outcome, \
normalised
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, get_args

from searchlab.core.errors import InvalidParameterError, UnknownNameError

__all__ = ["VALUE_SCALES", "ReturnsScale", "ValueScale", "check_value_scale", "returns_scale"]

ValueScale = Literal["outcome", "normalised"]
"""``"outcome"``: +1 / 0 / -1 by the sign of the return; ``"normalised"``: the return over
the game's ``GameInfo.max_utility``."""

VALUE_SCALES: tuple[str, ...] = get_args(ValueScale)

ReturnsScale = Callable[[Sequence[float]], tuple[float, float]]
"""``scale(returns) -> (value of player 0, value of player 1)``, each in ``[-1, 1]``."""


def check_value_scale(value_scale: object, algorithm: str) -> ValueScale:
    """``value_scale`` if it is one of :data:`VALUE_SCALES`, else ``UnknownNameError``."""
    if value_scale not in VALUE_SCALES:
        raise UnknownNameError(
            f"{algorithm}: unknown value_scale {value_scale!r}; known: {', '.join(VALUE_SCALES)}"
        )
    return value_scale  # type: ignore[return-value]


def _sign(value: float) -> float:
    return 1.0 if value > 0 else -1.0 if value < 0 else 0.0


def _outcome(returns: Sequence[float]) -> tuple[float, float]:
    return _sign(returns[0]), _sign(returns[1])


def returns_scale(game: Any, value_scale: ValueScale, algorithm: str) -> ReturnsScale:
    """The function that puts ``game``'s returns on ``value_scale``.

    ``"normalised"`` needs the game to declare ``info.max_utility``; otherwise
    ``InvalidParameterError`` says so (``"outcome"`` works for every game).
    """
    check_value_scale(value_scale, algorithm)
    if value_scale == "outcome":
        return _outcome
    info = getattr(game, "info", None)
    bound = getattr(info, "max_utility", None)
    if bound is None:
        name = getattr(info, "name", type(game).__name__)
        raise InvalidParameterError(
            f"{algorithm}: value_scale='normalised' divides the returns by the game's "
            f"GameInfo.max_utility, and {name} declares none; use value_scale='outcome'"
        )
    bound = float(bound)

    def normalised(returns: Sequence[float]) -> tuple[float, float]:
        return returns[0] / bound, returns[1] / bound

    return normalised
