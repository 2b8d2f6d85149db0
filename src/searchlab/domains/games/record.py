"""Game records: any game saved to a file as it is played, and read back.

Go is recorded as SGF (:mod:`searchlab.domains.games.go.sgf`), which every Go program reads.
Every other game, built in or your own, is recorded as a *text record*: a header of
``key: value`` lines, a blank line, then the moves in the game's own notation, the one that
``searchlab play`` prints and reads::

    # searchlab game record
    game: mnk
    params: m=4,n=4,k=3
    first: human
    second: mcts:time=1
    result: 1-0
    date: 2026-05-01

    1. b2 a1 c3 a4 d4

The header, up to the first blank line:

* ``game`` (required): the registered name, or ``FILE.py:CLASS`` / ``MODULE:CLASS`` for a game
  of your own (imported as ``searchlab play`` would, and only when the reader is told that
  name: reading a file never runs code it names);
* ``params``: the game's parameters as ``-p`` takes them (:mod:`.params_text`); the writer
  gives them all, defaults included; one left out takes the game's default;
* ``first``, ``second``: the players, agent specs as ``play`` takes them, or ``human``;
* ``result``: ``1-0`` (the first player won), ``0-1``, ``1/2-1/2`` or ``*`` (not over, or
  interrupted), then optionally why in parentheses: ``0-1 (first resigns)``;
* ``date``: ``YYYY-MM-DD`` (UTC);
* any other key is kept as it is (``event: club night``). A line starting with ``#`` is a
  comment.

The moves, separated by white space, any number to a line; ``N.`` before a move is its number
(checked; the writer puts one at the start of every line of ten moves); ``#`` starts a comment
to the end of the line. A game whose notation has white space cannot be recorded.

Reading a record replays it through the game's rules: a malformed line, an unknown game, bad
parameters, an illegal move or a result the moves contradict raises :class:`RecordError`, one
line naming the file and line (SGF: :class:`~searchlab.domains.games.go.sgf.SgfFormatError`, with
the column too). Writing what was read gives the same text, byte for byte.

>>> text = '''\\
... # searchlab game record
... game: mnk
... params: m=4,n=4,k=3
... first: human
... second: mcts:time=1
... result: 1-0
... date: 2026-05-01
...
... 1. b2 a1 c3 a4 d4
... '''
>>> record = read_record(text, source="game.txt")
>>> record.game, record.params, record.moves
(MNKGame(m=4, n=4, k=3), {'m': 4, 'n': 4, 'k': 3}, ('b2', 'a1', 'c3', 'a4', 'd4'))
>>> record.players, record.result, record.final.returns()
(('human', 'mcts:time=1'), '1-0', (1.0, -1.0))
>>> record.text() == text
True
>>> read_record("game: mnk\\n\\nb2 a1\\nb2\\n", source="bad.txt")
Traceback (most recent call last):
...
searchlab.domains.games.record.RecordError: bad.txt:4: move 3 'b2': illegal move 'b2': the cell \
is taken
"""

from __future__ import annotations

import codecs
import inspect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import SearchlabError, UnknownNameError
from searchlab.core.game import Game, State
from searchlab.domains.games.params_text import params_from_text, params_to_text, value_to_text
from searchlab.domains.games.registry import GAMES, game_parameters, make

if TYPE_CHECKING:
    from searchlab.domains.games.go.sgf import SgfGame

__all__ = [
    "RESULTS",
    "GameRecord",
    "RecordError",
    "RecordFile",
    "format_record",
    "full_params",
    "is_sgf_file",
    "load_record",
    "read_record",
    "record_of_sgf",
    "result_text",
    "today",
]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""A text record's results: the first player won, the second, a draw, not over."""

MAGIC = "# searchlab game record"
"""The writer's first line (a comment; the reader does not need it)."""

MOVES_PER_LINE = 10

GO_RULES = "Chinese"
"""The ``RU`` written to Go's SGF records: area scoring (Tromp-Taylor) with komi."""

_KEY = re.compile(r"([A-Za-z][\w-]*)\s*:(.*)")
_MOVE_NUMBER = re.compile(r"(\d+)\.")
_KNOWN = ("game", "params", "first", "second", "result", "date")


class RecordError(SearchlabError, ValueError):
    """A malformed text record, or one the game's rules reject; the message starts with
    ``FILE:LINE:`` and quotes what is wrong."""


def today() -> str:
    """The date as records write it (UTC, the SGF ``DT`` form): ``2026-11-23``."""
    return datetime.now(UTC).strftime("%Y-%m-%d")


def result_text(winner: int | None, why: str = "") -> str:
    """A text record's result: ``winner`` 0 -> ``1-0``, 1 -> ``0-1``, ``None`` -> a draw;
    ``why`` in parentheses after it.

    >>> result_text(1, "first resigns"), result_text(None)
    ('0-1 (first resigns)', '1/2-1/2')
    """
    code = "1/2-1/2" if winner is None else ("1-0", "0-1")[winner]
    return f"{code} ({why})" if why else code


def full_params(game_name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the game's other parameters at their defaults (``None`` ones, unset,
    left out), in the game's order: what a record writes, so that it reads the same when a
    default changes.

    >>> full_params("nim", {"piles": (2, 2)})
    {'piles': (2, 2), 'misere': False}
    """
    merged = {**game_parameters(game_name), **params}
    return {name: value for name, value in merged.items() if value not in (None, _EMPTY)}


_EMPTY: Any = inspect.Parameter.empty


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A recorded game, replayed: the game, its states from the start, and the header.

    Attributes:
        game_name: as the record names it (``"mnk"``, ``"go"``, ``"file.py:Class"``).
        params: the parameters the record gives (SGF: ``size``, ``komi``, ``handicap``).
        game: the game built from them.
        states: the start and the state after each move.
        moves: each move in the game's notation (as the game writes it).
        players: the first and second player (agent specs or ``human``; ``""``: not given).
        result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``, maybe with why (SGF: its ``RE``).
        date: ``YYYY-MM-DD``, or ``""``.
        headers: the other header keys (SGF: the other root properties), in order.
        source: the file name, for messages.
        sgf: the SGF game of a Go record (set-up stones, comments), else ``None``.
        lines: the line of each header key in a text record, for messages.
    """

    game_name: str
    params: dict[str, Any]
    game: Game
    states: tuple[State, ...]
    moves: tuple[str, ...]
    players: tuple[str, str] = ("", "")
    result: str = "*"
    date: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    source: str = "record"
    sgf: SgfGame | None = None
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def start(self) -> State:
        """The position before the first move."""
        return self.states[0]

    @property
    def final(self) -> State:
        """The position after the last move."""
        return self.states[-1]

    def state_at(self, move: int) -> State:
        """The position after ``move`` moves (0: the start); a number outside 0..len(moves)
        raises :class:`RecordError` naming the range."""
        if not 0 <= move < len(self.states):
            raise RecordError(
                f"{self.source}: move {move} is not in the record: it has moves "
                f"0..{len(self.states) - 1} (0 is the start)"
            )
        return self.states[move]

    def text(self) -> str:
        """The record as its file holds it: SGF for Go, else the text record."""
        if self.sgf is not None:
            from searchlab.domains.games.go.sgf import write_sgf

            return write_sgf(
                self.sgf.final,
                start=self.sgf.start,
                metadata=self.sgf.metadata,
                comments=self.sgf.comments,
            )
        return format_record(
            self.game_name,
            self.params,
            self.moves,
            players=self.players,
            result=self.result,
            date=self.date,
            headers=self.headers,
        )

    def check(self, game: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        """Raise :class:`RecordError` (naming the file and the header line) unless the record
        is a game of ``game`` and has each of ``params`` (a parameter the record leaves out has
        the game's default)."""
        if game is not None and game != self.game_name:
            raise RecordError(
                f"{self._where('game')}: the record is a game of {self.game_name}, not {game!r}"
            )
        defaults = game_parameters(self.game_name)
        for name, value in (params or {}).items():
            given = f"{name}={value_to_text(value)}"
            if name not in self.params and name not in defaults:
                has = f"takes no parameter {name}"
            else:
                recorded = self.params.get(name, defaults.get(name))
                if recorded is not None and value_to_text(value) == value_to_text(recorded):
                    continue
                has = (
                    f"has {name} unset"
                    if recorded is None
                    else f"has {name}={value_to_text(recorded)}"
                )
            raise RecordError(
                f"{self._where('params')}: the record's {self.game_name} {has}, not {given} "
                "(the parameters come from the record)"
            )

    def _where(self, key: str) -> str:
        line = self.lines.get(key, self.lines.get("game"))
        return self.source if line is None else f"{self.source}:{line}"


# -- writing ------------------------------------------------------------------------------------
def format_record(
    game_name: str,
    params: Mapping[str, Any],
    moves: Sequence[str],
    *,
    players: tuple[str, str] = ("", ""),
    result: str = "*",
    date: str = "",
    headers: Mapping[str, str] | None = None,
) -> str:
    """The text record of a game (see the module docstring); empty header values are left
    out. Raises :class:`RecordError` for a move or a value that the reader would not read
    back (white space in a move, a line break in a value).

    >>> print(format_record("nim", {"piles": (1, 2)}, ["2:2", "1:1"], result="0-1"), end="")
    # searchlab game record
    game: nim
    params: piles=1,2
    result: 0-1
    <BLANKLINE>
    1. 2:2 1:1
    """
    fields = {
        "game": game_name,
        "params": params_to_text(params),
        "first": players[0],
        "second": players[1],
        "result": result,
        "date": date,
        **{key: value for key, value in (headers or {}).items() if key not in _KNOWN},
    }
    lines = [MAGIC]
    for key, value in fields.items():
        if "\n" in value or "\r" in value or not _KEY.fullmatch(f"{key}:"):
            raise RecordError(f"cannot record {key}: {value!r} on one header line")
        if value:
            lines.append(f"{key}: {value}")
    lines.append("")
    for number, move in enumerate(moves, start=1):
        if not move or move != "".join(move.split()) or "#" in move:
            raise RecordError(f"cannot record move {number} {move!r}: it has white space or #")
    for start in range(0, len(moves), MOVES_PER_LINE):
        lines.append(f"{start + 1}. " + " ".join(moves[start : start + MOVES_PER_LINE]))
    return "\n".join(lines) + "\n"


class RecordFile:
    """Keeps a game's record in a file while it is played: :meth:`save` rewrites the file
    whole after every move (a temporary file renamed over it, so a Ctrl-C or a crash never
    leaves half a record, and the file always holds the game so far).

    Go is written as SGF (the start with its handicap or set-up stones, ``PB``/``PW`` the
    players, ``DT``, ``RU``, the ``RE`` result once the game is over; a loaded game's other
    properties and comments kept); every other game as a text record.

    >>> import tempfile
    >>> from searchlab.domains.games import make
    >>> path = Path(tempfile.mkdtemp()) / "game.txt"
    >>> state = make("tictactoe").initial_state()
    >>> recorder = RecordFile(path, "tictactoe", {}, state, players=("human", "random"))
    >>> recorder.save(state.apply(4), ["b2"])
    >>> load_record(path).moves
    ('b2',)
    """

    def __init__(
        self,
        path: str | Path,
        game_name: str,
        params: Mapping[str, Any],
        start: State,
        *,
        players: tuple[str, str],
        loaded: GameRecord | None = None,
    ) -> None:
        self.path = Path(path)
        self.game_name = game_name
        self.params = dict(params)
        self.start = loaded.start if loaded is not None else start
        self.players = players
        self.is_sgf = _is_go(self.start)
        self.date = (loaded.date if loaded is not None else "") or today()
        self.headers: dict[str, str] = {}  # a loaded record's other keys, in its own format
        self.comments: dict[int, str] = {}
        if loaded is not None and loaded.sgf is not None:
            self.headers = {k: v for k, v in loaded.sgf.metadata.items() if k != "RE"}
            self.comments = dict(loaded.sgf.comments)
        elif loaded is not None and not self.is_sgf:
            self.headers = dict(loaded.headers)

    def save(self, final: State, moves: Sequence[str], result: str = "*") -> None:
        """Write the game from the start to ``final`` (``moves``: every move from the start,
        in notation); ``result`` once it is over (Go: SGF's ``RE``, like ``B+R``)."""
        write_atomically(self.path, self.text(final, moves, result).encode("utf-8"))

    def text(self, final: State, moves: Sequence[str], result: str = "*") -> str:
        """What :meth:`save` writes."""
        if not self.is_sgf:
            return format_record(
                self.game_name,
                self.params,
                moves,
                players=self.players,
                result=result,
                date=self.date,
                headers=self.headers,
            )
        from searchlab.domains.games.go.sgf import write_sgf

        metadata = dict(self.headers)
        metadata["PB"], metadata["PW"] = self.players
        metadata.setdefault("DT", self.date)
        metadata.setdefault("RU", GO_RULES)
        if result != "*":
            metadata["RE"] = result
        played = len(final.moves) - len(self.start.moves)  # type: ignore[attr-defined]
        comments = {n: text for n, text in self.comments.items() if n <= played}
        return write_sgf(
            final,  # type: ignore[arg-type]
            start=self.start,  # type: ignore[arg-type]
            metadata=metadata,
            comments=comments,
        )


def _is_go(state: State) -> bool:
    if type(state).__name__ != "GoState":  # Go's module is not imported for other games
        return False
    from searchlab.domains.games.go import GoState

    return isinstance(state, GoState)


# -- reading ------------------------------------------------------------------------------------
def is_sgf_file(path: str | Path) -> bool:
    """Whether the file at ``path`` holds SGF (its text starts with ``(``, after white space
    and a byte-order mark); a missing file raises :class:`FileNotFoundError`."""
    with open(path, "rb") as handle:
        head = handle.read(4096).removeprefix(codecs.BOM_UTF8)
    return head.lstrip().startswith(b"(")


def load_record(path: str | Path, *, own_game: str | None = None) -> GameRecord:
    """The game recorded in the file at ``path``: SGF (a Go game, its main line) or a text
    record (see the module docstring; ``own_game`` as :func:`read_record` takes it). Raises
    :class:`RecordError` or :class:`~searchlab.domains.games.go.sgf.SgfFormatError` naming the
    file and line; :class:`FileNotFoundError` for a missing file."""
    if is_sgf_file(path):
        from searchlab.domains.games.go.sgf import load_sgf

        return record_of_sgf(load_sgf(path), str(path))
    data = Path(path).read_bytes().removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RecordError(f"{path}:{line}: not UTF-8 text (byte {error.start})") from None
    return read_record(text, source=str(path), own_game=own_game)


def record_of_sgf(sgf: SgfGame, source: str) -> GameRecord:
    """A Go game read from SGF as a :class:`GameRecord`: ``params`` the size, komi and
    handicap, ``players`` from ``PB``/``PW``, ``result`` from ``RE``, ``date`` from ``DT``."""
    go = sgf.game
    params: dict[str, Any] = {"size": go.size, "komi": go.komi}
    if go.handicap:
        params["handicap"] = go.handicap
    metadata = dict(sgf.metadata)
    players = (metadata.pop("PB", ""), metadata.pop("PW", ""))
    result, date = metadata.pop("RE", "*"), metadata.pop("DT", "")
    return GameRecord(
        game_name="go",
        params=params,
        game=go,
        states=tuple(sgf.states),
        moves=tuple(sgf.final.action_to_string(action) for action in sgf.moves),
        players=players,
        result=result,
        date=date,
        headers=metadata,
        source=source,
        sgf=sgf,
    )


def read_record(text: str, *, source: str = "record", own_game: str | None = None) -> GameRecord:
    """Read a text record (see the module docstring) and replay its moves; ``source`` names
    it in messages. A game of your own (``MODULE:CLASS``, ``FILE.py:CLASS``) is imported only
    when it is ``own_game``: a record naming another is refused, as importing it would run the
    code it names. Raises :class:`RecordError` (``SOURCE:LINE: ...``)."""
    header, lines, tokens = _parse(text, source)
    if "game" not in header:
        raise RecordError(f"{source}:1: no 'game:' line in the header (like 'game: connect4')")
    name = header["game"]
    where = {key: f"{source}:{line}" for key, line in lines.items()}
    if name not in GAMES and ":" in name and name != own_game:
        raise RecordError(
            f"{where['game']}: the record names a game of your own, {name!r}: its code runs "
            f"only when you name it too (like 'searchlab play {name} --load FILE')"
        )
    try:
        params = params_from_text(header.get("params", ""))
    except SearchlabError as error:
        raise RecordError(f"{where['params']}: params: {error}") from None
    try:
        game = make(name, **params)
    except SearchlabError as error:
        own = isinstance(error, UnknownNameError) or ":" in name or "params" not in where
        at = where["game"] if own else where["params"]
        raise RecordError(f"{at}: {error}") from None
    states, moves = _replay(game, tokens, source)
    result = header.get("result", "*")
    _check_result(result, states[-1], where.get("result", source))
    return GameRecord(
        game_name=name,
        params=params,
        game=game,
        states=states,
        moves=moves,
        players=(header.get("first", ""), header.get("second", "")),
        result=result,
        date=header.get("date", ""),
        headers={key: value for key, value in header.items() if key not in _KNOWN},
        source=source,
        lines=lines,
    )


def _parse(text: str, source: str) -> tuple[dict[str, str], dict[str, int], list[tuple[str, int]]]:
    """The header (key -> value), each key's line, and the move tokens with their lines."""
    header: dict[str, str] = {}
    lines: dict[str, int] = {}
    tokens: list[tuple[str, int]] = []
    in_header = True
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if in_header:
            if stripped.startswith("#"):
                continue
            if not stripped:
                in_header = not header  # blank lines before the header are skipped
                continue
            found = _KEY.fullmatch(stripped)
            if found is None:
                raise RecordError(
                    f"{source}:{number}: expected 'key: value' in the header, got "
                    f"{_short(stripped)} (a blank line goes between the header and the moves)"
                )
            key, value = found[1].lower(), found[2].strip()
            if key in header:
                raise RecordError(f"{source}:{number}: {key!r} again (first on line {lines[key]})")
            header[key], lines[key] = value, number
            continue
        for token in line.split("#", 1)[0].split():
            tokens.append((token, number))
    return header, lines, tokens


def _replay(
    game: Game, tokens: list[tuple[str, int]], source: str
) -> tuple[tuple[State, ...], tuple[str, ...]]:
    state = game.initial_state()
    states, moves = [state], list[str]()
    for token, line in tokens:
        number = len(moves) + 1
        numbered = _MOVE_NUMBER.fullmatch(token)
        if numbered is not None:
            if int(numbered[1]) != number:
                raise RecordError(f"{source}:{line}: move number {token} where move {number} comes")
            continue
        if state.is_terminal():
            raise RecordError(f"{source}:{line}: move {number} {token!r}: the game is already over")
        try:
            action = state.string_to_action(token)
            after = state.apply(action)
        except (ValueError, LookupError, TypeError) as error:
            raise RecordError(f"{source}:{line}: move {number} {token!r}: {error}") from None
        moves.append(state.action_to_string(action))
        state = after
        states.append(state)
    return tuple(states), tuple(moves)


def _check_result(result: str, final: State, where: str) -> None:
    code = result.split()[0] if result.split() else ""
    if code not in RESULTS:
        raise RecordError(
            f"{where}: result must start with {', '.join(RESULTS)}, got {_short(result)}"
        )
    if code == "*" or not final.is_terminal():
        return  # not over (or over by a resignation, a time loss, an agreed draw)
    first, second = (float(value) for value in final.returns()[:2])
    ended = "1-0" if first > second else "0-1" if second > first else "1/2-1/2"
    if code != ended:
        raise RecordError(f"{where}: result {code}, but the moves end the game {ended}")


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
