"""The AlphaGo pipeline's expert data made in chunks, by worker processes, resumable.

A long run labels tens of thousands of positions (the openings cost the solver seconds each),
so the expert data is made in **chunks**: chunk ``k`` is drawn from its own seed
(:class:`ChunkJob`), which makes the data the same whatever the number of workers and
whichever chunk finishes first. Each finished chunk is written atomically to its own file;
stopped (a deadline, Ctrl-C, SIGKILL) and started again, :func:`label_chunks` labels only the
chunks whose files are missing. :func:`merge_chunks` joins them in chunk order and drops a
position met again (openings recur across chunks).

Workers are ``spawn``-ed processes that ignore Ctrl-C: the parent stops them (a chunk being
labelled is lost and labelled again on resume; a written chunk never is).

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> jobs = [ChunkJob(k, 3, seed=k, path=str(folder / f"train-{k}.npz"), min_ply=20)
...         for k in range(2)]
>>> label_chunks(jobs, workers=1)
True
>>> len(merge_chunks([job.path for job in jobs]))
6
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.core.workers import ProcessPool
from searchlab.domains.games.connect4 import parse_moves
from searchlab.learning.alphago.data import ExpertPositions, generate_expert_positions

__all__ = [
    "ChunkJob",
    "held_out_keys",
    "label_chunk",
    "label_chunks",
    "merge_chunks",
    "position_keys",
]


@dataclass(frozen=True, slots=True)
class ChunkJob:
    """One chunk of expert positions: ``count`` positions of varied play drawn from ``seed``
    (see :func:`~searchlab.learning.alphago.data.generate_expert_positions` for the other
    fields), written to ``path``; ``repeat``: how many times its positions count when the
    chunks are merged for training (:func:`merge_chunks`)."""

    index: int
    count: int
    seed: int
    path: str
    min_ply: int = 12
    max_ply: int = 41
    node_budget: int = 200_000
    random_share: float = 0.3
    positions_per_game: int = 1
    hard_budget: int = 0
    repeat: int = 1


def label_chunk(job: ChunkJob) -> float:
    """Label ``job``'s positions and write them atomically; return the CPU seconds taken."""
    started = time.process_time()
    data = generate_expert_positions(
        job.count,
        seed=job.seed,
        min_ply=job.min_ply,
        max_ply=job.max_ply,
        node_budget=job.node_budget,
        random_share=job.random_share,
        positions_per_game=job.positions_per_game,
        hard_budget=job.hard_budget,
    )
    data.save(job.path)
    return time.process_time() - started


def label_chunks(
    jobs: Sequence[ChunkJob],
    *,
    workers: int = 1,
    should_stop: Callable[[], bool] | None = None,
    on_done: Callable[[ChunkJob, float], None] | None = None,
) -> bool:
    """Label the ``jobs`` whose files do not exist yet, ``workers`` at a time; call
    ``on_done(job, cpu_seconds)`` as each is written. True when every chunk exists, False
    when ``should_stop()`` said stop first (asked between chunks; with workers, every 0.2 s)."""
    for job in jobs:  # a worker stopped mid-write leaves only its hidden temporary file
        for stray in Path(job.path).parent.glob(f".{Path(job.path).name}.*"):
            stray.unlink(missing_ok=True)
    pending = [job for job in jobs if not Path(job.path).exists()]

    def stopping() -> bool:
        return should_stop is not None and should_stop()

    if workers <= 1 or len(pending) <= 1:
        for job in pending:
            if stopping():
                return False
            seconds = label_chunk(job)
            if on_done is not None:
                on_done(job, seconds)
        return True
    queue = list(pending)
    with ProcessPool(min(workers, len(pending)), name="searchlab-labelling") as pool:
        while queue or pool.busy:
            if stopping():
                pool.terminate()
                return False
            while queue and pool.idle:
                pool.submit(_labelled, queue.pop(0))
            for job, seconds in pool.finished(timeout=0.2):
                if on_done is not None:
                    on_done(job, seconds)
    return True


def _labelled(job: ChunkJob) -> tuple[ChunkJob, float]:
    """:func:`label_chunk` in a worker of the pool, with the job it labelled."""
    return job, label_chunk(job)


def held_out_keys(path: str | Path) -> frozenset[int]:
    """The position keys of a file of positions (Pons' format, or one move string per line) or
    of a folder's such files (those with no suffix or ``.txt``: not its README), with their
    mirror images: positions no network should be
    trained on because it is measured on them (Pons' test sets).

    A file that cannot be read, or a line that is no legal move string, is one
    ``InvalidParameterError`` naming the file and line.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "test").write_text("4455 18\\n1\\n")
    >>> _ = (folder / "README.md").write_text("# not positions")
    >>> keys = held_out_keys(folder)
    >>> len(keys), parse_moves("7").key() in keys  # 4455, its mirror 4433; 1 and its mirror 7
    (4, True)
    """
    source = Path(path)
    try:
        files = (
            sorted(p for p in source.iterdir() if p.is_file() and p.suffix in ("", ".txt"))
            if source.is_dir()
            else [source]
        )
        keys: set[int] = set()
        for file in files:
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                moves = line.split()[0]
                try:
                    keys |= position_keys(moves)
                except SearchlabError as error:
                    raise InvalidParameterError(
                        f"held-out positions: {file} line {number}: {error}"
                    ) from None
    except OSError as error:
        raise InvalidParameterError(
            f"held-out positions: cannot read {source}: {error.strerror or error}"
        ) from None
    return frozenset(keys)


def position_keys(moves: str) -> set[int]:
    """The keys of the position after ``moves`` (Pons' notation) and of its mirror image.

    >>> position_keys("1") == {parse_moves("1").key(), parse_moves("7").key()}
    True
    >>> len(position_keys("4"))  # the centre column is its own mirror
    1
    """
    return {parse_moves(moves).key(), parse_moves(moves.translate(_MIRROR)).key()}


_MIRROR = str.maketrans("1234567", "7654321")


def merge_chunks(
    paths: Sequence[str | Path],
    repeats: Sequence[int] | None = None,
) -> ExpertPositions:
    """The chunks' positions in chunk order, each position once (its first labelling), or
    ``repeats[i]`` times for a position first met in chunk ``i`` (to weight a scarce kind of
    position in training).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> jobs = [ChunkJob(k, 2, seed=7, path=str(folder / f"c{k}.npz"), min_ply=24)
    ...         for k in range(2)]  # the same seed twice: the same two positions
    >>> label_chunks(jobs)
    True
    >>> len(merge_chunks([j.path for j in jobs])), len(merge_chunks([j.path for j in jobs], [3, 1]))
    (2, 6)
    """
    if repeats is None:
        repeats = [1] * len(paths)
    if len(repeats) != len(paths) or any(r < 1 for r in repeats):
        raise ValueError(f"merge_chunks: one repeat >= 1 per chunk, got {list(repeats)!r}")
    moves: list[str] = []
    outcomes: list[np.ndarray] = []
    seen: set[str] = set()
    skipped = 0
    for path, repeat in zip(paths, repeats, strict=True):
        chunk = ExpertPositions.load(path)
        skipped += chunk.skipped
        for line, labels in zip(chunk.moves, chunk.outcomes, strict=True):
            if line not in seen:
                seen.add(line)
                moves.extend([line] * repeat)
                outcomes.extend([labels] * repeat)
    stacked = np.stack(outcomes) if outcomes else np.zeros((0, 7), dtype=np.int8)
    return ExpertPositions(tuple(moves), stacked, skipped)
