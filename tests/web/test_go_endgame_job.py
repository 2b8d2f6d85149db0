"""The browser lab's Go engine passes as ``play go`` and ``gtp`` do (the one rule,
:class:`~searchlab.agents.go_endgame.GoEndgame`): when the person has passed and the count
wins, and when passing is as good as filling its own area; a person at a position still open
gets a move."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from searchlab.agents.go_endgame import GoEndgame
from searchlab.domains.games.go import Go
from searchlab.web.jobs import search_job

# Black holds column B (and A behind it), white columns C to E: white is ahead by 5.5.
WALLS = [move for row in range(1, 6) for move in (f"B{row}", f"C{row}")]


def _job(moves: list[str], agent: str = "mcts:simulations=300") -> dict[str, Any]:
    context = SimpleNamespace(elapsed=lambda: 0.0, progress=None, emit=lambda *a: None)
    payload = {
        "game": "go",
        "params": {"size": 5, "komi": 0.5},
        "moves": moves,
        "agent": agent,
        "caps": {"time": 10.0},
        "seed": 1,
    }
    return search_job(payload, context)


def test_the_engine_passes_after_the_persons_pass_when_the_count_wins() -> None:
    out = _job([*WALLS, "pass"])
    state = Go(5, komi=0.5).initial_state()
    for move in [*WALLS, "pass"]:
        state = state.apply(state.string_to_action(move))
    assert GoEndgame().pass_now(state)  # the rule's own verdict on this position
    assert out["label"] == "pass"
    assert any("passing ends it" in note for note in out["notes"])
    assert out["view"]["terminal"]


# Black: rows 4-5 with eyes at B5 and D5; white: row 3 and three two-point eyes below.
# Black's two passes at the start let black move last; white to move, nothing neutral.
BLACK = ["pass", "pass", "A5", "C5", "E5", "A4", "B4", "C4", "D4", "E4"]
WHITE = ["A3", "B3", "C3", "D3", "E3", "B2", "D2", "B1", "D1"]
CLOSED = [move for pair in zip(BLACK, WHITE, strict=False) for move in pair] + [BLACK[-1]]


def test_the_engine_passes_first_when_nothing_is_left_to_fill() -> None:
    state = Go(5, komi=0.5).initial_state()
    for move in CLOSED:
        state = state.apply(state.string_to_action(move))
    assert GoEndgame.closed_and_ahead(state) and state.passes == 0
    out = _job(CLOSED)  # the search fills an eye of its own; the rule passes instead
    assert out["label"] == "pass"
    assert any(note.startswith("passes instead of") for note in out["notes"])


def test_an_open_position_gets_a_move_not_a_pass() -> None:
    out = _job(["C3"])
    assert out["label"] != "pass"
    assert not any("pass" in note for note in out["notes"])
