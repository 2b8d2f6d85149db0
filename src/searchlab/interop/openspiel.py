"""OpenSpiel games as searchlab games, and searchlab agents as OpenSpiel bots.

Needs OpenSpiel (``pip install 'searchlab[openspiel]'``); importing this module without it is
one line saying so.

:class:`OpenSpielGame` wraps a ``pyspiel`` game so that every searchlab search (the exact
solver, alpha-beta, minimax, MCTS; all in the reference tier) runs on it. It takes the games
searchlab's searches are defined for: **two-player, zero-sum, deterministic, sequential
(turn-based), perfect-information** games (tic-tac-toe, Connect Four, Hex, Breakthrough,
dots and boxes, Nim, chess ...). Any other game (poker's chance and hidden cards, a
simultaneous-move matrix game, a general-sum game) is one ``InvalidParameterError`` line that
says what it lacks.

>>> from searchlab.algorithms.adversarial import solve
>>> game = OpenSpielGame("tic_tac_toe")
>>> result = solve(game)
>>> result.outcome, result.stats["positions"]
('draw', 5478)
>>> from searchlab.core.game import play
>>> state = play(game.initial_state(), "4 0")  # x in the centre, o in a corner
>>> solve(game, state).value
0.0
>>> OpenSpielGame("kuhn_poker")
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: OpenSpiel game 'kuhn_poker()' is not one \
searchlab can search: it has chance nodes and imperfect information (searchlab takes \
two-player, zero-sum, deterministic, sequential, perfect-information games)

Actions are OpenSpiel's action numbers; their notation is the number (``"4"``: a notation
without spaces or commas, so a line of moves reads back with
:func:`~searchlab.core.game.play`), and :meth:`OpenSpielState.string_to_action` also reads
OpenSpiel's own action strings (``"x(1,1)"``). ``str(state)`` is OpenSpiel's.

**Positions and transpositions.** A state's :meth:`~OpenSpielState.key` (what the solver's and
MCTS's transposition tables share positions by) is, by default, OpenSpiel's string of the
state and the player to move, the identity OpenSpiel's own ``get_all_states`` and value
iteration use. For a game whose string leaves out something the rest of the game depends on (a
repetition count), pass ``key="history"``: the actions so far, exact but with no
transpositions.

:class:`SearchlabBot` is a ``pyspiel.Bot`` that plays with a searchlab agent, built from a spec
by searchlab's agent factory (``"mcts:simulations=200"``, ``"alphabeta:depth=9"``), so
OpenSpiel's ``evaluate_bots`` and anything else that takes bots plays searchlab's searches:

>>> import pyspiel
>>> bots = [SearchlabBot("tic_tac_toe", "alphabeta:depth=9"),
...         pyspiel.make_uniform_random_bot(1, 7)]
>>> returns = pyspiel.evaluate_bots(pyspiel.load_game("tic_tac_toe").new_initial_state(),
...                                 bots, 7)
>>> returns[0] >= 0  # perfect play never loses tic-tac-toe
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

from searchlab.agents import Agent, make_agent
from searchlab.core.errors import IllegalMoveError, InvalidParameterError, UnknownNameError
from searchlab.core.game import GameInfo
from searchlab.core.limits import Limits
from searchlab.interop._extras import require

pyspiel: Any = require("pyspiel", "openspiel", "OpenSpiel", __name__)

__all__ = ["ACCEPTED", "OpenSpielGame", "OpenSpielState", "SearchlabBot"]

ACCEPTED = "two-player, zero-sum, deterministic, sequential, perfect-information games"
"""The OpenSpiel games :class:`OpenSpielGame` takes (the games searchlab's searches are for)."""

Key = Literal["string", "history"]


class OpenSpielGame:
    """An OpenSpiel game as a searchlab :class:`~searchlab.core.game.Game`.

    Args:
        game: a ``pyspiel.Game``, or the string ``pyspiel.load_game`` takes
            (``"tic_tac_toe"``, ``"nim(pile_sizes=1;2;3,is_misere=false)"``).
        key: what identifies a position for transposition tables: ``"string"`` (OpenSpiel's
            string of the state, with the player to move) or ``"history"`` (the actions so
            far; exact for every game, but no two move orders share a position).

    Raises:
        UnknownNameError: OpenSpiel has no game of that name.
        InvalidParameterError: OpenSpiel rejects the game's parameters, the game is not one of
            :data:`ACCEPTED` (the message says what it lacks), or ``key`` is unknown.

    ``info.name`` is ``"openspiel:"`` and OpenSpiel's full name of the game (never a built-in
    game's name, so no built-in evaluation is taken for it); ``info.max_utility`` is the
    largest utility OpenSpiel declares, ``info.max_game_length`` OpenSpiel's.

    >>> game = OpenSpielGame("nim(pile_sizes=1;2;3,is_misere=false)")
    >>> game.info.name, game.info.max_utility, game.info.max_game_length
    ('openspiel:nim(is_misere=False,pile_sizes=1;2;3)', 1.0, 6)
    >>> OpenSpielGame("tic_tac_toe", key="board")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: OpenSpielGame key must be 'string' or \
'history', got 'board'
    """

    def __init__(self, game: str | Any = "tic_tac_toe", *, key: Key = "string") -> None:
        if key not in ("string", "history"):
            raise InvalidParameterError(
                f"OpenSpielGame key must be 'string' or 'history', got {key!r}"
            )
        self.spiel_game: Any = _load(game)
        _check_type(self.spiel_game)
        self.key_kind: Key = key
        bound = max(abs(self.spiel_game.min_utility()), abs(self.spiel_game.max_utility()))
        self.info = GameInfo(
            name=f"openspiel:{self.spiel_game}",
            max_game_length=int(self.spiel_game.max_game_length()),
            max_utility=float(bound) if bound > 0 else None,
        )

    def initial_state(self) -> OpenSpielState:
        """The position a game starts from."""
        return OpenSpielState(self, self.spiel_game.new_initial_state())

    def state_from(self, spiel_state: Any) -> OpenSpielState:
        """The searchlab state of an OpenSpiel state of this game (a copy: changing
        ``spiel_state`` afterwards does not change it). Raises ``InvalidParameterError`` for
        a state of another game."""
        if not isinstance(spiel_state, pyspiel.State):
            raise InvalidParameterError(
                f"expected an OpenSpiel state of {self.spiel_game}, got "
                f"{type(spiel_state).__name__}"
            )
        other = spiel_state.get_game()
        if str(other) != str(self.spiel_game):
            raise InvalidParameterError(
                f"an OpenSpiel state of {other} is not a state of {self.spiel_game}"
            )
        return OpenSpielState(self, spiel_state.clone())

    def __repr__(self) -> str:
        return f"OpenSpielGame({str(self.spiel_game)!r})"


class OpenSpielState:
    """One position of an :class:`OpenSpielGame`: an OpenSpiel state that is never changed
    (:meth:`apply` plays on a clone). Satisfies :class:`~searchlab.core.game.State`.

    >>> state = OpenSpielGame("tic_tac_toe").initial_state().apply(4)
    >>> state.current_player(), len(state.legal_actions()), state.string_to_action("o(0,0)")
    (1, 8, 0)
    >>> state.apply(4)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.IllegalMoveError: illegal action 4 in tic_tac_toe(); legal: \
[0, 1, 2, 3, 5, 6, 7, 8]
    """

    __slots__ = ("_actions", "_key", "_player", "_state", "game")

    def __init__(self, game: OpenSpielGame, spiel_state: Any) -> None:
        """Unchecked, and takes ``spiel_state`` over: use :meth:`OpenSpielGame.initial_state`
        or :meth:`OpenSpielGame.state_from`."""
        self.game = game
        self._state = spiel_state
        self._actions: tuple[int, ...] = tuple(spiel_state.legal_actions())
        self._player = _player_of(spiel_state)
        self._key: Hashable | None = None

    @property
    def spiel_state(self) -> Any:
        """A copy of the OpenSpiel state (yours to change)."""
        return self._state.clone()

    def current_player(self) -> int:
        """The player to move; on a terminal state the opponent of the last mover."""
        return self._player

    def legal_actions(self) -> Sequence[int]:
        """OpenSpiel's legal actions (none once the game is over)."""
        return self._actions

    def apply(self, action: int) -> OpenSpielState:
        """The state after ``action``; ``IllegalMoveError`` when it is not legal here (checked
        before OpenSpiel sees it)."""
        if action not in self._actions:
            raise IllegalMoveError(
                f"illegal action {action!r} in {self.game.spiel_game}; legal: {list(self._actions)}"
            )
        child = self._state.clone()
        child.apply_action(action)
        return OpenSpielState(self.game, child)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return bool(self._state.is_terminal())

    def returns(self) -> tuple[float, float]:
        """OpenSpiel's returns of the finished game; zeros before the end (also in games that
        pay rewards along the way)."""
        if not self._state.is_terminal():
            return (0.0, 0.0)
        first, second = self._state.returns()
        return (float(first), float(second))

    def key(self) -> Hashable:
        """``(player to move, OpenSpiel's string of the state)``, or the actions so far with
        ``key="history"`` (see the module's notes)."""
        if self._key is None:
            if self.game.key_kind == "history":
                self._key = tuple(self._state.history())
            else:
                self._key = (self._player, str(self._state))
        return self._key

    def action_to_string(self, action: int) -> str:
        """The action's number (OpenSpiel's ``action_to_string`` is :meth:`spiel_notation`)."""
        return str(action)

    def spiel_notation(self, action: int) -> str:
        """OpenSpiel's own string of ``action`` for the player to move (``"x(1,1)"``)."""
        return str(self._state.action_to_string(self._player, action))

    def string_to_action(self, text: str) -> int:
        """An action number, or OpenSpiel's string of a legal action; ``IllegalMoveError``
        quoting ``text`` otherwise."""
        stripped = text.strip()
        try:
            action = int(stripped)
        except ValueError:
            names = {self.spiel_notation(a): a for a in self._actions}
            if stripped not in names:
                raise IllegalMoveError(
                    f"illegal move {text!r}: neither a legal action number nor OpenSpiel's "
                    f"name of one (legal: {list(self._actions)})"
                ) from None
            action = names[stripped]
        if action not in self._actions:
            raise IllegalMoveError(f"illegal move {text!r}: not among {list(self._actions)}")
        return action

    def __str__(self) -> str:
        return str(self._state)

    def __repr__(self) -> str:
        return f"<OpenSpielState of {self.game.spiel_game} after {self._state.history()}>"


class SearchlabBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel publishes no types
    """A ``pyspiel.Bot`` that plays with a searchlab agent.

    Args:
        game: the OpenSpiel game (a ``pyspiel.Game``, its string, or an
            :class:`OpenSpielGame`).
        agent: an agent spec for :func:`~searchlab.agents.make_agent`
            (``"mcts:simulations=200"``), or an agent already built for this game.
        seed: seeds the agent's randomness (unless the spec gives its own ``seed=``).
        limits: a budget per move that overrides the agent's own.

    ``step(state)`` returns the agent's action in OpenSpiel's ``state`` (which it does not
    change); ``restart_at`` and ``restart`` make the agent forget what it kept between moves.
    The bot gives no policy (``provides_policy()`` is false).
    """

    def __init__(
        self,
        game: str | OpenSpielGame | Any,
        agent: str | Agent,
        *,
        seed: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game if isinstance(game, OpenSpielGame) else OpenSpielGame(game)
        self.agent: Agent = (
            make_agent(agent, self.game, seed=seed) if isinstance(agent, str) else agent
        )
        self.limits = limits

    def step(self, state: Any) -> int:
        """The agent's action in ``state``."""
        return int(self.agent.act(self.game.state_from(state), self.limits))

    def restart_at(self, state: Any) -> None:
        """A new game starts at ``state``: the agent forgets its tree or table."""
        self.agent.reset()

    def restart(self) -> None:
        """A new game starts: the agent forgets its tree or table."""
        self.agent.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Another player moved (the agent reads each position afresh: nothing to do)."""

    def provides_policy(self) -> bool:
        """False: the bot returns actions, not policies."""
        return False

    def __repr__(self) -> str:
        return f"<SearchlabBot {self.agent.name} for {self.game.spiel_game}>"


def _load(game: str | Any) -> Any:
    """The ``pyspiel.Game`` ``game`` names (one line for an unknown name or bad parameters;
    checked before OpenSpiel sees them where possible, as OpenSpiel also prints its errors)."""
    if isinstance(game, pyspiel.Game):
        return game
    if not isinstance(game, str) or not game.strip():
        raise InvalidParameterError(
            f"an OpenSpiel game is a pyspiel.Game or its name, got {game!r}"
        )
    short = game.split("(", 1)[0].strip()
    if short not in pyspiel.registered_names():
        raise UnknownNameError(
            f"OpenSpiel has no game {short!r} (pyspiel.registered_names() lists them)"
        )
    try:
        with _stderr_silenced():  # OpenSpiel prints each error it raises; ours says it once
            return pyspiel.load_game(game.strip())
    except pyspiel.SpielError as error:
        reason = " ".join(str(error).split())
        raise InvalidParameterError(f"OpenSpiel cannot load {game!r}: {reason}") from None


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Send what is written to file descriptor 2 (OpenSpiel's C++ ``OpenSpiel exception:``
    line) nowhere while the block runs."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _check_type(game: Any) -> None:
    """Raise ``InvalidParameterError`` unless ``game`` is one of :data:`ACCEPTED`, naming
    every way it is not."""
    kind = game.get_type()
    kinds = pyspiel.GameType
    lacks = []
    if game.num_players() != 2:
        lacks.append(f"{game.num_players()} players")
    if kind.dynamics != kinds.Dynamics.SEQUENTIAL:
        lacks.append("simultaneous moves")
    if kind.chance_mode != kinds.ChanceMode.DETERMINISTIC:
        lacks.append("chance nodes")
    if kind.information != kinds.Information.PERFECT_INFORMATION:
        lacks.append("imperfect information")
    if kind.utility != kinds.Utility.ZERO_SUM:
        lacks.append(f"{_utility_name(kind.utility)} utilities")
    if lacks:
        listed = lacks[0] if len(lacks) == 1 else f"{', '.join(lacks[:-1])} and {lacks[-1]}"
        raise InvalidParameterError(
            f"OpenSpiel game {str(game)!r} is not one searchlab can search: it has {listed} "
            f"(searchlab takes {ACCEPTED})"
        )


def _utility_name(utility: Any) -> str:
    """``"general-sum"`` for ``Utility.GENERAL_SUM`` (OpenSpiel's enum name, in words)."""
    return str(utility.name).lower().replace("_", "-")


def _player_of(spiel_state: Any) -> int:
    """The player to move (0 or 1); on a terminal state the opponent of the last mover."""
    player = int(spiel_state.current_player())
    if player >= 0:
        return player
    history = spiel_state.full_history()
    return 1 - int(history[-1].player) if history else 0
