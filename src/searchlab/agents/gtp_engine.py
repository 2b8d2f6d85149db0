"""searchlab as a Go engine speaking GTP v2 (the Go Text Protocol): the engine behind
``searchlab gtp --agent SPEC``, usable in-process (:meth:`GtpServer.handle` takes one command
line and returns its answer) or on two streams (:func:`serve`).

Any GTP controller (Sabaki, GoGui, a tournament manager, GNU Go's ``twogtp``) can start
``searchlab gtp`` as its engine command: every move it asks for (``genmove``) is chosen by the
agent its spec names (``mcts:time=1,rave=3000``, ``random``, even ``gtp:command=...`` for
another engine). The command line only parses its options and calls :func:`serve` on stdin and
stdout; the same engine runs in-process (python-chess keeps its engine protocol in its library
too):

>>> import io
>>> out = io.StringIO()
>>> serve(GtpServer("random", size=5), io.StringIO("2 name\\nboardsize 3\\nquit\\n"), out)
>>> out.getvalue()
'=2 searchlab\\n\\n? unacceptable size\\n\\n= \\n\\n'

Commands (GTP v2, section 6): ``protocol_version``, ``name``, ``version``, ``known_command``,
``list_commands``, ``quit``, ``boardsize``, ``clear_board``, ``komi``, ``play``, ``genmove``,
``reg_genmove``, ``undo``, ``showboard``, ``final_score``, ``fixed_handicap``, ``time_settings``,
``time_left``, ``loadsgf``. Input is read as the protocol says: comments (``#`` to the end of the
line) and control characters are dropped, tabs become spaces, empty lines are skipped; a
command may start with a numeric id, which its answer repeats (``=7 D4``). Every answer ends
with an empty line. Failures are ``? message``: ``unknown command``, ``syntax error``,
``illegal move``, ``unacceptable size``, ``board not empty``, ``invalid number of stones``,
``cannot undo``, ``cannot load file``; an agent that fails says why in one line.

Rules: Chinese area scoring (``final_score`` counts the board as it stands, Tromp-Taylor: play
dead stones out before scoring), suicide illegal, positional superko unless ``--superko``
says otherwise. ``play`` for the colour that is not to move, or after the game ended (two
passes), continues from the same stones with that colour to move (the ko and superko history
start again there), as controllers that place stones or play on after passes expect.

Passing and resigning: a search agent's ``genmove`` passes when the opponent has just passed and
the game scored now is its win (or when passing is worth as much as its move and no neutral
point is left), and with ``--resign-below V`` answers ``resign`` when its search's value was
below V at two of its moves in a row: the rule ``play go`` follows
(:class:`~searchlab.agents.go_endgame.GoEndgame`).

Time: after ``time_settings M B S`` (main time M, then B seconds per S stones) and
``time_left``, each ``genmove`` gets a share of the time left: in byo-yomi, its period over its
stones; in main time, the time left over 20 (or over the stones of the first period when the
main time is 0), less a small safety margin. Without time settings (or ``time_settings 0 0 0``)
the agent uses its own budget.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["COMMANDS", "GtpFailure", "GtpServer", "serve"]

COMMANDS = (
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "boardsize", "clear_board", "komi", "play", "genmove", "reg_genmove", "undo", "showboard",
    "final_score", "fixed_handicap", "time_settings", "time_left", "loadsgf",
)  # fmt: skip
"""The commands ``list_commands`` answers, in its order."""

_MAIN_TIME_MOVES = 20  # a move in main time gets the time left over this many
_MARGIN = 0.9  # the share of a move's time the agent may use (the rest: overheads, the pipe)
_MIN_MOVE_TIME = 0.05


class GtpFailure(Exception):
    """A command failed: the message of its ``? message`` answer."""


@dataclass
class _Clock:
    """``time_settings`` and the last ``time_left`` of each colour."""

    main: float = 0.0
    byo_yomi: float = 0.0
    stones: int = 0
    left: tuple[tuple[float, int] | None, tuple[float, int] | None] = (None, None)

    @property
    def unlimited(self) -> bool:
        return (self.byo_yomi > 0 and self.stones == 0) or (self.main == self.byo_yomi == 0)

    def move_time(self, player: int) -> float | None:
        """Seconds for the next move of ``player``, or ``None``: no limit."""
        if self.unlimited:
            return None
        left = self.left[player]
        if left is None:
            seconds, stones = (self.main, 0) if self.main > 0 else (self.byo_yomi, self.stones)
        else:
            seconds, stones = left
        share = seconds / stones if stones > 0 else seconds / _MAIN_TIME_MOVES
        if stones == 0 and self.byo_yomi > 0 and self.stones > 0:
            share = max(share, self.byo_yomi / self.stones)  # byo-yomi follows the main time
        return max(_MIN_MOVE_TIME, share * _MARGIN - 0.05)


class GtpServer:
    """The engine: :meth:`handle` takes one input line and returns the full answer to write
    (``None`` for a line with no command); :attr:`done` is set by ``quit``.

    Args:
        agent_spec: the agent that chooses the moves (a spec, see ``searchlab play --help``).
        size, komi, superko: the rules of the first game (``boardsize``/``komi`` change them).
        seed: seeds the agent.
        make_agent: builds the agent for a game (the default registry's ``make_agent``).
        resign_below: the engine resigns (``genmove`` answers ``resign``) when its search's
            value was below this at two of its moves in a row; ``None``: never. It passes when
            passing keeps the win; both as ``play`` does
            (:class:`~searchlab.agents.go_endgame.GoEndgame`).

    >>> server = GtpServer("random", size=5, komi=0.5)
    >>> server.handle("1 play b C3"), server.handle("final_score"), server.handle("bogus")
    ('=1 \\n\\n', '= B+24.5\\n\\n', '? unknown command\\n\\n')
    """

    def __init__(
        self,
        agent_spec: str,
        *,
        size: int = 9,
        komi: float = 7.5,
        superko: str = "positional",
        seed: int = 0,
        make_agent: Callable[..., Any] | None = None,
        resign_below: float | None = None,
    ) -> None:
        from searchlab.agents import make_agent as default_make_agent
        from searchlab.agents.go_endgame import GoEndgame
        from searchlab.agents.spec import parse_spec
        from searchlab.core.errors import InvalidParameterError

        spec = parse_spec(agent_spec)  # parsed once: each new game's agent is made from it
        if spec.kind == "human":
            raise InvalidParameterError(
                "searchlab gtp: the human agent cannot play here (stdin carries the protocol); "
                "use a GTP controller's own board for a person"
            )
        self.agent_spec = agent_spec
        self._spec = spec
        self.superko = superko
        self.seed = seed
        self._make_agent = make_agent or default_make_agent
        self.done = False
        self._agent: Any = None
        self._clock = _Clock()
        self._endgame = GoEndgame(resign_below=resign_below, seed=seed)
        self._set_game(self._game(size, komi, 0))  # bad rules or agent: raise before serving

    # -- the game ------------------------------------------------------------------------------
    def _game(self, size: int, komi: float, handicap: int) -> Any:
        from searchlab.domains.games.go import Go

        return Go(size, komi, superko=self.superko, handicap=handicap)  # type: ignore[arg-type]

    def _set_game(self, game: Any, states: list[Any] | None = None) -> None:
        """Play ``game`` from now on (from ``states``, default its start); the agent is made
        again when the rules changed (an agent may be built for one board)."""
        old = getattr(self, "game", None)
        if (
            self._agent is None
            or old is None
            or (old.size, old.handicap)
            != (
                game.size,
                game.handicap,
            )
        ):
            self._close_agent()
            self._agent = self._make_agent(self._spec, game, seed=self.seed)
        else:
            self._agent.reset()
        self._endgame.reset()
        self.game = game
        self.states = states or [game.initial_state()]

    def _close_agent(self) -> None:
        close = getattr(self._agent, "close", None)
        if callable(close):
            close()
        self._agent = None

    def close(self) -> None:
        """Stop the agent (an external engine it runs, if any)."""
        self._close_agent()

    @property
    def state(self) -> Any:
        return self.states[-1]

    # -- the protocol --------------------------------------------------------------------------
    def handle(self, raw: str) -> str | None:
        """The answer to one input line (see the class docstring)."""
        line = _clean(raw)
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} syntax error\n\n"  # an id alone is no command
        name, args = words[0].lower(), words[1:]
        handler = getattr(self, f"_cmd_{name}", None) if name in COMMANDS else None
        try:
            if handler is None:
                raise GtpFailure("unknown command")
            text = handler(args)
        except GtpFailure as failure:
            return f"?{ident} {failure}\n\n"
        except Exception as error:  # an agent's or a file's failure: one line, keep serving
            message = " ".join(str(error).split()) or type(error).__name__
            return f"?{ident} {message}\n\n"
        # an empty line ends an answer: none inside one (a board starts on the next line)
        lines = text.rstrip().split("\n")
        body = "\n".join([lines[0], *(line for line in lines[1:] if line.strip())])
        return f"={ident} {body}\n\n"

    # -- administrative ------------------------------------------------------------------------
    def _cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def _cmd_name(self, args: list[str]) -> str:
        return "searchlab"

    def _cmd_version(self, args: list[str]) -> str:
        from searchlab import __version__

        return f"{__version__} ({self.agent_spec})"

    def _cmd_known_command(self, args: list[str]) -> str:
        _arity(args, 1)
        return "true" if args[0].lower() in COMMANDS else "false"

    def _cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def _cmd_quit(self, args: list[str]) -> str:
        self.done = True
        return ""

    # -- setup ---------------------------------------------------------------------------------
    def _cmd_boardsize(self, args: list[str]) -> str:
        _arity(args, 1)
        size = _integer(args[0])
        if not 5 <= size <= 19:
            raise GtpFailure("unacceptable size")
        self._set_game(self._game(size, self.game.komi, 0))
        return ""

    def _cmd_clear_board(self, args: list[str]) -> str:
        _arity(args, 0)
        self._set_game(self._game(self.game.size, self.game.komi, 0))
        return ""

    def _cmd_komi(self, args: list[str]) -> str:
        _arity(args, 1)
        komi = _number(args[0])
        from searchlab.core.errors import InvalidParameterError

        try:
            game = self._game(self.game.size, komi, self.game.handicap)
        except InvalidParameterError as error:
            raise GtpFailure(f"syntax error ({error})") from None
        # the same positions under the new komi (the score is all komi changes)
        self.game = game
        self.states = [dataclasses.replace(state, game=game) for state in self.states]
        return ""

    def _cmd_fixed_handicap(self, args: list[str]) -> str:
        _arity(args, 1)
        stones = _integer(args[0])
        from searchlab.domains.games.go import max_handicap, point_to_vertex

        if len(self.states) > 1 or any(self.state.board):
            raise GtpFailure("board not empty")
        if not 2 <= stones <= max_handicap(self.game.size):
            raise GtpFailure("invalid number of stones")
        self._set_game(self._game(self.game.size, self.game.komi, stones))
        return " ".join(point_to_vertex(p, self.game.size) for p in self.game.handicap_stones)

    def _cmd_loadsgf(self, args: list[str]) -> str:
        if len(args) not in (1, 2):
            raise GtpFailure("syntax error")
        number = _integer(args[1]) if len(args) == 2 else None
        from searchlab.core.errors import SearchlabError
        from searchlab.domains.games.go.sgf import load_sgf

        try:
            record = load_sgf(args[0], superko=self.superko)  # type: ignore[arg-type]
        except (OSError, UnicodeDecodeError, SearchlabError) as error:
            raise GtpFailure(f"cannot load file ({' '.join(str(error).split())})") from None
        states = list(record.states)
        if number is not None:  # the position before move `number` (1 is the first move)
            states = states[: max(1, min(number, len(states)))]
        self._set_game(record.game, states)
        return ""

    # -- time ----------------------------------------------------------------------------------
    def _cmd_time_settings(self, args: list[str]) -> str:
        _arity(args, 3)
        main, byo_yomi, stones = _number(args[0]), _number(args[1]), _integer(args[2])
        if main < 0 or byo_yomi < 0 or stones < 0:
            raise GtpFailure("syntax error")
        self._clock = _Clock(main, byo_yomi, stones)
        return ""

    def _cmd_time_left(self, args: list[str]) -> str:
        _arity(args, 3)
        player, seconds, stones = _colour(args[0]), _number(args[1]), _integer(args[2])
        if seconds < 0 or stones < 0:
            raise GtpFailure("syntax error")
        left = list(self._clock.left)
        left[player] = (seconds, stones)
        self._clock.left = (left[0], left[1])
        return ""

    # -- moves ---------------------------------------------------------------------------------
    def _turn(self, player: int) -> Any:
        """The current position with ``player`` to move (the same stones, and no history, when
        it is the other player's turn or the game has ended)."""
        state = self.state
        if state.to_move == player and not state.is_terminal():
            return state
        size = self.game.size
        black = [p for p in range(size * size) if state.board[p] == 1]
        white = [p for p in range(size * size) if state.board[p] == 2]
        return self.game.position(black=black, white=white, to_move=player)

    def _cmd_play(self, args: list[str]) -> str:
        _arity(args, 2)
        player = _colour(args[0])
        from searchlab.core.errors import IllegalMoveError
        from searchlab.domains.games.go import vertex_to_point

        try:
            action = vertex_to_point(args[1], self.game.size)
        except (IllegalMoveError, ValueError):
            raise GtpFailure("syntax error (invalid coordinate)") from None
        state = self._turn(player)
        reason = state.illegal_reason(action)
        if reason is not None:
            raise GtpFailure(f"illegal move ({reason})")
        self.states.append(state.apply(action))
        return ""

    def _genmove(self, args: list[str], commit: bool) -> str:
        _arity(args, 1)
        player = _colour(args[0])
        from searchlab.agents.human import Resign
        from searchlab.core.limits import Limits
        from searchlab.domains.games.go import point_to_vertex

        state = self._turn(player)
        seconds = self._clock.move_time(player)
        limits = Limits(time=seconds) if seconds is not None else None
        try:
            action, _ = self._endgame.act(self._agent, state, limits)
        except Resign:
            return "resign"
        if not state.is_legal(action):
            raise GtpFailure(f"the agent {self.agent_spec!r} answered an illegal move: {action!r}")
        if commit:
            self.states.append(state.apply(action))
        if action == self.game.pass_action:
            return "pass"
        return point_to_vertex(action, self.game.size)

    def _cmd_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=True)

    def _cmd_reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=False)

    def _cmd_undo(self, args: list[str]) -> str:
        _arity(args, 0)
        if len(self.states) < 2:
            raise GtpFailure("cannot undo")
        self.states.pop()
        return ""

    # -- output --------------------------------------------------------------------------------
    def _cmd_showboard(self, args: list[str]) -> str:
        _arity(args, 0)
        return "\n" + str(self.state)

    def _cmd_final_score(self, args: list[str]) -> str:
        _arity(args, 0)
        score = self.state.area_score()
        if score == 0:
            return "0"
        return f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"


def _clean(raw: str) -> str:
    """A line as GTP section 3.1 preprocesses it: no comment, no control characters but
    tabs (which become spaces)."""
    line = raw.split("#", 1)[0]
    line = "".join(" " if ch == "\t" else ch for ch in line if ch == "\t" or ord(ch) >= 32)
    return line.replace("\x7f", "").strip()


def _arity(args: list[str], count: int) -> None:
    if len(args) != count:
        raise GtpFailure("syntax error")


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise GtpFailure("syntax error") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GtpFailure("syntax error") from None
    if not math.isfinite(value):
        raise GtpFailure("syntax error")
    return value


def _colour(text: str) -> int:
    lowered = text.lower()
    if lowered in ("b", "black"):
        return 0
    if lowered in ("w", "white"):
        return 1
    raise GtpFailure("syntax error (invalid color)")


def serve(server: GtpServer, stdin: IO[str], stdout: IO[str]) -> None:
    """Answer ``stdin``'s commands on ``stdout`` until ``quit`` or the end of the input, each
    answer written and flushed before the next line is read; the agent is closed at the end
    (see the module docstring for an example)."""
    try:
        for raw in stdin:
            answer = server.handle(raw)
            if answer is None:
                continue
            stdout.write(answer)
            stdout.flush()
            if server.done:
                break
    finally:
        server.close()
