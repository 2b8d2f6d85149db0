"""The network evaluator: a batch gives what one-at-a-time gives; priors are the softmax of the
network's logits over the legal actions (computed here with numpy), aligned with
legal_actions() in the game's own order; PUCT runs with it and takes its priors; a device this
machine lacks is one line."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from searchlab.algorithms.mcts import mcts
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.gomoku import Gomoku
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator, check_device
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

SMALL = NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16)


def states_of(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.initial_state()
        while not state.is_terminal() and len(states) < count:
            states.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
        if len(states) < count:
            states.append(state)  # a finished game too
    return states


def evaluator_for(game, seed: int = 0, config: NetworkConfig = SMALL) -> NetworkEvaluator:
    encoder = encoder_for(game)
    net = PolicyValueNet(encoder.shape, encoder.num_actions, config, seed=seed)
    net.train()  # non-default batch-norm statistics; the evaluator must use eval mode
    with torch.no_grad():
        net(torch.randn(16, *encoder.shape, generator=torch.Generator().manual_seed(seed)))
    return NetworkEvaluator(net, encoder)  # left in training mode, as a trainer's would be


def numpy_priors(
    evaluator: NetworkEvaluator,
    state,
    planes: np.ndarray | None = None,
    mask: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """The network's raw outputs for one state (or for ``planes``, legal moves ``mask``),
    softmaxed over the legal indices by hand."""
    net = evaluator.net
    if planes is None:
        planes = evaluator.encoder.encode(state)
    training = net.training
    with torch.no_grad():
        logits, value = net.eval()(torch.from_numpy(planes[None]))
    net.train(training)
    logits = logits[0].double().numpy()
    if mask is None:
        mask = evaluator.encoder.legal_mask(state)
    priors = np.zeros_like(logits)
    if mask.any():
        legal = logits[mask]
        priors[mask] = np.exp(legal - legal.max()) / np.exp(legal - legal.max()).sum()
    return priors, float(value[0])


@pytest.mark.parametrize(
    "game", [TicTacToe(), Connect4(), Othello(), Gomoku(size=7)], ids=lambda g: g.info.name
)
def test_a_batch_is_its_states_one_by_one(game) -> None:
    evaluator = evaluator_for(game)
    states = states_of(game, 24, seed=1)
    priors, values = evaluator.evaluate_batch(states)
    assert priors.shape == (24, evaluator.encoder.num_actions) and values.shape == (24,)
    assert priors.dtype == np.float32 and values.dtype == np.float32
    assert evaluator.batches == 1 and evaluator.positions == 24
    for row, state in enumerate(states):
        expected, value = numpy_priors(evaluator, state)
        np.testing.assert_allclose(priors[row], expected, atol=1e-5)
        assert values[row] == pytest.approx(value, abs=1e-5)
        one_priors, one_values = evaluator.evaluate_batch([state])
        np.testing.assert_allclose(one_priors[0], priors[row], atol=1e-5)
        assert one_values[0] == pytest.approx(values[row], abs=1e-5)
        mask = evaluator.encoder.legal_mask(state)
        assert (priors[row][~mask] == 0).all()
        if state.is_terminal():
            assert (priors[row] == 0).all()
        else:
            assert priors[row].sum() == pytest.approx(1.0, abs=1e-5)
            legal, single = evaluator.evaluate(state)
            indices = [evaluator.encoder.action_to_index(state, a) for a in state.legal_actions()]
            np.testing.assert_allclose(legal, priors[row][indices], atol=1e-5)
            assert single == pytest.approx(values[row], abs=1e-5)
    assert len(set(np.round(values, 5).tolist())) > 1
    assert evaluator.net.training, "the network goes back to training mode"


def played_with_moves(game, count: int, seed: int) -> list[tuple[object, list[int]]]:
    """Positions of random games (a finished one too), each with the moves that reach it."""
    rng = random.Random(seed)
    positions: list[tuple[object, list[int]]] = []
    while len(positions) < count:
        state, moves = game.initial_state(), []
        while not state.is_terminal() and len(positions) < count:
            positions.append((state, list(moves)))
            action = rng.choice(list(state.legal_actions()))
            state, moves = state.apply(action), [*moves, action]
        if len(positions) < count:
            positions.append((state, moves))
    return positions


@pytest.mark.parametrize(
    "game", [TicTacToe(), Connect4(), Othello(), Gomoku(size=7)], ids=lambda g: g.info.name
)
def test_symmetries_average_the_network_over_the_boards_images(game) -> None:
    """symmetries=True: each position's priors and value are the mean, over its images g(s),
    of the network's answer for g(s), carried back to the position's moves. g(s) is reached by
    playing the image of every move where the start is its own image (Othello's start is not
    under a flip: its image swaps the colours of the centre; there the planes are moved)."""
    plain = evaluator_for(game, seed=6)
    averaged = NetworkEvaluator(plain.net, plain.encoder, symmetries=True)
    encoder = plain.encoder
    symmetries = encoder.symmetries()
    assert len(averaged.symmetries) == len(symmetries) > 1
    positions = played_with_moves(game, 16, seed=2)
    priors, values = averaged.evaluate_batch([state for state, _ in positions])
    assert averaged.batches == 1 and averaged.positions == 16
    differs = 0.0
    for row, (state, moves) in enumerate(positions):
        expected_priors = np.zeros(encoder.num_actions)
        expected_value = 0.0
        for symmetry in symmetries:
            start = encoder.encode(game.initial_state())
            if np.array_equal(symmetry.apply_planes(start), start):
                image = game.initial_state()
                for action in moves:
                    assert encoder.action_to_index(image, action) == action
                    image = image.apply(symmetry.map_index(action))
                image_priors, image_value = numpy_priors(plain, image)
            else:
                image_priors, image_value = numpy_priors(
                    plain,
                    state,
                    symmetry.apply_planes(encoder.encode(state)),
                    symmetry.apply_policy(encoder.legal_mask(state)),
                )

            expected_priors += image_priors[symmetry.action_image] / len(symmetries)
            expected_value += image_value / len(symmetries)
        np.testing.assert_allclose(priors[row], expected_priors, atol=1e-5)
        assert values[row] == pytest.approx(expected_value, abs=1e-5)
        alone = numpy_priors(plain, state)[0]
        differs = max(differs, float(np.abs(alone - expected_priors).max()))
    assert differs > 1e-3  # the images' answers differ: the mean is not the position's own
    assert "symmetries=" in repr(averaged) and "symmetries" not in repr(plain)


def test_the_evaluator_sees_the_trainers_current_weights() -> None:
    evaluator = evaluator_for(Connect4(), seed=4)
    state = Connect4().from_moves("44")
    before, _ = evaluator.evaluate(state)
    with torch.no_grad():
        evaluator.net.policy_head[-1].bias += torch.arange(7.0)  # favour the right-hand columns
    after, _ = evaluator.evaluate(state)
    assert after != before and int(np.argmax(after)) == 6


def test_the_evaluator_follows_the_batch_statistics_and_keeps_its_copy_otherwise() -> None:
    """A training-mode forward pass moves batch normalisation's running statistics (buffers,
    not parameters): the evaluator's inference copy is made again; without a change it is
    kept."""
    evaluator = evaluator_for(Connect4(), seed=5)
    state = Connect4().from_moves("4455")
    before = evaluator.evaluate_batch([state])
    copy = evaluator.inference_net()
    assert evaluator.inference_net() is copy
    assert np.array_equal(evaluator.evaluate_batch([state])[0], before[0])
    net = evaluator.net
    with torch.no_grad():
        for _ in range(20):  # training mode: the running statistics move towards these
            net(torch.randn(32, *evaluator.encoder.shape) * 4 + 2)
    assert evaluator.inference_net() is not copy
    after = evaluator.evaluate_batch([state])
    expected, value = numpy_priors(evaluator, state)
    np.testing.assert_allclose(after[0][0], expected, atol=1e-5)
    assert after[1][0] == pytest.approx(value, abs=1e-5)
    assert np.abs(after[0] - before[0]).max() > 1e-2  # a stale copy would fail above


def test_priors_follow_the_games_own_order_of_legal_actions() -> None:
    forward = Gomoku(size=5)
    backward = Gomoku(size=5, move_order=lambda state, actions: actions[::-1])
    evaluator = evaluator_for(forward, seed=3)
    state = forward.initial_state().apply(12).apply(7)
    same = backward.from_state(state)
    assert list(same.legal_actions()) == list(state.legal_actions())[::-1]
    priors, value = evaluator.evaluate(state)
    reversed_priors, same_value = evaluator.evaluate(same)
    assert reversed_priors == priors[::-1] and same_value == value
    assert len(set(priors)) > 1


def test_an_empty_batch_is_empty() -> None:
    priors, values = evaluator_for(Connect4()).evaluate_batch([])
    assert priors.shape == (0, 7) and values.shape == (0,)


def test_puct_runs_with_the_network_and_uses_its_priors() -> None:
    game = Connect4()
    evaluator = evaluator_for(game, seed=2)
    state = game.from_moves("4453")
    result = mcts(
        game, state, limits=Limits(simulations=60), evaluator=evaluator, seed=0, tier="reference"
    )
    assert result.algorithm == "puct"
    children = result.stats["children"]
    assert sum(child["visits"] for child in children) == 60
    priors, _ = evaluator.evaluate(state)
    by_action = dict(zip(state.legal_actions(), priors, strict=True))
    for child in children:
        assert child["prior"] == pytest.approx(by_action[child["action"]], abs=1e-6)
    assert evaluator.positions >= 60


def test_a_network_for_another_game_is_refused() -> None:
    net = PolicyValueNet((4, 6, 7), 7, SMALL)
    with pytest.raises(InvalidParameterError) as error:
        NetworkEvaluator(net, encoder_for(TicTacToe()))
    assert str(error.value) == (
        "NetworkEvaluator: the network reads planes (4, 6, 7) with 7 actions, the tictactoe "
        "encoder gives (3, 3, 3) and 9"
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA GPU")
@pytest.mark.parametrize(
    ("name", "start"),
    [
        ("cuda", "device 'cuda': this machine has no CUDA GPU that PyTorch"),
        ("cuda:1", "device 'cuda:1': this machine has no CUDA GPU"),
        ("gpu", "unknown device 'gpu'; expected cpu, cuda, cuda:N or mps"),
        ("", "unknown device ''"),
    ],
)
def test_a_device_this_machine_lacks_is_one_line(name, start) -> None:
    with pytest.raises(InvalidParameterError) as error:
        check_device(name)
    assert str(error.value).startswith(start) and "\n" not in str(error.value)
    if name.startswith("cuda"):
        with pytest.raises(InvalidParameterError, match="no CUDA GPU"):
            NetworkEvaluator(PolicyValueNet((3, 3, 3), 9), encoder_for(TicTacToe()), device=name)


def test_the_cpu_is_always_there() -> None:
    assert check_device("cpu") == torch.device("cpu")
    evaluator = evaluator_for(TicTacToe())
    assert str(evaluator.device) == "cpu" and "tictactoe" in repr(evaluator)
