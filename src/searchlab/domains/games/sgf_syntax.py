"""The SGF (FF[4]) grammar, for any game: one parser that reads the text once and drives a
visitor, the text values (escapes, soft line breaks) and the file's charset.

An SGF collection is one or more game trees; a game tree is ``(`` a sequence of nodes ``;``,
then its variations, each a game tree ``( ... )``; a node is properties ``IDENT[value][value]``.
:func:`visit_sgf` reads that and calls a :class:`SgfVisitor` in the order of the text, like
python-chess's ``pgn.py`` drives its visitors: the game tree of
:mod:`~searchlab.domains.games.sgf_tree` and the Go game of :mod:`~searchlab.domains.games.go.sgf`
are two such builders. Nothing here knows a game's rules: ``B[ee]`` is the identifier ``B``
with the raw value ``ee``.

Values are passed raw, as written between ``[`` and ``]`` (escapes ``\\]`` and ``\\\\`` and line
breaks kept), since what an escape means depends on the property's type; :func:`decode_text`
reads a Text or SimpleText value, :func:`encode_text` writes one.

Property identifiers are upper-case letters; lower-case letters among them (FF[3]'s
``AddBlack``) are dropped, as FF[4] asks of a reader. A malformed text raises
:class:`SgfFormatError`, one line starting ``FILE:LINE:COLUMN`` that quotes the text there:
unbalanced parentheses, a node outside a game tree or after a variation, an empty game tree, a
bad identifier, a property without a value or twice in a node, an unterminated value, text
after the last game.

>>> class Moves(SgfVisitor):
...     def __init__(self) -> None:
...         self.seen: list[str] = []
...     def visit_property(self, ident, values, at, value_at):
...         if ident in ("B", "W"):
...             self.seen.append(f"{ident}{values[0]}")
...     def begin_variation(self, at):
...         self.seen.append("(")
...         return True
...     def end_variation(self):
...         self.seen.append(")")
>>> moves = Moves()
>>> visit_sgf(SgfSource("(;GM[1];B[ee](;W[cc])(;W[gg];B[cc]))"), moves)
>>> " ".join(moves.seen)
'Bee ( Wcc ) ( Wgg Bcc )'
>>> decode_text("a \\\\] bracket, a soft\\\\\\nbreak")
'a ] bracket, a softbreak'
>>> visit_sgf(SgfSource("(;GM[1]\\n;B[ee]", "game.sgf"), SgfVisitor())
Traceback (most recent call last):
...
searchlab.domains.games.sgf_syntax.SgfFormatError: game.sgf:2:7: unbalanced parentheses: \
the text ends with 1 game tree(s) open ('(' at game.sgf:1:1 is never closed)
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass

from searchlab.core.errors import SearchlabError

__all__ = [
    "SgfFormatError",
    "SgfSource",
    "SgfVisitor",
    "decode_sgf_bytes",
    "decode_text",
    "encode_text",
    "visit_sgf",
]

_SPACE = frozenset(" \t\n\r\x0b\x0c")
"""White space between tokens, and turned into spaces in text: ASCII's only (a no-break space
in a name stays one)."""

TEXT_PROPERTIES = frozenset({"C", "GC"})
"""The FF[4] properties of type Text (line breaks kept); the other text is SimpleText."""


class SgfFormatError(SearchlabError, ValueError):
    """A malformed SGF record, or one whose moves are illegal; the message starts with
    ``FILE:LINE:COLUMN`` (``SGF:LINE:COLUMN`` for text without a file) and quotes the text
    there."""


class SgfSource:
    """An SGF text and its name, turning offsets into ``NAME:LINE:COLUMN`` and quotes.

    ``name`` names the text in error messages (a file name; ``SGF`` when None). Offsets are
    indices into ``text``; one outside it (a node made in code, not read) is the name alone.
    A leading byte order mark is dropped.

    >>> SgfSource("(;GM[1]\\n;B[ee])", "a.sgf").where(9)
    'a.sgf:2:2'
    """

    def __init__(self, text: str, name: str | None = None) -> None:
        self.text = text.removeprefix("\ufeff")
        self.name = name or "SGF"
        self._line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r(?!\n)|\n", self.text)]

    def where(self, offset: int) -> str:
        """``NAME:LINE:COLUMN`` of ``offset`` (lines and columns from 1)."""
        if offset < 0 or offset > len(self.text):  # made in code, or read from another text
            return self.name
        line = bisect.bisect_right(self._line_starts, offset)
        column = offset - self._line_starts[line - 1] + 1
        return f"{self.name}:{line}:{column}"

    def quote(self, offset: int, length: int = 24) -> str:
        """The text at ``offset`` (up to ``length`` characters of its line), quoted."""
        if offset >= len(self.text):
            return "the end of the text"
        piece = self.text[offset : offset + length].split("\n")[0].split("\r")[0]
        more = "..." if offset + len(piece) < len(self.text) and len(piece) == length else ""
        return repr(piece + more)

    def error(self, offset: int, problem: str) -> SgfFormatError:
        """The error ``WHERE: problem`` for ``offset`` (to raise)."""
        return SgfFormatError(f"{self.where(offset)}: {problem}")


class SgfVisitor:
    """What :func:`visit_sgf` calls, in the order of the text; every method does nothing here.

    For each game tree of the collection: ``begin_game``, then for each node ``begin_node`` and
    ``visit_property`` for each of its properties; a variation (a nested ``( ... )``, the
    first of them the main line's continuation) is ``begin_variation`` ... ``end_variation``;
    the game ends with ``end_game``. ``at`` arguments are offsets into the text (see
    :class:`SgfSource`). ``begin_game`` and ``begin_variation`` return whether to visit what
    they open: False skips it (its syntax is still checked) and its ``end_`` call.
    """

    def begin_game(self, at: int) -> bool:
        """A game tree starts at ``at`` (its ``(``); False skips the game."""
        return True

    def begin_node(self, at: int) -> None:
        """A node starts at ``at`` (its ``;``); it follows the previous node of the game."""

    def visit_property(
        self, ident: str, values: Sequence[str], at: int, value_at: Sequence[int]
    ) -> None:
        """A property of the current node: ``values`` raw (escapes and line breaks as
        written), ``at`` the identifier's offset, ``value_at`` each value's ``[``."""

    def begin_variation(self, at: int) -> bool:
        """A variation of the current node starts at ``at`` (its ``(``); False skips it."""
        return True

    def end_variation(self) -> None:
        """The variation ends; the current node is again the one it branched from."""

    def end_game(self) -> None:
        """The game tree ends."""


@dataclass(slots=True)
class _OpenTree:
    """A game tree whose ')' is still to come."""

    at: int  # offset of its '('
    shown: bool  # whether the visitor sees what is inside
    has_nodes: bool = False
    has_variations: bool = False


def visit_sgf(source: SgfSource, visitor: SgfVisitor) -> None:
    """Parse the collection in ``source`` once, calling ``visitor`` (see :class:`SgfVisitor`).

    Raises :class:`SgfFormatError` at the first malformed place (the visitor has seen the
    text before it); a text without a game tree is an error.
    """
    text = source.text
    n = len(text)
    stack: list[_OpenTree] = []
    games = 0
    pos = 0
    while True:
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos == n:
            break
        char = text[pos]
        visiting = not stack or stack[-1].shown
        if char == "(":
            if stack:
                parent = stack[-1]
                if not parent.has_nodes:
                    raise source.error(
                        pos,
                        "a variation needs a node first: '(' before ';' in "
                        + source.quote(parent.at),
                    )
                parent.has_variations = True
                shown = visiting and visitor.begin_variation(pos)
            else:
                games += 1
                shown = visitor.begin_game(pos)
            stack.append(_OpenTree(pos, shown))
            pos += 1
        elif char == ")":
            if not stack:
                raise source.error(
                    pos, f"unbalanced parentheses: ')' closes nothing: {source.quote(pos)}"
                )
            closed = stack.pop()
            if not closed.has_nodes:
                raise source.error(closed.at, "empty game tree '()': a tree needs a node ';'")
            if closed.shown:
                if stack:
                    visitor.end_variation()
                else:
                    visitor.end_game()
            pos += 1
        elif char == ";":
            if not stack:
                if games:
                    raise source.error(pos, f"unexpected text after the game: {source.quote(pos)}")
                raise source.error(
                    pos, f"a node outside a game tree (expected '('): {source.quote(pos)}"
                )
            tree = stack[-1]
            if tree.has_variations:
                raise source.error(
                    pos,
                    f"a node after a variation (nodes come before variations): {source.quote(pos)}",
                )
            tree.has_nodes = True
            pos = _node(source, pos, visitor if visiting else None)
        elif not stack and not games:
            raise source.error(
                pos, f"not SGF: a record starts with '(;', found {source.quote(pos)}"
            )
        elif not stack:
            raise source.error(pos, f"unexpected text after the game: {source.quote(pos)}")
        elif char.isascii() and char.isalpha():
            raise source.error(
                pos, f"a property outside a node: ';' is missing before {source.quote(pos)}"
            )
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
    if not games:
        raise source.error(0, "empty record: an SGF game starts with '(;'")


def _node(source: SgfSource, pos: int, visitor: SgfVisitor | None) -> int:
    """Read the node whose ';' is at ``pos``, telling ``visitor``; the offset after it."""
    text = source.text
    n = len(text)
    if visitor is not None:
        visitor.begin_node(pos)
    seen: set[str] = set()
    pos += 1
    while True:
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos == n or text[pos] in ";()":
            return pos
        start = pos
        while pos < n and text[pos].isascii() and text[pos].isalpha():
            pos += 1
        written = text[start:pos]
        ident = "".join(c for c in written if c.isupper())
        if not ident:
            raise source.error(
                start,
                f"bad property identifier {source.quote(start, max(pos - start, 1) + 8)} "
                "(upper-case letters, then a value in [])",
            )
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos == n or text[pos] != "[":
            raise source.error(
                start, f"property {written} has no value: {source.quote(start)} (expected '[')"
            )
        if ident in seen:
            raise source.error(start, f"property {ident} appears twice in one node")
        seen.add(ident)
        values: list[str] = []
        value_at: list[int] = []
        while pos < n and text[pos] == "[":
            opened = pos
            end = _value_end(text, pos + 1)
            if end < 0:
                raise source.error(
                    opened,
                    f"unterminated value: {source.quote(start)} (its '[' is never closed by ']')",
                )
            values.append(text[pos + 1 : end])
            value_at.append(opened)
            pos = end + 1
            while pos < n and text[pos] in _SPACE:
                pos += 1
        if visitor is not None:
            visitor.visit_property(ident, values, start, value_at)


def _value_end(text: str, pos: int) -> int:
    """The offset of the ``]`` that ends the value starting at ``pos`` (-1: none)."""
    while True:
        close = text.find("]", pos)
        if close < 0:
            return -1
        backslashes = 0
        while text[close - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return close
        pos = close + 1


_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.DOTALL)
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r|\n")


def decode_text(raw: str, *, simple: bool = False) -> str:
    """A raw Text value read: escapes resolved (``\\]`` is ``]``, ``\\\\`` is ``\\``), soft
    line breaks (``\\`` before a line break) removed, other white space as spaces, line breaks
    as ``\\n``; ``simple`` (SimpleText, e.g. ``PB``): line breaks as spaces too."""
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
    return "".join(" " if c in _SPACE and c != "\n" else c for c in text)


def encode_text(text: str, *, simple: bool = False) -> str:
    """``text`` as a raw Text value (``\\`` and ``]`` escaped; ``simple``: line breaks as
    spaces); :func:`decode_text` reads it back."""
    if simple:
        text = _LINE_BREAK.sub(" ", text)
    return text.replace("\\", "\\\\").replace("]", "\\]")


def decode_sgf_bytes(data: bytes, name: str) -> str:
    """The text of an SGF file's bytes: its ``CA`` charset, else UTF-8 when the bytes are
    UTF-8, else ISO-8859-1 as FF[4] says (a UTF-8 byte order mark dropped). An unknown charset
    or bytes that are not what ``CA`` says raise :class:`SgfFormatError` naming ``name``."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    charset = re.search(rb"CA\s*\[([^\]]*)\]", data)
    if charset is not None:
        label = charset.group(1).decode("ascii", "replace").strip()
        try:
            return data.decode(label)
        except LookupError:
            raise SgfFormatError(f"{name}: unknown charset CA[{label}]") from None
        except UnicodeDecodeError as error:
            raise SgfFormatError(
                f"{name}: the text is not {label} as CA[{label}] says (byte {error.start})"
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")
