"""The layers import downward only, and no modules import each other in a cycle
(docs/architecture.md).

How imports are read (the same for both checks): every ``import`` and ``from ... import`` of a
``searchlab`` module anywhere in a file counts, at module level or inside a function (a lazy
import that only breaks a cycle is still a cycle: it hides the dependency from the reader and
from Python's import order, it does not remove it). Only imports under ``if TYPE_CHECKING:``
are left out: they never run. ``from a.b import c`` is an edge to the module ``a.b.c`` when
``c`` is one, else to ``a.b``; relative imports are resolved against the importing module.
The parent packages Python initialises on the way (``a``, ``a.b`` for ``import a.b.c``) are
not edges: otherwise every module would depend on the root package, which re-exports the
public surface.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "searchlab"

LAYERS = {
    "core": 0,
    "domains": 1,
    "algorithms": 2,
    "agents": 3,
    "viz": 3,
    "exercises": 3,
    "arena": 4,
    "learning": 4,
    "cli": 5,
    "web": 5,
    "interop": 5,
}
"""Subpackage -> layer: a module may import its own layer and those below."""

ROOT_MODULES = {"__init__", "__main__", "games"}
"""Modules directly in ``searchlab/``: the curated surface (``__init__``, ``games``, the short
name of the game registry) and ``python -m searchlab``. They sit above the layers; the cycle
check covers them."""


def layer_of(module: str) -> int | None:
    """Layer number of a dotted ``searchlab.X...`` module name (None for the root modules)."""
    parts = module.split(".")
    if parts[0] != "searchlab" or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


def module_files(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package`` (a package is its
    ``__init__.py``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth, except under
    ``if TYPE_CHECKING:`` (its ``else`` branch runs, and counts)."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        for child in node.orelse:
            yield from _import_nodes(child)
        return
    for child in ast.iter_child_nodes(node):
        yield from _import_nodes(child)


def imported_modules(module: str, source: str, known: set[str], is_package: bool) -> set[str]:
    """The ``searchlab`` modules that ``module`` (its ``source``) imports, resolved as the
    module docstring says; ``known`` holds the names of the package's modules."""
    names: set[str] = set()
    for node in _import_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            origin = ".".join([*base, *([node.module] if node.module else [])])
        else:
            origin = node.module or ""
        for alias in node.names:
            submodule = f"{origin}.{alias.name}"
            names.add(submodule if submodule in known else origin)
    return {name for name in names if name.split(".")[0] == "searchlab" and name != module}


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules it imports (edges to names that are not modules of ``package``
    are kept: the layer check needs them; the cycle check ignores them)."""
    files = module_files(package)
    known = set(files)
    return {
        module: imported_modules(
            module, path.read_text(encoding="utf-8"), known, path.name == "__init__.py"
        )
        for module, path in files.items()
    }


def violations(package: Path) -> list[str]:
    found = []
    for module, imported in sorted(import_graph(package).items()):
        own = layer_of(module)
        if own is None:
            continue
        for name in sorted(imported):
            other = layer_of(name)
            if other is not None and other > own:
                found.append(f"{module} (layer {own}) imports {name} (layer {other})")
    return found


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """One cycle, ``a -> b -> a``, for each group of modules that import each other (each
    strongly connected component of more than one module; Tarjan's algorithm), sorted."""
    edges = {module: sorted(t for t in targets if t in graph) for module, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges[module]:
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                components.append(component)

    for module in sorted(edges):
        if module not in index:
            connect(module)
    return sorted(_cycle_through(min(c), c, edges) for c in components)


def _cycle_through(start: str, component: set[str], edges: dict[str, list[str]]) -> str:
    """The shortest cycle from ``start`` back to itself inside ``component`` (breadth first)."""
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in edges[module]:
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return " -> ".join([*reversed(path), start])
                if target in component and target not in parent and target != start:
                    parent[target] = module
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - a component has one


def test_every_subpackage_and_root_module_has_a_place() -> None:
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert subpackages <= set(LAYERS), f"unlayered subpackages: {subpackages - set(LAYERS)}"
    root = {p.stem for p in PACKAGE.glob("*.py")}
    assert root <= ROOT_MODULES, f"modules outside the layers: {root - ROOT_MODULES}"


def test_layers_import_downward_only() -> None:
    assert violations(PACKAGE) == []


def test_no_import_cycles() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_checker_detects_an_upward_import(tmp_path: Path) -> None:
    package = tmp_path / "searchlab"
    (package / "core").mkdir(parents=True)
    (package / "core" / "bad.py").write_text("from searchlab.algorithms import astar\n")
    assert violations(package) == [
        "searchlab.core.bad (layer 0) imports searchlab.algorithms (layer 2)"
    ]


def _private(name: str) -> bool:
    """``_name`` is private; ``__name__`` (``__version__``, ``__main__``) is not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(package: Path, subpackage: str) -> list[str]:
    """Where a module of ``searchlab.<subpackage>`` imports what another subpackage keeps
    private: a module whose dotted name has a part starting with ``_`` (``domains.games._params``)
    or a ``_name`` from one of its modules (``from searchlab.domains.games.go import
    _geometry``). Its own private modules (``cli._common``) are its business."""
    files = module_files(package)
    known = set(files)
    own = f"searchlab.{subpackage}"
    found = []
    for module, path in sorted(files.items()):
        if module != own and not module.startswith(own + "."):
            continue
        source = path.read_text(encoding="utf-8")
        for node in _import_nodes(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue  # relative: inside its own subpackage
            origins = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            names = [] if isinstance(node, ast.Import) else [alias.name for alias in node.names]
            for origin in origins:
                if (
                    origin.split(".")[0] != "searchlab"
                    or origin == own
                    or origin.startswith(own + ".")
                ):
                    continue
                modules = [origin, *(f"{origin}.{name}" for name in names)]
                private = [
                    name
                    for name in modules
                    if name in known and any(_private(part) for part in name.split(".")[1:])
                ]
                private += [f"{origin}.{name}" for name in names if _private(name)]
                found += [f"{module} imports {name}" for name in sorted(set(private))]
    return found


def test_cli_imports_no_private_module_of_another_package() -> None:
    # issue 29: each command parses arguments, calls the library (its public modules), prints
    assert private_imports(PACKAGE, "cli") == []


def test_private_import_check_finds_planted_ones(tmp_path: Path) -> None:
    package = tmp_path / "searchlab"
    _plant(
        package,
        {
            "__init__.py": "",
            "domains/__init__.py": "",
            "domains/_hidden.py": "x = 1\n",
            "domains/shown.py": "_x = 1\ny = 2\n",
            "cli/__init__.py": "",
            "cli/_common.py": "",
            "cli/a.py": (
                "from searchlab.domains import _hidden\nfrom searchlab.cli import _common\n"
            ),
            "cli/b.py": "def f():\n    import searchlab.domains._hidden\n",
            "cli/c.py": (
                "from searchlab.domains.shown import _x, y\nfrom ._common import z\n"
                "from searchlab import __version__\n"
            ),
        },
    )
    assert private_imports(package, "cli") == [
        "searchlab.cli.a imports searchlab.domains._hidden",
        "searchlab.cli.b imports searchlab.domains._hidden",
        "searchlab.cli.c imports searchlab.domains.shown._x",
    ]


GAMES = "searchlab.domains.games"


def game_private_imports(package: Path) -> list[str]:
    """Where a module outside a game's package (``domains/games/<pkg>/``) imports a private
    module of it: one whose name below ``<pkg>`` has a part starting with ``_``
    (``domains.games.go._geometry``). A game's package is its place: what it keeps private is
    used only inside it."""
    found = []
    for module, imported in sorted(import_graph(package).items()):
        for name in sorted(imported):
            parts = name.split(".")
            if not name.startswith(GAMES + ".") or len(parts) < 5:
                continue
            home = ".".join(parts[:4])
            if any(_private(part) for part in parts[4:]) and not (
                module == home or module.startswith(home + ".")
            ):
                found.append(f"{module} imports {name}")
    return found


def test_no_module_imports_a_private_module_of_a_games_package() -> None:
    # issue 29: a game is a place; its private modules are its own business
    assert game_private_imports(PACKAGE) == []


def test_game_private_import_check_finds_planted_ones(tmp_path: Path) -> None:
    package = tmp_path / "searchlab"
    _plant(
        package,
        {
            "__init__.py": "",
            "domains/__init__.py": "",
            "domains/games/__init__.py": "",
            "domains/games/chess/__init__.py": "from searchlab.domains.games.chess import _moves\n",
            "domains/games/chess/_moves.py": "x = 1\n",
            "domains/games/chess/eval.py": "from ._moves import x\n",
            "domains/games/chess/sub/__init__.py": "",
            "domains/games/chess/sub/_deep.py": "",
            "domains/games/draughts.py": "from searchlab.domains.games.chess._moves import x\n",
            "algorithms/__init__.py": "",
            "algorithms/a.py": (
                "import searchlab.domains.games.chess.sub._deep\n"
                "from searchlab.domains.games.chess import eval\n"
            ),
        },
    )
    assert game_private_imports(package) == [
        "searchlab.algorithms.a imports searchlab.domains.games.chess.sub._deep",
        "searchlab.domains.games.draughts imports searchlab.domains.games.chess._moves",
    ]


def _plant(package: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for name, source in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return import_graph(package)


PLANTED_CYCLES = {
    "through a function-level import": (
        {
            "agents/__init__.py": "",
            "agents/spec.py": "def make():\n    from searchlab.agents import kinds\n",
            "agents/kinds.py": "from searchlab.agents.spec import make\n",
            "agents/base.py": "import searchlab.agents.spec\n",
        },
        ["searchlab.agents.kinds -> searchlab.agents.spec -> searchlab.agents.kinds"],
        {"searchlab.agents.spec": {"searchlab.agents.kinds"}},  # the import in make()
    ),
    "a longer one through relative imports": (
        {
            "cli/__init__.py": "from .main import main\n",
            "cli/main.py": "from . import solve\n",
            "cli/solve.py": "from searchlab.cli.games import connect4\n",
            "cli/games/__init__.py": "",
            "cli/games/connect4.py": "from ..main import main\n",
        },
        [
            "searchlab.cli.games.connect4 -> searchlab.cli.main -> searchlab.cli.solve"
            " -> searchlab.cli.games.connect4"
        ],
        {"searchlab.cli.main": {"searchlab.cli.solve"}},  # from . import solve
    ),
}


@pytest.mark.parametrize("case", PLANTED_CYCLES)
def test_checker_finds_a_planted_cycle(tmp_path: Path, case: str) -> None:
    files, expected, edges = PLANTED_CYCLES[case]
    graph = _plant(tmp_path / "searchlab", {"__init__.py": "", **files})
    assert cycles(graph) == expected
    assert {module: graph[module] for module in edges} == edges


def test_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path / "searchlab",
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "core/a.py": "from searchlab.core import b\n",
            "core/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from searchlab.core.a import x\n"
                "else:\n    import searchlab.core.c\n"
            ),
            "core/c.py": "",
        },
    )
    assert graph["searchlab.core.a"] == {"searchlab.core.b"}
    assert graph["searchlab.core.b"] == {"searchlab.core.c"}
    assert cycles(graph) == []


@pytest.mark.parametrize("module", ["searchlab.core.limits", "searchlab.cli.main"])
def test_layer_of_known_modules(module: str) -> None:
    assert layer_of(module) == LAYERS[module.split(".")[1]]


def test_test_files_have_unique_names() -> None:
    # tests/ has no __init__.py files (rootdir-relative imports): pytest imports every test
    # file by its bare name, so a second test_x.py anywhere stops the whole run at collection
    tests = Path(__file__).resolve().parent
    names: dict[str, list[str]] = {}
    for path in tests.rglob("test_*.py"):
        names.setdefault(path.name, []).append(str(path.relative_to(tests)))
    assert not {name: paths for name, paths in names.items() if len(paths) > 1}
