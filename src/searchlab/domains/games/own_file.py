"""Import a game's own file (``path/to/mygame.py``) as a module, numba caches included.

The module is named ``searchlab_user_game_<stem>_<digest>``, where ``digest`` is a hash of the
file's resolved path and of its bytes: two files are two modules (a game's errors are told by
its own file, ``own_game.py``, and what a module registers stays its own), and an edited file is
a new module.

numba's on-disk cache (``@njit(cache=True)``, in the ``__pycache__`` folder beside the file)
records the module's name in every compiled function it stores and imports that module again
when it loads one; its cache is valid while the file keeps its modification time and size. A
project copied with ``cp -a`` (or moved, or synced) keeps both, so the copy's cache names the
module of the old path, which is not loaded: such a function is compiled again and its cache
rewritten under the copy's name, as when the cache is cold, instead of failing with
``ModuleNotFoundError``.

>>> import pathlib, searchlab
>>> example = pathlib.Path(searchlab.__file__).parents[2] / "examples" / "custom_game.py"
>>> module = import_game_file(example)
>>> module.__name__.startswith("searchlab_user_game_custom_game_"), hasattr(module, "Subtraction")
(True, True)
>>> import_game_file(example) is module
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["MODULE_PREFIX", "NotAPythonFileError", "import_game_file", "module_name"]

MODULE_PREFIX = "searchlab_user_game_"


class NotAPythonFileError(ValueError):
    """The file is not one Python can import as a module (its name does not end in ``.py``)."""


def module_name(path: Path) -> str:
    """The name the file at ``path`` is imported under: its stem and a hash of its resolved
    path and its bytes.

    Raises ``OSError`` when the file cannot be read.
    """
    where = str(path.resolve()).encode("utf-8", "surrogateescape")
    digest = hashlib.sha1(where + b"\0" + path.read_bytes()).hexdigest()[:12]
    return f"{MODULE_PREFIX}{path.stem}_{digest}"


def import_game_file(path: Path) -> ModuleType:
    """The module of the Python file ``path``, imported once per path and contents (module
    docstring).

    Whatever the file raises while it is imported propagates (and the module is forgotten);
    :class:`NotAPythonFileError` when ``path`` is not a file Python can import.
    """
    name = module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise NotAPythonFileError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    _recompile_stale_caches(module)
    return module


def _recompile_stale_caches(module: ModuleType) -> None:
    """Make each cached numba function of ``module`` compile again, instead of failing, when
    its cache names a game file's module that is not loaded."""
    if "numba" not in sys.modules:  # the file compiles nothing: nothing to do
        return
    from numba.core.caching import FunctionCache
    from numba.core.dispatcher import Dispatcher

    for value in vars(module).values():
        cache = getattr(value, "_cache", None)
        if (
            isinstance(value, Dispatcher)
            and isinstance(cache, FunctionCache)
            and value.py_func.__module__ == module.__name__
        ):
            cache.load_overload = _tolerant(cache.load_overload)  # type: ignore[method-assign]


def _tolerant(load: Any) -> Any:
    """``load`` (a ``FunctionCache.load_overload``), answering a miss (``None``: compile and
    save again) where the cached function names a game file's module that is not loaded."""

    def load_overload(signature: Any, target_context: Any) -> Any:
        try:
            return load(signature, target_context)
        except ModuleNotFoundError as error:
            if not (error.name or "").startswith(MODULE_PREFIX):
                raise
            return None

    return load_overload
