"""Networks: configs refuse impossible values in one line; both architectures give logits of
the action space and a value in (-1, 1); masked probabilities are 0 on illegal actions and the
softmax of the legal logits elsewhere (computed here with numpy); the loss is AlphaZero's
formula; a tiny network overfits a fixed batch, the same way twice with a seed."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import torch

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.network import (
    NetworkConfig,
    PolicyValueNet,
    masked_log_softmax,
    masked_softmax,
    policy_value_loss,
)

torch.set_num_threads(1)

TINY = {
    "resnet": NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16),
    "mlp": NetworkConfig(kind="mlp", blocks=2, hidden=32),
}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "transformer"}, "network: kind must be one of resnet, mlp, got 'transformer'"),
        ({"blocks": 0}, "network: blocks must be an integer in 1..64, got 0"),
        ({"blocks": 65}, "network: blocks must be an integer in 1..64, got 65"),
        ({"channels": 2.5}, "network: channels must be an integer in 1..1024, got 2.5"),
        ({"hidden": True}, "network: hidden must be an integer in 1..8192, got True"),
        ({"hidden": "64"}, "network: hidden must be an integer in 1..8192, got '64'"),
    ],
)
def test_impossible_configs_are_one_line(fields, message) -> None:
    with pytest.raises(InvalidParameterError) as error:
        NetworkConfig(**fields)
    assert str(error.value) == message


def test_config_round_trips_and_names_unknown_keys() -> None:
    config = NetworkConfig(kind="mlp", blocks=3, channels=5, hidden=7)
    assert NetworkConfig.from_dict(config.to_dict()) == config
    with pytest.raises(InvalidParameterError, match="unknown keys depth, width; known: kind"):
        NetworkConfig.from_dict({"depth": 2, "width": 3})
    with pytest.raises(InvalidParameterError, match="expected a table of settings"):
        NetworkConfig.from_dict([("kind", "mlp")])  # type: ignore[arg-type]


def test_default_sizes_are_small() -> None:
    assert NetworkConfig.default_for(encoder_for(TicTacToe()).shape).kind == "mlp"
    connect4 = encoder_for(Connect4())
    net = PolicyValueNet(connect4.shape, connect4.num_actions)
    assert net.config == NetworkConfig(kind="resnet", blocks=4, channels=32, hidden=64)
    assert net.num_parameters() < 200_000
    assert net.describe().startswith("resnet 4x32, ")


@pytest.mark.parametrize("kind", sorted(TINY))
def test_outputs_have_the_action_space_and_a_tanh_value(kind) -> None:
    net = PolicyValueNet((4, 6, 7), 7, TINY[kind], seed=1)
    x = torch.randn(6, 4, 6, 7, generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        logits, value = net(x)
    assert logits.shape == (6, 7) and value.shape == (6,)
    assert bool((value.abs() <= 1).all())
    assert len(set(value.tolist())) > 1, "different planes, different values"
    with pytest.raises(InvalidParameterError, match=r"expected planes \[B, 4, 6, 7\], got \[6, 3"):
        net(torch.zeros(6, 3, 6, 7))


def test_bad_shapes_are_one_line() -> None:
    with pytest.raises(InvalidParameterError, match="shape must be"):
        PolicyValueNet((3, 3), 9)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="num_actions must be an integer >= 1, got 0"):
        PolicyValueNet((3, 3, 3), 0)


@pytest.mark.parametrize("kind", sorted(TINY))
def test_a_seed_fixes_the_weights_and_leaves_torchs_random_state_alone(kind) -> None:
    torch.manual_seed(123)
    expected_draw = torch.rand(3)
    torch.manual_seed(123)
    first = PolicyValueNet((3, 3, 3), 9, TINY[kind], seed=4)
    assert torch.equal(torch.rand(3), expected_draw)
    second = PolicyValueNet((3, 3, 3), 9, TINY[kind], seed=4)
    other = PolicyValueNet((3, 3, 3), 9, TINY[kind], seed=5)
    a, b, c = first.state_dict(), second.state_dict(), other.state_dict()
    assert all(torch.equal(a[key], b[key]) for key in a)
    assert not all(torch.equal(a[key], c[key]) for key in a)


def test_the_inference_copy_gives_the_networks_outputs_and_leaves_it_alone() -> None:
    """Batch normalisation with statistics far from the identity, folded into the
    convolutions: the outputs stay those of the network in evaluation mode."""
    config = NetworkConfig(kind="resnet", blocks=2, channels=8, hidden=16)
    net = PolicyValueNet((4, 6, 7), 7, config, seed=1)
    generator = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                size = module.num_features
                module.running_mean.copy_(torch.randn(size, generator=generator))
                module.running_var.copy_(torch.rand(size, generator=generator) * 3 + 0.2)
                module.weight.copy_(torch.randn(size, generator=generator))
                module.bias.copy_(torch.randn(size, generator=generator))
    net.train()
    before = {key: value.clone() for key, value in net.state_dict().items()}
    copy = net.inference_copy()
    assert net.training and all(torch.equal(before[k], v) for k, v in net.state_dict().items())
    assert not copy.training and not any(p.requires_grad for p in copy.parameters())
    assert not any(isinstance(m, torch.nn.BatchNorm2d) for m in copy.modules())
    planes = torch.randn(64, 4, 6, 7, generator=generator)
    with torch.inference_mode():
        logits, value = net.eval()(planes)
        copy_logits, copy_value = copy(planes.contiguous(memory_format=torch.channels_last))
        plain_logits, plain_value = copy(planes)  # either layout of the planes
        fresh_logits, _ = PolicyValueNet((4, 6, 7), 7, config, seed=1).eval()(planes)
    assert (fresh_logits - logits).abs().max() > 1e-2  # the statistics matter
    for got in (copy_logits, plain_logits):
        torch.testing.assert_close(got, logits, atol=1e-5, rtol=1e-5)
    for got in (copy_value, plain_value):
        torch.testing.assert_close(got, value, atol=1e-5, rtol=1e-5)
    mlp = PolicyValueNet((3, 3, 3), 9, TINY["mlp"], seed=3)
    x = torch.randn(5, 3, 3, 3, generator=generator)
    with torch.inference_mode():
        assert all(torch.equal(a, b) for a, b in zip(mlp(x), mlp.inference_copy()(x), strict=True))


def test_masked_softmax_is_the_softmax_of_the_legal_logits() -> None:
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(5, 8)) * 3
    mask = rng.random((5, 8)) < 0.5
    mask[0] = False  # a finished game: no legal action
    mask[1] = [True] + [False] * 7
    probabilities = masked_softmax(torch.tensor(logits), torch.tensor(mask)).numpy()
    log_probabilities = masked_log_softmax(torch.tensor(logits), torch.tensor(mask)).numpy()
    assert not np.isnan(probabilities).any()
    assert (probabilities[0] == 0).all()
    for row in range(1, 5):
        legal = logits[row][mask[row]]
        expected = np.exp(legal - legal.max()) / np.exp(legal - legal.max()).sum()
        np.testing.assert_allclose(probabilities[row][mask[row]], expected, rtol=1e-9)
        np.testing.assert_allclose(np.exp(log_probabilities[row][mask[row]]), expected, rtol=1e-9)
        assert (probabilities[row][~mask[row]] == 0).all()
    with pytest.raises(InvalidParameterError, match=r"mask of shape \[5, 7\] for logits"):
        masked_softmax(torch.tensor(logits), torch.tensor(mask[:, :7]))


def test_loss_is_alphazeros_formula() -> None:
    logits = torch.tensor([[1.0, 2.0, 3.0, -9.0], [0.5, -0.5, 0.0, 0.0]])
    mask = torch.tensor([[True, True, True, False], [True, False, True, True]])
    pi = torch.tensor([[0.2, 0.3, 0.5, 0.0], [0.6, 0.0, 0.0, 0.4]])
    z, v = torch.tensor([1.0, -1.0]), torch.tensor([0.2, -0.5])
    terms = policy_value_loss(logits, v, mask, pi, z, value_weight=2.0)
    expected_policy = 0.0
    for row in range(2):
        legal = [i for i in range(4) if mask[row, i]]
        log_total = math.log(sum(math.exp(float(logits[row, i])) for i in legal))
        expected_policy -= sum(
            float(pi[row, i]) * (float(logits[row, i]) - log_total) for i in legal
        )
    expected_policy /= 2
    expected_value = ((1 - 0.2) ** 2 + (-1 + 0.5) ** 2) / 2
    assert float(terms.policy) == pytest.approx(expected_policy, rel=1e-6)
    assert float(terms.value) == pytest.approx(expected_value, rel=1e-6)
    assert float(terms.total) == pytest.approx(expected_policy + 2 * expected_value, rel=1e-6)


def fixed_batch(seed: int):
    """Tic-tac-toe positions with arbitrary (but fixed) policy and value targets."""
    encoder = encoder_for(TicTacToe())
    rng = random.Random(seed)
    states = []
    while len(states) < 32:
        state = TicTacToe().initial_state()
        for _ in range(rng.randrange(0, 7)):
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    masks = np.stack([encoder.legal_mask(s) for s in states])
    targets = np.zeros(masks.shape, np.float32)
    for row, mask in enumerate(masks):
        targets[row, rng.choice(np.flatnonzero(mask).tolist())] = 1.0
    values = np.array([rng.choice((-1.0, 0.0, 1.0)) for _ in states], np.float32)
    return (
        torch.from_numpy(encoder.encode_batch(states)),
        torch.from_numpy(masks),
        torch.from_numpy(targets),
        torch.from_numpy(values),
    )


def train(kind: str, steps: int) -> list[float]:
    x, mask, pi, z = fixed_batch(seed=3)
    net = PolicyValueNet((3, 3, 3), 9, TINY[kind], seed=7)
    optimiser = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-4)
    losses = []
    for _ in range(steps):
        logits, value = net(x)
        terms = policy_value_loss(logits, value, mask, pi, z)
        optimiser.zero_grad()
        terms.total.backward()
        optimiser.step()
        losses.append(terms.total.detach().item())
    return losses


@pytest.mark.parametrize("kind", sorted(TINY))
def test_a_tiny_net_overfits_a_fixed_batch_and_does_it_again_with_the_seed(kind) -> None:
    losses = train(kind, 80)
    assert losses[-1] < 0.25 * losses[0], (losses[0], losses[-1])
    assert train(kind, 80) == losses  # bit for bit on the CPU
