"""Agent specs: short strings that name an agent and its parameters, for the command line.

A spec is ``KIND`` or ``KIND:NAME=VALUE,NAME=VALUE``: ``random``, ``alphabeta:depth=8``,
``mcts:time=1``, ``mcts:simulations=2000,c=1.4``. Each kind declares its parameters with a type
and a default; :func:`make_agent` checks the spec against them and builds the agent for a game.
Unknown kinds and parameters, and values of the wrong type, raise one clear error.

>>> parse_spec("mcts:simulations=2000,c=1.4")
AgentSpec(kind='mcts', params={'simulations': '2000', 'c': '1.4'})
>>> parse_spec("mcts:simulations")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: agent spec 'mcts:simulations': expected NAME=VALUE, ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from searchlab.agents.base import Agent
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import Game

__all__ = [
    "AGENT_KINDS",
    "AgentKind",
    "AgentSpec",
    "Param",
    "agent_kinds",
    "make_agent",
    "parse_spec",
    "register_agent",
]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed spec: the kind and the raw parameter strings, in the order given."""

    kind: str
    params: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an agent kind.

    Attributes:
        type: ``int``, ``float``, ``bool`` or ``str``.
        default: the value when the spec does not give one (``None``: unset).
        help: one line for ``--help``.
        choices: the allowed values of a ``str`` parameter.
        positive: numbers must be > 0.
    """

    type: type
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] = ()
    positive: bool = True

    def convert(self, name: str, text: str, spec: str) -> Any:
        """The value of ``text``, or ``InvalidParameterError`` quoting the spec."""
        where = f"agent spec {spec!r}: {name}"
        if self.type is bool:
            lowered = text.lower()
            if lowered in _TRUE | _FALSE:
                return lowered in _TRUE
            raise InvalidParameterError(f"{where} must be true or false, got {text!r}")
        if self.type is str:
            if self.choices and text not in self.choices:
                raise InvalidParameterError(
                    f"{where} must be one of {', '.join(self.choices)}; got {text!r}"
                )
            return text
        try:
            value = self.type(text)
        except ValueError:
            noun = "a whole number" if self.type is int else "a number"
            raise InvalidParameterError(f"{where} must be {noun}, got {text!r}") from None
        if self.positive and value <= 0:
            raise InvalidParameterError(f"{where} must be > 0, got {text!r}")
        if not self.positive and value < 0:
            raise InvalidParameterError(f"{where} must be >= 0, got {text!r}")
        return value


AgentFactory = Callable[..., Agent]
"""``factory(game, *, name, seed, **params) -> Agent``; every declared parameter is passed."""


@dataclass(frozen=True, slots=True)
class AgentKind:
    """A registered kind of agent: its factory, parameters and a one-line description."""

    name: str
    factory: AgentFactory
    params: Mapping[str, Param]
    help: str


AGENT_KINDS: dict[str, AgentKind] = {}
"""Registered kinds by name (filled by :mod:`searchlab.agents.kinds` and by users)."""


def register_agent(
    name: str, factory: AgentFactory, params: Mapping[str, Param] | None = None, help: str = ""
) -> None:
    """Register a kind of agent (replacing an earlier one of the same name).

    >>> from searchlab.agents.simple import RandomAgent
    >>> register_agent("my-random", lambda game, *, name, seed: RandomAgent(name, seed=seed))
    >>> make_agent("my-random", None).name
    'my-random'
    >>> del AGENT_KINDS["my-random"]
    """
    if not name or any(ch in name for ch in ":,= "):
        raise InvalidParameterError(
            f"agent kind {name!r}: names cannot contain ':', ',', '=' or spaces"
        )
    AGENT_KINDS[name] = AgentKind(name, factory, dict(params or {}), help)


def agent_kinds() -> list[str]:
    """The registered kinds, sorted.

    >>> {"random", "mcts", "alphabeta"} <= set(agent_kinds())
    True
    """
    _load_builtins()
    return sorted(AGENT_KINDS)


def parse_spec(text: str) -> AgentSpec:
    """Split ``KIND[:NAME=VALUE,...]`` into an :class:`AgentSpec` (values stay strings)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameterError(f"agent spec must be a non-empty string, got {text!r}")
    kind, _, rest = text.strip().partition(":")
    if not kind:
        raise InvalidParameterError(f"agent spec {text!r}: missing the agent kind before ':'")
    params: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            name, equals, value = item.partition("=")
            name, value = name.strip(), value.strip()
            if not equals or not name or not value:
                raise InvalidParameterError(
                    f"agent spec {text!r}: expected NAME=VALUE, got {item.strip()!r}"
                )
            if name in params:
                raise InvalidParameterError(f"agent spec {text!r}: {name} given twice")
            params[name] = value
    elif rest or text.strip().endswith(":"):
        raise InvalidParameterError(f"agent spec {text!r}: nothing after ':'")
    return AgentSpec(kind.strip(), params)


def make_agent(spec: str | AgentSpec, game: Game | None, *, seed: int | None = None) -> Agent:
    """Build the agent a spec names, for ``game``.

    ``seed`` seeds the agent's randomness unless the spec gives its own ``seed=``.

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
    parsed = spec if isinstance(spec, AgentSpec) else parse_spec(spec)
    _load_builtins()
    try:
        kind = AGENT_KINDS[parsed.kind]
    except KeyError:
        raise UnknownNameError(
            f"unknown agent {parsed.kind!r}; known agents: {', '.join(sorted(AGENT_KINDS))}"
        ) from None
    text = str(parsed)
    values: dict[str, Any] = {name: param.default for name, param in kind.params.items()}
    for name, raw in parsed.params.items():
        if name == "seed":
            seed = Param(int, positive=False).convert(name, raw, text)
            continue
        if name not in kind.params:
            known = ", ".join(sorted([*kind.params, "seed"]))
            raise UnknownNameError(
                f"agent spec {text!r}: unknown parameter {name!r} for {kind.name}; known: {known}"
            )
        values[name] = kind.params[name].convert(name, raw, text)
    return kind.factory(game, name=text, seed=seed, **values)


def _load_builtins() -> None:
    """Register the built-in kinds on first use (kept lazy: they import the algorithms)."""
    if "random" not in AGENT_KINDS:
        import searchlab.agents.kinds  # noqa: F401
