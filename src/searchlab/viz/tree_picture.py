"""A picture of an explicit game tree and, when given, what alpha-beta did on it.

MAX nodes are squares, MIN nodes circles, leaves small boxes holding their values. With the
annotations of a search (:class:`TreeNotes`): each visited node shows its value inside and
``α``/``β`` (the window when it returned) beside it, each pruned branch is a dashed edge
crossed by a red mark, the nodes never visited are grey, and the principal variation is
drawn thick. A title heads the picture and a legend explains the marks. Leaves sit one slot
apart, left to right; a parent sits above the middle of its children.

Write it as SVG (:func:`tree_svg`) or as a picture file (:func:`render_tree`, Pillow).

>>> from searchlab.domains.games.explicit_tree import ExplicitTree
>>> tree = ExplicitTree.from_text("max A: B C\\nmin B: b1=3 b2=5\\nmin C: c1=2 c2=9")
>>> svg = tree_svg(tree, TreeNotes(cut=frozenset({"c2"})), title="tiny")
>>> svg.count('class="max"'), svg.count('class="min"'), svg.count('class="leaf"')
(1, 2, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from searchlab.domains.games.explicit_tree import ExplicitTree
from searchlab.viz.scene import Line, Scene, Shape, Text, render_scene, scene_svg

__all__ = [
    "NodeNote",
    "TreeNotes",
    "render_tree",
    "slot_layout",
    "tree_layout",
    "tree_scene",
    "tree_svg",
]

SLOT = 46
"""Pixels between two neighbouring leaves."""
LEVEL = 86
"""Pixels between two levels."""
NODE = 30
"""Side of a MAX square, diameter of a MIN circle."""
LEAF = 28
MARGIN = 28
TOP = 64
LEGEND = 58

COLOURS = {
    "max": "#dbe8f6",
    "min": "#fbe3d0",
    "leaf": "#ffffff",
    "edge": "#555555",
    "pv": "#1f5fbf",
    "cut": "#d62728",
    "grey": "#b8b8b8",
    "grey_fill": "#efefef",
    "note": "#6b3fa0",
    "name": "#606060",
}


@dataclass(frozen=True, slots=True)
class NodeNote:
    """What a search found at a node: its value and the window it returned with."""

    value: float | None = None
    alpha: float | None = None
    beta: float | None = None


@dataclass(frozen=True, slots=True)
class TreeNotes:
    """A search's marks on a tree: ``notes`` per visited node, the ``cut`` branches (children
    pruned: the edge into each is crossed), the ``unvisited`` nodes (greyed) and the
    principal variation ``pv`` (child names from the root, drawn thick)."""

    notes: Mapping[str, NodeNote] = field(default_factory=dict)
    cut: frozenset[str] = frozenset()
    unvisited: frozenset[str] = frozenset()
    pv: tuple[str, ...] = ()


def _number(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def slot_layout(
    root: Hashable, children: Callable[[Hashable], Sequence[Hashable]]
) -> dict[Hashable, tuple[float, int]]:
    """``node -> (x, depth)`` for any tree given by its ``root`` and a ``children`` function:
    leaves at x = 0, 1, 2, ... left to right, a parent at the middle of its first and last
    child (a post-order walk without recursion)."""
    places: dict[Hashable, tuple[float, int]] = {}
    next_leaf = 0.0
    stack: list[tuple[Hashable, int, bool]] = [(root, 0, False)]
    while stack:
        name, depth, done = stack.pop()
        kids = children(name)
        if not kids:
            places[name] = (next_leaf, depth)
            next_leaf += 1
        elif done:
            places[name] = ((places[kids[0]][0] + places[kids[-1]][0]) / 2, depth)
        else:
            stack.append((name, depth, True))
            stack.extend((child, depth + 1, False) for child in reversed(kids))
    return places


def tree_layout(tree: ExplicitTree) -> dict[str, tuple[float, int]]:
    """:func:`slot_layout` of an explicit tree.

    >>> tree_layout(ExplicitTree.from_text("max A: B 4\\nmin B: 1 2"))
    {'B.1': (0.0, 2), 'B.2': (1.0, 2), 'B': (0.5, 1), 'A.2': (2.0, 1), 'A': (1.25, 0)}
    """
    return slot_layout(tree.root, tree.children)  # type: ignore[arg-type,return-value]


def tree_scene(tree: ExplicitTree, notes: TreeNotes | None = None, *, title: str = "") -> Scene:
    """The picture as a :class:`~searchlab.viz.scene.Scene` (shared by SVG and PNG)."""
    notes = notes or TreeNotes()
    places = tree_layout(tree)
    leaves = max(1, len(tree.leaves()))
    height_levels = tree.height()
    # wide enough for the tree, the legend (about 700 px) and the title (bold, 17 px)
    width = max(2 * MARGIN + (leaves - 1) * SLOT + 60, 720, round(len(title) * 10.5) + 40)
    height = TOP + height_levels * LEVEL + NODE + LEGEND + 20
    scene = Scene(round(width), round(height), title=title)
    offset = (width - (leaves - 1) * SLOT) / 2

    def xy(name: str) -> tuple[float, float]:
        x, depth = places[name]
        return offset + x * SLOT, TOP + depth * LEVEL

    scene.add(Text(width / 2, 24, title, size=17, bold=True, css="title"))
    pv_nodes = _pv_nodes(tree, notes.pv)
    # Step 1. Edges, under the nodes.
    for name in tree.names():
        for child in tree.children(name):
            (x1, y1), (x2, y2) = xy(name), xy(child)
            y1 += NODE / 2
            y2 -= (LEAF if tree.kind(child) == "leaf" else NODE) / 2
            data = {"parent": name, "child": child}
            if child in notes.cut:
                scene.add(Line(x1, y1, x2, y2, COLOURS["grey"], 1.5, True, "edge cut", data))
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                _cross(scene, mx, my, x2 - x1, y2 - y1)
            elif child in notes.unvisited:
                scene.add(Line(x1, y1, x2, y2, COLOURS["grey"], 1.2, True, "edge unvisited", data))
            elif child in pv_nodes and name in pv_nodes:
                scene.add(Line(x1, y1, x2, y2, COLOURS["pv"], 3.5, False, "edge pv", data))
            else:
                scene.add(Line(x1, y1, x2, y2, COLOURS["edge"], 1.5, False, "edge", data))
    # Step 2. Nodes, their names, values and windows.
    for name in tree.names():
        x, y = xy(name)
        kind = tree.kind(name)
        grey = name in notes.unvisited
        note = notes.notes.get(name)
        outline = COLOURS["grey"] if grey else "#1e1e1e"
        width_line = 2.5 if name in pv_nodes else 1.5
        data = {"node": name}
        if kind == "leaf":
            half = LEAF / 2
            fill = COLOURS["grey_fill"] if grey else COLOURS["leaf"]
            scene.add(
                Shape(
                    "rect",
                    (x - half, y - half, x + half, y + half),
                    fill,
                    outline,
                    width_line,
                    grey,
                    "leaf",
                    data,
                )
            )
            scene.add(
                Text(x, y, _number(tree.value(name)), 12, COLOURS["grey"] if grey else "#1e1e1e")
            )
            scene.add(Text(x, y + half + 9, name, 9.5, COLOURS["name"], css="name"))
            continue
        half = NODE / 2
        fill = COLOURS["grey_fill"] if grey else COLOURS[kind]
        box = (x - half, y - half, x + half, y + half)
        shape = "rect" if kind == "max" else "circle"
        scene.add(Shape(shape, box, fill, outline, width_line, grey, kind, data))
        scene.add(Text(x - half - 3, y - half - 2, name, 10.5, COLOURS["name"], "end", css="name"))
        if note is not None and note.value is not None:
            scene.add(Text(x, y, _number(note.value), 13, "#1e1e1e", bold=True, css="value"))
        if note is not None and note.alpha is not None and note.beta is not None:
            scene.add(
                Text(
                    x + half + 4,
                    y - 9,
                    f"α={_number(note.alpha)}",
                    10.5,
                    COLOURS["note"],
                    "start",
                    css="alpha",
                )
            )
            scene.add(
                Text(
                    x + half + 4,
                    y + 4,
                    f"β={_number(note.beta)}",
                    10.5,
                    COLOURS["note"],
                    "start",
                    css="beta",
                )
            )
    _legend(scene, height - LEGEND, notes)
    return scene


def _cross(scene: Scene, x: float, y: float, dx: float, dy: float) -> None:
    """A red bar across an edge at ``(x, y)``, perpendicular to it."""
    length = math.hypot(dx, dy) or 1.0
    px, py = -dy / length * 9, dx / length * 9
    scene.add(Line(x - px, y - py, x + px, y + py, COLOURS["cut"], 3, css="cut-mark"))


def _pv_nodes(tree: ExplicitTree, pv: tuple[str, ...]) -> set[str]:
    return {tree.root, *pv} if pv else set()


def _legend(scene: Scene, top: float, notes: TreeNotes) -> None:
    x, y = MARGIN, top + 14
    scene.add(Shape("rect", (x, y - 9, x + 18, y + 9), COLOURS["max"], css="legend-max"))
    scene.add(Text(x + 24, y, "MAX", 11, anchor="start"))
    x += 70
    scene.add(Shape("circle", (x, y - 9, x + 18, y + 9), COLOURS["min"], css="legend-min"))
    scene.add(Text(x + 24, y, "MIN", 11, anchor="start"))
    x += 66
    scene.add(Shape("rect", (x, y - 8, x + 16, y + 8), COLOURS["leaf"], css="legend-leaf"))
    scene.add(Text(x + 22, y, "leaf (value for MAX)", 11, anchor="start"))
    x += 160
    windows = any(note.alpha is not None for note in notes.notes.values())
    if notes.cut or windows:
        scene.add(Line(x, y, x + 34, y, COLOURS["grey"], 1.5, True, "legend"))
        _cross(scene, x + 17, y, 34, 0)
        scene.add(Text(x + 42, y, "pruned branch (α ≥ β)", 11, anchor="start"))
        x += 190
    if notes.pv:
        scene.add(Line(x, y, x + 34, y, COLOURS["pv"], 3.5, css="legend"))
        scene.add(Text(x + 42, y, "principal variation", 11, anchor="start"))
    if notes.notes:
        parts = ["inside a node: its value"]
        if windows:
            parts.append("α, β: the bounds when it returned")
        if notes.unvisited:
            parts.append("grey: never visited")
        parts.append("children searched left to right")
        scene.add(Text(MARGIN, y + 22, "; ".join(parts), 11, "#444444", "start"))


def tree_svg(tree: ExplicitTree, notes: TreeNotes | None = None, *, title: str = "") -> str:
    """The tree (with ``notes``) as an SVG document."""
    return scene_svg(tree_scene(tree, notes, title=title))


def render_tree(
    tree: ExplicitTree,
    path: str | Path,
    notes: TreeNotes | None = None,
    *,
    title: str = "",
    scale: float = 1.5,
) -> Path:
    """Draw the tree (with ``notes``) to the picture file ``path`` (PNG, JPEG, ... by its
    extension), ``scale`` times the SVG's size."""
    return render_scene(tree_scene(tree, notes, title=title), path, scale=scale)
