"""What both AlphaGo pipelines (Connect Four's and Go's) share: the run record and the RL loop.

A pipeline's directory holds ``alphago.json``, the **run record**: the config, the stages
finished with their figures, and the progress of an unfinished stage. :func:`write_json`
replaces a JSON file atomically; :func:`read_record` reads the record back (an empty dict when
there is none yet, one :class:`~searchlab.core.errors.InvalidParameterError` line when it
cannot be read or is not a record). :func:`finished_record` refuses a directory whose run has
not finished every stage.

:func:`reinforce_in_chunks` is the RL stage's resumable loop: REINFORCE (or another
``rl_form``) in chunks of ``pool_every`` iterations, each chunk's network and opponent pool
saved to one checkpoint before the caller records it, so a stopped run goes on from the last
finished chunk with the same seeds; :func:`rl_against_sl` is the stage's final match.
:func:`run_options` turns the ``train`` command's options into the config's keys and a stop
rule (deadline or Ctrl-C), as both pipelines' entries read them, and :func:`say_on_stderr` is
how those entries report progress.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> read_record(folder, "alphago")
{}
>>> write_json(folder / RECORD, {"game": "connect4", "stages": {}})
>>> read_record(folder, "alphago")["game"]
'connect4'
>>> read_record(folder, "alphago (go)", game="go")
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago (go): .../alphago.json is not the record \
of a Go pipeline
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from searchlab.core.atomic_file import write_atomically
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphago.rl import NetPolicy, match, reinforce, rl_policy
from searchlab.learning.alphazero.evaluation import MatchResult
from searchlab.learning.networks.checkpoint import load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoder import Encoder
from searchlab.learning.networks.network import PolicyValueNet

__all__ = [
    "RECORD",
    "RLStageConfig",
    "derive_seed",
    "finished_record",
    "read_record",
    "reinforce_in_chunks",
    "rl_against_sl",
    "run_options",
    "say_on_stderr",
    "write_json",
]

RECORD = "alphago.json"
"""The run record's file name in a pipeline's directory."""


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` as indented JSON to ``path``, atomically (a reader sees the old file or
    the new one, never a part)."""
    write_atomically(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def read_record(directory: Path, owner: str, *, game: str | None = None) -> dict[str, Any]:
    """The run record of ``directory`` (``{}`` when it has none yet). A file that cannot be
    read, or is no JSON object, is one line starting with ``owner``; with ``game``, so is a
    record of another game's pipeline."""
    path = directory / RECORD
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise InvalidParameterError(f"{owner}: {path} cannot be read ({error})") from None
    if game is None and not isinstance(data, dict):
        raise InvalidParameterError(f"{owner}: {path} is not an alphago record")
    if game is not None and (not isinstance(data, dict) or data.get("game") != game):
        raise InvalidParameterError(
            f"{owner}: {path} is not the record of a {game.capitalize()} pipeline"
        )
    return data


def finished_record(
    record: Mapping[str, Any], stages: Sequence[str], folder: Path, owner: str
) -> None:
    """Refuse, in one line naming the missing stages, a ``record`` (of ``folder``) that has
    not finished every one of ``stages`` (an empty record: the run never started)."""
    missing = [stage for stage in stages if stage not in record.get("stages", {})]
    if not record or missing:
        raise InvalidParameterError(
            f"{owner}: {folder} is not a finished alphago run (missing: "
            f"{', '.join(missing) if record else 'alphago.json'})"
        )


def derive_seed(base: int, *parts: int) -> int:
    """A seed for one part of a run (a stage, a chunk), derived from the run's ``base`` seed:
    the same parts give the same seed, different parts independent streams."""
    return int(np.random.SeedSequence([base, *parts]).generate_state(1)[0])


class RLStageConfig(Protocol):
    """The keys of a pipeline's config that its RL stage reads."""

    @property
    def seed(self) -> int: ...
    @property
    def rl_iterations(self) -> int: ...
    @property
    def rl_games(self) -> int: ...
    @property
    def rl_learning_rate(self) -> float: ...
    @property
    def pool_every(self) -> int: ...
    @property
    def rl_form(self) -> str: ...
    @property
    def rl_temperature(self) -> float: ...
    @property
    def match_games(self) -> int: ...


def reinforce_in_chunks(
    config: RLStageConfig,
    encoder: Encoder,
    sl_path: Path,
    rl_path: Path,
    done: int,
    *,
    on_chunk: Callable[[int, list[float], list[dict[str, Any]], float], None],
    should_stop: Callable[[], bool],
    game: Any = None,
) -> PolicyValueNet | None:
    """The RL policy network, improved from the SL one (``sl_path``) by ``config.rl_iterations``
    iterations in chunks of ``config.pool_every``; ``done`` iterations are finished already
    (their network and pool in ``rl_path``). After each chunk, the network and its opponent
    pool are saved to ``rl_path`` and ``on_chunk(done, mean_results, pool, seconds)`` records
    it (the chunk's mean results, its wall-clock seconds). ``should_stop()`` is asked before
    each chunk: None when it said to stop (the run goes on later from ``rl_path``). Chunk
    seeds come from ``config.seed`` and the iterations done before, so the result is the
    same however often the run stopped. ``game`` is passed to
    :func:`~searchlab.learning.alphago.rl.reinforce` (None: Connect Four)."""
    if done:
        checkpoint = load_checkpoint(rl_path, encoder=encoder)
        rl, pool = checkpoint.net, list(checkpoint.extra["pool"])
    else:
        rl, pool = load_checkpoint(sl_path, encoder=encoder).net, []
    while done < config.rl_iterations:
        if should_stop():
            return None
        chunk = min(config.pool_every, config.rl_iterations - done)
        started = time.monotonic()
        report = reinforce(
            rl,
            encoder,
            iterations=chunk,
            games_per_iteration=config.rl_games,
            learning_rate=config.rl_learning_rate,
            pool_every=config.pool_every,
            pool=pool,
            seed=derive_seed(config.seed, 5, done),
            form=config.rl_form,
            game=game,
            temperature=config.rl_temperature,
        )
        pool = [dict(snapshot) for snapshot in report.pool]
        done += chunk
        save_checkpoint(rl_path, rl, encoder, extra={"stage": "rl", "pool": pool})
        means = [round(m, 4) for m in report.mean_results]
        on_chunk(done, means, pool, time.monotonic() - started)
    return rl


def rl_against_sl(
    config: RLStageConfig,
    rl: PolicyValueNet,
    sl: PolicyValueNet,
    encoder: Encoder,
    *,
    game: Any = None,
) -> MatchResult:
    """The RL stage's measure: ``config.match_games`` games of the RL policy (played as its
    ``rl_form`` plays) against the SL policy it started from, colours alternating, seeded by
    ``config.seed``. ``game`` None: Connect Four."""
    return match(
        rl_policy(rl, encoder, config.rl_form, config.rl_temperature),
        NetPolicy(sl, encoder),
        games=config.match_games,
        seed=derive_seed(config.seed, 6),
        game=game,
        encoder=None if game is None else encoder,
    )


def run_options(
    overrides: Mapping[str, Any] | None, options: Mapping[str, Any]
) -> tuple[dict[str, Any], Callable[[], bool]]:
    """The config keys of a ``train`` command (the config file's ``[alphago]`` table, or its
    keys themselves, and ``seed``) and its stop rule: true once ``options["deadline"]`` (a
    ``time.monotonic()`` instant) has passed or ``options["should_stop"]()`` says so.

    >>> keys, stop = run_options({"alphago": {"rl_games": 4}, "seed": 3}, {})
    >>> keys, stop()
    ({'rl_games': 4, 'seed': 3}, False)
    """
    data = dict(overrides or {})
    if isinstance(data.get("alphago"), Mapping):
        data = {**data.pop("alphago"), **({"seed": data["seed"]} if "seed" in data else {})}
    deadline = options.get("deadline")
    asked = options.get("should_stop")

    def should_stop() -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            return True
        return bool(asked is not None and asked())

    return data, should_stop


def say_on_stderr(message: str) -> None:
    """Print one progress line of a ``train --algorithm alphago`` run on stderr, flushed."""
    print(f"alphago {message}", file=sys.stderr, flush=True)
