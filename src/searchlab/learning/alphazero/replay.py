"""The replay window: the training positions of the most recent self-play games.

AlphaZero trains each new network on positions drawn from the last games its predecessors
played (Silver et al. 2018 keep the last 500,000 games; a small run keeps a few thousand).
Self-play hands over finished games (:class:`~searchlab.learning.alphazero.selfplay.GameRecord`);
the window keeps, per sample, the planes, the search's policy target, the **legal mask** of the
position (recovered by replaying the game's moves, so that the loss can mask the network's
policy exactly as play does), the value target ``z`` and the id of the game it came from.

:meth:`ReplayWindow.minibatch` draws positions uniformly from the window with a seeded
generator and, with ``augment=True``, carries each one through a random symmetry of the board
(:meth:`~searchlab.learning.networks.encoder.Encoder.symmetries`): planes, policy and mask together,
so the network sees every equivalent position (AlphaGo Zero's augmentation).

:class:`SampleBlock` is the storage unit: the samples of a run of consecutive games
(``first_game`` .. ``end_game - 1``) as arrays, saved to and loaded from one ``.npz`` file
(:func:`save_block` writes atomically), which is how a training directory appends finished
games once each (:mod:`~searchlab.learning.alphazero.run_dir`).

>>> import numpy as np
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.learning.alphazero.selfplay import GameRecord, Sample
>>> game, encoder = TicTacToe(), encoder_for(TicTacToe())
>>> state = game.initial_state()
>>> policy = np.full(9, 1 / 9, dtype=np.float32)
>>> record = GameRecord(index=0, actions=(4,), outcome=(0.0, 0.0), resigned_by=None,
...     resignation_disabled=False, would_resign=(None, None), full_searches=(True,),
...     root_values=(0.0,), samples=(Sample(encoder.encode(state), policy, 0.0, 0, 0),))
>>> block = block_from_records(game, encoder, [record], generation=0)
>>> block.size, block.first_game, block.end_game, bool(block.masks.all())
(1, 0, 1, True)
>>> window = ReplayWindow(capacity_games=10)
>>> window.add(block)
>>> batch = window.minibatch(4, np.random.default_rng(0), encoder.symmetries())
>>> batch.planes.shape, batch.policies.shape, batch.values.shape
((4, 3, 3, 3), (4, 9), (4,))
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.core.errors import InvalidParameterError, InvalidStateError
from searchlab.core.game import Game
from searchlab.learning.networks.encoder import Encoder, Symmetry

__all__ = [
    "Minibatch",
    "ReplayWindow",
    "SampleBlock",
    "block_from_records",
    "load_block",
    "save_block",
]


@dataclass(frozen=True, eq=False)
class SampleBlock:
    """The samples of games ``first_game .. end_game - 1``, played by ``generation``.

    Attributes:
        first_game, end_game: the games' ids (a half-open range; every id in it is in the block).
        generation: the network generation that played them.
        planes: float32 ``[N, C, H, W]``; policies: float32 ``[N, A]``; masks: bool ``[N, A]``;
        values: float32 ``[N]``; games: int64 ``[N]``, the game id of each sample.
    """

    first_game: int
    end_game: int
    generation: int
    planes: np.ndarray
    policies: np.ndarray
    masks: np.ndarray
    values: np.ndarray
    games: np.ndarray

    @property
    def size(self) -> int:
        """The number of samples."""
        return len(self.values)

    @property
    def game_count(self) -> int:
        """The number of games."""
        return self.end_game - self.first_game


def block_from_records(
    game: Game, encoder: Encoder, records: Sequence[Any], *, generation: int
) -> SampleBlock:
    """The samples of consecutive self-play ``records`` (ids without a gap) as one block.

    Each sample's legal mask comes from replaying its game's moves up to the sample's ply.
    Raises ``InvalidParameterError`` for no records or ids that are not consecutive.
    """
    if not records:
        raise InvalidParameterError("replay: a block needs at least one game")
    ids = [int(record.index) for record in records]
    if ids != list(range(ids[0], ids[0] + len(ids))):
        raise InvalidParameterError(f"replay: the games of a block must be consecutive, got {ids}")
    planes, policies, masks, values, games = [], [], [], [], []
    for record in records:
        wanted = {sample.ply: sample for sample in record.samples}
        state = game.initial_state()
        for ply in range(len(record.actions) + 1):
            sample = wanted.get(ply)
            if sample is not None:
                planes.append(sample.planes)
                policies.append(sample.policy)
                masks.append(encoder.legal_mask(state))
                values.append(sample.value)
                games.append(record.index)
            if ply < len(record.actions):
                state = state.apply(record.actions[ply])
    shape = tuple(encoder.shape)
    actions = encoder.num_actions
    return SampleBlock(
        first_game=ids[0],
        end_game=ids[-1] + 1,
        generation=int(generation),
        planes=np.asarray(planes, dtype=np.float32).reshape(-1, *shape),
        policies=np.asarray(policies, dtype=np.float32).reshape(-1, actions),
        masks=np.asarray(masks, dtype=bool).reshape(-1, actions),
        values=np.asarray(values, dtype=np.float32),
        games=np.asarray(games, dtype=np.int64),
    )


def save_block(path: str | os.PathLike[str], block: SampleBlock) -> Path:
    """Write ``block`` to ``path`` (``.npz``) atomically: a temporary file in the same folder,
    flushed to disk, then renamed over ``path``; a crash leaves the old file or none."""
    target = Path(path)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        header=np.array([block.first_game, block.end_game, block.generation], dtype=np.int64),
        planes=block.planes,
        policies=block.policies,
        masks=block.masks,
        values=block.values,
        games=block.games,
    )
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(buffer.getvalue())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    finally:
        if temporary.exists():
            temporary.unlink()
    return target


def load_block(path: str | os.PathLike[str]) -> SampleBlock:
    """The block saved at ``path``; ``InvalidStateError`` (one line) for a damaged file."""
    source = Path(path)
    try:
        with np.load(source, allow_pickle=False) as data:
            first, end, generation = (int(v) for v in data["header"])
            block = SampleBlock(
                first_game=first,
                end_game=end,
                generation=generation,
                planes=data["planes"],
                policies=data["policies"],
                masks=data["masks"],
                values=data["values"],
                games=data["games"],
            )
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise InvalidStateError(f"replay file {source} is damaged: {error}") from None
    sizes = {len(block.planes), len(block.policies), len(block.masks), len(block.games)}
    if sizes != {block.size} or (block.size and not first <= block.games.min() <= end):
        raise InvalidStateError(f"replay file {source} is damaged: inconsistent arrays")
    return block


@dataclass(frozen=True, eq=False)
class Minibatch:
    """Arrays for one training step: planes ``[B, C, H, W]``, policies ``[B, A]``, masks
    ``[B, A]``, values ``[B]``."""

    planes: np.ndarray
    policies: np.ndarray
    masks: np.ndarray
    values: np.ndarray


class ReplayWindow:
    """The samples of the last ``capacity_games`` games added (older blocks drop out whole
    once every one of their games is older than the window).

    Raises ``InvalidParameterError`` for a capacity below 1.
    """

    def __init__(self, capacity_games: int) -> None:
        if isinstance(capacity_games, bool) or not isinstance(capacity_games, int):
            raise InvalidParameterError(
                f"replay: capacity_games must be an integer, got {capacity_games!r}"
            )
        if capacity_games < 1:
            raise InvalidParameterError(
                f"replay: capacity_games must be >= 1, got {capacity_games}"
            )
        self.capacity_games = capacity_games
        self.blocks: list[SampleBlock] = []
        self._arrays: tuple[np.ndarray, ...] | None = None

    def add(self, block: SampleBlock) -> None:
        """Add a block of games (ids after every block already in); drop blocks that left."""
        if self.blocks and block.first_game < self.blocks[-1].end_game:
            raise InvalidParameterError(
                f"replay: games {block.first_game}.. are not after the window's last game "
                f"{self.blocks[-1].end_game - 1}"
            )
        self.blocks.append(block)
        oldest = self.end_game - self.capacity_games
        self.blocks = [b for b in self.blocks if b.end_game > oldest]
        self._arrays = None

    def extend(self, blocks: Iterable[SampleBlock]) -> None:
        """Add blocks in order of their games."""
        for block in sorted(blocks, key=lambda b: b.first_game):
            self.add(block)

    @property
    def end_game(self) -> int:
        """One past the newest game's id (0 when empty)."""
        return self.blocks[-1].end_game if self.blocks else 0

    @property
    def first_game(self) -> int:
        """The id of the oldest game whose samples are in the window."""
        return (
            max(self.blocks[0].first_game, self.end_game - self.capacity_games)
            if self.blocks
            else 0
        )

    def __len__(self) -> int:
        return len(self._all()[3])

    def _all(self) -> tuple[np.ndarray, ...]:
        if self._arrays is None:
            if not self.blocks:
                raise InvalidStateError("replay: the window is empty")
            keep = [b.games >= self.first_game for b in self.blocks]
            self._arrays = tuple(
                np.concatenate(
                    [getattr(b, name)[k] for b, k in zip(self.blocks, keep, strict=True)]
                )
                for name in ("planes", "policies", "masks", "values")
            )
        return self._arrays

    def minibatch(
        self, size: int, rng: np.random.Generator, symmetries: Sequence[Symmetry] | None = None
    ) -> Minibatch:
        """``size`` samples drawn uniformly (with replacement) by ``rng``; each carried through
        one of ``symmetries`` drawn uniformly (none when ``None``)."""
        planes, policies, masks, values = self._all()
        rows = rng.integers(0, len(values), size=size)
        out_planes, out_policies, out_masks = planes[rows], policies[rows], masks[rows]
        if symmetries and len(symmetries) > 1:
            which = rng.integers(0, len(symmetries), size=size)
            for index, symmetry in enumerate(symmetries):
                chosen = which == index
                if index == 0 or not chosen.any():
                    continue
                out_planes[chosen] = symmetry.apply_planes(out_planes[chosen])
                out_policies[chosen] = symmetry.apply_policy(out_policies[chosen])
                out_masks[chosen] = symmetry.apply_policy(out_masks[chosen])
        return Minibatch(out_planes, out_policies, out_masks, values[rows].copy())
