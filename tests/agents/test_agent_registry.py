"""The agent registry is explicit: an AgentRegistry is a mapping of kinds built from data
(the built-in kinds are a tuple, nothing registers itself on import), make() checks a spec
against the kind before the factory runs, and registries are independent of each other."""

from __future__ import annotations

from typing import Any

import pytest

from searchlab.agents import AGENT_KINDS, agent_kinds, make_agent, register_agent
from searchlab.agents.kinds import BUILTIN_KINDS, LAZY_KINDS
from searchlab.agents.simple import RandomAgent
from searchlab.agents.spec import AgentKind, AgentRegistry, Param
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.games import make


def coin(game: Any, *, name: str, seed: int | None) -> RandomAgent:
    return RandomAgent(name, seed=seed)


def test_the_default_registry_is_built_from_the_builtin_kinds() -> None:
    names = [kind.name for kind in BUILTIN_KINDS]
    assert names == ["random", "greedy", "alphabeta", "flatmc", "mcts", "gtp", "human"]
    assert all(AGENT_KINDS[kind.name] is kind for kind in BUILTIN_KINDS)
    assert agent_kinds() == sorted(names + [kind.name for kind in LAZY_KINDS])


def test_an_empty_registry_knows_no_kind_and_says_so() -> None:
    registry = AgentRegistry()
    assert len(registry) == 0 and "random" not in registry
    with pytest.raises(UnknownNameError, match="unknown agent 'random'; known agents: none"):
        registry.make("random", None)


def test_registries_are_independent() -> None:
    mine = AgentRegistry(BUILTIN_KINDS)
    mine.register("coin", coin)
    assert "coin" in mine and "coin" not in AGENT_KINDS
    with pytest.raises(UnknownNameError, match="unknown agent 'coin'"):
        make_agent("coin", None)
    assert mine.make("coin:seed=4", None).name == "coin:seed=4"
    del mine["random"]
    assert "random" not in mine and "random" in AGENT_KINDS


def test_make_checks_the_spec_against_the_kind_before_the_factory_runs() -> None:
    calls: list[dict[str, Any]] = []

    def factory(game: Any, *, name: str, seed: int | None, depth: int) -> RandomAgent:
        calls.append({"name": name, "seed": seed, "depth": depth})
        return RandomAgent(name, seed=seed)

    registry = AgentRegistry([AgentKind("probe", factory, {"depth": Param(int, 3)})])
    registry.make("probe", None, seed=9)
    registry.make("probe:depth=5,seed=2", None, seed=9)
    assert calls == [
        {"name": "probe", "seed": 9, "depth": 3},
        {"name": "probe:depth=5,seed=2", "seed": 2, "depth": 5},
    ]
    for spec, error, fragment in [
        ("probe:depth=0", InvalidParameterError, "depth must be > 0"),
        ("probe:depth=x", InvalidParameterError, "depth must be a whole number"),
        ("probe:width=2", UnknownNameError, "unknown parameter 'width' for probe; known: depth"),
    ]:
        with pytest.raises(error, match=fragment):
            registry.make(spec, None)
    assert len(calls) == 2


@pytest.mark.parametrize("name", ["", "a:b", "a,b", "a=b", "a b"])
def test_bad_kind_names(name: str) -> None:
    with pytest.raises(InvalidParameterError, match="names cannot be empty or contain"):
        AgentRegistry().register(name, coin)


def test_a_kind_is_stored_under_its_own_name() -> None:
    registry = AgentRegistry()
    with pytest.raises(InvalidParameterError, match="expected an AgentKind named 'b'"):
        registry["b"] = AgentKind("a", coin, {})
    with pytest.raises(InvalidParameterError, match="the factory must be callable"):
        AgentKind("a", "not a factory", {})  # type: ignore[arg-type]


def test_register_agent_adds_to_the_default_registry() -> None:
    register_agent("coin-test", coin, help="a coin")
    try:
        assert AGENT_KINDS["coin-test"].help == "a coin"
        state = make("tictactoe").initial_state()
        assert make_agent("coin-test:seed=1", None).act(state) in state.legal_actions()
    finally:
        del AGENT_KINDS["coin-test"]
    assert "coin-test" not in agent_kinds()
