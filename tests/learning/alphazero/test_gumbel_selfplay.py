"""Gumbel self-play (issue 31): with ``root="gumbel"`` each sample's policy target is the
search's improved policy and the move is the Gumbel root's choice; PUCT self-play is what it
was (records digested before Gumbel self-play existed); the training config and ``searchlab
train`` take the Gumbel knobs; a Gumbel run resumes after a kill; and at 8 simulations a
Gumbel run cuts the network's mistakes against the exact tic-tac-toe values."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
import torch
from puct_fakes import KeyedEvaluator

from searchlab.algorithms.mcts import puct
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.cli.main import main
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero import selfplay
from searchlab.learning.alphazero.evaluation import exact_table, mistake_rate, policy_chooser
from searchlab.learning.alphazero.pipeline import train_alphazero
from searchlab.learning.alphazero.selfplay import GameRecord, SelfPlayConfig, self_play
from searchlab.learning.alphazero.train_config import config_for, parse_config_text
from searchlab.learning.networks.checkpoint import load_checkpoint
from searchlab.learning.networks.evaluator import NetworkEvaluator

sys.path.insert(0, str(Path(__file__).parent))
from _train_child import TINY

torch.set_num_threads(1)
CHILD = Path(__file__).parent / "_train_child.py"
GUMBEL = {"root": "gumbel", "max_num_considered_actions": 4, "dirichlet_alpha": 0.0}


def _gumbel(**fields: Any) -> SelfPlayConfig:
    search = MCTSOptions(search_batch=2, root="gumbel", max_num_considered_actions=4)
    fields.setdefault("simulations", 8)
    return SelfPlayConfig(search=search, **fields)


def _digest(records: Sequence[GameRecord]) -> str:
    """Every field of every record and sample, hashed (planes and targets to the bit)."""
    digest = hashlib.sha256()
    for r in records:
        game = (r.index, r.actions, r.outcome, r.resigned_by, r.resignation_disabled)
        rest = (r.would_resign, r.full_searches, r.root_values, r.opening_plies)
        digest.update(repr((*game, *rest)).encode())
        for sample in r.samples:
            digest.update(sample.planes.tobytes())
            digest.update(sample.policy.tobytes())
            digest.update(repr((sample.value, sample.player, sample.ply)).encode())
    return digest.hexdigest()


def test_puct_self_play_records_are_those_of_before_gumbel_self_play() -> None:
    """Seeded PUCT games (noise, temperature, random openings; resignation and playout caps on
    Connect Four) digested by the code before Gumbel self-play was added (commit 2a9fce5):
    the PUCT path is unchanged to the bit."""
    search = MCTSOptions(search_batch=4, virtual_loss=1.0, dirichlet_alpha=0.5)
    ttt = SelfPlayConfig(
        search=search, simulations=24, games_in_flight=3, temperature_plies=4,
        random_opening_plies=2,
    )  # fmt: skip
    c4 = SelfPlayConfig(
        search=search, simulations=24, games_in_flight=5, temperature_plies=4,
        resign_threshold=-0.2, no_resign_fraction=0.4, full_search_probability=0.5,
        cheap_simulations=6,
    )  # fmt: skip
    played = self_play(TicTacToe(), KeyedEvaluator(9), games=6, config=ttt, seed=11)
    assert _digest(played.records) == (
        "aed14cb2b668fabf24e78a1b76753fbd42a5b1292d4ef32418a820921c89a3ca"
    )
    played = self_play(Connect4(), KeyedEvaluator(7), games=6, config=c4, seed=12)
    assert _digest(played.records) == (
        "60586ee33bd058ca7382c202e16428e48fca9617f9bda5472cafbd815846ffac"
    )


class _Watched(puct.PUCTTree):
    """The self-play tree, each finished search's outcome kept (by its root's key)."""

    seen: ClassVar[dict[Any, list[puct.SearchOutcome]]] = {}

    def outcome(self) -> puct.SearchOutcome:
        found = super().outcome()
        _Watched.seen.setdefault(self.root_state.key(), []).append(found)
        return found


def test_the_policy_target_is_the_improved_policy_and_the_move_the_gumbel_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every searched position of seeded Gumbel games, against the search that made it: the
    sample's policy is that search's improved policy (not its visits), and the move played is
    its chosen action, also in the plies the PUCT temperature would sample."""
    game, evaluator = TicTacToe(), KeyedEvaluator(9)
    _Watched.seen = {}
    monkeypatch.setattr(selfplay, "PUCTTree", _Watched)
    config = _gumbel(games_in_flight=1, temperature_plies=9, temperature=5.0)
    result = self_play(game, evaluator, games=4, config=config, seed=5)
    differs = choices = 0
    for record in result.records:
        state = game.initial_state()
        assert len(record.samples) == len(record.actions)
        for sample, action in zip(record.samples, record.actions, strict=True):
            outcome = _Watched.seen[state.key()].pop(0)  # games_in_flight=1: in order
            assert outcome.improved_policy is not None
            target = np.zeros(9, dtype=np.float32)
            target[list(outcome.actions)] = outcome.improved_policy
            assert np.array_equal(sample.policy, target)
            visits = outcome.visits / outcome.visits.sum()
            differs += not np.allclose(sample.policy[list(outcome.actions)], visits)
            choices += len(outcome.actions) > 1
            assert action == outcome.actions[outcome.chosen]  # type: ignore[index]
            state = state.apply(action)
    assert differs == choices > 10  # with a choice to make, the target is not the visits


def test_the_same_seed_gives_the_same_gumbel_games() -> None:
    game = Connect4()
    config = _gumbel(games_in_flight=3)
    first = self_play(game, KeyedEvaluator(7), games=5, config=config, seed=2)
    again = self_play(game, KeyedEvaluator(7), games=5, config=config, seed=2)
    alone = self_play(game, KeyedEvaluator(7), games=5, config=_gumbel(games_in_flight=1), seed=2)
    other = self_play(game, KeyedEvaluator(7), games=5, config=config, seed=3)
    assert first.records == again.records == alone.records
    assert len({record.actions for record in first.records}) > 1  # Gumbel draws differ per game
    assert other.records != first.records


def test_gumbel_with_dirichlet_noise_is_refused_in_one_line() -> None:
    search = MCTSOptions(root="gumbel", dirichlet_alpha=0.3)
    with pytest.raises(InvalidParameterError, match="set dirichlet_alpha=None") as caught:
        SelfPlayConfig(search=search)
    assert "\n" not in str(caught.value)
    # the training config's noise is PUCT's: a Gumbel run searches without it
    assert config_for("tictactoe", {"root": "gumbel"}).selfplay().search.dirichlet_alpha is None
    assert config_for("tictactoe").selfplay().search.dirichlet_alpha == 1.0


def test_the_shipped_gumbel_config_is_gumbel_self_play() -> None:
    path = Path(__file__).parents[3] / "benchmarks" / "configs" / "tictactoe_gumbel.toml"
    config = config_for("tictactoe", parse_config_text(path.read_text(), str(path)))
    search = config.selfplay().search
    assert (search.root, search.dirichlet_alpha, config.simulations) == ("gumbel", None, 16)
    assert search.max_num_considered_actions >= 9  # every legal move of tic-tac-toe


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('root = "gumbel"\nmax_num_considered_actions = 0\n', "max_num_considered_actions must"),
        ('root = "gumbel"\nsimulations = 0\n', "simulations must be an integer >= 1"),
        ('root = "gumbel"\nc_visit = inf\n', "c_visit must be a finite number"),
        ('root = "gumbel"\nc_visit = nan\n', "c_visit must be a finite number"),
        ('root = "gumbel"\nc_scale = -1.0\n', "c_scale must be a finite number >= 0"),
        ('root = "gumble"\n', "root must be one of puct, gumbel, got 'gumble'"),
        ('nonroot = "uct"\n', "nonroot must be one of puct, gumbel"),
    ],
)
def test_bad_gumbel_settings_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(text)
    out = tmp_path / "run"
    assert main(["train", "tictactoe", "--config", str(config), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()


def _weights(folder: Path) -> list[torch.Tensor]:
    return list(load_checkpoint(folder / "latest.pt", TicTacToe()).net.state_dict().values())


def _child(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).parents[3] / "src"),
        "TRAIN_CHILD_OVERRIDES": json.dumps(GUMBEL),
    }
    return subprocess.run(
        [sys.executable, str(CHILD), str(folder), *extra],
        capture_output=True, text=True, timeout=240, env=env,
    )  # fmt: skip


@pytest.mark.slow  # two child processes, each importing torch: about 25 s on 2 busy cores
def test_gumbel_training_from_the_command_line_resumes_after_a_kill(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``searchlab train --config`` with the Gumbel keys runs two generations; the same run
    in a child killed at its fifth atomic rename (a chunk of the first generation) and run
    again ends with the very network of the uninterrupted one."""
    config = tmp_path / "gumbel.toml"
    keys = {**TINY, **GUMBEL, "max_generations": 2}
    config.write_text("".join(f"{key} = {json.dumps(value)}\n" for key, value in keys.items()))
    reference = tmp_path / "reference"
    assert main(["train", "tictactoe", "--config", str(config), "--out", str(reference)]) == 0
    assert "generation 2, 16 self-play games" in capsys.readouterr().out
    written = config_for("tictactoe", keys)
    assert written.selfplay().search.root == "gumbel"
    assert 'root = "gumbel"' in (reference / "config.toml").read_text()
    folder = tmp_path / "run"
    killed = _child(folder, "5")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    resumed = _child(folder)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stdout.split() == ["2", "16"]
    before, after = _weights(reference), _weights(folder)
    assert all(torch.equal(a, b) for a, b in zip(before, after, strict=True))


def test_gumbel_at_eight_simulations_cuts_the_network_mistakes(tmp_path: Path) -> None:
    """Two generations of Gumbel self-play at 8 simulations a move (seed 0): the network
    alone's mistakes against the exact values of all 4,520 positions drop."""
    game = TicTacToe()
    short = {
        "games_per_generation": 64, "simulations": 8, "train_steps": 120, "eval_games": 0,
        "reference": "", "max_generations": 2, "hidden": 64, "blocks": 2,
        "lr_schedule": "constant", **GUMBEL,
    }  # fmt: skip
    train_alphazero(game, tmp_path / "run", config_for("tictactoe", short), keep_checkpoints="all")
    table = exact_table(game)
    rates = []
    for generation in (0, 2):
        path = tmp_path / "run" / "checkpoints" / f"gen-{generation:04d}.pt"
        checkpoint = load_checkpoint(path, game)
        evaluator = NetworkEvaluator(checkpoint.net, checkpoint.encoder)
        rates.append(mistake_rate(table, policy_chooser(evaluator, table)))
    before, after = rates
    assert before > 0.1  # the random network is often wrong
    assert after < 0.75 * before, rates  # measured: 39% -> 25% (seed 0)
