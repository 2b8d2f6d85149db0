"""The Play lab draws each game as it is played, in a real browser (Debian's Chromium driven
by Playwright, against a real ``searchlab serve``; fixtures in ``conftest.py``).

* Go: a whole 9x9 game by clicks against ``mcts`` ends by two passes; the stones, the last
  move and the captures on the page are the library's for the page's own list of moves, and
  the final count is the library's (``settle_by_playouts``). A short game between two people
  on 5x5 ends with a dead stone: the page fades it and marks each point's owner as the
  library's count does.
* Othello: at each of several turns, the squares marked as the person's legal moves are the
  library's legal moves.
* Snake Go: a move that would kill the acting snake is marked as the library's
  ``action_kinds`` calls it deadly, and one click on it does not play it.

Every expected value is computed here with the library's API from the moves the page shows.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from recipe_files import OWN_GAME, write_files

from searchlab.agents import AGENT_KINDS
from searchlab.core.game import play
from searchlab.domains.games.go import point_to_vertex
from searchlab.domains.games.go.score import owners, result_of_score, settle_by_playouts
from searchlab.domains.games.othello import PASS
from searchlab.domains.games.registry import GAMES, load_game_class
from searchlab.domains.games.snakego.policy import DEADLY, action_kinds
from searchlab.games import make
from searchlab.web.own_games import parse_game_option
from searchlab.web.views import GO_SETTLE_SEED, result_text

ENGINE_TIMEOUT_MS = 120_000
GO_ENGINE = "mcts:simulations=200"  # a small budget: the whole game takes seconds
GO_OPENING = ["E5", "C3", "G7", "C7", "G3"]  # the person's first stones
GO_STONES = 24  # then seeded random moves up to this many, then passes to the end


def open_game(lab: Any, game: str, second: str, params: dict[str, str] | None = None) -> Any:
    """The Play page with ``game`` chosen, a person first and ``second`` second, its
    parameters set, and a new game started."""
    page = lab.open(f"/play?game={game}")
    page.wait_for_selector(f"[data-testid=game] option[value={game}]", state="attached")
    for name, value in (params or {}).items():
        field = page.locator(f"[data-param={name}]")
        field.fill(value)
        field.press("Tab")  # a parameter's change starts a new game
    lab.testid("agent-first").fill("human")
    lab.testid("agent-second").fill(second)
    lab.testid("agent-second").press("Tab")
    lab.testid("new-game").click()
    return page


def page_moves(lab: Any) -> list[str]:
    """The game's moves as the page lists them ("1. E5  2. D4" -> ["E5", "D4"])."""
    text = lab.testid("moves").inner_text()
    return re.findall(r"\d+\.\s*(\S+)", text)


def wait_for_person(page: Any, moves: int) -> str:
    """Wait until the game has ``moves`` moves and a person is to move, or the game is over;
    the board's ``data-turn`` then (``human`` or ``over``)."""
    page.wait_for_function(
        """n => {
          const turn = document.querySelector('[data-testid=board]').dataset.turn;
          const listed = (document.querySelector('[data-testid=moves]').textContent
                          .match(/\\d+\\./g) || []).length;
          return turn === 'over' || (turn === 'human' && listed >= n);
        }""",
        arg=moves,
        timeout=ENGINE_TIMEOUT_MS,
    )
    turn: str = page.get_by_test_id("board").get_attribute("data-turn")
    return turn


def drawn_board(lab: Any, rows: int) -> list[str]:
    """The pieces drawn on the board, row by row from the top ("." for none)."""
    pieces = lab.testid("board").locator("[data-cell] .piece")
    marks = pieces.evaluate_all("nodes => nodes.map(n => n.dataset.piece)")
    cols = len(marks) // rows
    return ["".join(marks[r * cols : (r + 1) * cols]) for r in range(rows)]


def go_rows(state: Any) -> list[str]:
    """The library's Go board, row by row from the top: X black, O white, . empty."""
    size = state.game.size
    return [
        "".join(".XO"[state.board[row * size + col]] for col in range(size))
        for row in range(size - 1, -1, -1)
    ]


def go_cell(label: str, size: int) -> str:
    """The page's ``data-cell`` of a Go vertex (``"E5"`` -> ``"4,4"`` on 9x9)."""
    state = make("go", size=size).initial_state()
    row, col = divmod(state.string_to_action(label), size)
    return f"{size - 1 - row},{col}"


# --- Go: a whole game against MCTS ------------------------------------------------------------


def test_whole_go_game_by_clicks_against_mcts_is_drawn_and_counted(
    lab: Any, screenshot: Any
) -> None:
    """The person (black) plays a few stones and then seeded random ones, then passes until
    the game ends; the engine captures, and passes once the person has passed and the count
    wins for it (the one Go endgame rule)."""
    page = open_game(lab, "go", GO_ENGINE)
    page.wait_for_selector("[data-testid=board][data-shape='go:9x9']")
    board = lab.testid("board")
    # The board: 81 intersections with GTP's letters (no I) and the five star points.
    assert board.locator("[data-cell]").count() == 81
    assert page.locator("#col-labels span").all_inner_texts() == list("ABCDEFGHJ")
    stars = board.locator("[data-cell].star").evaluate_all("c => c.map(n => n.dataset.cell)")
    assert sorted(stars) == sorted(go_cell(v, 9) for v in ("C3", "G3", "E5", "C7", "G7"))
    game = make("go")
    opening = list(GO_OPENING)
    chooser = random.Random(0)
    clicks = 0
    while wait_for_person(page, 2 * clicks) == "human":
        state = play(game.initial_state(), page_moves(lab))
        assert drawn_board(lab, 9) == go_rows(state), page_moves(lab)
        if state.last_move is not None and state.last_move != game.pass_action:
            last = board.locator("[data-cell].last")
            assert last.get_attribute("data-cell") == go_cell(
                state.action_to_string(state.last_move), 9
            )
        for player in (0, 1):
            count = lab.testid(f"count-{player}").inner_text()
            assert count == f"captures {state.captures[player]}", count
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        move = next((m for m in opening if m in legal), "pass")
        opening = [m for m in opening if m != move]
        if move == "pass" and clicks < GO_STONES:
            move = chooser.choice(sorted(legal - {"pass"}))
        if move == "pass":
            lab.testid("actions").locator("[data-action-label=pass]").click()
        else:
            cell = board.locator(f"[data-cell='{go_cell(move, 9)}']")
            assert cell.get_attribute("data-label") == move
            cell.click()
            # The stone is drawn where it was clicked, marked as the last move.
            page.wait_for_function(
                "key => document.querySelector(`[data-cell='${key}'] .piece`)"
                ".dataset.piece === 'X'",
                arg=go_cell(move, 9),
            )
        clicks += 1
        if clicks == len(GO_OPENING) + 1:
            wait_for_person(page, 2 * clicks)
            screenshot(page, "play-go-browser")  # docs/img via SEARCHLAB_SCREENSHOTS=docs/img
    final = play(game.initial_state(), page_moves(lab))
    assert final.is_terminal() and final.passes == 2, final  # two passes ended it
    assert final.captures[1] > 0, "the engine captured nothing: the captures were not tested"
    assert drawn_board(lab, 9) == go_rows(final)
    for player in (0, 1):
        assert lab.testid(f"count-{player}").inner_text() == f"captures {final.captures[player]}"
    count = settle_by_playouts(final, seed=GO_SETTLE_SEED)
    result = result_of_score(count.score)
    assert f"({result})" in lab.testid("result").inner_text()
    area = owners(count.settled.board, 9)
    assert (
        f"Black {area.count(1)}, White {area.count(2)}, komi 7.5"
        in lab.testid("go-score").inner_text()
    )
    screenshot(page, "play-go-end", docs=False)
    lab.check()


def test_dead_stones_of_a_finished_go_game_are_drawn_as_the_library_counts_them(
    lab: Any,
) -> None:
    """Two people on 5x5: black walls off column C, white's stone on D3 is left alone and
    both pass; the library's count calls it dead."""
    params = {"size": "5", "komi": "0.5"}
    page = open_game(lab, "go", "human", params)
    page.wait_for_selector("[data-testid=board][data-shape='go:5x5']")
    moves = ["C1", "D3", "C2", "pass", "C3", "pass", "C4", "pass", "C5", "pass", "pass"]
    for number, move in enumerate(moves):
        wait_for_person(page, number)
        if move == "pass":
            lab.testid("actions").locator("[data-action-label=pass]").click()
        else:
            lab.testid("board").locator(f"[data-cell='{go_cell(move, 5)}']").click()
    assert wait_for_person(page, len(moves)) == "over"
    final = play(make("go", size=5, komi=0.5).initial_state(), moves)
    count = settle_by_playouts(final, seed=GO_SETTLE_SEED)
    assert count.dead == ([], ["D3"])  # the library's verdict, which the page must show
    board = lab.testid("board")
    dead = board.locator("[data-cell].dead").evaluate_all("c => c.map(n => n.dataset.cell)")
    assert dead == [go_cell("D3", 5)]
    owned = owners(count.settled.board, 5)
    for point in range(25):
        if final.board[point] and point_to_vertex(point, 5) != "D3":
            continue  # a living stone: no owner mark
        cell = board.locator(f"[data-cell='{go_cell(point_to_vertex(point, 5), 5)}']")
        expected = {1: "owner-X", 2: "owner-O"}.get(owned[point])
        classes = (cell.get_attribute("class") or "").split()
        assert [c for c in classes if c.startswith("owner-")] == ([expected] if expected else [])
    assert f"({result_of_score(count.score)})" in lab.testid("result").inner_text()
    assert "White D3" in lab.testid("go-score").inner_text()
    lab.check()


# --- Othello: the person's legal moves are marked -------------------------------------------


def test_othello_marks_the_persons_legal_moves(lab: Any) -> None:
    page = open_game(lab, "othello", "alphabeta:depth=2")
    page.wait_for_selector("[data-testid=board][data-shape='othello:8x8']")
    game = make("othello")
    for turn in range(5):
        assert wait_for_person(page, 2 * turn) == "human"
        state = play(game.initial_state(), page_moves(lab))
        assert state.current_player() == 0
        legal = [state.action_to_string(a) for a in state.legal_actions() if a != PASS]
        marked = lab.testid("board").locator("[data-cell].hint")
        labels = marked.evaluate_all("cells => cells.map(c => c.dataset.label)")
        assert sorted(labels) == sorted(legal), (page_moves(lab), labels)
        assert lab.testid("players").locator("[data-player='0'] .name").inner_text() == "Black"
        marked.first.click()
    lab.check()


# --- Snake Go: a move that kills the snake is guarded ---------------------------------------


def test_snakego_marks_and_guards_the_moves_that_kill_the_snake(lab: Any) -> None:
    page = open_game(lab, "snakego", "greedy", {"size": "8", "rounds": "10"})
    page.wait_for_selector("[data-testid=board][data-shape='snakego:8x8']")
    wait_for_person(page, 0)
    state = make("snakego", size=8, rounds=10).initial_state()
    deadly = {state.action_to_string(a) for a, kind in action_kinds(state) if kind == DEADLY}
    assert deadly == {"up", "left"}  # the snake starts in the top-left corner
    buttons = lab.testid("actions").locator("[data-action-label]")
    marked = buttons.evaluate_all(
        "bs => bs.filter(b => b.dataset.deadly === 'true').map(b => b.dataset.actionLabel)"
    )
    assert set(marked) == deadly
    assert "click a cell" not in lab.testid("status").inner_text()
    lab.testid("actions").locator("[data-action-label=up]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=move-note]').textContent"
        ".includes('would kill snake A')"
    )
    assert page_moves(lab) == []  # not played: one click only arms it
    assert "armed" in (buttons.filter(has_text="up").get_attribute("class") or "")
    lab.testid("actions").locator("[data-action-label=down]").click()
    wait_for_person(page, 2)
    assert page_moves(lab)[0] == "down"
    lab.check()


# --- A person's own game: the recipe's Notakto, served with ``searchlab serve --game`` -------


def capitalise(text: str) -> str:
    """As the page's ``capitalise`` (``play_boards.js``): the first letter upper case."""
    return text[:1].upper() + text[1:]


def test_own_game_of_the_recipe_is_played_by_clicks_against_mcts(lab: Any, tmp_path: Path) -> None:
    """The server of these tests serves ``docs/architecture.md``'s toy game beside the
    built-in ones (``--game notakto.py:Notakto``, as the recipe says). The page lists it and,
    as for any game of a person's own (``web/views.py``), shows its text and a button for each
    legal move; it takes the person's clicks and the engine's replies to the end. The text,
    the buttons and the result are the library's, for the page's own list of moves, through
    the class loaded from the same file."""
    write_files(tmp_path)
    kinds, games = dict(AGENT_KINDS), dict(GAMES)
    try:  # the file registers the recipe's game and agent kind here: not for later tests
        name, spec = parse_game_option(f"{tmp_path / OWN_GAME}.py:Notakto")
        game = load_game_class(spec)()
    finally:
        AGENT_KINDS.clear()
        AGENT_KINDS.update(kinds)
        GAMES.clear()
        GAMES.update(games)
    page = open_game(lab, name, "mcts:simulations=200")
    actions = lab.testid("actions")
    clicks = 0
    while wait_for_person(page, 2 * clicks) == "human":
        state = play(game.initial_state(), page_moves(lab))
        assert lab.testid("state-text").text_content() == str(state), page_moves(lab)
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        shown = actions.locator("[data-action-label]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.actionLabel)"
        )
        assert shown == legal
        move = "b2" if "b2" in legal else legal[0]
        actions.locator(f"[data-action-label={move}]").click()
        clicks += 1
    moves = page_moves(lab)
    state = play(game.initial_state(), moves)
    assert clicks >= 2 and state.is_terminal(), moves
    assert lab.testid("state-text").text_content() == str(state)
    result = lab.testid("result")
    result.wait_for(state="visible")
    assert result.inner_text() == capitalise(result_text(name, state.returns()))
    lab.check()
