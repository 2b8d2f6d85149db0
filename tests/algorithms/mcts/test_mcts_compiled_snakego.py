"""The compiled MCTS on Snake Go against the reference tier and against exact search.

Snake Go is the game where one player moves several plies in a row (one per snake) and whose
position is an array: the compiled tree is checked node by node against the reference game
(legal actions, the player who moved into each node, finished games and their values on both
value scales), the root visit shares of both tiers are compared in distribution (as in
``test_mcts_compiled.py``: mean shares over many seeds within 4 standard errors, and a search
with another ``c`` must fail the same check), a move that kills the snake gets almost no
visits in either tier, and MCTS-Solver's proofs on tiny boards equal the reference solver's
exact values. Then seeds, the clock, the options the kernel runs (``rollout="informed"``
among them) and the one-line errors for those it does not.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from compiled_tree import grown

from searchlab.algorithms.adversarial.solver import solve
from searchlab.algorithms.kernels import (
    _COMPILED_GAMES,
    KERNELS,
    MCTS_ROLLOUTS,
    compiled_game_for,
    mcts_rollouts,
)
from searchlab.algorithms.mcts import MCTS, mcts
from searchlab.algorithms.mcts.compiled import compiled_mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.value_scale import returns_scale
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.snakego import DOWN, LEFT, RIGHT, SPLIT, UP, SnakeGo
from searchlab.domains.games.snakego import compiled as KS

GAME = SnakeGo(seed=1, size=8, rounds=20)
START = GAME.initial_state()  # player 0's snake in the top-left corner: up and left kill it
OPEN = SnakeGo(items=(), size=8, rounds=20)
BESIDE = OPEN.state_from(
    snakes=([[(2, 4), (1, 4), (0, 4)], [(5, 1), (5, 2)]], [[(3, 5), (3, 4), (3, 3)]]),
    round=12,
    player=0,
)
"""Player 0 to move with two snakes (two plies in a row); the first one's head is beside
player 1's snake: ``right`` runs into it and kills the snake."""


def visit_shares(result: Any, actions: tuple[int, ...]) -> list[float]:
    total = sum(child["visits"] for child in result.stats["children"])
    visits = {child["action"]: child["visits"] for child in result.stats["children"]}
    return [visits.get(action, 0) / total for action in actions]


def mean_shares(tier: str, game: Any, state: Any, simulations: int, seeds: range, **options):
    """Per legal action of ``state``: the mean share of the root's visits over ``seeds``, and
    its standard error."""
    actions = state.legal_actions()
    limits = Limits(simulations=simulations)
    rows = [
        visit_shares(mcts(game, state, limits=limits, seed=seed, tier=tier, **options), actions)
        for seed in seeds
    ]
    table = np.array(rows)
    return table.mean(axis=0), table.std(axis=0, ddof=1) / math.sqrt(len(seeds))


def same_distribution(first: tuple, second: tuple) -> bool:
    """Per root action, mean shares within 4 standard errors of the difference (+0.01)."""
    (mean_a, error_a), (mean_b, error_b) = first, second
    return bool((np.abs(mean_a - mean_b) < 4 * np.sqrt(error_a**2 + error_b**2) + 0.01).all())


# --- the compiled tree against the reference game -------------------------------------


@pytest.mark.parametrize("scoring", ["win_loss", "score_difference"])
@pytest.mark.parametrize("value_scale", ["outcome", "normalised"])
def test_every_node_has_the_reference_games_actions_mover_and_value(scoring, value_scale):
    game = SnakeGo(seed=3, size=6, rounds=6, max_snakes=2, scoring=scoring)
    root = game.initial_state()
    options = MCTSOptions(value_scale=value_scale)
    scale = returns_scale(game, value_scale, "test")
    search, nodes = grown(game, root, options, 4000, 7)
    tree = search.tree
    runs = finished = 0
    values = set()
    for node, state in nodes:
        assert bool(tree.is_proven[node]) == state.is_terminal()
        if state.is_terminal():
            assert tree.proven[node] == scale(state.returns())[int(tree.mover[node])]
            values.add(float(tree.proven[node]))
            finished += 1
        first = int(tree.first[node])
        if first < 0:
            continue
        block = tree.action[first : first + int(tree.n_children[node])].tolist()
        assert sorted(block) == list(state.legal_actions())
        for child in range(first, first + int(tree.n_expanded[node])):
            assert tree.mover[child] == state.current_player()
            runs += node > 0 and tree.mover[child] == tree.mover[node]
    assert runs > 50 and finished > 50  # runs of plies by one player, and finished games
    if scoring == "score_difference" and value_scale == "normalised":
        assert values - {-1.0, 0.0, 1.0}  # score differences over 36, not their sign
    else:
        assert values <= {-1.0, 0.0, 1.0}


# --- agreement in distribution with the reference tier ----------------------------------


@pytest.mark.parametrize(
    ("game", "state", "deadly"),
    [(GAME, START, (UP, LEFT)), (OPEN, BESIDE, (RIGHT,))],
    ids=["start", "beside"],
)
def test_root_visit_shares_agree_and_a_deadly_move_gets_almost_none(game, state, deadly):
    assert set(deadly) < set(state.legal_actions())
    for action in deadly:  # the move kills the snake at once (the reference rules say so)
        after = state.apply(action)
        assert len(after.snakes[0]) == len(state.snakes[0]) - 1
    reference = mean_shares("reference", game, state, 400, range(16))
    compiled = mean_shares("compiled", game, state, 400, range(200))
    assert same_distribution(compiled, reference), (compiled, reference)
    actions = state.legal_actions()
    for action in deadly:  # under a fifth of a uniform share (UCT still tries it now and then)
        index = actions.index(action)
        assert reference[0][index] < 0.05 and compiled[0][index] < 0.05, action
    # the check has power: a much larger exploration constant spreads the visits
    other = mean_shares("compiled", game, state, 400, range(200), c=8.0)
    assert not same_distribution(other, reference)


def test_informed_rollouts_run_compiled_and_agree_with_the_reference_policy() -> None:
    """``rollout="informed"`` on Snake Go runs in the compiled tier (whatever ``tier`` allows
    it) and its root visit shares match the reference tier's informed search."""
    for tier in ("auto", "compiled"):
        result = mcts(OPEN, BESIDE, limits=Limits(simulations=50), seed=0, tier=tier,
                      rollout="informed")  # fmt: skip
        assert result.tier == "compiled"
    reference = mean_shares("reference", OPEN, BESIDE, 300, range(12), rollout="informed")
    compiled = mean_shares("compiled", OPEN, BESIDE, 300, range(200), rollout="informed")
    assert same_distribution(compiled, reference), (compiled, reference)
    # the check tells the policies apart: the compiled search with random rollouts fails it
    # (measured: the deadly move's share 0.032 against 0.010, 14 standard errors)
    uniform = mean_shares("compiled", OPEN, BESIDE, 300, range(200))
    assert not same_distribution(uniform, reference)


# --- proofs on tiny boards -------------------------------------------------------------


def tiny_positions(scoring: str) -> list[Any]:
    """Positions two or three rounds from the end of a 5 x 5 half, with a run of two plies
    by one player (two snakes) at the root or at the next turn."""
    game = SnakeGo(items=(), size=5, rounds=3, max_snakes=2, scoring=scoring)
    return [
        game.state_from(
            snakes=([[(1, 3), (1, 4), (2, 4)], [(3, 2), (3, 3)]], [[(2, 1), (2, 0), (3, 0)]]),
            round=2,
            player=0,
        ),
        game.state_from(
            snakes=([[(1, 3), (1, 4), (0, 4)]], [[(2, 1), (2, 0)], [(3, 2), (4, 2), (4, 1)]]),
            round=2,
            player=1,
        ),
        game.state_from(
            snakes=(
                [[(2, 2), (2, 3), (1, 3), (1, 2), (1, 1), (2, 1)], [(4, 4)]],
                [[(3, 0), (4, 0)]],
            ),
            round=3,
            player=0,
        ),
    ]


@pytest.mark.parametrize(
    ("scoring", "value_scale"),
    [("win_loss", "outcome"), ("score_difference", "outcome"), ("score_difference", "normalised")],
)
def test_the_solver_proves_the_reference_solvers_values(scoring: str, value_scale: str) -> None:
    for state in tiny_positions(scoring):
        game = state.game
        exact = solve(game, state, tier="reference")
        scale = returns_scale(game, value_scale, "test")

        def on_scale(value: float, _scale: Any = scale, _player: int = state.player) -> float:
            both = (value, -value) if _player == 0 else (-value, value)
            return _scale(both)[_player]

        result = mcts(game, state, limits=Limits(simulations=200_000), seed=1, tier="compiled",
                      solver=True, value_scale=value_scale)  # fmt: skip
        assert (result.tier, result.is_proven) == ("compiled", True)
        assert result.value == on_scale(exact.value)
        assert exact.stats["action_values"][result.action] == exact.value
        proven = [child for child in result.stats["children"] if child["proven"] is not None]
        assert proven
        for child in proven:
            want = on_scale(exact.stats["action_values"][child["action"]])
            assert child["proven"] == ("win" if want > 0 else "loss" if want < 0 else "draw")


# --- the result, seeds, budgets, options --------------------------------------------


def test_result_has_the_reference_shape_and_the_games_notation() -> None:
    compiled = mcts(OPEN, BESIDE, limits=Limits(simulations=500), seed=2, tier="compiled")
    reference = mcts(OPEN, BESIDE, limits=Limits(simulations=100), seed=2, tier="reference")
    assert (compiled.tier, compiled.algorithm) == ("compiled", "mcts")
    assert set(compiled.stats) == set(reference.stats)
    children = compiled.stats["children"]
    assert sorted(child["action"] for child in children) == list(BESIDE.legal_actions())
    assert sum(child["visits"] for child in children) == 500
    assert compiled.action == children[0]["action"] == compiled.principal_variation[0]
    assert BESIDE.action_to_string(compiled.action) in {"up", "down", "split"}
    line = BESIDE
    for action in compiled.principal_variation:  # legal all along, run of plies included
        assert action in line.legal_actions()
        line = line.apply(action)
    assert {UP, DOWN, RIGHT, SPLIT} == set(BESIDE.legal_actions())


def test_same_seed_same_search_and_another_seed_another() -> None:
    first, again, other = (
        mcts(GAME, START, limits=Limits(simulations=1500), seed=s, tier="compiled")
        for s in (4, 4, 5)
    )
    for field in ("action", "value", "principal_variation", "nodes", "depth"):
        assert getattr(first, field) == getattr(again, field)
    assert first.stats == again.stats
    assert first.stats["children"] != other.stats["children"]


def test_time_budget_stops_the_search_on_the_full_board() -> None:
    game = SnakeGo(seed=9)  # 16 x 16, 512 rounds: a rollout plays a whole half
    result = mcts(game, limits=Limits(time=0.3), seed=1, tier="compiled")
    assert result.stopped_by == "time" and result.stats["simulations"] > 0
    assert 0.3 <= result.elapsed < 30  # no tight timing: the machine may be loaded


def test_terminal_root_gives_its_exact_value_and_no_action() -> None:
    game = SnakeGo(items=(), size=5, rounds=1, scoring="score_difference")
    state = game.initial_state().apply(DOWN)
    while not state.is_terminal():
        state = state.apply(state.legal_actions()[0])
    result = mcts(game, state, limits=Limits(simulations=10), tier="compiled",
                  value_scale="normalised")  # fmt: skip
    expected = returns_scale(game, "normalised", "test")(state.returns())[state.player]
    assert (result.action, result.value, result.is_proven) == (None, expected, True)


def test_the_kernel_is_registered_with_its_rollout_policies() -> None:
    assert KERNELS.find("mcts", GAME) is compiled_mcts
    # every MCTS kernel declares its rollouts: in its compiled rules, or (Go) in MCTS_ROLLOUTS
    for domain in KERNELS.domains("mcts"):
        assert (domain in MCTS_ROLLOUTS) != (domain in _COMPILED_GAMES), domain
    assert mcts_rollouts(GAME) == tuple(KS.POLICIES)
    assert compiled_game_for(GAME) is KS.COMPILED

    class MySnakeGo(SnakeGo):
        pass

    assert mcts(MySnakeGo(size=5, rounds=2), limits=Limits(simulations=5), seed=0).tier == (
        "reference"
    )


def test_options_the_kernel_does_not_run_are_one_clear_error() -> None:
    limits = Limits(simulations=10)
    for options, named in (
        ({"transpositions": True}, "transpositions=True needs the reference tier"),
        ({"exact_endgame": 2}, "exact_endgame=2 needs the reference tier"),
        ({"rollout": lambda state, rng: state.legal_actions()[0]}, "rollout=<function"),
    ):
        with pytest.raises(InvalidParameterError, match=named) as error:
            mcts(GAME, limits=limits, tier="compiled", **options)
        assert "\n" not in str(error.value) and "tier='auto'" in str(error.value)
    # informed rollouts: Snake Go's kernel has them, Connect Four's has not
    assert mcts(GAME, limits=limits, tier="compiled", rollout="informed").tier == "compiled"
    with pytest.raises(InvalidParameterError, match="Connect4's kernel runs rollout='random'"):
        MCTS(Connect4(), tier="compiled", rollout="informed")
    assert mcts(Connect4(), limits=limits, seed=0, rollout="informed").tier == "reference"
