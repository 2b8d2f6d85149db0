"""The AlphaZero loop and its training directory: the files, determinism, resuming after a
stop or a SIGKILL at any moment (no game lost or counted twice, the same final network), the
progress picture, config errors, and a training step through a local Ray instance."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from needs import require_module

from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero.pipeline import train_alphazero
from searchlab.learning.alphazero.run_dir import RunDirectory
from searchlab.learning.alphazero.train_config import config_for, config_to_toml, parse_config_text
from searchlab.learning.networks.checkpoint import load_checkpoint

sys.path.insert(0, str(Path(__file__).parent))
from _train_child import TINY

torch.set_num_threads(1)
CHILD = Path(__file__).parent / "_train_child.py"


def _weights(folder: Path) -> list[torch.Tensor]:
    net = load_checkpoint(folder / "latest.pt", TicTacToe()).net
    return [t.clone() for t in net.state_dict().values()]


def _same(a: list[torch.Tensor], b: list[torch.Tensor]) -> bool:
    return len(a) == len(b) and all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


def _game_ids(folder: Path) -> list[int]:
    from searchlab.learning.alphazero.replay import load_block

    ids: list[int] = []
    for path in sorted((folder / "games").glob("games-*.npz")):
        block = load_block(path)
        ids.extend(range(block.first_game, block.end_game))
        assert set(block.games.tolist()) <= set(range(block.first_game, block.end_game))
    return ids


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reference") / "run"
    summary = train_alphazero(TicTacToe(), folder, config_for("tictactoe", TINY))
    assert (summary.generation, summary.games, summary.stopped) == (2, 16, "generations")
    return folder


def test_the_directory_holds_the_last_and_the_best_and_the_figures(reference_run: Path) -> None:
    names = {p.name for p in reference_run.iterdir()}
    assert {
        "run.json",
        "config.toml",
        "train.log",
        "latest.pt",
        "best.pt",
        "progress.json",
        "progress.png",
        "games",
    } <= names
    assert "checkpoints" not in names  # by default the last and the best only
    progress = json.loads((reference_run / "progress.json").read_text())
    assert [e["generation"] for e in progress["generations"]] == [1, 2]
    assert progress["games"] == 16
    first = progress["generations"][0]
    assert 0 <= first["score_vs_previous"] <= 1 and 0 <= first["mistake_rate"] <= 1
    # window of 12 games: the chunk of games 0..3 left it and was deleted
    assert _game_ids(reference_run) == list(range(4, 16))
    latest = load_checkpoint(reference_run / "latest.pt", TicTacToe())
    assert latest.extra["generation"] == 2 and latest.extra["next_game"] == 16
    assert not list(reference_run.rglob(".*.tmp"))
    from PIL import Image

    with Image.open(reference_run / "progress.png") as picture:
        assert picture.size[0] > 500 and picture.size[1] > 500


def test_same_seed_same_network_other_seed_another(reference_run: Path, tmp_path: Path) -> None:
    train_alphazero(TicTacToe(), tmp_path / "again", config_for("tictactoe", TINY))
    assert _same(_weights(reference_run), _weights(tmp_path / "again"))
    train_alphazero(TicTacToe(), tmp_path / "other", config_for("tictactoe", {**TINY, "seed": 1}))
    assert not _same(_weights(reference_run), _weights(tmp_path / "other"))


def test_stopping_after_each_generation_and_resuming_is_the_same_run(
    reference_run: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    constant = {**TINY, "lr_schedule": "constant"}
    reference = tmp_path / "constant"
    train_alphazero(TicTacToe(), reference, config_for("tictactoe", constant))
    one = train_alphazero(
        TicTacToe(), folder, config_for("tictactoe", {**constant, "max_generations": 1})
    )
    assert (one.generation, one.games) == (1, 8)
    # the run keeps its own settings: resuming with another config is refused in one line
    with pytest.raises(InvalidParameterError, match=r"other settings.*max_generations"):
        RunDirectory.open(folder, "tictactoe", {}, config_for("tictactoe", constant))
    config = folder / "config.toml"
    config.write_text(config.read_text().replace("max_generations = 1", "max_generations = 2"))
    # a longer budget is another cosine schedule (tested below): constant keeps the step sizes
    assert 'lr_schedule = "constant"' in config.read_text()
    two = train_alphazero(TicTacToe(), folder, None)
    assert (two.generation, two.games) == (2, 16)
    assert _same(_weights(reference), _weights(folder))
    assert not _same(_weights(reference_run), _weights(folder))  # the schedule did matter


def test_the_learning_rate_follows_the_schedule_over_the_generations(
    reference_run: Path, tmp_path: Path
) -> None:
    """tic-tac-toe's default is the cosine over max_generations: each generation trains at
    the step size of the fraction of the budget spent once it is trained; the step size is in
    the figures and in the optimiser's saved state."""
    from searchlab.learning.alphazero.trainer import scheduled_learning_rate

    config = config_for("tictactoe", TINY)
    assert config.lr_schedule == "cosine"
    progress = json.loads((reference_run / "progress.json").read_text())["generations"]
    expected = [
        scheduled_learning_rate(config.learning_rate, g / 2, "cosine", config.lr_final_fraction)
        for g in (1, 2)
    ]
    assert [e["learning_rate"] for e in progress] == pytest.approx(expected, rel=1e-3)
    assert expected[1] == pytest.approx(config.lr_final_fraction * config.learning_rate)
    latest = load_checkpoint(reference_run / "latest.pt", TicTacToe()).extra
    assert latest["schedule_progress"] == 1.0
    assert latest["optimizer"]["param_groups"][0]["lr"] == pytest.approx(expected[1])
    # a deadline: the fraction of the time spent; one far away keeps the step size near the base
    summary = train_alphazero(
        TicTacToe(),
        tmp_path / "timed",
        config_for("tictactoe", {**TINY, "max_generations": 0}),
        deadline=time.monotonic() + 1e6,
        should_stop=lambda: bool(list((tmp_path / "timed" / "checkpoints").glob("gen-0001.pt"))),
        keep_checkpoints="all",
    )
    assert summary.generation == 1
    assert summary.entries[0]["learning_rate"] == pytest.approx(config.learning_rate, rel=1e-3)


def _child(folder: Path, *extra: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3] / "src")}
    return subprocess.run(
        [sys.executable, str(CHILD), str(folder), *extra],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.mark.parametrize("kill_at", [2, 5, 7])
def test_sigkill_at_an_atomic_write_then_resume(
    reference_run: Path, tmp_path: Path, kill_at: int
) -> None:
    """Renames, in order: config.toml, run.json, latest.pt (2 calls each), then per generation
    two chunks, best.pt (when it is the best so far), latest.pt, progress.json, progress.png. Killed
    between the temporary file and its rename (a chunk, a checkpoint, a figure), the run
    resumes to the very network of the uninterrupted one, every game stored once."""
    folder = tmp_path / "run"
    killed = _child(folder, str(kill_at))
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    resumed = _child(folder)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stdout.split() == ["2", "16"]
    assert _game_ids(folder) == list(range(4, 16))
    assert _same(_weights(reference_run), _weights(folder))
    assert not list(folder.rglob(".*.tmp"))


def test_sigkill_at_random_moments_loses_and_repeats_nothing(
    reference_run: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3] / "src")}
    rng = random.Random(9)
    for _ in range(2):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(folder)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(4.0, 9.0))
        child.send_signal(signal.SIGKILL)
        child.wait()
    finished = _child(folder)
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert finished.stdout.split() == ["2", "16"]
    assert _game_ids(folder) == list(range(4, 16))
    assert _same(_weights(reference_run), _weights(folder))


def test_deadline_closes_the_generation_with_the_games_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import searchlab.learning.alphazero.pipeline as alphazero

    summary = train_alphazero(
        TicTacToe(),
        tmp_path / "run",
        config_for("tictactoe", {**TINY, "max_generations": 0}),
        deadline=time.monotonic(),
    )
    # past the deadline before the first chunk: nothing played, generation 0 saved
    assert (summary.generation, summary.games, summary.stopped) == (0, 0, "time")
    passed = [False]
    monkeypatch.setattr(alphazero, "_past", lambda deadline, reserve=0.0: passed[0])

    def after_first_chunk(kind: str, info: dict) -> None:
        passed[0] = passed[0] or kind == "chunk"

    summary = train_alphazero(
        TicTacToe(), tmp_path / "run", None, deadline=1.0, on_event=after_first_chunk
    )
    # one wave (one chunk of 4 games) then the deadline: a short generation 1, trained
    assert (summary.generation, summary.games, summary.stopped) == (1, 4, "time")
    assert load_checkpoint(tmp_path / "run" / "latest.pt", TicTacToe()).extra["next_game"] == 4
    assert _game_ids(tmp_path / "run") == [0, 1, 2, 3]


def test_another_game_or_a_foreign_folder_is_refused(reference_run: Path, tmp_path: Path) -> None:
    from searchlab.domains.games.connect4 import Connect4

    with pytest.raises(InvalidParameterError, match="training run of tictactoe, not connect4"):
        train_alphazero(Connect4(), reference_run, None)
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InvalidParameterError, match="not empty and holds no training run"):
        train_alphazero(TicTacToe(), tmp_path, None)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"simulatons": 3}, "unknown key simulatons"),
        ({"simulations": 0}, "simulations"),
        ({"c_puct": -1.0}, "c_puct"),
        ({"optimizer": "rmsprop"}, "optimizer"),
        ({"symmetries": "yes"}, "symmetries"),
        ({"resign_threshold": 1.5}, "resign_threshold"),
        ({"full_search_probability": 0.5}, "cheap_simulations"),
        ({"learning_rate": 0}, "learning_rate"),
        ({"network_kind": "transformer"}, "network_kind"),
        ({"blocks": 100}, "blocks"),
        ({"lr_schedule": "step"}, "lr_schedule must be one of constant, cosine, got 'step'"),
        ({"lr_final_fraction": 0.0}, "lr_final_fraction must be in \\(0, 1\\]"),
        ({"lr_final_fraction": 2}, "lr_final_fraction must be in \\(0, 1\\]"),
        ({"random_opening_plies": -2}, "random_opening_plies must be an integer >= 0"),
    ],
)
def test_impossible_configs_are_one_line(overrides: dict, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message) as caught:
        config_for("tictactoe", overrides)
    assert "\n" not in str(caught.value)


def test_config_toml_round_trip_and_syntax_errors() -> None:
    config = config_for("connect4", {"reference": 'say "hi"', "symmetries": False, "seed": 4})
    assert config_for("connect4", parse_config_text(config_to_toml(config))) == config
    with pytest.raises(InvalidParameterError, match="not valid TOML"):
        parse_config_text("simulations = = 3")
    with pytest.raises(InvalidParameterError, match="single value"):
        parse_config_text("[network]\nblocks = 2\n")
    groups = "[[expert_groups]]\npositions = 5\n[[expert_groups]]\npositions = 7\n"
    assert parse_config_text(groups, tables=("expert_groups",)) == {
        "expert_groups": [{"positions": 5}, {"positions": 7}]
    }
    with pytest.raises(InvalidParameterError, match="expert_groups must be a single value"):
        parse_config_text(groups)  # only where the caller takes arrays of tables
    with pytest.raises(InvalidParameterError, match="single value"):
        parse_config_text("expert_groups = [1, 2]\n", tables=("expert_groups",))


def test_a_training_step_through_a_local_ray_instance(tmp_path: Path) -> None:
    require_module("ray", "ray")
    from searchlab.learning.alphazero.workers import make_pool

    pool = make_pool(1, ray=True)
    try:
        summary = train_alphazero(
            TicTacToe(),
            tmp_path / "run",
            config_for("tictactoe", {**TINY, "max_generations": 1}),
            pool=pool,
        )
    finally:
        pool.close()
    assert (summary.generation, summary.games) == (1, 8)
    assert _game_ids(tmp_path / "run") == list(range(8))
    local = train_alphazero(
        TicTacToe(), tmp_path / "local", config_for("tictactoe", {**TINY, "max_generations": 1})
    )
    assert local.games == 8
    assert _same(_weights(tmp_path / "run"), _weights(tmp_path / "local"))


def test_a_ray_address_that_does_not_answer_is_one_line() -> None:
    require_module("ray", "ray")
    from searchlab.learning.alphazero.workers import make_pool

    with pytest.raises(InvalidParameterError, match="no Ray cluster answers") as caught:
        make_pool(1, ray=True, address="127.0.0.1:1")
    assert "\n" not in str(caught.value)


def test_local_worker_processes_play_the_same_games(reference_run: Path, tmp_path: Path) -> None:
    from searchlab.learning.alphazero.workers import make_pool

    pool = make_pool(2)
    try:
        summary = train_alphazero(
            TicTacToe(), tmp_path / "run", config_for("tictactoe", TINY), pool=pool, workers=2
        )
    finally:
        pool.close()
    assert summary.games == 16
    assert _same(_weights(reference_run), _weights(tmp_path / "run"))
    assert np.array_equal(_game_ids(tmp_path / "run"), _game_ids(reference_run))


def test_self_play_runs_on_the_runs_device(reference_run: Path, tmp_path: Path) -> None:
    """The tasks carry the run's device (``cpu:0`` here, told apart from the default ``cpu``:
    on a GPU machine it is ``cuda``), the worker's evaluator runs there (an absent GPU is its
    one-line refusal), and the games are the same as on the default device."""
    from searchlab.core.workers import InlinePool
    from searchlab.learning.alphazero.workers import SelfPlayTask, play_chunk

    seen: list[str] = []

    class Recording(InlinePool):
        def run(self, tasks, function):  # type: ignore[no-untyped-def]
            seen.extend(task.device for task in tasks)
            return super().run(tasks, function)

    summary = train_alphazero(
        TicTacToe(), tmp_path / "run", config_for("tictactoe", TINY), device="cpu:0",
        pool=Recording(),
    )  # fmt: skip
    assert summary.games == 16 and seen and set(seen) == {"cpu:0"}
    assert _same(_weights(reference_run), _weights(tmp_path / "run"))
    net = load_checkpoint(tmp_path / "run" / "latest.pt", TicTacToe()).net
    config = config_for("tictactoe", TINY)
    task = SelfPlayTask(
        "tictactoe", {}, net.config.to_dict(), net.state_dict(), config.selfplay(), 0, 0, 1, 0,
        "cuda:7",
    )  # fmt: skip
    with pytest.raises(InvalidParameterError, match="cuda:7"):
        play_chunk(task)


def test_evaluation_games_are_the_workers_tasks(tmp_path: Path) -> None:
    """Each evaluation game is one task for the workers (both matches in one wave); the score
    against the previous generation is play_match's over the same games, and local worker
    processes give the same figures as this process."""
    from searchlab.core.workers import InlinePool
    from searchlab.learning.alphazero.evaluation import network_agent, play_match
    from searchlab.learning.alphazero.workers import make_pool
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import NetworkEvaluator

    calls: list[tuple[str, int]] = []

    class Recording(InlinePool):
        def run(self, tasks, function):  # type: ignore[no-untyped-def]
            calls.append((function.__name__, len(tasks)))
            return super().run(tasks, function)

    config = config_for(
        "tictactoe",
        {**TINY, "max_generations": 1, "eval_games": 6, "reference": "alphabeta:depth=2",
         "reference_games": 3},
    )  # fmt: skip
    train_alphazero(TicTacToe(), tmp_path / "a", config, pool=Recording(), keep_checkpoints="all")
    assert calls == [("play_chunk", 1), ("play_chunk", 1), ("play_match_game", 9)]
    entry = json.loads((tmp_path / "a" / "progress.json").read_text())["generations"][0]
    encoder = encoder_for(TicTacToe())
    search = config.puct(noise=False)
    evaluators = [
        NetworkEvaluator(
            load_checkpoint(tmp_path / "a" / "checkpoints" / f"gen-000{g}.pt", TicTacToe()).net,
            encoder,
        )
        for g in (1, 0)
    ]
    players = [
        lambda rng, evaluator=evaluator: network_agent(
            evaluator, search, config.eval_simulations, rng=rng
        )
        for evaluator in evaluators
    ]
    expected = play_match(TicTacToe(), *players, games=6, seed=config.seed * 1_000_003 + 1)
    assert entry["score_vs_previous"] == round(expected.score, 4)
    pool = make_pool(2)
    try:
        train_alphazero(TicTacToe(), tmp_path / "b", config, pool=pool, workers=2)
    finally:
        pool.close()
    other = json.loads((tmp_path / "b" / "progress.json").read_text())["generations"][0]
    for key in ("score_vs_previous", "score_vs_reference", "reference_losses", "elo"):
        assert other[key] == entry[key]


def test_best_checkpoint_is_the_generation_of_the_largest_merit(reference_run: Path) -> None:
    """``best.pt`` holds the generation with the fewest network mistakes (then the higher Elo),
    without the optimiser's state; ``latest.pt`` stays the newest, with it."""
    from searchlab.learning.alphazero.pipeline import merit

    entries = json.loads((reference_run / "progress.json").read_text())["generations"]
    best_entry = max(reversed(entries), key=merit)  # ties: the newer
    best = load_checkpoint(reference_run / "best.pt", TicTacToe())
    assert best.extra["generation"] == best_entry["generation"]
    assert "optimizer" not in best.extra
    latest = load_checkpoint(reference_run / "latest.pt", TicTacToe())
    assert latest.extra["generation"] == 2 and latest.extra["optimizer"]
    assert latest.extra["keep_checkpoints"] == 0


def _longer(folder: Path, generations: int) -> None:
    """Let the run in ``folder`` go on to ``generations`` (its config.toml rewritten)."""
    config = folder / "config.toml"
    text = re.sub(r"max_generations = \d+", f"max_generations = {generations}", config.read_text())
    config.write_text(text)


def test_best_follows_the_merit_of_every_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later generation that is worse leaves ``best.pt`` at the earlier one."""
    import searchlab.learning.alphazero.pipeline as alphazero

    figures = iter([{"mistake_rate": 0.2}, {"mistake_rate": 0.3}, {"mistake_rate": 0.2}])
    real = alphazero._evaluate

    def evaluate(*args: Any, **kwargs: Any) -> dict[str, Any]:
        entry: dict[str, Any] = real(*args, **kwargs)
        entry.update(next(figures))
        return entry

    monkeypatch.setattr(alphazero, "_evaluate", evaluate)
    folder = tmp_path / "run"
    bests = []
    for generations in (1, 2, 3):
        if generations == 1:
            config = config_for("tictactoe", {**TINY, "max_generations": 1, "eval_games": 0})
            train_alphazero(TicTacToe(), folder, config)
        else:
            _longer(folder, generations)
            train_alphazero(TicTacToe(), folder, None)
        bests.append(load_checkpoint(folder / "best.pt", TicTacToe()).extra["generation"])
    assert bests == [1, 1, 3]  # the third ties the first: the newer wins


@pytest.mark.parametrize(
    ("keep", "files"),
    [
        (1, ["gen-0002.pt"]),
        (2, ["gen-0001.pt", "gen-0002.pt"]),
        ("all", ["gen-0000.pt", "gen-0001.pt", "gen-0002.pt"]),
    ],
)
def test_keep_checkpoints(tmp_path: Path, keep: int | str, files: list[str]) -> None:
    train_alphazero(
        TicTacToe(), tmp_path / "run", config_for("tictactoe", TINY), keep_checkpoints=keep
    )
    assert sorted(p.name for p in (tmp_path / "run" / "checkpoints").iterdir()) == files


def test_a_resumed_run_keeps_its_own_choice(tmp_path: Path) -> None:
    """Resumed without saying, a run keeps what it was started with; saying prunes to it."""
    folder = tmp_path / "run"
    one = config_for("tictactoe", {**TINY, "max_generations": 1})
    train_alphazero(TicTacToe(), folder, one, keep_checkpoints="all")
    _longer(folder, 2)
    assert train_alphazero(TicTacToe(), folder, None).generation == 2
    names = sorted(p.name for p in (folder / "checkpoints").iterdir())
    assert names == ["gen-0000.pt", "gen-0001.pt", "gen-0002.pt"]
    _longer(folder, 3)
    train_alphazero(TicTacToe(), folder, None, keep_checkpoints=1)
    assert sorted(p.name for p in (folder / "checkpoints").iterdir()) == ["gen-0003.pt"]
    assert load_checkpoint(folder / "latest.pt", TicTacToe()).extra["keep_checkpoints"] == 1


@pytest.mark.parametrize("keep", [-1, "some", 1.5, True])
def test_bad_keep_checkpoints_is_one_line(tmp_path: Path, keep: Any) -> None:
    config = config_for("tictactoe", TINY)
    with pytest.raises(InvalidParameterError, match="keep_checkpoints must be"):
        train_alphazero(TicTacToe(), tmp_path / "run", config, keep_checkpoints=keep)


def test_the_progress_line_says_the_reference_games_open_with_a_sampled_move() -> None:
    """0 network mistakes and still losses to the perfect player: the line says why (the
    network's first move is drawn from its visits), the figure itself as measured."""
    from searchlab.learning.alphazero.pipeline import describe_entry

    entry = {
        "generation": 7, "games": 1400, "loss": 0.9, "loss_policy": 0.6, "loss_value": 0.3,
        "elo": 300.0, "reference": "alphabeta:depth=9", "score_vs_reference": 0.38,
        "mistakes": 0, "positions": 4520, "mistake_rate": 0.0,
    }  # fmt: skip
    line = describe_entry(entry)
    assert "vs alphabeta:depth=9 0.38 (the network's first move sampled)" in line
    assert "network mistakes 0/4520" in line
