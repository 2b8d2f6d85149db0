"""Lock-step self-play: the same games as one at a time, value targets from each position's
mover, the temperature schedule, resignation and its false-positive check, playout caps."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
import torch
from puct_fakes import KeyedEvaluator, TakeAgain

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero.selfplay import GameRecord, SelfPlayConfig, self_play

torch.set_num_threads(1)


def _config(**fields: Any) -> SelfPlayConfig:
    search = fields.pop("search", {})
    base = {"search_batch": 4, "virtual_loss": 1.0, "dirichlet_alpha": 0.5}
    fields.setdefault("simulations", 24)
    return SelfPlayConfig(search=MCTSOptions(**{**base, **search}), **fields)


def _replay(game: Any, record: GameRecord) -> list[Any]:
    """The positions of a game, from the initial one to the last."""
    states = [game.initial_state()]
    for action in record.actions:
        states.append(states[-1].apply(action))
    return states


@pytest.mark.parametrize(("game", "actions"), [(TicTacToe(), 9), (Connect4(), 7)])
def test_lock_step_gives_the_same_games_as_one_at_a_time(game: Any, actions: int) -> None:
    config = _config(games_in_flight=6, temperature_plies=4)
    together = KeyedEvaluator(actions)
    result = self_play(game, together, games=6, config=config, seed=7)
    alone = KeyedEvaluator(actions)
    single = self_play(
        game, alone, games=6, config=_config(games_in_flight=1, temperature_plies=4), seed=7
    )
    assert result.records == single.records
    assert len({record.actions for record in result.records}) > 1  # the games differ
    # one call per step for all the games: far fewer calls, bigger batches
    assert result.stats.evaluation_calls == len(together.calls)
    assert max(together.calls) > max(alone.calls) <= 4
    assert len(together.calls) * 3 < len(alone.calls)
    assert result.stats.positions_evaluated == sum(together.calls)
    # a later call continues the series: game i is game i wherever it is played
    later = self_play(game, KeyedEvaluator(actions), games=2, config=config, seed=7, first_game=3)
    assert later.records == result.records[3:5]
    other_seed = self_play(game, KeyedEvaluator(actions), games=6, config=config, seed=8)
    assert other_seed.records != result.records


@pytest.mark.parametrize(
    ("game", "evaluator"),
    [
        (TicTacToe(), KeyedEvaluator(9)),
        (TakeAgain(15), KeyedEvaluator(3, index=lambda state, action: action - 1)),
    ],
)
def test_value_targets_are_the_outcome_for_each_positions_mover(game: Any, evaluator: Any) -> None:
    """Replayed independently: each sample's value is the final returns' sign for the player
    to move in its position (in TakeAgain a player who takes 2 moves again, so the plies'
    parity is not the mover)."""
    result = self_play(game, evaluator, games=12, config=_config(temperature_plies=99), seed=3)
    decisive = consecutive = 0
    for record in result.records:
        states = _replay(game, record)
        final = states[-1]
        assert final.is_terminal()
        assert len(record.samples) == len(record.actions)
        for sample in record.samples:
            state = states[sample.ply]
            assert sample.player == state.current_player()
            returned = final.returns()[sample.player]
            assert sample.value == (1.0 if returned > 0 else -1.0 if returned < 0 else 0.0)
            assert np.array_equal(sample.planes, evaluator.encoder.encode(state))
            assert sample.policy.sum() == pytest.approx(1.0)
            legal = {evaluator.encoder.action_to_index(state, a) for a in state.legal_actions()}
            assert set(np.flatnonzero(sample.policy)) <= legal
        decisive += final.returns()[0] != 0
        players = [states[sample.ply].current_player() for sample in record.samples]
        consecutive += any(a == b for a, b in itertools.pairwise(players))
    assert decisive >= 3
    if isinstance(game, TakeAgain):
        assert consecutive >= 3  # the case the mover's view is for did happen


def test_temperature_schedule() -> None:
    """After ``temperature_plies`` the most visited move is played; before it, games
    started alike spread out (no noise, so only the temperature draws)."""
    game, evaluator = Connect4(), KeyedEvaluator(7)
    greedy = self_play(
        game, evaluator, games=4,
        config=_config(temperature_plies=0, search={"dirichlet_alpha": None}), seed=1,
    )  # fmt: skip
    assert len({record.actions for record in greedy.records}) == 1  # nothing random left
    sampled = self_play(
        game, evaluator, games=4,
        config=_config(temperature_plies=6, search={"dirichlet_alpha": None}), seed=1,
    )  # fmt: skip
    assert len({record.actions[:6] for record in sampled.records}) > 1
    for record in sampled.records:
        for sample, action in zip(record.samples, record.actions, strict=False):
            if sample.ply >= 6:  # the most visited (Connect Four's action is its index)
                assert sample.policy[action] == sample.policy.max()


def test_resignation_and_its_false_positive_check() -> None:
    game, evaluator = Connect4(), KeyedEvaluator(7)
    config = _config(resign_threshold=-0.2, no_resign_fraction=0.4, temperature_plies=4)
    result = self_play(game, evaluator, games=40, config=config, seed=2)
    resigned = [record for record in result.records if record.resigned_by is not None]
    disabled = [record for record in result.records if record.resignation_disabled]
    assert resigned and disabled
    assert 0.15 <= len(disabled) / 40 <= 0.65
    threshold = config.resign_threshold
    assert threshold is not None
    for record in resigned:
        assert not record.resignation_disabled
        loser = record.resigned_by
        assert loser is not None
        assert record.outcome[loser] == -1.0 and record.outcome[1 - loser] == 1.0
        assert not _replay(game, record)[-1].is_terminal()
        assert record.root_values[-1] < threshold  # the root value was below the threshold
        assert record.samples[-1].value == -1.0 and record.samples[-1].player == loser
        assert record.would_resign == (None, None)
    for record in disabled:
        assert _replay(game, record)[-1].is_terminal()  # played to the end
        for player, ply in enumerate(record.would_resign):
            if ply is not None:
                assert record.root_values[ply] < threshold
                assert _replay(game, record)[ply].current_player() == player
    would = [
        (record, player)
        for record in disabled
        for player, ply in enumerate(record.would_resign)
        if ply is not None
    ]
    assert would
    false = sum(1 for record, player in would if record.outcome[player] >= 0)
    assert result.resign_false_positive_rate == false / len(would)


def test_playout_cap_randomisation() -> None:
    game, evaluator = Connect4(), KeyedEvaluator(7)
    config = _config(full_search_probability=0.25, cheap_simulations=6, temperature_plies=4,
                     simulations=40)  # fmt: skip
    result = self_play(game, evaluator, games=8, config=config, seed=4)
    flags = [flag for record in result.records for flag in record.full_searches]
    assert 0.1 <= sum(flags) / len(flags) <= 0.4
    for record in result.records:
        full_plies = [ply for ply, flag in enumerate(record.full_searches) if flag]
        assert [sample.ply for sample in record.samples] == full_plies
        for sample in record.samples:  # full searches: 40 simulations behind each target
            assert np.allclose(sample.policy * 40, np.round(sample.policy * 40), atol=1e-4)
    cheap_moves = len(flags) - sum(flags)
    roots = result.stats.moves  # one root evaluation per search
    assert result.stats.positions_evaluated <= roots + 40 * sum(flags) + 6 * cheap_moves


def test_random_openings() -> None:
    """Each game opens with 0..k uniformly random moves that are not samples; the rest is
    self-play, and a game that drew no random move is the game of a config without openings
    (no noise, greedy moves: the search alone decides, so the two must agree)."""
    game, evaluator = TicTacToe(), KeyedEvaluator(9)
    plain = _config(temperature_plies=0, search={"dirichlet_alpha": None})
    opened = _config(temperature_plies=0, random_opening_plies=4, search={"dirichlet_alpha": None})
    without = self_play(game, evaluator, games=30, config=plain, seed=6)
    result = self_play(game, evaluator, games=30, config=opened, seed=6)
    counts = [record.opening_plies for record in result.records]
    assert set(counts) == {0, 1, 2, 3, 4}  # 30 draws from 0..4: every count comes up
    assert len({record.actions[: record.opening_plies] for record in result.records}) > 10
    assert len({record.actions for record in without.records}) == 1  # nothing random there
    for record, ordinary in zip(result.records, without.records, strict=True):
        assert [sample.ply for sample in record.samples] == list(
            range(record.opening_plies, len(record.actions))
        )
        assert len(record.full_searches) == len(record.actions) - record.opening_plies
        if record.opening_plies == 0:
            assert record.actions == ordinary.actions
        assert _replay(game, record)[-1].is_terminal()
    again = self_play(game, evaluator, games=30, config=opened, seed=6)
    assert again.records == result.records  # seeded


def test_a_random_opening_never_ends_the_game() -> None:
    """With as many random moves as the board has cells, the opening stops where every move
    would end the game: every game still has a searched position, a sample."""
    game, evaluator = TicTacToe(), KeyedEvaluator(9)
    config = _config(temperature_plies=0, random_opening_plies=9)
    result = self_play(game, evaluator, games=40, config=config, seed=2)
    assert max(record.opening_plies for record in result.records) >= 5
    for record in result.records:
        states = _replay(game, record)
        assert not states[record.opening_plies].is_terminal()
        assert record.samples and record.samples[0].ply == record.opening_plies


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"games_in_flight": 0}, "games_in_flight must be an integer >= 1"),
        ({"temperature": 0.0}, "temperature must be a finite number > 0"),
        ({"resign_threshold": 1.0}, "resign_threshold"),
        ({"no_resign_fraction": -0.1}, "no_resign_fraction"),
        ({"full_search_probability": 0.5}, "needs cheap_simulations"),
        ({"full_search_probability": 0.5, "cheap_simulations": 100}, "must be fewer"),
        ({"search": {"c_puct": 1.0}}, "search must be an MCTSOptions"),
        ({"simulations": 0}, "simulations must be an integer >= 1"),
        ({"random_opening_plies": -1}, "random_opening_plies must be an integer >= 0"),
        ({"random_opening_plies": 2.5}, "random_opening_plies must be an integer >= 0"),
    ],
)
def test_bad_config_is_one_clear_line(fields: dict, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        SelfPlayConfig(**fields)


def test_bad_call_is_one_clear_line() -> None:
    evaluator = KeyedEvaluator(9)
    with pytest.raises(InvalidParameterError, match="games must be an integer >= 1"):
        self_play(TicTacToe(), evaluator, games=0)
    with pytest.raises(InvalidParameterError, match="seed must be an integer >= 0"):
        self_play(TicTacToe(), evaluator, games=1, seed=-3)
    with pytest.raises(InvalidParameterError, match="must have evaluate_batch"):
        self_play(TicTacToe(), object(), games=1)  # type: ignore[arg-type]


def test_with_the_network_samples_are_the_encoders_planes() -> None:
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator
    from searchlab.learning.networks.network import PolicyValueNet

    game = TicTacToe()
    encoder = encoder_for(game)
    evaluator = NetworkEvaluator(
        PolicyValueNet(encoder.shape, encoder.num_actions, seed=1), encoder
    )
    config = _config(games_in_flight=3, temperature_plies=3)
    result = self_play(game, evaluator, games=3, config=config, seed=5)
    again = self_play(game, evaluator, games=3, config=config, seed=5)
    assert result.records == again.records  # deterministic on the CPU
    assert result.stats.evaluation_calls == evaluator.batches / 2
    for record in result.records:
        states = _replay(game, record)
        for sample in record.samples:
            assert sample.planes.shape == encoder.shape
            assert np.array_equal(sample.planes, encoder.encode(states[sample.ply]))
            assert sample.policy.shape == (encoder.num_actions,)
            returned = states[-1].returns()[sample.player]
            assert sample.value == (1.0 if returned > 0 else -1.0 if returned < 0 else 0.0)
