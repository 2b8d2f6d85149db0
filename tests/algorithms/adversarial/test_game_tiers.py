"""Differential tests of the two tiers of ``solve``: the compiled solvers (Connect Four, Othello
endgame) must mean exactly what the plain-Python memoising solver means.

Ground truth: Pons' exact scores of End-Easy Connect Four positions (shared data) and, for
Othello, the reference tier itself (an exhaustive memoised search, independent of the kernels).
"""

from __future__ import annotations

import random

import pytest

from searchlab.algorithms.adversarial.connect4_solver import plies_to_end
from searchlab.algorithms.adversarial.solver import Solver, solve
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.tictactoe import TicTacToe


def _optimal_actions(game, state) -> set[int]:
    """Root actions with the reference's best (value, plies) pair."""
    values = Solver(game).action_values(state)
    best_value = max(v for v, _ in values.values())
    tied = {a: p for a, (v, p) in values.items() if v == best_value}
    if best_value > 0:
        return {a for a, p in tied.items() if p == min(tied.values())}
    if best_value < 0:
        return {a for a, p in tied.items() if p == max(tied.values())}
    return set(tied)


def _check_agreement(game, state) -> None:
    reference = solve(game, state, tier="reference")
    for tier in ("compiled", "auto"):
        compiled = solve(game, state, tier=tier)
        assert compiled.tier == "compiled"
        assert compiled.value == reference.value
        assert compiled.plies_to_end == reference.plies_to_end
        assert compiled.is_proven
        assert compiled.outcome == reference.outcome
        assert compiled.stats["action_values"] == reference.stats["action_values"]
        assert compiled.action in _optimal_actions(game, state)
        # the compiled line is a best line: it ends the game after plies_to_end plies
        line_end = state
        for action in compiled.principal_variation:
            line_end = line_end.apply(action)
        assert line_end.is_terminal()
        if reference.plies_to_end is not None:
            assert len(compiled.principal_variation) == reference.plies_to_end
        assert line_end.returns()[state.current_player()] * compiled.value >= 0


def _end_easy_sample(shared_data, count: int, seed: int) -> list[tuple[str, int]]:
    path = shared_data / "connect4_pons" / "Test_L3_R1"
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in random.Random(seed).sample(rows, count)]


def test_connect4_tiers_agree_with_pons_and_each_other(shared_data):
    game = Connect4()
    sample = _end_easy_sample(shared_data, 16, seed=2026)
    assert {(score > 0) - (score < 0) for _, score in sample} == {-1, 0, 1}  # all outcomes
    for moves, score in sample:
        state = game.from_moves(moves)
        reference = solve(game, state, tier="reference")
        assert reference.value == (score > 0) - (score < 0), moves
        assert reference.plies_to_end == plies_to_end(score, len(moves)), moves
        compiled = solve(game, state)
        assert compiled.score == score and compiled.value == reference.value, moves
        _check_agreement(game, state)


def _random_othello(game: Othello, empties: int, seed: int):
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while not state.is_terminal() and state.empties() > empties:
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state


@pytest.mark.parametrize(("seed", "empties"), [(0, 9), (1, 8), (2, 7), (3, 9)])
def test_othello_tiers_agree(seed, empties):
    game = Othello()
    state = _random_othello(game, empties, seed)
    _check_agreement(game, state)
    reference = solve(game, state, tier="reference")
    compiled = solve(game, state)
    # with ties broken as the reference breaks them, the whole line is the same
    assert compiled.action == reference.action
    assert compiled.principal_variation == reference.principal_variation


@pytest.mark.parametrize("seed", [9, 44, 47])
def test_othello_fastest_win_slowest_loss_among_equal_scores(seed):
    """Positions (found by a search over seeds) where root moves of the same disc score end
    the game after different numbers of plies: the compiled tier must break the tie as the
    reference does."""
    game = Othello()
    state = _random_othello(game, 9, seed)
    values = Solver(game).action_values(state)
    best = max(value for value, _ in values.values())
    assert best != 0
    assert len({plies for value, plies in values.values() if value == best}) > 1
    reference = solve(game, state, tier="reference")
    compiled = solve(game, state)
    assert (compiled.value, compiled.plies_to_end, compiled.action) == (
        reference.value,
        reference.plies_to_end,
        reference.action,
    )
    assert compiled.principal_variation == reference.principal_variation


def test_othello_position_with_a_pass():
    game = Othello()
    state = game.state_from_board("X" * 60 + "O---", "O")  # O must pass, X takes the rest
    reference = solve(game, state, tier="reference")
    compiled = solve(game, state, tier="compiled")
    assert (compiled.value, compiled.plies_to_end) == (reference.value, reference.plies_to_end)
    assert compiled.principal_variation == reference.principal_variation
    assert compiled.principal_variation[0] == 64  # the pass


def test_terminal_roots_in_the_compiled_tier():
    game = Connect4()
    state = game.from_moves("1212121")  # X has four in column 1
    compiled = solve(game, state, tier="compiled")
    reference = solve(game, state, tier="reference")
    assert (compiled.action, compiled.value, compiled.tier) == (None, -1.0, "compiled")
    assert (reference.action, reference.value) == (None, -1.0)


def test_win_loss_othello_runs_the_reference():
    game = Othello("win_loss")
    state = _random_othello(game, 6, seed=3)
    assert solve(game, state).tier == "reference"
    with pytest.raises(InvalidParameterError, match="'othello'"):
        solve(game, state, tier="compiled")


def test_compiled_tier_on_tictactoe_names_the_game():
    with pytest.raises(InvalidParameterError, match="'tictactoe'"):
        solve(TicTacToe(), tier="compiled")
    assert solve(TicTacToe(), tier="auto").tier == "reference"


@pytest.mark.parametrize("tier", ["gpu", "", None, "Compiled"])
def test_unknown_tier_raises(tier):
    with pytest.raises(InvalidParameterError, match="tier"):
        solve(TicTacToe(), tier=tier)
