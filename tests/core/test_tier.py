"""The kernel registry (core/tier.py) on toy domains, and the one registry of searchlab
(algorithms/kernels.py): which kernels exist, exact-type matching, fallback and errors."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from searchlab.core.errors import InvalidParameterError
from searchlab.core.tier import KernelRegistry, check_tier, describe


class Domain:
    """A built-in domain of the toy registry."""


class Subclass(Domain):
    """A user's variant: may change the rules, so no kernel of the parent applies."""


class Game:
    class info:  # the Game protocol's attribute
        name = "toy"


def reference() -> str:
    return "reference"


def registry_with(kernel: Any) -> KernelRegistry:
    registry = KernelRegistry()
    registry.register("search", Domain, kernel)
    return registry


def test_the_kernel_runs_on_its_exact_type_and_gets_the_request() -> None:
    seen: list[tuple[Any, dict[str, Any]]] = []

    def kernel(domain: Any, **request: Any) -> str:
        seen.append((domain, request))
        return "compiled"

    registry = registry_with(kernel)
    domain = Domain()
    assert registry.run("search", domain, "auto", reference=reference, depth=3) == "compiled"
    assert seen == [(domain, {"depth": 3})]
    assert registry.run("search", domain, "compiled", reference=reference, depth=3) == "compiled"
    assert registry.run("search", domain, "reference", reference=reference) == "reference"
    assert len(seen) == 2  # "reference" never calls the kernel


def test_a_subclass_runs_the_reference_and_compiled_is_refused() -> None:
    registry = registry_with(lambda domain, **request: "compiled")
    assert registry.find("search", Subclass()) is None
    assert registry.run("search", Subclass(), "auto", reference=reference) == "reference"
    with pytest.raises(InvalidParameterError) as caught:
        registry.run("search", Subclass(), "compiled", reference=reference)
    assert str(caught.value) == (
        "search: no compiled tier for Subclass (compiled kernels: Domain); "
        'use tier="auto" or tier="reference"'
    )


def test_a_kernel_returning_none_falls_back_or_says_why() -> None:
    registry = registry_with(lambda domain, **request: None)
    assert registry.run("search", Domain(), "auto", reference=reference) == "reference"
    with pytest.raises(InvalidParameterError) as caught:
        registry.run(
            "search",
            Domain(),
            "compiled",
            reference=reference,
            why_not="the kernel has no observer",
            name="my_search",
        )
    assert str(caught.value) == (
        'my_search: the kernel has no observer; use tier="auto" or tier="reference"'
    )


def test_errors_name_a_game_by_its_name_and_an_unknown_algorithm_has_no_kernels() -> None:
    registry = KernelRegistry()
    with pytest.raises(InvalidParameterError) as caught:
        registry.run("solve", Game(), "compiled", reference=reference)
    assert str(caught.value).startswith(
        "solve: no compiled tier for the game 'toy' (Game) (compiled kernels: none)"
    )
    assert describe(Game()) == "the game 'toy' (Game)" and describe(Domain()) == "Domain"


def test_a_bad_tier_is_refused_before_anything_runs() -> None:
    calls: list[str] = []
    registry = registry_with(lambda domain, **request: calls.append("kernel"))
    with pytest.raises(InvalidParameterError, match="search: tier must be one of 'auto', "):
        registry.run("search", Domain(), "fast", reference=reference)  # type: ignore[arg-type]
    assert calls == []
    assert check_tier("compiled", "x") == "compiled"


def test_one_kernel_per_algorithm_and_type() -> None:
    registry = registry_with(lambda domain, **request: 1)
    registry.register("other", Domain, lambda domain, **request: 2)  # another algorithm: fine
    with pytest.raises(ValueError, match="search: a kernel for Domain is already registered"):
        registry.register("search", Domain, lambda domain, **request: 3)
    assert registry.algorithms() == ("search", "other")
    assert registry.domains("search") == (Domain,)


def test_a_kernel_named_by_path_is_imported_on_first_use(monkeypatch: Any) -> None:
    module = types.ModuleType("toy_kernels")
    module.kernel = lambda domain, **request: "loaded"  # type: ignore[attr-defined]
    registry = registry_with("toy_kernels:kernel")
    assert "toy_kernels" not in sys.modules
    monkeypatch.setitem(sys.modules, "toy_kernels", module)
    assert registry.run("search", Domain(), "auto", reference=reference) == "loaded"


# -- the registry of searchlab -------------------------------------------------------------------
def test_every_compiled_kernel_is_listed_once_and_loads() -> None:
    from searchlab.algorithms.kernels import KERNELS
    from searchlab.domains.games.connect4 import Connect4
    from searchlab.domains.games.othello import Othello
    from searchlab.domains.path.grid import GridProblem
    from searchlab.domains.path.sliding_tile import SlidingTilePuzzle

    assert KERNELS.domains("best_first") == (GridProblem,)
    assert KERNELS.domains("idastar") == (SlidingTilePuzzle,)
    assert KERNELS.domains("jump_point_search") == (GridProblem,)
    assert KERNELS.domains("solve") == (Connect4, Othello)
    for algorithm in KERNELS.algorithms():
        for domain in KERNELS.domains(algorithm):
            entry = next(e for e in KERNELS._entries[algorithm] if e.domain is domain)
            assert callable(entry.kernel()), (algorithm, domain)
