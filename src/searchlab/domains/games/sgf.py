"""SGF (FF[4]) game records of Go: read a record into states, write a game as a record.

:func:`read_sgf` parses a record and replays its main line (the first variation at every
branch) through the rules of :mod:`searchlab.domains.games.go`; :func:`write_sgf` writes a
game from its start to a state. Reading what :func:`write_sgf` wrote and writing it again gives
the same text, byte for byte.

Properties read: ``GM`` (must be 1, Go), ``FF`` (1..4), ``SZ`` (5..19, square), ``KM``
(komi; 0 when absent), ``HA`` with ``AB`` (the fixed handicap of GTP when the stones are at
its points; else a set-up position, ``HA`` kept as metadata), ``AB``/``AW``/``AE`` before the
first move (point lists may be compressed, ``aa:cc``), ``PL``, ``B``/``W`` (a pass is ``B[]``,
or ``B[tt]`` on boards up to 19x19), ``C`` (comments, by move number) and every other
single-valued root property as metadata text (``PB``, ``PW``, ``RE``, ``DT``, ``RU``, ``GN``,
``EV``, ...). Other properties of
move nodes (time left, marks) are checked for syntax and left out. ``RU`` is kept as text: the
rules played are always :mod:`~searchlab.domains.games.go`'s area scoring.

A malformed record raises :class:`SgfFormatError`, one line naming where it breaks as
``FILE:LINE:COLUMN`` and quoting the text there: unbalanced parentheses, a bad property
identifier, an unterminated value, a bad point, a move that is illegal in the record's position,
``GM`` other than 1, ``SZ`` out of 5..19 or not square.

Why not sgfmill (a fine pure-Python SGF library, used by the tests as an independent reader):
its errors carry no position, so every error this module must report with a line and a column
would need a second pass over the text with a tokenizer of our own, which is most of a parser;
and the writer must produce one canonical text for the exact round trip. The FF[4] grammar is
small (``( ; PROP[value] ... )``), so this module reads and writes it itself and the library
needs no package beyond numpy and numba.

>>> record = read_sgf("(;GM[1]FF[4]SZ[9]KM[7.5]PB[Ann]PW[Bob];B[ee];W[ce]C[a \\\\] bracket];B[])")
>>> record.game.size, record.game.komi, record.metadata["PB"], record.comments
(9, 7.5, 'Ann', {2: 'a ] bracket'})
>>> [record.final.action_to_string(a) for a in record.moves]
['E5', 'C5', 'pass']
>>> text = write_sgf(record.final, start=record.start, metadata=record.metadata,
...                  comments=record.comments)
>>> print(text, end="")
(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]PB[Ann]PW[Bob]
;B[ee];W[ce]C[a \\] bracket];B[]
)
>>> write_sgf(read_sgf(text).final, metadata={"PB": "Ann", "PW": "Bob"},
...           comments={2: "a ] bracket"}) == text
True
>>> read_sgf("(;GM[1]SZ[9]\\n;B[ee];W[ee])", source="game.sgf")
Traceback (most recent call last):
...
searchlab.domains.games.sgf.SgfFormatError: game.sgf:2:8: move 2 W[ee] (E5) is illegal: occupied
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from searchlab.core.errors import InvalidParameterError, InvalidStateError, SearchlabError

if TYPE_CHECKING:
    from searchlab.domains.games.go import Go, GoState

__all__ = ["SgfFormatError", "SgfGame", "load_sgf", "read_sgf", "write_sgf"]

Superko = Literal["positional", "situational", "simple"]

MIN_SIZE, MAX_SIZE = 5, 19
"""Board sizes a record may have (those of :class:`~searchlab.domains.games.go.Go`)."""

_TEXT_PROPERTIES = frozenset({"C", "GC"})  # Text: line breaks kept; the rest SimpleText
# Read into the game and its start, not kept as metadata:
_STRUCTURE = frozenset({"GM", "FF", "CA", "SZ", "KM", "HA", "AB", "AW", "AE", "PL", "B", "W", "C"})
_SETUP = ("AB", "AW", "AE", "PL")
_MOVES_PER_LINE = 10


class SgfFormatError(SearchlabError, ValueError):
    """A malformed SGF record, or one whose moves are illegal; the message starts with
    ``FILE:LINE:COLUMN`` (``SGF:LINE:COLUMN`` for text without a file) and quotes the text
    there."""


@dataclass(frozen=True, slots=True)
class SgfGame:
    """A Go game read from SGF: the rules, the states along the main line, the root's metadata.

    Attributes:
        game: the rules (size and komi from ``SZ`` and ``KM``; ``handicap`` from ``HA`` when the
            ``AB`` stones are the fixed handicap points).
        states: the start (``start``) and the state after each move of the main line.
        metadata: single-valued root properties other than the game's own (``PB``, ``PW``,
            ``RE``, ``DT``, ``RU``, ...) in the record's order, as text (escapes resolved).
        comments: ``C`` texts by move number (0: the root and set-up nodes before the first
            move, n: the node of move n).
    """

    game: Go
    states: tuple[GoState, ...]
    metadata: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def start(self) -> GoState:
        """The position before the first move (handicap or set-up stones placed)."""
        return self.states[0]

    @property
    def final(self) -> GoState:
        """The position after the last move of the main line."""
        return self.states[-1]

    @property
    def moves(self) -> tuple[int, ...]:
        """The actions of the main line (pass = ``game.pass_action``)."""
        return tuple(self.final.moves[len(self.start.moves) :])

    def state_at(self, move: int) -> GoState:
        """The position after ``move`` moves (0: the start); a number outside 0..len(moves)
        raises :class:`~searchlab.core.errors.InvalidParameterError` naming the range."""
        if not 0 <= move < len(self.states):
            raise InvalidParameterError(
                f"move {move} is not in the record: it has moves 0..{len(self.states) - 1} "
                "(0 is the start)"
            )
        return self.states[move]


# --- syntax ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Property:
    ident: str
    at: int  # offset of the identifier
    values: list[tuple[str, int]]  # raw value (escapes kept), offset of its '['


@dataclass(slots=True)
class _Node:
    at: int
    properties: dict[str, _Property] = field(default_factory=dict)


@dataclass(slots=True)
class _Tree:
    at: int
    nodes: list[_Node] = field(default_factory=list)
    children: list[_Tree] = field(default_factory=list)


class _Text:
    """The record's text with offsets turned into ``source:line:column`` and quotes."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source or "SGF"
        self._line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r(?!\n)|\n", text)]

    def where(self, offset: int) -> str:
        line = bisect.bisect_right(self._line_starts, offset)
        column = offset - self._line_starts[line - 1] + 1
        return f"{self.source}:{line}:{column}"

    def quote(self, offset: int, length: int = 24) -> str:
        if offset >= len(self.text):
            return "the end of the text"
        piece = self.text[offset : offset + length].split("\n")[0].split("\r")[0]
        more = "..." if offset + len(piece) < len(self.text) and len(piece) == length else ""
        return repr(piece + more)

    def error(self, offset: int, problem: str) -> SgfFormatError:
        return SgfFormatError(f"{self.where(offset)}: {problem}")


def _parse(source: _Text) -> _Tree:
    """The first game tree of the collection (every tree is checked for syntax)."""
    text = source.text
    n = len(text)
    trees: list[_Tree] = []
    stack: list[_Tree] = []
    pos = 0
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos == n:
            break
        char = text[pos]
        if char == "(":
            tree = _Tree(pos)
            if stack:
                parent = stack[-1]
                if not parent.nodes:
                    raise source.error(
                        pos,
                        "a variation needs a node first: '(' before ';' in "
                        + source.quote(parent.at),
                    )
                parent.children.append(tree)
            else:
                trees.append(tree)
            stack.append(tree)
            pos += 1
        elif char == ")":
            if not stack:
                raise source.error(
                    pos, f"unbalanced parentheses: ')' closes nothing: {source.quote(pos)}"
                )
            tree = stack.pop()
            if not tree.nodes:
                raise source.error(tree.at, "empty game tree '()': a tree needs a node ';'")
            pos += 1
        elif char == ";":
            if not stack and trees:
                raise source.error(pos, f"unexpected text after the game: {source.quote(pos)}")
            if not stack:
                raise source.error(
                    pos, f"a node outside a game tree (expected '('): {source.quote(pos)}"
                )
            tree = stack[-1]
            if tree.children:
                raise source.error(
                    pos,
                    f"a node after a variation (nodes come before variations): {source.quote(pos)}",
                )
            node, pos = _parse_node(source, pos)
            tree.nodes.append(node)
        elif not stack and not trees:
            raise source.error(
                pos, f"not SGF: a record starts with '(;', found {source.quote(pos)}"
            )
        elif not stack:
            raise source.error(pos, f"unexpected text after the game: {source.quote(pos)}")
        else:
            raise source.error(
                pos,
                f"bad property identifier {source.quote(pos)} (upper-case letters, then a "
                "value in [])",
            )
    if stack:
        opened = stack[0].at if len(stack) == 1 else stack[-1].at
        raise source.error(
            n,
            f"unbalanced parentheses: the text ends with {len(stack)} game tree(s) open "
            f"('(' at {source.where(opened)} is never closed)",
        )
    if not trees:
        raise source.error(0, "empty record: an SGF game starts with '(;'")
    return trees[0]


def _parse_node(source: _Text, pos: int) -> tuple[_Node, int]:
    """The node whose ';' is at ``pos``, and the offset after it."""
    text = source.text
    n = len(text)
    node = _Node(pos)
    pos += 1
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos == n or text[pos] in ";()":
            return node, pos
        start = pos
        while pos < n and text[pos].isascii() and text[pos].isalpha():
            pos += 1
        ident = text[start:pos]
        if not ident or not ident.isupper():
            raise source.error(
                start,
                f"bad property identifier {source.quote(start, max(pos - start, 1) + 8)} "
                "(upper-case letters, then a value in [])",
            )
        while pos < n and text[pos].isspace():
            pos += 1
        if pos == n or text[pos] != "[":
            raise source.error(
                start, f"property {ident} has no value: {source.quote(start)} (expected '[')"
            )
        if ident in node.properties:
            raise source.error(start, f"property {ident} appears twice in one node")
        prop = _Property(ident, start, [])
        while pos < n and text[pos] == "[":
            opened = pos
            pos += 1
            chars = []
            while True:
                if pos >= n:
                    raise source.error(
                        opened,
                        f"unterminated value: {source.quote(start)} (its '[' is never closed "
                        "by ']')",
                    )
                char = text[pos]
                if char == "]":
                    pos += 1
                    break
                if char == "\\" and pos + 1 < n:
                    chars.append(text[pos : pos + 2])
                    pos += 2
                    continue
                chars.append(char)
                pos += 1
            prop.values.append(("".join(chars), opened))
            while pos < n and text[pos].isspace():
                pos += 1
        node.properties[ident] = prop


_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.DOTALL)
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r|\n")


def _decode_text(raw: str, *, simple: bool) -> str:
    """An SGF Text (or SimpleText) value: escapes resolved, soft line breaks (``\\`` before a
    line break) removed, other white space as spaces, line breaks as ``\\n`` (spaces in
    SimpleText)."""
    parts = []
    last = 0
    for match in _ESCAPE.finditer(raw):
        parts.append(_plain(raw[last : match.start()], simple))
        escaped = match.group(1)
        parts.append("" if _LINE_BREAK.fullmatch(escaped) else _plain(escaped, simple))
        last = match.end()
    parts.append(_plain(raw[last:], simple))
    return "".join(parts)


def _plain(text: str, simple: bool) -> str:
    text = _LINE_BREAK.sub(" " if simple else "\n", text)
    return "".join(" " if c.isspace() and c != "\n" else c for c in text)


def _encode_text(text: str, *, simple: bool) -> str:
    if simple:
        text = _LINE_BREAK.sub(" ", text)
    return text.replace("\\", "\\\\").replace("]", "\\]")


# --- meaning --------------------------------------------------------------------------------


def read_sgf(text: str, *, source: str | None = None, superko: Superko = "positional") -> SgfGame:
    """Read a Go game from SGF text (the first game of a collection, its main line).

    ``source`` names the text in error messages (a file name); ``superko`` is the rule the
    moves are checked against (see :class:`~searchlab.domains.games.go.Go`). Raises
    :class:`SgfFormatError` (see the module docstring).
    """
    where = _Text(text.removeprefix("\ufeff"), source)
    tree = _parse(where)
    nodes = list(tree.nodes)
    while tree.children:
        tree = tree.children[0]
        nodes.extend(tree.nodes)
    return _replay(where, nodes, superko)


def load_sgf(path: str | Path, *, superko: Superko = "positional") -> SgfGame:
    """Read the SGF file at ``path``: its ``CA`` charset (UTF-8 when absent and the bytes are
    UTF-8, else ISO-8859-1 as FF[4] says), errors named by the file. A missing file raises
    :class:`FileNotFoundError`."""
    data = Path(path).read_bytes()
    return read_sgf(_decode(data, str(path)), source=str(path), superko=superko)


def _decode(data: bytes, source: str) -> str:
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    charset = re.search(rb"CA\s*\[([^\]]*)\]", data)
    if charset is not None:
        name = charset.group(1).decode("ascii", "replace").strip()
        try:
            return data.decode(name)
        except LookupError:
            raise SgfFormatError(f"{source}: unknown charset CA[{name}]") from None
        except UnicodeDecodeError as error:
            raise SgfFormatError(
                f"{source}: the text is not {name} as CA[{name}] says (byte {error.start})"
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _one(where: _Text, prop: _Property) -> tuple[str, int]:
    if len(prop.values) != 1:
        raise where.error(prop.at, f"property {prop.ident} takes one value, got {len(prop.values)}")
    return prop.values[0]


def _number(where: _Text, prop: _Property, kind: type[int] | type[float]) -> tuple[float, int]:
    raw, at = _one(where, prop)
    try:
        value = kind(raw.strip())
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise where.error(at, f"{prop.ident}[{raw}]: expected {noun}") from None
    return value, at


def _point(where: _Text, raw: str, at: int, size: int, ident: str) -> int:
    """The point of SGF coordinates ``raw`` (``aa`` top left) on a ``size`` board."""
    letters = "abcdefghijklmnopqrs"[:size]
    if len(raw) != 2 or raw[0] not in letters or raw[1] not in letters:
        raise where.error(
            at,
            f"bad point {raw!r} in {ident}[{raw}] (on a {size}x{size} board two letters "
            f"a..{letters[-1]}, column then row from the top)",
        )
    column, row_from_top = letters.index(raw[0]), letters.index(raw[1])
    return (size - 1 - row_from_top) * size + column


def _points(where: _Text, prop: _Property, size: int) -> list[int]:
    points: list[int] = []
    for raw, at in prop.values:
        if ":" in raw:  # a compressed rectangle: upper left : lower right
            first, _, second = raw.partition(":")
            a = _point(where, first, at, size, prop.ident)
            b = _point(where, second, at, size, prop.ident)
            rows = sorted((a // size, b // size))
            cols = sorted((a % size, b % size))
            points.extend(
                r * size + c
                for r in range(rows[0], rows[1] + 1)
                for c in range(cols[0], cols[1] + 1)
            )
        else:
            points.append(_point(where, raw, at, size, prop.ident))
    return points


def _root_game(where: _Text, root: _Node) -> tuple[int, float, int]:
    """Size, komi and handicap of the root, checked."""
    props = root.properties
    if "GM" in props:
        raw, at = _one(where, props["GM"])
        if raw.strip() != "1":
            raise where.error(at, f"GM[{raw}] is not a Go record (Go is GM[1])")
    if "FF" in props:
        version, at = _number(where, props["FF"], int)
        if not 1 <= version <= 4:
            raise where.error(at, f"FF[{int(version)}]: unknown SGF version (1..4)")
    size = 19
    if "SZ" in props:
        raw, at = _one(where, props["SZ"])
        columns, _, rows = raw.partition(":")
        try:
            dims = [int(columns), int(rows or columns)]
        except ValueError:
            raise where.error(at, f"SZ[{raw}]: expected a board size like SZ[9]") from None
        if dims[0] != dims[1]:
            raise where.error(at, f"SZ[{raw}]: the board is not square ({dims[0]}x{dims[1]})")
        size = dims[0]
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise where.error(
                at,
                f"SZ[{raw}]: board size out of range (Go here is {MIN_SIZE}x{MIN_SIZE} "
                f"to {MAX_SIZE}x{MAX_SIZE})",
            )
    komi = 0.0
    if "KM" in props:
        komi = float(_number(where, props["KM"], float)[0])
    handicap = 0
    if "HA" in props:
        handicap = int(_number(where, props["HA"], int)[0])
    return size, komi, handicap


def _replay(where: _Text, nodes: list[_Node], superko: Superko) -> SgfGame:
    root = nodes[0]
    size, komi, handicap = _root_game(where, root)
    comments: dict[int, str] = {}
    # Set-up: every node before the first move.
    black: set[int] = set()
    white: set[int] = set()
    to_move: int | None = None
    first = 0
    for first, node in enumerate(nodes):  # noqa: B007 - first is used after the loop
        props = node.properties
        if "B" in props or "W" in props:
            break
        _setup(where, node, size, black, white)
        if "PL" in props:
            to_move = _colour(where, props["PL"])
        _comment(node, 0, comments)
    else:
        first = len(nodes)
    move_nodes = nodes[first:]
    if to_move is None:
        if move_nodes:
            to_move = 0 if "B" in move_nodes[0].properties else 1
        else:
            to_move = 1 if handicap >= 2 and black and not white else 0
    try:
        game, start = _start(size, komi, handicap, superko, black, white, to_move)
    except InvalidParameterError as error:  # komi (the size is checked above) or superko
        at = root.properties["KM"].at if "KM" in root.properties else root.at
        raise where.error(at, str(error)) from None
    except InvalidStateError as error:  # set-up stones without liberties
        raise where.error(root.at, str(error)) from None
    metadata: dict[str, str] = {}
    for ident, prop in root.properties.items():
        kept = ident not in _STRUCTURE or (ident == "HA" and not game.handicap)  # free handicap
        if kept and len(prop.values) == 1:
            metadata[ident] = _decode_text(prop.values[0][0], simple=ident not in _TEXT_PROPERTIES)
    states = [start]
    state = start
    for number, node in enumerate(move_nodes, start=1):
        state = _move(where, node, number, state, size, game.pass_action)
        states.append(state)
        _comment(node, number, comments)
    return SgfGame(game, tuple(states), metadata, comments)


def _setup(where: _Text, node: _Node, size: int, black: set[int], white: set[int]) -> None:
    props = node.properties
    for ident, stones, other in (("AB", black, white), ("AW", white, black)):
        if ident in props:
            for point in _points(where, props[ident], size):
                if point in other:
                    raise where.error(
                        props[ident].at, f"{ident}: a point is set up for both colours"
                    )
                stones.add(point)
    if "AE" in props:
        for point in _points(where, props["AE"], size):
            black.discard(point)
            white.discard(point)


def _colour(where: _Text, prop: _Property) -> int:
    raw, at = _one(where, prop)
    colour = raw.strip().upper()
    if colour not in ("B", "W"):
        raise where.error(at, f"{prop.ident}[{raw}]: expected B or W")
    return 0 if colour == "B" else 1


def _comment(node: _Node, number: int, comments: dict[int, str]) -> None:
    if "C" in node.properties:
        text = _decode_text(node.properties["C"].values[0][0], simple=False)
        comments[number] = f"{comments[number]}\n{text}" if number in comments else text


def _start(
    size: int,
    komi: float,
    handicap: int,
    superko: Superko,
    black: set[int],
    white: set[int],
    to_move: int,
) -> tuple[Go, GoState]:
    """The rules and the position before the first move: the fixed handicap of ``HA`` when the
    ``AB`` stones are its points, else the set-up stones on an even game."""
    from searchlab.domains.games.go import Go, max_handicap

    game = Go(size, komi, superko=superko)
    if 2 <= handicap <= max_handicap(size) and not white and to_move == 1:
        fixed = Go(size, komi, superko=superko, handicap=handicap)
        if set(fixed.handicap_stones) == black:
            return fixed, fixed.initial_state()
    if not black and not white and to_move == 0:
        return game, game.initial_state()
    return game, game.position(black=sorted(black), white=sorted(white), to_move=to_move)


def _move(
    where: _Text, node: _Node, number: int, state: GoState, size: int, pass_action: int
) -> GoState:
    props = node.properties
    if "B" in props and "W" in props:
        raise where.error(node.at, f"move {number}: one node holds both B and W")
    for ident in _SETUP:
        if ident in props:
            raise where.error(
                props[ident].at,
                f"{ident} after the first move: set-up in the middle of a game is not supported",
            )
    if "B" not in props and "W" not in props:
        return state
    ident = "B" if "B" in props else "W"
    raw, at = _one(where, props[ident])
    colour = 0 if ident == "B" else 1
    if raw == "" or (raw == "tt" and size <= 19):
        action = pass_action
    else:
        action = _point(where, raw, at, size, ident)
    written = f"{ident}[{raw}]"
    if state.is_terminal():
        raise where.error(
            props[ident].at, f"move {number} {written}: the game is already over before it"
        )
    if colour != state.to_move:
        names = ("Black", "White")
        raise where.error(
            props[ident].at,
            f"move {number} {written}: {names[state.to_move]} is to play (two moves in a row "
            f"by {names[colour]}; a pass must come between)",
        )
    reason = state.illegal_reason(action)
    if reason is not None:
        raise where.error(
            props[ident].at,
            f"move {number} {written} ({state.action_to_string(action)}) is illegal: {reason}",
        )
    return state.apply(action)


# --- writing --------------------------------------------------------------------------------


def _sgf_point(point: int, size: int) -> str:
    row, column = divmod(point, size)
    return "abcdefghijklmnopqrs"[column] + "abcdefghijklmnopqrs"[size - 1 - row]


def write_sgf(
    state: GoState,
    *,
    start: GoState | None = None,
    metadata: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
) -> str:
    """The SGF record of the game from ``start`` (default: the game's initial state, handicap
    stones included) to ``state``.

    ``metadata`` adds root properties (``PB``, ``PW``, ``RE``, ``DT``, ``RU``, ...; keys are
    SGF property identifiers) in its order; ``comments`` maps move numbers to ``C`` texts (0:
    the root). ``state`` must be reached from ``start`` by its ``moves``, else
    :class:`~searchlab.core.errors.InvalidParameterError`.
    """
    game = state.game
    if start is None:
        start = game.initial_state()
    done = len(start.moves)
    if tuple(state.moves[:done]) != tuple(start.moves) or start.game != game:
        raise InvalidParameterError("write_sgf: the state does not follow from start")
    moves = state.moves[done:]
    replayed = start
    for action in moves:
        replayed = replayed.apply(action)
    if replayed.board != state.board:
        raise InvalidParameterError("write_sgf: the state's moves from start do not reach it")
    size = game.size
    root = ["GM[1]", "FF[4]", "CA[UTF-8]", f"SZ[{size}]", f"KM[{game.komi:g}]"]
    handicap = getattr(game, "handicap", 0)
    if handicap >= 2:
        root.append(f"HA[{handicap}]")
    for ident, value in (metadata or {}).items():
        if not (ident.isascii() and ident.isalpha() and ident.isupper()):
            raise InvalidParameterError(f"write_sgf: bad property identifier {ident!r}")
        if ident in _STRUCTURE and not (ident == "HA" and handicap < 2):
            raise InvalidParameterError(
                f"write_sgf: {ident} is written from the game, not from metadata"
            )
        simple = ident not in _TEXT_PROPERTIES
        root.append(f"{ident}[{_encode_text(str(value), simple=simple)}]")
    initial = game.initial_state()
    if start.board != initial.board or start.to_move != initial.to_move or handicap >= 2:
        for ident, colour in (("AB", 1), ("AW", 2)):
            stones = [_sgf_point(p, size) for p, c in enumerate(start.board) if c == colour]
            if stones:
                root.append(ident + "".join(f"[{s}]" for s in stones))
        root.append(f"PL[{'BW'[start.to_move]}]")
    notes = dict(comments or {})
    if 0 in notes:
        root.append(f"C[{_encode_text(notes.pop(0), simple=False)}]")
    lines = ["(;" + "".join(root)]
    nodes = []
    position = start
    for number, action in enumerate(moves, start=1):
        mover = "BW"[position.to_move]
        value = "" if action == game.pass_action else _sgf_point(action, size)
        node = f";{mover}[{value}]"
        if number in notes:
            node += f"C[{_encode_text(notes.pop(number), simple=False)}]"
        nodes.append(node)
        position = position.apply(action)
    if notes:
        raise InvalidParameterError(
            f"write_sgf: comments for moves {sorted(notes)} but the game has {len(moves)} moves"
        )
    for first in range(0, len(nodes), _MOVES_PER_LINE):
        lines.append("".join(nodes[first : first + _MOVES_PER_LINE]))
    return "\n".join(lines) + "\n)\n"
