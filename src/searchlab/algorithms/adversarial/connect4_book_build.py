"""Building a Connect Four opening book (:mod:`connect4_book`): enumerate, solve, fold back.

1. **Enumerate** the distinct positions ply by ply up to ``depth`` (mirror images folded, by
   :func:`~searchlab.algorithms.adversarial.connect4_book.canonical_key`), expanding only the
   positions that are stored: not finished, and the mover cannot win at once.
2. **Solve** the positions at exactly ``depth`` plies, in chunks of ``chunk`` positions (a
   worker keeps its transposition table across its chunk: siblings share most of their trees).
   Each finished chunk is saved atomically under ``OUT.partial/`` (a temporary file renamed),
   so a killed build loses at most the chunks being solved, and the same call resumes.
3. **Fold back**: a shallower position's score is the negamax of its children's (Pons' scores
   count the winner's stones, so they simply change sign from child to parent; a child won at
   once by its mover scores ``(43 - plies) // 2``).

The chunks run on a pool of :mod:`searchlab.core.workers` (the one pool of every command that
farms out work): ``W`` local processes (the default; ``workers=0`` solves in this process), or
a Ray cluster (:class:`~searchlab.core.workers.RayPool`, or a local Ray instance).
``memory_needed`` refuses a depth the machine cannot hold.

``root`` builds the book of one position's subtree only (a partial book, e.g. for tests):

>>> book = build_book(27, root="4661237137541742643224", workers=0)  # in this process
>>> book.depth, len(book), book.score(*_root_of("4661237137541742643224"))  # Pons' file: 8
(27, 92, 8)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.algorithms.adversarial import _connect4_kernels as kernels
from searchlab.algorithms.adversarial.connect4_book import Connect4Book, canonical_key
from searchlab.core.errors import InvalidParameterError
from searchlab.core.workers import InlinePool, Pool, ProcessPool
from searchlab.domains.games.connect4 import bits

__all__ = [
    "POSITIONS_PER_PLY",
    "BuildProgress",
    "build_book",
    "check_depth",
    "check_root",
    "enumerate_levels",
    "memory_needed",
    "positions_up_to",
    "solve_chunk",
]

# Legal positions per ply (John Tromp's counts; shared/data/small_game_facts), unfolded.
POSITIONS_PER_PLY = (
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
    30929111, 75437595, 176541259, 394591391, 858218743, 1763883894, 3568259802, 6746155945,
    12673345045, 22010823988, 38263228189, 60830813459, 97266114959, 140728569039,
)  # fmt: skip
_BYTES_PER_POSITION = 160  # enumeration (Python ints in lists and a set) and the table
_CELLS = bits.CELLS
_playable = bits.playable.py_func
_column_mask = bits.column_mask.py_func


def positions_up_to(depth: int, root_plies: int = 0) -> int:
    """An upper bound on the legal positions up to ``depth`` plies (below a root of
    ``root_plies`` stones: at most 7 children each)."""
    subtree = sum(7**i for i in range(depth - root_plies + 1))
    if depth >= len(POSITIONS_PER_PLY):
        return subtree
    return min(subtree, sum(POSITIONS_PER_PLY[: depth + 1]))


def memory_needed(depth: int, root_plies: int = 0) -> int:
    """Bytes a build of ``depth`` needs at most (every legal position up to it, unfolded)."""
    return _BYTES_PER_POSITION * positions_up_to(depth, root_plies)


def _available_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AV_PHYS_PAGES"))
    except (ValueError, OSError):  # pragma: no cover - not on Linux
        return 1 << 34


def check_depth(depth: object, root_plies: int = 0) -> int:
    """``depth`` if a build of it fits in the memory available now, else one line."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= _CELLS:
        raise InvalidParameterError(f"book depth must be an integer in 0..{_CELLS}, got {depth!r}")
    need, have = memory_needed(depth, root_plies), _available_memory()
    if need > have:
        what = f"up to {positions_up_to(depth, root_plies):,} positions"
        raise InvalidParameterError(
            f"book depth {depth}: {what} up to ply {depth} need about {need / 2**30:,.1f} GiB, "
            f"{have / 2**30:,.1f} GiB available; choose a smaller depth"
        )
    return depth


def _stored(current: int, mask: int) -> bool:
    return not (kernels.winning_cells(current, mask) & _playable(mask))


Position = tuple[int, int, str]
"""``(current, mask, moves)``: bitboards and the moves from the empty board."""


def _root_of(moves: str) -> Position:
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(moves)
    return state.current, state.mask, moves


def enumerate_levels(depth: int, root: str = "") -> list[list[Position]]:
    """``levels[d]``: the stored positions (``(current, mask, moves)``, one per mirror pair, in the
    order first met) with ``len(root) + d`` stones below ``root`` (moves from the empty board),
    up to ``depth`` stones.

    >>> [len(level) for level in enumerate_levels(3)]  # 1, 7, 49, 238 legal, mirrors folded
    [1, 4, 25, 121]
    """
    levels = [[_root_of(root)]]
    for _ in range(depth - len(root)):
        seen: set[int] = set()
        level: list[Position] = []
        for current, mask, moves in levels[-1]:
            other = current ^ mask
            for column in range(bits.WIDTH):
                move = _playable(mask) & _column_mask(column)
                if not move:
                    continue
                key = canonical_key(other, mask | move)
                if key in seen:
                    continue
                seen.add(key)
                if _stored(other, mask | move):
                    level.append((other, mask | move, moves + str(column + 1)))
        levels.append(level)
    return levels


@dataclass(frozen=True)
class ChunkTask:
    """A chunk of positions to solve (plain, picklable data)."""

    index: int
    moves: int
    positions: tuple[Position, ...]
    table_log2: int


_SOLVERS: dict[int, Any] = {}


def solve_chunk(task: ChunkTask) -> tuple[int, list[int], list[int]]:
    """``(index, keys, scores)``: the exact scores of a chunk (a worker function; its solver
    and table are kept for the next chunk of this process)."""
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
    from searchlab.domains.games.connect4 import Connect4State

    solver = _SOLVERS.get(task.table_log2)
    if solver is None:
        solver = _SOLVERS[task.table_log2] = Connect4Solver(table_log2=task.table_log2, book=None)
    keys, scores = [], []
    for current, mask, moves in task.positions:
        state = Connect4State(current, mask, moves, False)
        keys.append(canonical_key(current, mask))
        scores.append(solver.score(state))  # the table stays: entries are proven bounds
    return task.index, keys, scores


@dataclass
class BuildProgress:
    """What :func:`build_book` reports after each chunk: positions solved of the total at the
    book's depth, chunks resumed from disk, seconds since the start."""

    solved: int
    total: int
    resumed: int
    elapsed: float


def check_root(root: str, depth: int) -> Position:
    from searchlab.domains.games.connect4 import parse_moves

    state = parse_moves(root)
    if state.is_terminal():
        raise InvalidParameterError(f"book root {root!r}: the game is already over")
    if state.num_moves > depth:
        raise InvalidParameterError(
            f"book root {root!r} has {state.num_moves} stones, more than the depth {depth}"
        )
    return state.current, state.mask, root


def _partial_folder(out: Path) -> Path:
    return out.with_name(out.name + ".partial")


def _save_chunk(folder: Path, index: int, keys: list[int], scores: list[int]) -> None:
    temporary = folder / f"chunk-{index:07d}.tmp.npz"
    with open(temporary, "wb") as handle:
        np.savez(handle, keys=np.array(keys, dtype=np.uint64), scores=np.array(scores, np.int8))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, folder / f"chunk-{index:07d}.npz")


def _load_chunks(folder: Path) -> dict[int, tuple[np.ndarray, ...]]:
    found: dict[int, tuple[np.ndarray, ...]] = {}
    for path in folder.glob("chunk-*.npz"):
        if ".tmp" in path.name:
            continue
        index = int(path.stem.removeprefix("chunk-"))
        with np.load(path) as data:
            found[index] = (data["keys"], data["scores"])
    return found


def build_book(
    depth: int,
    *,
    root: str = "",
    workers: int = 1,
    out: Path | None = None,
    chunk: int = 256,
    table_log2: int = 22,
    pool: Pool | None = None,
    report: Callable[[BuildProgress], None] | None = None,
) -> Connect4Book:
    """Build the book of every position up to ``depth`` plies (see the module docstring);
    with ``out``, write it there and keep the finished chunks under ``OUT.partial/`` until the
    book is written (a later call with the same ``out`` and ``depth`` resumes). ``pool``
    defaults to ``workers`` local processes (``0``: this process); ``report`` is called after
    each chunk."""
    root_state = check_root(root, check_depth(depth, len(root)))
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise InvalidParameterError(f"book chunk must be >= 1 positions, got {chunk!r}")
    start = time.perf_counter()
    levels = enumerate_levels(depth, root) if _stored(*root_state[:2]) else [[]]
    leaves = levels[-1]
    tasks = [
        ChunkTask(i // chunk, depth, tuple(leaves[i : i + chunk]), table_log2)
        for i in range(0, len(leaves), chunk)
    ]
    manifest = {"depth": depth, "root": root, "chunk": chunk, "positions": len(leaves)}
    done: dict[int, tuple[np.ndarray, ...]] = {}
    folder = None
    if out is not None:
        folder = _partial_folder(out)
        folder.mkdir(parents=True, exist_ok=True)
        manifest_path = folder / "manifest.json"
        if manifest_path.exists():
            old = json.loads(manifest_path.read_text())
            if old != manifest:
                raise InvalidParameterError(
                    f"{folder}: a build with other settings ({old}) is in progress there; "
                    f"remove the folder or use the same --depth (asked: {manifest})"
                )
        else:
            manifest_path.write_text(json.dumps(manifest))
        done = _load_chunks(folder)
    resumed = len(done)
    solved = sum(len(keys) for keys, _ in done.values())
    todo = [task for task in tasks if task.index not in done]
    own_pool = pool is None
    pool = pool or (ProcessPool(workers) if workers > 0 else InlinePool())
    try:
        for index, keys, scores in pool.run(todo, solve_chunk):
            if folder is not None:
                _save_chunk(folder, index, keys, scores)
            done[index] = (np.array(keys, dtype=np.uint64), np.array(scores, dtype=np.int8))
            solved += len(keys)
            if report is not None:
                report(BuildProgress(solved, len(leaves), resumed, time.perf_counter() - start))
    finally:
        if own_pool:
            pool.close()
    scores_by_key: dict[int, int] = {}
    for key_array, score_array in done.values():
        scores_by_key.update(zip(key_array.tolist(), score_array.tolist(), strict=True))
    _fold_back(levels, scores_by_key, len(root))
    book = Connect4Book.from_scores(depth, scores_by_key)
    if out is not None and folder is not None:
        book.save(out)
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return book


def _fold_back(levels: list[list[Position]], scores: dict[int, int], first: int) -> None:
    """Add the scores of the shallower levels, deepest first, by negamax over the children
    (``levels[0]`` has ``first`` stones)."""
    for level in range(len(levels) - 2, -1, -1):
        moves = first + level
        for current, mask, _ in levels[level]:
            other, best = current ^ mask, -_CELLS
            for column in range(bits.WIDTH):
                move = _playable(mask) & _column_mask(column)
                if not move:
                    continue
                child = (other, mask | move)
                if _stored(*child):
                    child_score = scores[canonical_key(*child)]
                else:  # the child's mover wins at once
                    child_score = (_CELLS + 1 - (moves + 1)) // 2
                best = max(best, -child_score)
            scores[canonical_key(current, mask)] = best
