"""The RL stage's three forms (policy gradient, actor-critic, value-based) on any game with an
encoder: each learns, each is seeded, and each runs on Go."""

from __future__ import annotations

import numpy as np
import pytest
from needs import require_module

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import Go
from searchlab.domains.games.tictactoe import TicTacToe

torch = require_module("torch", "learn")

from searchlab.learning.alphago.rl import (  # noqa: E402
    RL_FORMS,
    QPolicy,
    match,
    play_games,
    reinforce,
    rl_policy,
    value_positions,
)
from searchlab.learning.networks.encoders import GoEncoder, encoder_for  # noqa: E402
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet  # noqa: E402

TTT = TicTacToe()
TTT_ENCODER = encoder_for(TTT)


class _Uniform:
    """Uniformly random legal moves (the yardstick)."""

    def probabilities(self, states: list[object]) -> np.ndarray:
        rows = np.stack([TTT_ENCODER.legal_mask(s) for s in states]).astype(float)
        return rows / rows.sum(axis=1, keepdims=True)


def _net(seed: int = 0) -> PolicyValueNet:
    config = NetworkConfig(kind="mlp", blocks=2, hidden=64)
    return PolicyValueNet(TTT_ENCODER.shape, TTT_ENCODER.num_actions, config, seed=seed)


def _score_vs_uniform(net: PolicyValueNet, form: str) -> float:
    policy = rl_policy(net, TTT_ENCODER, form)
    result = match(policy, _Uniform(), games=400, seed=5, game=TTT, encoder=TTT_ENCODER)
    return result.score


@pytest.mark.parametrize("form", RL_FORMS)
def test_each_form_turns_a_random_network_into_a_player_that_beats_random_play(
    form: str,
) -> None:
    net = _net()
    before = _score_vs_uniform(net, form)
    report = reinforce(
        net, TTT_ENCODER, iterations=60, games_per_iteration=32, learning_rate=3e-3,
        pool_every=10, seed=1, form=form, game=TTT,
    )  # fmt: skip
    after = _score_vs_uniform(net, form)
    assert report.games == 60 * 32 and len(report.pool) == 7
    assert before < 0.6 and after > 0.68 and after > before + 0.12, (before, after)


def test_each_form_is_seeded_and_the_forms_learn_differently() -> None:
    weights = {}
    for form in RL_FORMS:
        runs = []
        for _ in range(2):
            net = _net()
            reinforce(net, TTT_ENCODER, iterations=3, games_per_iteration=8, seed=2, form=form,
                      game=TTT)  # fmt: skip
            runs.append(torch.cat([p.detach().flatten() for p in net.parameters()]))
        assert torch.equal(runs[0], runs[1]), form
        weights[form] = runs[0]
    assert not torch.equal(weights["reinforce"], weights["actor_critic"])
    assert not torch.equal(weights["reinforce"], weights["value"])


def test_the_critic_learns_the_results_and_the_value_form_its_action_values() -> None:
    """Actor-critic's value head, and the value form's Q(s, a) = tanh(output) of the moves
    played, come nearer the games' results than the untrained network's, on fresh games of the
    trained policy (the distribution they learn under)."""
    for form, iterations in (("actor_critic", 100), ("value", 40)):  # the critic is slower
        start, net = _net(seed=3), _net(seed=3)
        reinforce(net, TTT_ENCODER, iterations=iterations, games_per_iteration=32,
                  learning_rate=3e-3, seed=4, form=form, game=TTT)  # fmt: skip
        policy = rl_policy(net, TTT_ENCODER, form)
        rng = np.random.default_rng(9)
        lines = play_games(64, lambda g, ply, p=policy: p, rng, game=TTT, encoder=TTT_ENCODER)
        states, moves, targets = [], [], []
        for line in lines:
            for ply, move in enumerate(line.actions):
                states.append(line.states[ply])
                moves.append(move)
                targets.append(line.result if ply % 2 == 0 else -line.result)
        planes, z = torch.from_numpy(TTT_ENCODER.encode_batch(states)), torch.tensor(targets)
        errors = []
        for model in (start, net):
            with torch.inference_mode():
                logits, value = model(planes)
            taken = torch.tanh(logits[range(len(moves)), moves])
            guess = value if form == "actor_critic" else taken
            errors.append(float(torch.mean((z - guess) ** 2)))
        assert errors[1] < 0.9 * errors[0], (form, errors)


@pytest.mark.parametrize("form", RL_FORMS)
def test_every_form_runs_on_go(form: str) -> None:
    game, encoder = Go(5, komi=0.5), GoEncoder(5, features="liberties")
    net = PolicyValueNet(encoder.shape, encoder.num_actions,
                         NetworkConfig(kind="mlp", blocks=1, hidden=16), seed=0)  # fmt: skip
    report = reinforce(net, encoder, iterations=2, games_per_iteration=4, pool_every=1, seed=0,
                       form=form, game=game)  # fmt: skip
    assert report.games == 8 and len(report.pool) == 3
    lines = play_games(3, lambda g, ply: rl_policy(net, encoder, form), np.random.default_rng(0),
                       game=game, encoder=encoder)  # fmt: skip
    for line in lines:
        state = game.initial_state()
        for index in line.actions:  # every move legal by the rules, the game played out
            action = encoder.index_to_action(state, index)
            assert state.is_legal(action)
            state = state.apply(action)
        assert state.is_terminal() and line.result == state.returns()[0] in (-1.0, 1.0)
    policy = rl_policy(net, encoder, form)
    states, targets = value_positions(
        policy, policy, count=4, seed=1, max_ply=10, game=game, encoder=encoder
    )
    assert len(states) == 4 and set(np.abs(targets).tolist()) <= {1.0}


def test_bad_forms_and_temperatures_are_one_line() -> None:
    with pytest.raises(InvalidParameterError, match="form must be one of reinforce"):
        reinforce(_net(), TTT_ENCODER, iterations=1, form="q_learning", game=TTT)
    with pytest.raises(InvalidParameterError, match="temperature must be > 0"):
        QPolicy(_net(), TTT_ENCODER, temperature=0.0)
