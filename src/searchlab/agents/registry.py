"""The default agent registry: the built-in kinds, the kinds you add, and :func:`make_agent`.

:data:`AGENT_KINDS` is an :class:`~searchlab.agents.spec.AgentRegistry` built explicitly from
:data:`~searchlab.agents.kinds.BUILTIN_KINDS` and the lazy
:data:`~searchlab.agents.kinds.LAZY_KINDS`; :func:`register_agent` adds a kind of your own to
it (usable as a spec everywhere: ``play``, ``analyse``, ``arena``).

>>> from searchlab.games import make
>>> make_agent("alphabeta:depth=4", make("tictactoe")).name
'alphabeta:depth=4'
>>> make_agent("minimax", make("tictactoe"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: unknown agent 'minimax'; known agents: alphabeta, ...
>>> make_agent("mcts:simulatons=100", make("tictactoe"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: agent spec 'mcts:simulatons=100': unknown parameter ...
"""

from __future__ import annotations

from collections.abc import Mapping

from searchlab.agents.base import Agent
from searchlab.agents.kinds import BUILTIN_KINDS, LAZY_KINDS
from searchlab.agents.spec import AgentFactory, AgentRegistry, AgentSpec, Param
from searchlab.core.game import Game

__all__ = ["AGENT_KINDS", "agent_kinds", "make_agent", "register_agent"]

AGENT_KINDS = AgentRegistry((*BUILTIN_KINDS, *LAZY_KINDS))
"""The default registry: the built-in kinds (the learning layer's ``az`` and ``policy``
imported on first use) and those added by :func:`register_agent`."""


def register_agent(
    name: str, factory: AgentFactory, params: Mapping[str, Param] | None = None, help: str = ""
) -> None:
    """Add a kind to the default registry (replacing an earlier one of the same name).

    ``factory(game, *, name, seed, **params) -> Agent`` receives every declared parameter.

    >>> from searchlab.agents.simple import RandomAgent
    >>> register_agent("my-random", lambda game, *, name, seed: RandomAgent(name, seed=seed))
    >>> make_agent("my-random", None).name
    'my-random'
    >>> del AGENT_KINDS["my-random"]
    """
    AGENT_KINDS.register(name, factory, params, help)


def agent_kinds() -> list[str]:
    """The kinds of the default registry, sorted.

    >>> {"random", "mcts", "alphabeta"} <= set(agent_kinds())
    True
    """
    return AGENT_KINDS.names()


def make_agent(spec: str | AgentSpec, game: Game | None, *, seed: int | None = None) -> Agent:
    """Build the agent a spec names, for ``game``, from the default registry (see
    :meth:`~searchlab.agents.spec.AgentRegistry.make`). ``seed`` seeds the agent's randomness
    unless the spec gives its own ``seed=``.

    >>> from searchlab.games import make
    >>> agent = make_agent("mcts:simulations=50", make("tictactoe"), seed=1)
    >>> agent.act(make("tictactoe").initial_state()) in range(9)
    True
    """
    return AGENT_KINDS.make(spec, game, seed=seed)
