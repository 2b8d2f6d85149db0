"""``searchlab train``: bad input is one line and exit 2 (nothing written), a tiny run writes
its directory, Ctrl-C is exit 130 and leaves a run that resumes, --help lists the config."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from needs import require_module

require_module("torch", "learn")

from searchlab.cli.main import main  # noqa: E402

TINY = """\
games_per_generation = 8
chunk_games = 4
games_in_flight = 4
simulations = 8
search_batch = 2
train_steps = 5
train_batch = 16
eval_games = 2
eval_simulations = 4
reference = ""
hidden = 16
"""


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], text: str) -> None:
    try:
        code = main(argv)
    except SystemExit as usage:  # argparse's own errors (one line too: OneLineParser)
        code = usage.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and text in err, err


@pytest.mark.parametrize(
    ("extra", "text"),
    [
        (["--device", "cuda"], "--device: device 'cuda'"),
        (["--algorithm", "alphabet"], "unknown; known: alphazero"),
        (["--ray", "127.0.0.1:1"], "no Ray cluster answers"),
        (["--time", "5x"], "expected a duration like 90s"),
        (["--workers", "0"], "expected a number > 0"),
        (["--keep", "some"], "expected a whole number >= 0 or 'all', got 'some'"),
        (["--keep", "-1"], "expected a whole number >= 0 or 'all', got '-1'"),
        (["--keep", "2", "--algorithm", "alphago"], "--keep is for alphazero"),
    ],
)
def test_bad_options_are_one_line(capsys, tmp_path: Path, extra: list[str], text: str) -> None:
    if "--ray" in extra:
        require_module("ray", "ray")
    _one_line_error(capsys, ["train", "tictactoe", "--out", str(tmp_path / "run"), *extra], text)
    assert not (tmp_path / "run").exists()


def test_bad_configs_are_one_line(capsys, tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    for text, message in (
        ("simulatons = 3\n", "unknown key simulatons"),
        ("simulations = 0\n", "simulations must be"),
        ("simulations = \n", "not valid TOML"),
    ):
        config.write_text(text)
        _one_line_error(
            capsys,
            ["train", "tictactoe", "--config", str(config), "--out", str(tmp_path / "r")],
            message,
        )
    assert not (tmp_path / "r").exists()
    _one_line_error(capsys, ["train", "nim", "--out", str(tmp_path / "r")], "no encoder")
    _one_line_error(
        capsys,
        [
            "train",
            "tictactoe",
            "--config",
            str(tmp_path / "missing.toml"),
            "--out",
            str(tmp_path / "r"),
        ],
        "no such file",
    )


def test_a_tiny_run_then_another_game_in_its_folder(capsys, tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY + "max_generations = 2\n")
    out = tmp_path / "run"
    assert (
        main(["train", "tictactoe", "--config", str(config), "--seed", "3", "--out", str(out)]) == 0
    )
    captured = capsys.readouterr()
    assert "generation 2, 16 self-play games" in captured.out
    assert f"az:checkpoint={out}" in captured.out
    assert "generation 1" in captured.err  # the per-generation line
    names = {p.name for p in out.iterdir()}
    assert {"latest.pt", "best.pt", "progress.png", "progress.json", "train.log"} <= names
    assert "checkpoints" not in names  # the last and the best only, by default
    assert json.loads((out / "progress.json").read_text())["games"] == 16
    assert "seed = 3" in (out / "config.toml").read_text()
    _one_line_error(capsys, ["train", "connect4", "--out", str(out)], "training run of tictactoe")
    _one_line_error(
        capsys, ["train", "tictactoe", "--seed", "4", "--out", str(out)], "other settings (seed)"
    )


def test_help_lists_the_config_keys(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for key in ("games_per_generation", "simulations", "window_games", "learning_rate", "--ray"):
        assert key in text
    assert "tictactoe" in text and "az:checkpoint=" in text
    alphago = text.split("config keys of --algorithm alphago", 1)[1]
    for key in ("expert_positions", "hard_budget", "held_out", "sl_init", "sl_epochs"):
        assert key in alphago
    assert "node_budget  (100000)" in alphago  # each key with its default


def test_the_alphago_help_covers_every_config_key() -> None:
    import dataclasses

    from searchlab.learning.alphago.pipeline import AlphaGoConfig

    documented = [key for keys, text in AlphaGoConfig.key_help() for key in keys if text]
    assert sorted(documented) == sorted(f.name for f in dataclasses.fields(AlphaGoConfig))


def test_ctrl_c_is_exit_130_and_the_run_resumes(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "searchlab",
        "train",
        "tictactoe",
        "--config",
        str(config),
        "--out",
        str(out),
    ]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    child = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(out.glob("games/games-*.npz")):
        time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err[-2000:]
    assert err.strip().splitlines()[-1] == "searchlab: interrupted"
    assert not list(out.rglob(".*.tmp"))
    stored = sorted(p.name for p in (out / "games").iterdir())
    resumed = subprocess.run(
        [*command, "--time", "3s"], capture_output=True, text=True, env=env, timeout=180
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    # the chunks stored before Ctrl-C are still there, none played again under another name
    after = sorted(p.name for p in (out / "games").iterdir())
    assert set(stored) <= set(after)
    firsts = [int(name.split("-")[1]) for name in after]
    assert len(firsts) == len(set(firsts))


def test_keep_keeps_the_newest_generations(capsys, tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY + "max_generations = 2\n")
    out = tmp_path / "run"
    argv = ["train", "tictactoe", "--config", str(config), "--out", str(out), "--keep", "all"]
    assert main(argv) == 0
    names = sorted(p.name for p in (out / "checkpoints").iterdir())
    assert names == ["gen-0000.pt", "gen-0001.pt", "gen-0002.pt"]
