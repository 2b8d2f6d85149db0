"""The training directory: everything a run needs to stop at any moment and go on later.

Layout of ``DIR``::

    run.json             the game (name, parameters) and the format; written once
    config.toml          the run's TrainConfig (every key); written once
    train.log            one line per event, appended
    latest.pt            the newest generation, with the optimiser's state (a run resumes from it)
    best.pt              the best generation so far by the run's own measure (alphazero.merit)
    checkpoints/         gen-NNNN.pt: the newest N generations with keep_checkpoints = N (none
                         by default), every one with keep_checkpoints = "all"
    games/               games-FIRST-END-gGEN.npz: the samples of self-play games FIRST..END-1,
                         played by generation GEN (a chunk, see replay.SampleBlock)
    progress.json        the per-generation figures (losses, Elo, scores, mistake rate)
    progress.png         the picture of progress.json

**Atomic, and counted once.** Every file but the log is written to a temporary file in the same
folder, flushed to disk and renamed over its name (``os.replace``): a kill leaves the old file or
the new one, never half of one. A finished chunk of games is one such file, named by its game
ids; ids are handed out in order and a generation's range is fixed before its games are played,
so a game is stored at most once, and a resumed run plays exactly the chunks that have no file
(the games are seeded by their id: the same games as the uninterrupted run would have played).
``latest.pt`` records the generation and the first game id of its self-play, the optimiser's
state and the progress so far; ``progress.json`` is rewritten from it. A chunk killed before its
file was renamed is simply played again.

>>> import tempfile
>>> from searchlab.learning.alphazero.train_config import config_for
>>> folder = tempfile.mkdtemp()
>>> run = RunDirectory.open(folder, "tictactoe", {}, config_for("tictactoe"))
>>> sorted(p.name for p in run.path.iterdir())
['config.toml', 'run.json', 'train.log']
>>> RunDirectory.open(folder, "connect4", {}, None)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: ... holds a training run of tictactoe, not connect4
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.learning.alphazero.replay import SampleBlock, load_block, save_block
from searchlab.learning.alphazero.train_config import (
    TrainConfig,
    config_for,
    config_to_toml,
    parse_config_text,
)

__all__ = ["ChunkFile", "RunDirectory", "write_atomically"]

FORMAT = 1
_CHUNK = re.compile(r"^games-(\d{8,})-(\d{8,})-g(\d{4,})\.npz$")


@dataclass(frozen=True, slots=True)
class ChunkFile:
    """A stored chunk of games: ids ``first .. end - 1`` played by ``generation``."""

    path: Path
    first: int
    end: int
    generation: int


class RunDirectory:
    """A training directory (see the module). Make one with :meth:`open`."""

    def __init__(
        self, path: Path, game_name: str, game_params: dict[str, Any], config: TrainConfig
    ) -> None:
        self.path = path
        self.game_name = game_name
        self.game_params = game_params
        self.config = config

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        folder: str | os.PathLike[str],
        game_name: str,
        game_params: dict[str, Any],
        config: TrainConfig | None,
    ) -> RunDirectory:
        """Start a run in ``folder`` (missing or empty) or reopen the run there.

        A new run needs ``config`` (``None``: the game's defaults). Reopening checks the game
        and, when ``config`` is given, that it is the run's own config (a run cannot change its
        settings half-way: start another directory). Raises ``InvalidParameterError`` (one
        line) for a folder that is a file, holds something else, or another game's run.
        """
        path = Path(folder)
        if path.exists() and not path.is_dir():
            raise InvalidParameterError(f"--out {str(path)!r} is a file, not a folder")
        marker = path / "run.json"
        if marker.exists():
            run = cls._reopen(path, game_name, game_params)
            if config is not None and config != run.config:
                changed = [
                    key
                    for key, value in config.to_dict().items()
                    if run.config.to_dict()[key] != value
                ]
                raise InvalidParameterError(
                    f"{path}: this run was started with other settings ({', '.join(changed)}); "
                    "resume it without --config/--seed changes, or train into a new folder"
                )
            run._clean()
            return run
        # a start killed before run.json (the mark, written last) left at most these
        started = {"config.toml", "train.log"}
        if path.exists() and any(
            not p.name.startswith(".") and p.name not in started for p in path.iterdir()
        ):
            raise InvalidParameterError(
                f"--out {str(path)!r} is not empty and holds no training run (no run.json): "
                "give a new or empty folder"
            )
        config = config if config is not None else config_for(game_name)
        path.mkdir(parents=True, exist_ok=True)
        run = cls(path, game_name, dict(game_params), config)
        write_atomically(path / "config.toml", config_to_toml(config).encode())
        (path / "train.log").touch()
        info = {"format": FORMAT, "game": game_name, "game_params": game_params}
        write_atomically(marker, (json.dumps(info, indent=1) + "\n").encode())  # last: the mark
        run._clean()  # what an earlier start, killed, left behind
        return run

    @classmethod
    def _reopen(cls, path: Path, game_name: str, game_params: dict[str, Any]) -> RunDirectory:
        try:
            info = json.loads((path / "run.json").read_text())
            stored = config_for(
                info["game"],
                {k: v for k, v in parse_config_text((path / "config.toml").read_text()).items()},
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise InvalidStateError(f"{path}: damaged training directory ({error})") from None
        except InvalidParameterError as error:
            raise InvalidStateError(f"{path}/config.toml: {error}") from None
        if info.get("format") != FORMAT:
            raise InvalidStateError(
                f"{path}: training directory format {info.get('format')!r}, expected {FORMAT}"
            )
        if info["game"] != game_name or dict(info["game_params"]) != dict(game_params):
            given = _describe(game_name, game_params)
            raise InvalidParameterError(
                f"{path} holds a training run of {_describe(info['game'], info['game_params'])}, "
                f"not {given}"
            )
        return cls(path, info["game"], dict(info["game_params"]), stored)

    def _clean(self) -> None:
        """Remove temporary files a kill left behind."""
        for folder in (self.path, self.path / "checkpoints", self.path / "games"):
            if folder.is_dir():
                for leftover in folder.glob(".*.tmp"):
                    with contextlib.suppress(OSError):
                        leftover.unlink()

    # --- files ----------------------------------------------------------------------------------

    @property
    def latest_path(self) -> Path:
        """``DIR/latest.pt``."""
        return self.path / "latest.pt"

    @property
    def best_path(self) -> Path:
        """``DIR/best.pt``."""
        return self.path / "best.pt"

    def generation_path(self, generation: int) -> Path:
        """``DIR/checkpoints/gen-NNNN.pt``."""
        folder = self.path / "checkpoints"
        folder.mkdir(exist_ok=True)
        return folder / f"gen-{generation:04d}.pt"

    def prune_checkpoints(self, keep_after: int) -> None:
        """Delete the files ``checkpoints/gen-NNNN.pt`` of the generations up to ``keep_after``
        (the generations after it stay)."""
        folder = self.path / "checkpoints"
        if not folder.is_dir():
            return
        for item in folder.glob("gen-*.pt"):
            number = item.name[len("gen-") : -len(".pt")]
            if number.isdigit() and int(number) <= keep_after:
                with contextlib.suppress(FileNotFoundError):
                    item.unlink()

    def chunks(self) -> list[ChunkFile]:
        """The stored chunks of games, by first id."""
        folder = self.path / "games"
        if not folder.is_dir():
            return []
        found = []
        for item in folder.iterdir():
            match = _CHUNK.match(item.name)
            if match:
                first, end, generation = (int(g) for g in match.groups())
                found.append(ChunkFile(item, first, end, generation))
        found.sort(key=lambda chunk: chunk.first)
        for before, after in itertools.pairwise(found):
            if after.first < before.end:
                raise InvalidStateError(
                    f"{self.path}: games {after.first}..{before.end - 1} stored twice "
                    f"({before.path.name}, {after.path.name})"
                )
        return found

    def save_chunk(self, block: SampleBlock) -> Path:
        """Store a finished chunk of games (atomically, named by its ids)."""
        folder = self.path / "games"
        folder.mkdir(exist_ok=True)
        name = f"games-{block.first_game:08d}-{block.end_game:08d}-g{block.generation:04d}.npz"
        return save_block(folder / name, block)

    def load_chunk(self, chunk: ChunkFile) -> SampleBlock:
        """The samples of a stored chunk."""
        block = load_block(chunk.path)
        if (block.first_game, block.end_game) != (chunk.first, chunk.end):
            raise InvalidStateError(
                f"{chunk.path}: holds games {block.first_game}..{block.end_game - 1}"
            )
        return block

    def prune(self, keep_from: int) -> None:
        """Delete the chunks whose games all come before id ``keep_from`` (out of the window)."""
        for chunk in self.chunks():
            if chunk.end <= keep_from:
                with contextlib.suppress(FileNotFoundError):
                    chunk.path.unlink()

    def write_progress(self, entries: list[dict[str, Any]], summary: dict[str, Any]) -> None:
        """Rewrite ``progress.json`` (atomically)."""
        data = {
            "game": self.game_name,
            "game_params": self.game_params,
            **summary,
            "generations": entries,
        }
        write_atomically(self.path / "progress.json", (json.dumps(data, indent=1) + "\n").encode())

    def read_progress(self) -> dict[str, Any]:
        """``progress.json`` (empty generations when there is none yet)."""
        try:
            return dict(json.loads((self.path / "progress.json").read_text()))
        except FileNotFoundError:
            return {"generations": []}

    def log(self, message: str) -> None:
        """Append one time-stamped line to ``train.log``."""
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with open(self.path / "train.log", "a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {message}\n")


def _describe(name: str, params: dict[str, Any]) -> str:
    if not params:
        return name
    return name + " (" + ", ".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
