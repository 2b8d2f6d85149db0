"""SearchResult.for_terminal, the one finished-game result, and the score field."""

from __future__ import annotations

import time

from searchlab.core.game import play
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.tictactoe import TicTacToe


def finished(moves: list[str]):  # type: ignore[no-untyped-def]
    return play(TicTacToe().initial_state(), moves)


def test_a_won_game_for_the_loser_to_move() -> None:
    state = finished(["a1", "b1", "a2", "b2", "a3"])  # X completed column a; O to move
    began = time.perf_counter() - 5.0  # a start 5 s ago: elapsed is counted from it
    result = SearchResult.for_terminal(state, algorithm="alphabeta", start=began, cutoffs=0)
    assert (result.action, result.value, result.outcome) == (None, -1.0, "loss")
    assert (result.plies_to_end, result.depth, result.nodes) == (0, 0, 1)
    assert result.is_proven and result.principal_variation == () and result.stopped_by is None
    assert (result.algorithm, result.tier, result.score) == ("alphabeta", "reference", None)
    assert dict(result.stats) == {"cutoffs": 0}
    assert result.elapsed >= 5.0  # no upper bound: a loaded machine may take longer


def test_a_drawn_game_has_no_plies_to_end_like_every_proven_draw() -> None:
    state = finished(["b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"])
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    result = SearchResult.for_terminal(state, algorithm="mcts", nodes=0, tier="compiled", score=0)
    assert (result.value, result.outcome, result.plies_to_end) == (0.0, "draw", None)
    assert (result.nodes, result.tier, result.score, result.elapsed) == (0, "compiled", 0, 0.0)


def test_score_is_separate_from_value() -> None:
    result = SearchResult(action=2, value=1.0, is_proven=True, score=18)
    assert result.outcome == "win" and result.score == 18
    assert SearchResult(action=None, value=0.5).score is None
