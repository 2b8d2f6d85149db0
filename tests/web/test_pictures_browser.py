"""The lab's pictures in a real browser (Debian's Chromium through Playwright, fixtures in
``conftest.py``): the Path lab's map zooms and pans, and what it draws is the map file's cells
at the view it reports; its default problem is a long path; the labels of the A* exercise
graph and of the Monte Carlo tree never overlap (their boxes as the browser lays them out);
after a good tree then a malformed one, the Trees lab shows the error alone.

Every expected value comes from the library or the data files, never from the page.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from searchlab.algorithms.path import best_first
from searchlab.core.limits import Limits
from searchlab.domains.games.explicit_tree import ExplicitTree
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.movingai import load_map, load_scenarios

REPO_ROOT = Path(__file__).resolve().parents[2]
SEARCH_TIMEOUT_MS = 120_000
WALL_RGB, FREE_RGB = (43, 48, 59), (255, 255, 255)  # path.js's colours of a wall and a floor


def status_text(lab: Any) -> str:
    return str(lab.testid("status").inner_text())


def cell_in(lab: Any, testid: str) -> tuple[int, int]:
    """The cell typed in the start or goal box ("x,y")."""
    x, y = lab.testid(testid).input_value().split(",")
    return int(x), int(y)


def wait_for_status(page: Any, prefix: str) -> None:
    page.wait_for_function(
        "p => document.querySelector('[data-testid=status]').textContent.startsWith(p)",
        arg=prefix,
        timeout=SEARCH_TIMEOUT_MS,
    )


# --- Path: zoom and pan on a 512x512 map -----------------------------------------------------

BIG_SET, BIG_MAP = "random", "random512-40-0"  # 40% random walls: every few cells differ


def view_of(canvas: Any) -> dict[str, float]:
    """The view the canvas reports: pixels a cell, its top-left cell, its CSS size."""
    data = canvas.evaluate(
        "c => ({cell: c.dataset.cellSize, origin: c.dataset.origin,"
        " width: c.getBoundingClientRect().width, height: c.getBoundingClientRect().height})"
    )
    ox, oy = (float(v) for v in data["origin"].split(","))
    return {
        "cell": float(data["cell"]),
        "ox": ox,
        "oy": oy,
        "width": data["width"],
        "height": data["height"],
    }


def drawn_cells_match_the_map(canvas: Any, grid: Any, ends: list[tuple[int, int]]) -> int:
    """Sample the canvas at the centre of cells in view: each is the map's wall or floor colour
    for the cell the reported view puts there. Returns how many cells were compared."""
    view = view_of(canvas)
    cell = view["cell"]
    assert cell >= 4, "too small a cell to sample its centre"
    samples = []
    columns = int(view["width"] / cell)
    rows = int(view["height"] / cell)
    for i in range(12):
        for j in range(12):
            x = math.floor(view["ox"]) + 1 + (i * (columns - 2)) // 12
            y = math.floor(view["oy"]) + 1 + (j * (rows - 2)) // 12
            px = (x + 0.5 - view["ox"]) * cell
            py = (y + 0.5 - view["oy"]) * cell
            if not (0 <= px < view["width"] and 0 <= py < view["height"]):
                continue
            # The start and goal markers cover their cells and a little around them.
            if any(abs(x - ex) <= 2 and abs(y - ey) <= 2 for ex, ey in ends):
                continue
            samples.append((x, y, px, py))
    colours = canvas.evaluate(
        """(c, points) => {
            const ratio = c.width / c.getBoundingClientRect().width;
            const ctx = c.getContext('2d');
            return points.map(([px, py]) => Array.from(
                ctx.getImageData(Math.floor(px * ratio), Math.floor(py * ratio), 1, 1).data));
        }""",
        [[px, py] for _, _, px, py in samples],
    )
    wrong = []
    for (x, y, _, _), rgba in zip(samples, colours, strict=True):
        expected = FREE_RGB if grid.is_passable(x, y) else WALL_RGB
        if tuple(rgba[:3]) != expected:
            wrong.append(((x, y), tuple(rgba[:3]), expected))
    assert not wrong, f"cells drawn unlike the map (cell, drawn, expected): {wrong[:5]}"
    assert len(samples) > 100
    return len(samples)


def test_path_lab_zooms_and_pans_a_512_map(lab: Any, shared_data: Path) -> None:
    """At first the whole 512x512 map fits (about a pixel a cell); the wheel zooms toward the
    pointer (the cell under it stays there), the + button zooms further, a drag in pan mode
    moves the view by the dragged pixels, and Fit returns to the whole map. At each zoom the
    canvas shows the map file's cells where its reported view says they are."""
    grid = load_map(shared_data / "grid_movingai" / "maps" / BIG_SET / f"{BIG_MAP}.map")
    assert (grid.width, grid.height) == (512, 512)
    page = lab.open("/path")
    name = f"{BIG_SET}/{BIG_MAP}"
    page.wait_for_selector(f'[data-testid=map] option[value="map:{name}"]', state="attached")
    lab.testid("map").select_option(f"map:{name}")
    wait_for_status(page, f"map {name}:")
    canvas = lab.testid("grid")
    ends = [cell_in(lab, "start"), cell_in(lab, "goal")]
    fit = view_of(canvas)
    assert (fit["ox"], fit["oy"]) == (0, 0)
    assert fit["cell"] * 512 == pytest.approx(fit["width"], abs=1)
    assert fit["cell"] < 2.5, "the whole map fits the view at first"

    # The wheel, over a point of the map: zoom in about that point.
    box = canvas.bounding_box()
    mx, my = round(box["x"] + 0.3 * box["width"]), round(box["y"] + 0.6 * box["height"])
    px, py = mx - box["x"], my - box["y"]  # the pointer in the view (CSS pixels)
    under = (px / fit["cell"], py / fit["cell"])
    page.mouse.move(mx, my)
    for _ in range(4):
        page.mouse.wheel(0, -300)
    page.wait_for_function(
        "([c, s]) => Number(c.dataset.cellSize) > 4 * s",
        arg=[canvas.element_handle(), fit["cell"]],
        timeout=5000,
    )
    zoomed = view_of(canvas)
    assert zoomed["cell"] > 4 * fit["cell"]
    still_under = (zoomed["ox"] + px / zoomed["cell"], zoomed["oy"] + py / zoomed["cell"])
    assert still_under == pytest.approx(under, abs=0.2), "the wheel zooms about the pointer"
    drawn_cells_match_the_map(canvas, grid, ends)

    # The + button: 1.5 times larger cells, about the view's centre.
    lab.testid("zoom-in").click()
    closer = view_of(canvas)
    assert closer["cell"] == pytest.approx(1.5 * zoomed["cell"], rel=1e-3)
    centre = (
        zoomed["ox"] + zoomed["width"] / 2 / zoomed["cell"],
        zoomed["oy"] + zoomed["height"] / 2 / zoomed["cell"],
    )
    assert closer["ox"] + closer["width"] / 2 / closer["cell"] == pytest.approx(centre[0], abs=0.5)
    drawn_cells_match_the_map(canvas, grid, ends)

    # Pan: drag the map 150 px left and 90 px up: the view moves right and down by as many
    # pixels' worth of cells.
    lab.testid("pan-mode").check()
    box = canvas.bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 - 75, y0 - 45, steps=3)
    page.mouse.move(x0 - 150, y0 - 90, steps=3)
    page.mouse.up()
    panned = view_of(canvas)
    assert panned["cell"] == closer["cell"]
    assert panned["ox"] - closer["ox"] == pytest.approx(150 / closer["cell"], abs=0.05)
    assert panned["oy"] - closer["oy"] == pytest.approx(90 / closer["cell"], abs=0.05)
    drawn_cells_match_the_map(canvas, grid, ends)
    assert lab.testid("start").input_value() == f"{ends[0][0]},{ends[0][1]}", "a pan moves no end"

    lab.testid("zoom-fit").click()
    assert view_of(canvas) == pytest.approx(fit)
    lab.check()


def test_path_lab_default_problem_is_a_long_path_and_zoom_to_path_frames_it(
    lab: Any,
) -> None:
    """The default map's default start and goal are far apart: the library's optimal path
    between them is at least 90% as long as the longest problem of the map's whole benchmark
    file (the server lists only its first problems, the shortest); the lab's run shows that
    cost. Then a short benchmark problem: "Zoom to path" makes the cells larger and shows its
    whole path."""
    map_file = REPO_ROOT / "examples" / "maps" / "arena.map"
    scenarios = load_scenarios(map_file.with_name("arena.map.scen"))
    longest = max(s.optimal_length for s in scenarios)
    grid = load_map(map_file)
    page = lab.open("/path")
    wait_for_status(page, "map arena:")
    start, goal = cell_in(lab, "start"), cell_in(lab, "goal")
    result = best_first.astar(GridProblem(grid, start, goal, connectivity=8), limits=Limits())
    assert result.cost is not None and result.cost >= 0.9 * longest, (start, goal, longest)
    lab.testid("run").click()
    page.wait_for_function(
        "() => /\\d/.test(document.querySelector('[data-testid=cost]').textContent)",
        timeout=SEARCH_TIMEOUT_MS,
    )
    assert float(lab.testid("cost").get_attribute("data-value")) == pytest.approx(result.cost)

    # A short problem of the benchmark (the server's list: the file's first ones).
    short = next(i for i, s in enumerate(scenarios[:50]) if 8 <= s.optimal_length <= 15)
    lab.testid("scenario").select_option(str(short))
    canvas = lab.testid("grid")
    lab.testid("run").click()
    page.wait_for_function(
        "() => /\\d/.test(document.querySelector('[data-testid=cost]').textContent)",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.testid("to-end").click()
    before = view_of(canvas)
    path = best_first.astar(
        GridProblem(grid, scenarios[short].start, scenarios[short].goal, connectivity=8),
        limits=Limits(),
    ).path
    assert path is not None
    lab.testid("zoom-path").click()
    after = view_of(canvas)
    assert after["cell"] > 1.5 * before["cell"]
    for x, y in path:
        assert after["ox"] <= x and x + 1 <= after["ox"] + after["width"] / after["cell"] + 1e-6
        assert after["oy"] <= y and y + 1 <= after["oy"] + after["height"] / after["cell"] + 1e-6
    lab.check()


# --- labels never overlap: the A* exercise graph and the Monte Carlo tree --------------------

BOXES_JS = """svg => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const shown = (e) => getComputedStyle(e).visibility !== 'hidden'
        && getComputedStyle(e).display !== 'none';
    const name = (e) => (e.dataset.label || e.getAttribute('class') || e.tagName)
        + ' ' + JSON.stringify(e.textContent.trim());
    return {
        texts: [...svg.querySelectorAll('text')].filter(t => shown(t) && t.textContent.trim())
            .map(t => [name(t), box(t)]),
        labels: [...svg.querySelectorAll('[data-label], .shape, .g-shape')].filter(shown)
            .map(e => [name(e), box(e)]),
    };
}"""


def overlapping(named_boxes: list[list[Any]]) -> list[tuple[str, str]]:
    """Pairs of boxes that intersect (by more than a quarter pixel both ways)."""
    found = []
    for i, (name_a, a) in enumerate(named_boxes):
        for name_b, b in named_boxes[i + 1 :]:
            width = min(a[2], b[2]) - max(a[0], b[0])
            height = min(a[3], b[3]) - max(a[1], b[1])
            if width > 0.25 and height > 0.25:
                found.append((name_a, name_b))
    return found


def assert_no_label_overlaps(svg: Any, what: str, at_least: int = 2) -> int:
    """No two texts overlap, nor two labels (a label box with its text is one) or node shapes.
    Returns how many texts were compared (at least ``at_least``)."""
    boxes = svg.evaluate(BOXES_JS)
    assert len(boxes["texts"]) >= at_least, f"{what}: too few labels drawn to compare"
    for kind in ("texts", "labels"):
        pairs = overlapping(boxes[kind])
        assert not pairs, f"{what}: {len(pairs)} overlapping {kind}, e.g. {pairs[:4]}"
    return len(boxes["texts"])


ASTAR_CASES = [(24, False, 5), (24, True, 11), (18, False, 2)]


@pytest.mark.parametrize(("nodes", "consistent", "seed"), ASTAR_CASES)
def test_astar_exercise_graph_labels_do_not_overlap(
    lab: Any, screenshot: Any, nodes: int, consistent: bool, seed: int
) -> None:
    """The largest exercises (24 nodes, the server's cap): at the start, half way and at the
    end of the key, no two labels of the graph (names, h, g and f, edge costs) overlap, nor a
    label and a node."""
    page = lab.open("/path")
    lab.testid("astar-nodes").fill(str(nodes))
    lab.testid("astar-seed").fill(str(seed))
    if consistent:
        lab.testid("astar-consistent").check()
    lab.testid("astar-new").click()
    wait_for_status(page, f"A* exercise seed {seed}:")
    graph = lab.testid("astar-graph")
    assert graph.locator("[data-graph-node]").count() == nodes + 2
    assert_no_label_overlaps(graph, "A* graph, no step")
    expansions = re.search(r"(\d+) expansions", status_text(lab))
    assert expansions, status_text(lab)
    steps = int(expansions.group(1))
    for _ in range(steps // 2):
        lab.testid("astar-step").click()
    assert_no_label_overlaps(graph, "A* graph, half way")
    lab.testid("astar-run").click()
    shown = assert_no_label_overlaps(graph, "A* graph, at the end")
    assert shown >= 2 * (nodes + 2), "names and h labels at least"
    graph.scroll_into_view_if_needed()
    screenshot(page, f"astar-graph-{nodes}-{seed}", docs=False)
    lab.check()


MCTS_CASES = [("tictactoe", "2"), ("nim", "3,4,5")]  # nim's moves: "pile:count" labels
MCTS_SIMULATIONS, MCTS_STEPPED = 300, 12


@pytest.mark.parametrize(("game", "piles"), MCTS_CASES)
def test_mcts_tree_labels_do_not_overlap(lab: Any, screenshot: Any, game: str, piles: str) -> None:
    """Phase by phase through the first simulations (UCB badges on the selection's path, the
    new node, the playout's result below its leaf, the backup), then at the end with 120 nodes
    to depth 9: no two labels of the tree overlap, nor a label and a node."""
    page = lab.open("/mcts")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').dataset.kind === 'ok'",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.testid("game").select_option(game)
    settings: dict[str, object] = {"simulations": MCTS_SIMULATIONS, "c": 1.4, "seed": 5}
    if game == "nim":
        settings["piles"] = piles
    for testid, value in settings.items():
        lab.testid(testid).fill(str(value))
        lab.testid(testid).press("Tab")
    wait_for_status(page, f"{MCTS_SIMULATIONS} simulations ready")
    lab.testid("budget").select_option("120")
    lab.testid("depth").select_option("9")
    tree = lab.testid("mcts-tree")
    seen = {"ucb": 0, "playout": 0}
    for step in range(4 * MCTS_STEPPED):
        lab.testid("step-phase").click()
        phase = lab.testid("phase").inner_text().strip()
        assert_no_label_overlaps(tree, f"simulation {step // 4 + 1}, {phase}")
        seen["ucb"] += tree.locator("[data-label^=ucb]").count()
        seen["playout"] += tree.locator("[data-label=playout]").count()
    assert seen["ucb"] >= MCTS_STEPPED and seen["playout"] == MCTS_STEPPED, seen
    lab.testid("finish").click()
    lab.wait_for_sim_count(MCTS_SIMULATIONS)
    shown = assert_no_label_overlaps(tree, "the end, 120 nodes")
    assert shown >= 2 * 100, "most of 120 nodes drawn with their labels"
    screenshot(page, f"mcts-labels-{game}", docs=False)
    lab.check()


# --- Trees: a malformed tree after a good one ------------------------------------------------


def expect_refused(lab: Any, url: str) -> None:
    """The browser logs the server's 400 answer to a bad request as a console error: expected
    here, once, for ``url``; any other error still fails the test."""
    refused = [e for e in lab.errors if "status of 400" in e and url in e]
    assert len(refused) == 1, lab.errors
    lab.errors.remove(refused[0])


GOOD_TREE = """max A: B C
min B: b1=3 b2=12
min C: c1=2 c2=4
"""
BAD_TREE = """max A: B C
min B: b1=3 b2=twelve
min C: c1=2 c2=4
"""


def test_trees_lab_clears_the_previous_result_when_a_tree_is_malformed(lab: Any) -> None:
    """A good tree searched to the end draws its nodes, log and result; then a malformed tree
    (a leaf value that is not a number) leaves none of them on screen, only the library's
    error for that text in the one status line."""
    with pytest.raises(ValueError) as raised:
        ExplicitTree.from_text(BAD_TREE, source="tree")
    library_error = str(raised.value)
    page = lab.open("/trees")
    wait_for_status(page, "alphabeta:")  # the first example, loaded at start
    lab.testid("tree-text").fill(GOOD_TREE)
    lab.testid("load").click()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=tree-svg] [data-node]').length === 7"
        " && document.querySelector('[data-testid=status]').textContent.startsWith('alphabeta')",
    )
    lab.testid("run").click()
    assert "value 3" in lab.testid("result").inner_text()
    assert lab.testid("log").locator("li").count() > 0

    lab.testid("tree-text").fill(BAD_TREE)
    lab.testid("load").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').dataset.kind === 'error'"
    )
    expect_refused(lab, "/api/tree")
    line = status_text(lab)
    assert library_error in line and "\n" not in line.strip(), line
    assert lab.testid("tree-svg").locator("*").count() == 0, "the old tree is still drawn"
    assert lab.testid("log").locator("li").count() == 0, "the old log is still shown"
    assert lab.testid("result").inner_text().strip() == ""
    assert lab.testid("step-count").inner_text().strip() == "0 / 0"
    assert lab.testid("step").is_disabled() and lab.testid("run").is_disabled()
    assert lab.testid("feedback").inner_text().strip() == ""
    errors = page.locator("[data-kind=error], .error, .feedback.mistake")
    assert errors.count() == 1, "one error line"
    lab.check()


def test_a_refused_astar_exercise_or_mcts_search_clears_the_last_one(lab: Any) -> None:
    """The same rule in the A* exercise (more nodes than the server allows) and the Monte
    Carlo lab (more simulations than it allows): the previous picture goes, the error stays."""
    page = lab.open("/path")
    lab.testid("astar-nodes").fill("6")
    lab.testid("astar-seed").fill("1")
    lab.testid("astar-new").click()
    wait_for_status(page, "A* exercise seed 1:")
    graph = lab.testid("astar-graph")
    assert graph.locator("[data-graph-node]").count() == 8
    lab.testid("astar-nodes").fill("99")
    lab.testid("astar-new").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').dataset.kind === 'error'"
    )
    assert "nodes" in status_text(lab), status_text(lab)
    expect_refused(lab, "/api/exercise/astar")
    assert graph.locator("*").count() == 0 and not graph.is_visible()
    assert lab.testid("astar-table").locator("tr").count() == 0
    assert lab.testid("astar-info").inner_text().strip() == ""
    assert lab.testid("astar-step").is_disabled()
    lab.check()

    page = lab.open("/mcts")
    wait_for_status(page, "200 simulations ready")  # the page's first search
    tree = lab.testid("mcts-tree")
    lab.testid("step-simulation").click()
    assert tree.locator("[data-node]").count() > 0
    lab.testid("simulations").fill("100000")
    lab.testid("simulations").press("Tab")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').dataset.kind === 'error'"
    )
    expect_refused(lab, "/api/mcts/steps")
    assert tree.locator("*").count() == 0, "the old tree is still drawn"
    assert lab.testid("sim-total").inner_text().strip() == "0"
    assert lab.testid("step-phase").is_disabled()
    lab.check()
