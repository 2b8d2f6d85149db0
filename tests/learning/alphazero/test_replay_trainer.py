"""Replay window (masks from the replayed games, window size, symmetry augmentation, files) and
the trainer (loss falls on a fixed window; the same seed, the same weights)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import torch

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero.replay import (
    ReplayWindow,
    block_from_records,
    load_block,
    save_block,
)
from searchlab.learning.alphazero.selfplay import SelfPlayConfig, self_play
from searchlab.learning.alphazero.trainer import Trainer, scheduled_learning_rate
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

_TINY = NetworkConfig(kind="mlp", blocks=1, hidden=16)


def _records(game, games=6, first=0, seed=0):
    encoder = encoder_for(game)
    net = PolicyValueNet(
        encoder.shape,
        encoder.num_actions,
        _TINY
        if game.info.name == "tictactoe"
        else NetworkConfig(kind="resnet", blocks=1, channels=4, hidden=8),
        seed=0,
    )
    net.eval()
    config = SelfPlayConfig(
        search=MCTSOptions(search_batch=2, dirichlet_alpha=1.0),
        simulations=8,
        games_in_flight=3,
        temperature_plies=3,
    )
    return self_play(
        game, NetworkEvaluator(net, encoder), games, config=config, seed=seed, first_game=first
    ).records


@pytest.mark.parametrize("game", [TicTacToe(), Connect4()])
def test_block_masks_are_the_legal_moves_of_the_replayed_positions(game) -> None:
    encoder = encoder_for(game)
    records = _records(game, games=3)
    block = block_from_records(game, encoder, records, generation=2)
    assert block.size == sum(len(r.samples) for r in records)
    row = 0
    for record in records:
        state = game.initial_state()
        for action in record.actions:
            expected = np.zeros(encoder.num_actions, bool)
            for legal in state.legal_actions():
                expected[encoder.action_to_index(state, legal)] = True
            assert np.array_equal(block.masks[row], expected)
            assert np.array_equal(block.planes[row], encoder.encode(state))
            assert block.values[row] == record.value_for(state.current_player())
            assert block.games[row] == record.index
            # the policy target only covers legal moves
            assert not (block.policies[row] > 0)[~expected].any()
            state = state.apply(action)
            row += 1
    assert row == block.size


def test_a_block_needs_consecutive_games() -> None:
    game = TicTacToe()
    records = _records(game, games=3)
    with pytest.raises(InvalidParameterError, match="consecutive"):
        block_from_records(game, encoder_for(game), [records[0], records[2]], generation=0)


def test_window_keeps_the_last_games_and_refuses_older_ones() -> None:
    game, encoder = TicTacToe(), encoder_for(TicTacToe())
    first = block_from_records(game, encoder, _records(game, 4, first=0), generation=0)
    second = block_from_records(game, encoder, _records(game, 4, first=4), generation=1)
    window = ReplayWindow(capacity_games=6)
    window.add(first)
    window.add(second)
    assert window.end_game == 8 and window.first_game == 2
    kept = int((first.games >= 2).sum()) + second.size
    assert len(window) == kept
    with pytest.raises(InvalidParameterError, match="not after"):
        window.add(first)
    window.add(block_from_records(game, encoder, _records(game, 6, first=8), generation=2))
    assert [b.first_game for b in window.blocks] == [8]


def test_augmented_samples_are_positions_of_the_game() -> None:
    """Every augmented sample is the symmetric image of a stored one: planes, policy and mask
    carried by the same symmetry (the mask stays the legal mask of the image position)."""
    game, encoder = TicTacToe(), encoder_for(TicTacToe())
    block = block_from_records(game, encoder, _records(game, 4), generation=0)
    window = ReplayWindow(capacity_games=10)
    window.add(block)
    batch = window.minibatch(64, np.random.default_rng(3), encoder.symmetries())
    moved = 0
    for planes, policy, mask in zip(batch.planes, batch.policies, batch.masks, strict=True):
        # tic-tac-toe: legal = empty cells, read off the planes
        empty = (planes[0] + planes[1] == 0).reshape(-1)
        assert np.array_equal(mask, empty)
        assert not (policy > 0)[~mask].any()
        found = [
            s
            for s in encoder.symmetries()
            for i in range(block.size)
            if np.array_equal(s.apply_planes(block.planes[i]), planes)
            and np.array_equal(s.apply_policy(block.policies[i]), policy)
        ]
        assert found
        moved += all(s.name != "identity" for s in found)
    assert moved > 0  # some samples were actually transformed


def test_block_files_round_trip_and_damage_is_one_line(tmp_path: Path) -> None:
    game, encoder = TicTacToe(), encoder_for(TicTacToe())
    block = block_from_records(game, encoder, _records(game, 2), generation=5)
    path = save_block(tmp_path / "b.npz", block)
    back = load_block(path)
    assert (back.first_game, back.end_game, back.generation) == (0, 2, 5)
    assert np.array_equal(back.planes, block.planes) and np.array_equal(back.masks, block.masks)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidStateError, match="damaged"):
        load_block(path)
    assert [p.name for p in tmp_path.iterdir()] == ["b.npz"]  # no temporary file left


def _window() -> ReplayWindow:
    game, encoder = TicTacToe(), encoder_for(TicTacToe())
    window = ReplayWindow(capacity_games=100)
    window.add(block_from_records(game, encoder, _records(game, 8), generation=0))
    return window


def test_loss_falls_on_a_fixed_window() -> None:
    window = _window()
    net = PolicyValueNet((3, 3, 3), 9, NetworkConfig(kind="mlp", blocks=2, hidden=64), seed=1)
    trainer = Trainer(net, learning_rate=3e-3, batch_size=32)
    before = trainer.train(window, steps=4, seed=0, generation=0)
    trainer.train(window, steps=150, seed=0, generation=1)
    after = trainer.train(window, steps=4, seed=0, generation=2)
    assert after.total < 0.8 * before.total
    assert not net.training


def test_same_seed_same_weights_and_another_seed_differs() -> None:
    def run(seed: int) -> list[torch.Tensor]:
        window = _window()
        net = PolicyValueNet((3, 3, 3), 9, _TINY, seed=0)
        Trainer(net, batch_size=16, optimizer="sgd").train(
            window, steps=10, seed=seed, generation=0
        )
        return [p.detach().clone() for p in net.parameters()]

    first, again, other = run(0), run(0), run(1)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"learning_rate": 0}, "learning_rate"),
        ({"batch_size": 0}, "batch_size"),
        ({"optimizer": "lbfgs"}, "optimizer"),
        ({"weight_decay": float("nan")}, "weight_decay"),
    ],
)
def test_trainer_refuses_impossible_settings(options, message) -> None:
    net = PolicyValueNet((3, 3, 3), 9, _TINY, seed=0)
    with pytest.raises(InvalidParameterError, match=message):
        Trainer(net, **options)


def test_cosine_schedule_values() -> None:
    """Half a cosine from the base down to final_fraction * base, computed here independently
    at a few points; clipped outside [0, 1]; 'constant' never moves."""
    base, final = 2e-3, 0.05
    for progress in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
        expected = final * base + (base - final * base) * (1 + np.cos(np.pi * progress)) / 2
        assert scheduled_learning_rate(base, progress, "cosine", final) == pytest.approx(expected)
    rates = [scheduled_learning_rate(base, p / 10, "cosine", final) for p in range(11)]
    assert all(a > b for a, b in itertools.pairwise(rates))
    assert rates[0] == base and rates[-1] == pytest.approx(final * base)
    assert scheduled_learning_rate(base, 1.7, "cosine", final) == pytest.approx(final * base)
    assert scheduled_learning_rate(base, -1.0, "cosine", final) == base
    assert {scheduled_learning_rate(base, p / 4, "constant") for p in range(5)} == {base}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1e-3, 0.5, "step"), "lr_schedule must be one of constant, cosine, got 'step'"),
        ((1e-3, 0.5, "cosine", 0.0), "final_fraction in \\(0, 1\\]"),
        ((1e-3, 0.5, "cosine", 1.5), "final_fraction in \\(0, 1\\]"),
        ((1e-3, float("nan"), "cosine"), "progress must be finite"),
    ],
)
def test_bad_schedule_is_one_line(args: tuple, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message) as caught:
        scheduled_learning_rate(*args)
    assert "\n" not in str(caught.value)


def test_a_train_call_sets_the_step_size() -> None:
    """The step size given to train() is the optimiser's from then on, and it is the one the
    steps use: a near-zero step size leaves the weights nearly where they were."""
    window = _window()

    def moved(rate: float | None) -> float:
        net = PolicyValueNet((3, 3, 3), 9, _TINY, seed=0)
        start = [p.detach().clone() for p in net.parameters()]
        trainer = Trainer(net, learning_rate=1e-2, batch_size=16)
        trainer.train(window, steps=5, seed=0, generation=0, learning_rate=rate)
        assert trainer.learning_rate == (rate if rate is not None else 1e-2)
        return sum(
            float((p.detach() - q).abs().sum())
            for p, q in zip(net.parameters(), start, strict=True)
        )

    assert moved(1e-7) < 1e-3 * moved(None)
    trainer = Trainer(PolicyValueNet((3, 3, 3), 9, _TINY, seed=0), batch_size=16)
    for bad in (0.0, -1.0, float("inf"), True):
        with pytest.raises(InvalidParameterError, match="learning_rate must be a finite number"):
            trainer.train(window, steps=1, seed=0, generation=0, learning_rate=bad)
