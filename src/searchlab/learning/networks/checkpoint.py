"""Checkpoints: a network's weights with what they mean, written atomically, refused in one line
when they do not fit.

A checkpoint records the game (its name and the parameters that shape the planes, such as
Gomoku's board size), the encoder (its version, plane shape, number of action indices and,
for an encoder with a choice of them, its input features), the
architecture (:class:`~searchlab.learning.networks.network.NetworkConfig`), the weights, and
``extra`` plain data of the caller's (a generation number, an optimiser's state).
:func:`load_checkpoint` refuses, with one :class:`CheckpointError` line naming the file and the
problem, a checkpoint of another game or board, of another encoder version, of another architecture
than the one asked for, and a file that is missing, not a checkpoint, truncated or corrupt.

**File format.** One line ``searchlab-checkpoint``, one line ``format 1 sha256 HEX bytes N``,
then ``N`` bytes written by ``torch.save``: a dict of plain data and tensors, read back with
``torch.load(weights_only=True)`` (no code runs while loading). The SHA-256 catches a flipped
byte anywhere in the weights; the byte count tells truncation from corruption.

**Atomic writes.** :func:`save_checkpoint` writes a temporary file in the same directory,
flushes it to the disk (``fsync``) and renames it over the target (``os.replace``): a reader
(or a training run killed at any moment) sees the old checkpoint or the new one, never half of
one.

>>> import pathlib, tempfile
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.learning.networks.network import PolicyValueNet
>>> encoder = encoder_for(TicTacToe())
>>> net = PolicyValueNet(encoder.shape, encoder.num_actions, seed=0)
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = save_checkpoint(folder / "net.ckpt", net, encoder, extra={"generation": 3})
>>> checkpoint = load_checkpoint(path, TicTacToe())
>>> checkpoint.game_name, checkpoint.config.describe(), checkpoint.extra
('tictactoe', 'mlp 2x64', {'generation': 3})
>>> from searchlab.domains.games.connect4 import Connect4
>>> load_checkpoint(path, Connect4())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.learning.networks.checkpoint.CheckpointError: checkpoint .../net.ckpt is for \
tictactoe, not connect4
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.learning.networks.encoder import Encoder, input_features
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

__all__ = ["FORMAT_VERSION", "Checkpoint", "CheckpointError", "load_checkpoint", "save_checkpoint"]

FORMAT_VERSION = 1
"""The version of the file layout and of the metadata keys."""

_MAGIC = b"searchlab-checkpoint\n"
_HEADER_LIMIT = 200  # the second line is far shorter


class CheckpointError(SearchlabError, ValueError):
    """A checkpoint cannot be used: missing, not a checkpoint, truncated, corrupt, or made for
    another game, encoder or architecture. The message is one line naming the file."""


@dataclass(frozen=True, eq=False)
class Checkpoint:
    """A loaded checkpoint.

    Attributes:
        path: the file.
        net: the network, its weights loaded, in evaluation mode, on the device asked for.
        config: its architecture.
        encoder: the encoder to feed it (the game's current one, checked against the record).
        game_name, game_params: the game it was trained for.
        extra: the caller's plain data, as saved.
    """

    path: Path
    net: PolicyValueNet
    config: NetworkConfig
    encoder: Encoder
    game_name: str
    game_params: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


def save_checkpoint(
    path: str | os.PathLike[str],
    net: PolicyValueNet,
    encoder: Encoder,
    *,
    extra: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``net`` (for the game of ``encoder``) and ``extra`` to ``path`` atomically; return
    the path.

    ``extra`` holds plain data only: ``None``, booleans, numbers, strings, tensors, and lists,
    tuples and dicts (string or integer keys) of them, such as an optimiser's ``state_dict()``.
    Raises ``InvalidParameterError`` for anything else in ``extra`` or a network that does not
    fit the encoder, and :class:`CheckpointError` when the file cannot be written (no such
    directory, no permission, a full disk); an earlier checkpoint at ``path`` is then intact.
    """
    target = Path(path)
    if not isinstance(net, PolicyValueNet):
        raise InvalidParameterError(
            f"save_checkpoint needs a PolicyValueNet, got {type(net).__name__}"
        )
    if tuple(net.shape) != tuple(encoder.shape) or net.num_actions != encoder.num_actions:
        raise InvalidParameterError(
            f"save_checkpoint: the network reads planes {net.shape} with {net.num_actions} "
            f"actions, the {encoder.game_name} encoder gives {encoder.shape} and "
            f"{encoder.num_actions}"
        )
    extra_data = dict(extra or {})
    _check_plain(extra_data, "extra")
    game_params = dict(encoder.game_params)
    _check_plain(game_params, "the encoder's game_params")
    payload = {
        "format_version": FORMAT_VERSION,
        "game": encoder.game_name,
        "game_params": game_params,
        "encoder": {
            "class": type(encoder).__name__,
            "version": int(encoder.version),
            "shape": [int(d) for d in encoder.shape],
            "num_actions": int(encoder.num_actions),
            **_features_record(encoder),
        },
        "network": net.config.to_dict(),
        "weights": net.cpu_weights(),
        "extra": extra_data,
    }
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    body = buffer.getvalue()
    header = (
        f"format {FORMAT_VERSION} sha256 {hashlib.sha256(body).hexdigest()} bytes {len(body)}\n"
    )
    _write_atomically(target, _MAGIC + header.encode("ascii") + body)
    return target


def _check_plain(value: Any, where: str) -> None:
    if value is None or isinstance(value, bool | int | float | str | torch.Tensor):
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_plain(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise InvalidParameterError(
                    f"checkpoint {where}: key {key!r} is a {type(key).__name__}; keys must be "
                    "strings or integers"
                )
            _check_plain(item, f"{where}[{key!r}]")
        return
    raise InvalidParameterError(
        f"checkpoint {where} is a {type(value).__name__}; a checkpoint keeps only None, "
        "booleans, numbers, strings, tensors, and lists and dicts of them"
    )


def _write_atomically(target: Path, data: bytes) -> None:
    """:func:`~searchlab.core.atomic_file.write_atomically`, its failure one checkpoint line."""
    try:
        write_atomically(target, data)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise CheckpointError(f"cannot write checkpoint {target}: {reason}") from None


def load_checkpoint(
    path: str | os.PathLike[str],
    game: Any = None,
    *,
    encoder: Encoder | None = None,
    config: NetworkConfig | None = None,
    device: str = "cpu",
) -> Checkpoint:
    """Load the checkpoint at ``path``, checked against ``game`` (or ``encoder``) and, when
    given, the architecture ``config``; the network goes to ``device`` in evaluation mode.

    Without ``game`` and ``encoder``, the game is rebuilt from the registry by the recorded
    name and parameters. Raises :class:`CheckpointError` (one line, naming the file) for a
    missing file, a file that is not a checkpoint, a truncated or corrupt one, one written by a
    newer searchlab, one for another game or board, for another encoder version or shape, or
    whose network is not ``config`` or does not fit its own record; ``InvalidParameterError``
    for a device this machine lacks.
    """
    from searchlab.learning.networks.evaluator import check_device

    torch_device = check_device(device)
    source = Path(path)
    payload = _read_payload(source)
    name = f"checkpoint {source}"
    game_name, game_params = payload["game"], payload["game_params"]
    if encoder is None:
        encoder = _encoder_of(name, game, game_name, game_params)
        features = payload["encoder"].get("features")
        own, _ = input_features(encoder)
        if features is not None and own is not None and features != own:
            encoder = encoder.with_features(features)  # type: ignore[attr-defined]
    _check_encoder(name, payload, encoder)
    try:
        recorded = NetworkConfig.from_dict(payload["network"])
    except InvalidParameterError as error:
        raise CheckpointError(f"{name} records an impossible network: {error}") from None
    if config is not None and config != recorded:
        raise CheckpointError(
            f"{name} holds a {_architecture(recorded)} network, not the {_architecture(config)} "
            "asked for"
        )
    net = PolicyValueNet(encoder.shape, encoder.num_actions, recorded)
    try:
        net.load_state_dict(payload["weights"], strict=True)
    except (RuntimeError, TypeError, ValueError, AttributeError) as error:
        detail = " ".join(str(error).split())
        if len(detail) > 160:
            detail = detail[:157] + "..."
        raise CheckpointError(
            f"{name}: its weights do not fit its {_architecture(recorded)} network ({detail})"
        ) from None
    net.to(torch_device)
    net.eval()
    return Checkpoint(
        path=source,
        net=net,
        config=recorded,
        encoder=encoder,
        game_name=game_name,
        game_params=dict(game_params),
        extra=payload["extra"],
    )


def _features_record(encoder: Encoder) -> dict[str, str]:
    """``{"features": name}`` for an encoder with a choice of input features (e.g. Connect
    Four's ``threats``), so that the checkpoint loads with them; ``{}`` otherwise."""
    features, _ = input_features(encoder)
    return {} if features is None else {"features": features}


def _architecture(config: NetworkConfig) -> str:
    return (
        f"{config.describe()} (hidden {config.hidden})"
        if config.kind == "resnet"
        else (config.describe())
    )


def _read_payload(source: Path) -> dict[str, Any]:
    name = f"checkpoint {source}"
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"no checkpoint at {source}: no such file") from None
    except IsADirectoryError:
        raise CheckpointError(f"{name} is a directory; expected a checkpoint file") from None
    except OSError as error:
        raise CheckpointError(f"cannot read {name}: {error.strerror or error}") from None
    if not data.startswith(_MAGIC):
        if len(data) < len(_MAGIC) and _MAGIC.startswith(data):
            raise CheckpointError(f"{name} is truncated: {len(data)} bytes, not even a header")
        kind = "a plain PyTorch file" if data.startswith(b"PK") else "not a searchlab checkpoint"
        raise CheckpointError(
            f"{name} is {kind} (save networks with searchlab.learning.save_checkpoint)"
        )
    end = data.find(b"\n", len(_MAGIC), len(_MAGIC) + _HEADER_LIMIT)
    if end < 0:
        if len(data) < len(_MAGIC) + _HEADER_LIMIT:
            raise CheckpointError(f"{name} is truncated: it ends inside its header")
        raise CheckpointError(f"{name} is corrupt: its header line is damaged")
    fields = data[len(_MAGIC) : end].split()
    body = data[end + 1 :]
    try:
        if len(fields) != 6 or [fields[0], fields[2], fields[4]] != [
            b"format",
            b"sha256",
            b"bytes",
        ]:
            raise ValueError
        version, digest, size = int(fields[1]), fields[3].decode("ascii"), int(fields[5])
    except (ValueError, UnicodeDecodeError):
        raise CheckpointError(f"{name} is corrupt: its header line is damaged") from None
    if version > FORMAT_VERSION:
        raise CheckpointError(
            f"{name} has format {version}; this searchlab reads format {FORMAT_VERSION} "
            "(upgrade searchlab)"
        )
    if len(body) < size:
        raise CheckpointError(
            f"{name} is truncated: {len(body):,} of its {size:,} bytes of weights are there"
        )
    if len(body) > size or hashlib.sha256(body).hexdigest() != digest:
        raise CheckpointError(f"{name} is corrupt: its checksum does not match its contents")
    try:
        payload = torch.load(io.BytesIO(body), map_location="cpu", weights_only=True)
    except Exception as error:  # a checksum-correct file that torch cannot read
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CheckpointError(f"{name} is corrupt: {reason}") from None
    expected = ("game", "game_params", "encoder", "network", "weights", "extra")
    if not isinstance(payload, dict) or any(key not in payload for key in expected):
        raise CheckpointError(f"{name} is corrupt: its record lacks game, encoder or weights")
    return payload


def _encoder_of(name: str, game: Any, game_name: str, game_params: dict[str, Any]) -> Encoder:
    from searchlab.learning.networks.encoders import encoder_for

    if game is None:
        from searchlab.domains.games.registry import make

        try:
            game = make(game_name, **game_params)
        except SearchlabError as error:
            raise CheckpointError(
                f"{name} is for the game {game_name!r}, which cannot be built here ({error}); "
                "pass its game or encoder"
            ) from None
    return encoder_for(game)  # a game's name is checked against the record by the caller


def _params(params: Mapping[str, Any]) -> str:
    return " ".join(f"{key}={value}" for key, value in params.items()) or "its default board"


def _check_encoder(name: str, payload: dict[str, Any], encoder: Encoder) -> None:
    game_name, game_params = payload["game"], payload["game_params"]
    record = payload["encoder"]
    if encoder.game_name != game_name:
        raise CheckpointError(f"{name} is for {game_name}, not {encoder.game_name}")
    if dict(encoder.game_params) != dict(game_params):
        raise CheckpointError(
            f"{name} is for {game_name} with {_params(game_params)}, not "
            f"{_params(encoder.game_params)}"
        )
    if record.get("version") != encoder.version:
        raise CheckpointError(
            f"{name} was written for version {record.get('version')} of the {game_name} "
            f"encoder; this one is version {encoder.version} (retrain, or use the searchlab "
            "that wrote it)"
        )
    features, (own, _) = record.get("features"), input_features(encoder)
    if features is not None and features != own:
        raise CheckpointError(
            f"{name} reads the {features!r} features of the {game_name} encoder, not {own!r}"
        )
    shape, actions = tuple(record.get("shape", ())), record.get("num_actions")
    if shape != tuple(encoder.shape) or actions != encoder.num_actions:
        raise CheckpointError(
            f"{name} reads planes {shape} with {actions} actions; the {game_name} encoder "
            f"gives {tuple(encoder.shape)} and {encoder.num_actions}"
        )
