"""Pictures of trees: the SVG is well-formed XML with one shape per node (squares for MAX,
circles for MIN, boxes for leaves), the cut edges are the pruned branches, the title and
legend are there; the PNG writer draws the same scene; the MCTS tree picture shows the most
visited children with edge widths growing with visits."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from searchlab.algorithms.mcts import MCTS
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.explicit_tree import load_tree
from searchlab.exercises.alphabeta_exercise import generate_alphabeta
from searchlab.exercises.alphabeta_key import answer_key
from searchlab.exercises.alphabeta_pictures import (
    exercise_picture,
    exercise_svg,
    key_notes,
    minimax_notes,
)
from searchlab.exercises.astar_exercise import generate_astar
from searchlab.exercises.astar_render import astar_svg
from searchlab.games import make
from searchlab.viz.mcts_tree_png import mcts_tree_dict, mcts_tree_svg, render_mcts_tree
from searchlab.viz.scene import Line, Scene, Text, render_scene
from searchlab.viz.tree_picture import tree_layout, tree_svg

SVG = "{http://www.w3.org/2000/svg}"
TREES = Path(__file__).resolve().parents[2] / "examples" / "trees"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def shapes(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if (e.get("class") or "").split() == [css]]


@pytest.mark.parametrize("seed", range(25))
def test_exercise_svg_has_one_shape_per_node(seed: int) -> None:
    exercise = generate_alphabeta(seed=seed)
    tree = exercise.tree
    for answers in (True, False):
        root = parse(exercise_svg(exercise, answers=answers))
        squares, circles, leaves = (shapes(root, c) for c in ("max", "min", "leaf"))
        assert all(e.tag == f"{SVG}rect" for e in squares + leaves)
        assert all(e.tag == f"{SVG}circle" for e in circles)
        kinds = {"max": squares, "min": circles, "leaf": leaves}
        for kind, elements in kinds.items():
            drawn = sorted(e.get("data-node") for e in elements)
            assert drawn == sorted(n for n in tree.names() if tree.kind(n) == kind)
        assert root.find(f"{SVG}title") is not None
        texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert f"seed {seed}" in texts and "MAX" in texts and "MIN" in texts
        cut_edges = sorted(e.get("data-child") for e in root.iter() if e.get("class") == "edge cut")
        if answers:
            assert cut_edges == sorted(exercise.key.pruned)
            values = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "value"]
            assert len(values) == sum(1 for a in exercise.key.nodes.values() if a.kind != "leaf")
            assert "pruned branch" in texts
        else:
            assert cut_edges == []
            assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "value"]


def test_aima_picture_shows_the_known_answer() -> None:
    tree = load_tree(TREES / "aima_fig5_2.tree")
    root = parse(tree_svg(tree, key_notes(answer_key(tree)), title="AIMA 5.2"))
    cut = [e.get("data-child") for e in root.iter() if e.get("class") == "edge cut"]
    assert cut == ["c2", "c3"]
    texts = {t.get("class"): [] for t in root.iter(f"{SVG}text")}
    for t in root.iter(f"{SVG}text"):
        texts[t.get("class")].append(t.text)
    assert sorted(texts["value"]) == ["2", "2", "3", "3"]
    assert "α=3" in texts["alpha"] and "β=2" in texts["beta"]
    assert texts["title"] == ["AIMA 5.2"]
    pv = [e.get("data-child") for e in root.iter() if e.get("class") == "edge pv"]
    assert pv == ["B", "b1"]
    grey = [e.get("data-node") for e in root.iter() if e.get("stroke-dasharray") == "4 3"]
    assert sorted(grey) == ["c2", "c3"]  # never visited


def test_minimax_picture_has_values_and_no_cuts() -> None:
    tree = load_tree(TREES / "deep_cutoff.tree")
    root = parse(tree_svg(tree, minimax_notes(tree), title="minimax"))
    assert not [e for e in root.iter() if e.get("class") == "edge cut"]
    values = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "value"]
    assert len(values) == sum(1 for n in tree.names() if tree.kind(n) != "leaf")
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "pruned branch" not in texts and "α" not in texts


def test_layout_puts_parents_above_the_middle_of_their_children() -> None:
    tree = generate_alphabeta(seed=4).tree
    places = tree_layout(tree)
    xs = [places[leaf][0] for leaf in tree.leaves()]
    assert xs == list(range(len(xs)))
    for name in tree.names():
        children = tree.children(name)
        if children:
            x, depth = places[name]
            assert places[children[0]][0] < x < places[children[-1]][0]
            assert all(places[c][1] == depth + 1 for c in children)


def test_png_of_an_exercise(tmp_path: Path) -> None:
    exercise = generate_alphabeta(depth=3, leaves=12, min_cuts=3, seed=1)
    out = exercise_picture(exercise, tmp_path / "ex.png")
    image = Image.open(out)
    assert image.format == "PNG" and image.width >= 720 and image.height > 300
    colours = {colour for _, colour in image.getcolors(1 << 20)}
    assert (214, 39, 40) in colours  # the red cut marks are drawn


def test_png_text_falls_back_to_ascii_without_dejavu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import ImageFont

    from searchlab.viz import scene

    scene._font.cache_clear()

    real_truetype = ImageFont.truetype

    def missing(font: object, *args: object, **kwargs: object) -> object:
        if isinstance(font, str):  # a system font by name: as on a machine without DejaVu
            raise OSError("no such font")
        return real_truetype(font, *args, **kwargs)  # Pillow's bundled font

    monkeypatch.setattr(ImageFont, "truetype", missing)
    drawn: list[str] = []
    from PIL import ImageDraw

    real = ImageDraw.ImageDraw.text

    def spy(self: object, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        real(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    picture = Scene(200, 60)
    picture.add(Text(100, 30, "α=3 β=+∞"))
    picture.add(Line(0, 0, 200, 60, width=6))
    render_scene(picture, tmp_path / "fallback.png")
    scene._font.cache_clear()
    assert drawn == ["a=3 b=+inf"]


def test_astar_svg_draws_every_node_and_edge() -> None:
    exercise = generate_astar(nodes=6, seed=3)
    root = parse(astar_svg(exercise))
    nodes = sorted(e.get("data-node") for e in root.iter() if e.get("class") == "node")
    assert nodes == sorted(exercise.nodes)
    edges = [e for e in root.iter() if (e.get("class") or "").startswith("edge")]
    assert len(edges) == len(exercise.edges)
    path = {
        frozenset((e.get("data-u"), e.get("data-v"))) for e in edges if "path" in e.get("class")
    }
    assert path == {
        frozenset(p) for p in zip(exercise.key.path, exercise.key.path[1:], strict=False)
    }
    costs = sorted(int(t.text) for t in root.iter(f"{SVG}text") if t.get("class") == "cost")
    assert costs == sorted(c for _, _, c in exercise.edges)


@pytest.fixture(scope="module")
def tictactoe_tree() -> tuple[dict, object]:
    game = make("tictactoe")
    state = game.initial_state()
    searcher = MCTS(game, seed=3, tier="reference")
    searcher.search(state, Limits(simulations=1500))
    return searcher.root, state


def test_mcts_tree_dict_keeps_the_most_visited_children(tictactoe_tree: tuple) -> None:
    root, state = tictactoe_tree
    tree = mcts_tree_dict(root, state, depth=2, width=4)
    assert tree["visits"] == root.visits == 1500
    visited = sorted((c.visits for c in root.children if c is not None and c.visits), reverse=True)
    assert [c["visits"] for c in tree["children"]] == visited[:4]
    assert tree["hidden"] == len(visited) - 4
    labels = {state.action_to_string(a) for a in state.legal_actions()}
    for child in tree["children"]:
        assert child["label"] in labels
        assert len(child["children"]) <= 4
        assert all(not grandchild["children"] for grandchild in child["children"])
        assert sum(g["visits"] for g in child["children"]) <= child["visits"]


def test_mcts_tree_edges_grow_with_visits(tictactoe_tree: tuple, tmp_path: Path) -> None:
    root, state = tictactoe_tree
    tree = mcts_tree_dict(root, state, depth=2)
    svg = parse(mcts_tree_svg(tree, title="tictactoe"))
    boxes = [e for e in svg.iter() if e.get("class") == "node"]
    count = 1 + len(tree["children"]) + sum(len(c["children"]) for c in tree["children"])
    assert len(boxes) == count
    edges = [e for e in svg.iter() if e.get("class") == "edge"]
    assert len(edges) == count - 1
    width = {e.get("data-path"): float(e.get("stroke-width")) for e in edges}
    visits = {str(i): c["visits"] for i, c in enumerate(tree["children"])}
    visits.update(
        {
            f"{i}.{j}": g["visits"]
            for i, c in enumerate(tree["children"])
            for j, g in enumerate(c["children"])
        }
    )
    assert set(width) == set(visits)
    ranked = sorted(visits, key=lambda p: visits[p])
    assert [width[p] for p in ranked] == sorted(width.values())  # wider with more visits
    assert width[ranked[-1]] > 3 * width[ranked[0]]
    out = render_mcts_tree(tree, tmp_path / "mcts.png", title="tictactoe")
    assert Image.open(out).format == "PNG"


@pytest.mark.parametrize(("depth", "width"), [(0, 3), (7, 3), (2, 0), (True, 2)])
def test_mcts_tree_bad_sizes(tictactoe_tree: tuple, depth: object, width: object) -> None:
    root, state = tictactoe_tree
    with pytest.raises(InvalidParameterError):
        mcts_tree_dict(root, state, depth=depth, width=width)  # type: ignore[arg-type]


def test_random_trees_draw_without_overlapping_nodes() -> None:
    rng = random.Random(1)
    for _ in range(20):
        exercise = generate_alphabeta(
            depth=rng.randint(2, 7), leaves=40, min_cuts=0, seed=rng.randint(0, 10**6)
        )
        root = parse(exercise_svg(exercise))
        spots = set()
        for e in root.iter():
            if (e.get("class") or "") in ("max", "min", "leaf"):
                spot = (e.get("x") or e.get("cx"), e.get("y") or e.get("cy"))
                assert spot not in spots
                spots.add(spot)
