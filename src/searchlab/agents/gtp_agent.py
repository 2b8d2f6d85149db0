"""An agent that lets an external Go engine choose the moves, over GTP: ``gtp:command=...``.

``gtp:command=gnugo --mode gtp --level 10`` plays Go through any engine that speaks the Go
Text Protocol (GTP v2). The command cannot hold a comma (commas separate a spec's parameters):
wrap such a command line in a small script. The engine process is started by the agent's first
move and stopped by :meth:`GtpAgent.close` (also by :meth:`GtpAgent.reset`, before a new game,
and at the latest when the agent is garbage-collected or the interpreter exits; see
:class:`~searchlab.agents.gtp_client.GtpEngine`).

**A broken engine fails loudly.** Every engine the agent starts is first asked
``protocol_version`` (the handshake). An engine that exits, hangs past ``timeout``, refuses it
or answers something that is not GTP there (a typo in its options, ``false``, ``cat``) cannot
play at all: :class:`~searchlab.agents.gtp_client.EngineSetupError`, an
:class:`~searchlab.core.errors.AgentSetupError` that the match loop raises instead of recording
a lost game. :meth:`GtpAgent.check_ready` starts the engine once, shakes hands, checks that it
takes the game's board size and stops it: the arena calls it for every agent before the first
game, so a broken engine is one line and nothing is played or stored.

Before each ``genmove`` the engine is brought to the position to move from (*syncing*):
``boardsize``, ``komi``, ``clear_board``, ``fixed_handicap`` (its answer checked against the
game's handicap stones), then a ``play`` for each of the state's moves, passes included. When
the new state extends the position the engine already has (the usual case: one move by the
opponent since the engine's own), only the new moves are sent. A state that was not reached by
moves from the game's start (a hand-built position) is set up stone by stone (``play``), without
its history. All of a sync is sent at once (pipelined), so a long game costs one round trip.

The engine's answer maps to an action: a vertex (``D4``, any case) or ``pass``. ``resign``
raises :class:`~searchlab.agents.human.Resign`, which the arena records as a loss by
resignation. A move that the engine's own rules allow but the game's superko forbids (engines
such as GNU Go check only the basic ko) is replaced by a pass, and the engine is set up again
before the next move. Any other illegal answer is returned as it is: the arena records it as an
illegal move.

Time: when the caller gives ``limits.time`` (the arena's ``--move-time``) and ``clock=true``
(the default), the engine is told it has that many seconds per move (GTP has whole seconds:
rounded up) with ``time_settings 0 T 1`` and ``time_left COLOUR T 1`` before each move; the
engine then has ``limits.time + timeout`` seconds to answer. Engines adapt to it: GNU Go lowers
its level to keep to the time, so ``clock=false`` keeps GNU Go at the ``--level`` it was given.
Without a time limit it has ``timeout`` seconds (default 60) for every answer.

A crashed, hung or nonsense-answering engine raises an
:class:`~searchlab.agents.gtp_client.EngineError` (one line saying what happened); the arena
records the game as lost by this agent, with that line.

>>> from searchlab.agents.spec import AgentRegistry
>>> registry = AgentRegistry([GTP_KIND])
>>> registry.make("gtp:command=no-such-engine --mode gtp", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.agents.gtp_client.EngineNotFound: GTP engine 'no-such-engine --mode gtp': no program ...
"""

from __future__ import annotations

import math
from typing import Any

from searchlab.agents.base import AgentBase
from searchlab.agents.gtp_client import (
    DEFAULT_TIMEOUT,
    EngineError,
    EngineProtocolError,
    EngineSetupError,
    GtpEngine,
)
from searchlab.agents.human import Resign
from searchlab.agents.spec import AgentKind, Param
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits

__all__ = ["GTP_KIND", "GtpAgent", "gtp_colour"]


def gtp_colour(player: int) -> str:
    """The GTP colour of player 0 (black, ``b``) or 1 (white, ``w``).

    >>> gtp_colour(0), gtp_colour(1)
    ('b', 'w')
    """
    return "bw"[player]


def _check_go(game: Any, name: str) -> None:
    info = getattr(game, "info", None)
    if getattr(info, "name", None) != "go":
        shown = getattr(info, "name", type(game).__name__)
        raise InvalidParameterError(f"agent {name!r} plays Go only (GTP), not {shown!r}")


class GtpAgent(AgentBase):
    """The moves of an external GTP engine (see the module docstring).

    Args:
        name: the agent's name (its spec).
        command: the engine's command line (split like a shell does; no shell runs it).
        timeout: seconds the engine may take to answer, on top of the move's time limit.
        clock: tell the engine the time per move (``time_settings``/``time_left``).
        label: how errors name the engine (default: the command).
    """

    def __init__(
        self,
        name: str,
        command: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        clock: bool = True,
        label: str | None = None,
    ) -> None:
        super().__init__(name)
        self.engine = GtpEngine(command, timeout=timeout, name=label or command)
        self.timeout = self.engine.timeout
        self.clock = clock
        self._setup: tuple[int, float, int] | None = None  # (size, komi, handicap) sent
        self._played: tuple[int, ...] = ()  # the moves the engine has, after the setup
        self._seconds: int | None = None  # the time per move sent with time_settings
        self._commands: frozenset[str] | None = None  # what the engine says it knows

    # -- life ----------------------------------------------------------------------------------
    def reset(self) -> None:
        """A new game: stop the engine (the next move starts a fresh one)."""
        super().reset()
        self.close()

    def close(self) -> None:
        """Stop the engine process (safe to call at any time, more than once)."""
        self.engine.close()
        self._setup, self._played, self._seconds, self._commands = None, (), None, None

    def check_ready(self, game: Game) -> None:
        """Start the engine once, shake hands (``protocol_version``), check that it takes
        ``game``'s board size (``boardsize``), and stop it. Raises
        :class:`~searchlab.agents.gtp_client.EngineSetupError` (one line: the engine, what it
        did, the end of its stderr) when it cannot play ``game``."""
        _check_go(game, self.name)
        try:
            self._start()
            size = int(getattr(game, "size", 0))
            try:
                self.engine.send(f"boardsize {size}")
            except EngineError as error:
                raise EngineSetupError(f"{error} (checked before the first game)") from None
        finally:
            self.close()

    def _start(self) -> None:
        """Start a fresh engine and shake hands with it (``protocol_version``); any failure
        is an :class:`~searchlab.agents.gtp_client.EngineSetupError` (it cannot play)."""
        self.close()
        try:
            self.engine.start()
            self.engine.send("protocol_version")
        except EngineError as error:
            self.close()
            raise EngineSetupError(f"{error} (at its start, before any move)") from None

    # -- moves ---------------------------------------------------------------------------------
    def act(self, state: State, limits: Limits | None = None) -> int:
        game: Any = getattr(state, "game", None)
        _check_go(game, self.name)
        if state.is_terminal():
            raise InvalidParameterError(f"agent {self.name!r}: the game is over")
        if self.engine.pid is None:  # not started, or stopped by a failure: start afresh
            self._start()
        size = int(game.size)
        mover = state.current_player()
        colour = gtp_colour(mover)
        move_time = limits.time if limits is not None else None
        try:
            commands, played = self._sync_commands(state, move_time)
            if self._seconds is not None:
                commands.append(f"time_left {colour} {self._seconds} 1")
            wait = self.timeout + (move_time or 0.0)
            answers = self.engine.send_many([*commands, f"genmove {colour}"], timeout=wait)
            self._check_handicap(state, commands, answers)
        except BaseException:  # the engine's board is unknown now: set it up again next time
            self._setup, self._played, self._seconds = None, (), None
            raise
        answer = answers[-1].strip()
        word = answer.lower()
        if word == "resign":  # the engine's board is unchanged by a resignation
            raise Resign("the engine answered resign")
        if word == "pass":
            action = size * size
        else:
            from searchlab.domains.games.go import vertex_to_point

            try:
                action = vertex_to_point(answer, size)
            except (IllegalMoveError, InvalidParameterError):
                self.close()
                raise EngineProtocolError(
                    f"GTP engine {self.engine.name!r} answered 'genmove {colour}' with "
                    f"{answer!r}, not a move on the {size}x{size} board"
                ) from None
        reason = state.illegal_reason(action) if hasattr(state, "illegal_reason") else None
        if reason == "superko":
            # the engine's rules allow it, the game's do not: pass, and set the engine up
            # again before the next move (its board now holds the forbidden move)
            self._setup, self._played = None, ()
            return size * size
        if played is None:  # a hand-built position: set up again every move
            self._setup, self._played = None, ()
        else:
            self._played = (*played, action)
        return action

    def _sync_commands(
        self, state: Any, move_time: float | None
    ) -> tuple[list[str], tuple[int, ...] | None]:
        """The commands that bring the engine from what it has to ``state``, and the moves
        the engine then has (``None`` for a hand-built position, set up stone by stone)."""
        from searchlab.domains.games.go import point_to_vertex

        game = state.game
        size = int(game.size)
        setup = (size, float(game.komi), int(getattr(game, "handicap", 0)))
        moves = tuple(int(move) for move in state.moves)
        commands: list[str] = []
        known = self._played
        if self._setup != setup or moves[: len(known)] != known:
            commands += [f"boardsize {size}", f"komi {setup[1]:g}", "clear_board"]
            if setup[2] >= 2:
                commands.append(f"fixed_handicap {setup[2]}")
            self._seconds = None
            start = game.initial_state()
            known = ()
            self._setup = setup
            if not _reached_by_moves(start, moves, state):
                commands += _stone_commands(state, size, skip=start.board)
                self._setup, moves = None, ()
        if move_time is not None and self.clock and "time_settings" in self._known_commands():
            seconds = max(1, math.ceil(move_time))
            if seconds != self._seconds:
                commands.append(f"time_settings 0 {seconds} 1")
                self._seconds = seconds
        first = game.initial_state().current_player()
        for index in range(len(known), len(moves)):
            colour = gtp_colour((first + index) % 2)
            commands.append(f"play {colour} {point_to_vertex(moves[index], size)}")
        return commands, (moves if self._setup is not None else None)

    def _known_commands(self) -> frozenset[str]:
        """The commands the engine lists (``list_commands``), asked once per engine process."""
        if self._commands is None or not self.engine.is_running:
            self._commands = frozenset(self.engine.send("list_commands").split())
        return self._commands

    def _check_handicap(self, state: Any, commands: list[str], answers: list[str]) -> None:
        """The engine's ``fixed_handicap`` stones must be the game's."""
        for command, answer in zip(commands, answers, strict=False):
            if command.startswith("fixed_handicap"):
                from searchlab.domains.games.go import vertex_to_point

                size = int(state.game.size)
                start = state.game.initial_state().board
                ours = {p for p in range(size * size) if start[p] == 1}
                try:
                    theirs = {vertex_to_point(word, size) for word in answer.split()}
                except (IllegalMoveError, InvalidParameterError):
                    theirs = set()
                if theirs != ours:
                    self.close()
                    raise EngineProtocolError(
                        f"GTP engine {self.engine.name!r} answered {command!r} with "
                        f"{answer!r}, not the game's handicap stones"
                    )


def _reached_by_moves(start: Any, moves: tuple[int, ...], state: Any) -> bool:
    """Whether playing ``moves`` from ``start`` gives ``state``'s board."""
    if not moves:
        return bool(start.board == state.board)
    current = start
    try:
        for move in moves:
            current = current.apply(move)
    except IllegalMoveError:
        return False
    return bool(current.board == state.board)


def _stone_commands(state: Any, size: int, *, skip: bytes) -> list[str]:
    """``play`` commands that put ``state``'s stones on a board holding ``skip``'s (black
    first, then white: placing the stones of a legal position one by one never captures)."""
    from searchlab.domains.games.go import point_to_vertex

    commands = []
    for colour, value in (("b", 1), ("w", 2)):
        for point in range(size * size):
            if state.board[point] == value and skip[point] != value:
                commands.append(f"play {colour} {point_to_vertex(point, size)}")
    return commands


def _gtp(
    game: Game | None,
    *,
    name: str,
    seed: int | None,
    command: str | None,
    timeout: float,
    clock: bool,
    label: str | None,
) -> GtpAgent:
    if command is None:
        raise InvalidParameterError(
            f"agent spec {name!r}: needs command=..., the engine's command line "
            "(e.g. gtp:command=gnugo --mode gtp --level 10)"
        )
    if game is not None:
        _check_go(game, name)
    return GtpAgent(name, command, timeout=timeout, clock=clock, label=label)


GTP_KIND = AgentKind(
    "gtp",
    _gtp,
    {
        "command": Param(str, help="the engine's command line, e.g. gnugo --mode gtp --level 10"),
        "timeout": Param(
            float, DEFAULT_TIMEOUT, "seconds an answer may take (beyond the time per move)"
        ),
        "clock": Param(bool, True, "tell the engine the time per move (time_settings)"),
        "label": Param(str, help="the engine's name in messages (default: the command)"),
    },
    "an external Go engine over GTP (started and stopped by searchlab)",
)
"""The ``gtp`` agent kind: ``gtp:command=gnugo --mode gtp --level 10[,timeout=60,clock=true]``."""
