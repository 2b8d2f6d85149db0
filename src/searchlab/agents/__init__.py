"""Agents: every search (and a person) behind one call, ``act(state, limits) -> action``.

>>> from searchlab.games import make
>>> game = make("tictactoe")
>>> agent = make_agent("mcts:simulations=300", game, seed=1)
>>> action = agent.act(game.initial_state())
>>> agent.last_result.stats["simulations"]
300
"""

from searchlab.agents.base import Agent, AgentBase
from searchlab.agents.human import HumanAgent, Resign, Undo
from searchlab.agents.registry import AGENT_KINDS, agent_kinds, make_agent, register_agent
from searchlab.agents.spec import AgentKind, AgentRegistry, AgentSpec, Param, parse_spec

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "AgentBase",
    "AgentKind",
    "AgentRegistry",
    "AgentSpec",
    "HumanAgent",
    "Param",
    "Resign",
    "Undo",
    "agent_kinds",
    "make_agent",
    "parse_spec",
    "register_agent",
]
