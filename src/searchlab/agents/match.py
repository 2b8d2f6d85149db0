"""One game between two agents: the one match loop, for the arena and the training loop.

:func:`play_game` plays a game between two :class:`~searchlab.agents.base.Agent` objects
(``agents[0]`` moves for player 0): an optional opening (actions played by nobody), then each
agent's ``act(state, limits)`` in turn, timed, until the game ends. What happened is a
:class:`PlayedGame`: each :class:`Move` (the action, in the game's notation too, who made it,
how long it took), the result (``"1-0"``, ``"1/2-1/2"``, ``"0-1"``) and how the game ended:

* ``"end"``: the rules ended it;
* ``"resign"``: the agent to move raised :class:`~searchlab.agents.human.Resign` (a person, or
  an external engine answering ``resign``), and lost;
* ``"error"`` or ``"illegal move"``: the agent to move raised anything else (a crashed, hung
  or nonsense-answering engine) or answered an illegal action, and lost (``error`` says
  what). ``strict=True`` raises instead (the exception itself, or
  :class:`~searchlab.core.errors.IllegalMoveError`): a program evaluating its own agents wants
  to see the bug, not count it as a loss.

Two failures are never a result, and are raised whatever ``strict`` says: an agent that cannot
play at all (:class:`~searchlab.core.errors.AgentSetupError`: an external engine that does not
start, or dies or speaks nonsense before its handshake; :func:`check_ready` asks an agent that
can tell before a game starts), and a game that goes on past its declared
``max_game_length`` (:class:`~searchlab.core.errors.EndlessGameError`: the game's rules are
broken, not the agents). Nor is a crash inside the code of a game of your own (a game whose
class is not searchlab's): an exception that is not a searchlab error, raised while a method of
your game or state class ran within an agent's search, is raised as it is (the command line
makes it one line, naming your file and line), since a bug in the rules would otherwise be
counted against the agent.

The arena's workers (:mod:`searchlab.arena.worker`) and the training loop's evaluation games
(:mod:`searchlab.learning.alphazero.evaluation`) both play their games here. The loop keeps nothing
between games and closes nothing: :func:`close_agent` stops what an agent runs (an external
engine) when its owner is done with it.

>>> from searchlab.agents import make_agent
>>> from searchlab.games import make
>>> game = make("tictactoe")
>>> agents = [make_agent("alphabeta:depth=9", game), make_agent("random", game, seed=1)]
>>> played = play_game(game, agents, opening=[4])
>>> played.opening, played.result in ("1-0", "1/2-1/2"), played.termination
(('b2',), True, 'end')
>>> [move.mover for move in played.moves[:2]], played.moves[0].seconds >= 0
([1, 0], True)
>>> played.outcome(0) >= 0, played.first_score >= 0.5
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from searchlab.agents.base import Agent
from searchlab.agents.human import Resign
from searchlab.algorithms.mcts.rollout import playout_limit
from searchlab.core.errors import (
    AgentSetupError,
    EndlessGameError,
    IllegalMoveError,
    InvalidParameterError,
    SearchlabError,
)
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits

__all__ = [
    "RESULTS",
    "Move",
    "PlayedGame",
    "check_length",
    "check_ready",
    "close_agent",
    "play_game",
    "result_of",
]

RESULTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
"""A game's results, and player 0's score for each."""


@dataclass(frozen=True, slots=True)
class Move:
    """One agent's move: the ``action``, its ``notation`` in the position it was played in,
    the ``mover`` (0 or 1) and the ``seconds`` it took (``perf_counter`` around ``act``)."""

    action: int
    notation: str
    mover: int
    seconds: float


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game.

    Attributes:
        state: the last position: the end of the game, or, when the agent to move resigned or
            forfeited, the position it failed in.
        opening: the opening's moves in the game's notation (played by nobody).
        moves: the agents' moves, in order.
        result: ``"1-0"`` (player 0 won), ``"0-1"`` or ``"1/2-1/2"``; how the game ended:
            ``termination``, ``"end"``, ``"resign"``, ``"illegal move"`` or ``"error"`` (see
            the module docstring), and for a forfeit, ``error``, what went wrong (who resigned,
            for a resignation).
    """

    state: State
    opening: tuple[str, ...]
    moves: tuple[Move, ...]
    result: str
    termination: str = "end"
    error: str | None = None

    @property
    def forfeit(self) -> int | None:
        """The player who resigned or forfeited, or ``None`` when the rules ended the game."""
        return None if self.termination == "end" else self.state.current_player()

    @property
    def first_score(self) -> float:
        """Player 0's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return RESULTS[self.result]

    def outcome(self, player: int) -> int:
        """``+1``, ``0`` or ``-1``: ``player`` (0 or 1) won, drew or lost."""
        if player not in (0, 1):
            raise InvalidParameterError(f"player must be 0 or 1, got {player!r}")
        score = self.first_score if player == 0 else 1.0 - self.first_score
        return (score > 0.5) - (score < 0.5)


def result_of(returns: Sequence[float]) -> str:
    """The result of a finished game with ``returns``: ``"1-0"`` when player 0's is higher."""
    difference = float(returns[0]) - float(returns[1])
    if difference > 0:
        return "1-0"
    if difference < 0:
        return "0-1"
    return "1/2-1/2"


def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    opening: Sequence[int] = (),
    limits: Limits | None = None,
    strict: bool = False,
) -> PlayedGame:
    """Play ``game`` from its start between ``agents`` (``agents[p]`` moves for player ``p``),
    after ``opening``; each agent is reset first and asked ``act(state, limits)``. See the
    module docstring for how a game ends and ``strict``."""
    if len(agents) != 2:
        raise InvalidParameterError(f"a game needs two agents, got {len(agents)}")
    for agent in agents:
        agent.reset()
    state = game.initial_state()
    notation: list[str] = []
    for action in opening:
        notation.append(state.action_to_string(action))
        state = state.apply(action)
    moves: list[Move] = []

    def played(result: str, termination: str = "end", error: str | None = None) -> PlayedGame:
        return PlayedGame(state, tuple(notation), tuple(moves), result, termination, error)

    while not state.is_terminal():
        check_length(game, len(notation) + len(moves))
        mover = state.current_player()
        agent = agents[mover]
        forfeit = "0-1" if mover == 0 else "1-0"
        start = time.perf_counter()
        try:
            action = agent.act(state, limits)
        except AgentSetupError:
            raise  # the agent cannot play at all: a setup error, not a lost game
        except Resign as resigned:
            why = f" ({resigned})" if str(resigned) else ""
            return played(forfeit, "resign", f"{agent.name} resigned{why}")
        except Exception as error:  # an agent's crash loses its game, not the tournament
            if strict or _raised_by_own_game(error, game, state):
                raise
            return played(forfeit, "error", f"{agent.name}: {type(error).__name__}: {error}")
        elapsed = time.perf_counter() - start
        if action not in state.legal_actions():
            line = " ".join([*notation, *(move.notation for move in moves)]) or "(start)"
            message = f"{agent.name} answered {action!r}, not legal after {line!r}"
            if strict:
                raise IllegalMoveError(message)
            return played(forfeit, "illegal move", message)
        moves.append(Move(action, state.action_to_string(action), mover, elapsed))
        state = state.apply(action)
    return played(result_of(state.returns()))


def _raised_by_own_game(error: Exception, game: Game, state: State) -> bool:
    """Whether ``error`` (not a searchlab error) came from the code of a game of your own: the
    game's class is not searchlab's, and a method of its game or state class was running
    when it was raised (its frame is in the traceback)."""
    if isinstance(error, SearchlabError):
        return False
    codes: set[object] = set()
    for kind in (type(game), type(state)):
        if kind.__module__.split(".")[0] == "searchlab":
            return False
        for klass in kind.__mro__[:-1]:  # not ``object``
            for value in vars(klass).values():
                function = value.fget if isinstance(value, property) else value
                function = getattr(function, "__func__", function)  # class/static methods
                code = getattr(function, "__code__", None)
                if code is not None:
                    codes.add(code)
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code in codes:
            return True
        trace = trace.tb_next
    return False


def check_length(game: Game, plies: int) -> None:
    """Raise :class:`~searchlab.core.errors.EndlessGameError` (one line) when a game of
    ``game`` that is not over after ``plies`` plies has reached its declared
    ``max_game_length`` (or :data:`~searchlab.algorithms.mcts.rollout.MAX_PLAYOUT_PLIES`,
    10,000, when it declares none): its rules let it go on longer than it says, and it might
    never end. Every loop that plays a game to its end asks this before each move.

    >>> from searchlab.games import make
    >>> check_length(make("tictactoe"), 8)
    >>> check_length(make("tictactoe"), 9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.EndlessGameError: game 'tictactoe' is not over after 9 plies, its ...
    """
    longest = playout_limit(game)
    if plies >= longest:
        declared = game.info.max_game_length is not None
        said = "its max_game_length" if declared else "searchlab's cap for a game without one"
        raise EndlessGameError(
            f"game {game.info.name!r} is not over after {plies} plies, {said} (GameInfo."
            "max_game_length): its rules let a game go on longer than it declares"
        )


def check_ready(agent: Agent, game: Game) -> None:
    """Ask ``agent`` whether it can play ``game``, if it has a ``check_ready(game)`` (agents
    that run an external engine start it once and shake hands). Raises
    :class:`~searchlab.core.errors.AgentSetupError` (one line) when it cannot; call it before
    the first game, so that nothing is played or stored."""
    check = getattr(agent, "check_ready", None)
    if callable(check):
        check(game)


def close_agent(agent: Agent) -> None:
    """Stop what ``agent`` runs (an external engine), if it has a ``close()``; a failure to
    clean up is ignored (the game's result matters more)."""
    close = getattr(agent, "close", None)
    if callable(close):
        with suppress(Exception):
            close()
