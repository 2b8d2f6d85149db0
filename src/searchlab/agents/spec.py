"""Agent specs: short strings that name an agent and its parameters, for the command line.

A spec is ``KIND`` or ``KIND:NAME=VALUE,NAME=VALUE``: ``random``, ``alphabeta:depth=8``,
``mcts:time=1``, ``mcts:simulations=2000,c=1.4``. Each kind declares its parameters with a type
and a default; :meth:`AgentRegistry.make` checks the spec against them and builds the agent for
a game. Unknown kinds and parameters, and values of the wrong type, raise one clear error.
The default registry, with the built-in kinds, and ``make_agent`` are in
:mod:`searchlab.agents.registry`.

A kind may also be **lazy** (:class:`LazyAgentKind`): the registry knows its name and a
``"module:attribute"`` reference to the real :class:`AgentKind`, imported on first use. The
learning layer's kinds (``az``, ``policy``) are declared so: that layer sits *above* the agents
(it imports them), so the agents cannot import it, and it needs PyTorch, an optional extra;
``import searchlab.agents`` stays free of both, and a missing extra is one line when the kind
is used.

>>> parse_spec("mcts:simulations=2000,c=1.4")
AgentSpec(kind='mcts', params={'simulations': '2000', 'c': '1.4'})
>>> parse_spec("mcts:simulations")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: agent spec 'mcts:simulations': expected NAME=VALUE, ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from searchlab.agents.base import Agent
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.game import Game

__all__ = [
    "AgentFactory",
    "AgentKind",
    "AgentRegistry",
    "AgentSpec",
    "LazyAgentKind",
    "Param",
    "parse_spec",
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
    """A kind of agent: its factory, parameters and a one-line description."""

    name: str
    factory: AgentFactory
    params: Mapping[str, Param]
    help: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or any(ch in self.name for ch in ":,= "):
            raise InvalidParameterError(
                f"agent kind {self.name!r}: names cannot be empty or contain ':', ',', '=' "
                "or spaces"
            )
        if not callable(self.factory):
            raise InvalidParameterError(
                f"agent kind {self.name!r}: the factory must be callable, got {self.factory!r}"
            )


@dataclass(frozen=True, slots=True)
class LazyAgentKind:
    """A kind known by name, its :class:`AgentKind` imported on first use.

    Attributes:
        name: the kind's name in specs.
        target: ``"package.module:ATTRIBUTE"``, an :class:`AgentKind` called ``name``.
        help: one line for listings (shown without importing anything).
        requires: the top-level module the target needs that may be missing (``"torch"``).
        install: what to tell the user when it is: ``"PyTorch: pip install 'searchlab[learn]'"``.

    >>> kind = LazyAgentKind("coin", "searchlab.agents.no_such_module:KIND", requires="torch",
    ...                      install="PyTorch: pip install 'searchlab[learn]'")
    >>> kind.resolve()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.errors.UnknownNameError: agent 'coin' is declared by ..., which cannot be \
imported: No module named 'searchlab.agents.no_such_module'
    """

    name: str
    target: str
    help: str = ""
    requires: str = ""
    install: str = ""

    def __post_init__(self) -> None:
        module, colon, attribute = self.target.partition(":")
        if not colon or not module or not attribute:
            raise InvalidParameterError(
                f"lazy agent kind {self.name!r}: target must be 'module:attribute', got "
                f"{self.target!r}"
            )

    def resolve(self) -> AgentKind:
        """Import the target and return its :class:`AgentKind`. A missing ``requires``
        module is one ``InvalidParameterError`` line: ``agent 'az' needs PyTorch: pip install
        'searchlab[learn]'``; any other missing module an ``UnknownNameError`` naming it."""
        module_name, _, attribute = self.target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            missing = (error.name or "").split(".")[0]
            if self.requires and missing == self.requires:
                raise InvalidParameterError(
                    f"agent {self.name!r} needs {self.install or self.requires}"
                ) from None
            raise UnknownNameError(
                f"agent {self.name!r} is declared by {self.target}, which cannot be imported: "
                f"{error}"
            ) from None
        kind = getattr(module, attribute, None)
        if not isinstance(kind, AgentKind) or kind.name != self.name:
            raise UnknownNameError(
                f"agent {self.name!r}: {self.target} is not an AgentKind named {self.name!r}"
            )
        return kind


class AgentRegistry(MutableMapping[str, AgentKind]):
    """Agent kinds by name, and :meth:`make`, which builds the agent a spec names.

    A plain mapping from names to :class:`AgentKind`; nothing registers itself on import.
    :data:`searchlab.agents.AGENT_KINDS` is the default registry, built from the built-in
    kinds (:mod:`searchlab.agents.kinds`); build your own to keep kinds apart. A
    :class:`LazyAgentKind` stands for its kind until the kind is first looked up (or read
    through the mapping), then the imported :class:`AgentKind` replaces it.

    >>> from searchlab.agents.simple import RandomAgent
    >>> registry = AgentRegistry()
    >>> registry.register("coin", lambda game, *, name, seed: RandomAgent(name, seed=seed))
    >>> list(registry), registry.make("coin:seed=3", None).name
    (['coin'], 'coin:seed=3')
    >>> registry.make("mcts", None)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.UnknownNameError: unknown agent 'mcts'; known agents: coin
    """

    def __init__(self, kinds: Iterable[AgentKind | LazyAgentKind] = ()) -> None:
        self._kinds: dict[str, AgentKind | LazyAgentKind] = {}
        for kind in kinds:
            self[kind.name] = kind  # type: ignore[assignment]

    def register(
        self,
        name: str,
        factory: AgentFactory,
        params: Mapping[str, Param] | None = None,
        help: str = "",
    ) -> None:
        """Register a kind (replacing an earlier one of the same name); raises
        ``InvalidParameterError`` for a name with ``:``, ``,``, ``=`` or spaces."""
        self[name] = AgentKind(name, factory, dict(params or {}), help)

    def register_lazy(
        self, name: str, target: str, help: str = "", requires: str = "", install: str = ""
    ) -> None:
        """Register a :class:`LazyAgentKind`: ``target`` (``"module:ATTRIBUTE"``) is imported
        when the kind is first used."""
        self[name] = LazyAgentKind(name, target, help, requires, install)  # type: ignore[assignment]

    def names(self) -> list[str]:
        """The registered kinds, sorted (lazy ones included, without importing them)."""
        return sorted(self._kinds)

    def help(self, name: str) -> str:
        """The one-line description of kind ``name``, without importing a lazy kind."""
        return self._entry(name).help

    def is_lazy(self, name: str) -> bool:
        """Whether kind ``name`` is still a :class:`LazyAgentKind` (not imported yet)."""
        return isinstance(self._entry(name), LazyAgentKind)

    def _entry(self, name: str) -> AgentKind | LazyAgentKind:
        try:
            return self._kinds[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown agent {name!r}; known agents: {', '.join(self.names()) or 'none'}"
            ) from None

    def lookup(self, name: str) -> AgentKind:
        """The kind called ``name`` (a lazy kind is imported now); raises ``UnknownNameError``
        listing the known kinds, and a lazy kind's one-line error when it cannot load."""
        entry = self._entry(name)
        if isinstance(entry, LazyAgentKind):
            entry = entry.resolve()
            self._kinds[name] = entry
        return entry

    def __getitem__(self, name: str) -> AgentKind:
        if name not in self._kinds:
            raise KeyError(name)
        return self.lookup(name)

    def __setitem__(self, name: str, kind: AgentKind) -> None:
        if isinstance(kind, LazyAgentKind) and kind.name == name:
            self._kinds[name] = kind
            return
        if not isinstance(kind, AgentKind) or kind.name != name:
            raise InvalidParameterError(
                f"agent kind {name!r}: expected an AgentKind named {name!r}, got {kind!r}"
            )
        self._kinds[name] = kind

    def __delitem__(self, name: str) -> None:
        del self._kinds[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def __repr__(self) -> str:
        return f"AgentRegistry({self.names()})"

    def make(self, spec: str | AgentSpec, game: Game | None, *, seed: int | None = None) -> Agent:
        """Build the agent ``spec`` names, for ``game``: the spec is parsed, its kind looked
        up, and every parameter checked against the kind's declaration before the factory
        runs. ``seed`` seeds the agent's randomness unless the spec gives its own ``seed=``.
        Raises ``UnknownNameError`` for an unknown kind or parameter and
        ``InvalidParameterError`` for a bad value."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise InvalidParameterError(f"seed must be an integer >= 0, got {seed!r}")
        parsed = spec if isinstance(spec, AgentSpec) else parse_spec(spec)
        kind = self.lookup(parsed.kind)
        text = str(parsed)
        values: dict[str, Any] = {name: param.default for name, param in kind.params.items()}
        for name, raw in parsed.params.items():
            if name == "seed":
                seed = Param(int, positive=False).convert(name, raw, text)
                continue
            if name not in kind.params:
                known = ", ".join(sorted([*kind.params, "seed"]))
                raise UnknownNameError(
                    f"agent spec {text!r}: unknown parameter {name!r} for {kind.name}; "
                    f"known: {known}"
                )
            values[name] = kind.params[name].convert(name, raw, text)
        return kind.factory(game, name=text, seed=seed, **values)


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
