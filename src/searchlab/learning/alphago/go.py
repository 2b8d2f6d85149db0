"""The AlphaGo pipeline on Go, stage by stage, resumable: expert positions, then the SL policy.

``searchlab train go --algorithm alphago --config FILE`` runs it into a directory. The expert is
a folder of SGF games no one here wrote (``expert = "DIR"``: GNU Go's games made by
``searchlab expert go``, or a person's own collection); the stages:

1. **data**: every position of the expert's moves, encoded
   (:func:`~searchlab.learning.alphago.go_sl.expert_positions`), the held-out games apart, written
   to ``expert-train.npz`` and ``expert-held-out.npz``;
2. **sl**: the SL policy network (:func:`~searchlab.learning.alphago.go_sl.fit_sl_policy`), one
   epoch at a time: after each, ``latest.pt`` (an ordinary checkpoint, so ``policy:checkpoint=DIR``
   and ``az:checkpoint=DIR`` play with it), the optimiser's state, and the epoch's loss and
   held-out move accuracy in ``alphago.json``, ``progress.json`` and ``progress.png``; at the
   end, ``sl-policy.ckpt``;
3. **rl**: the RL policy, the SL network improved by one of the three forms
   (:func:`~searchlab.learning.alphago.rl.reinforce`, ``rl_form``) against a pool of its
   earlier versions, in chunks of ``pool_every`` iterations (``rl-policy.ckpt`` and the pool
   after each, so a stop loses at most one chunk), then its score against the SL policy;
4. **value**: AlphaGo's value network, by regression on one position per self-play game
   (:func:`~searchlab.learning.alphago.rl.value_positions`: the SL policy plays ``U`` plies,
   one random move, then the RL policy to the end; the position labelled with the result),
   ``value.ckpt``.

The finished directory is what the ``alphago`` agent loads
(``alphago:checkpoint=DIR,simulations=N,lambda=L``): PUCT with the SL policy's priors, leaves
valued ``(1 - lambda) * v + lambda * z``, ``z`` one compiled playout of MoGo's policy
(:class:`~searchlab.algorithms.mcts.go_rollouts.GoRollouts`; AlphaGo fitted its rollout policy
to expert moves, which is not built here yet).

Stopped at any moment (``--time``, Ctrl-C, a kill), the same command goes on from the last
finished epoch; a finished stage is not run again. The config is recorded in ``alphago.json``:
a resumed run with another config is refused in one line.

>>> GoAlphaGoConfig.from_dict({"expert": "games", "sl_epochs": 0})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago (go): sl_epochs must be an integer >= 1, got 0
>>> GoAlphaGoConfig.from_dict({"sl_epochs": 2})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago (go): expert is needed: the folder of SGF \
games to learn from (e.g. made by searchlab expert go)
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from searchlab.algorithms.mcts.go_rollouts import GoRollouts
from searchlab.core.checks import check_integer, check_keys, check_number
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import Go
from searchlab.learning.alphago.fit import fit_value, values
from searchlab.learning.alphago.go_sl import (
    GoPositions,
    expert_positions,
    fit_sl_policy,
    move_accuracy,
)
from searchlab.learning.alphago.records import (
    RECORD,
    derive_seed,
    finished_record,
    read_record,
    reinforce_in_chunks,
    rl_against_sl,
    run_options,
    say_on_stderr,
    write_json,
)
from searchlab.learning.alphago.rl import (
    RL_FORMS,
    NetPolicy,
    rl_policy,
    value_positions,
)
from searchlab.learning.alphazero.progress_plot import draw_progress
from searchlab.learning.networks.checkpoint import load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoders import GoEncoder
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet, network_keys

__all__ = ["STAGES", "GoAlphaGoConfig", "load_go_networks", "run_go_alphago", "run_training"]

STAGES = ("data", "sl", "rl", "value")
"""The stages, in order; ``alphago.json`` records each one finished."""

_OWNER = "alphago (go)"
_DEFAULT_NETWORK = {"kind": "resnet", "blocks": 6, "channels": 64, "hidden": 64}


@dataclass(frozen=True, slots=True)
class GoAlphaGoConfig:
    """The settings of the pipeline on Go (a config file's keys; each checked when made).

    Attributes:
        expert: the folder of SGF games to learn from.
        size: the board's side (the games must be on it).
        holdout: the share of games held out for measuring (by each game's key).
        features: the encoder's input planes (``basic`` or ``liberties``).
        network: the architecture (a
            :class:`~searchlab.learning.networks.network.NetworkConfig` dict).
        sl_epochs: passes over the training positions.
        sl_batch_size: positions a minibatch.
        sl_learning_rate: Adam's first learning rate (a cosine down to 5% of it).
        sl_value_weight: weight of the value head's squared error to the game's outcome (0:
            the policy alone, as AlphaGo's SL network).
        rl_form: ``reinforce``, ``actor_critic`` or ``value`` (see
            :mod:`~searchlab.learning.alphago.rl`).
        rl_iterations, rl_games, rl_learning_rate, pool_every, rl_temperature: the RL stage
            (batches of games, games a batch, Adam's step, a pool snapshot every
            ``pool_every`` batches, the value form's softmax temperature).
        value_positions, value_epochs, value_learning_rate, value_max_ply: the value network
            (positions, one a game; its training; the latest ply ``U`` may be).
        match_games: games of the RL policy against the SL policy.
        komi: the games' komi in the RL and value stages.
        seed: the seed of the network's weights, the split and the minibatches.
    """

    expert: str = ""
    size: int = 9
    holdout: float = 0.1
    features: str = "liberties"
    network: dict[str, Any] = dataclasses.field(default_factory=lambda: dict(_DEFAULT_NETWORK))
    sl_epochs: int = 8
    sl_batch_size: int = 256
    sl_learning_rate: float = 2e-3
    sl_value_weight: float = 0.0
    rl_form: str = "reinforce"
    rl_iterations: int = 50
    rl_games: int = 32
    rl_learning_rate: float = 1e-4
    pool_every: int = 10
    rl_temperature: float = 0.1
    value_positions: int = 4000
    value_epochs: int = 6
    value_learning_rate: float = 1e-3
    value_max_ply: int = 60
    match_games: int = 100
    komi: float = 7.5
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.expert, str) or not self.expert:
            raise InvalidParameterError(
                f"{_OWNER}: expert is needed: the folder of SGF games to learn from (e.g. made "
                "by searchlab expert go)"
            )
        for name, low in (
            ("size", 5), ("sl_epochs", 1), ("sl_batch_size", 1), ("seed", 0),
            ("rl_iterations", 1), ("rl_games", 2), ("pool_every", 1), ("value_positions", 1),
            ("value_epochs", 1), ("value_max_ply", 1), ("match_games", 1),
        ):  # fmt: skip
            check_integer(getattr(self, name), name, owner=_OWNER, low=low)
        if self.rl_form not in RL_FORMS:
            raise InvalidParameterError(
                f"{_OWNER}: rl_form must be one of {', '.join(RL_FORMS)}, got {self.rl_form!r}"
            )
        for name in ("rl_learning_rate", "value_learning_rate"):
            check_number(getattr(self, name), name, owner=_OWNER, low=0.0, high=1.0,
                         open_low=True)  # fmt: skip
        check_number(self.rl_temperature, "rl_temperature", owner=_OWNER, low=0.0, high=100.0,
                     open_low=True)  # fmt: skip
        check_number(self.komi, "komi", owner=_OWNER, low=-1000.0, high=1000.0)
        check_number(self.holdout, "holdout", owner=_OWNER, low=0.0, high=1.0)
        check_number(self.sl_learning_rate, "sl_learning_rate", owner=_OWNER, low=0.0, high=1.0,
                     open_low=True)  # fmt: skip
        check_number(self.sl_value_weight, "sl_value_weight", owner=_OWNER, low=0.0, high=100.0)
        GoEncoder(self.size, features=self.features)  # one line for unknown features
        NetworkConfig.from_dict(dict(self.network))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GoAlphaGoConfig:
        """The config of a file's keys; an unknown key is one line naming the known ones. The
        network may also be given by the flat keys ``network_kind``, ``blocks``, ``channels``
        and ``hidden``, as in ``searchlab train``'s other configs."""
        data = network_keys(data, _DEFAULT_NETWORK)
        check_keys(data, (field.name for field in dataclasses.fields(cls)), owner=_OWNER)
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """The keys and values, as the record keeps them."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def encoder(self) -> GoEncoder:
        """The encoder of the positions and the networks."""
        return GoEncoder(self.size, features=self.features)

    def game(self) -> Go:
        """The rules of the self-play stages."""
        return Go(self.size, komi=self.komi)


def run_go_alphago(
    directory: str | os.PathLike[str],
    config: GoAlphaGoConfig,
    *,
    progress: Callable[[str], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Run (or go on with) the pipeline's stages into ``directory``; return the record
    (``alphago.json``'s contents). ``should_stop()`` is asked after each epoch; a stopped run
    resumes from its last finished epoch."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    record = read_record(folder, _OWNER, game="go")
    if record and record.get("config") != config.to_dict():
        raise InvalidParameterError(
            f"{_OWNER}: {folder} holds a run of another config; use another --out, or the "
            "same config"
        )
    record = record or {"game": "go", "config": config.to_dict(), "stages": {}}
    say = progress or (lambda message: None)
    stop = should_stop or (lambda: False)
    stages: dict[str, Any] = record["stages"]
    encoder = config.encoder()
    if "data" not in stages:
        started = time.monotonic()
        train, held_out = expert_positions(
            config.expert,
            encoder,
            holdout=config.holdout,
            seed=config.seed,
            progress=lambda done, total: (
                say(f"data: {done}/{total} games") if done % 500 == 0 else None
            ),
        )
        train.save(folder / "expert-train.npz")
        held_out.save(folder / "expert-held-out.npz")
        stages["data"] = {
            "train_positions": len(train),
            "held_out_positions": len(held_out),
            "seconds": round(time.monotonic() - started, 1),
        }
        write_json(folder / RECORD, record)
        say(f"data: {len(train)} positions to learn from, {len(held_out)} held out")
    if "sl" not in stages and not stop():
        _sl_stage(folder, config, record, say, stop)
    if "sl" in stages and "rl" not in stages and not stop():
        _rl_stage(folder, config, record, say, stop)
    if "rl" in stages and "value" not in stages and not stop():
        _value_stage(folder, config, record, say)
    return record


def _rl_stage(
    folder: Path,
    config: GoAlphaGoConfig,
    record: dict[str, Any],
    say: Callable[[str], None],
    stop: Callable[[], bool],
) -> None:
    encoder, game = config.encoder(), config.game()
    progress: dict[str, Any] = record.setdefault(
        "rl_progress", {"iterations": 0, "mean_results": []}
    )
    sl = load_checkpoint(folder / "sl-policy.ckpt", encoder=encoder).net

    def chunk_done(
        done: int, means: list[float], pool: list[dict[str, Any]], seconds: float
    ) -> None:
        progress["iterations"] = done
        progress["mean_results"] += means
        write_json(folder / RECORD, record)
        say(
            f"rl ({config.rl_form}): {done}/{config.rl_iterations} iterations, "
            f"{done * config.rl_games} games, pool {len(pool)} ({seconds:.0f} s)"
        )

    rl = reinforce_in_chunks(
        config,
        encoder,
        folder / "sl-policy.ckpt",
        folder / "rl-policy.ckpt",
        progress["iterations"],
        on_chunk=chunk_done,
        should_stop=stop,
        game=game,
    )
    if rl is None:
        return
    result = rl_against_sl(config, rl, sl, encoder, game=game)
    record["stages"]["rl"] = {
        "form": config.rl_form,
        "iterations": progress["iterations"],
        "games": progress["iterations"] * config.rl_games,
        "score_vs_sl": round(result.score, 4),
        "wins_draws_losses_vs_sl": [result.wins, result.draws, result.losses],
    }
    write_json(folder / RECORD, record)
    say(f"rl: {result.score:.3f} against the SL policy ({config.match_games} games)")


def _value_stage(
    folder: Path, config: GoAlphaGoConfig, record: dict[str, Any], say: Callable[[str], None]
) -> None:
    encoder, game = config.encoder(), config.game()
    sl = load_checkpoint(folder / "sl-policy.ckpt", encoder=encoder).net
    rl = load_checkpoint(folder / "rl-policy.ckpt", encoder=encoder).net
    started = time.monotonic()
    policies = (
        NetPolicy(sl, encoder),
        rl_policy(rl, encoder, config.rl_form, config.rl_temperature),
    )
    states, targets = value_positions(
        *policies, count=config.value_positions, seed=derive_seed(config.seed, 7),
        max_ply=config.value_max_ply, game=game, encoder=encoder,
    )  # fmt: skip
    held, held_targets = value_positions(
        *policies, count=max(50, config.value_positions // 10), seed=derive_seed(config.seed, 10),
        max_ply=config.value_max_ply, game=game, encoder=encoder,
    )  # fmt: skip
    say(f"value: {len(states)} self-play positions ({time.monotonic() - started:.0f} s)")
    net = PolicyValueNet(
        encoder.shape,
        encoder.num_actions,
        NetworkConfig.from_dict(dict(config.network)),
        seed=derive_seed(config.seed, 8),
    )
    losses = fit_value(
        net, encoder, states, targets, epochs=config.value_epochs,
        learning_rate=config.value_learning_rate, seed=derive_seed(config.seed, 9),
    )  # fmt: skip
    save_checkpoint(folder / "value.ckpt", net, encoder, extra={"stage": "value"})
    guesses = values(net, encoder, held)
    error = float(np.mean((guesses - held_targets) ** 2))
    baseline = float(np.mean((held_targets - held_targets.mean()) ** 2))
    record["stages"]["value"] = {
        "positions": len(states),
        "loss": round(losses[-1], 5),
        "held_out_mse": round(error, 5),
        "held_out_mse_of_the_mean": round(baseline, 5),
        "seconds": round(time.monotonic() - started, 1),
    }
    write_json(folder / RECORD, record)
    say(f"value: held-out squared error {error:.3f} (the mean result's: {baseline:.3f})")


def _sl_stage(
    folder: Path,
    config: GoAlphaGoConfig,
    record: dict[str, Any],
    say: Callable[[str], None],
    stop: Callable[[], bool],
) -> None:
    encoder = config.encoder()
    train = GoPositions.load(folder / "expert-train.npz")
    held_out = GoPositions.load(folder / "expert-held-out.npz")
    measure = held_out if len(held_out) else train
    progress: dict[str, Any] = record.setdefault("sl_progress", {"epochs": []})
    latest, optimiser_file = folder / "latest.pt", folder / "sl-optimiser.pt"
    start = len(progress["epochs"])
    optimiser_state = None
    if start and latest.exists() and optimiser_file.exists():
        net = load_checkpoint(latest, encoder=encoder).net
        optimiser_state = torch.load(optimiser_file, weights_only=True)
    else:
        start, progress["epochs"] = 0, []
        net = PolicyValueNet(
            encoder.shape,
            encoder.num_actions,
            NetworkConfig.from_dict(dict(config.network)),
            seed=config.seed,
        )
    clock = {"t": time.monotonic()}

    def on_epoch(done: int, loss: float, optimiser: torch.optim.Optimizer) -> bool:
        accuracy = move_accuracy(net, measure)
        entry = {
            "generation": done,
            "loss": round(loss, 5),
            "loss_policy": round(loss, 5),
            "held_out_accuracy": round(accuracy, 5),
            "seconds": round(time.monotonic() - clock["t"], 1),
        }
        clock["t"] = time.monotonic()
        save_checkpoint(latest, net, encoder, extra={"stage": "sl", "epoch": done})
        buffer_path = optimiser_file.with_name(f".{optimiser_file.name}.tmp")
        torch.save(optimiser.state_dict(), buffer_path)
        os.replace(buffer_path, optimiser_file)
        progress["epochs"].append(entry)
        write_json(folder / RECORD, record)
        write_json(folder / "progress.json", {"entries": progress["epochs"]})
        draw_progress(folder / "progress.png", progress["epochs"], title="go: SL policy")
        say(
            f"sl: epoch {done}/{config.sl_epochs}, loss {loss:.3f}, held-out move accuracy "
            f"{accuracy:.1%} ({entry['seconds']} s)"
        )
        return stop()

    if start < config.sl_epochs:
        fit_sl_policy(
            net,
            train,
            epochs=config.sl_epochs,
            batch_size=config.sl_batch_size,
            learning_rate=config.sl_learning_rate,
            value_weight=config.sl_value_weight,
            seed=config.seed,
            start_epoch=start,
            optimiser_state=optimiser_state,
            on_epoch=on_epoch,
        )
    if len(progress["epochs"]) >= config.sl_epochs:
        save_checkpoint(folder / "sl-policy.ckpt", net, encoder, extra={"stage": "sl"})
        record["stages"]["sl"] = progress["epochs"][-1]
        write_json(folder / RECORD, record)


def run_training(game: Any, out: str | os.PathLike[str], overrides: Mapping[str, Any] | None,
                 **options: Any) -> tuple[int, str]:  # fmt: skip
    """The entry of ``searchlab train go --algorithm alphago``: ``overrides`` are the config
    file's keys (an ``[alphago]`` table, or the keys themselves) and ``seed``; ``deadline``
    and ``should_stop`` end the run after an epoch, resumable. A resumed run without a config
    takes the recorded one. The pipeline runs in this process, on the CPU. Returns the stages
    finished and why it stopped (``"finished"`` or ``"time"``)."""
    device = str(options.get("device") or "cpu")
    if not device.startswith("cpu"):
        raise InvalidParameterError(f"--device {device}: {_OWNER} runs on the CPU")
    data, should_stop = run_options(overrides, options)
    folder = Path(out)
    record = read_record(folder, _OWNER, game="go") if folder.is_dir() else {}
    if record and not overrides:
        config = GoAlphaGoConfig.from_dict(record["config"])
    else:
        config = GoAlphaGoConfig.from_dict({"size": getattr(game, "size", 9), **data})
    if config.size != getattr(game, "size", config.size):
        raise InvalidParameterError(
            f"{_OWNER}: the config's size {config.size} is not the game's {game.size}"
        )
    record = run_go_alphago(folder, config, progress=say_on_stderr, should_stop=should_stop)
    done = sum(stage in record["stages"] for stage in STAGES)
    return done, "finished" if done == len(STAGES) else "time"


def load_go_networks(
    directory: str | os.PathLike[str], *, device: str = "cpu"
) -> tuple[PolicyValueNet, PolicyValueNet, PolicyValueNet, GoRollouts, GoEncoder, dict[str, Any]]:
    """``(sl, rl, value, rollouts, encoder, stages)`` of a finished Go pipeline in
    ``directory``; one line when it is not one (a missing stage named)."""
    folder = Path(directory)
    record = read_record(folder, _OWNER, game="go") if folder.is_dir() else {}
    finished_record(record, STAGES, folder, _OWNER)
    config = GoAlphaGoConfig.from_dict(record["config"])
    encoder = config.encoder()
    nets = [
        load_checkpoint(folder / name, encoder=encoder, device=device).net
        for name in ("sl-policy.ckpt", "rl-policy.ckpt", "value.ckpt")
    ]
    return nets[0], nets[1], nets[2], GoRollouts(), encoder, dict(record["stages"])
