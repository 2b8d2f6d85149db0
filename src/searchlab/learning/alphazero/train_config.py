"""Every knob of an AlphaZero training run, checked, with per-game defaults and TOML files.

:class:`TrainConfig` is a frozen dataclass: making one checks every field and an impossible
value is one ``InvalidParameterError`` line naming the key. A config file is TOML with the same
keys at the top level (``searchlab train --help`` lists them with their defaults); a key the
config does not know is refused with the list of known ones. :func:`config_for` starts from
the defaults tuned for a game (tic-tac-toe's learn perfect play in a few minutes on a 2-core
CPU) and applies a file's or a caller's overrides.

>>> config = config_for("tictactoe", {"simulations": 40})
>>> config.simulations, config.network().kind
(40, 'mlp')
>>> parse_config_text('simulations = 50\\nlearning_rate = 0.01\\n')
{'simulations': 50, 'learning_rate': 0.01}
>>> config_for("tictactoe", {"simulatons": 40})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: config: unknown key simulatons; known: seed, ...
>>> config_for("connect4", {"c_puct": -1})
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: config: c_puct must be a finite number >= 0, got -1
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from searchlab.algorithms.mcts.options import FPU_MODES, ROOT_RULES, MCTSOptions, option_help
from searchlab.core.checks import check_integer, check_keys
from searchlab.core.errors import InvalidParameterError
from searchlab.learning.alphazero.selfplay import SelfPlayConfig
from searchlab.learning.alphazero.trainer import LR_SCHEDULES, OPTIMIZERS
from searchlab.learning.networks.network import KINDS, NetworkConfig

__all__ = ["GAME_DEFAULTS", "TrainConfig", "config_for", "config_to_toml", "parse_config_text"]

_HELP: dict[str, str] = {}


def _knob(default: Any, text: str) -> Any:
    return dataclasses.field(default=default, metadata={"help": text})


def _search_knob(name: str, **default: Any) -> Any:
    """A knob of the search: the :class:`~searchlab.algorithms.mcts.options.MCTSOptions`
    field ``name``, its default and help as the options declare them once (``default=``
    where training starts elsewhere)."""
    value, text, choices = option_help(name)
    if choices and not all(choice in text for choice in choices):
        text += f" ({', '.join(choices)})"
    return _knob(default.get("default", value), text)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrainConfig:
    """The settings of a training run (see the ``help`` text of each field, or
    ``searchlab train --help``)."""

    seed: int = _knob(0, "seed of self-play, training and evaluation")
    games_per_generation: int = _knob(200, "self-play games per generation")
    chunk_games: int = _knob(32, "games per saved chunk (a kill loses at most one per worker)")
    max_generations: int = _knob(0, "stop after this many generations (0: until --time)")
    simulations: int = _knob(100, "search simulations per self-play move")
    c_puct: float = _search_knob("c_puct")
    search_batch: int = _search_knob("search_batch")
    virtual_loss: float = _search_knob("virtual_loss")
    fpu: float = _search_knob("fpu")
    fpu_mode: str = _search_knob("fpu_mode")
    root: str = _search_knob("root")
    nonroot: str = _search_knob("nonroot")
    max_num_considered_actions: int = _search_knob("max_num_considered_actions")
    c_visit: float = _search_knob("c_visit")
    c_scale: float = _search_knob("c_scale")
    games_in_flight: int = _knob(32, "self-play games searched in lock step")
    dirichlet_alpha: float = _knob(
        0.3,
        "root Dirichlet noise concentration of PUCT self-play (0: no noise; a Gumbel root "
        "explores by its own draws)",
    )
    dirichlet_epsilon: float = _search_knob("dirichlet_epsilon")
    temperature: float = _knob(
        1.0, "move temperature of the first temperature_plies plies (PUCT root only)"
    )
    temperature_plies: int = _knob(8, "plies sampled at the temperature, then most visited")
    resign_threshold: float = _knob(-1.0, "resign below this value (-1: never resign)")
    no_resign_fraction: float = _knob(0.1, "games played out to measure false resignations")
    full_search_probability: float = _knob(1.0, "playout-cap randomisation: P(full search)")
    cheap_simulations: int = _knob(0, "simulations of a cheap search (needed when p < 1)")
    random_opening_plies: int = _knob(
        0, "games open with 0..N uniformly random moves, not samples (0: none)"
    )
    cache_size: int = _knob(
        0, "self-play keeps the evaluations of the last N positions of a chunk (0: none)"
    )
    window_games: int = _knob(2000, "replay window: the last N games")
    train_steps: int = _knob(200, "gradient steps per generation")
    train_batch: int = _knob(128, "samples per gradient step")
    learning_rate: float = _knob(1e-3, "optimiser step size (the start of lr_schedule)")
    lr_schedule: str = _knob("constant", "constant, or cosine: decay over --time / max_generations")
    lr_final_fraction: float = _knob(0.05, "cosine: the last step size, over learning_rate")
    weight_decay: float = _knob(1e-4, "L2 regularisation")
    optimizer: str = _knob("adam", "adam or sgd (momentum 0.9)")
    symmetries: bool = _knob(True, "augment each sample by a random board symmetry")
    network_kind: str = _knob("", "resnet or mlp ('' : the game's default)")
    blocks: int = _knob(0, "residual blocks / MLP layers (0: default)")
    channels: int = _knob(0, "residual tower channels (0: default)")
    hidden: int = _knob(0, "value head / MLP width (0: default)")
    eval_games: int = _knob(20, "games against the previous generation (0: none)")
    eval_simulations: int = _knob(100, "simulations per move in evaluation games")
    reference: str = _knob("", "agent spec the generations also play ('' : none)")
    reference_games: int = _knob(10, "games against the reference per generation")

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            kind: Any = type(item.default)
            if kind is bool:
                if not isinstance(value, bool):
                    raise InvalidParameterError(
                        f"config: {item.name} must be true or false, got {value!r}"
                    )
            elif kind is int:
                check_integer(value, item.name, owner="config", low=0)
            elif kind is float:
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                ):
                    raise InvalidParameterError(
                        f"config: {item.name} must be a finite number, got {value!r}"
                    )
                if value < 0 and item.name not in ("resign_threshold", "fpu"):
                    raise InvalidParameterError(
                        f"config: {item.name} must be a finite number >= 0, got {value!r}"
                    )
                object.__setattr__(self, item.name, float(value))
            elif not isinstance(value, str):
                raise InvalidParameterError(f"config: {item.name} must be a string, got {value!r}")
        for name in (
            "games_per_generation",
            "chunk_games",
            "simulations",
            "search_batch",
            "games_in_flight",
            "window_games",
            "train_batch",
            "eval_simulations",
        ):
            if getattr(self, name) < 1:
                raise InvalidParameterError(
                    f"config: {name} must be an integer >= 1, got {getattr(self, name)!r}"
                )
        if self.learning_rate <= 0:
            raise InvalidParameterError(
                f"config: learning_rate must be > 0, got {self.learning_rate!r}"
            )
        if self.lr_schedule not in LR_SCHEDULES:
            raise InvalidParameterError(
                f"config: lr_schedule must be one of {', '.join(LR_SCHEDULES)}, got "
                f"{self.lr_schedule!r}"
            )
        if not 0.0 < self.lr_final_fraction <= 1.0:
            raise InvalidParameterError(
                f"config: lr_final_fraction must be in (0, 1], got {self.lr_final_fraction!r}"
            )
        if self.optimizer not in OPTIMIZERS:
            raise InvalidParameterError(
                f"config: optimizer must be one of {', '.join(OPTIMIZERS)}, got {self.optimizer!r}"
            )
        if self.network_kind not in ("", *KINDS):
            raise InvalidParameterError(
                f"config: network_kind must be one of {', '.join(KINDS)} (or '' for the "
                f"default), got {self.network_kind!r}"
            )
        if self.fpu_mode not in FPU_MODES:
            raise InvalidParameterError(
                f"config: fpu_mode must be one of {', '.join(FPU_MODES)}, got {self.fpu_mode!r}"
            )
        for rule in ("root", "nonroot"):
            if getattr(self, rule) not in ROOT_RULES:
                raise InvalidParameterError(
                    f"config: {rule} must be one of {', '.join(ROOT_RULES)}, got "
                    f"{getattr(self, rule)!r}"
                )
        if not -1.0 <= self.resign_threshold < 1.0:
            raise InvalidParameterError(
                f"config: resign_threshold must be in [-1, 1) (-1: never), got "
                f"{self.resign_threshold!r}"
            )
        if self.reference_games < 1 and self.reference:
            raise InvalidParameterError("config: reference_games must be >= 1 with a reference")
        # the parts built from these knobs check the rest (ranges of the search, self-play)
        try:
            self.selfplay()
            self.network()
        except InvalidParameterError as error:
            raise InvalidParameterError(f"config: {error}") from None

    def puct(self, *, noise: bool = True) -> MCTSOptions:
        """How self-play (``noise``: the root's Dirichlet noise) or evaluation (none)
        searches: the one :class:`~searchlab.algorithms.mcts.options.MCTSOptions`, made from
        these knobs (a TOML file has no ``None``: ``dirichlet_alpha = 0`` is no noise). A
        Gumbel root (``root = "gumbel"``) takes no Dirichlet noise: its Gumbel draws are the
        exploration, and noise would reach its improved policy, the policy target."""
        noise = noise and self.dirichlet_alpha > 0 and self.root == "puct"
        return MCTSOptions(
            c_puct=self.c_puct,
            search_batch=self.search_batch,
            virtual_loss=self.virtual_loss,
            fpu=self.fpu,
            fpu_mode=self.fpu_mode,  # type: ignore[arg-type]
            dirichlet_alpha=self.dirichlet_alpha if noise else None,
            dirichlet_epsilon=self.dirichlet_epsilon,
            root=self.root,  # type: ignore[arg-type]
            nonroot=self.nonroot,  # type: ignore[arg-type]
            max_num_considered_actions=self.max_num_considered_actions,
            c_visit=self.c_visit,
            c_scale=self.c_scale,
        )

    def selfplay(self) -> SelfPlayConfig:
        """The :class:`~searchlab.learning.alphazero.selfplay.SelfPlayConfig` of these knobs."""
        return SelfPlayConfig(
            search=self.puct(),
            simulations=self.simulations,
            games_in_flight=self.games_in_flight,
            temperature=self.temperature,
            temperature_plies=self.temperature_plies,
            resign_threshold=None if self.resign_threshold <= -1.0 else self.resign_threshold,
            no_resign_fraction=self.no_resign_fraction,
            full_search_probability=self.full_search_probability,
            cheap_simulations=self.cheap_simulations or None,
            random_opening_plies=self.random_opening_plies,
            cache_size=self.cache_size,
        )

    def network(self, shape: tuple[int, int, int] = (3, 3, 3)) -> NetworkConfig:
        """The architecture: the game's default (``NetworkConfig.default_for(shape)``) with the
        knobs that are set."""
        base = NetworkConfig.default_for(shape)
        return NetworkConfig(
            kind=self.network_kind or base.kind,
            blocks=self.blocks or base.blocks,
            channels=self.channels or base.channels,
            hidden=self.hidden or base.hidden,
        )

    def to_dict(self) -> dict[str, Any]:
        """The knobs as a plain dict."""
        return {item.name: getattr(self, item.name) for item in fields(self)}


GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {
        "games_per_generation": 128,
        "chunk_games": 64,
        "games_in_flight": 64,
        "simulations": 96,
        "search_batch": 4,
        "dirichlet_alpha": 1.0,
        "dirichlet_epsilon": 0.35,
        "temperature": 1.5,
        "temperature_plies": 9,
        "window_games": 4096,
        "train_steps": 400,
        "train_batch": 256,
        "learning_rate": 2e-3,
        "lr_schedule": "cosine",
        "random_opening_plies": 4,
        "blocks": 3,
        "hidden": 256,
        "eval_games": 10,
        "eval_simulations": 48,
        "reference": "alphabeta:depth=9",
        "reference_games": 4,
    },
    "connect4": {
        "games_per_generation": 256,
        "chunk_games": 64,
        "games_in_flight": 64,
        "simulations": 200,
        "dirichlet_alpha": 1.0,
        "temperature_plies": 10,
        "window_games": 5000,
        "train_steps": 400,
        "eval_simulations": 200,
        "cache_size": 1 << 17,
        "reference": "mcts:simulations=2000",
    },
}
"""Per-game defaults, over the dataclass's."""


def config_for(game_name: str, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """The config of a run of ``game_name``: the game's defaults, then ``overrides`` (a config
    file's keys); unknown keys are refused in one line naming them and the known ones."""
    values = dict(GAME_DEFAULTS.get(game_name, {}))
    given = dict(overrides or {})
    check_keys(given, (item.name for item in fields(TrainConfig)), owner="config")
    values.update(given)
    return TrainConfig(**values)


def parse_config_text(
    text: str, source: str = "config", *, tables: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The keys of a TOML config text; one line for a syntax error or a nested table or list,
    except for the keys named in ``tables``: arrays of tables (``[[name]]``), which the
    config they feed checks (the alphago pipeline's ``expert_groups``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidParameterError(f"{source}: not valid TOML ({error})") from None
    for key, value in data.items():
        if key in tables and isinstance(value, list) and all(isinstance(v, dict) for v in value):
            continue
        if isinstance(value, dict | list):
            raise InvalidParameterError(
                f"{source}: {key} must be a single value, not a table or a list"
            )
    return data


def config_to_toml(config: TrainConfig) -> str:
    """The config as TOML text (every key, with its help as a comment)."""
    lines = []
    for item in fields(config):
        value = getattr(config, item.name)
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str):
            text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        else:
            text = repr(value)
        lines.append(f"{item.name} = {text}  # {item.metadata['help']}")
    return "\n".join(lines) + "\n"
