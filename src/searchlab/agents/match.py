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

The arena's workers (:mod:`searchlab.arena.worker`) and the training loop's evaluation games
(:mod:`searchlab.learning.evaluation`) both play their games here. The loop keeps nothing
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
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits

__all__ = ["RESULTS", "Move", "PlayedGame", "close_agent", "play_game", "result_of"]

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
        mover = state.current_player()
        agent = agents[mover]
        forfeit = "0-1" if mover == 0 else "1-0"
        start = time.perf_counter()
        try:
            action = agent.act(state, limits)
        except Resign as resigned:
            why = f" ({resigned})" if str(resigned) else ""
            return played(forfeit, "resign", f"{agent.name} resigned{why}")
        except Exception as error:  # an agent's crash loses its game, not the tournament
            if strict:
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


def close_agent(agent: Agent) -> None:
    """Stop what ``agent`` runs (an external engine), if it has a ``close()``; a failure to
    clean up is ignored (the game's result matters more)."""
    close = getattr(agent, "close", None)
    if callable(close):
        with suppress(Exception):
            close()
