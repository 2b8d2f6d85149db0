"""PUCT with the evaluator interface: priors steer the search, lambda mixes evaluator value
and rollout exactly as stated, Dirichlet noise at the root, evaluator errors."""

from __future__ import annotations

import pytest

from searchlab.algorithms.mcts import Evaluator, UniformEvaluator, mcts
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.tictactoe import TicTacToe


def xor_winning(game: Nim) -> list[int]:
    total = 0
    for pile in game.piles:
        total ^= pile
    return [
        i * game.stride + (p - (p ^ total)) - 1 for i, p in enumerate(game.piles) if p ^ total < p
    ]


class ConstantEvaluator:
    """Given priors (a mapping) and one value for every position."""

    def __init__(self, value: float, priors: dict[int, float] | None = None) -> None:
        self.value = value
        self.priors = priors or {}
        self.calls = 0

    def evaluate(self, state):
        self.calls += 1
        return self.priors, self.value


@pytest.mark.parametrize("lambda_", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("rollout_value", [False, True])
def test_puct_with_a_uniform_evaluator_finds_the_nim_win(lambda_, rollout_value) -> None:
    for piles in [(1, 2, 4), (1, 2, 5), (1, 3, 4), (2, 2, 4)]:
        game = Nim(piles)
        (winning,) = xor_winning(game)
        evaluator = UniformEvaluator(rollout=rollout_value, seed=4)
        result = mcts(
            game, limits=Limits(simulations=2500), evaluator=evaluator, lambda_=lambda_, seed=4
        )
        assert result.algorithm == "puct"
        assert result.action == winning, (piles, lambda_, result.stats["children"][:2])


@pytest.mark.parametrize("lambda_", [0.0, 0.5, 1.0])
def test_puct_blocks_at_tictactoe(lambda_) -> None:
    game = TicTacToe()
    state = play(game.initial_state(), "a1 b2 a2")  # O must block a3
    result = mcts(
        game,
        state,
        limits=Limits(simulations=600),
        evaluator=UniformEvaluator(),
        lambda_=lambda_,
        dirichlet_alpha=0.3,
        seed=2,
    )
    assert state.action_to_string(result.action) == "a3"
    children = result.stats["children"]
    assert all(child["prior"] == pytest.approx(1 / 6) for child in children)
    assert result.stats["c_puct"] == 1.5 and result.stats["lambda"] == lambda_


@pytest.mark.parametrize("lambda_", [0.0, 0.3, 1.0])
def test_leaf_value_is_the_lambda_mix_of_evaluator_and_rollout(lambda_) -> None:
    # Nim (1, 1): either move leaves (1), where the player to move takes the last counter and
    # wins; so the one simulation's rollout returns +1 for the leaf's player, the evaluator 0.5.
    game = Nim((1, 1))
    result = mcts(
        game,
        limits=Limits(simulations=1),
        evaluator=ConstantEvaluator(0.5),
        lambda_=lambda_,
        seed=1,
    )
    (visited,) = [child for child in result.stats["children"] if child["visits"]]
    leaf_value = (1 - lambda_) * 0.5 + lambda_ * 1.0  # for the player to move at the leaf
    assert visited["value"] == pytest.approx(-leaf_value)  # seen from the root's player


def test_priors_steer_the_search() -> None:
    game = TicTacToe()
    favoured = 7
    evaluator = ConstantEvaluator(0.0, priors={favoured: 10.0, 0: 1.0})  # others get 0
    result = mcts(game, limits=Limits(simulations=50), evaluator=evaluator, lambda_=0.0, seed=1)
    children = {child["action"]: child for child in result.stats["children"]}
    assert children[favoured]["prior"] == pytest.approx(10 / 11)
    assert children[4]["prior"] == 0.0
    assert children[favoured]["visits"] == max(c["visits"] for c in children.values())
    assert result.action == favoured
    assert evaluator.calls == 1 + 50  # the root, then one new leaf per simulation


def test_prior_sequences_align_with_legal_actions() -> None:
    class Sequence:
        def evaluate(self, state):
            actions = state.legal_actions()
            return [1.0 if a == actions[-1] else 0.0 for a in actions], 0.0

    assert isinstance(Sequence(), Evaluator)
    result = mcts(TicTacToe(), limits=Limits(simulations=5), evaluator=Sequence(), lambda_=0.0)
    assert result.stats["children"][0]["action"] == 8


def test_dirichlet_noise_is_seeded_and_changes_the_root_visits() -> None:
    game = TicTacToe()
    limits = Limits(simulations=200)

    def run(**options):
        return mcts(
            game, limits=limits, evaluator=UniformEvaluator(), lambda_=0.0, seed=3, **options
        )

    plain = run()
    noisy = run(dirichlet_alpha=0.3, dirichlet_epsilon=0.5)
    assert noisy.stats == run(dirichlet_alpha=0.3, dirichlet_epsilon=0.5).stats
    assert noisy.stats["children"] != plain.stats["children"]
    # The reported priors are the evaluator's, without the noise.
    assert all(child["prior"] == pytest.approx(1 / 9) for child in noisy.stats["children"])


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [
        (ConstantEvaluator(1.5), "evaluator value must be in [-1, 1]"),
        (ConstantEvaluator(0.0, priors={0: -1.0}), "priors must be finite and >= 0"),
        (type("Short", (), {"evaluate": lambda self, s: ([1.0], 0.0)})(), "gave 1 priors"),
        (object(), "evaluator must have a method evaluate"),
    ],
)
def test_evaluator_errors_are_clear(evaluator, message) -> None:
    with pytest.raises(InvalidParameterError) as raised:
        mcts(TicTacToe(), limits=Limits(simulations=5), evaluator=evaluator, lambda_=0.0)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"lambda_": 1.5}, "lambda_ must be a finite number in [0, 1], got 1.5"),
        ({"lambda_": -0.1}, "got -0.1"),
        ({"c_puct": -1.0}, "c_puct must be a finite number >= 0"),
        ({"dirichlet_alpha": 0.0}, "dirichlet_alpha must be a number > 0, got 0.0"),
        ({"dirichlet_alpha": 0.3, "dirichlet_epsilon": 2.0}, "dirichlet_epsilon"),
    ],
)
def test_puct_parameter_errors(options, message) -> None:
    with pytest.raises(InvalidParameterError) as raised:
        mcts(TicTacToe(), limits=Limits(simulations=5), evaluator=UniformEvaluator(), **options)
    assert message in str(raised.value)
