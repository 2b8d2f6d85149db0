"""A game's own file as a module, named by its path and contents: a copied project (``cp -a``:
numba's cache in ``__pycache__`` copied with its times) whose cache names the old path's module
compiles those kernels again instead of failing with ``ModuleNotFoundError``.

numba's cache loads only in a fresh process, so each load here runs in a subprocess.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from searchlab.domains.games.own_file import (
    MODULE_PREFIX,
    NotAPythonFileError,
    import_game_file,
    module_name,
)

SRC = Path(__file__).resolve().parents[3] / "src"

GAME = textwrap.dedent(
    """\
    from numba import njit

    from searchlab.games import make


    @njit(cache=True)
    def double(x):
        return 2 * x


    def Doubled(**params):
        return make("nim", **params)
    """
)

# Load the game through the registry as every command does, and call its kernel.
LOAD = textwrap.dedent(
    """\
    import sys
    from searchlab.games import make
    from searchlab.domains.games.registry import load_game_class

    game = make(sys.argv[1] + ":Doubled")
    module = sys.modules[load_game_class(sys.argv[1] + ":Doubled").__module__]
    print(module.__name__, module.double(21), game.info.name)
    """
)


def run(*argv: str) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(SRC)
    done = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def cache_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (folder / "__pycache__").glob("mygame.*.nb*")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "mygame.py").write_text(GAME)
    return folder


def test_a_copied_project_compiles_again_what_its_cache_names_elsewhere(
    project: Path, tmp_path: Path
) -> None:
    load = tmp_path / "load.py"
    load.write_text(LOAD)
    first = run(str(load), str(project / "mygame.py")).split()[0]
    cached = cache_files(project)
    assert any(first.encode() in data for data in cached.values()), "numba wrote no cache"
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)  # copy2: modification times kept, as cp -a does
    name, value, game = run(str(load), str(copy / "mygame.py")).split()
    assert (value, game) == ("42", "nim") and name == module_name(copy / "mygame.py") != first
    rewritten = cache_files(copy)
    assert any(name.encode() in data for data in rewritten.values())  # saved under its name
    assert run(str(load), str(copy / "mygame.py")).split() == [name, "42", "nim"]


def test_a_cache_naming_a_module_not_loaded_is_compiled_again(
    project: Path, tmp_path: Path
) -> None:
    """A cache written while the file was loaded under another name (as a searchlab that named
    these modules by their path did) is compiled again, not a ``ModuleNotFoundError``."""
    stale = f"{MODULE_PREFIX}mygame_000000000000"
    writer = tmp_path / "write.py"
    writer.write_text(
        textwrap.dedent(
            f"""\
            import importlib.util, sys
            spec = importlib.util.spec_from_file_location({stale!r}, sys.argv[1])
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            print(module.double(21))
            """
        )
    )
    game = project / "mygame.py"
    assert run(str(writer), str(game)).split() == ["42"]
    assert any(stale.encode() in data for data in cache_files(project).values())
    load = tmp_path / "load.py"
    load.write_text(LOAD)
    name, value, _ = run(str(load), str(game)).split()
    assert (name, value) == (module_name(game), "42")
    rewritten = cache_files(project)
    assert any(name.encode() in data for data in rewritten.values())  # saved under its name
    assert run(str(load), str(game)).split()[:2] == [name, "42"]


def test_the_name_follows_the_path_and_the_contents(tmp_path: Path) -> None:
    first, second = (tmp_path / folder / "mygame.py" for folder in "ab")
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(GAME)
    assert module_name(first) != module_name(second)  # the same bytes, two files
    assert module_name(first).startswith(f"{MODULE_PREFIX}mygame_")
    names = [module_name(first)]
    module = import_game_file(first)
    try:
        assert import_game_file(first) is module  # imported once
        other = import_game_file(second)
        assert other is not module and Path(other.__file__) == second
        first.write_text(GAME + "\nX = 1\n")
        names += [module_name(second), module_name(first)]
        edited = import_game_file(first)
        assert edited is not module and edited.X == 1 and names[2] != names[0]
    finally:
        for name in names:
            sys.modules.pop(name, None)


def test_a_file_python_cannot_import_is_named(tmp_path: Path) -> None:
    text = tmp_path / "mygame.txt"
    text.write_text(GAME)
    with pytest.raises(NotAPythonFileError, match=r"mygame\.txt is not a Python file"):
        import_game_file(text)


def test_a_file_that_raises_is_forgotten(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(RuntimeError, match="boom"):
        import_game_file(path)
    assert module_name(path) not in sys.modules
