"""A picture of a Monte Carlo search tree, a few plies deep: edge width by visits, each node
labelled with the move into it, its visits N and its mean value Q (for the player who made
that move), coloured by Q (red: losing, grey: even, green: winning), with a title and a legend.

Each node shows at most ``width`` children, the most visited (a note says how many more were
searched). Convert a reference-tier tree (:class:`~searchlab.algorithms.mcts.tree.Node`) with
:func:`mcts_tree_dict`, or give nested dicts (``label``, ``visits``, ``value``, ``proven``,
``children``) of your own. Needs Pillow (the ``cli`` extra) for the PNG; :func:`mcts_tree_svg`
needs nothing.

>>> import tempfile, pathlib
>>> tree = {"label": "root", "visits": 100, "value": 0.1, "children": [
...     {"label": "b2", "visits": 70, "value": 0.2, "children": []},
...     {"label": "a1", "visits": 30, "value": -0.3, "children": []}]}
>>> with tempfile.TemporaryDirectory() as folder:
...     out = render_mcts_tree(tree, pathlib.Path(folder) / "tree.png", title="tictactoe")
...     from PIL import Image
...     Image.open(out).format
'PNG'
>>> mcts_tree_svg(tree).count('class="node"')
3
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from searchlab.algorithms.mcts.tree import Node
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import State
from searchlab.viz.root_png import value_colour
from searchlab.viz.scene import Line, Scene, Shape, Text, render_scene, scene_svg
from searchlab.viz.tree_picture import slot_layout

__all__ = [
    "label_tree_view",
    "mcts_tree_dict",
    "mcts_tree_scene",
    "mcts_tree_svg",
    "render_mcts_tree",
]

SLOT = 70
LEVEL = 110
BOX_W, BOX_H = 60, 46
MAX_DEPTH = 6
"""The most plies drawn (a deeper picture is no longer legible)."""


def label_tree_view(view: Mapping[str, Any], state: State) -> dict[str, Any]:
    """A compiled searcher's tree view (``tree_view(depth, width)``: nested dicts with the
    ``action`` into each node) with each action written in the game's notation as its
    ``label`` (``state``: the root's position), ready for :func:`render_mcts_tree`.

    >>> from searchlab.games import make
    >>> view = {"action": -1, "visits": 3, "value": 0.0, "proven": None, "hidden": 0,
    ...         "children": [{"action": 3, "visits": 2, "value": 0.5, "proven": None,
    ...                       "hidden": 0, "children": []}]}
    >>> label_tree_view(view, make("connect4").initial_state())["children"][0]["label"]
    '4'
    """

    def convert(node: Mapping[str, Any], position: State, label: str) -> dict[str, Any]:
        out = {key: node[key] for key in ("visits", "value", "proven", "hidden")}
        out["label"] = label
        out["children"] = [
            convert(
                child, position.apply(child["action"]), position.action_to_string(child["action"])
            )
            for child in node["children"]
        ]
        return out

    return convert(view, state, "root")


def mcts_tree_dict(root: Node, state: State, *, depth: int = 2, width: int = 5) -> dict[str, Any]:
    """A reference-tier MCTS tree as nested dicts, ``depth`` plies below the root, the
    ``width`` most visited children of each node (ties: the order of the moves); ``state`` is
    the root's position (for the moves' notation). ``hidden`` counts the visited children left
    out.

    Raises:
        InvalidParameterError: ``depth`` is not 1..6 or ``width`` not >= 1.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidParameterError(f"tree depth must be 1..{MAX_DEPTH}, got {depth!r}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise InvalidParameterError(f"tree width must be >= 1, got {width!r}")

    def convert(node: Node, position: State, label: str, level: int) -> dict[str, Any]:
        edges = [
            (action, child)
            for action, child in zip(node.actions, node.children, strict=True)
            if child is not None and child.visits > 0
        ]
        edges.sort(key=lambda edge: -edge[1].visits)  # stable: equal visits keep move order
        shown = edges[:width] if level < depth else []
        return {
            "label": label,
            "visits": node.visits,
            "value": node.mean,
            "proven": node.proven,
            "hidden": len(edges) - len(shown),
            "children": [
                convert(child, position.apply(action), position.action_to_string(action), level + 1)
                for action, child in shown
            ],
        }

    return convert(root, state, "root", 0)


def mcts_tree_scene(tree: Mapping[str, Any], *, title: str = "") -> Scene:
    """The picture as a :class:`~searchlab.viz.scene.Scene` (shared by SVG and PNG)."""
    nodes: dict[tuple[int, ...], Mapping[str, Any]] = {}
    stack: list[tuple[tuple[int, ...], Mapping[str, Any]]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        nodes[path] = node
        for index, child in enumerate(node.get("children", [])):
            stack.append(((*path, index), child))

    def kids(path: Any) -> list[tuple[int, ...]]:
        return [(*path, i) for i in range(len(nodes[path].get("children", [])))]

    places = slot_layout((), kids)
    leaves = sum(1 for path in nodes if not kids(path))
    levels = max(len(path) for path in nodes)
    width = max(2 * 40 + (leaves - 1) * SLOT + BOX_W, 760, round(len(title) * 10.5) + 40)
    height = 64 + levels * LEVEL + BOX_H + 100
    scene = Scene(round(width), round(height), title=title)
    offset = (width - (leaves - 1) * SLOT) / 2
    root_visits = max(1, int(tree.get("visits", 1)))

    def xy(path: tuple[int, ...]) -> tuple[float, float]:
        x, depth = places[path]
        return offset + x * SLOT, 64 + BOX_H / 2 + depth * LEVEL

    scene.add(Text(width / 2, 24, title or "Monte Carlo tree", 17, bold=True, css="title"))
    for path, node in nodes.items():
        if not path:
            continue
        (x1, y1), (x2, y2) = xy(path[:-1]), xy(path)
        share = int(node.get("visits", 0)) / root_visits
        scene.add(
            Line(
                x1,
                y1 + BOX_H / 2,
                x2,
                y2 - BOX_H / 2,
                "#7a8aa0",
                0.8 + 14 * math.sqrt(share),
                css="edge",
                data={"path": ".".join(map(str, path))},
            )
        )
    for path, node in nodes.items():
        x, y = xy(path)
        value = float(node.get("value", 0.0))
        r, g, b = value_colour(value)
        fill = f"#{(r + 255 * 2) // 3:02x}{(g + 255 * 2) // 3:02x}{(b + 255 * 2) // 3:02x}"
        outline = f"#{r:02x}{g:02x}{b:02x}"
        box = (x - BOX_W / 2, y - BOX_H / 2, x + BOX_W / 2, y + BOX_H / 2)
        scene.add(
            Shape(
                "rect",
                box,
                fill,
                outline,
                2,
                css="node",
                data={"path": ".".join(map(str, path)) or "root"},
            )
        )
        scene.add(Text(x, y - 13, str(node.get("label", "")), 12, bold=True))
        scene.add(Text(x, y + 1, f"N {int(node.get('visits', 0))}", 10.5))
        proven = node.get("proven")
        mark = "" if proven is None else (" W" if proven > 0 else " L" if proven < 0 else " D")
        scene.add(Text(x, y + 14, f"Q {value:+.2f}{mark}", 10.5))
        hidden = int(node.get("hidden", 0))
        if hidden and node.get("children"):  # beside the box: edges leave from below
            scene.add(Text(x + BOX_W / 2 + 4, y, f"+{hidden}", 10, "#707070", "start"))
        elif hidden:
            scene.add(Text(x, y + BOX_H / 2 + 10, f"+{hidden} more", 9.5, "#707070"))
    y = height - 62
    scene.add(Line(30, y, 64, y, "#7a8aa0", 8, css="legend"))
    scene.add(Text(72, y, "edge width: share of the root's visits", 11, anchor="start"))
    for i, (v, word) in enumerate(((-1.0, "losing"), (0.0, "even"), (1.0, "winning"))):
        r, g, b = value_colour(v)
        x0 = 340 + i * 100
        scene.add(
            Shape("rect", (x0, y - 8, x0 + 16, y + 8), f"#{r:02x}{g:02x}{b:02x}", css="legend")
        )
        scene.add(Text(x0 + 22, y, word, 11, anchor="start"))
    scene.add(
        Text(
            30,
            y + 24,
            "a node: the move into it, N = its visits, Q = the mean return "
            "for the player who made that move (+1 win, -1 loss); W/L/D: proven; "
            "+k: visited moves not drawn",
            11,
            "#444444",
            "start",
        )
    )
    return scene


def mcts_tree_svg(tree: Mapping[str, Any], *, title: str = "") -> str:
    """The tree as an SVG document."""
    return scene_svg(mcts_tree_scene(tree, title=title))


def render_mcts_tree(
    tree: Mapping[str, Any], path: str | Path, *, title: str = "", scale: float = 1.5
) -> Path:
    """Draw the tree to the picture file ``path`` (PNG, JPEG, ... by its extension)."""
    return render_scene(mcts_tree_scene(tree, title=title), path, scale=scale)
