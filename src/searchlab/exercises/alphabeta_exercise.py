"""Random alpha-beta pruning exercises with their answer keys (the course's "IAI_GEN").

:func:`generate_alphabeta` draws a game tree and its leaf values from a seed, and draws again
until alpha-beta (children left to right, MAX at the root, pruning when ``alpha >= beta``)
cuts at least ``min_cuts`` branches. The tree:

* has height exactly ``depth`` (some leaf lies ``depth`` plies below the root; other leaves
  may be shallower); levels alternate, MAX at the root;
* every inner node has between 2 and ``branching`` children (never one: a node with a single
  child teaches nothing);
* grows, one random leaf above the bottom level turned into an inner node at a time, until no
  further node fits under ``leaves`` leaves; so it has at most ``leaves`` leaves;
* leaf values are whole numbers drawn uniformly from ``low..high``.

A *cut* is one pruned branch: a child skipped because ``alpha >= beta`` at its parent (an edge
crossed out on the board). Nodes are named level by level, left to right: ``A`` (the root),
``B``, ``C``, ..., ``Z``, ``AA``, ...; a leaf is its parent's name in lower case and its
position among the parent's children (``c2`` is the second child of ``C``), as in AIMA.

The exercise's text is the explicit-tree format of ``searchlab tree`` (see
:mod:`searchlab.domains.games.explicit_tree`); its key comes from the library's own alpha-beta
(:func:`~searchlab.exercises.alphabeta_key.answer_key`).

>>> exercise = generate_alphabeta(depth=3, branching=3, leaves=12, min_cuts=3, seed=7)
>>> exercise.tree.height(), len(exercise.tree.leaves()) <= 12, len(exercise.key.pruned) >= 3
(3, True, True)
>>> generate_alphabeta(depth=2, leaves=4, min_cuts=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: min_cuts 5 cannot be reached with at most 4 leaves ...
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass
from typing import Any

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
from searchlab.exercises.alphabeta_key import AnswerKey, answer_key

__all__ = [
    "DEFAULT_SIZE",
    "EXERCISE_SIZES",
    "AlphaBetaSettings",
    "Exercise",
    "ExerciseSize",
    "generate_alphabeta",
    "parse_value_range",
    "tree_text",
]

MAX_DEPTH = 12
"""The deepest exercise tree (a picture of more plies is no longer an exercise)."""
MAX_LEAVES = 2000
"""The most leaves an exercise tree may have."""
MAX_TRIES = 5_000
"""Default number of trees drawn before giving up."""


@dataclass(frozen=True, slots=True)
class ExerciseSize:
    """The shape of a tree of one exercise size: plies, most children, most leaves, least cuts,
    and what it is for, in a teacher's words."""

    depth: int
    branching: int
    leaves: int
    min_cuts: int
    use: str


EXERCISE_SIZES: dict[str, ExerciseSize] = {
    "small": ExerciseSize(3, 3, 12, 3, "pen and paper: a page; pictures about 1,100 px wide"),
    "medium": ExerciseSize(4, 3, 20, 6, "a longer exercise on paper; about 1,500 px"),
    "large": ExerciseSize(6, 3, 50, 16, "the course generator's, for a screen; about 3,500 px"),
}
"""The exercise sizes (``searchlab exercise alphabeta --size``), each written here once;
``large`` is the course generator's (IAI_GEN) and the library's default."""

DEFAULT_SIZE = "small"
"""The size ``searchlab exercise alphabeta`` draws unless told (pen and paper)."""

_LARGE = EXERCISE_SIZES["large"]


@dataclass(frozen=True, slots=True)
class AlphaBetaSettings:
    """The generator's parameters (the course generator's defaults: the ``large`` size)."""

    depth: int = _LARGE.depth
    branching: int = _LARGE.branching
    leaves: int = _LARGE.leaves
    low: int = -10
    high: int = 10
    min_cuts: int = _LARGE.min_cuts
    seed: int = 0
    max_tries: int = MAX_TRIES

    def checked(self) -> AlphaBetaSettings:
        """Return ``self`` if every parameter is possible; raise one clear line otherwise."""
        for name in (
            "depth",
            "branching",
            "leaves",
            "low",
            "high",
            "min_cuts",
            "seed",
            "max_tries",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidParameterError(f"{name} must be a whole number, got {value!r}")
        if not 1 <= self.depth <= MAX_DEPTH:
            raise InvalidParameterError(f"depth must be 1..{MAX_DEPTH}, got {self.depth}")
        if self.branching < 2:
            raise InvalidParameterError(
                f"branching must be >= 2 (inner nodes have 2..branching children), "
                f"got {self.branching}"
            )
        if self.leaves > MAX_LEAVES:
            raise InvalidParameterError(f"leaves must be at most {MAX_LEAVES}, got {self.leaves}")
        if self.leaves < self.depth + 1:
            raise InvalidParameterError(
                f"a tree {self.depth} plies deep with 2 or more children per inner node has "
                f"at least {self.depth + 1} leaves; got leaves {self.leaves}"
            )
        if self.low > self.high:
            raise InvalidParameterError(
                f"values {self.low}..{self.high}: the low end is above the high end"
            )
        if self.min_cuts < 0:
            raise InvalidParameterError(f"min_cuts must be >= 0, got {self.min_cuts}")
        if self.max_tries < 1:
            raise InvalidParameterError(f"max_tries must be >= 1, got {self.max_tries}")
        most = min(self.leaves, self.branching**self.depth)  # leaves the tree can have
        reachable = most - 2
        if self.min_cuts > reachable:
            raise InvalidParameterError(
                f"min_cuts {self.min_cuts} cannot be reached with at most {most} leaves "
                f"(depth {self.depth}, branching {self.branching}, leaves {self.leaves}): a cut "
                "skips a branch other than a first child, and the root's children are never "
                f"cut, so at most {max(0, reachable)} branches can be cut; lower min_cuts or "
                "raise leaves"
            )
        if self.min_cuts > 0 and self.depth < 2:
            raise InvalidParameterError(
                f"min_cuts {self.min_cuts} cannot be reached at depth {self.depth}: the root "
                "never prunes its own children; use depth >= 2"
            )
        return self


@dataclass(frozen=True, slots=True)
class Exercise:
    """A generated tree, the settings and seed that made it, the number of trees drawn, and
    its answer key."""

    settings: AlphaBetaSettings
    tree: ExplicitTree
    key: AnswerKey
    tries: int

    @property
    def text(self) -> str:
        """The tree in the text format that ``searchlab tree`` reads, with a header."""
        s = self.settings
        header = (
            f"# alpha-beta exercise, seed {s.seed}: depth {s.depth}, branching 2..{s.branching}, "
            f"at most {s.leaves} leaves, values {s.low}..{s.high}, at least {s.min_cuts} cuts\n"
            "# search children left to right, MAX at the root; prune when alpha >= beta\n"
        )
        return header + tree_text(self.tree)

    def to_dict(self) -> dict[str, Any]:
        """The JSON export: settings, the tree (text and nested), and the answer key."""
        return {
            "kind": "alphabeta",
            "settings": asdict(self.settings),
            "seed": self.settings.seed,
            "tries": self.tries,
            "text": self.text,
            "root": tree_dict(self.tree),
            "leaves": len(self.tree.leaves()),
            "cuts": len(self.key.pruned),
            "key": self.key.to_dict(),
        }


def tree_text(tree: ExplicitTree) -> str:
    """An explicit tree in the text format, one inner node a line, level by level.

    >>> print(tree_text(ExplicitTree.from_text("max A: B 5\\nmin B: b1=3 b2=-1")), end="")
    max A: B A.2=5
    min B: b1=3 b2=-1
    """
    lines = []
    for name in _level_order(tree):
        if tree.kind(name) == "leaf":
            continue
        children = []
        for child in tree.children(name):
            if tree.kind(child) == "leaf":
                children.append(f"{child}={_number_text(tree.value(child))}")
            else:
                children.append(child)
        lines.append(f"{tree.kind(name)} {name}: {' '.join(children)}")
    return "\n".join(lines) + "\n"


def tree_dict(tree: ExplicitTree, name: str | None = None) -> dict[str, Any]:
    """The tree as nested dicts: ``name``, ``kind`` (max/min/leaf), ``player`` (max/min: who
    moves there; at a leaf, the opponent of its parent), ``value`` (leaves; else ``None``)
    and ``children``."""
    name = tree.root if name is None else name
    kind = tree.kind(name)
    if kind == "leaf":
        parent = tree.parent(name)
        player = "min" if parent is not None and tree.kind(parent) == "max" else "max"
        value: Any = tree.value(name)
        return {
            "name": name,
            "kind": "leaf",
            "player": player,
            "value": int(value) if value.is_integer() else value,
            "children": [],
        }
    return {
        "name": name,
        "kind": kind,
        "player": kind,
        "value": None,
        "children": [tree_dict(tree, child) for child in tree.children(name)],
    }


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def _level_order(tree: ExplicitTree) -> list[str]:
    order, index = [tree.root], 0
    while index < len(order):
        order.extend(tree.children(order[index]))
        index += 1
    return order


_RANGE = re.compile(r"^\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*$")


def parse_value_range(text: str) -> tuple[int, int]:
    """Parse ``"LO..HI"`` (whole numbers, ``LO <= HI``).

    >>> parse_value_range("-10..10"), parse_value_range("0..0")
    ((-10, 10), (0, 0))
    >>> parse_value_range("5..1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: values '5..1': the low end 5 is above ...
    """
    match = _RANGE.match(text) if isinstance(text, str) else None
    if not match:
        raise InvalidParameterError(
            f"values must be LO..HI with whole numbers (like -10..10), got {text!r}"
        )
    low, high = int(match.group(1)), int(match.group(2))
    if low > high:
        raise InvalidParameterError(
            f"values {text!r}: the low end {low} is above the high end {high}"
        )
    if max(abs(low), abs(high)) > 10**9:
        raise InvalidParameterError(f"values {text!r}: keep them within -10^9..10^9")
    return low, high


def _excel_name(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _draw_shape(settings: AlphaBetaSettings, rng: random.Random) -> list[list[int]]:
    """A random shape: ``children[i]`` lists the node ids under node ``i`` (0 is the root),
    height exactly ``depth``, 2..branching children per inner node, at most ``leaves`` leaves."""
    children: list[list[int]] = [[]]
    depth_of = [0]
    leaves = 1

    def expand(node: int, count: int) -> None:
        nonlocal leaves
        for _ in range(count):
            children[node].append(len(children))
            children.append([])
            depth_of.append(depth_of[node] + 1)
        leaves += count - 1

    # Step 1. A spine down to ``depth`` (so the height is exact), each node with a random
    # number of children that still leaves room for the rest of the spine.
    node = 0
    for level in range(settings.depth):
        room = settings.leaves - leaves - (settings.depth - level - 1)
        count = rng.randint(2, max(2, min(settings.branching, room + 1)))
        expand(node, count)
        node = rng.choice(children[node])
    # Step 2. Turn random leaves above the bottom level into inner nodes while they fit.
    open_leaves = [
        i for i, kids in enumerate(children) if not kids and depth_of[i] < settings.depth
    ]
    while open_leaves and settings.leaves - leaves >= 1:
        index = rng.randrange(len(open_leaves))
        node = open_leaves[index]
        open_leaves[index] = open_leaves[-1]  # remove it in O(1); the order does not matter
        open_leaves.pop()
        first_new = len(children)
        expand(node, rng.randint(2, min(settings.branching, settings.leaves - leaves + 1)))
        open_leaves.extend(
            i for i in range(first_new, len(children)) if depth_of[i] < settings.depth
        )
    return children


def _build_tree(children: list[list[int]], values: list[int]) -> ExplicitTree:
    """Name the shape's nodes (inner nodes level by level, leaves after their parent) and
    write it in the text format."""
    order, index = [0], 0
    while index < len(order):
        order.extend(children[order[index]])
        index += 1
    names: dict[int, str] = {}
    inner = [node for node in order if children[node]]
    for i, node in enumerate(inner):
        names[node] = _excel_name(i)
    depth = {0: 0}
    for node in order:
        for position, child in enumerate(children[node], start=1):
            depth[child] = depth[node] + 1
            if not children[child]:
                names[child] = f"{names[node].lower()}{position}"
    leaf_values = dict(zip([n for n in order if not children[n]], values, strict=True))
    lines = []
    for node in inner:
        kind = "max" if depth[node] % 2 == 0 else "min"
        parts = [
            f"{names[c]}={leaf_values[c]}" if not children[c] else names[c] for c in children[node]
        ]
        lines.append(f"{kind} {names[node]}: {' '.join(parts)}")
    return ExplicitTree.from_text("\n".join(lines), source="<exercise>")


def generate_alphabeta(
    *,
    depth: int = _LARGE.depth,
    branching: int = _LARGE.branching,
    leaves: int = _LARGE.leaves,
    low: int = -10,
    high: int = 10,
    min_cuts: int = _LARGE.min_cuts,
    seed: int = 0,
    max_tries: int = MAX_TRIES,
) -> Exercise:
    """Draw an exercise (see the module docs): same arguments, same exercise.

    Raises:
        InvalidParameterError: a parameter is impossible (``depth`` outside 1..12,
            ``branching < 2``, fewer leaves than the depth needs, ``low > high``,
            ``min_cuts`` more than the leaves allow), or ``max_tries`` trees were drawn
            without reaching ``min_cuts`` cuts.
    """
    settings = AlphaBetaSettings(
        depth, branching, leaves, low, high, min_cuts, seed, max_tries
    ).checked()
    rng = random.Random(f"alphabeta-exercise:{seed}")
    best = 0
    for attempt in range(1, settings.max_tries + 1):
        shape = _draw_shape(settings, rng)
        count = sum(1 for kids in shape if not kids)
        values = [rng.randint(settings.low, settings.high) for _ in range(count)]
        tree = _build_tree(shape, values)
        cuts = int(alphabeta(ExplicitTreeGame(tree)).stats["pruned"])  # no events: cheaper
        best = max(best, cuts)
        if cuts >= settings.min_cuts:
            return Exercise(settings, tree, answer_key(tree), attempt)
    raise InvalidParameterError(
        f"no tree with at least {settings.min_cuts} cuts in {settings.max_tries} tries "
        f"(depth {depth}, branching {branching}, at most {leaves} leaves, values {low}..{high}; "
        f"the most found was {best}): lower min_cuts or raise leaves"
    )
