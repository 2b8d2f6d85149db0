"""Two tiers, one call: the ``tier`` argument every search takes, and the registry of compiled
kernels that decides which tier runs.

Every public search (``astar`` and its family, ``idastar``, ``jump_point_search``, ``solve``,
``mcts``) has a *reference* tier in plain Python that runs on any problem or game, and some
built-in domains also have a *compiled* (numba) kernel. A :class:`KernelRegistry` maps
``(algorithm, domain type)`` to that kernel; the algorithms layer fills one registry, explicitly,
in :mod:`searchlab.algorithms.kernels` (adding a compiled game or algorithm is one line there).

The contract of a kernel: it is called as ``kernel(domain, **request)`` with the same validated
request the reference tier gets, and returns a result *in the reference tier's shape* (the same
result type, fields with the same meaning), or ``None`` when this request is outside what it
can do (a user heuristic, an observer, an option it lacks); the reference tier then runs, unless
the caller asked for ``tier="compiled"``, which is then an error.

>>> registry = KernelRegistry()
>>> registry.register("double", int, lambda n, **request: 2 * n)
>>> registry.run("double", 21, "auto", reference=lambda: "slow")
42
>>> registry.run("double", "x", "auto", reference=lambda: "slow")
'slow'
>>> try:
...     registry.run("double", "x", "compiled", reference=lambda: "slow")
... except ValueError as error:
...     print(error)
double: no compiled tier for str (compiled kernels: int); use tier="auto" or tier="reference"
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args

from searchlab.core.errors import InvalidParameterError

__all__ = ["TIERS", "KernelRegistry", "Tier", "check_tier", "describe"]

Tier = Literal["auto", "reference", "compiled"]
"""``"auto"``: the compiled kernel when one fits the request, else the reference tier;
``"reference"``: always the plain-Python tier; ``"compiled"``: the kernel, or an error."""

TIERS: tuple[str, ...] = get_args(Tier)

R = TypeVar("R")


def check_tier(tier: object, algorithm: str) -> Tier:
    """Return ``tier`` if it is one of :data:`TIERS`, else raise :class:`InvalidParameterError`.

    >>> check_tier("auto", "astar")
    'auto'
    >>> try:
    ...     check_tier("fast", "astar")
    ... except ValueError as error:
    ...     print(error)
    astar: tier must be one of 'auto', 'reference', 'compiled', got 'fast'
    """
    if tier not in TIERS:
        raise InvalidParameterError(
            f"{algorithm}: tier must be one of {', '.join(map(repr, TIERS))}, got {tier!r}"
        )
    return tier  # type: ignore[return-value]


def describe(domain: object) -> str:
    """How error messages name a problem or game: a game by its name and class, anything else
    by its class.

    >>> from types import SimpleNamespace
    >>> class Nim:
    ...     info = SimpleNamespace(name="nim")
    >>> describe(Nim()), describe(3)
    ("the game 'nim' (Nim)", 'int')
    """
    name = getattr(getattr(domain, "info", None), "name", None)
    if isinstance(name, str):
        return f"the game {name!r} ({type(domain).__name__})"
    return type(domain).__name__


@dataclass
class _Entry:
    domain: type
    target: Callable[..., Any] | str
    loaded: Callable[..., Any] | None = None

    def kernel(self) -> Callable[..., Any]:
        """The kernel function; a ``"module:function"`` target is imported on first use, so
        that numba modules load only when a compiled search runs."""
        if self.loaded is None:
            if isinstance(self.target, str):
                module, _, name = self.target.partition(":")
                self.loaded = getattr(importlib.import_module(module), name)
            else:
                self.loaded = self.target
        return self.loaded


@dataclass
class KernelRegistry:
    """Compiled kernels by algorithm name and domain type (exact type: a subclass of a built-in
    game may change its rules, so it runs the reference tier)."""

    _entries: dict[str, list[_Entry]] = field(default_factory=dict)

    def register(self, algorithm: str, domain: type, kernel: Callable[..., Any] | str) -> None:
        """Register ``kernel`` (a function or a ``"module:function"`` path) for ``algorithm``
        on problems or games of exactly the type ``domain``."""
        entries = self._entries.setdefault(algorithm, [])
        if any(entry.domain is domain for entry in entries):
            raise ValueError(f"{algorithm}: a kernel for {domain.__name__} is already registered")
        entries.append(_Entry(domain, kernel))

    def find(self, algorithm: str, domain: object) -> Callable[..., Any] | None:
        """The kernel registered for ``algorithm`` on ``type(domain)``, or ``None``."""
        for entry in self._entries.get(algorithm, ()):
            if type(domain) is entry.domain:
                return entry.kernel()
        return None

    def algorithms(self) -> tuple[str, ...]:
        """The algorithm names with at least one kernel, in registration order."""
        return tuple(self._entries)

    def domains(self, algorithm: str) -> tuple[type, ...]:
        """The domain types with a kernel for ``algorithm``, in registration order."""
        return tuple(entry.domain for entry in self._entries.get(algorithm, ()))

    def run(
        self,
        algorithm: str,
        domain: object,
        tier: Tier,
        *,
        reference: Callable[[], R],
        why_not: str | None = None,
        name: str | None = None,
        **request: Any,
    ) -> R:
        """Run the compiled kernel for ``domain`` when ``tier`` allows and the kernel accepts
        ``request``; else ``reference()``. ``tier="compiled"`` with no kernel, or with a
        kernel that returns ``None``, raises :class:`InvalidParameterError` (``why_not``, if
        given, says which part of the request the kernel cannot run; ``name``, default
        ``algorithm``, is the caller's name that starts the message)."""
        name = algorithm if name is None else name
        check_tier(tier, name)
        if tier != "reference":
            kernel = self.find(algorithm, domain)
            result = kernel(domain, **request) if kernel is not None else None
            if result is not None:
                return result  # type: ignore[no-any-return]
            if tier == "compiled":
                if kernel is not None and why_not:
                    reason = why_not
                else:
                    names = ", ".join(d.__name__ for d in self.domains(algorithm)) or "none"
                    reason = f"no compiled tier for {describe(domain)} (compiled kernels: {names})"
                advice = 'use tier="auto" or tier="reference"'
                raise InvalidParameterError(f"{name}: {reason}; {advice}")
        return reference()
