"""Binding the one search loop (:func:`~searchlab.algorithms.mcts._kernel_loop.simulate`) to a
game's compiled rules, so that numba compiles it once per machine, not once per process.

Every game of the compiled-game protocol is bound the same way, the built-in ones and yours:
:func:`bind` writes a small module that binds the loop to the game's functions by name,
imports it, and lets numba cache its kernel on disk beside it: numba caches neither a
function that takes functions nor a closure, but it does cache a module-level function whose
globals are the game's functions. The module is
named by a digest of everything the kernel is made of (the names and source files of your
functions, the position's kind, and searchlab's loop), so a change to any of
them makes a new one; it lives in ``$SEARCHLAB_KERNEL_DIR``, by default the ``kernels`` folder
of searchlab's cache (:func:`~searchlab.core.cache_dir.cache_directory`, ``~/.cache/searchlab``:
a folder that survives a reboot, so the compiling is once per machine; numba caches the kernel
beside the module, or under ``$NUMBA_CACHE_DIR``). Measured (2026-11-27, Breakthrough, the
2-core VM): the first search of a new process took 6.5 s of compiling without it, about 1 s
with it.

The kernel releases the GIL (``nogil=True``): the threads of a parallel search
(``MCTSOptions.threads``, :mod:`~searchlab.algorithms.mcts.root_parallel`) run it at once.

Rules whose functions are not module-level functions of an imported module (made in a
function, say) are bound in memory instead, once per process (a few seconds of compiling), as
is every game when the folder cannot be written.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from numba import njit

from searchlab.algorithms.mcts import _kernel_loop as L
from searchlab.core.atomic_file import write_atomically
from searchlab.core.cache_dir import cache_directory
from searchlab.core.compiled_game import CompiledGame

__all__ = ["bind", "kernel_folder"]

_BOUND: dict[tuple[Any, ...], Any] = {}
"""The search loops bound in this process, by functions and shape."""
_FUNCTIONS = (
    "actions", "play", "status", "rollout", "next_player", "tree_actions", "priors", "repeats",
    "playout",
)  # fmt: skip

_TEMPLATE = '''"""Made by searchlab: the compiled MCTS loop bound to {rules} by name, so that numba
caches it on disk. Do not edit; a change to the rules or to searchlab makes another file."""

import sys

from numba import njit

from searchlab.algorithms.mcts._kernel_loop import alternate, simulate, start_copy, start_words

{imports}

@njit(cache=True, nogil=True)
def kernel(config, tree, root_a, root_b, scratch, counters, rng_state, settings):
    return simulate(
        actions, play, status, rollout, {start}, next_player, tree_actions, priors, repeats,
        playout, config, tree, root_a, root_b, scratch, counters, rng_state, settings,
    )
'''


def kernel_folder() -> Path:
    """Where the bound loops are written (``$SEARCHLAB_KERNEL_DIR``, else the ``kernels``
    folder of :func:`~searchlab.core.cache_dir.cache_directory`).

    >>> import os
    >>> saved = os.environ.pop("SEARCHLAB_KERNEL_DIR", None)
    >>> kernel_folder() == cache_directory() / "kernels"
    True
    >>> if saved is not None: os.environ["SEARCHLAB_KERNEL_DIR"] = saved
    """
    chosen = os.environ.get("SEARCHLAB_KERNEL_DIR")
    if chosen:
        return Path(chosen).expanduser()
    return cache_directory() / "kernels"


def bind(compiled: CompiledGame, is_array: bool) -> Any:
    """The search loop bound to ``compiled``'s functions (see the module), called as
    ``kernel(config, tree, root_a, root_b, scratch, counters, rng_state, settings)``;
    ``is_array``: the position is an array each simulation copies (else two words)."""
    key = (*(getattr(compiled, name) for name in _FUNCTIONS), is_array)
    kernel = _BOUND.get(key)
    if kernel is None:
        kernel = _bind_by_name(compiled, is_array) or _bind_in_memory(compiled, is_array)
        _BOUND[key] = kernel
    return kernel


def _where(function: Any) -> tuple[str, str, str] | None:
    """``(module, name, source file)`` of a module-level ``@njit`` function, else ``None``."""
    python = getattr(function, "py_func", None)
    module = sys.modules.get(getattr(python, "__module__", "") or "")
    name = getattr(python, "__name__", "")
    source = getattr(module, "__file__", None)
    if module is None or source is None or getattr(module, name, None) is not function:
        return None
    return module.__name__, name, source


def _bind_by_name(compiled: CompiledGame, is_array: bool) -> Any:
    """The loop bound in a written module that numba caches, or ``None`` when the functions
    are not all module-level functions or the module cannot be written and imported."""
    imports = []
    digest = hashlib.sha1()
    for source in (L.__file__, __file__):
        digest.update(Path(source).read_bytes())
    for field in _FUNCTIONS:
        function = getattr(compiled, field)
        if function is None:
            fallback = "alternate" if field == "next_player" else "None"
            imports.append(f"{field} = {fallback}")
            digest.update(f"{field}=None".encode())
            continue
        where = _where(function)
        if where is None:
            return None
        home, attribute, source = where
        imports.append(f"{field} = sys.modules[{home!r}].{attribute}")
        try:
            digest.update(f"{field}={home}.{attribute}".encode() + Path(source).read_bytes())
        except OSError:
            return None
    start = "start_copy" if is_array else "start_words"
    text = _TEMPLATE.format(rules=repr(compiled.name), imports="\n".join(imports), start=start)
    digest.update(text.encode())
    name = f"searchlab_bound_{digest.hexdigest()[:16]}"
    try:
        path = kernel_folder() / f"{name}.py"  # RuntimeError: no home folder to find
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text.encode())
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                return None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
    except (OSError, RuntimeError):
        return None
    return module.kernel


def _bind_in_memory(compiled: CompiledGame, is_array: bool) -> Any:
    """The loop bound to the functions in a closure (compiled on its first call in each
    process; numba does not cache closures)."""
    actions_fn, play_fn, status_fn = compiled.actions, compiled.play, compiled.status
    rollout_fn = compiled.rollout
    next_player_fn = L.alternate if compiled.next_player is None else compiled.next_player
    start_fn = L.start_copy if is_array else L.start_words
    tree_actions_fn, priors_fn = compiled.tree_actions, compiled.priors
    repeats_fn, playout_fn = compiled.repeats, compiled.playout

    @njit(nogil=True)
    def kernel(
        config, tree, root_a, root_b, scratch, counters, rng_state, settings
    ):  # pragma: no cover - compiled
        return L.simulate(
            actions_fn, play_fn, status_fn, rollout_fn, start_fn, next_player_fn,
            tree_actions_fn, priors_fn, repeats_fn, playout_fn, config, tree, root_a, root_b,
            scratch, counters, rng_state, settings,
        )  # fmt: skip

    return kernel
