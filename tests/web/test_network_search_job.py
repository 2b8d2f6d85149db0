"""The web's search job runs a network agent (``az``: the ``mcts`` agent with a network) as
the agent itself searches, PUCT with the network's values, not the live UCT path."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import torch

from searchlab.agents import make_agent
from searchlab.core.limits import Limits
from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.networks.checkpoint import save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet
from searchlab.web.jobs import search_job

torch.set_num_threads(1)


def test_an_az_search_job_is_the_agents_own_puct(tmp_path: Path) -> None:
    encoder = encoder_for(TicTacToe())
    net = PolicyValueNet(
        encoder.shape, encoder.num_actions, NetworkConfig(kind="mlp", blocks=1, hidden=16), seed=0
    )
    path = save_checkpoint(tmp_path / "net.ckpt", net, encoder)
    context = SimpleNamespace(elapsed=lambda: 0.0, progress=None, emit=lambda *a: None)
    payload = {
        "game": "tictactoe",
        "params": {},
        "moves": ["b2"],
        "agent": f"az:checkpoint={path},simulations=30",
        "caps": {"time": 10.0},  # the server's: the agent's own 30 simulations run
        "seed": 1,
    }
    out = search_job(payload, context)
    shown = {row["action"]: row["visits"] for row in out["moves"]}
    agent = make_agent(payload["agent"], TicTacToe(), seed=1)
    state = TicTacToe().initial_state().apply(4)  # b2
    assert out["action"] == agent.act(state, Limits(simulations=30, time=10.0))
    own = {row["action"]: row["visits"] for row in agent.last_result.stats["children"]}
    # the agent's own PUCT with the network's values, visit for visit (the live UCT path
    # with the network's priors would roll out instead, and visit otherwise)
    assert shown == own and sum(own.values()) == 30
