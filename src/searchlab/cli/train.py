"""``searchlab train GAME --out DIR``: learn a game from scratch by self-play (AlphaZero).

  searchlab train tictactoe --time 5m --out runs/ttt
  searchlab train connect4 --time 2h --workers 2 --out runs/c4
  searchlab train connect4 --config c4.toml --seed 3 --device cuda --out runs/c4-gpu
  searchlab train connect4 --ray --workers 8 --out runs/c4       (a local Ray instance)
  searchlab train connect4 --ray 10.0.0.5:6379 --out runs/c4     (an existing Ray cluster)

The training directory holds the checkpoints (``latest.pt``, ``best.pt`` and, with --keep,
the generations' own), the stored self-play games, ``train.log``, ``progress.json`` and
``progress.png``. Running the same command again resumes where the run stopped, however it
stopped (Ctrl-C, --time, a kill).
The algorithm is chosen from :data:`ALGORITHMS` (a name and the function that trains).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
from collections.abc import Mapping
from typing import Any

from searchlab.cli._common import (
    add_param_argument,
    add_ray_argument,
    has_module,
    worker_count,
)
from searchlab.core.errors import InvalidParameterError
from searchlab.core.text_file import read_text

__all__ = ["ALGORITHMS", "parse_duration", "register"]

ALGORITHMS: dict[str, str] = {
    "alphazero": "searchlab.learning.alphazero.pipeline:run_training",
    "alphago": "searchlab.learning.alphago.pipeline:run_training",
}
"""Training algorithms by name: a ``"module:function"`` reference, imported when chosen. The
function takes ``(game, out, overrides, *, game_name, game_params, deadline, device, pool,
workers, on_event, should_stop)`` (see ``searchlab.learning.alphazero.pipeline.run_training``) and
returns a summary with ``generation``, ``games``, ``stopped`` and ``path``."""

DESCRIPTION = """\
Learn GAME from scratch by self-play: the network plays itself with PUCT, the games go to a
replay window, the network is trained on it (policy cross-entropy + value MSE + L2, symmetry
augmentation), and each new generation is evaluated against the previous one (Elo) and a
reference agent, in a loop (AlphaZero). Every generation is checkpointed atomically in --out
as latest.pt, and the best so far also as best.pt (fewest network mistakes where they are
counted, tic-tac-toe; else the highest Elo); --keep N also keeps the newest N generations as
checkpoints/gen-NNNN.pt (--keep all: every one). The log, progress.json and the picture
progress.png (losses, Elo, mistake rate) follow it.

Stop it any way you like (Ctrl-C: exit 130, --time, even a kill): the same command resumes
from the last generation and the stored games; no finished game is lost or counted twice.
The settings of a run are fixed when it starts (config.toml in --out): --config FILE.toml
(keys below) and --seed apply to a new run. The trained network plays as the agent
az:checkpoint=DIR (search) or policy:checkpoint=DIR (the network alone).

--algorithm alphago runs the AlphaGo pipeline instead. On Connect Four: positions labelled by
the exact solver, an SL policy-value network, a rollout policy, an RL policy and a value
network, each stage resumable (its own keys below; docs/learning.md walks through it). On Go:
the SL policy network from a folder of expert SGF games (expert = "DIR" in the config, e.g.
made by searchlab expert go), resumable epoch by epoch (keys: see
searchlab.learning.alphago.go.GoAlphaGoConfig).
"""

EXAMPLES = """\
examples:
  searchlab train tictactoe --time 5m --out runs/ttt
  searchlab play tictactoe --second az:checkpoint=runs/ttt
  searchlab train connect4 --time 2h --workers 2 --out runs/c4
  searchlab train connect4 --ray --workers 4 --out runs/c4
  searchlab expert go --games 2000 --out expert9
  searchlab train go --algorithm alphago --config go-sl.toml --out runs/go-sl
"""

_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_duration(text: str) -> float:
    """``"90s"``, ``"5m"``, ``"1.5h"``, ``"1h30m"`` or plain seconds -> seconds.

    >>> parse_duration("90s"), parse_duration("5m"), parse_duration("1h30m"), parse_duration("45")
    (90.0, 300.0, 5400.0, 45.0)
    """
    compact = text.strip().lower()
    try:
        seconds = float(compact)
    except ValueError:
        parts = re.findall(r"(\d+(?:\.\d+)?)([smhd])", compact)
        if not parts or "".join(n + u for n, u in parts) != compact:
            raise argparse.ArgumentTypeError(
                f"expected a duration like 90s, 5m, 3h or 1h30m, got {text!r}"
            ) from None
        seconds = sum(float(n) * _UNITS[u] for n, u in parts)
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a duration > 0, got {text!r}")
    return seconds


class _HelpWithKnobs(argparse.Action):
    """``--help``: the usage, then every config key with its default (imports the learning
    layer only when asked)."""

    def __init__(
        self,
        option_strings: list[str],
        dest: str = argparse.SUPPRESS,
        default: str = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: Any,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        parser.epilog = knob_table() + "\n" + EXAMPLES
        parser.print_help()
        parser.exit()


def knob_table() -> str:
    """The config keys, their defaults (and the per-game ones) and what they do."""
    try:
        from searchlab.learning.alphazero.train_config import GAME_DEFAULTS, TrainConfig
    except ImportError:
        return "config keys: install PyTorch to see them: pip install 'searchlab[learn]'\n"
    import dataclasses

    games = list(GAME_DEFAULTS)
    lines = ["config keys (FILE.toml: key = value; default, then per-game defaults):"]
    for item in dataclasses.fields(TrainConfig):
        per_game = ", ".join(
            f"{g} {GAME_DEFAULTS[g][item.name]!r}" for g in games if item.name in GAME_DEFAULTS[g]
        )
        default = f"{item.default!r}" + (f" ({per_game})" if per_game else "")
        lines.append(f"  {item.name:<24} {default}")
        lines.append(f"  {'':<24}   {item.metadata['help']}")
    return "\n".join([*lines, "", *_alphago_keys()]) + "\n"


def _alphago_keys() -> list[str]:
    """The ``--algorithm alphago`` config keys, their defaults and what they do (the text of
    ``AlphaGoConfig``'s own documentation), wrapped to the terminal's help width."""
    import textwrap

    from searchlab.learning.alphago.pipeline import AlphaGoConfig

    defaults = AlphaGoConfig()
    lines = ["config keys of --algorithm alphago (FILE.toml: key = value; default):"]
    for keys, text in AlphaGoConfig.key_help():
        values = ", ".join(repr(getattr(defaults, key)) for key in keys)
        if any(isinstance(getattr(defaults, key), Mapping) for key in keys):
            values = ", ".join(f"{k}={v!r}" for k, v in dict(getattr(defaults, keys[0])).items())
        lines.append(f"  {', '.join(keys)}  ({values})")
        lines += textwrap.wrap(
            text.replace("``", ""), 88, initial_indent=" " * 5, subsequent_indent=" " * 5
        )
    return lines


def register(subparsers: Any) -> None:
    """Add ``train`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "train",
        help="learn a game by self-play (AlphaZero): checkpoints, log, progress.png",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
    )
    parser.add_argument(
        "-h", "--help", action=_HelpWithKnobs, help="this help, with the config keys"
    )
    parser.add_argument("game", help="a registered game with an encoder: tictactoe, connect4, ...")
    parser.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="the training directory (new, or a run to resume)",
    )
    parser.add_argument(
        "--algorithm",
        default="alphazero",
        metavar="NAME",
        help=f"the training algorithm: {', '.join(ALGORITHMS)} (default alphazero)",
    )
    parser.add_argument(
        "--config", metavar="FILE.toml", help="settings of a new run (keys: see below)"
    )
    parser.add_argument(
        "--time",
        type=parse_duration,
        metavar="DURATION",
        help="stop after this long (90s, 5m, 3h, 1h30m): the generation then running ends early "
        "with the games it has, and is trained and saved; default: until max_generations or "
        "Ctrl-C",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="the run's seed (default 0; a new run only)"
    )
    parser.add_argument(
        "--device",
        default="cpu",
        help="where the network trains and self-play evaluates it: cpu, cuda, cuda:N (default "
        "cpu; with --workers K each worker process holds its own copy on the device; Ray's "
        "workers and --algorithm alphago stay on the CPU)",
    )
    parser.add_argument(
        "--workers",
        type=worker_count,
        default=1,
        metavar="K",
        help="self-play worker processes (default 1: in this process)",
    )
    add_ray_argument(
        parser,
        "run the self-play workers on Ray: alone, a local Ray instance; with ADDRESS "
        "(host:port), that cluster (needs pip install 'searchlab[ray]')",
    )
    parser.add_argument(
        "--keep",
        type=_keep,
        default=None,
        metavar="N|all",
        help="alphazero: also keep the newest N generations as checkpoints/gen-NNNN.pt, or "
        "all of them (default: the run's own choice; a new run keeps none, only latest.pt "
        "and best.pt)",
    )
    add_param_argument(parser, example="m=4")
    parser.set_defaults(func=run)


def _keep(text: str) -> int | str:
    """``argparse`` type of ``--keep``: a whole number >= 0 or ``all``."""
    if text.strip().lower() == "all":
        return "all"
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0 or 'all', got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Check everything (game, config, device, workers), then train until told to stop."""
    from searchlab.cli._common import parse_params
    from searchlab.games import make

    if args.algorithm not in ALGORITHMS:
        raise InvalidParameterError(
            f"--algorithm {args.algorithm!r}: unknown; known: {', '.join(ALGORITHMS)}"
        )
    params = parse_params(args.param)
    game = make(args.game, **params)
    try:
        import torch
    except ImportError:
        raise InvalidParameterError(
            "'searchlab train' needs PyTorch: pip install 'searchlab[learn]'"
        ) from None
    from searchlab.learning.networks.encoders import encoder_for
    from searchlab.learning.networks.evaluator import check_device

    encoder_for(game)  # a game without an encoder: one line, before anything is written
    try:
        check_device(args.device)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"--device: {error}") from None
    overrides = _overrides(args)
    options: dict[str, Any] = {}
    if args.keep is not None:
        if args.algorithm != "alphazero":
            raise InvalidParameterError(
                f"--keep: --algorithm {args.algorithm} keeps its stage checkpoints; "
                "--keep is for alphazero"
            )
        options["keep_checkpoints"] = args.keep
    module, _, function = ALGORITHMS[args.algorithm].partition(":")
    train = getattr(importlib.import_module(module), function)
    deadline = time.monotonic() + args.time if args.time else None
    # one thread: these networks are small, and OpenMP threads that wait for each other on a
    # busy machine cost far more than they bring
    torch.set_num_threads(1)

    from searchlab.learning.alphazero.workers import make_pool

    address = None if args.ray in (None, "local") else args.ray
    pool = make_pool(args.workers, ray=args.ray is not None, address=address)
    try:
        with _Display(args.game) as display:
            summary = train(
                game,
                args.out,
                overrides,
                game_name=args.game,
                game_params=params,
                deadline=deadline,
                device=args.device,
                pool=pool,
                workers=args.workers,
                on_event=display.event,
                should_stop=None,
                **options,
            )
    finally:
        pool.close()
    print(
        f"{args.game}: generation {summary.generation}, {summary.games} self-play games "
        f"({summary.stopped}); {summary.path}/latest.pt, {summary.path}/progress.png"
    )
    print(f"play it: searchlab play {args.game} --second az:checkpoint={summary.path}")
    return 0


def _overrides(args: argparse.Namespace) -> dict[str, Any] | None:
    from searchlab.learning.alphazero.train_config import parse_config_text

    overrides: dict[str, Any] | None = None
    if args.config:
        tables = ("expert_groups",) if args.algorithm == "alphago" else ()
        text = read_text(args.config)
        overrides = parse_config_text(text, source=args.config, tables=tables)
    if args.seed is not None:
        overrides = {**(overrides or {}), "seed": args.seed}
    return overrides


class _Display:
    """Progress bars (rich, on a terminal) and one line per generation on stderr."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.progress: Any = None
        self.task: Any = None
        self.description = ""

    def __enter__(self) -> _Display:
        if has_module("rich"):
            from searchlab.cli._common import progress_bar

            self.progress = progress_bar(remaining=False)
            self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)

    def _say(self, text: str) -> None:
        if self.progress is not None and self.progress.console.is_terminal:
            self.progress.console.print(text)
        else:
            print(text, file=sys.stderr, flush=True)

    def event(self, kind: str, info: dict[str, Any]) -> None:
        if kind == "start":
            self._say(
                f"{self.game}: {info['network']}; from generation {info['generation']}, "
                f"{info['games']} games stored"
            )
        elif kind == "chunk" and self.progress is not None:
            description = f"generation {info['generation']} self-play"
            if self.task is None or self.description != description:
                if self.task is not None:
                    self.progress.remove_task(self.task)
                self.task = self.progress.add_task(description, total=info["planned"])
                self.description = description
            self.progress.update(self.task, completed=info["played"])
        elif kind == "generation":
            from searchlab.learning.alphazero.pipeline import describe_entry

            self._say(describe_entry(info))
