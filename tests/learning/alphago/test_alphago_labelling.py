"""Expert data in chunks: the same data for any number of workers, a lost chunk is labelled
again (and only it), a stop request stops, the merge keeps each position once."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from searchlab.learning.alphago.data import ExpertPositions
from searchlab.learning.alphago.labelling import ChunkJob, label_chunks, merge_chunks


def _jobs(folder: Path, chunks: int = 3) -> list[ChunkJob]:
    return [
        ChunkJob(k, 6, seed=100 + k, path=str(folder / f"train-{k}.npz"), min_ply=22)
        for k in range(chunks)
    ]


def _data(jobs: list[ChunkJob]) -> list[tuple[tuple[str, ...], list[list[int]]]]:
    loaded = [ExpertPositions.load(job.path) for job in jobs]
    return [(d.moves, d.outcomes.tolist()) for d in loaded]


def test_workers_make_the_same_data_as_one_process(tmp_path: Path) -> None:
    alone, pooled = tmp_path / "alone", tmp_path / "pooled"
    alone.mkdir(), pooled.mkdir()
    done: list[int] = []
    assert label_chunks(_jobs(alone), workers=1, on_done=lambda job, s: done.append(job.index))
    assert label_chunks(_jobs(pooled), workers=2)
    assert sorted(done) == [0, 1, 2]
    assert _data(_jobs(alone)) == _data(_jobs(pooled))


def test_a_missing_chunk_is_labelled_again_and_only_it(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path)
    assert label_chunks(jobs)
    before = _data(jobs)
    Path(jobs[1].path).unlink()
    stray = tmp_path / ".train-1.npz.999.tmp"  # what a worker killed mid-write leaves
    stray.write_bytes(b"half")
    redone: list[int] = []
    assert label_chunks(jobs, on_done=lambda job, seconds: redone.append(job.index))
    assert redone == [1] and _data(jobs) == before and not stray.exists()


def test_a_stop_request_stops_before_the_next_chunk(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path)
    assert label_chunks(jobs, workers=1, should_stop=lambda: True) is False
    assert not any(Path(job.path).exists() for job in jobs)
    assert label_chunks(jobs, workers=2, should_stop=lambda: True) is False


def test_merge_keeps_each_position_once_in_chunk_order(tmp_path: Path) -> None:
    first = ExpertPositions(("44", "4455"), np.zeros((2, 7), np.int8), skipped=1)
    second = ExpertPositions(("4455", "1"), np.ones((2, 7), np.int8), skipped=2)
    paths = [first.save(tmp_path / "a.npz"), second.save(tmp_path / "b.npz")]
    merged = merge_chunks(paths)
    assert merged.moves == ("44", "4455", "1") and merged.skipped == 3
    assert merged.outcomes[1].tolist() == [0] * 7  # the first labelling is kept
