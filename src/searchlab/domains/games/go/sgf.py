"""SGF (FF[4]) game records of Go: the Go builder on the SGF parser, and the Go writer.

The format itself, for any game, is :mod:`~searchlab.domains.games.sgf_syntax` (the parser,
which drives a visitor) and :mod:`~searchlab.domains.games.sgf_tree` (the game tree with its
variations and comments, and its writer); this module gives the tree its meaning in Go.
:func:`read_sgf` parses a record into its tree and replays the main line (the first variation
at every branch) through the rules of :mod:`searchlab.domains.games.go`;
:func:`replay_sgf_line` replays any other line of the tree; :func:`write_sgf` writes a game
from its start to a state. Reading what :func:`write_sgf` wrote and writing it again gives the
same text, byte for byte.

Properties read: ``GM`` (must be 1, Go), ``FF`` (1..4), ``SZ`` (5..19, square), ``KM``
(komi; 0 when absent), ``HA`` with ``AB`` (the fixed handicap of GTP when the stones are at
its points; else a set-up position, ``HA`` kept as metadata), ``AB``/``AW``/``AE`` before the
first move (point lists may be compressed, ``aa:cc``), ``PL``, ``B``/``W`` (a pass is ``B[]``,
or ``B[tt]`` on boards up to 19x19), ``C`` (comments, by move number) and every other
single-valued root property as metadata text (``PB``, ``PW``, ``RE``, ``DT``, ``RU``, ``GN``,
``EV``, ...). Other properties of move nodes (time left, marks) stay in the tree
(:attr:`SgfGame.tree`). ``RU`` is kept as text: the rules played are always
:mod:`~searchlab.domains.games.go`'s area scoring.

A malformed record raises :class:`SgfFormatError`, one line naming where it breaks as
``FILE:LINE:COLUMN`` and quoting the text there: the syntax errors of
:func:`~searchlab.domains.games.sgf_syntax.visit_sgf`, and here a bad point, a move that is
illegal in the record's position, ``GM`` other than 1, ``SZ`` out of 5..19 or not square.

Why not sgfmill (a fine pure-Python SGF library, used by the tests as an independent reader):
its errors carry no position, so every error this module must report with a line and a column
would need a second pass over the text with a tokenizer of our own, which is most of a parser;
and the writer must produce one canonical text for the exact round trip. The FF[4] grammar is
small (``( ; PROP[value] ... )``), so searchlab reads and writes it itself and the library
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
searchlab.domains.games.sgf_syntax.SgfFormatError: game.sgf:2:8: move 2 W[ee] (E5) is \
illegal: occupied
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.domains.games.sgf_syntax import (
    TEXT_PROPERTIES,
    SgfFormatError,
    SgfSource,
    decode_sgf_bytes,
    decode_text,
    visit_sgf,
)
from searchlab.domains.games.sgf_tree import SgfNode, SgfTreeBuilder, write_sgf_tree

if TYPE_CHECKING:
    from searchlab.domains.games.go import Go, GoState

__all__ = [
    "SgfFormatError",
    "SgfGame",
    "load_sgf",
    "read_sgf",
    "replay_sgf_line",
    "sgf_tree_of_game",
    "write_sgf",
]

Superko = Literal["positional", "situational", "simple"]

MIN_SIZE, MAX_SIZE = 5, 19
"""Board sizes a record may have (those of :class:`~searchlab.domains.games.go.Go`)."""

# Read into the game and its start, not kept as metadata:
_STRUCTURE = frozenset({"GM", "FF", "CA", "SZ", "KM", "HA", "AB", "AW", "AE", "PL", "B", "W", "C"})
_SETUP = ("AB", "AW", "AE", "PL")


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
        tree: the record's game tree (its root: variations and every property kept; see
            :mod:`~searchlab.domains.games.sgf_tree`), None for a game not read from SGF.
    """

    game: Go
    states: tuple[GoState, ...]
    metadata: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    tree: SgfNode | None = field(default=None, compare=False, repr=False)

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


# --- meaning --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Property:
    ident: str
    at: int  # offset of the identifier
    values: list[tuple[str, int]]  # raw value, offset of its '['


@dataclass(frozen=True, slots=True)
class _Node:
    at: int
    properties: dict[str, _Property]


def _view(node: SgfNode) -> _Node:
    """A node with each value beside its place in the text (the node's own for a node made in
    code)."""
    properties = {}
    for ident, values in node.properties.items():
        places = node.positions.get(ident, ())
        if len(places) != len(values) + 1:
            places = (node.at,) * (len(values) + 1)
        properties[ident] = _Property(ident, places[0], list(zip(values, places[1:], strict=True)))
    return _Node(node.at, properties)


class _FirstGame(SgfTreeBuilder):
    """The tree of the first game; the others are checked for syntax only."""

    def begin_game(self, at: int) -> bool:
        return not self.games and super().begin_game(at)


def read_sgf(text: str, *, source: str | None = None, superko: Superko = "positional") -> SgfGame:
    """Read a Go game from SGF text (the first game of a collection, its main line).

    ``source`` names the text in error messages (a file name); ``superko`` is the rule the
    moves are checked against (see :class:`~searchlab.domains.games.go.Go`). Every game of the
    collection is checked for syntax. Raises :class:`SgfFormatError` (see the module
    docstring).
    """
    where = SgfSource(text, source)
    builder = _FirstGame()
    visit_sgf(where, builder)
    root = builder.games[0]
    return _replay(where, root.main_line(), superko, root)


def replay_sgf_line(
    line: Sequence[SgfNode],
    *,
    source: SgfSource | None = None,
    superko: Superko = "positional",
) -> SgfGame:
    """The Go game along ``line``, nodes of an SGF tree from its root (``line[0]``) down, as
    :meth:`~searchlab.domains.games.sgf_tree.SgfNode.lines` gives them: a variation replayed
    through the rules as :func:`read_sgf` replays the main line. ``source`` is the text the
    nodes were read from, for the places in errors (without it, errors name ``SGF``).

    >>> from searchlab.domains.games.sgf_tree import parse_sgf
    >>> root = parse_sgf("(;SZ[9];B[ee](;W[cc])(;W[gg]C[the other answer]))")[0]
    >>> for line in root.lines():
    ...     game = replay_sgf_line(line)
    ...     print([game.final.action_to_string(a) for a in game.moves], repr(line[-1].comment))
    ['E5', 'C7'] ''
    ['E5', 'G3'] 'the other answer'
    """
    if not line:
        raise InvalidParameterError("replay_sgf_line: the line has no node (its root first)")
    return _replay(source or SgfSource(""), list(line), superko, line[0])


def load_sgf(path: str | Path, *, superko: Superko = "positional") -> SgfGame:
    """Read the SGF file at ``path``: its ``CA`` charset (UTF-8 when absent and the bytes are
    UTF-8, else ISO-8859-1 as FF[4] says), errors named by the file. A missing file raises
    :class:`FileNotFoundError`."""
    data = Path(path).read_bytes()
    return read_sgf(decode_sgf_bytes(data, str(path)), source=str(path), superko=superko)


def _one(where: SgfSource, prop: _Property) -> tuple[str, int]:
    if len(prop.values) != 1:
        raise where.error(prop.at, f"property {prop.ident} takes one value, got {len(prop.values)}")
    return prop.values[0]


def _number(where: SgfSource, prop: _Property, kind: type[int] | type[float]) -> tuple[float, int]:
    raw, at = _one(where, prop)
    try:
        value = kind(raw.strip())
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise where.error(at, f"{prop.ident}[{raw}]: expected {noun}") from None
    return value, at


def _point(where: SgfSource, raw: str, at: int, size: int, ident: str) -> int:
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


def _points(where: SgfSource, prop: _Property, size: int) -> list[int]:
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


def _root_game(where: SgfSource, root: _Node) -> tuple[int, float, int]:
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


def _replay(where: SgfSource, line: list[SgfNode], superko: Superko, tree: SgfNode) -> SgfGame:
    nodes = [_view(node) for node in line]
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
            metadata[ident] = decode_text(prop.values[0][0], simple=ident not in TEXT_PROPERTIES)
    states = [start]
    state = start
    for number, node in enumerate(move_nodes, start=1):
        state = _move(where, node, number, state, size, game.pass_action)
        states.append(state)
        _comment(node, number, comments)
    return SgfGame(game, tuple(states), metadata, comments, tree)


def _setup(where: SgfSource, node: _Node, size: int, black: set[int], white: set[int]) -> None:
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


def _colour(where: SgfSource, prop: _Property) -> int:
    raw, at = _one(where, prop)
    colour = raw.strip().upper()
    if colour not in ("B", "W"):
        raise where.error(at, f"{prop.ident}[{raw}]: expected B or W")
    return 0 if colour == "B" else 1


def _comment(node: _Node, number: int, comments: dict[int, str]) -> None:
    if "C" in node.properties:
        text = decode_text(node.properties["C"].values[0][0], simple=False)
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
    where: SgfSource, node: _Node, number: int, state: GoState, size: int, pass_action: int
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
    stones included) to ``state``: :func:`sgf_tree_of_game` written by
    :func:`~searchlab.domains.games.sgf_tree.write_sgf_tree` (one fixed text; reading it and
    writing it again gives the same bytes). Arguments and errors as :func:`sgf_tree_of_game`.
    """
    tree = sgf_tree_of_game(state, start=start, metadata=metadata, comments=comments)
    return write_sgf_tree(tree)


def sgf_tree_of_game(
    state: GoState,
    *,
    start: GoState | None = None,
    metadata: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
) -> SgfNode:
    """The SGF game tree (its root) of the game from ``start`` (default: the game's initial
    state, handicap stones included) to ``state``: the root with the game's properties, then
    one node a move; add variations to it with
    :meth:`~searchlab.domains.games.sgf_tree.SgfNode.add_child`.

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
    root = SgfNode()
    for ident, value in (("GM", "1"), ("FF", "4"), ("CA", "UTF-8"), ("SZ", str(size))):
        root.set(ident, [value])
    root.set("KM", [f"{game.komi:g}"])
    handicap = getattr(game, "handicap", 0)
    if handicap >= 2:
        root.set("HA", [str(handicap)])
    for ident, value in (metadata or {}).items():
        if not (ident.isascii() and ident.isalpha() and ident.isupper()):
            raise InvalidParameterError(f"write_sgf: bad property identifier {ident!r}")
        if ident in _STRUCTURE and not (ident == "HA" and handicap < 2):
            raise InvalidParameterError(
                f"write_sgf: {ident} is written from the game, not from metadata"
            )
        root.set_text(ident, str(value))
    initial = game.initial_state()
    if start.board != initial.board or start.to_move != initial.to_move or handicap >= 2:
        for ident, colour in (("AB", 1), ("AW", 2)):
            stones = [_sgf_point(p, size) for p, c in enumerate(start.board) if c == colour]
            if stones:
                root.set(ident, stones)
        root.set("PL", ["BW"[start.to_move]])
    notes = dict(comments or {})
    if 0 in notes:
        root.set_text("C", notes.pop(0))
    node = root
    position = start
    for number, action in enumerate(moves, start=1):
        mover = "BW"[position.to_move]
        node = node.add_child(
            {mover: ["" if action == game.pass_action else _sgf_point(action, size)]}
        )
        if number in notes:
            node.set_text("C", notes.pop(number))
        position = position.apply(action)
    if notes:
        raise InvalidParameterError(
            f"write_sgf: comments for moves {sorted(notes)} but the game has {len(moves)} moves"
        )
    return root
