"""The Connect Four network shipped inside the package: ``az`` and ``policy`` without
``checkpoint=`` use it (so ``searchlab play connect4 --second az`` works right after install);
a game with none is one line and a non-zero exit; the shipped file records the command and
seed that reproduce it and no optimiser state; the wheel carries it as package data; the help
says where the default comes from.

Until the real checkpoint is committed, the tests of the machinery put a tiny network in a
temporary folder and point the shipped location there. The test of the real file skips while
``src/searchlab/learning/checkpoints/connect4.ckpt`` is absent, except in CI (``CI=true``),
where a missing file fails.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch
from needs import missing

from searchlab.agents import make_agent
from searchlab.agents.kinds import LAZY_KINDS
from searchlab.agents.search import MCTSAgent
from searchlab.cli.main import main as searchlab
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning import shipped
from searchlab.learning.agents import AZ_KIND, resolve_checkpoint
from searchlab.learning.networks.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "searchlab" / "learning" / "checkpoints" / "connect4.ckpt"
TINY = NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16)
REPRODUCE = "searchlab train connect4 --time 2h --seed 11 --out runs/c4"
# The last moves of a Connect Four game with few plies left: az searches its default budget
# on it quickly (the exact command ``--second az``, nothing else given).
LATE = "2631771566376111312355376576227324"  # 34 plies, 3 columns open


def tiny_net(seed: int = 0) -> PolicyValueNet:
    encoder = encoder_for(Connect4())
    return PolicyValueNet(encoder.shape, encoder.num_actions, TINY, seed=seed)


@pytest.fixture
def shipped_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A placeholder shipped folder holding a tiny Connect Four network (never the real one)."""
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.toml").write_text("seed = 11\n", encoding="utf-8")
    encoder = encoder_for(Connect4())
    source = save_checkpoint(
        run / "latest.pt",
        tiny_net(seed=3),
        encoder,
        extra={"generation": 7, "optimizer": {"state": {}, "lr": 0.01}},
    )
    shipped.prepare_shipped(source, folder, reproduce=REPRODUCE)
    monkeypatch.setattr(shipped, "checkpoint_directory", lambda: folder)
    return folder


def test_az_and_policy_without_a_checkpoint_load_the_shipped_network(shipped_dir: Path) -> None:
    game = Connect4()
    target = shipped_dir / "connect4.ckpt"
    assert resolve_checkpoint(None, game, "az") == target
    az = make_agent("az:simulations=16,batch=4", game, seed=1)
    policy = make_agent("policy", game)
    assert isinstance(az, MCTSAgent) and isinstance(policy, MCTSAgent)
    assert az.checkpoint.path == target == policy.checkpoint.path
    expected = tiny_net(seed=3).state_dict()
    for key, value in az.checkpoint.net.state_dict().items():
        assert torch.equal(value, expected[key]), key
    state = game.initial_state()
    assert az.act(state) in state.legal_actions()
    assert az.last_result.stats["simulations"] == 16


def test_play_connect4_second_az_uses_the_shipped_network(
    shipped_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = searchlab(
        ["play", "connect4", "--first", "random", "--second", "az", "--moves", LATE, "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    game = json.loads(out)
    assert game["second"] == "az"
    assert game["moves"], game  # the agents played on from LATE to the end
    code = searchlab(
        ["play", "connect4", "--first", "az:simulations=8", "--second", "random", "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["first"] == "az:simulations=8"


def test_a_game_without_a_shipped_network_is_one_line_naming_the_ones_that_ship(
    shipped_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = searchlab(["play", "tictactoe", "--first", "random", "--second", "az", "--quiet"])
    _, err = capsys.readouterr()
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "no checkpoint given, and none ships for tictactoe" in lines[0]
    assert "ships one for connect4 only" in lines[0]
    assert "checkpoint=FILE" in lines[0]


def test_with_nothing_shipped_the_line_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shipped, "checkpoint_directory", lambda: tmp_path / "none")
    with pytest.raises(CheckpointError, match="this installation ships none") as error:
        make_agent("policy", Connect4())
    assert "\n" not in str(error.value)
    assert shipped.shipped_games() == []


def test_the_shipped_file_records_command_and_seed_and_no_optimiser(shipped_dir: Path) -> None:
    checkpoint = load_checkpoint(shipped_dir / "connect4.ckpt", Connect4())
    extra = checkpoint.extra
    assert extra["reproduce"] == REPRODUCE
    assert extra["seed"] == 11  # read from the run's config.toml
    assert extra["generation"] == 7
    assert extra["config"] == "seed = 11\n"
    assert extra["source"] == "latest.pt"
    assert "optimizer" not in extra
    assert shipped.shipped_games() == ["connect4"]
    line = shipped.describe_shipped(shipped_dir / "connect4.ckpt")
    assert line == f"connect4.ckpt: resnet 1x8, generation 7, seed 11; made by: {REPRODUCE}"


def test_the_line_names_the_input_planes_when_they_are_not_the_default(tmp_path: Path) -> None:
    encoder = encoder_for(Connect4()).with_features("threats")
    net = PolicyValueNet(encoder.shape, encoder.num_actions, TINY, seed=1)
    source = save_checkpoint(tmp_path / "latest.pt", net, encoder)
    written = shipped.prepare_shipped(source, tmp_path / "out", reproduce=REPRODUCE, seed=5)
    line = shipped.describe_shipped(written)
    assert line == f"connect4.ckpt: resnet 1x8, threats planes, seed 5; made by: {REPRODUCE}"
    assert load_checkpoint(written, Connect4()).encoder.features == "threats"


def test_prepare_shipped_refuses_what_cannot_be_reproduced(tmp_path: Path) -> None:
    source = save_checkpoint(tmp_path / "net.pt", tiny_net(), encoder_for(Connect4()))
    with pytest.raises(InvalidParameterError, match="needs the command"):
        shipped.prepare_shipped(source, tmp_path / "out", reproduce="  ", seed=1)
    with pytest.raises(InvalidParameterError, match="no seed"):
        shipped.prepare_shipped(source, tmp_path / "out", reproduce=REPRODUCE)
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        shipped.prepare_shipped(tmp_path / "missing.pt", tmp_path, reproduce=REPRODUCE, seed=1)
    written = shipped.prepare_shipped(
        source, tmp_path / "out" / "c4.ckpt", reproduce=REPRODUCE, seed=5, notes="first run"
    )
    assert written == tmp_path / "out" / "c4.ckpt"
    extra = load_checkpoint(written, Connect4()).extra
    assert (extra["seed"], extra["notes"]) == (5, "first run")
    assert "config" not in extra  # no config.toml beside net.pt


def test_the_seed_of_an_alphago_run_is_read_from_its_record(tmp_path: Path) -> None:
    (tmp_path / "alphago.json").write_text(
        json.dumps({"game": "connect4", "config": {"seed": 4, "sl_epochs": 2}, "stages": {}}),
        encoding="utf-8",
    )
    source = save_checkpoint(tmp_path / "latest.pt", tiny_net(), encoder_for(Connect4()))
    written = shipped.prepare_shipped(source, tmp_path / "out", reproduce=REPRODUCE)
    extra = load_checkpoint(written, Connect4()).extra
    assert extra["seed"] == 4
    assert json.loads(extra["config"]) == {"seed": 4, "sl_epochs": 2}


def test_the_module_command_writes_and_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "checkpoints"
    monkeypatch.setattr(shipped, "checkpoint_directory", lambda: folder)
    save_checkpoint(tmp_path / "latest.pt", tiny_net(), encoder_for(Connect4()))
    assert shipped.main(["--show"]) == 0
    assert "no checkpoint ships" in capsys.readouterr().out
    assert shipped.main([str(tmp_path), "--reproduce", REPRODUCE, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert (folder / "connect4.ckpt").is_file()
    assert f"seed 2; made by: {REPRODUCE}" in out
    assert shipped.main(["--show"]) == 0
    assert capsys.readouterr().out.startswith("connect4.ckpt: resnet 1x8")
    assert shipped.main([str(tmp_path / "nothing.pt"), "--reproduce", "x", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no checkpoint at" in err


def test_the_help_says_where_the_default_checkpoint_comes_from(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "shipped" in AZ_KIND.params["checkpoint"].help
    assert "connect4.ckpt" in AZ_KIND.params["checkpoint"].help
    assert "shipped" in AZ_KIND.help
    lazy = {kind.name: kind for kind in LAZY_KINDS}
    assert "shipped" in lazy["az"].help
    with pytest.raises(SystemExit):
        searchlab(["play", "--help"])
    text = capsys.readouterr().out
    listing = text[text.index("agents:") :]
    assert "az" in listing and "connect4.ckpt" in listing
    assert "searchlab play connect4 --second az" in text


def _wheel_build_command(source: Path, out: Path) -> list[str]:
    """``pip wheel`` of ``source``; offline with the venv's own setuptools when it is recent
    enough (the project asks for >= 68), else through pip's build isolation."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out)]
    if importlib.util.find_spec("setuptools") is not None:
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 68:
            command.append("--no-build-isolation")
    return [*command, str(source)]


@pytest.mark.slow
def test_a_built_wheel_carries_the_shipped_checkpoint(tmp_path: Path) -> None:
    # A clean copy of the project (no build leftovers, which would list files by themselves)
    # with a placeholder network where the shipped one goes.
    source = tmp_path / "project"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.ckpt", "*.nbi", "*.nbc"),
    )
    placeholder = source / "src" / "searchlab" / "learning" / "checkpoints" / "connect4.ckpt"
    save_checkpoint(placeholder, tiny_net(), encoder_for(Connect4()))
    out = tmp_path / "wheel"
    done = subprocess.run(
        _wheel_build_command(source, out), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = out.glob("searchlab-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        data = archive.read("searchlab/learning/checkpoints/connect4.ckpt")
    assert data == placeholder.read_bytes()
    assert "searchlab/learning/shipped.py" in names


def test_the_shipped_connect4_network_is_there_and_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not SHIPPED.is_file():
        missing(f"{SHIPPED.relative_to(ROOT)} is missing: no Connect Four network ships")
    game = Connect4()
    assert shipped.shipped_checkpoint("connect4") == SHIPPED
    assert SHIPPED.stat().st_size < 20_000_000  # package data: keep the wheel small
    checkpoint = load_checkpoint(SHIPPED, game)
    extra = checkpoint.extra
    assert "searchlab train connect4" in str(extra.get("reproduce", "")), extra.keys()
    assert isinstance(extra.get("seed"), int)
    assert "optimizer" not in extra
    # A trained network: its policy alone beats a random player from both sides.
    policy = make_agent("policy", game)
    wins = 0
    for index in range(10):
        opponent = make_agent("random", game, seed=index)
        agents = (policy, opponent) if index % 2 == 0 else (opponent, policy)
        state = game.initial_state()
        while not state.is_terminal():
            state = state.apply(agents[state.current_player()].act(state))
        wins += state.returns()[index % 2] > 0
    assert wins >= 9, f"the shipped network's policy won {wins} of 10 games against random"
    code = searchlab(
        ["play", "connect4", "--first", "random", "--second", "az:simulations=32", "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["second"] == "az:simulations=32"


def test_tictactoe_has_no_shipped_network_in_the_package() -> None:
    # The real folder (not a placeholder): the message for tic-tac-toe stays one line.
    with pytest.raises(CheckpointError, match="none ships for tictactoe") as error:
        make_agent("az", TicTacToe())
    assert "\n" not in str(error.value)
