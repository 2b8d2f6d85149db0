"""The browser lab in a real browser: Debian's Chromium driven by Playwright, against a real
``searchlab serve`` (fixtures in ``conftest.py``).

Each lab loads without console errors; a whole game of tic-tac-toe played by clicks against the
exact alpha-beta agent is a draw; the Path lab's counters for a Moving AI query equal the
library's; an alpha-beta exercise answered with one deliberate mistake gets exactly that mark
flagged; the Monte Carlo lab's counts equal the library's observer events for the same seeded
search. Every expected value is computed here with the library's public API, never copied from
the page. Screenshots of each lab are saved (see ``conftest.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.path import best_first
from searchlab.algorithms.path.registry import DEFAULT_WEIGHT, PATH_ALGORITHMS
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.core.observer import TraceRecorder
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.movingai import load_map, load_scenarios
from searchlab.exercises.alphabeta_exercise import generate_alphabeta
from searchlab.exercises.alphabeta_grading import Marks, grade
from searchlab.games import make

LABS = ("play", "path", "trees", "mcts")
EXACT_AGENT = "alphabeta:depth=9"  # tic-tac-toe has at most 9 plies: a full-depth search
SEARCH_TIMEOUT_MS = 120_000


def number(text: str) -> float:
    """The number a counter shows ("1,234", "1 234", "12.5")."""
    cleaned = re.sub(r"[\s,\u2009\u202f]", "", text)
    match = re.search(r"-?\d+(?:\.\d+)?", cleaned)
    assert match, f"no number in {text!r}"
    return float(match.group())


# --- every lab loads ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/play", "/path", "/trees", "/mcts"])
def test_each_page_loads_without_errors(lab: Any, path: str) -> None:
    page = lab.open(path)
    for name in LABS:
        link = lab.testid(f"nav-{name}")
        assert link.count() == 1, f"{path}: nav link nav-{name} missing"
        assert link.get_attribute("href"), f"{path}: nav-{name} has no href"
    page.wait_for_load_state("networkidle")
    assert lab.testid("status").get_attribute("data-kind") != "error", lab.testid(
        "status"
    ).inner_text()
    lab.check()


def test_nav_links_lead_to_each_lab(lab: Any) -> None:
    page = lab.open("/")
    for name in LABS:
        lab.testid(f"nav-{name}").click()
        page.wait_for_url(f"**/{name}")
        page.wait_for_selector("[data-testid=status]", state="attached")
    lab.check()


# --- Play: tic-tac-toe by clicks against the exact agent -------------------------------------


def exact_value(game: Any, state: Any, player: int) -> float:
    """The exact value of ``state`` for ``player`` (alpha-beta to the end of the game)."""
    if state.is_terminal():
        return float(state.returns()[player])
    value = alphabeta(game, state).value  # for the player to move there (zero-sum)
    return value if state.current_player() == player else -value


def exact_best(game: Any, state: Any) -> int:
    """The move of the player to move with the best exact value (first such move)."""
    me = state.current_player()
    scored = [(exact_value(game, state.apply(a), me), a) for a in state.legal_actions()]
    best = max(value for value, _ in scored)
    return next(a for value, a in scored if value == best)


def legal_cells(board: Any) -> dict[str, Any]:
    """The clickable cells of the Play board (a person to move), by the move label they play."""
    cells = board.locator("[data-cell].legal")
    return {cells.nth(i).get_attribute("data-label"): cells.nth(i) for i in range(cells.count())}


def wait_for_legal_cells(page: Any, count: int) -> None:
    """Wait until the person is to move with ``count`` clickable cells."""
    page.wait_for_function(
        "n => document.querySelector('[data-testid=board]').dataset.turn === 'human'"
        " && document.querySelectorAll('[data-testid=board] [data-cell].legal').length === n",
        arg=count,
        timeout=SEARCH_TIMEOUT_MS,
    )


def test_tictactoe_played_by_clicks_against_the_exact_agent_is_a_draw(
    lab: Any, screenshot: Any
) -> None:
    """The person (X) plays the exactly best move each turn, so any weaker agent loses; the
    exact alpha-beta agent (full depth) holds the draw."""
    page, _ = lab.new_game("tictactoe", EXACT_AGENT)
    board = lab.testid("board")
    game = make("tictactoe")
    state = game.initial_state()
    while not state.is_terminal():
        assert state.current_player() == 0
        wait_for_legal_cells(page, len(state.legal_actions()))
        cells = legal_cells(board)
        expected = {state.action_to_string(a) for a in state.legal_actions()}
        assert set(cells) == expected, f"clickable cells {sorted(cells)} != legal {expected}"
        label = state.action_to_string(exact_best(game, state))
        cells[label].click()
        state = state.apply(state.string_to_action(label))
        if state.is_terminal():
            break
        # The agent answers: its move is the legal label that is no longer clickable.
        before = {state.action_to_string(a) for a in state.legal_actions()}
        wait_for_legal_cells(page, len(before) - 1)
        after = set(legal_cells(board))
        (reply,) = before - after
        state = state.apply(state.string_to_action(reply))
        # The agent's analysis stays on the panel until the person moves.
        assert "alphabeta" in lab.testid("analysis-algorithm").inner_text()
        assert lab.testid("analysis-pv").inner_text().split()[0] == reply
        if len(after) == 1:
            screenshot(page, "play-alphabeta", docs=False)  # its analysis of its last move
    result = lab.testid("result")
    result.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=result]').textContent.trim() !== ''"
    )
    assert list(state.returns()) == [0.0, 0.0], f"the game in the library: {state}"
    assert "draw" in result.inner_text().lower(), result.inner_text()
    pieces = [text.strip() for text in board.locator("[data-cell] .piece").all_inner_texts()]
    assert sorted(p for p in pieces if p not in ("", ".")) == ["O"] * 4 + ["X"] * 5
    screenshot(page, "play-end", docs=False)
    lab.check()


MCTS_AGENT_SECONDS = 1.5  # a time budget: the search lasts long enough to stream


def test_play_streams_mcts_analysis_as_heat_map_and_bars(lab: Any, screenshot: Any) -> None:
    """While MCTS thinks, root statistics stream over the websocket; when it has moved, the
    board's heat map and the bar chart show each move's visits, which add up to the
    simulations it ran (the root's visits)."""
    spec = f"mcts:time={MCTS_AGENT_SECONDS}"
    page, frames = lab.new_game("tictactoe", spec)
    wait_for_legal_cells(page, 9)
    legal_cells(lab.testid("board"))["b2"].click()
    wait_for_legal_cells(page, 7)
    kinds = [frame.get("type") for frame in frames]
    assert "result" in kinds, kinds
    result = frames[kinds.index("result")]
    live = [
        frame
        for frame in frames[: kinds.index("result")]
        if frame.get("type") == "analysis" and frame.get("moves")
    ]
    assert live, "no analysis with root statistics arrived before the move"
    visits = {move["label"]: move["visits"] for move in result["moves"]}
    simulations = result["stats"]["simulations"]
    assert simulations > 0 and sum(visits.values()) == simulations
    # The heat map: every searched move's cell is shaded and titled with its visits.
    heated = lab.testid("board").locator("[data-cell].heated")
    titles = {
        title.split(":")[0]: int(number(title.split(":")[1].split("visits")[0]))
        for title in heated.evaluate_all("cells => cells.map(c => c.title)")
    }
    assert titles == {label: n for label, n in visits.items() if n > 0}
    bars = lab.testid("analysis-bars").locator("g[data-move]")
    shown = set(bars.evaluate_all("groups => groups.map(g => g.dataset.move)"))
    assert shown == {label for label, n in visits.items() if n > 0}
    assert number(lab.testid("analysis").locator("#an-simulations").inner_text()) == simulations
    screenshot(page, "play")
    lab.check()


# --- Trees: an alpha-beta exercise with one deliberate mistake -------------------------------

EXERCISE = {"depth": 4, "branching": 3, "leaves": 20, "low": -10, "high": 10, "min_cuts": 5}
EXERCISE_SEED = 2024


def test_alphabeta_exercise_with_one_mistake_flags_exactly_that_mark(
    lab: Any, screenshot: Any
) -> None:
    """Every value and cut of the library's answer key is entered, except one value changed
    by one: the page marks that input wrong, every other mark right, and names that node
    and the library's rule in its feedback."""
    exercise = generate_alphabeta(**EXERCISE, seed=EXERCISE_SEED)
    key = exercise.key
    page = lab.open("/trees")
    fields = {
        "ex-depth": EXERCISE["depth"],
        "ex-branching": EXERCISE["branching"],
        "ex-leaves": EXERCISE["leaves"],
        "ex-values": f"{EXERCISE['low']}..{EXERCISE['high']}",
        "ex-min-cuts": EXERCISE["min_cuts"],
        "ex-seed": EXERCISE_SEED,
    }
    for testid, value in fields.items():
        lab.testid(testid).fill(str(value))
    lab.testid("new-exercise").click()
    svg = lab.testid("tree-svg")
    page.wait_for_selector("[data-testid=tree-svg] input[data-node-value]")
    drawn = set(svg.locator("[data-node]").evaluate_all("nodes => nodes.map(n => n.dataset.node)"))
    assert drawn == set(exercise.tree.names()), "the page drew another tree than the library's"
    inputs = set(
        svg.locator("input[data-node-value]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.nodeValue)"
        )
    )
    inner = {name for name in exercise.tree.names() if exercise.tree.kind(name) != "leaf"}
    assert inputs == inner, "an input per inner node"

    values = {name: key.nodes[name].value for name in sorted(inner) if name in key.nodes}
    # The deliberate mistake: the last inner node (not the root) alpha-beta finishes, one too high.
    root = exercise.tree.root
    wrong = max((n for n in values if n != root), key=lambda n: key.nodes[n].backup_order)
    answer = dict(values)
    answer[wrong] = values[wrong] + 1
    for name, value in answer.items():
        svg.locator(f'input[data-node-value="{name}"]').fill(f"{value:g}")
    for name in key.pruned:
        svg.locator(f'[data-cut="{name}"]').click()
    marked = svg.locator("[data-cut].marked").evaluate_all("nodes => nodes.map(n => n.dataset.cut)")
    assert sorted(marked) == sorted(key.pruned), "the cut toggles did not take"
    lab.testid("check").click()
    feedback = lab.testid("feedback")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=feedback]').textContent.trim() !== ''"
    )

    expected = grade(key, Marks(answer, tuple(key.pruned)))
    assert not expected.correct and expected.first_mistake is not None
    assert expected.first_mistake.node == wrong
    flagged = svg.locator(".wrong, .missed").evaluate_all(
        "nodes => nodes.map(n => n.dataset.nodeValue || n.dataset.cut || n.dataset.node)"
    )
    assert flagged == [wrong], f"flagged marks {flagged}, expected only {wrong}"
    right = svg.locator(".ok").count()
    assert right == len(answer) - 1 + len(key.pruned), "every other mark is right"
    assert svg.locator(".first-mistake").get_attribute("data-node") == wrong
    text = " ".join(feedback.inner_text().split())
    assert wrong in text, text
    assert " ".join(expected.first_mistake.rule.split()) in text, text
    fit = lab.testid("fit")  # the page's "fit to width" (clicking the cuts scrolled the tree)
    if fit.count():
        fit.check()
    screenshot(page, "trees")
    lab.check()


# --- Path: a Moving AI query, counters as the library's ---------------------------------------

MOVINGAI_SET, MOVINGAI_MAP = "dao", "den312d"


def library_path(grid: Any, start: Any, goal: Any, algorithm: str) -> Any:
    """The query as ``searchlab path MAP --from --to --algorithm`` runs it (8-connected)."""
    solve = {"astar": best_first.astar, "dijkstra": best_first.dijkstra}[algorithm]
    return solve(GridProblem(grid, start, goal, connectivity=8), limits=Limits())


def test_path_lab_counters_equal_the_library_on_a_moving_ai_query(
    lab: Any, screenshot: Any, shared_data: Path
) -> None:
    """The longest problem of den312d's scenario file, A* (octile) beside Dijkstra: each
    panel's expanded, generated, reopened and cost are the library's for the same query, and
    the events the page animates hold that many expansions."""
    root = shared_data / "grid_movingai"
    map_file = root / "maps" / MOVINGAI_SET / f"{MOVINGAI_MAP}.map"
    scenario = load_scenarios(root / "scenarios" / MOVINGAI_SET / f"{MOVINGAI_MAP}.map.scen")[-1]
    grid = load_map(map_file)
    expected = {
        name: library_path(grid, scenario.start, scenario.goal, name)
        for name in ("astar", "dijkstra")
    }
    assert expected["astar"].is_solved
    assert expected["astar"].cost == pytest.approx(scenario.optimal_length, abs=0.01)

    page = lab.open("/path")
    name = f"{MOVINGAI_SET}/{MOVINGAI_MAP}"
    option = f"map:{name}"
    page.wait_for_selector(f'[data-testid=map] option[value="{option}"]', state="attached")
    lab.testid("map").select_option(option)
    page.wait_for_function(
        "name => document.querySelector('[data-testid=status]').textContent"
        ".startsWith(`map ${name}:`)",
        arg=name,
    )
    for testid, (x, y) in (("start", scenario.start), ("goal", scenario.goal)):
        lab.testid(testid).fill(f"{x},{y}")
        lab.testid(testid).press("Tab")
    lab.testid("algorithm").select_option("astar")
    lab.testid("heuristic").select_option("octile")
    lab.testid("compare").check()
    lab.testid("algorithm-2").select_option("dijkstra")
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/api/path") else None)
    lab.testid("run").click()
    page.wait_for_function(
        "() => ['cost', 'cost-2'].every(id => "
        "/\\d/.test(document.querySelector(`[data-testid=${id}]`).textContent))",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.testid("to-end").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=progress]').textContent.includes('done')"
    )
    bodies = [answer.json() for answer in answers]
    assert len(bodies) == 2
    for suffix, algorithm in (("", "astar"), ("-2", "dijkstra")):
        result = expected[algorithm]
        shown = {
            counter: number(lab.testid(f"{counter}{suffix}").inner_text())
            for counter in ("expanded", "generated", "reopened")
        }
        assert shown == {
            "expanded": result.expanded,
            "generated": result.generated,
            "reopened": result.reopened,
        }, algorithm
        cost = lab.testid(f"cost{suffix}")
        assert cost.inner_text().strip() == f"{result.cost:.4f}"
        assert float(cost.get_attribute("data-value")) == pytest.approx(result.cost, rel=1e-12)
    for body in bodies:
        expansions = sum(1 for event in body["events"] if event[0] == "expand")
        matching = [r for r in expected.values() if r.expanded == body["expanded"]]
        assert matching and expansions == body["expanded"], "the animated events disagree"
    screenshot(page, "path")
    lab.check()


def test_path_lab_offers_the_registry_algorithms(lab: Any) -> None:
    """Both algorithm menus list the path algorithms' registry, in its order, with its titles;
    the weight and heuristic fields are dimmed exactly for the algorithms that do not take them;
    the weights start at the registry's default."""
    page = lab.open("/path")
    page.wait_for_load_state("networkidle")
    for testid in ("weight", "weight-2"):
        assert float(lab.testid(testid).input_value()) == DEFAULT_WEIGHT
    expected = [[name, entry.title] for name, entry in PATH_ALGORITHMS.items()]
    for testid in ("algorithm", "algorithm-2"):
        shown = (
            lab.testid(testid)
            .locator("option")
            .evaluate_all("options => options.map(o => [o.value, o.textContent])")
        )
        assert shown == expected
    for name, entry in PATH_ALGORITHMS.items():
        lab.testid("algorithm").select_option(name)
        for option in ("weight", "heuristic"):
            dimmed = lab.testid(option).evaluate(
                "el => el.closest('.field').classList.contains('unused')"
            )
            assert dimmed == (option not in entry.options), (name, option)
    lab.check()


# --- Monte Carlo: the page's counts are the library's observer events -------------------------

MCTS_SIMULATIONS, MCTS_SEED, MCTS_C = 60, 3, 1.4
MCTS_MOVES = ("b2", "a1", "c3", "a3")  # five plies left: some simulations end in a known leaf
PHASES = ("selection", "expansion", "playout", "backup")


def library_simulations(
    moves: tuple[str, ...], simulations: int, seed: int, c: float
) -> list[dict[str, int]]:
    """Per simulation of the same seeded reference-tier MCTS on tic-tac-toe, the number of
    Select, Playout and Backup events the library's observer received, and whether it
    expanded a node (its leaf is new: reached for the first time)."""
    recorder = TraceRecorder()
    game = make("tictactoe")
    mcts(
        game,
        play(game.initial_state(), list(moves)),
        limits=Limits(simulations=simulations),
        seed=seed,
        c=c,
        tier="reference",
        observer=recorder,
    )
    runs: list[list[Any]] = []
    for event in recorder.events:
        if event.kind == "visit" and event.path == ():
            runs.append([])
        runs[-1].append(event)
    seen: set[tuple[int, ...]] = set()
    counts = []
    for events in runs:
        kinds = [event.kind for event in events]
        (leaf,) = [event.path for event in events if event.kind == "playout"]
        counts.append(
            {
                "select": kinds.count("select"),
                "expand": int(leaf not in seen and leaf != ()),
                "playout": kinds.count("playout"),
                "backup": kinds.count("backup"),
            }
        )
        seen.add(leaf)
    assert sum(c["playout"] for c in counts) == simulations == len(counts)
    return counts


def shown_counts(lab: Any) -> dict[str, int]:
    return {
        kind: int(number(lab.testid(f"count-{kind}").inner_text()))
        for kind in ("select", "expand", "playout", "backup")
    }


def totals(per_simulation: list[dict[str, int]]) -> dict[str, int]:
    return {
        kind: sum(counts[kind] for counts in per_simulation)
        for kind in ("select", "expand", "playout", "backup")
    }


def test_mcts_lab_counts_match_the_library_observer_events(lab: Any, screenshot: Any) -> None:
    """Phase by phase, simulation by simulation and to the end, the page's counts of
    selections, expansions, playouts and backups are those of the library's own events for
    the same seeded search."""
    expected = library_simulations(MCTS_MOVES, MCTS_SIMULATIONS, MCTS_SEED, MCTS_C)
    page = lab.open("/mcts")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').dataset.kind === 'ok'",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.testid("game").select_option("tictactoe")
    settings = {
        "moves": " ".join(MCTS_MOVES),
        "simulations": MCTS_SIMULATIONS,
        "c": MCTS_C,
        "seed": MCTS_SEED,
    }
    for testid, value in settings.items():
        lab.testid(testid).fill(str(value))
        lab.testid(testid).press("Tab")
    page.wait_for_function(
        "n => document.querySelector('[data-testid=status]').textContent"
        ".startsWith(`${n} simulations ready`)"
        " && document.querySelector('[data-testid=sim-total]').textContent.trim() === String(n)",
        arg=MCTS_SIMULATIONS,
        timeout=SEARCH_TIMEOUT_MS,
    )
    assert lab.testid("sim-count").inner_text().strip() == "0"

    # The first two simulations, one phase at a time.
    done: list[dict[str, int]] = []
    for sim in range(2):
        for phase in PHASES:
            lab.testid("step-phase").click()
            assert lab.testid("phase").inner_text().strip() == phase
            shown = shown_counts(lab)
            partial = totals(done)
            partial["select"] += expected[sim]["select"]
            if PHASES.index(phase) >= 1:
                partial["expand"] += expected[sim]["expand"]
            if PHASES.index(phase) >= 2:
                partial["playout"] += expected[sim]["playout"]
            if phase == "backup":
                partial["backup"] += expected[sim]["backup"]
            assert shown == partial, f"simulation {sim + 1}, {phase}"
        done.append(expected[sim])
        assert int(lab.testid("sim-count").inner_text()) == len(done)

    # Then whole simulations.
    for _ in range(8):
        lab.testid("step-simulation").click()
        done.append(expected[len(done)])
        assert int(lab.testid("sim-count").inner_text()) == len(done)
        assert shown_counts(lab) == totals(done), f"after {len(done)} simulations"
    screenshot(page, "mcts")

    # Then run freely to the end (the speed at its fastest).
    lab.testid("speed").fill("100")
    lab.testid("run").click()
    lab.wait_for_sim_count(MCTS_SIMULATIONS, SEARCH_TIMEOUT_MS)
    assert shown_counts(lab) == totals(expected)
    # "To the end" after a reset gives the same counts at once.
    lab.testid("reset").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=sim-count]').textContent.trim() === '0'"
        " && document.querySelector('[data-testid=status]').textContent.includes('ready')",
        timeout=SEARCH_TIMEOUT_MS,
    )
    lab.testid("finish").click()
    lab.wait_for_sim_count(MCTS_SIMULATIONS)
    assert shown_counts(lab) == totals(expected)
    assert lab.testid("mcts-tree").locator("*").count() > 0
    screenshot(page, "mcts-end", docs=False)
    lab.check()
