"""The AlphaGo pipeline on Connect Four, stage by stage, resumable.

Silver et al. (2016), *Mastering the game of Go with deep neural networks and tree search*,
trained four policies and a value function, each from the one before, then searched with them.
The same pipeline, with searchlab's exact Connect Four solver as the expert:

1. **expert data** (:mod:`~searchlab.learning.alphago.data`): positions from varied play, each
   labelled with every move's game-theoretic outcome; a held-out set is drawn with another seed;
2. **SL policy network**: classification of the solver's optimal moves
   (:func:`~searchlab.learning.alphago.fit.fit_policy`);
3. **rollout policy** (:mod:`~searchlab.learning.alphago.rollout_policy`): a linear softmax over a
   dozen move features, fitted to the same labels;
4. **RL policy network**: the SL network improved by policy gradient against a pool of its
   earlier versions (:func:`~searchlab.learning.alphago.rl.reinforce`);
5. **value network**: regression on one position per game of the RL policy's self-play
   (:func:`~searchlab.learning.alphago.rl.value_positions`), labelled by the game's result
   (``value_labels="outcome"``, AlphaGo's) or by the solver (``"solver"``);
6. the **search** (:mod:`~searchlab.learning.alphago.search`): PUCT with the SL policy's priors,
   leaves valued ``(1 - lambda) * v + lambda * rollout``, the most visited move.

:func:`run_alphago` runs the stages into a directory, each stage's result written atomically
(checkpoints by :mod:`~searchlab.learning.networks.checkpoint`) and recorded in ``alphago.json``
with its held-out figures; started again on the same directory it skips the finished stages (the RL
stage resumes from its last chunk of ``pool_every`` iterations). :func:`load_alphago` reads a
finished directory back, and :meth:`AlphaGoPipeline.search` makes the search.

>>> import tempfile
>>> config = AlphaGoConfig.tiny()
>>> report = run_alphago(tempfile.mkdtemp(), config)  # doctest: +SKIP
>>> AlphaGoConfig.from_dict({"rl_iterations": 0})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago: rl_iterations must be an integer >= 1, got 0
>>> AlphaGoConfig.from_dict({"lambda": 0.5})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: alphago: unknown key lambda; known: seed, \
expert_positions, test_positions, min_ply, node_budget, random_share, positions_per_game, \
chunk_positions, expert_groups, network, input_features, sl_epochs, sl_learning_rate, \
sl_batch_size, sl_final_lr_fraction, sl_value_weight, sl_child_values, sl_init, held_out, \
rollout_steps, rl_iterations, rl_games, rl_learning_rate, pool_every, rl_form, rl_temperature, \
value_positions, value_labels, value_epochs, value_learning_rate, match_games
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from searchlab.algorithms.mcts.options import DEFAULT_C_PUCT, DEFAULT_SEARCH_BATCH
from searchlab.core.atomic_file import write_atomically
from searchlab.core.checks import check_integer, check_keys
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import Connect4, parse_moves
from searchlab.learning.alphago.data import ExpertPositions
from searchlab.learning.alphago.fit import (
    fit_policy_value,
    fit_value,
    policy_accuracy,
    value_correlation,
)
from searchlab.learning.alphago.labelling import (
    ChunkJob,
    held_out_keys,
    label_chunks,
    merge_chunks,
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
from searchlab.learning.alphago.rollout_policy import RolloutPolicy, fit_rollout_policy
from searchlab.learning.alphago.search import AlphaGoSearch
from searchlab.learning.networks.checkpoint import load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoder import Encoder
from searchlab.learning.networks.encoders import Connect4Encoder
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet, network_keys

__all__ = [
    "STAGES",
    "AlphaGoConfig",
    "AlphaGoPipeline",
    "AlphaGoSummary",
    "load_alphago",
    "run_alphago",
    "run_training",
]

STAGES = ("data", "sl", "rollout", "rl", "value")
"""The stages, in order; ``alphago.json`` records each one finished."""

_FILES = {
    "train": "expert-train.npz",
    "test": "expert/test.npz",
    "latest": "latest.pt",
    "sl": "sl-policy.ckpt",
    "rollout": "rollout-policy.json",
    "rl": "rl-policy.ckpt",
    "value_data": "value-positions.npz",
    "value": "value.ckpt",
}


@dataclass(frozen=True, slots=True)
class AlphaGoConfig:
    """Every knob of the pipeline, checked when made (one line per impossible value).

    Attributes:
        seed: the seed of everything (data, initial weights, minibatches, games).
        expert_positions: solver-labelled positions to train the SL and rollout policies on.
        test_positions: held-out positions (another seed) for the stages' checks.
        min_ply: the fewest stones of an expert position.
        node_budget: the solver's nodes per move; positions it cannot settle are skipped.
        random_share: the share of uniformly random moves in the games the positions come
            from (the rest by the hand-set rollout policy).
        positions_per_game: expert positions drawn from each of those games.
        chunk_positions: expert positions per chunk, the unit of the workers and of resuming.
        expert_groups: more expert positions, drawn otherwise: each a table with ``positions``
            (required) and any of ``min_ply``, ``max_ply`` (default 41), ``node_budget``,
            ``random_share``, ``positions_per_game``, ``chunk_positions`` (default: the keys
            above; smaller chunks share costly openings out among the workers),
            ``hard_budget`` (default 0: when above 0, only positions the solver does not settle
            within that many nodes a move, the ones a small ``node_budget`` skips) and
            ``repeat`` (default 1: how many times the group's positions count in the SL
            training set, to weight a scarce kind). Their chunks
            follow the main group's, numbered on, so adding a group keeps the chunks already
            labelled. A TOML file gives them as ``[[expert_groups]]`` tables: e.g. openings
            (``max_ply = 12`` with a larger ``node_budget``) or endgames (``min_ply = 26``).
        network: the policy and value networks' architecture (a ``NetworkConfig`` table, or
            the flat keys ``network_kind``, ``blocks``, ``channels``, ``hidden``).
        input_features: the networks' input planes: ``"stones"`` (the default: the stones and
            the next cell of each column) or ``"threats"`` (four more: each side's threats,
            the odd rows and who moved first; see
            :class:`~searchlab.learning.networks.encoders.Connect4Encoder`).
        sl_epochs, sl_learning_rate, sl_batch_size, sl_final_lr_fraction: the SL network's
            training (Adam; a cosine from the rate to that fraction of it).
        sl_value_weight: the weight of the SL network's value head (taught the solver's exact
            value of the same positions; 0 trains the policy head alone). With it, the SL
            checkpoint is a whole policy-value network, ``latest.pt`` for the ``az`` agent.
        sl_child_values: the value head also learns the position after every legal move of
            each training position of at most this many stones (0, the default: none), its
            exact value read off the labels (about six more value targets a position, free:
            the positions a search meets at its leaves, after good moves and mistakes).
        held_out: a file of positions (Pons' format, or one move string per line) or a folder
            of such files (no suffix or ``.txt``) whose positions, and their mirror images,
            are never trained on: a labelled position met there is dropped from the SL
            training set (the data stage records how many). Give Pons' test sets here when
            the network is measured on them.
        sl_init: a checkpoint (a path) the SL network starts from instead of random weights:
            fine-tuning an earlier run's network on more expert positions, whose labels are
            then the only ones this run pays for. Its architecture must be ``network``; empty
            (the default) starts from random weights.
        rollout_steps: full-batch Adam steps fitting the rollout policy.
        rl_iterations, rl_games, rl_learning_rate, pool_every: the RL stage (batches of games,
            games per batch, Adam's step, a pool snapshot every ``pool_every`` batches).
        rl_form: the RL stage's form: ``"reinforce"`` (policy gradient, AlphaGo's),
            ``"actor_critic"`` (the value head as the critic, advantage = result - value) or
            ``"value"`` (action values learnt from the results, a softmax over them); see
            :mod:`~searchlab.learning.alphago.rl`.
        rl_temperature: the ``"value"`` form's softmax temperature over the action values.
        value_positions, value_labels, value_epochs, value_learning_rate: the value network
            (positions, one per game; ``"outcome"`` or ``"solver"`` labels; its training).
        match_games: games of the RL-against-SL check.
    """

    seed: int = 0
    expert_positions: int = 3000
    test_positions: int = 400
    min_ply: int = 10
    node_budget: int = 100_000
    random_share: float = 0.3
    positions_per_game: int = 1
    chunk_positions: int = 1000
    expert_groups: tuple[Mapping[str, Any], ...] = ()
    network: Mapping[str, Any] = field(
        default_factory=lambda: {"kind": "resnet", "blocks": 2, "channels": 32, "hidden": 64}
    )
    input_features: str = "stones"
    sl_epochs: int = 15
    sl_learning_rate: float = 2e-3
    sl_batch_size: int = 64
    sl_final_lr_fraction: float = 1.0
    sl_value_weight: float = 1.0
    sl_child_values: int = 0
    sl_init: str = ""
    held_out: str = ""
    rollout_steps: int = 300
    rl_iterations: int = 100
    rl_games: int = 64
    rl_learning_rate: float = 1e-3
    pool_every: int = 10
    rl_form: str = "reinforce"
    rl_temperature: float = 0.1
    value_positions: int = 8000
    value_labels: str = "outcome"
    value_epochs: int = 6
    value_learning_rate: float = 1e-3
    match_games: int = 200

    def __post_init__(self) -> None:
        for name in ("seed", "min_ply", "sl_child_values"):
            _integer(getattr(self, name), name, 0)
        for name in (
            "expert_positions",
            "test_positions",
            "node_budget",
            "positions_per_game",
            "chunk_positions",
            "sl_epochs",
            "sl_batch_size",
            "rollout_steps",
            "rl_iterations",
            "pool_every",
            "value_positions",
            "value_epochs",
            "match_games",
        ):
            _integer(getattr(self, name), name, 1)
        _integer(self.rl_games, "rl_games", 2)
        if self.min_ply > 40:
            raise InvalidParameterError(f"alphago: min_ply must be at most 40, got {self.min_ply}")
        for name in ("sl_learning_rate", "rl_learning_rate", "value_learning_rate"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
                raise InvalidParameterError(f"alphago: {name} must be in (0, 1), got {value!r}")
        for name, interval, inside in (
            ("random_share", "[0, 1]", lambda v: 0 <= v <= 1),
            ("sl_final_lr_fraction", "(0, 1]", lambda v: 0 < v <= 1),
            ("sl_value_weight", "[0, 100]", lambda v: 0 <= v <= 100),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not inside(value):
                raise InvalidParameterError(f"alphago: {name} must be in {interval}, got {value!r}")
        if self.rl_form not in RL_FORMS:
            raise InvalidParameterError(
                f"alphago: rl_form must be one of {', '.join(RL_FORMS)}, got {self.rl_form!r}"
            )
        value = self.rl_temperature
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 100:
            raise InvalidParameterError(
                f"alphago: rl_temperature must be in (0, 100], got {value!r}"
            )
        if self.value_labels not in ("outcome", "solver"):
            raise InvalidParameterError(
                f"alphago: value_labels must be outcome or solver, got {self.value_labels!r}"
            )
        NetworkConfig.from_dict(self.network)
        if self.input_features not in Connect4Encoder.FEATURES:
            raise InvalidParameterError(
                f"alphago: input_features must be one of {', '.join(Connect4Encoder.FEATURES)}, "
                f"got {self.input_features!r}"
            )
        if not isinstance(self.held_out, str):
            raise InvalidParameterError(
                f"alphago: held_out must be a path (a string), got {self.held_out!r}"
            )
        if not isinstance(self.sl_init, str):
            raise InvalidParameterError(
                f"alphago: sl_init must be a checkpoint's path (a string), got {self.sl_init!r}"
            )
        if isinstance(self.expert_groups, Mapping | str) or not isinstance(
            self.expert_groups, list | tuple
        ):
            raise InvalidParameterError(
                f"alphago: expert_groups must be a list of tables, got {self.expert_groups!r}"
            )
        object.__setattr__(
            self, "expert_groups", tuple(self._group(k) for k in range(len(self.expert_groups)))
        )

    _GROUP_KEYS = ("positions", "min_ply", "max_ply", "node_budget", "random_share",
                   "positions_per_game", "chunk_positions", "hard_budget", "repeat")  # fmt: skip

    def _group(self, index: int) -> dict[str, Any]:
        """Group ``index`` of ``expert_groups``, checked, with every key filled in."""
        group = self.expert_groups[index]
        where = f"expert_groups[{index}]"
        if not isinstance(group, Mapping):
            raise InvalidParameterError(f"alphago: {where} must be a table, got {group!r}")
        check_keys(group, self._GROUP_KEYS, owner=f"alphago: {where}")
        if "positions" not in group:
            raise InvalidParameterError(f"alphago: {where} needs positions")
        filled = {
            "positions": group["positions"],
            "min_ply": group.get("min_ply", self.min_ply),
            "max_ply": group.get("max_ply", 41),
            "node_budget": group.get("node_budget", self.node_budget),
            "random_share": group.get("random_share", self.random_share),
            "positions_per_game": group.get("positions_per_game", self.positions_per_game),
            "chunk_positions": group.get("chunk_positions", self.chunk_positions),
            "hard_budget": group.get("hard_budget", 0),
            "repeat": group.get("repeat", 1),
        }
        for name in ("positions", "node_budget", "positions_per_game", "chunk_positions", "repeat"):
            _integer(filled[name], f"{where}.{name}", 1)
        _integer(filled["hard_budget"], f"{where}.hard_budget", 0)
        _integer(filled["min_ply"], f"{where}.min_ply", 0)
        _integer(filled["max_ply"], f"{where}.max_ply", filled["min_ply"])
        if filled["max_ply"] > 41:
            raise InvalidParameterError(
                f"alphago: {where}.max_ply must be at most 41, got {filled['max_ply']}"
            )
        share = filled["random_share"]
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1:
            raise InvalidParameterError(
                f"alphago: {where}.random_share must be in [0, 1], got {share!r}"
            )
        return filled

    @property
    def encoder(self) -> Connect4Encoder:
        """The networks' encoder (with ``input_features``)."""
        return Connect4Encoder(features=self.input_features)

    @property
    def network_config(self) -> NetworkConfig:
        """The networks' architecture."""
        return NetworkConfig.from_dict(self.network)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (``alphago.json`` records it)."""
        data = dataclasses.asdict(self)
        data["network"] = dict(self.network)
        data["expert_groups"] = [dict(group) for group in self.expert_groups]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AlphaGoConfig:
        """A config from a table (a TOML file's keys); unknown keys are refused. The network
        may also be given by the flat keys of ``searchlab train``'s config (``network_kind``,
        ``blocks``, ``channels``, ``hidden``), which replace those of ``network``."""
        data = network_keys(data, cls().network)
        check_keys(data, (field.name for field in dataclasses.fields(cls)), owner="alphago")
        return cls(**data)

    @classmethod
    def key_help(cls) -> list[tuple[tuple[str, ...], str]]:
        """The config keys as the class documents them: ``(keys, text)`` for each entry of
        its *Attributes* (the text written once, there), in order; what ``searchlab train
        --help`` prints for ``--algorithm alphago``.

        >>> entries = dict(AlphaGoConfig.key_help())
        >>> entries[("held_out",)].startswith("a file of positions (Pons' format")
        True
        >>> sorted(k for keys, _ in AlphaGoConfig.key_help() for k in keys) == sorted(
        ...     f.name for f in dataclasses.fields(AlphaGoConfig))
        True
        """
        body = (cls.__doc__ or "").split("Attributes:\n", 1)[1]
        entries: list[tuple[tuple[str, ...], str]] = []
        for line in body.splitlines():
            entry = re.match(r"^ {8}(\w+(?:, \w+)*): (.*)$", line)
            if entry:
                entries.append((tuple(entry[1].split(", ")), entry[2]))
            elif line.startswith(" " * 12) and entries:
                keys, text = entries[-1]
                entries[-1] = (keys, f"{text} {line.strip()}")
        return entries

    @classmethod
    def tiny(cls, seed: int = 0) -> AlphaGoConfig:
        """Seconds-sized settings (the tests'): a few hundred positions, a tiny MLP."""
        return cls(
            seed=seed,
            expert_positions=250,
            test_positions=120,
            min_ply=14,
            node_budget=50_000,
            network={"kind": "mlp", "blocks": 2, "hidden": 64},
            sl_epochs=15,
            sl_learning_rate=3e-3,
            rollout_steps=150,
            rl_iterations=10,
            rl_games=32,
            pool_every=5,
            value_positions=600,
            value_epochs=4,
            value_learning_rate=3e-3,
            match_games=100,
        )


def _integer(value: Any, name: str, low: int) -> None:
    check_integer(value, name, owner="alphago", low=low)


@dataclass(eq=False)
class AlphaGoPipeline:
    """A finished pipeline's parts (see :func:`load_alphago`)."""

    directory: Path
    sl_policy: PolicyValueNet
    rl_policy: PolicyValueNet
    value_net: PolicyValueNet
    rollout_policy: Any
    encoder: Encoder
    figures: dict[str, Any]

    def search(
        self,
        *,
        simulations: int = 200,
        lambda_: float = 0.5,
        c_puct: float = DEFAULT_C_PUCT,
        batch_size: int = DEFAULT_SEARCH_BATCH,
        seed: int = 0,
    ) -> AlphaGoSearch:
        """AlphaGo's search with these networks (see
        :class:`~searchlab.learning.alphago.search.AlphaGoSearch`)."""
        return AlphaGoSearch(
            self.sl_policy,
            self.value_net,
            self.rollout_policy,
            self.encoder,
            simulations=simulations,
            lambda_=lambda_,
            c_puct=c_puct,
            batch_size=batch_size,
            seed=seed,
        )


def _recorded_config(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record's config as :meth:`AlphaGoConfig.to_dict` writes it today (a key added
    since it was written takes its default), or None when it is no config."""
    try:
        return AlphaGoConfig.from_dict(record.get("config") or {}).to_dict()
    except (InvalidParameterError, TypeError):
        return None


def run_alphago(
    directory: str | os.PathLike[str],
    config: AlphaGoConfig | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    stop_after: str | None = None,
    should_stop: Callable[[], bool] | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Run (or resume) the pipeline in ``directory``; return the record of ``alphago.json``
    (the config, the stages finished, their figures and seconds).

    A directory holding a record of another config is refused (one line), so a resumed run
    is the run it continues. ``stop_after`` ends after that stage (a test's partial run);
    ``should_stop()`` is asked between stages, data chunks, SL epochs and RL chunks (a
    deadline, Ctrl-C): the run then returns what it finished, and a later call continues from
    there. ``workers`` processes label the expert data (the same data for any number), and the
    SL fit runs on as many torch threads (its large batches keep them busy; the same number
    gives the same weights).
    """
    folder = Path(directory)
    config = config or AlphaGoConfig()
    if config.sl_init and not (folder / _FILES["sl"]).exists():  # refused before any labelling
        load_checkpoint(config.sl_init, encoder=config.encoder, config=config.network_config)
    held_out = held_out_keys(config.held_out) if config.held_out else frozenset()
    folder.mkdir(parents=True, exist_ok=True)
    if stop_after is not None and stop_after not in STAGES:
        raise InvalidParameterError(
            f"alphago: unknown stage {stop_after!r}; known: {', '.join(STAGES)}"
        )
    record = read_record(folder, "alphago")
    if record and _recorded_config(record) != config.to_dict():
        raise InvalidParameterError(
            f"alphago: {folder} holds a run of another config; use a new directory"
        )
    if not record:  # the config is fixed when the run starts
        record = {"game": "connect4", "config": config.to_dict(), "stages": {}}
        write_json(folder / RECORD, record)
    say = progress or (lambda message: None)
    encoder = config.encoder
    network = config.network_config
    stages: dict[str, Any] = record["stages"]

    def stopping() -> bool:
        return should_stop is not None and should_stop()

    def finish(stage: str, figures: dict[str, Any], started: float) -> None:
        stages[stage] = {**figures, "seconds": round(time.perf_counter() - started, 2)}
        write_json(folder / RECORD, record)
        say(f"{stage}: " + ", ".join(f"{k} {v}" for k, v in stages[stage].items()))

    if stopping():
        return record
    # 1. expert data, in chunks (resumable, across workers)
    if "data" not in stages:
        started = time.perf_counter()
        jobs = _data_jobs(folder, config)
        progress_record = stages.setdefault("data_progress", {"cpu_seconds": {}})
        cpu_seconds: dict[str, float] = progress_record["cpu_seconds"]
        labelled = config.expert_positions + sum(g["positions"] for g in config.expert_groups)
        say(
            f"data: labelling {labelled} + {config.test_positions} positions "
            f"in {len(jobs)} chunks, {workers} worker{'s' if workers != 1 else ''}"
        )

        def chunk_done(job: ChunkJob, seconds: float) -> None:
            cpu_seconds[Path(job.path).stem] = round(seconds, 2)
            write_json(folder / RECORD, record)
            say(f"data: {Path(job.path).stem} done ({len(cpu_seconds)}/{len(jobs)}, "
                f"{seconds:.0f} CPU s)")  # fmt: skip

        if not label_chunks(jobs, workers=workers, should_stop=stopping, on_done=chunk_done):
            return record
        train = merge_chunks([job.path for job in jobs[1:]], [job.repeat for job in jobs[1:]])
        held_out_dropped = 0
        if held_out:
            kept = np.array([parse_moves(line).key() not in held_out for line in train.moves])
            held_out_dropped = len(
                {line for line, k in zip(train.moves, kept, strict=True) if not k}
            )
            train = train.subset(kept)
        test = ExpertPositions.load(folder / _FILES["test"])
        train.save(folder / _FILES["train"])
        finish(
            "data",
            {
                "train": len(train),
                "test": len(test),
                "skipped": train.skipped + test.skipped,
                "held_out_dropped": held_out_dropped,
                "uniform_accuracy": round(test.subset(test.informative()).uniform_accuracy(), 4),
                "cpu_seconds": round(sum(cpu_seconds.values()), 1),
            },
            started,
        )
    if stop_after == "data":
        return record
    train = ExpertPositions.load(folder / _FILES["train"])
    test = ExpertPositions.load(folder / _FILES["test"]).subset(
        ExpertPositions.load(folder / _FILES["test"]).informative()
    )

    if stopping():
        return record
    # 2. SL network (policy head, and the value head unless sl_value_weight is 0),
    #    resumable epoch by epoch; every epoch's weights kept (sl-epoch-KK.ckpt)
    if "sl" not in stages:
        started = time.perf_counter()
        sl_progress = stages.setdefault("sl_progress", {"epochs": 0, "losses": []})
        done = int(sl_progress["epochs"])
        cpu_base = float(stages["data"].get("cpu_seconds", 0.0)) + float(
            sl_progress.get("cpu_seconds", 0.0)
        )
        cpu_started = time.process_time()
        if done:
            net = load_checkpoint(folder / _epoch_file(done), encoder=encoder).net
            optimiser_state = torch.load(
                folder / _optimiser_file(done), weights_only=True, map_location="cpu"
            )
        else:
            net = (
                load_checkpoint(config.sl_init, encoder=encoder, config=network).net
                if config.sl_init
                else PolicyValueNet(
                    encoder.shape, encoder.num_actions, network, seed=derive_seed(config.seed, 3)
                )
            )
            optimiser_state = None
            sl_progress["accuracy_before"] = round(policy_accuracy(net, encoder, test), 4)

        def epoch_done(epoch: int, loss: float, optimiser: Any) -> bool:
            cpu = round(cpu_base + time.process_time() - cpu_started, 1)
            save_checkpoint(
                folder / _epoch_file(epoch),
                net,
                encoder,
                extra={"stage": "sl", "epoch": epoch, "cpu_seconds": cpu},
            )
            _save_atomic(optimiser.state_dict(), folder / _optimiser_file(epoch))
            sl_progress.update(
                epochs=epoch,
                losses=[*sl_progress["losses"], round(loss, 4)],
                cpu_seconds=round(cpu - float(stages["data"].get("cpu_seconds", 0.0)), 1),
            )
            write_json(folder / RECORD, record)
            (folder / _optimiser_file(epoch - 1)).unlink(missing_ok=True)
            accuracy = policy_accuracy(net, encoder, test)
            say(f"sl: epoch {epoch}/{config.sl_epochs}, loss {loss:.4f}, "
                f"accuracy {accuracy:.4f}, {cpu:.0f} CPU s in all")  # fmt: skip
            return stopping()

        threads = torch.get_num_threads()
        torch.set_num_threads(max(1, workers))
        try:
            fit_policy_value(
                net,
                encoder,
                train,
                value_weight=config.sl_value_weight,
                extra_values=(
                    train.child_values(config.sl_child_values) if config.sl_child_values else None
                ),
                epochs=config.sl_epochs,
                batch_size=config.sl_batch_size,
                learning_rate=config.sl_learning_rate,
                final_lr_fraction=config.sl_final_lr_fraction,
                seed=derive_seed(config.seed, 4),
                start_epoch=done,
                optimiser_state=optimiser_state,
                on_epoch=epoch_done,
            )
        finally:
            torch.set_num_threads(threads)
        if int(sl_progress["epochs"]) < config.sl_epochs:
            return record
        save_checkpoint(folder / _FILES["sl"], net, encoder, extra={"stage": "sl"})
        save_checkpoint(folder / _FILES["latest"], net, encoder, extra={"stage": "sl"})
        (folder / _optimiser_file(config.sl_epochs)).unlink(missing_ok=True)
        finish(
            "sl",
            {
                "accuracy_before": sl_progress["accuracy_before"],
                "accuracy": round(policy_accuracy(net, encoder, test), 4),
                "value_correlation": round(
                    value_correlation(net, encoder, ExpertPositions.load(folder / _FILES["test"])),
                    4,
                ),
                "loss": sl_progress["losses"][-1],
                "cpu_seconds": sl_progress["cpu_seconds"],
            },
            started,
        )
    if stop_after == "sl":
        return record
    sl = load_checkpoint(folder / _FILES["sl"], encoder=encoder).net

    if stopping():
        return record
    # 3. rollout policy
    if "rollout" not in stages:
        started = time.perf_counter()
        informative = train.subset(train.informative())
        features = np.stack([RolloutPolicy.features(s) for s in informative.states()])
        rollout = fit_rollout_policy(features, informative.targets(), steps=config.rollout_steps)
        rollout.save(folder / _FILES["rollout"])
        states = test.states()
        chosen = [int(rollout.probabilities(s).argmax()) for s in states]
        heuristic = [int(RolloutPolicy.heuristic().probabilities(s).argmax()) for s in states]
        finish(
            "rollout",
            {
                "accuracy": round(test.accuracy(np.asarray(chosen)), 4),
                "heuristic_accuracy": round(test.accuracy(np.asarray(heuristic)), 4),
            },
            started,
        )
    if stop_after == "rollout":
        return record
    rollout = RolloutPolicy.load(folder / _FILES["rollout"])

    if stopping():
        return record
    # 4. RL policy, in chunks of pool_every iterations (the resumable unit)
    rl_done = stages.get("rl_progress", {}).get("iterations", 0) if "rl" not in stages else None
    if rl_done is not None:
        started = time.perf_counter()
        means = list(stages.get("rl_progress", {}).get("mean_results", []))

        def rl_chunk_done(
            done: int, chunk_means: list[float], pool: list[dict[str, Any]], _: float
        ) -> None:
            means.extend(chunk_means)
            stages["rl_progress"] = {"iterations": done, "mean_results": means}
            write_json(folder / RECORD, record)
            say(f"rl: {done}/{config.rl_iterations} iterations, pool {len(pool)}")

        improved = reinforce_in_chunks(
            config,
            encoder,
            folder / _FILES["sl"],
            folder / _FILES["rl"],
            rl_done,
            on_chunk=rl_chunk_done,
            should_stop=stopping,
        )
        if improved is None:
            return record
        rl, rl_done = improved, config.rl_iterations
        result = rl_against_sl(config, rl, sl, encoder)
        finish(
            "rl",
            {
                "iterations": rl_done,
                "games": rl_done * config.rl_games,
                "score_vs_sl": round(result.score, 4),
                "wins_draws_losses_vs_sl": [result.wins, result.draws, result.losses],
                "accuracy": round(policy_accuracy(rl, encoder, test), 4),
            },
            started,
        )
    if stop_after == "rl":
        return record
    rl = load_checkpoint(folder / _FILES["rl"], encoder=encoder).net

    if stopping():
        return record
    # 5. value network
    if "value" not in stages:
        started = time.perf_counter()
        states, targets = value_positions(
            NetPolicy(sl, encoder),
            rl_policy(rl, encoder, config.rl_form, config.rl_temperature),
            count=config.value_positions,
            seed=derive_seed(config.seed, 7),
        )
        held_states, held_outcomes = value_positions(
            NetPolicy(sl, encoder),
            rl_policy(rl, encoder, config.rl_form, config.rl_temperature),
            count=config.test_positions,
            seed=derive_seed(config.seed, 10),
        )
        held = _solved(held_states, config.node_budget)
        if config.value_labels == "solver":
            solved = _solved(states, config.node_budget)
            states, targets = solved.states(), solved.values()
        value_net = PolicyValueNet(
            encoder.shape, encoder.num_actions, network, seed=derive_seed(config.seed, 8)
        )
        before = value_correlation(value_net, encoder, held)
        losses = fit_value(
            value_net,
            encoder,
            states,
            targets,
            epochs=config.value_epochs,
            learning_rate=config.value_learning_rate,
            seed=derive_seed(config.seed, 9),
        )
        save_checkpoint(folder / _FILES["value"], value_net, encoder, extra={"stage": "value"})
        full_test = ExpertPositions.load(folder / _FILES["test"])
        outcome_of_kept = _outcomes_of(held.moves, held_states, held_outcomes)
        finish(
            "value",
            {
                "positions": len(states),
                "held_out": len(held),
                "correlation_before": round(before, 4),
                "correlation": round(value_correlation(value_net, encoder, held), 4),
                "label_correlation": round(_correlation(outcome_of_kept, held.values()), 4),
                "expert_correlation": round(value_correlation(value_net, encoder, full_test), 4),
                "loss": round(losses[-1], 4),
            },
            started,
        )
    return record


def _data_jobs(folder: Path, config: AlphaGoConfig) -> list[ChunkJob]:
    """The held-out set (first), then the training chunks, the main group's then each of
    ``expert_groups``'; chunk ``k`` from seed ``(seed, 1, k)``, the held-out set (drawn like
    the main group) from ``(seed, 2)``."""
    (folder / "expert").mkdir(exist_ok=True)
    template = ChunkJob(
        -1,
        config.test_positions,
        derive_seed(config.seed, 2),
        str(folder / _FILES["test"]),
        min_ply=config.min_ply,
        node_budget=config.node_budget,
        random_share=config.random_share,
        positions_per_game=config.positions_per_game,
    )
    jobs = [template]
    groups = [(config.expert_positions, config.chunk_positions, template)]
    for group in config.expert_groups:
        drawing = {k: v for k, v in group.items() if k not in ("positions", "chunk_positions")}
        groups.append(
            (group["positions"], group["chunk_positions"], dataclasses.replace(template, **drawing))
        )
    index = 0
    for left, size, drawn_like in groups:
        while left > 0:
            count = min(size, left)
            path = str(folder / "expert" / f"train-{index:04d}.npz")
            seed = derive_seed(config.seed, 1, index)
            jobs.append(
                dataclasses.replace(drawn_like, index=index, count=count, seed=seed, path=path)
            )
            left -= count
            index += 1
    return jobs


def _epoch_file(epoch: int) -> str:
    return f"sl-epoch-{epoch:02d}.ckpt"


def _optimiser_file(epoch: int) -> str:
    return f".sl-optimiser-{epoch:02d}.pt"


def _save_atomic(data: Any, path: Path) -> None:
    buffer = io.BytesIO()
    torch.save(data, buffer)
    write_atomically(path, buffer.getvalue())


def _solved(states: list[Any], node_budget: int) -> ExpertPositions:
    """The states the solver settles within ``node_budget`` nodes a move, with their moves'
    outcomes."""
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
    from searchlab.learning.alphago.data import move_outcomes

    solver = Connect4Solver(table_log2=20)
    kept, labels, seen = [], [], set()
    for state in states:
        if state.moves in seen:
            continue
        seen.add(state.moves)
        outcomes = move_outcomes(state, solver, node_budget=node_budget)
        if outcomes is not None:
            kept.append(state.moves)
            labels.append(outcomes)
    return ExpertPositions(tuple(kept), np.stack(labels) if labels else np.zeros((0, 7), np.int8))


def _outcomes_of(
    positions: Sequence[str], states: Sequence[Any], outcomes: Sequence[float] | np.ndarray
) -> np.ndarray:
    """The game outcome of each of ``positions`` (move strings, in their order), from the first
    of ``states`` reached by those moves, as :func:`_solved` keeps the first of repeated ones
    (self-play games can pass through the same position).

    >>> a, b = Connect4().from_moves("4"), Connect4().from_moves("3")
    >>> _outcomes_of(["3", "4"], [a, b, a], [1.0, -1.0, 0.0]).tolist()
    [-1.0, 1.0]
    """
    first: dict[str, float] = {}
    for state, outcome in zip(states, outcomes, strict=True):
        first.setdefault(state.moves, outcome)
    return np.asarray([first[moves] for moves in positions], dtype=np.float64)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if len(a) < 2 or a.std() == 0 or b.std() == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def load_alphago(directory: str | os.PathLike[str], *, device: str = "cpu") -> AlphaGoPipeline:
    """The networks of a finished pipeline in ``directory``; one ``InvalidParameterError``
    line when a stage is missing (a checkpoint's own problems are a ``CheckpointError``)."""
    folder = Path(directory)
    if not folder.is_dir():
        raise InvalidParameterError(f"alphago: {folder} is not a directory")
    record = read_record(folder, "alphago")
    if record.get("game") == "go":
        from searchlab.learning.alphago.go import load_go_networks

        sl, rl, value_net, rollouts, go_encoder, stages = load_go_networks(folder, device=device)
        return AlphaGoPipeline(folder, sl, rl, value_net, rollouts, go_encoder, stages)
    finished_record(record, STAGES, folder, "alphago")
    game = Connect4()
    sl_checkpoint = load_checkpoint(folder / _FILES["sl"], game, device=device)
    sl, encoder = sl_checkpoint.net, sl_checkpoint.encoder
    rl = load_checkpoint(folder / _FILES["rl"], game, device=device).net
    value_net = load_checkpoint(folder / _FILES["value"], game, device=device).net
    rollout = RolloutPolicy.load(folder / _FILES["rollout"])
    return AlphaGoPipeline(folder, sl, rl, value_net, rollout, encoder, dict(record["stages"]))


@dataclass(frozen=True)
class AlphaGoSummary:
    """What ``searchlab train connect4 --algorithm alphago`` prints: the stages finished (as
    the "generation"), the RL stage's games, why it stopped, and the directory."""

    generation: int
    games: int
    stopped: str
    path: Path


def run_training(game: Any, out: str | os.PathLike[str], overrides: Mapping[str, Any] | None,
                 **options: Any) -> AlphaGoSummary:  # fmt: skip
    """The entry of ``searchlab train connect4 --algorithm alphago`` (the CLI's algorithm
    table): ``overrides`` are the config file's keys (an ``[alphago]`` table, or the keys
    themselves) and ``seed``; ``deadline`` (a ``time.monotonic()`` instant) and
    ``should_stop`` end the run between stages or RL chunks, resumable. The other options of
    the table (pool, on_event) are accepted; the pipeline runs in this process, on the CPU: a
    ``device`` other than the CPU is refused in one line before anything is written."""
    name = getattr(getattr(game, "info", None), "name", None)
    if name == "go":
        from searchlab.learning.alphago.go import run_training as run_go_training

        done, stopped = run_go_training(game, out, overrides, **options)
        return AlphaGoSummary(done, 0, stopped, Path(out))
    if name != "connect4":
        raise InvalidParameterError(f"--algorithm alphago trains connect4 and go, not {name}")
    device = str(options.get("device") or "cpu")
    if not device.startswith("cpu"):
        raise InvalidParameterError(
            f"--device {device}: --algorithm alphago runs on the CPU (its cost is the solver's "
            "labelling); --algorithm alphazero trains and self-plays on a GPU"
        )
    data, should_stop = run_options(overrides, options)
    folder = Path(out)
    record = read_record(folder, "alphago") if folder.is_dir() else {}
    if record and not overrides:
        config = AlphaGoConfig.from_dict(record["config"])
    else:
        config = AlphaGoConfig.from_dict(data)
    workers = options.get("workers") or 1
    record = run_alphago(
        folder, config, progress=say_on_stderr, should_stop=should_stop, workers=workers
    )
    stages = record["stages"]
    done = sum(stage in stages for stage in STAGES)
    games = stages.get("rl", stages.get("rl_progress", {})).get("iterations", 0) * config.rl_games
    stopped = "finished" if done == len(STAGES) else "time"
    return AlphaGoSummary(done, games, stopped, folder)
