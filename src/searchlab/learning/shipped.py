"""The networks shipped inside searchlab: where they live, what they record, how one is made.

searchlab ships a trained checkpoint for some games as package data,
``searchlab/learning/checkpoints/GAME.ckpt`` (Connect Four: ``connect4.ckpt``, trained by
searchlab itself). The ``az`` and ``policy`` agents use it when their spec gives no
``checkpoint=``, so right after ``pip install 'searchlab[cli,learn]'``::

    searchlab play connect4 --second az

A shipped checkpoint is an ordinary checkpoint (:mod:`~searchlab.learning.networks.checkpoint`)
whose ``extra`` says how to make it again:

* ``reproduce``: the exact command (or commands, one per line) that trained it;
* ``seed``: the seed of that run;
* ``generation``, ``source`` and ``config`` (the run's ``config.toml`` text), when known.

It carries no optimiser state (the file is for playing, not for resuming a run).
:func:`prepare_shipped` writes such a file from a training directory or a checkpoint file;
``python -m searchlab.learning.shipped`` does the same from the command line, and with
``--show`` prints what the shipped checkpoints record.

>>> import pathlib, tempfile
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.networks.checkpoint import save_checkpoint
>>> from searchlab.learning.networks.encoders import encoder_for
>>> from searchlab.learning.networks.network import PolicyValueNet
>>> encoder = encoder_for(TicTacToe())
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> net = PolicyValueNet(encoder.shape, encoder.num_actions, seed=0)
>>> trained = save_checkpoint(folder / "latest.pt", net, encoder, extra={"generation": 4})
>>> path = prepare_shipped(trained, folder / "ship", reproduce="searchlab train tictactoe "
...     "--time 5m --seed 3 --out runs/ttt", seed=3)
>>> path.name, describe_shipped(path)
('tictactoe.ckpt', 'tictactoe.ckpt: mlp 2x64, generation 4, seed 3; made by: searchlab train \
tictactoe --time 5m --seed 3 --out runs/ttt')
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from searchlab.core.errors import InvalidParameterError, SearchlabError

__all__ = [
    "SUFFIX",
    "checkpoint_directory",
    "describe_shipped",
    "missing_message",
    "prepare_shipped",
    "shipped_checkpoint",
    "shipped_games",
]

SUFFIX = ".ckpt"
"""The shipped checkpoints' file suffix: ``GAME.ckpt``."""

_DIRECTORY = "checkpoints"
_CONFIGS = ("config.toml", "alphago.json")  # AlphaZero, AlphaGo runs
_LATEST = "latest.pt"  # = agents.LATEST (agents imports this module)
_DROPPED = ("optimizer",)  # extra keys a shipped file leaves out (resuming state)


def checkpoint_directory() -> Path:
    """The folder of the shipped checkpoints, inside the installed package."""
    return Path(str(resources.files("searchlab.learning").joinpath(_DIRECTORY)))


def shipped_checkpoint(game_name: str) -> Path | None:
    """The checkpoint shipped for the game called ``game_name``, or ``None`` when none is.

    >>> shipped_checkpoint("tictactoe") is None
    True
    """
    path = checkpoint_directory() / f"{game_name}{SUFFIX}"
    return path if path.is_file() else None


def shipped_games() -> list[str]:
    """The games this installation ships a checkpoint for, sorted."""
    folder = checkpoint_directory()
    if not folder.is_dir():
        return []
    return sorted(path.name[: -len(SUFFIX)] for path in folder.glob(f"*{SUFFIX}"))


def missing_message(game_name: str | None, agent: str) -> str:
    """The one line for an agent given no ``checkpoint=`` where none ships for the game."""
    games = shipped_games()
    ships = (
        f"searchlab ships one for {', '.join(games)} only"
        if games
        else "this installation ships none"
    )
    return (
        f"agent {agent!r}: no checkpoint given, and none ships for {game_name or 'this game'} "
        f"({ships}): give checkpoint=FILE (or a training directory)"
    )


def prepare_shipped(
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    reproduce: str,
    seed: int | None = None,
    notes: str = "",
) -> Path:
    """Write the checkpoint at ``source`` (a file, or a training directory: its
    ``latest.pt``) as a shipped checkpoint ``out/GAME.ckpt`` (``out`` ending in ``.ckpt``: that
    file); return its path.

    ``extra`` gets ``reproduce`` (the exact command, required), ``seed`` (given, else the
    ``seed`` of the run's settings found beside ``source`` or one or two folders up: an
    AlphaZero run's ``config.toml``, an AlphaGo run's ``alphago.json``), ``config`` (those
    settings as text), ``generation`` (kept from the source), ``source`` (its
    file name) and ``notes`` when given; the optimiser's state is dropped. Raises
    ``InvalidParameterError`` for an empty ``reproduce`` or no seed to be found, and
    :class:`~searchlab.learning.networks.checkpoint.CheckpointError` for a source that is not a
    readable checkpoint.
    """
    from searchlab.learning.networks.checkpoint import load_checkpoint, save_checkpoint

    if not reproduce.strip():
        raise InvalidParameterError("a shipped checkpoint needs the command that reproduces it")
    path = Path(source)
    if path.is_dir():
        path = path / _LATEST
    checkpoint = load_checkpoint(path)
    config_text, recorded_seed = _run_config(path)
    seed = recorded_seed if seed is None else seed
    if seed is None:
        raise InvalidParameterError(
            f"no seed for the shipped checkpoint: no {' or '.join(_CONFIGS)} with a seed beside "
            f"{path}; give the seed"
        )
    extra: dict[str, Any] = {
        key: value for key, value in checkpoint.extra.items() if key not in _DROPPED
    }
    extra.update(reproduce=reproduce.strip(), seed=int(seed), source=path.name)
    if config_text is not None:
        extra["config"] = config_text
    if notes:
        extra["notes"] = notes
    target = Path(out)
    if target.suffix != SUFFIX:
        target = target / f"{checkpoint.game_name}{SUFFIX}"
    target.parent.mkdir(parents=True, exist_ok=True)
    return save_checkpoint(target, checkpoint.net, checkpoint.encoder, extra=extra)


def _run_config(path: Path) -> tuple[str | None, int | None]:
    """The settings of the training run ``path`` belongs to, as text, and their seed: an
    AlphaZero run's ``config.toml`` or the ``config`` of an AlphaGo run's ``alphago.json``,
    beside ``path`` or one or two folders up (``DIR/latest.pt``,
    ``DIR/checkpoints/gen-0012.pt``); ``(None, None)`` when there is none."""
    from searchlab.learning.alphazero.train_config import parse_config_text

    for folder in (path.parent, path.parent.parent, path.parent.parent.parent):
        toml_file, json_file = folder / _CONFIGS[0], folder / _CONFIGS[1]
        if toml_file.is_file():
            text = toml_file.read_text(encoding="utf-8")
            return text, _seed(parse_config_text(text, str(toml_file)).get("seed"))
        if json_file.is_file():
            try:
                record = json.loads(json_file.read_text(encoding="utf-8"))
                config = record["config"]
            except (ValueError, KeyError, TypeError):
                raise InvalidParameterError(f"{json_file} is not an AlphaGo run record") from None
            return json.dumps(config, indent=1, sort_keys=True), _seed(config.get("seed"))
    return None, None


def _seed(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def describe_shipped(path: str | os.PathLike[str]) -> str:
    """One line: the file, its network (and its input planes, when the encoder offers a
    choice and the network reads other than the first), generation and seed, and the command
    that made it."""
    from searchlab.learning.networks.checkpoint import load_checkpoint
    from searchlab.learning.networks.encoder import input_features

    checkpoint = load_checkpoint(path)
    extra = checkpoint.extra
    parts = [f"{Path(path).name}: {checkpoint.config.describe()}"]
    features, default = input_features(checkpoint.encoder)
    if features != default:
        parts.append(f"{features} planes")
    if extra.get("generation") is not None:
        parts.append(f"generation {extra['generation']}")
    parts.append(f"seed {extra.get('seed', 'not recorded')}")
    command = " / ".join(str(extra.get("reproduce", "not recorded")).splitlines())
    return ", ".join(parts) + f"; made by: {command}"


def main(argv: list[str] | None = None) -> int:
    """``python -m searchlab.learning.shipped``: write a shipped checkpoint, or show them."""
    parser = argparse.ArgumentParser(
        prog="python -m searchlab.learning.shipped",
        description="Write a trained checkpoint as the one searchlab ships for its game "
        "(src/searchlab/learning/checkpoints/GAME.ckpt by default), recording the command and "
        "seed that reproduce it; or --show what the shipped checkpoints record.",
    )
    parser.add_argument("source", nargs="?", help="checkpoint file or training directory")
    parser.add_argument("--reproduce", help="the exact command that trained it (required)")
    parser.add_argument("--seed", type=int, help="its seed (default: the run's config.toml)")
    parser.add_argument("--notes", default="", help="a line of notes to keep with it")
    parser.add_argument(
        "--out", help="folder or .ckpt file (default: the package's checkpoints folder)"
    )
    parser.add_argument("--show", action="store_true", help="describe the shipped checkpoints")
    args = parser.parse_args(argv)
    try:
        if args.show:
            games = shipped_games()
            for game in games:
                print(describe_shipped(checkpoint_directory() / f"{game}{SUFFIX}"))
            if not games:
                print(f"no checkpoint ships in {checkpoint_directory()}")
            return 0
        if args.source is None or args.reproduce is None:
            parser.error("give SOURCE and --reproduce COMMAND (or --show)")
        path = prepare_shipped(
            args.source,
            args.out or checkpoint_directory(),
            reproduce=args.reproduce,
            seed=args.seed,
            notes=args.notes,
        )
        print(describe_shipped(path))
        print(f"written: {path} ({path.stat().st_size:,} bytes)")
        return 0
    except SearchlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
