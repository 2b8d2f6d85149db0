"""An A* exercise as Markdown (the graph, the heuristic, and the answer key step by step) and
as an SVG picture (the graph with its costs and heuristic values; in the answer, the path
drawn thick and each expanded node numbered in the order A* expanded it).

>>> from searchlab.exercises.astar_exercise import generate_astar
>>> exercise = generate_astar(nodes=4, seed=1)
>>> astar_markdown(exercise).splitlines()[0]
'# A* exercise (seed 1)'
>>> astar_svg(exercise).count("<circle") == len(exercise.nodes) + 1  # + the legend's
True
"""

from __future__ import annotations

import math

from searchlab.exercises.astar_exercise import AStarExercise, Entry
from searchlab.viz.scene import Line, Scene, Shape, Text, scene_svg

__all__ = ["astar_markdown", "astar_scene", "astar_svg"]


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _entry(e: Entry) -> str:
    return f"{e.node}({_n(e.g)}+{_n(e.h)}={_n(e.f)})"


def astar_markdown(exercise: AStarExercise, *, answers: bool = True) -> str:
    """The exercise (and, with ``answers``, its key) as one Markdown document."""
    kind = "consistent" if exercise.consistent else "admissible (not necessarily consistent)"
    out = [
        f"# A* exercise (seed {exercise.seed})",
        "",
        f"Find a cheapest path from S to T with A* (f = g + h). The heuristic is {kind}. "
        "Take from the open list the node with the smallest f; on a tie, the goal first, then "
        "the larger g, then the node that entered the open list first. Test for the goal when "
        "a node is taken from the open list. Put a closed node back on the open list when a "
        "cheaper path to it is found. Give the open and closed lists after each expansion.",
        "",
        "Edges (undirected, with their costs):",
        "",
        ", ".join(f"{u}-{v} {c}" for u, v, c in exercise.edges),
        "",
        "| node | " + " | ".join(exercise.nodes) + " |",
        "|---" * (len(exercise.nodes) + 1) + "|",
        "| h | " + " | ".join(str(exercise.heuristic[n]) for n in exercise.nodes) + " |",
    ]
    if not answers:
        return "\n".join(out) + "\n"
    key = exercise.key
    out += [
        "",
        "## Answer key",
        "",
        "Entries read node(g+h=f); the open list in the order A* takes it.",
        "",
        f"Start: open [{_entry(key.start_open[0])}], closed [].",
        "",
        "| step | expand | successors | open list after | closed list after |",
        "|---|---|---|---|---|",
    ]
    for step in key.steps:
        successors = ", ".join(f"{_entry(e)} {what}" for e, what in step.successors)
        out.append(
            f"| {step.number} | {_entry(step.expanded)} | {successors or '(none)'} | "
            f"{', '.join(_entry(e) for e in step.open)} | "
            f"{', '.join(e.node for e in step.closed)} |"
        )
    out += [
        "",
        f"Then T is taken from the open list with g = {_n(key.cost)}: the goal, A* stops.",
        "",
        f"- Path: **{' - '.join(key.path)}**, cost **{_n(key.cost)}**",
        f"- Expanded {key.expanded} nodes, generated {key.generated} successors, reopened "
        f"{key.reopened}",
    ]
    if key.reopenings:
        out.append(
            "- Reopenings: "
            + "; ".join(
                f"{node} (g {_n(old)} -> {_n(new)}: a cheaper path to a closed node)"
                for node, old, new in key.reopenings
            )
        )
    else:
        out.append("- Reopenings: none")
    true = exercise.true_cost
    out.append(
        "- True costs to T (h*): "
        + ", ".join(f"{n} {_n(true[n])}" for n in exercise.nodes)
        + f"; the heuristic is {'consistent' if exercise.is_consistent else 'not consistent'}"
    )
    return "\n".join(out) + "\n"


def _layout(exercise: AStarExercise) -> dict[str, tuple[float, float]]:
    """Nodes on an ellipse (so no edge runs through a node): S at the left, T at the right,
    the others along the upper and lower arcs, farther from T (true cost) to the left."""
    neighbours: dict[str, list[str]] = {n: [] for n in exercise.nodes}
    for u, v, _ in exercise.edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    hops = {"S": 0}
    queue = ["S"]
    for node in queue:
        for other in neighbours[node]:
            if other not in hops:
                hops[other] = hops[node] + 1
                queue.append(other)
    middle = sorted((n for n in exercise.nodes if n not in ("S", "T")), key=lambda n: (hops[n], n))
    upper, lower = middle[0::2], middle[1::2]
    places = {"S": (-1.0, 0.0), "T": (1.0, 0.0)}
    for arc, sign in ((upper, -1.0), (lower, 1.0)):
        for k, node in enumerate(arc):
            angle = math.pi * (k + 1) / (len(arc) + 1)
            places[node] = (-math.cos(angle), sign * math.sin(angle))
    return places


def astar_scene(exercise: AStarExercise, *, answers: bool = True) -> Scene:
    """The picture as a :class:`~searchlab.viz.scene.Scene`."""
    places = _layout(exercise)
    radius = 22
    rx = max(190.0, 48.0 * len(exercise.nodes))
    ry = max(150.0, 26.0 * len(exercise.nodes))
    width = round(2 * rx + 120)
    top = 70
    height = round(2 * ry + top + 130)
    key = exercise.key
    title = (
        f"A* exercise (seed {exercise.seed}): path {' '.join(key.path)}, cost {_n(key.cost)}"
        if answers
        else f"A* exercise (seed {exercise.seed}): a cheapest path from S to T?"
    )
    scene = Scene(width, height, title=title)

    def xy(node: str) -> tuple[float, float]:
        x, y = places[node]
        return width / 2 + x * rx, top + 25 + ry + y * ry

    scene.add(Text(width / 2, 24, title, 16, bold=True, css="title"))
    on_path = (
        {frozenset(p) for p in zip(key.path, key.path[1:], strict=False)} if answers else set()
    )
    labels: list[tuple[float, float]] = []
    for u, v, cost in exercise.edges:
        (x1, y1), (x2, y2) = xy(u), xy(v)
        best = frozenset((u, v)) in on_path
        scene.add(
            Line(
                x1,
                y1,
                x2,
                y2,
                "#1f5fbf" if best else "#666666",
                4 if best else 1.5,
                css="edge path" if best else "edge",
                data={"u": u, "v": v},
            )
        )
        for t in (0.5, 0.4, 0.6, 0.3, 0.7):  # a free place for the cost on the edge
            mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            if all(abs(mx - ox) > 20 or abs(my - oy) > 20 for ox, oy in labels):
                break
        labels.append((mx, my))
        scene.add(
            Shape(
                "rect", (mx - 9, my - 9, mx + 9, my + 9), "#fafaf7", "#fafaf7", 0.5, css="cost-box"
            )
        )
        scene.add(Text(mx, my, str(cost), 12, "#1e1e1e", bold=True, css="cost"))
    order = {step.expanded.node: step.number for step in key.steps} if answers else {}
    for node in exercise.nodes:
        x, y = xy(node)
        fill = "#d5ecd4" if node in ("S", "T") else "#ffffff"
        scene.add(
            Shape(
                "circle",
                (x - radius, y - radius, x + radius, y + radius),
                fill,
                css="node",
                data={"node": node},
            )
        )
        scene.add(Text(x, y, node, 14, bold=True))
        below = places[node][1] > 0  # labels outside the ellipse
        label_y = y + radius + 10 if below else y - radius - 10
        h_text = f"h={exercise.heuristic[node]}"
        scene.add(Text(x, label_y, h_text, 11, "#6b3fa0", css="h"))
        if node in order:
            scene.add(
                Text(
                    x + radius + 3, label_y, f"#{order[node]}", 11, "#b35900", "start", css="order"
                )
            )
    y = height - 40
    scene.add(Shape("circle", (20, y - 9, 38, y + 9), "#ffffff", css="legend"))
    scene.add(Text(44, y, "node (h = heuristic value)", 11, anchor="start"))
    scene.add(Text(250, y, "edge numbers: costs (undirected)", 11, anchor="start"))
    if answers:
        scene.add(Line(20, y + 22, 50, y + 22, "#1f5fbf", 4, css="legend"))
        scene.add(Text(58, y + 22, "cheapest path found", 11, anchor="start"))
        scene.add(Text(250, y + 22, "#k: k-th node A* expanded", 11, "#b35900", "start"))
    return scene


def astar_svg(exercise: AStarExercise, *, answers: bool = True) -> str:
    """The exercise as an SVG picture."""
    return scene_svg(astar_scene(exercise, answers=answers))
