"""The ``Game`` / ``State`` protocol: two-player, turn-based, perfect-information games.

A *game* describes the rules and its capabilities (:class:`GameInfo`, plain data that
algorithms check up front) and makes the initial *state*. A *state* is one position, immutable:
``apply`` returns a new state. Actions are small non-negative ints; ``action_to_string`` and
``string_to_action`` convert them to and from a notation for humans. Passing, where the rules
need it, is one more action.

The player to move is ``0`` or ``1``. ``returns()`` gives the utility of a finished game for
both players (``(1.0, -1.0)``: player 0 won; zero-sum games sum to 0). An illegal action raises
:class:`~searchlab.core.errors.IllegalMoveError` quoting it.

A game in a few lines (take 1 or 2 counters; who takes the last one wins):

>>> class Take:
...     info = GameInfo(name="take", impartial=True)
...     def initial_state(self): return TakeState(4, 0)
>>> class TakeState:
...     def __init__(self, left, player): self.left, self.player = left, player
...     def current_player(self): return self.player
...     def legal_actions(self): return [n for n in (1, 2) if n <= self.left]
...     def apply(self, action):
...         if action not in self.legal_actions():
...             raise IllegalMoveError(f"illegal action {action!r} with {self.left} left")
...         return TakeState(self.left - action, 1 - self.player)
...     def is_terminal(self): return self.left == 0
...     def returns(self):  # the player to move at the end cannot move: they lost
...         if not self.is_terminal(): return (0.0, 0.0)
...         return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)
...     def key(self): return (self.left, self.player)
...     def action_to_string(self, action): return str(action)
...     def string_to_action(self, text): return parse_int_action(text, self)
...     def __str__(self): return f"{self.left} left, player {self.player} to move"
>>> isinstance(Take(), Game), isinstance(Take().initial_state(), State)
(True, True)
>>> str(play(Take().initial_state(), ["2", "1"]))
'1 left, player 0 to move'
>>> play(Take().initial_state(), ["2", "2", "1"])
Traceback (most recent call last):
...
searchlab.core.errors.IllegalMoveError: move 3 '1' in '2 2 1': the game is already over

and back, a line of actions in notation (up to the end of the game):

>>> line_notation(Take().initial_state(), [2, 1, 1, 2])
['2', '1', '1']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from searchlab.core.errors import IllegalMoveError, InvalidParameterError

__all__ = [
    "Evaluation",
    "Game",
    "GameInfo",
    "State",
    "check_capabilities",
    "line_notation",
    "parse_int_action",
    "play",
]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, as data that algorithms check before they start.

    Attributes:
        name: registry name (``"nim"``, ``"tictactoe"``).
        num_players: number of players; the algorithms here need 2.
        zero_sum: the returns of every finished game sum to 0.
        deterministic: no chance moves.
        perfect_information: both players see the whole state.
        impartial: both players have the same moves in every position (Nim, Kayles); needed by
            the Sprague-Grundy module.
        max_game_length: most plies a game can last, when known (used by the conformance
            harness to detect games that never end).
        max_utility: the largest ``abs(returns()[player])`` of a finished game, when known (1
            for win/draw/loss games, 64 for Othello's disc difference): the returns lie in
            ``[-max_utility, max_utility]``. Monte Carlo searches with
            ``value_scale="normalised"`` divide the returns by it.

    >>> GameInfo(name="nim", impartial=True).zero_sum
    True
    >>> GameInfo(name="othello", max_utility=0)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: GameInfo.max_utility must be a finite number > 0 \
or None, got 0
    """

    name: str
    num_players: int = 2
    zero_sum: bool = True
    deterministic: bool = True
    perfect_information: bool = True
    impartial: bool = False
    max_game_length: int | None = None
    max_utility: float | None = None

    def __post_init__(self) -> None:
        length = self.max_game_length
        if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
            raise InvalidParameterError(
                f"GameInfo.max_game_length must be a whole number of plies or None, got {length!r}"
            )
        if length is not None and length < 0:
            raise InvalidParameterError(
                f"GameInfo.max_game_length must be >= 0 plies or None, got {length!r}"
            )
        bound = self.max_utility
        if bound is not None and (
            isinstance(bound, bool)
            or not isinstance(bound, int | float)
            or not 0 < bound < float("inf")
        ):
            raise InvalidParameterError(
                f"GameInfo.max_utility must be a finite number > 0 or None, got {bound!r}"
            )


@runtime_checkable
class State(Protocol):
    """One position of a game. Immutable: :meth:`apply` returns a new state."""

    def current_player(self) -> int:
        """The player to move, ``0`` or ``1`` (on a terminal state: who would move next)."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The legal actions, distinct small non-negative ints; empty iff terminal."""
        ...

    def apply(self, action: int) -> State:
        """The state after ``action``; raises ``IllegalMoveError`` if it is not legal."""
        ...

    def is_terminal(self) -> bool:
        """True when the game is over."""
        ...

    def returns(self) -> Sequence[float]:
        """Utility of the finished game for players 0 and 1 (zeros before the end)."""
        ...

    def key(self) -> Hashable:
        """A hashable identity of the position (player to move included), for
        transposition tables: equal keys mean equal positions."""
        ...

    def action_to_string(self, action: int) -> str:
        """The notation of ``action`` in this state (``"b2"``, ``"1:3"``)."""
        ...

    def string_to_action(self, text: str) -> int:
        """Parse the notation of an action; raises ``IllegalMoveError`` quoting ``text``."""
        ...


@runtime_checkable
class Game(Protocol):
    """The rules of a game: its :class:`GameInfo` and its initial state."""

    info: GameInfo

    def initial_state(self) -> State:
        """The position a game starts from."""
        ...


Evaluation = Callable[[Any], float]
"""An evaluation function ``evaluate(state) -> float``: an estimate of the return of a
non-terminal ``state`` for **the player to move in it**, in the units of ``returns()``
(strictly between the loss and win utilities for a good evaluation)."""


def check_capabilities(game: Game, algorithm: str, *, impartial: bool = False) -> GameInfo:
    """Raise ``InvalidParameterError`` unless ``game`` is a two-player, zero-sum, deterministic,
    perfect-information game (and impartial, when asked); return its info.

    >>> check_capabilities(type("G", (), {"info": GameInfo("g", num_players=3)})(), "minimax")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: minimax needs a two-player game; g has 3 players
    """
    info = getattr(game, "info", None)
    if not isinstance(info, GameInfo):
        raise InvalidParameterError(
            f"{algorithm} needs a game with an 'info' attribute of type GameInfo, "
            f"got {type(game).__name__} (pass the game, not a state)"
        )
    if info.num_players != 2:
        raise InvalidParameterError(
            f"{algorithm} needs a two-player game; {info.name} has {info.num_players} players"
        )
    for flag, wording in (
        ("zero_sum", "zero-sum"),
        ("deterministic", "deterministic"),
        ("perfect_information", "perfect-information"),
    ):
        if not getattr(info, flag):
            raise InvalidParameterError(f"{algorithm} needs a {wording} game; {info.name} is not")
    if impartial and not info.impartial:
        raise InvalidParameterError(f"{algorithm} needs an impartial game; {info.name} is not")
    return info


def parse_int_action(text: str, state: State) -> int:
    """Parse a plain integer action and check that it is legal in ``state``.

    A helper for games whose notation is the action number itself.
    """
    try:
        action = int(text.strip())
    except ValueError:
        raise IllegalMoveError(f"malformed move {text!r}: expected an integer") from None
    if action not in state.legal_actions():
        raise IllegalMoveError(f"illegal move {text!r}: not among {list(state.legal_actions())}")
    return action


def play(state: State, moves: Iterable[str] | str) -> State:
    """Apply a sequence of moves in notation (a list, or one string separated by spaces or
    commas) and return the final state.

    Raises ``IllegalMoveError`` naming the move number and the whole sequence when a move is
    malformed, illegal or played after the end of the game (also when a game of your own rejects
    it with a ``ValueError``, ``LookupError`` or ``TypeError``).
    """
    if isinstance(moves, str):
        tokens = moves.replace(",", " ").split()
        quoted = moves
    else:
        tokens = [str(move) for move in moves]
        quoted = " ".join(tokens)
    for number, token in enumerate(tokens, start=1):
        if state.is_terminal():
            raise IllegalMoveError(
                f"move {number} {token!r} in {quoted!r}: the game is already over"
            )
        try:
            action = state.string_to_action(token)
            state = state.apply(action)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {number} {token!r} in {quoted!r}: {error}") from None
        except (ValueError, LookupError, TypeError) as error:
            # A game of the user's own may reject a move with a plain exception (int("x"),
            # a missing key): that is still a malformed move, not a crash.
            raise IllegalMoveError(
                f"move {number} {token!r} in {quoted!r}: {type(error).__name__}: {error}"
            ) from None
    return state


def line_notation(state: State, actions: Iterable[int]) -> list[str]:
    """The notation of each action along a line from ``state`` (a principal variation, say),
    stopping at the end of the game or at the first action that is not legal there: the
    inverse of :func:`play`."""
    names = []
    for action in actions:
        if state.is_terminal() or action not in state.legal_actions():
            break
        names.append(state.action_to_string(action))
        state = state.apply(action)
    return names
