"""Explicit game trees, written by hand in a small text format (or JSON), played as games.

Text format (``.tree``), one internal node per line, the first line is the root::

    # AIMA Fig. 5.2: MAX moves at A, MIN at B, C, D
    max A: B C D
    min B: b1=3 b2=12 b3=8
    min C: 2 4 6
    min D: 14 5 2

* ``max NAME: CHILD ...`` or ``min NAME: CHILD ...``; ``#`` starts a comment.
* A child is the name of a node defined on its own line (before or after), a named leaf
  ``NAME=VALUE``, or a bare number: an anonymous leaf named ``PARENT.I`` (``C.2`` is the second
  child of ``C``, counted from 1).
* Leaf values are utilities for MAX (player 0); MIN (player 1) gets their negation.
* It must be a tree: every node defined once, used as a child at most once, reachable from
  the root, with at least one child. Errors quote ``file:line``.

JSON format (``.json``): a node is ``{"name": "A", "type": "max", "children": [...]}``; a
child is a node, a number, or a leaf ``{"name": "b1", "value": 3}``.

Nested lists work too (levels alternate, MAX first): ``ExplicitTree.from_nested([[3, 12, 8],
[2, 4, 6], [14, 5, 2]])``.

>>> tree = ExplicitTree.from_text("max A: B 5\\nmin B: 3 x=7", source="tiny.tree")
>>> tree.root, tree.children("B"), tree.value("x")
('A', ('B.1', 'x'), 7.0)
>>> state = ExplicitTreeGame(tree).initial_state()
>>> [state.action_to_string(a) for a in state.legal_actions()]
['B', 'A.2']
>>> ExplicitTree.from_text("max A: B", source="bad.tree")
Traceback (most recent call last):
...
searchlab.domains.games.explicit_tree.TreeFormatError: bad.tree:1: child 'B' of 'A' is not defined
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchlab.core.errors import IllegalMoveError, SearchlabError
from searchlab.core.game import GameInfo
from searchlab.core.text_file import read_text

__all__ = [
    "ExplicitTree",
    "ExplicitTreeGame",
    "ExplicitTreeState",
    "TreeFormatError",
    "load_tree",
]

_NAME = re.compile(r"[A-Za-z_][\w.\-']*")
MAX_HEIGHT = 200
"""The deepest tree accepted, in plies (the searches recurse once per ply)."""
_LINE = re.compile(r"^(\S+)\s+(\S+?)\s*:\s*(.*)$")


class TreeFormatError(SearchlabError, ValueError):
    """A tree file is malformed or not a tree; the message starts with ``file:line``."""


@dataclass(frozen=True, slots=True)
class _Node:
    kind: str  # "max", "min" or "leaf"
    children: tuple[str, ...] = ()
    value: float | None = None
    line: int = 0


class ExplicitTree:
    """An explicit game tree: named MAX, MIN and leaf nodes. Build it with the ``from_*``
    class methods or :func:`load_tree`."""

    def __init__(self, nodes: dict[str, _Node], root: str, source: str = "<tree>") -> None:
        self._nodes = nodes
        self.root = root
        self.source = source
        self._validate()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, source: str = "<text>") -> ExplicitTree:
        """Parse the text format (see the module docs)."""
        nodes: dict[str, _Node] = {}
        root = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = f"{source}:{number}"
            match = _LINE.match(line)
            if not match:
                raise TreeFormatError(
                    f"{where}: expected 'max NAME: CHILD ...' or 'min NAME: CHILD ...', "
                    f"got {line!r}"
                )
            kind, name, rest = match.groups()
            if kind not in ("max", "min"):
                raise TreeFormatError(f"{where}: node type must be max or min, got {kind!r}")
            _check_name(name, where)
            if name in nodes:
                raise TreeFormatError(f"{where}: node {name!r} is defined twice")
            tokens = rest.split()
            if not tokens:
                raise TreeFormatError(f"{where}: node {name!r} has no children")
            children = []
            for index, token in enumerate(tokens, start=1):
                child = _parse_child(token, name, index, where, nodes)
                children.append(child)
            nodes[name] = _Node(kind, tuple(children), None, number)
            root = root or name
        if root is None:
            raise TreeFormatError(f"{source}:1: no nodes (expected 'max NAME: CHILD ...')")
        return cls(nodes, root, source)

    @classmethod
    def from_json(cls, text: str, *, source: str = "<json>") -> ExplicitTree:
        """Parse the JSON format (see the module docs)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise TreeFormatError(f"{source}:{error.lineno}: invalid JSON: {error.msg}") from None
        except RecursionError:
            raise TreeFormatError(
                f"{source}: nested too deeply (a tree has at most {MAX_HEIGHT} plies)"
            ) from None
        except ValueError:  # Python refuses to read integers of more than 4300 digits
            raise TreeFormatError(
                f"{source}: invalid JSON: a number with too many digits"
            ) from None
        nodes: dict[str, _Node] = {}
        root = _json_node(data, "", 1, source, "root", nodes)
        if nodes[root].kind == "leaf":
            raise TreeFormatError(f"{source}: the root must be a max or min node")
        return cls(nodes, root, source)

    @classmethod
    def from_nested(cls, nested: Sequence[Any], *, first: str = "max") -> ExplicitTree:
        """A tree from nested lists: a number is a leaf, a list an inner node; levels alternate
        between MAX and MIN, starting with ``first``. Nodes are named by their path from the
        root ``R``: ``R.2.1`` is the first child of the second child.

        >>> ExplicitTree.from_nested([[3, 12], [2]]).leaves()
        ['R.1.1', 'R.1.2', 'R.2.1']
        """
        nodes: dict[str, _Node] = {}

        def build(item: Any, name: str, kind: str) -> None:
            if isinstance(item, int | float) and not isinstance(item, bool):
                nodes[name] = _Node("leaf", (), float(item))
                return
            if not isinstance(item, Sequence) or not item:
                raise TreeFormatError(f"<nested>: node {name} is neither a number nor a list")
            children = tuple(f"{name}.{i}" for i in range(1, len(item) + 1))
            nodes[name] = _Node(kind, children)
            other = "min" if kind == "max" else "max"
            for child, sub in zip(children, item, strict=True):
                build(sub, child, other)

        if first not in ("max", "min"):
            raise TreeFormatError(f"<nested>: first must be max or min, got {first!r}")
        build(nested, "R", first)
        if nodes["R"].kind == "leaf":
            raise TreeFormatError("<nested>: the root must be a list")
        return cls(nodes, "R", "<nested>")

    def _validate(self) -> None:
        parent: dict[str, str] = {}
        height = self._height_from_root()
        if height > MAX_HEIGHT:
            raise TreeFormatError(
                f"{self.source}: the tree is {height} plies deep; "
                f"at most {MAX_HEIGHT} are supported"
            )
        for name, node in self._nodes.items():
            where = f"{self.source}:{node.line}" if node.line else self.source
            for child in node.children:
                if child not in self._nodes:
                    raise TreeFormatError(f"{where}: child {child!r} of {name!r} is not defined")
                if child == self.root:
                    raise TreeFormatError(
                        f"{where}: the root {child!r} is used as a child of {name!r} "
                        "(a cycle; the root is the first node)"
                    )
                if child in parent:
                    raise TreeFormatError(
                        f"{where}: node {child!r} is a child of both {parent[child]!r} and "
                        f"{name!r} (not a tree)"
                    )
                parent[child] = name
        reachable = {self.root}
        stack = [self.root]
        while stack:
            for child in self._nodes[stack.pop()].children:
                if child not in reachable:
                    reachable.add(child)
                    stack.append(child)
        by_line = sorted(
            self._nodes.items(), key=lambda item: (item[1].kind == "leaf", item[1].line)
        )
        for name, node in by_line:
            if name not in reachable:
                where = f"{self.source}:{node.line}" if node.line else self.source
                raise TreeFormatError(
                    f"{where}: node {name!r} is not reachable from the root {self.root!r}"
                )
        self._parent = parent

    # -- queries --------------------------------------------------------------------------
    def kind(self, name: str) -> str:
        """``"max"``, ``"min"`` or ``"leaf"``."""
        return self._nodes[name].kind

    def children(self, name: str) -> tuple[str, ...]:
        """The children's names, in order (empty for a leaf)."""
        return self._nodes[name].children

    def value(self, name: str) -> float:
        """A leaf's value for MAX."""
        value = self._nodes[name].value
        if value is None:
            raise IllegalMoveError(f"{name!r} is not a leaf")
        return value

    def parent(self, name: str) -> str | None:
        """The parent's name (``None`` for the root)."""
        return self._parent.get(name)

    def names(self) -> list[str]:
        """Every node, depth-first from the root, children in order."""
        order, stack = [], [self.root]
        while stack:
            name = stack.pop()
            order.append(name)
            stack.extend(reversed(self.children(name)))
        return order

    def leaves(self) -> list[str]:
        """The leaves, left to right."""
        return [name for name in self.names() if self.kind(name) == "leaf"]

    def subtree_leaves(self, name: str) -> list[str]:
        """The leaves under ``name`` (itself, if a leaf), left to right."""
        if self.kind(name) == "leaf":
            return [name]
        return [leaf for child in self.children(name) for leaf in self.subtree_leaves(child)]

    def _height_from_root(self) -> int:
        """The height, walked without recursion and without assuming a tree (each node once)."""
        depth, stack, seen = 0, [(self.root, 0)], set()
        while stack:
            name, level = stack.pop()
            if name in seen or name not in self._nodes:
                continue
            seen.add(name)
            depth = max(depth, level)
            stack.extend((child, level + 1) for child in self._nodes[name].children)
        return depth

    def height(self) -> int:
        """The number of plies on the longest path from the root to a leaf."""
        heights: dict[str, int] = {}
        for name in reversed(self.names()):
            children = self.children(name)
            heights[name] = 1 + max(heights[c] for c in children) if children else 0
        return heights[self.root]

    def __len__(self) -> int:
        return len(self._nodes)


def _check_name(name: str, where: str) -> None:
    if not _NAME.fullmatch(name):
        raise TreeFormatError(
            f"{where}: bad node name {name!r} (letters, digits, _ . - ', not starting with a digit)"
        )


def _parse_child(token: str, parent: str, index: int, where: str, nodes: dict[str, _Node]) -> str:
    name: str | None = None
    value_text = token
    if "=" in token:
        name, value_text = token.split("=", 1)
    elif _NAME.fullmatch(token):
        return token  # a reference to a node defined on its own line
    try:
        value = float(value_text)
    except ValueError:
        raise TreeFormatError(
            f"{where}: bad child {token!r} of {parent!r}: expected a node name, a number or "
            "NAME=NUMBER"
        ) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise TreeFormatError(f"{where}: leaf value {token!r} must be a finite number")
    if name is None:
        name = f"{parent}.{index}"
    else:
        _check_name(name, where)
    if name in nodes:
        raise TreeFormatError(f"{where}: node {name!r} is defined twice")
    line = int(where.rsplit(":", 1)[1])
    nodes[name] = _Node("leaf", (), value, line)
    return name


def _json_node(
    data: Any,
    parent: str,
    index: int,
    source: str,
    path: str,
    nodes: dict[str, _Node],
    depth: int = 0,
) -> str:
    if depth > MAX_HEIGHT:
        raise TreeFormatError(
            f"{source}: nested too deeply (a tree has at most {MAX_HEIGHT} plies)"
        )
    if isinstance(data, int | float) and not isinstance(data, bool):
        data = {"value": data}
    if not isinstance(data, dict):
        raise TreeFormatError(f"{source}: {path}: expected an object or a number")
    name = data.get("name") or (f"{parent}.{index}" if parent else "root")
    if not isinstance(name, str):
        raise TreeFormatError(f"{source}: {path}: name must be a string")
    _check_name(name, f"{source}: {path}")
    if name in nodes:
        raise TreeFormatError(f"{source}: {path}: node {name!r} is defined twice")
    if "value" in data:
        value = data["value"]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TreeFormatError(f"{source}: {path}: value must be a number, got {value!r}")
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):
            shown = value if isinstance(value, float) else "an integer too large for a float"
            raise TreeFormatError(f"{source}: {path}: value must be a finite number, got {shown}")
        nodes[name] = _Node("leaf", (), number)
        return name
    kind = data.get("type")
    if kind not in ("max", "min"):
        raise TreeFormatError(f"{source}: {path}: type must be 'max' or 'min', got {kind!r}")
    children = data.get("children")
    if not isinstance(children, list) or not children:
        raise TreeFormatError(f"{source}: {path}: node {name!r} needs a non-empty children list")
    nodes[name] = _Node(kind, ())  # reserve the name before the children
    names = tuple(
        _json_node(child, name, i, source, f"{path}/{name}[{i}]", nodes, depth + 1)
        for i, child in enumerate(children, start=1)
    )
    nodes[name] = _Node(kind, names)
    return name


def load_tree(path: str | Path) -> ExplicitTree:
    """Read a tree file: JSON when it ends in ``.json`` or starts with ``{``, else text."""
    path = Path(path)
    text = read_text(path)
    if path.suffix == ".json" or text.lstrip().startswith("{"):
        return ExplicitTree.from_json(text, source=str(path))
    return ExplicitTree.from_text(text, source=str(path))


class ExplicitTreeGame:
    """An explicit tree as a game: MAX is player 0, MIN player 1, actions are child indices."""

    def __init__(self, tree: ExplicitTree) -> None:
        self.tree = tree
        largest = max((abs(tree.value(leaf)) for leaf in tree.leaves()), default=0.0)
        self.info = GameInfo(
            name="explicit_tree",
            max_game_length=tree.height(),
            max_utility=float(largest) if 0 < largest < float("inf") else None,
        )

    def initial_state(self) -> ExplicitTreeState:
        """The root."""
        return ExplicitTreeState(self.tree, self.tree.root)


class ExplicitTreeState:
    """A node of the tree."""

    __slots__ = ("name", "tree")

    def __init__(self, tree: ExplicitTree, name: str) -> None:
        self.tree = tree
        self.name = name

    def current_player(self) -> int:
        """0 at MAX nodes, 1 at MIN nodes; at a leaf, the opponent of its parent's mover."""
        kind = self.tree.kind(self.name)
        if kind == "leaf":
            parent = self.tree.parent(self.name)
            return (
                0 if parent is None else 1 - ExplicitTreeState(self.tree, parent).current_player()
            )
        return 0 if kind == "max" else 1

    def legal_actions(self) -> list[int]:
        """Child indices ``0..k-1``."""
        return list(range(len(self.tree.children(self.name))))

    def apply(self, action: int) -> ExplicitTreeState:
        """Go to child number ``action`` (0-based)."""
        children = self.tree.children(self.name)
        if (
            isinstance(action, bool)
            or not isinstance(action, int)
            or not (0 <= action < len(children))
        ):
            raise IllegalMoveError(
                f"illegal action {action!r} at {self.name!r} ({len(children)} children)"
            )
        return ExplicitTreeState(self.tree, children[action])

    def is_terminal(self) -> bool:
        """True at a leaf."""
        return self.tree.kind(self.name) == "leaf"

    def returns(self) -> tuple[float, float]:
        """``(v, -v)`` at a leaf of value ``v``; zeros elsewhere."""
        if not self.is_terminal():
            return (0.0, 0.0)
        value = self.tree.value(self.name)
        return (value, -value)

    def key(self) -> Hashable:
        """The node's name."""
        return self.name

    def action_to_string(self, action: int) -> str:
        """The child's name."""
        return self.tree.children(self.name)[action]

    def string_to_action(self, text: str) -> int:
        """A child's name (or its 0-based index)."""
        children = self.tree.children(self.name)
        token = text.strip()
        if token in children:
            return children.index(token)
        if token.isascii() and token.isdigit() and int(token) < len(children):
            return int(token)
        raise IllegalMoveError(
            f"illegal move {text!r} at {self.name!r}: children are "
            f"{', '.join(children) or '(none)'}"
        )

    def __str__(self) -> str:
        kind = self.tree.kind(self.name)
        if kind == "leaf":
            return f"leaf {self.name} = {self.tree.value(self.name):g}"
        return f"{kind} {self.name}: {' '.join(self.tree.children(self.name))}"

    def __repr__(self) -> str:
        return f"ExplicitTreeState({self.name!r})"
