"""The ``rave`` option: checked once, in the agent spec, the tiers, and rave=0 unchanged."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from one_line import raises_one_line

from searchlab.agents.registry import make_agent
from searchlab.algorithms import kernels
from searchlab.algorithms.mcts import MCTS, mcts
from searchlab.algorithms.mcts import search as search_module
from searchlab.algorithms.mcts.options import MCTSOptions, check_compiled
from searchlab.algorithms.mcts.rollout import (
    domain_policy,
    informed_policy,
    playout,
    random_policy,
    traced_playout,
)
from searchlab.algorithms.mcts.tree import reachable_nodes
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.games import make

# --- bad values: one line ------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, -0.5, float("nan"), float("inf"), "x", True, None])
def test_bad_rave_is_one_line(value: Any) -> None:
    with pytest.raises(InvalidParameterError) as caught:
        MCTSOptions(rave=value)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("mcts: rave must be a finite number >= 0, got ")
    assert repr(value) in message


def test_rave_with_an_evaluator_is_refused() -> None:
    from searchlab.algorithms.mcts import UniformEvaluator

    with pytest.raises(InvalidParameterError, match=r"rave=100.*evaluator"):
        MCTSOptions(rave=100, evaluator=UniformEvaluator())


BAD_RAVE = {
    "mcts:rave=-1": "rave must be >= 0, got '-1'",
    "mcts:rave=x": "rave must be a number, got 'x'",
    "mcts:rave=nan": "rave must be a finite number >= 0, got nan",
}


@pytest.mark.parametrize(("spec", "expected"), BAD_RAVE.items())
def test_bad_rave_in_a_spec_is_one_line(spec: str, expected: str) -> None:
    game = make("tictactoe")
    raises_one_line(InvalidParameterError, lambda: make_agent(spec, game), expected, spec)


def test_the_spec_parses_and_plays() -> None:
    game = make("tictactoe")
    agent = make_agent("mcts:rave=1000,simulations=200,seed=3", game)
    assert agent.options.rave == 1000.0  # type: ignore[attr-defined]
    state = game.initial_state()
    assert agent.act(state) in state.legal_actions()
    assert agent.last_result.stats["rave"] == 1000.0  # type: ignore[attr-defined]
    assert make_agent("mcts", game).options.rave == 0.0  # type: ignore[attr-defined]


# --- tiers: a compiled kernel runs rave only where it says so -------------------------------


def _without_rave(monkeypatch: pytest.MonkeyPatch, game: Any) -> None:
    """The compiled rules of ``game``'s type, as if they did not say ``num_actions`` (then the
    one loop cannot keep AMAF statistics for them)."""
    rules = dataclasses.replace(kernels.compiled_game_for(game), num_actions=0)
    real = kernels.compiled_game_for
    monkeypatch.setattr(
        kernels,
        "compiled_game_for",
        lambda other: rules if type(other) is type(game) else real(other),
    )


def test_rave_needs_a_kernel_that_runs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Connect Four's rules say their actions, so the one compiled loop runs RAVE on them
    # (issue 27: RAVE moved from Go's kernel into the loop every compiled game shares)
    assert MCTSOptions(rave=1000).why_not_compiled(Connect4()) is None
    compiled = mcts(Connect4(), limits=Limits(simulations=50), seed=1, rave=1000)
    assert compiled.tier == "compiled" and compiled.stats["rave"] == 1000
    # rules that do not say them: RAVE needs the reference tier
    _without_rave(monkeypatch, Connect4())
    options = MCTSOptions(rave=1000)
    assert options.why_not_compiled(Connect4()) == "rave=1000"
    assert MCTSOptions(rave=0).why_not_compiled(Connect4()) is None
    # tier="auto" runs the reference tier on Connect Four, with the AMAF statistics
    result = mcts(Connect4(), limits=Limits(simulations=50), seed=1, rave=1000)
    assert result.tier == "reference" and result.stats["rave"] == 1000
    with pytest.raises(InvalidParameterError, match="rave=1000 needs the reference tier"):
        check_compiled(MCTSOptions(rave=1000, tier="compiled"), Connect4())


def test_a_kernel_listing_rave_is_plain_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _without_rave(monkeypatch, Connect4())
    monkeypatch.setitem(kernels.MCTS_FEATURES, Connect4, frozenset({"rave"}))
    assert MCTSOptions(rave=1000).why_not_compiled(Connect4()) is None
    _without_rave(monkeypatch, make("othello"))
    assert kernels.mcts_features(make("othello")) == frozenset()
    assert kernels.mcts_features(make("tictactoe")) == frozenset()


def test_the_tier_check_without_a_game_allows_only_listed_features(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RAVE with uniform playouts runs in the one loop of every compiled game that says its
    # actions; RAVE with another rollout policy only where a kernel lists it (Go's)
    monkeypatch.setattr(kernels, "MCTS_FEATURES", {})
    monkeypatch.setattr("searchlab.algorithms.mcts.options.MCTS_FEATURES", {})
    with pytest.raises(
        InvalidParameterError, match="rave=5 with rollout='informed' needs the reference tier"
    ):
        MCTSOptions(rave=5, rollout="informed", tier="compiled")
    assert MCTSOptions(rave=5, tier="compiled").rave == 5
    monkeypatch.setattr(
        "searchlab.algorithms.mcts.options.MCTS_FEATURES", {Connect4: {"rave", "rave_rollouts"}}
    )
    assert MCTSOptions(rave=5, rollout="informed", tier="compiled").rave == 5


# --- rave=0 is the plain search, unchanged ------------------------------------------------


def _forbidden(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a RAVE code path ran with rave=0")


def _fingerprint(root: Any) -> list[tuple[Any, ...]]:
    return [
        (node.key(), node.mover, node.visits, node.value_sum, tuple(node.actions))
        for node in reachable_nodes(root)
    ]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tictactoe", {}),
        ("connect4", {"solver": True}),
        ("nim", {"transpositions": True}),
        ("snakego", {}),
    ],
)
def test_rave_zero_runs_the_plain_search(
    monkeypatch: pytest.MonkeyPatch, name: str, options: dict[str, Any]
) -> None:
    """No RAVE code runs, no node keeps AMAF lists, and the tree is the one without the
    option (checked node for node against the code before RAVE when it was added)."""
    game = make(name)
    default = MCTS(game, seed=5, tier="reference", **options)
    default.search(None, Limits(simulations=300))
    for function in ("select_rave", "update_amaf", "traced_playout"):
        monkeypatch.setattr(search_module, function, _forbidden)
    zero = MCTS(game, seed=5, tier="reference", rave=0.0, **options)
    zero.search(None, Limits(simulations=300))
    assert zero.root is not None and default.root is not None
    assert all(node.amaf_visits is None for node in reachable_nodes(zero.root))
    assert _fingerprint(zero.root) == _fingerprint(default.root)


# --- rollouts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "policy"),
    [
        ("connect4", random_policy),
        ("othello", random_policy),
        ("tictactoe", informed_policy),
        ("snakego", informed_policy),
        ("snakego", random_policy),
    ],
)
def test_traced_playout_is_the_playout(name: str, policy: Any) -> None:
    """The same returns and random draws as playout, and moves that replay the game."""
    game = make(name)
    for seed in range(5):
        state = game.initial_state()
        plain_rng, traced_rng = random.Random(seed), random.Random(seed)
        moves: list[tuple[int, int]] = []
        returns = traced_playout(state, policy, traced_rng, moves)
        assert tuple(returns) == tuple(playout(state, policy, plain_rng))
        assert traced_rng.random() == plain_rng.random()
        for player, action in moves:
            assert state.current_player() == player
            state = state.apply(action)
        assert state.is_terminal() and tuple(state.returns()) == tuple(returns)


class _NoCorners:
    """Tic-tac-toe whose random playouts avoid the corners while an edge or the centre is
    free (a made-up ``playout_actions``)."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)

    def apply(self, action: int) -> _NoCorners:
        return _NoCorners(self.state.apply(action))

    def playout_actions(self) -> list[int]:
        actions = self.state.legal_actions()
        others = [a for a in actions if a not in (0, 2, 6, 8)]
        return others or actions


def test_random_rollouts_use_playout_actions() -> None:
    start = _NoCorners(make("tictactoe").initial_state())
    for seed in range(20):
        moves: list[tuple[int, int]] = []
        traced_playout(start, random_policy, random.Random(seed), moves)
        first = [action for _, action in moves[:5]]  # centre and edges: 5 free squares
        assert not {0, 2, 6, 8} & set(first)
        assert playout(start, random_policy, random.Random(seed)) == traced_playout(
            start, random_policy, random.Random(seed), []
        )


def test_go_random_playouts_never_fill_own_eyes() -> None:
    game = make("go", size=5)
    moves: list[tuple[int, int]] = []
    state = game.initial_state()
    traced_playout(state, random_policy, random.Random(2), moves)
    for _, action in moves:
        assert action in state.playout_actions()
        if action != game.pass_action:
            assert not state.fills_own_eye(action)
        state = state.apply(action)
    assert state.is_terminal() and state.passes == 2  # ended by two passes, not max_moves


def test_go_informed_rollout_is_the_games_own() -> None:
    state = make("go", size=9).initial_state()
    policy = domain_policy(state)
    assert policy is not None and policy.__module__ == "searchlab.domains.games.go.policy"
    assert policy(state, random.Random(1)) in state.legal_actions()


def test_rave_on_go_reference_tier() -> None:
    game = make("go", size=5)
    state = play(game.initial_state(), "C3 B2")
    result = mcts(game, state, limits=Limits(simulations=60), seed=4, rave=300, tier="reference")
    assert result.action in state.legal_actions() and result.stats["rave"] == 300
    assert result.tier == "reference"


def test_errors_are_searchlab_errors() -> None:
    with pytest.raises(SearchlabError):
        MCTS(make("tictactoe"), rave=-2)
