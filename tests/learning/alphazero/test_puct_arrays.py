"""The array PUCT: the reference PUCT's visits exactly (batch 1, no virtual loss), batching
under virtual loss, first-play urgency, noise, the final move, temperature, bad input."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch
from puct_fakes import KeyedEvaluator, PerfectTicTacToe, TakeAgain, ttt_value

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import PUCTTree, SearchOutcome, search
from searchlab.core.errors import InvalidParameterError, InvalidStateError, UnknownNameError
from searchlab.core.game import play
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe

torch.set_num_threads(1)


def _reference(game: Any, state: Any, evaluator: Any, simulations: int, **options: Any) -> dict:
    """The reference PUCT's root children: action -> (visits, mean for the root's player)."""
    result = mcts(
        game,
        state,
        limits=Limits(simulations=simulations),
        evaluator=evaluator,
        lambda_=0.0,  # the evaluator's value only (AlphaZero); 1 would roll out
        tier="reference",
        **options,
    )
    return {
        entry["action"]: (entry["visits"], entry["value"]) for entry in result.stats["children"]
    }


def _arrays(outcome: SearchOutcome) -> dict:
    return {
        action: (int(visits), float(value))
        for action, visits, value in zip(
            outcome.actions, outcome.visits, outcome.values, strict=True
        )
    }


CASES = [
    (TicTacToe(), "", 9, 300, 1.5, False),
    (TicTacToe(), "", 9, 300, 1.5, True),
    (Connect4(), "3", 7, 300, 1.5, True),
    (TicTacToe(), "b2 a1", 9, 400, 0.7, False),
    (TicTacToe(), "a1 b2 c3", 9, 200, 3.0, False),
    (Connect4(), "", 7, 300, 1.5, False),
    (Connect4(), "4453", 7, 500, 1.0, False),
]


@pytest.mark.parametrize(("game", "moves", "actions", "simulations", "c_puct", "uniform"), CASES)
def test_batch_one_gives_the_reference_visits_exactly(
    game: Any, moves: str, actions: int, simulations: int, c_puct: float, uniform: bool
) -> None:
    """Equal priors (``uniform``) make ties between edges common: the first one wins."""
    state = (
        game.from_moves(moves)
        if moves and isinstance(game, Connect4)
        else play(game.initial_state(), moves)
    )
    evaluator = KeyedEvaluator(actions, uniform=uniform)
    expected = _reference(game, state, evaluator, simulations, c_puct=c_puct)
    outcome = search(
        state, evaluator, num_simulations=simulations, c_puct=c_puct, search_batch=1,
        virtual_loss=0.0,
    )  # fmt: skip
    assert _arrays(outcome) == expected  # visits and means, bit for bit
    assert outcome.simulations == simulations == int(outcome.visits.sum())
    assert len({visits for visits, _ in expected.values()}) > 2  # not a trivial split


def test_same_visits_as_the_reference_when_a_player_moves_twice() -> None:
    """Per-node mover: taking 2 gives the same player another move (no sign flip there)."""
    game = TakeAgain(13)
    evaluator = KeyedEvaluator(3, index=lambda state, action: action - 1)
    for simulations, c_puct in ((200, 1.5), (500, 0.5)):
        expected = _reference(game, game.initial_state(), evaluator, simulations, c_puct=c_puct)
        outcome = search(
            game.initial_state(), evaluator, num_simulations=simulations, c_puct=c_puct,
            search_batch=1,
        )  # fmt: skip
        assert _arrays(outcome) == expected


def test_same_visits_as_the_reference_with_dirichlet_noise() -> None:
    """The same generator (the reference seeds numpy's with ``abs(seed)``) gives the same
    noise, so the same search."""
    game, evaluator = Connect4(), KeyedEvaluator(7)
    state = game.from_moves("4")
    for seed in (3, 11):
        options = {"dirichlet_alpha": 0.5, "dirichlet_epsilon": 0.4, "c_puct": 1.25}
        expected = _reference(game, state, evaluator, 300, seed=seed, **options)
        outcome = search(state, evaluator, num_simulations=300, search_batch=1, rng=seed, **options)
        assert _arrays(outcome) == expected
        plain = search(state, evaluator, num_simulations=300, search_batch=1, c_puct=1.25)
        assert not np.array_equal(plain.visits, outcome.visits)  # the noise mattered


def test_without_virtual_loss_a_batch_is_one_leaf() -> None:
    """No virtual loss: the next selection reaches the leaf in flight (a collision), which
    ends the batch; the search is then the sequential one."""
    state = Connect4().from_moves("44")
    sequential, batched = KeyedEvaluator(7), KeyedEvaluator(7)
    one = search(state, sequential, num_simulations=200, search_batch=1)
    many = search(state, batched, num_simulations=200, search_batch=16, virtual_loss=0.0)
    assert _arrays(one) == _arrays(many)
    assert max(batched.calls) == 1


def test_virtual_loss_fills_batches_and_keeps_the_count_exact() -> None:
    state = Connect4().initial_state()
    evaluator = KeyedEvaluator(7)
    outcome = search(state, evaluator, num_simulations=256, search_batch=16, virtual_loss=1.0)
    assert int(outcome.visits.sum()) == outcome.simulations == 256
    assert evaluator.calls[0] == 1  # the root alone first
    assert max(evaluator.calls) <= 16
    assert sum(evaluator.calls) - 1 <= 256  # each simulation evaluated at most once
    assert len(evaluator.calls) <= 1 + 256 // 8  # batches of at least 8 on average
    again = search(state, KeyedEvaluator(7), num_simulations=256, search_batch=16)
    assert _arrays(again) == _arrays(outcome)  # deterministic


def test_virtual_loss_spreads_the_batch_over_children() -> None:
    """With a strong virtual loss, the first batch from the root goes to distinct children."""
    state = Connect4().initial_state()
    tree = PUCTTree(state, MCTSOptions(search_batch=7, virtual_loss=3.0),
                    KeyedEvaluator(7).encoder, budget=7)  # fmt: skip
    evaluator = KeyedEvaluator(7)
    tree.backup(*evaluator.evaluate_batch(tree.collect()))  # the root
    leaves = tree.collect()
    assert len(leaves) == 7
    assert len({leaf.key() for leaf in leaves}) == 7


@pytest.mark.parametrize(
    ("simulations", "batch_size", "virtual_loss"), [(64, 1, 0.0), (64, 4, 1.0), (256, 8, 3.0)]
)
def test_perfect_evaluator_plays_perfectly(
    simulations: int, batch_size: int, virtual_loss: float
) -> None:
    """Exact values, uniform priors: the most visited move is optimal in every sampled
    tic-tac-toe position (wrong value signs make it pick the worst). Large batches need more
    simulations: virtual loss spreads visits (measured on all 4,520 positions: 64
    simulations in batches of 16 under virtual loss 3 miss 79 of them)."""
    game = TicTacToe()
    positions: dict[Any, Any] = {}
    frontier = [game.initial_state()]
    while frontier:
        state = frontier.pop()
        if state.is_terminal() or state.key() in positions:
            continue
        positions[state.key()] = state
        frontier.extend(state.apply(action) for action in state.legal_actions())
    assert len(positions) == 4520
    evaluator = PerfectTicTacToe()
    sample = sorted(positions, key=repr)[::23]
    for key in sample:
        state = positions[key]
        best = ttt_value(state)
        outcome = search(
            state, evaluator, num_simulations=simulations, search_batch=batch_size,
            virtual_loss=virtual_loss,
        )  # fmt: skip
        chosen = state.apply(outcome.best_action())
        assert -ttt_value(chosen) == best, str(state)


def test_values_are_for_the_player_to_move() -> None:
    """O to move can win at once: that child is worth +1 to O, and the root too."""
    state = play(TicTacToe().initial_state(), "a1 a2 b1 b2 a3")  # X: a1 b1 a3; O: a2 b2
    assert state.current_player() == 1
    win = state.string_to_action("c2")  # O completes a2 b2 c2
    outcome = search(state, KeyedEvaluator(9), num_simulations=100, search_batch=4)
    index = outcome.actions.index(win)
    assert outcome.values[index] == 1.0
    assert outcome.best_action() == win
    assert outcome.root_value > 0.5
    assert outcome.player == 1


def _oracle_visits(state: Any, evaluator: Any, simulations: int, c_puct: float, fpu: float,
                   mode: str) -> dict:  # fmt: skip
    """A plain recursive PUCT with first-play urgency, written from the formula."""

    class Node:
        def __init__(self, state: Any, mover: int) -> None:
            self.state, self.mover, self.player = state, mover, state.current_player()
            self.visits, self.total = 0, 0.0
            self.children: dict[int, Node] = {}
            self.priors: dict[int, float] = {}

    def evaluate(node: Node) -> float:
        priors, value = evaluator.evaluate(node.state)
        total = sum(priors)
        node.priors = {
            a: p / total for a, p in zip(node.state.legal_actions(), priors, strict=True)
        }
        return value

    def simulate(node: Node) -> float:  # returns the value for node.player
        if node.state.is_terminal():
            outcome = node.state.returns()[node.mover]
            value_for_mover = 1.0 if outcome > 0 else -1.0 if outcome < 0 else 0.0
            node.visits += 1
            node.total += value_for_mover
            return value_for_mover if node.player == node.mover else -value_for_mover
        if not node.priors:
            value = evaluate(node)
        else:
            parent_q = node.total / node.visits if node.visits else 0.0
            parent_q = parent_q if node.mover == node.player else -parent_q
            unvisited = fpu if mode == "absolute" else parent_q - fpu
            scale = c_puct * math.sqrt(max(node.visits, 1))
            best, best_score = None, -math.inf
            for action in node.state.legal_actions():
                child = node.children.get(action)
                if child is None or child.visits == 0:
                    score = unvisited + scale * node.priors[action]
                else:
                    score = child.total / child.visits + scale * node.priors[action] / (
                        1 + child.visits
                    )
                if score > best_score:
                    best, best_score = action, score
            child = node.children.get(best)
            if child is None:
                child = node.children[best] = Node(node.state.apply(best), node.player)
            child_value = simulate(child)  # for child.player
            value = child_value if child.player == node.player else -child_value
        node.visits += 1
        node.total += value if node.mover == node.player else -value
        return value

    root = Node(state, 1 - state.current_player())
    evaluate(root)
    for _ in range(simulations):
        simulate(root)
    return {
        a: (root.children[a].visits if a in root.children else 0) for a in state.legal_actions()
    }


@pytest.mark.parametrize(("fpu", "mode"), [(0.0, "absolute"), (-1.0, "absolute"),
                                           (0.3, "reduction"), (1.0, "reduction")])  # fmt: skip
def test_first_play_urgency_follows_the_formula(fpu: float, mode: str) -> None:
    state = Connect4().from_moves("43")
    evaluator = KeyedEvaluator(7)
    expected = _oracle_visits(state, evaluator, 200, 1.5, fpu, mode)
    outcome = search(state, evaluator, num_simulations=200, search_batch=1, fpu=fpu, fpu_mode=mode)
    assert dict(zip(outcome.actions, outcome.visits.tolist(), strict=True)) == expected


def test_final_move_and_temperature() -> None:
    outcome = SearchOutcome(
        actions=(2, 5, 7),
        visits=np.array([10, 30, 30]),
        values=np.array([0.1, 0.2, 0.4]),
        priors=np.full(3, 1 / 3),
        root_value=0.3,
        network_value=0.0,
        simulations=70,
        player=0,
    )
    assert outcome.best_action() == 7  # tie on visits: the better mean
    tie = SearchOutcome(**{**_fields(outcome), "values": np.array([0.1, 0.4, 0.4])})
    assert tie.best_action() == 5  # then the smaller action
    assert outcome.policy(1.0).tolist() == pytest.approx([1 / 7, 3 / 7, 3 / 7])
    assert outcome.policy(0.5).tolist() == pytest.approx([1 / 19, 9 / 19, 9 / 19])
    assert outcome.policy(0.0).tolist() == [0.0, 0.0, 1.0]
    rng = np.random.default_rng(5)
    draws = [outcome.sample_action(1.0, rng) for _ in range(4000)]
    frequencies = [draws.count(action) / len(draws) for action in outcome.actions]
    assert frequencies == pytest.approx([1 / 7, 3 / 7, 3 / 7], abs=0.03)
    assert {outcome.sample_action(0.0, rng) for _ in range(20)} == {7}


def _fields(outcome: SearchOutcome) -> dict:
    return {name: getattr(outcome, name) for name in SearchOutcome.__dataclass_fields__}


class _Broken(KeyedEvaluator):
    def __init__(self, priors: Any = None, values: Any = None) -> None:
        super().__init__(9)
        self.priors, self.values = priors, values

    def evaluate_batch(self, states: Any) -> tuple[Any, Any]:
        priors, values = super().evaluate_batch(states)
        if self.priors is not None:
            priors = self.priors(priors)
        if self.values is not None:
            values = self.values(values)
        return priors, values


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [
        (_Broken(values=lambda v: v + 2.0), "values must be in \\[-1, 1\\]"),
        (_Broken(values=lambda v: v[:0]), "gave 0 values for 1 positions"),
        (_Broken(priors=lambda p: -p), "priors must be finite and >= 0"),
        (_Broken(priors=lambda p: p[:, :4]), "do not fit priors of 4 columns"),
        (_Broken(priors=lambda p: p[0]), "priors of shape \\(9,\\)"),
        (object(), "must have evaluate_batch"),
    ],
)
def test_bad_evaluators_are_one_clear_line(evaluator: Any, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        search(TicTacToe().initial_state(), evaluator, num_simulations=10)


def test_bad_input_is_one_clear_line() -> None:
    evaluator = KeyedEvaluator(9)
    finished = play(TicTacToe().initial_state(), "a1 a2 b1 b2 c1")
    with pytest.raises(InvalidStateError, match="cannot search a finished game"):
        search(finished, evaluator, num_simulations=10)
    with pytest.raises(UnknownNameError, match="unknown option 'simulations'"):
        search(TicTacToe().initial_state(), evaluator, simulations=10)
    for field, value in (("c_puct", -1.0), ("search_batch", 0), ("virtual_loss", math.nan),
                         ("dirichlet_alpha", 0.0), ("dirichlet_epsilon", 1.5)):  # fmt: skip
        with pytest.raises(InvalidParameterError, match=field):
            MCTSOptions(**{field: value})
    with pytest.raises(InvalidParameterError, match="num_simulations"):
        search(TicTacToe().initial_state(), evaluator, num_simulations=True)
    with pytest.raises(InvalidParameterError, match="rng must be"):
        search(TicTacToe().initial_state(), evaluator, num_simulations=5, dirichlet_alpha=0.3,
               rng=-1)  # fmt: skip


def _network_evaluator(game: Any, seed: int = 0) -> Any:
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import PolicyValueNet

    encoder = encoder_for(game)
    return NetworkEvaluator(PolicyValueNet(encoder.shape, encoder.num_actions, seed=seed), encoder)


def test_with_the_network_batch_one_gives_the_reference_visits() -> None:
    """The real network: its ``evaluate`` is a batch of one, so the numbers are the same."""
    game = Connect4()
    evaluator = _network_evaluator(game)
    state = game.from_moves("4435")
    expected = _reference(game, state, evaluator, 120, c_puct=1.5)
    outcome = search(state, evaluator, num_simulations=120, search_batch=1)
    assert _arrays(outcome) == expected


def test_with_the_network_batches_go_through_one_forward_pass_each() -> None:
    game = Connect4()
    evaluator = _network_evaluator(game)
    outcome = search(game.initial_state(), evaluator, num_simulations=160, search_batch=16)
    assert int(outcome.visits.sum()) == 160
    assert evaluator.positions <= 161
    assert evaluator.batches <= 1 + 160 // 8
    assert -1.0 <= outcome.root_value <= 1.0
    assert outcome.priors.sum() == pytest.approx(1.0)


def test_a_budget_given_to_the_tree_replaces_the_configs() -> None:
    """The tree's budget is its own argument (the az agent's ``Limits``): a given budget
    searches exactly that many simulations, the same tree as a config that says so; ``None``
    searches until the caller stops, the arrays growing from a small capacity."""
    from searchlab.algorithms.mcts.puct import evaluate_step

    state = Connect4().from_moves("44")
    config = MCTSOptions(search_batch=4)
    by_config = search(state, KeyedEvaluator(7), num_simulations=300, search_batch=4)
    tree = PUCTTree(state, config, KeyedEvaluator(7).encoder, budget=300, capacity=8)
    evaluator = KeyedEvaluator(7)
    while not tree.done:
        evaluate_step([tree], evaluator)
    assert _arrays(tree.outcome()) == _arrays(by_config)
    open_ended = PUCTTree(state, config, KeyedEvaluator(7).encoder, budget=None)
    for _ in range(200):
        evaluate_step([open_ended], evaluator)
    assert not open_ended.done and open_ended.simulations > 300
    with pytest.raises(InvalidParameterError, match="budget must be an integer >= 1"):
        PUCTTree(state, config, KeyedEvaluator(7).encoder, budget=0)


def test_actions_the_tree_cannot_hold_are_one_line() -> None:
    class Far:
        """One position with two legal actions numbered beyond int16."""

        def is_terminal(self) -> bool:
            return False

        def current_player(self) -> int:
            return 0

        def legal_actions(self) -> list[int]:
            return [40_000, 40_001]

    class Indexer:
        def action_to_index(self, state: Any, action: int) -> int:
            return action - 40_000

    class TwoWay:
        encoder = Indexer()

        def evaluate_batch(self, states: Any) -> Any:
            return np.full((len(states), 2), 0.5), np.zeros(len(states))

    with pytest.raises(InvalidParameterError, match=r"actions must be in 0\.\.32767 .* got 40001"):
        search(Far(), TwoWay(), num_simulations=4)  # type: ignore[arg-type]
