"""The layers import downward only (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "searchlab"

LAYERS = {"core": 0, "domains": 1, "algorithms": 2, "agents": 3, "viz": 3, "arena": 4, "cli": 5}


def layer_of(module: str) -> int | None:
    """Layer number of a dotted ``searchlab.X...`` module name (None for the package root)."""
    parts = module.split(".")
    if parts[0] != "searchlab" or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


def imported_modules(source: str) -> list[str]:
    """Every absolute ``searchlab`` module a source file imports (relative imports resolved
    by the caller are not used in this code base)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [name for name in names if name.split(".")[0] == "searchlab"]


def violations(package: Path) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).with_suffix("")
        module = ".".join(relative.parts)
        own = layer_of(module)
        if own is None:
            continue
        for imported in imported_modules(path.read_text(encoding="utf-8")):
            other = layer_of(imported)
            if other is not None and other > own:
                found.append(f"{module} (layer {own}) imports {imported} (layer {other})")
    return found


def test_every_subpackage_has_a_layer() -> None:
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert subpackages <= set(LAYERS), f"unlayered subpackages: {subpackages - set(LAYERS)}"


def test_layers_import_downward_only() -> None:
    assert violations(PACKAGE) == []


def test_checker_detects_an_upward_import(tmp_path: Path) -> None:
    package = tmp_path / "searchlab"
    (package / "core").mkdir(parents=True)
    (package / "core" / "bad.py").write_text("from searchlab.algorithms import astar\n")
    assert violations(package) == [
        "searchlab.core.bad (layer 0) imports searchlab.algorithms (layer 2)"
    ]


@pytest.mark.parametrize("module", ["searchlab.core.limits", "searchlab.cli.main"])
def test_layer_of_known_modules(module: str) -> None:
    assert layer_of(module) == LAYERS[module.split(".")[1]]
