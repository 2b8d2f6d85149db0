"""``az:...,root=gumbel``: the az agent's spec reaches the Gumbel options of the one PUCT
engine (PyTorch, as every test of a network agent: the ``test`` extra installs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from searchlab.agents import make_agent
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.networks.checkpoint import save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.network import PolicyValueNet


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.manual_seed(0)
    encoder = encoder_for(TicTacToe())
    path = tmp_path_factory.mktemp("gumbel") / "net.ckpt"
    save_checkpoint(path, PolicyValueNet(encoder.shape, encoder.num_actions, seed=0), encoder)
    return path


def test_az_spec_runs_a_gumbel_root(checkpoint: Path) -> None:
    spec = f"az:checkpoint={checkpoint},simulations=16,root=gumbel,max_num_considered_actions=4"
    state = TicTacToe().initial_state()
    agent = make_agent(spec, TicTacToe(), seed=2)
    action = agent.act(state)
    stats = agent.last_result.stats
    visits = sorted((c["visits"] for c in stats["children"]), reverse=True)
    assert visits[:4] == [6, 6, 2, 2] and sum(visits) == 16  # halving over 4 considered
    assert action in state.legal_actions() and sum(stats["improved_policy"]) == pytest.approx(1)
    assert make_agent(spec, TicTacToe(), seed=2).act(state) == action


def test_az_spec_refuses_a_bad_gumbel_setting_in_one_line(checkpoint: Path) -> None:
    with pytest.raises(InvalidParameterError) as raised:
        make_agent(f"az:checkpoint={checkpoint},root=gumbel,c_visit=-1", TicTacToe())
    assert "c_visit" in str(raised.value) and "\n" not in str(raised.value)
