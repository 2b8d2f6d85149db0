"""Minimax and alpha-beta on explicit trees: textbook figures, random trees, the trace."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchlab.algorithms.adversarial.alphabeta import alphabeta, alphabeta_trace, pruned_leaves
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game_events import Prune
from searchlab.core.observer import TraceRecorder
from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame, load_tree
from searchlab.domains.games.tictactoe import MNKGame

TREES = Path(__file__).resolve().parents[3] / "examples" / "trees"


def oracle(nested: object, maximizing: bool = True) -> float:
    """Minimax by definition on nested lists (independent of the library)."""
    if isinstance(nested, int | float):
        return float(nested)
    values = [oracle(child, not maximizing) for child in nested]  # type: ignore[attr-defined]
    return max(values) if maximizing else min(values)


def test_aima_figure_5_2() -> None:
    game = ExplicitTreeGame(load_tree(TREES / "aima_fig5_2.tree"))
    # By hand: B = min(3, 12, 8) = 3, C = min(2, 4, 6) = 2, D = min(14, 5, 2) = 2;
    # A = max(3, 2, 2) = 3 via B.
    for search in (minimax, alphabeta):
        result = search(game)
        assert result.value == 3 and result.is_proven
        assert game.initial_state().action_to_string(result.action) == "B"
        assert result.principal_variation == (0, 0)  # A -> B -> b1
    # Pruning by hand: after B, alpha = 3 at A. At C, c1 = 2 makes beta = 2 <= alpha = 3:
    # c2 and c3 are pruned. At D, d1 = 14, d2 = 5, d3 = 2 are all needed (beta falls to 2 only
    # at the last child). So exactly {c2, c3}.
    assert pruned_leaves(game) == ["c2", "c3"]
    assert minimax(game).nodes == 13 and alphabeta(game).nodes == 11


def test_aima_json_file_is_the_same_tree() -> None:
    game = ExplicitTreeGame(load_tree(TREES / "aima_fig5_2.json"))
    assert alphabeta(game).value == 3
    assert pruned_leaves(game) == ["C.2", "C.3"]


def test_deep_cutoff_tree_trace() -> None:
    game = ExplicitTreeGame(load_tree(TREES / "deep_cutoff.tree"))
    # By hand: D = max(3, 5) = 5; B's beta becomes 5; F gets (-inf, 5): f1 = 7 >= 5 prunes
    # f2. B = 5, so A's alpha = 5. C gets (5, inf); E gets (5, inf): e1 = 4, e2 = 1, E = 4;
    # at C, beta = 4 <= 5 prunes G (leaves g1, g2). Value 5 via B.
    assert alphabeta(game).value == minimax(game).value == 5
    assert pruned_leaves(game) == ["f2", "g1", "g2"]
    trace = {entry.name: entry for entry in alphabeta_trace(game)}
    assert set(trace) == {"A", "B", "D", "d1", "d2", "F", "f1", "C", "E", "e1", "e2"}
    assert (trace["F"].alpha, trace["F"].beta, trace["F"].pruned) == (-math.inf, 5, ("f2",))
    assert (trace["F"].cut_alpha, trace["F"].cut_beta) == (7, 5)
    assert (trace["C"].alpha, trace["C"].beta, trace["C"].pruned) == (5, math.inf, ("G",))
    assert (trace["E"].alpha, trace["E"].beta, trace["E"].value) == (5, math.inf, 4)
    assert trace["A"].pruned == () and trace["A"].value == 5


def test_pruning_on_equality() -> None:
    # MAX root: first MIN child = 3 gives alpha = 3. Second MIN child: its first leaf 3 makes
    # beta = 3, and alpha >= beta (equality) prunes the leaf 5.
    game = ExplicitTreeGame(ExplicitTree.from_nested([[3], [3, 5]]))
    assert pruned_leaves(game) == ["R.2.2"]
    assert alphabeta(game).value == 3 and alphabeta(game).action == 0


def test_min_root_value_is_for_the_player_to_move() -> None:
    game = ExplicitTreeGame(ExplicitTree.from_text("min A: 4 -2 7"))
    # MIN picks -2 (MAX's view); for MIN, the player to move, that is +2.
    for search in (minimax, alphabeta):
        result = search(game)
        assert result.value == 2 and result.action == 1
        assert result.stats["max_value"] == -2


nested_trees = st.recursive(
    st.integers(-9, 9),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(nested_trees.filter(lambda t: isinstance(t, list)), st.sampled_from(["max", "min"]))
def test_alphabeta_equals_minimax_on_random_trees(nested: list, first: str) -> None:
    game = ExplicitTreeGame(ExplicitTree.from_nested(nested, first=first))
    expected = oracle(nested, first == "max")
    full, pruned = minimax(game), alphabeta(game)
    assert full.stats["max_value"] == pruned.stats["max_value"] == expected
    assert pruned.nodes <= full.nodes
    # the chosen action really achieves the value
    child = nested[pruned.action]
    assert oracle(child, first != "max") == expected
    assert full.nodes == len(ExplicitTree.from_nested(nested, first=first))


def test_prune_events_only_when_alpha_at_least_beta() -> None:
    game = ExplicitTreeGame(ExplicitTree.from_nested([[[1, 8], [4, 9]], [[2, 0], [6, 3]]]))
    recorder = TraceRecorder()
    alphabeta(game, observer=recorder)
    prunes = [e for e in recorder.events if isinstance(e, Prune)]
    assert prunes and all(e.alpha >= e.beta for e in prunes)


def test_depth_limited_search_uses_the_evaluation() -> None:
    game = MNKGame(3, 3, 3)
    center_is_good = lambda s: 0.0  # noqa: E731
    result = alphabeta(game, depth=2, evaluate=center_is_good)
    assert not result.is_proven and result.depth == 2
    with pytest.raises(InvalidParameterError, match="evaluate"):
        minimax(game, depth=2)
    with pytest.raises(InvalidParameterError, match="depth must be"):
        alphabeta(game, depth=0, evaluate=center_is_good)


def test_tictactoe_is_a_draw_by_alphabeta() -> None:
    result = alphabeta(MNKGame(3, 3, 3))
    assert result.value == 0 and result.is_proven
