"""AlphaGo's supervised stage on Go: a policy network by classification of expert moves.

Silver et al. (2016) trained the **SL policy network** :math:`p_\\sigma(a \\mid s)` on 30
million positions of human games, "to maximise the likelihood of the human move selected in
state s", by stochastic gradient ascent on :math:`\\log p_\\sigma(a \\mid s)`, each minibatch
drawn under one of the 8 symmetries of the board. Here the expert is any folder of SGF records
(:mod:`~searchlab.learning.alphago.expert_games`: GNU Go's games from ``searchlab expert go``, or a
person's own collection):

* :func:`expert_positions` replays the games once and keeps, for every move the expert chose,
  the position's planes (:class:`~searchlab.learning.networks.encoders.GoEncoder`, as bytes), the
  move (an index over the ``size * size`` points and the pass) and the game's outcome for the player
  to move; the held-out games (by :func:`~searchlab.learning.alphago.expert_games.is_held_out`, so
  never a position of a training game) make a second set. :class:`GoPositions` saves and
  loads them (``.npz``).
* :func:`fit_sl_policy` trains a :class:`~searchlab.learning.networks.network.PolicyValueNet`'s
  policy head by the cross-entropy of the masked softmax to the expert's move (each minibatch under
  a symmetry drawn from the seed), optionally its value head too by the squared error to the
  outcome (``value_weight``; AlphaGo's value network learned from self-play instead, which is
  the RL stage's job), resumable epoch by epoch.
* :func:`move_accuracy` is the paper's measure: how often the network's most probable legal
  move is the expert's, on positions it did not learn from (57.0% for AlphaGo's 13-layer
  network on human 19x19 games).

>>> import tempfile
>>> from pathlib import Path
>>> from searchlab.domains.games.go import Go
>>> from searchlab.domains.games.go.sgf import write_sgf
>>> from searchlab.learning.networks.encoders import GoEncoder
>>> from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet
>>> folder = Path(tempfile.mkdtemp())
>>> state = Go(5, komi=0.5).initial_state()
>>> for vertex in ["C3", "C4", "D4", "pass", "pass"]:
...     state = state.apply(state.string_to_action(vertex))
>>> _ = (folder / "one.sgf").write_text(write_sgf(state, metadata={"RE": "B+2.5"}))
>>> encoder = GoEncoder(5, features="liberties")
>>> train, held_out = expert_positions(folder, encoder, holdout=0.0)
>>> len(train), len(held_out), train.moves.tolist(), train.outcomes.tolist()
(5, 0, [12, 17, 18, 25, 25], [1, -1, 1, -1, 1])
>>> net = PolicyValueNet(encoder.shape, encoder.num_actions,
...                      NetworkConfig(kind="mlp", blocks=1, hidden=64), seed=0)
>>> losses = fit_sl_policy(net, train, epochs=100, batch_size=5, learning_rate=3e-3, seed=0)
>>> losses[-1] < losses[0] / 3, move_accuracy(net, train) >= 0.8
(True, True)
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from searchlab.core.atomic_file import write_atomically
from searchlab.core.checks import check_number
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphago.expert_games import (
    ExpertGame,
    ExpertGameError,
    is_held_out,
    read_expert_game,
)
from searchlab.learning.alphago.fit import EpochHook, _check_fit, _fit
from searchlab.learning.networks.encoders import GoEncoder
from searchlab.learning.networks.network import PolicyValueNet, masked_log_softmax

__all__ = [
    "GoPositions",
    "expert_positions",
    "fit_sl_policy",
    "legal_mask_of_planes",
    "move_accuracy",
]


@dataclass(frozen=True, slots=True)
class GoPositions:
    """Positions of expert games: ``planes`` ``uint8 [N, C, n, n]`` (the encoder's planes,
    every value 0 or 1), ``moves`` ``int16 [N]`` (the expert's move: ``row * n + col``, or
    ``n * n`` for the pass), ``outcomes`` ``int8 [N]`` (+1 the player to move won, -1 lost, 0
    no winner recorded), and ``features``: the encoder's feature set."""

    planes: np.ndarray
    moves: np.ndarray
    outcomes: np.ndarray
    features: str = "basic"

    def __post_init__(self) -> None:
        count = len(self.planes)
        if self.planes.ndim != 4 or len(self.moves) != count or len(self.outcomes) != count:
            raise InvalidParameterError(
                f"GoPositions: {count} planes, {len(self.moves)} moves and "
                f"{len(self.outcomes)} outcomes (they must agree, planes [N, C, n, n])"
            )

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def size(self) -> int:
        """The board's side."""
        return int(self.planes.shape[-1])

    def encoder(self) -> GoEncoder:
        """The encoder that made the planes."""
        return GoEncoder(self.size, features=self.features)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the positions to ``path`` (``.npz``, atomically); return the path."""
        target = Path(path)
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            planes=self.planes,
            moves=self.moves,
            outcomes=self.outcomes,
            features=np.array(self.features),
        )
        write_atomically(target, buffer.getvalue())
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GoPositions:
        """Read positions written by :meth:`save`; a file that is not one is one line."""
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(
                    np.asarray(data["planes"], dtype=np.uint8),
                    np.asarray(data["moves"], dtype=np.int16),
                    np.asarray(data["outcomes"], dtype=np.int8),
                    str(data["features"]),
                )
        except (OSError, KeyError, ValueError) as error:
            raise InvalidParameterError(f"{path}: not a file of Go positions ({error})") from None


def _game_rows(game: ExpertGame, encoder: GoEncoder) -> Iterator[tuple[np.ndarray, int, int]]:
    for state, move, outcome in game.positions():
        yield encoder.encode(state).astype(np.uint8), int(move), int(outcome)


def _stack(rows: list[tuple[np.ndarray, int, int]], encoder: GoEncoder) -> GoPositions:
    if not rows:
        empty = np.zeros((0, *encoder.shape), dtype=np.uint8)
        return GoPositions(empty, np.zeros(0, np.int16), np.zeros(0, np.int8), encoder.features)
    planes, moves, outcomes = zip(*rows, strict=True)
    return GoPositions(
        np.stack(planes),
        np.asarray(moves, dtype=np.int16),
        np.asarray(outcomes, dtype=np.int8),
        encoder.features,
    )


def expert_positions(
    folder: str | os.PathLike[str],
    encoder: GoEncoder,
    *,
    holdout: float = 0.1,
    seed: int = 0,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[GoPositions, GoPositions]:
    """``(train, held_out)``: the positions of the ``*.sgf`` games in ``folder`` (read in
    file-name order, at most ``limit`` games), each game in one part by
    :func:`~searchlab.learning.alphago.expert_games.is_held_out` ``(key, holdout, seed)``: the split
    :func:`~searchlab.learning.alphago.expert_games.load_expert_games` makes, one game in memory at
    a time. A malformed record, an illegal move or a game on another board is one line naming the
    file. ``progress(games_read, games)`` is called after each game."""
    check_number(holdout, "holdout", owner="expert_positions", low=0.0, high=1.0)
    where = Path(folder)
    if not where.is_dir():
        raise ExpertGameError(f"{where}: no such folder of expert games")
    paths = sorted(path for path in where.glob("*.sgf") if path.is_file())
    if limit is not None:
        paths = paths[:limit]
    if not paths:
        raise ExpertGameError(f"{where}: no SGF file (*.sgf) in the folder")
    parts: tuple[list[Any], list[Any]] = ([], [])
    for number, path in enumerate(paths, 1):
        game = read_expert_game(path, size=encoder.size)
        parts[is_held_out(game.key, holdout, seed)].extend(_game_rows(game, encoder))
        if progress is not None:
            progress(number, len(paths))
    return _stack(parts[0], encoder), _stack(parts[1], encoder)


def legal_mask_of_planes(planes: np.ndarray) -> np.ndarray:
    """``bool [N, n*n + 1]``: the points a move may be tried on, read from the planes (empty
    and not the basic ko's point; the pass always). Suicide and superko are not in the planes:
    a network's rare choice of such a point is one the game refuses."""
    count, size = len(planes), planes.shape[-1]
    occupied = (planes[:, 0] + planes[:, 1] + planes[:, 4]).reshape(count, size * size)
    return np.concatenate([occupied == 0, np.ones((count, 1), dtype=bool)], axis=1)


def _check_positions(data: GoPositions, net: PolicyValueNet) -> None:
    if len(data) == 0:
        raise InvalidParameterError("fit_sl_policy: no positions to learn from")
    if tuple(net.shape) != tuple(data.planes.shape[1:]):
        raise InvalidParameterError(
            f"fit_sl_policy: the network reads planes {tuple(net.shape)}, the positions have "
            f"{tuple(data.planes.shape[1:])} (features {data.features!r})"
        )


def fit_sl_policy(
    net: PolicyValueNet,
    data: GoPositions,
    *,
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    final_lr_fraction: float = 0.05,
    weight_decay: float = 1e-4,
    value_weight: float = 0.0,
    seed: int = 0,
    start_epoch: int = 0,
    optimiser_state: dict[str, Any] | None = None,
    on_epoch: EpochHook | None = None,
) -> list[float]:
    """Train ``net`` (in place) to the expert's moves of ``data``; return the mean loss of each
    epoch run.

    The loss is the cross-entropy of the policy's softmax over the points a move may be tried
    on (:func:`legal_mask_of_planes`) to the expert's move, plus ``value_weight`` times the
    value head's squared error to the game's outcome. Each minibatch is seen under one of the
    8 symmetries of the board, drawn from ``(seed, epoch)`` with the minibatch order; Adam, the
    learning rate on a cosine to ``final_lr_fraction`` of ``learning_rate``, so a fit stopped
    after an epoch and resumed with ``start_epoch``, the weights and ``optimiser_state`` ends
    where an unbroken one does. ``on_epoch(epochs_done, mean_loss, optimiser)`` returning true
    stops after that epoch."""
    _check_fit(epochs, batch_size, learning_rate)
    _check_positions(data, net)
    if not 0.0 <= value_weight < math.inf:
        raise InvalidParameterError(f"fit: value_weight must be >= 0, got {value_weight!r}")
    symmetries = data.encoder().symmetries()
    planes = torch.from_numpy(data.planes)
    mask = torch.from_numpy(legal_mask_of_planes(data.planes))
    moves = torch.from_numpy(data.moves.astype(np.int64))
    outcomes = torch.from_numpy(data.outcomes.astype(np.float32))
    cell_sources = [torch.from_numpy(s.cell_source) for s in symmetries]
    action_sources = [torch.from_numpy(s.action_source) for s in symmetries]
    action_images = [torch.from_numpy(s.action_image) for s in symmetries]
    count, size = len(data), data.size
    draw = {"rng": np.random.default_rng([seed, start_epoch, 1])}

    def loss_of(index: torch.Tensor) -> torch.Tensor:
        k = int(draw["rng"].integers(len(symmetries)))
        x = planes[index].float().reshape(len(index), -1, size * size)[:, :, cell_sources[k]]
        logits, value = net(x.reshape(len(index), -1, size, size))
        legal = mask[index][:, action_sources[k]]
        target = action_images[k][moves[index]]
        log_p = masked_log_softmax(logits, legal)
        loss = -log_p.gather(1, target[:, None]).mean()
        if value_weight > 0.0:
            loss = loss + value_weight * torch.mean((outcomes[index] - value) ** 2)
        return loss

    def each_epoch(done: int, loss: float, optimiser: torch.optim.Optimizer) -> bool:
        draw["rng"] = np.random.default_rng([seed, done, 1])
        return bool(on_epoch(done, loss, optimiser)) if on_epoch is not None else False

    return _fit(
        net,
        count,
        loss_of,
        epochs,
        batch_size,
        learning_rate,
        weight_decay,
        seed,
        final_lr_fraction=final_lr_fraction,
        start_epoch=start_epoch,
        optimiser_state=optimiser_state,
        on_epoch=each_epoch,
    )


def move_accuracy(net: PolicyValueNet, data: GoPositions, *, batch_size: int = 1024) -> float:
    """The share of ``data``'s positions where the network's most probable move (among the
    points a move may be tried on, and the pass) is the expert's: the SL policy's measure."""
    if len(data) == 0:
        raise InvalidParameterError("move_accuracy: no positions")
    right = 0
    training = net.training
    net.eval()
    try:
        with torch.inference_mode():
            for start in range(0, len(data), batch_size):
                part = slice(start, start + batch_size)
                logits, _ = net(torch.from_numpy(data.planes[part]).float())
                legal = torch.from_numpy(legal_mask_of_planes(data.planes[part]))
                chosen = logits.masked_fill(~legal, -math.inf).argmax(1).numpy()
                right += int((chosen == data.moves[part]).sum())
    finally:
        net.train(training)
    return right / len(data)
