"""The az and policy agents: built from a spec with a tiny checkpoint (file or training
directory), they play legal moves through whole games and in the arena; az's children carry the
network's own priors and its visits sum to the budget; policy plays the prior's argmax and
values each move by the network's value of the position after it; a checkpoint for another game
is one line; the lazy kinds load on first use and say in one line when PyTorch is missing;
``import searchlab.agents`` never imports torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from searchlab.agents import AGENT_KINDS, make_agent
from searchlab.agents.kinds import LAZY_KINDS
from searchlab.agents.search import MCTSAgent
from searchlab.agents.spec import AgentRegistry, LazyAgentKind
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import PUCTTree
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.agents import AZ_KIND, POLICY_KIND
from searchlab.learning.networks.checkpoint import CheckpointError, save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

torch.set_num_threads(1)

SMALL = NetworkConfig(kind="resnet", blocks=1, channels=8, hidden=16)


def checkpoint_for(game, folder: Path, name: str = "net.ckpt", seed: int = 0) -> Path:
    encoder = encoder_for(game)
    config = SMALL if game.info.name == "connect4" else None
    net = PolicyValueNet(encoder.shape, encoder.num_actions, config, seed=seed)
    return save_checkpoint(folder / name, net, encoder)


@pytest.fixture
def ttt_checkpoint(tmp_path: Path) -> Path:
    return checkpoint_for(TicTacToe(), tmp_path)


def play_out(game, agents, seed: int = 0) -> list[int]:
    """A whole game between ``agents`` (by player); every move is checked legal."""
    state = game.initial_state()
    moves = []
    while not state.is_terminal():
        action = agents[state.current_player()].act(state)
        assert action in state.legal_actions()
        moves.append(action)
        state = state.apply(action)
    return moves


@pytest.mark.parametrize("kind", ["az:simulations=24,batch=4", "policy"])
def test_an_agent_from_a_checkpoint_plays_legal_moves_through_whole_games(
    kind: str, tmp_path: Path
) -> None:
    for game in (TicTacToe(), Connect4()):
        path = checkpoint_for(game, tmp_path, f"{game.info.name}.ckpt")
        spec = f"{kind.split(':')[0]}:checkpoint={path}" + (
            "," + kind.split(":")[1] if ":" in kind else ""
        )
        agent = make_agent(spec, game, seed=3)
        other = make_agent("random", game, seed=4)
        for agents in ((agent, other), (other, agent)):
            moves = play_out(game, agents)
            assert moves


def test_az_children_carry_the_networks_priors_and_the_visits_sum_to_the_budget(
    ttt_checkpoint: Path,
) -> None:
    game = TicTacToe()
    agent = make_agent(f"az:checkpoint={ttt_checkpoint},simulations=40,batch=4", game, seed=1)
    assert isinstance(agent, MCTSAgent)  # az is the mcts agent with the network (one path)
    assert agent.options.evaluator is agent.evaluator and agent.options.search_batch == 4
    state = game.initial_state().apply(4)
    action = agent.act(state)
    result = agent.last_result
    assert result is not None and result.action == action
    children = result.stats["children"]
    assert sum(child["visits"] for child in children) == 40 == result.stats["simulations"]
    assert sorted(child["action"] for child in children) == sorted(state.legal_actions())
    priors, _ = agent.evaluator.evaluate(state)
    by_action = dict(zip(state.legal_actions(), priors, strict=True))
    for child in children:
        assert child["prior"] == pytest.approx(by_action[child["action"]], abs=1e-6)
    most = max(children, key=lambda child: child["visits"])
    assert most["visits"] == max(child["visits"] for child in children)
    assert action == children[0]["action"]  # the most visited (listed first)


def test_az_reports_its_trees_principal_variation_and_depth(ttt_checkpoint: Path) -> None:
    game = TicTacToe()
    agent = make_agent(f"az:checkpoint={ttt_checkpoint},simulations=300", game, seed=1)
    state = game.initial_state()
    action = agent.act(state)
    result = agent.last_result
    line = result.principal_variation
    assert line[0] == action and len(line) >= 2
    position = state
    for move in line:  # a line of legal moves
        assert move in position.legal_actions()
        position = position.apply(move)
    assert result.depth >= len(line)
    tree = PUCTTree(state, MCTSOptions(), agent.evaluator.encoder, budget=1)
    assert tree.principal_variation(action) == (action,)  # an unsearched tree: the move alone
    assert tree.depth() == 0


def test_a_per_move_budget_replaces_the_agents_own(ttt_checkpoint: Path) -> None:
    agent = make_agent(f"az:checkpoint={ttt_checkpoint},simulations=200", TicTacToe(), seed=1)
    agent.act(TicTacToe().initial_state(), Limits(simulations=12))
    assert agent.last_result.stats["simulations"] == 12
    agent.act(TicTacToe().initial_state(), Limits(time=0.05))
    result = agent.last_result
    assert result.stats["simulations"] >= 1
    assert sum(child["visits"] for child in result.stats["children"]) == result.stats["simulations"]


def test_policy_plays_the_argmax_prior_and_values_each_move_from_the_position_after(
    tmp_path: Path,
) -> None:
    game = Connect4()
    path = checkpoint_for(game, tmp_path, seed=5)
    agent = make_agent(f"policy:checkpoint={path}", game)
    assert isinstance(agent, MCTSAgent)
    state = game.initial_state()
    for move in (3, 3, 4, 2, 4):
        state = state.apply(move)
    evaluator = NetworkEvaluator(agent.checkpoint.net, agent.checkpoint.encoder)
    priors, value = evaluator.evaluate(state)
    legal = state.legal_actions()
    assert agent.act(state) == legal[int(np.argmax(priors))]
    result = agent.last_result
    assert result.value == pytest.approx(value, abs=1e-5)
    rows = {row["action"]: row for row in result.stats["children"]}
    for action, prior in zip(legal, priors, strict=True):
        child = state.apply(action)
        assert rows[action]["prior"] == pytest.approx(prior, abs=1e-6)
        assert rows[action]["value"] == pytest.approx(-evaluator.evaluate(child)[1], abs=1e-5)


def test_symmetries_true_makes_both_agents_mirror_consistent(tmp_path: Path) -> None:
    """symmetries=true: the agents evaluate the mirror-averaged network, so a position and its
    mirror image get mirrored priors, values and moves (an untrained network alone does not)."""
    game = Connect4()
    path = checkpoint_for(game, tmp_path, seed=5)
    moves = [3, 3, 4, 2, 4, 0]
    state = game.from_moves("".join(str(m + 1) for m in moves))
    mirror = game.from_moves("".join(str(7 - m) for m in moves))
    plain = make_agent(f"policy:checkpoint={path}", game)
    plain_priors = plain.evaluator.evaluate(state)[0]
    assert not np.allclose(plain_priors, plain.evaluator.evaluate(mirror)[0][::-1], atol=1e-3)
    for spec in (
        f"policy:checkpoint={path},symmetries=true",
        f"az:checkpoint={path},simulations=64,symmetries=true",
    ):
        agent = make_agent(spec, game, seed=0)
        assert len(agent.evaluator.symmetries) == 2
        priors, value = agent.evaluator.evaluate(state)
        mirror_priors, mirror_value = agent.evaluator.evaluate(mirror)
        np.testing.assert_allclose(priors, mirror_priors[::-1], atol=1e-5)
        assert value == pytest.approx(mirror_value, abs=1e-5)
        assert agent.act(mirror) == 6 - agent.act(state)
    with pytest.raises(InvalidParameterError, match="symmetries must be true or false"):
        make_agent(f"az:checkpoint={path},symmetries=maybe", game)


def test_policy_values_a_winning_move_by_the_games_result(tmp_path: Path) -> None:
    game = TicTacToe()
    agent = make_agent(f"policy:checkpoint={checkpoint_for(game, tmp_path)}", game)
    state = game.initial_state()
    for move in (0, 3, 1, 4):  # X to move: c1 (2) wins
        state = state.apply(move)
    agent.act(state)
    rows = {row["action"]: row for row in agent.last_result.stats["children"]}
    assert rows[2]["value"] == 1.0


def test_temperature_draws_moves_reproducibly_with_the_seed(ttt_checkpoint: Path) -> None:
    game = TicTacToe()
    spec = f"policy:checkpoint={ttt_checkpoint},temperature=5"

    def moves(seed: int) -> list[int]:
        agent = make_agent(spec, game, seed=seed)
        return [agent.act(game.initial_state()) for _ in range(30)]

    assert moves(1) == moves(1)
    assert len(set(moves(1))) > 1  # drawn, not always the argmax
    assert moves(1) != moves(2)


def test_checkpoint_may_name_a_training_directory(tmp_path: Path) -> None:
    game = TicTacToe()
    checkpoint_for(game, tmp_path, "latest.pt")
    agent = make_agent(f"policy:checkpoint={tmp_path}", game)
    assert agent.checkpoint.path == tmp_path / "latest.pt"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CheckpointError, match=r"has no latest\.pt") as error:
        make_agent(f"az:checkpoint={empty}", game)
    assert "\n" not in str(error.value)


def test_a_checkpoint_for_another_game_is_one_line(ttt_checkpoint: Path) -> None:
    with pytest.raises(CheckpointError, match="is for tictactoe, not connect4") as error:
        make_agent(f"az:checkpoint={ttt_checkpoint}", Connect4())
    assert "\n" not in str(error.value)
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        make_agent(f"policy:checkpoint={ttt_checkpoint}.missing", TicTacToe())


def test_no_checkpoint_and_none_shipped_is_one_line() -> None:
    with pytest.raises(CheckpointError, match="none ships for tictactoe"):
        make_agent("az", TicTacToe())


def test_bad_search_parameters_are_one_line(ttt_checkpoint: Path) -> None:
    with pytest.raises(InvalidParameterError, match="batch must be > 0"):
        make_agent(f"az:checkpoint={ttt_checkpoint},batch=0", TicTacToe())
    with pytest.raises(InvalidParameterError, match="unknown device"):
        make_agent(f"policy:checkpoint={ttt_checkpoint},device=tpu", TicTacToe())


def test_the_default_registry_knows_az_and_policy_lazily() -> None:
    registry = AgentRegistry(LAZY_KINDS)
    assert {"az", "policy", "alphago"} <= set(registry.names())
    assert registry.is_lazy("az") and "network" in registry.help("az")
    assert registry.lookup("az") is AZ_KIND and not registry.is_lazy("az")
    assert registry["policy"] is POLICY_KIND
    assert AGENT_KINDS.lookup("az") is AZ_KIND


def test_a_lazy_kind_without_pytorch_is_one_line() -> None:
    # In a fresh interpreter where ``import torch`` fails (this one has torch loaded).
    code = """
import json, sys
sys.modules["torch"] = None
from searchlab.agents.kinds import LAZY_KINDS
from searchlab.agents.spec import AgentRegistry
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.tictactoe import TicTacToe
registry = AgentRegistry(LAZY_KINDS)
try:
    registry.make("az:checkpoint=x.pt", TicTacToe())
except InvalidParameterError as error:
    print(json.dumps([str(error), registry.is_lazy("az"), registry.help("policy")]))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    message, still_lazy, help_line = json.loads(out.stdout)
    assert message == "agent 'az' needs PyTorch: pip install 'searchlab[learn]'"
    assert still_lazy is True and "policy" in help_line


def test_a_lazy_kind_whose_target_is_wrong_is_one_line() -> None:
    registry = AgentRegistry([LazyAgentKind("az", "searchlab.learning.agents:POLICY_KIND")])
    with pytest.raises(UnknownNameError, match="is not an AgentKind named 'az'"):
        registry.lookup("az")
    with pytest.raises(InvalidParameterError, match="module:attribute"):
        LazyAgentKind("x", "no-colon")


def test_importing_the_agents_never_imports_torch() -> None:
    code = (
        "import sys, searchlab.agents, searchlab.agents.registry; "
        "print(json.dumps(['torch' in sys.modules, searchlab.agents.agent_kinds()]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    loaded, kinds = json.loads(out.stdout)
    assert loaded is False and {"az", "policy"} <= set(kinds)


def test_the_command_line_says_in_one_line_that_pytorch_is_missing(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['torch'] = None; "
        "from searchlab.cli.main import main; "
        "sys.exit(main(['analyse', 'tictactoe', '--agent', 'az:checkpoint=x.pt']))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs PyTorch: pip install 'searchlab[learn]'" in lines[0]
    assert "Traceback" not in run.stderr


def test_az_plays_in_the_arena(ttt_checkpoint: Path, tmp_path: Path) -> None:
    from searchlab.cli.main import main

    store = tmp_path / "arena.sqlite"
    code = main(
        [
            "arena",
            "tictactoe",
            f"az:checkpoint={ttt_checkpoint},simulations=16",
            f"policy:checkpoint={ttt_checkpoint}",
            "--games",
            "2",
            "--db",
            str(store),
            "--json",
        ]
    )
    assert code == 0


def test_az_and_policy_play_a_game_at_the_command_line(
    ttt_checkpoint: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from searchlab.cli.main import main

    code = main(
        [
            "play",
            "tictactoe",
            "--first",
            f"az:checkpoint={ttt_checkpoint},simulations=16",
            "--second",
            f"policy:checkpoint={ttt_checkpoint}",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "game over after" in out


def test_play_analysis_shows_the_az_priors(
    ttt_checkpoint: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --analysis`` shows the network's prior beside visits and value for ``az`` (the
    rows of ``analyse``'s table), and no prior column for a search without one."""
    from searchlab.cli.main import main

    spec = f"az:checkpoint={ttt_checkpoint},simulations=16"
    argv = ["play", "tictactoe", "--first", spec, "--second", "random", "--analysis"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "  visits " in line]
    assert rows and all("  prior 0." in line or "  prior 1." in line for line in rows), rows
    argv = ["play", "tictactoe", "--first", "mcts:simulations=16", "--second", "random"]
    assert main([*argv, "--analysis"]) == 0
    out = capsys.readouterr().out
    assert "  visits " in out and "prior" not in out
