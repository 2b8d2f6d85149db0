"""SGF game trees, for any game: nodes with their properties and variations, read with
:func:`parse_sgf` (a builder on :func:`~searchlab.domains.games.sgf_syntax.visit_sgf`) and
written with :func:`write_sgf_tree`.

A node's properties map identifiers to raw values (escapes as written; :meth:`SgfNode.text`
reads a text value); its children are the variations that follow it, the first one the main
line. Writing a tree and parsing the text gives the same tree (:meth:`SgfNode.same_tree`); the
text is one canonical layout: the root on its line, then ten nodes a line, each variation from
a new line in its own parentheses. Nothing here knows a game's rules (Go's are in
:mod:`~searchlab.domains.games.go.sgf`).

>>> games = parse_sgf("(;GM[1]SZ[9]C[start \\\\] here];B[ee](;W[cc];B[gg])(;W[gg]C[better]))")
>>> root = games[0]
>>> root.comment, root.children[0].properties
('start ] here', {'B': ['ee']})
>>> [[node.properties for node in line[1:]] for line in root.lines()]
[[{'B': ['ee']}, {'W': ['cc']}, {'B': ['gg']}], [{'B': ['ee']}, {'W': ['gg'], 'C': ['better']}]]
>>> print(write_sgf_tree(root), end="")
(;GM[1]SZ[9]C[start \\] here]
;B[ee]
(;W[cc];B[gg])
(;W[gg]C[better])
)
>>> parse_sgf(write_sgf_tree(root))[0].same_tree(root)
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.sgf_syntax import (
    TEXT_PROPERTIES,
    SgfSource,
    SgfVisitor,
    decode_sgf_bytes,
    decode_text,
    encode_text,
    visit_sgf,
)

__all__ = ["SgfNode", "SgfTreeBuilder", "SgfWriter", "load_sgf_tree", "parse_sgf", "write_sgf_tree"]

NODES_PER_LINE = 10
"""Nodes of a sequence on one line of written SGF (the root has its own line)."""

_IDENT = re.compile(r"[A-Z]+")
_RAW_VALUE = re.compile(r"(?:[^\\\]]|\\.)*", re.DOTALL)


class SgfNode:
    """A node of an SGF game tree: properties and the variations that follow it.

    Attributes:
        properties: identifier -> raw values (as written between ``[`` and ``]``), in the
            order read or set.
        children: the nodes that follow this one; ``children[0]`` is the main line.
        parent: the node this one follows (None for a game's root).
        at: the offset of its ``;`` in the text it was read from (-1 when made in code).
        positions: identifier -> the offset of the identifier, then of each value's ``[``.
    """

    __slots__ = ("at", "children", "parent", "positions", "properties")

    def __init__(
        self, properties: dict[str, list[str]] | None = None, *, parent: SgfNode | None = None
    ) -> None:
        self.properties: dict[str, list[str]] = {}
        self.children: list[SgfNode] = []
        self.parent = parent
        self.at = -1
        self.positions: dict[str, tuple[int, ...]] = {}
        for ident, values in (properties or {}).items():
            self.set(ident, values)
        if parent is not None:
            parent.children.append(self)

    def __repr__(self) -> str:
        return f"SgfNode({self.properties!r}, {len(self.children)} children)"

    def add_child(self, properties: dict[str, list[str]] | None = None) -> SgfNode:
        """A new node after this one (a new variation when it has children already)."""
        return SgfNode(properties, parent=self)

    def set(self, ident: str, values: Sequence[str]) -> None:
        """Set property ``ident`` to raw ``values``; a bad identifier (upper-case letters), no
        value, or a value with an unescaped ``]`` (or ending in a lone ``\\``) raises
        :class:`~searchlab.core.errors.InvalidParameterError`."""
        if not _IDENT.fullmatch(ident):
            raise InvalidParameterError(f"bad SGF property identifier {ident!r}")
        if isinstance(values, str) or not values:
            raise InvalidParameterError(f"SGF property {ident} needs a list of values")
        for value in values:
            if not _RAW_VALUE.fullmatch(value):
                raise InvalidParameterError(
                    f"bad raw SGF value {value!r} for {ident} (escape ']' and '\\' as '\\]' "
                    "and '\\\\', or use set_text)"
                )
        self.properties[ident] = list(values)
        self.positions.pop(ident, None)

    def set_text(self, ident: str, text: str) -> None:
        """Set ``ident`` to one text value, escaped (SimpleText unless ``C``/``GC``)."""
        self.set(ident, [encode_text(text, simple=ident not in TEXT_PROPERTIES)])

    def get(self, ident: str) -> str | None:
        """The first raw value of ``ident`` (None when absent)."""
        values = self.properties.get(ident)
        return values[0] if values else None

    def text(self, ident: str) -> str | None:
        """The first value of ``ident`` read as text (escapes resolved; see
        :func:`~searchlab.domains.games.sgf_syntax.decode_text`; None when absent)."""
        raw = self.get(ident)
        return None if raw is None else decode_text(raw, simple=ident not in TEXT_PROPERTIES)

    @property
    def comment(self) -> str:
        """The node's ``C`` text ('' when it has none)."""
        return self.text("C") or ""

    def main_line(self) -> list[SgfNode]:
        """This node, then the first child of each node to the end."""
        line = [self]
        while line[-1].children:
            line.append(line[-1].children[0])
        return line

    def lines(self) -> Iterator[list[SgfNode]]:
        """Every line from this node to a leaf, the main line first (depth first, in the
        order of the variations)."""
        stack: list[list[SgfNode]] = [[self]]
        while stack:
            line = stack.pop()
            while len(line[-1].children) == 1:
                line.append(line[-1].children[0])
            if not line[-1].children:
                yield line
            for child in reversed(line[-1].children):
                stack.append([*line, child])

    def nodes(self) -> Iterator[SgfNode]:
        """This node and every node below it, in the order of the text."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def same_tree(self, other: SgfNode) -> bool:
        """Whether ``other`` has the same properties (values and order of values) at every
        node and the same variations in the same order (positions are not compared)."""
        stack = [(self, other)]
        while stack:
            mine, theirs = stack.pop()
            if mine.properties != theirs.properties or len(mine.children) != len(theirs.children):
                return False
            stack.extend(zip(mine.children, theirs.children, strict=True))
        return True

    def accept(self, visitor: SgfVisitor) -> None:
        """Drive ``visitor`` over the game tree of this root, as :func:`visit_sgf` would over
        its written text (offsets are the nodes' ``at``; a node with one child continues the
        sequence, one with several opens a variation for each)."""
        if not visitor.begin_game(self.at):
            return
        # Work items: (a node, whether it opens a variation), or None to end a variation.
        stack: list[tuple[SgfNode, bool] | None] = [(self, False)]
        while stack:
            item = stack.pop()
            if item is None:
                visitor.end_variation()
                continue
            node, opens = item
            if opens:
                if not visitor.begin_variation(node.at):
                    continue
                stack.append(None)
            visitor.begin_node(node.at)
            for ident, values in node.properties.items():
                places = node.positions.get(ident, ())
                visitor.visit_property(
                    ident, values, places[0] if places else -1, places[1:] or [-1] * len(values)
                )
            branches = len(node.children) > 1
            stack.extend((child, branches) for child in reversed(node.children))
        visitor.end_game()


class SgfTreeBuilder(SgfVisitor):
    """The visitor that builds the game trees: ``games`` holds each game's root."""

    def __init__(self) -> None:
        self.games: list[SgfNode] = []
        self._current: SgfNode | None = None
        self._branches: list[SgfNode | None] = []

    def begin_game(self, at: int) -> bool:
        self._current = None
        self._branches = []
        return True

    def begin_node(self, at: int) -> None:
        node = SgfNode(parent=self._current)
        node.at = at
        if self._current is None:
            self.games.append(node)
        self._current = node

    def visit_property(
        self, ident: str, values: Sequence[str], at: int, value_at: Sequence[int]
    ) -> None:
        assert self._current is not None  # the parser gives properties inside a node only
        self._current.properties[ident] = list(values)
        self._current.positions[ident] = (at, *value_at)

    def begin_variation(self, at: int) -> bool:
        self._branches.append(self._current)
        return True

    def end_variation(self) -> None:
        self._current = self._branches.pop()


class SgfWriter(SgfVisitor):
    """The visitor that writes SGF text (the canonical layout of :func:`write_sgf_tree`):
    ``text()`` is what it has written. Identifiers and raw values are checked as
    :meth:`SgfNode.set` checks them."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._on_line = 0  # nodes on the current line
        self._root_open = False  # the root is written and its line not yet ended

    def text(self) -> str:
        """The text written so far."""
        return "".join(self._parts)

    def _line_break(self) -> None:
        if self._parts and not self._parts[-1].endswith("\n"):
            self._parts.append("\n")
        self._on_line = 0
        self._root_open = False

    def begin_game(self, at: int) -> bool:
        self._parts.append("(")
        self._on_line = 0
        self._root_open = True
        return True

    def begin_node(self, at: int) -> None:
        if self._on_line and (self._root_open or self._on_line == NODES_PER_LINE):
            self._line_break()
        self._parts.append(";")
        self._on_line += 1

    def visit_property(
        self, ident: str, values: Sequence[str], at: int, value_at: Sequence[int]
    ) -> None:
        SgfNode().set(ident, values)  # the checks of a node
        self._parts.append(ident + "".join(f"[{value}]" for value in values))

    def begin_variation(self, at: int) -> bool:
        self._line_break()
        self._parts.append("(")
        return True

    def end_variation(self) -> None:
        self._parts.append(")")

    def end_game(self) -> None:
        self._line_break()
        self._parts.append(")\n")


def parse_sgf(text: str, *, source: str | None = None) -> list[SgfNode]:
    """The game trees of an SGF collection: each game's root node.

    ``source`` names the text in error messages; a malformed text raises
    :class:`~searchlab.domains.games.sgf_syntax.SgfFormatError`.
    """
    builder = SgfTreeBuilder()
    visit_sgf(SgfSource(text, source), builder)
    return builder.games


def load_sgf_tree(path: str | Path) -> list[SgfNode]:
    """The game trees of the SGF file at ``path`` (its charset read as
    :func:`~searchlab.domains.games.sgf_syntax.decode_sgf_bytes` says; errors name the file;
    a missing file raises :class:`FileNotFoundError`)."""
    return parse_sgf(decode_sgf_bytes(Path(path).read_bytes(), str(path)), source=str(path))


def write_sgf_tree(games: SgfNode | Sequence[SgfNode]) -> str:
    """The SGF text of one game tree (its root) or of a collection: the root on its own line,
    then ten nodes a line, each variation in parentheses from a new line; ``)\\n`` ends a
    game. Store the text in the charset its root's ``CA`` names (UTF-8 without one)."""
    writer = SgfWriter()
    for root in [games] if isinstance(games, SgfNode) else games:
        root.accept(writer)
    return writer.text()
