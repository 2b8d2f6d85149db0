"""AlphaZero: self-play -> replay window -> training -> a new generation, evaluated, in a loop.

:func:`train_alphazero` runs the loop of Silver et al. (2018) in a training directory
(:class:`~searchlab.learning.alphazero.run_dir.RunDirectory`), one generation at a time:

1. **self-play**: the current network plays ``games_per_generation`` games against itself
   with PUCT (:mod:`~searchlab.learning.alphazero.selfplay`: Dirichlet noise, temperature,
   resignation, playout-cap randomisation; or, with ``root = "gumbel"``, Gumbel self-play: the
   improved policy as the target), in chunks handed to the workers
   (:mod:`~searchlab.learning.alphazero.workers`); each finished chunk is stored at once;
2. **training**: ``train_steps`` minibatch steps on the replay window of the last
   ``window_games`` games (symmetry augmentation), policy cross-entropy + value MSE + L2
   (:mod:`~searchlab.learning.alphazero.trainer`), at the step size of ``lr_schedule`` for the
   fraction of the run's budget spent when the generation's training ends: ``generation /
   max_generations``, or the time spent of ``deadline`` (the larger when both are set; a
   resumed run spreads what its schedule had left over its new deadline), so a cosine schedule
   ends near ``lr_final_fraction * learning_rate`` whatever the machine's speed;
3. **evaluation**: the new network plays the previous one (``eval_games``, PUCT with
   ``eval_simulations``; its Elo is the previous one's plus the Elo difference of the score,
   generation 0 at 0) and a fixed reference agent (``reference``: alpha-beta, MCTS...); for a
   game small enough to enumerate, the **mistake rate** of the network alone (no search) over
   every position is measured against the exact values;
4. the new generation is checkpointed (``latest.pt``, atomically) with the optimiser's state and
   the figures; the best generation so far (:func:`merit`) also as ``best.pt``; and, with
   ``keep_checkpoints``, as ``checkpoints/gen-NNNN.pt`` (the newest N, or every one);
   ``progress.json`` and ``progress.png`` are rewritten, and the chunks that left the window
   are deleted.

The loop stops after ``max_generations``, at the ``deadline``, or when ``should_stop()`` says
so. Near the deadline the current generation ends early with the games it has, early enough
for its training, evaluation and saving (as long as the last generation's took) to end by the
deadline. Killed at any moment, it resumes from ``latest.pt`` and the stored chunks: no
finished chunk is played twice, and on a CPU the resumed run is the uninterrupted one.

>>> import tempfile, torch
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> from searchlab.learning.alphazero.train_config import config_for
>>> config = config_for("tictactoe", {"games_per_generation": 8, "chunk_games": 4,
...     "simulations": 8, "train_steps": 5, "max_generations": 1, "eval_games": 2,
...     "reference": "", "games_in_flight": 4})
>>> summary = train_alphazero(TicTacToe(), tempfile.mkdtemp(), config)
>>> summary.generation, summary.games
(1, 8)
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from searchlab.core.elo import elo_difference
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game
from searchlab.core.workers import InlinePool, Pool, RayPool
from searchlab.learning.alphazero.evaluation import exact_table, mistake_rate, policy_chooser, tally
from searchlab.learning.alphazero.replay import ReplayWindow, block_from_records
from searchlab.learning.alphazero.run_dir import RunDirectory
from searchlab.learning.alphazero.train_config import TrainConfig
from searchlab.learning.alphazero.trainer import Trainer, scheduled_learning_rate
from searchlab.learning.alphazero.workers import (
    MatchGameTask,
    SelfPlayTask,
    play_chunk,
    play_match_game,
)
from searchlab.learning.networks.checkpoint import load_checkpoint, save_checkpoint
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator, check_device
from searchlab.learning.networks.network import PolicyValueNet

__all__ = [
    "KEEP_ALL",
    "Event",
    "TrainSummary",
    "describe_entry",
    "merit",
    "run_training",
    "train_alphazero",
]

Event = Callable[[str, dict[str, Any]], None]
"""``on_event(kind, info)``: ``"start"``, ``"chunk"`` (games done / planned), ``"trained"``,
``"generation"`` (the figures), ``"stop"``."""

KEEP_ALL = "all"
"""``keep_checkpoints=KEEP_ALL``: a ``checkpoints/gen-NNNN.pt`` for every generation."""

_EXACT_CELLS = 16  # enumerate exact values only for boards this small (tic-tac-toe)


@dataclass(frozen=True, slots=True)
class TrainSummary:
    """Where a :func:`train_alphazero` call left the run.

    Attributes:
        generation: the newest generation saved (0: the random network).
        games: self-play games stored over the whole run (each counted once).
        entries: the per-generation figures (``progress.json``'s ``generations``).
        stopped: why the call returned: ``"generations"``, ``"time"`` or ``"stopped"``.
        path: the training directory.
    """

    generation: int
    games: int
    entries: tuple[dict[str, Any], ...]
    stopped: str
    path: Path


def train_alphazero(
    game: Game,
    out: str | Path | RunDirectory,
    config: TrainConfig | None = None,
    *,
    game_name: str | None = None,
    game_params: dict[str, Any] | None = None,
    deadline: float | None = None,
    device: str = "cpu",
    pool: Pool | None = None,
    workers: int = 1,
    on_event: Event | None = None,
    should_stop: Callable[[], bool] | None = None,
    keep_checkpoints: int | str | None = None,
) -> TrainSummary:
    """Train ``game`` by AlphaZero in the directory ``out`` (new, or a run to resume).

    Args:
        game: the game (a registry game: the workers rebuild it by ``game_name`` and
            ``game_params``, default ``game.info.name`` and no parameters).
        out: the training directory (or an open :class:`RunDirectory`).
        config: the settings of a new run (default: the game's); a resumed run keeps its own.
        deadline: a ``time.monotonic()`` instant to stop at (``None``: no limit).
        device: where training, the evaluation and self-play run (``cpu``, ``cuda``): the
            self-play workers of this process and of local processes evaluate on it too (each
            process its own copy of the network); Ray's workers self-play on their CPU.
        pool: the self-play workers (default: this process).
        workers: how many chunks to hand out at once (the pool's size).
        on_event: progress callback (see :data:`Event`).
        should_stop: asked between waves of chunks; ``True`` returns at once (the finished
            chunks are kept; the generation is not closed: a resumed run completes it).
        keep_checkpoints: generation files kept in ``checkpoints/`` besides ``latest.pt`` and
            ``best.pt``: the newest N (``0``: none), or :data:`KEEP_ALL`; older ones are
            deleted. ``None``: the run's own choice (recorded in ``latest.pt``; ``0`` for a new
            run, every one for a run started before the choice existed).
    """
    invoked = time.monotonic()
    name = game_name if game_name is not None else game.info.name
    params = dict(game_params or {})
    run = out if isinstance(out, RunDirectory) else RunDirectory.open(out, name, params, config)
    config = run.config
    torch_device = check_device(device)
    emit = on_event if on_event is not None else (lambda kind, info: None)
    stop_now = should_stop if should_stop is not None else (lambda: False)
    pool = pool if pool is not None else InlinePool()
    selfplay_device = "cpu" if isinstance(pool, RayPool) else str(torch_device)
    encoder = encoder_for(game)
    symmetries = encoder.symmetries() if config.symmetries else None

    # --- the newest generation, or a fresh network --------------------------------------------
    keep = _checked_keep(keep_checkpoints)
    if run.latest_path.exists():
        checkpoint = load_checkpoint(run.latest_path, game, device=str(torch_device))
        net = checkpoint.net
        extra = checkpoint.extra
        if keep is None:  # a run from before the choice kept every generation
            keep = _checked_keep(extra.get("keep_checkpoints", KEEP_ALL))
    else:
        net = PolicyValueNet(
            encoder.shape, encoder.num_actions, config.network(encoder.shape), seed=config.seed
        ).to(torch_device)
        keep = 0 if keep is None else keep
        extra = {"generation": 0, "next_game": 0, "entries": [], "elo": 0.0, "optimizer": None}
        _save(run, net, encoder, {**extra, "keep_checkpoints": keep}, generation=0, keep=keep)
        run.log(f"start: {name}, network {net.describe()}, seed {config.seed}")
    net.eval()
    trainer = Trainer(
        net,
        learning_rate=config.learning_rate,
        weight_decay=config.weight_decay,
        batch_size=config.train_batch,
        optimizer=config.optimizer,
        device=torch_device,
    )
    if extra.get("optimizer"):
        trainer.load_state_dict(extra["optimizer"])
    generation = int(extra["generation"])
    first = int(extra["next_game"])
    entries: list[dict[str, Any]] = list(extra.get("entries", []))
    elo = float(extra.get("elo", 0.0))
    spent_before = float(extra.get("schedule_progress", 0.0))
    budget = deadline - invoked if deadline is not None else None

    def schedule_progress(trained: int, reserve: float) -> float:
        # the fraction of the run's budget spent once generation `trained` is trained
        parts = [spent_before]
        if config.max_generations:
            parts.append(trained / config.max_generations)
        if budget is not None and budget > 0:
            used = (time.monotonic() + reserve - invoked) / budget
            parts.append(spent_before + (1.0 - spent_before) * used)
        return min(1.0, max(parts))

    table = exact_table(game) if encoder.shape[1] * encoder.shape[2] <= _EXACT_CELLS else {}
    emit("start", {"generation": generation, "games": first, "network": net.describe()})
    run.log(
        f"resume at generation {generation}, game {first}"
        if generation or first
        else "generation 0: self-play"
    )

    stopped = "generations"
    last_train = 0.0  # the last generation's training time
    tail = 0.0  # the last generation's training, evaluation and saving: kept for at the end
    while True:
        if config.max_generations and generation >= config.max_generations:
            break
        if _past(deadline, tail):
            stopped = "time"
            break
        if stop_now():
            stopped = "stopped"
            break
        # 1. self-play: the chunks of this generation's range that have no file yet
        end = first + config.games_per_generation
        stored = [c for c in run.chunks() if c.first >= first and c.end <= end]
        done = {c.first for c in stored}
        todo = [s for s in range(first, end, config.chunk_games) if s not in done]
        weights = net.cpu_weights()
        selfplay = config.selfplay()
        played = sum(c.end - c.first for c in stored)
        started = time.monotonic()
        stats: list[Any] = []
        cut_short = False
        width = max(1, workers)
        while todo:
            wave, todo = todo[:width], todo[width:]
            tasks = [
                SelfPlayTask(
                    name,
                    params,
                    net.config.to_dict(),
                    weights,
                    selfplay,
                    config.seed,
                    s,
                    min(config.chunk_games, end - s),
                    generation,
                    selfplay_device,
                )
                for s in wave
            ]
            for task, records, stat in pool.run(tasks, play_chunk):
                block = block_from_records(game, encoder, records, generation=generation)
                run.save_chunk(block)
                played += task.games
                stats.append(stat)
                emit(
                    "chunk",
                    {
                        "generation": generation,
                        "played": played,
                        "planned": config.games_per_generation,
                    },
                )
            if stop_now():
                run.log(
                    f"stopped during self-play of generation {generation} ({played} games kept)"
                )
                return _summary(run, generation, first + played, entries, "stopped")
            if todo and _past(deadline, tail):
                cut_short = True
                break
        if cut_short:
            # close the generation early at its first unplayed chunk; a chunk stored past it
            # (a resumed run's) would otherwise pass for the next generation's: drop it
            end = min(todo)
            for chunk in run.chunks():
                if chunk.first >= end:
                    chunk.path.unlink()
            stopped = "time"
        selfplay_seconds = time.monotonic() - started
        tail_start = time.monotonic()
        # 2. training on the window
        window = ReplayWindow(config.window_games)
        chunks = [c for c in run.chunks() if c.end <= end and c.end > end - config.window_games]
        window.extend(run.load_chunk(c) for c in chunks)
        previous = copy.deepcopy(net).eval()
        started = time.monotonic()
        progress = schedule_progress(generation + 1, last_train)
        learning_rate = scheduled_learning_rate(
            config.learning_rate, progress, config.lr_schedule, config.lr_final_fraction
        )
        losses = trainer.train(
            window,
            steps=config.train_steps,
            seed=config.seed,
            generation=generation,
            symmetries=symmetries,
            learning_rate=learning_rate,
        )
        train_seconds = time.monotonic() - started
        last_train = train_seconds
        emit("trained", {"generation": generation, "loss": losses.total})
        # 3. evaluation
        generation += 1
        entry = _evaluate(
            game,
            config,
            net,
            previous,
            encoder,
            table,
            generation=generation,
            device=str(torch_device),
            pool=pool,
            name=name,
            params=params,
            worker_device=selfplay_device,
        )
        elo += entry.pop("elo_gain")
        positions = sum(s.positions_evaluated for s in stats)
        entry.update(
            elo=round(elo, 1),
            games=end,
            samples=len(window),
            loss=round(losses.total, 5),
            loss_policy=round(losses.policy, 5),
            loss_value=round(losses.value, 5),
            learning_rate=float(f"{learning_rate:.4g}"),
            selfplay_seconds=round(selfplay_seconds, 2),
            train_seconds=round(train_seconds, 2),
            positions_per_second=round(positions / selfplay_seconds, 1) if stats else None,
            time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        entries.append(entry)
        # 4. the new generation, atomically; then the derived files
        extra = {
            "generation": generation,
            "next_game": end,
            "entries": entries,
            "elo": elo,
            "optimizer": trainer.state_dict(),
            "schedule_progress": progress,
            "keep_checkpoints": keep,
        }
        best = merit(entry) >= max(merit(e) for e in entries)  # ties: the newer
        _save(run, net, encoder, extra, generation=generation, keep=keep, best=best)
        first = end
        run.write_progress(entries, {"generation": generation, "games": end})
        _plot(run, entries)
        run.prune(end - config.window_games)
        run.log(describe_entry(entry))
        emit("generation", dict(entry))
        tail = time.monotonic() - tail_start
        if stopped == "time":
            break
    run.log(f"stop ({stopped}) at generation {generation}, {first} games")
    return _summary(run, generation, first, entries, stopped)


def run_training(
    game: Game,
    out: str | Path,
    overrides: dict[str, Any] | None,
    **options: Any,
) -> TrainSummary:
    """:func:`train_alphazero` with the config of a new run made from ``overrides`` (a config
    file's keys, over the game's defaults; ``None``: the game's defaults); a run resumed keeps
    its own settings, and ``overrides`` that disagree with them are refused in one line naming
    the keys. The entry of ``searchlab train --algorithm alphazero``."""
    from searchlab.learning.alphazero.train_config import config_for

    name = options.get("game_name") or game.info.name
    params = dict(options.get("game_params") or {})
    if overrides is not None and (Path(out) / "run.json").exists():
        # resuming: the keys given must agree with the run's own settings
        stored = RunDirectory.open(out, name, params, None).config
        wanted = config_for(name, {**stored.to_dict(), **overrides})
        run = RunDirectory.open(out, name, params, wanted)
        return train_alphazero(game, run, None, **options)
    config = config_for(name, overrides) if overrides is not None else None
    return train_alphazero(game, out, config, **options)


def _past(deadline: float | None, reserve: float = 0.0) -> bool:
    """Whether the deadline has passed, or will before ``reserve`` more seconds of work."""
    return deadline is not None and time.monotonic() + reserve >= deadline


def _summary(
    run: RunDirectory, generation: int, games: int, entries: list[dict[str, Any]], stopped: str
) -> TrainSummary:
    stored = max([games, *(c.end for c in run.chunks())])
    return TrainSummary(generation, stored, tuple(entries), stopped, run.path)


def _checked_keep(keep: int | str | None) -> int | str | None:
    """``keep_checkpoints`` checked: ``None``, a whole number >= 0 or :data:`KEEP_ALL`."""
    if keep is None or keep == KEEP_ALL:
        return keep
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise InvalidParameterError(
            f"keep_checkpoints must be a whole number >= 0 or {KEEP_ALL!r}, got {keep!r}"
        )
    return keep


def merit(entry: dict[str, Any]) -> tuple[float, ...]:
    """How good a generation is by the run's own measure, larger is better: fewer network
    mistakes where the run counts them against exact values (tic-tac-toe), then the higher
    Elo; elsewhere the Elo alone. ``best.pt`` is the generation of the largest merit.

    >>> merit({"elo": 40.0, "mistake_rate": 0.25}) > merit({"elo": 90.0, "mistake_rate": 0.5})
    True
    >>> merit({"elo": 40.0}) < merit({"elo": 90.0})
    True
    """
    rate = entry.get("mistake_rate")
    elo = float(entry.get("elo", 0.0))
    if rate is None or math.isnan(rate):
        return (elo,)
    return (-float(rate), elo)


def _save(
    run: RunDirectory,
    net: PolicyValueNet,
    encoder: Any,
    extra: dict[str, Any],
    *,
    generation: int,
    keep: int | str | None,
    best: bool = False,
) -> None:
    """The generation's files, ``latest.pt`` last (the one a resumed run reads): its
    ``gen-NNNN.pt`` when kept, ``best.pt`` (without the optimiser's state) when it is the
    best so far; then the generation files older than the newest ``keep`` are deleted."""
    if keep == KEEP_ALL or (isinstance(keep, int) and keep > 0):
        save_checkpoint(run.generation_path(generation), net, encoder, extra=extra)
    if best:
        plain = {key: value for key, value in extra.items() if key != "optimizer"}
        save_checkpoint(run.best_path, net, encoder, extra=plain)
    save_checkpoint(run.latest_path, net, encoder, extra=extra)
    if isinstance(keep, int):
        run.prune_checkpoints(generation - keep)


def _evaluate(
    game: Game,
    config: TrainConfig,
    net: PolicyValueNet,
    previous: PolicyValueNet,
    encoder: Any,
    table: dict[Any, Any],
    *,
    generation: int,
    device: str,
    pool: Pool,
    name: str,
    params: dict[str, Any],
    worker_device: str,
) -> dict[str, Any]:
    """The new generation's figures: its games against the previous generation and the
    reference, played by the workers (one task a game, all at once), and, for a small game,
    the network's mistake rate (in this process)."""
    search = config.puct(noise=False)
    entry: dict[str, Any] = {"generation": generation, "elo_gain": 0.0}
    seed = config.seed * 1_000_003 + generation

    weights = net.cpu_weights()
    matches = {
        "previous": config.eval_games,
        "reference": config.reference_games if config.reference else 0,
    }
    opponents = {
        "previous": previous.cpu_weights() if config.eval_games else None,
        "reference": None,
    }
    tasks = [
        MatchGameTask(
            name,
            params,
            net.config.to_dict(),
            weights,
            opponents[match],
            config.reference if match == "reference" else "",
            search,
            seed,
            number,
            match,
            worker_device,
            config.eval_simulations,
        )
        for match, games in matches.items()
        for number in range(games)
    ]
    outcomes: dict[str, list[tuple[int, int]]] = {"previous": [], "reference": []}
    for task, outcome in pool.run(tasks, play_match_game):
        outcomes[task.match].append((task.number, outcome))
    if config.eval_games:
        result = tally([o for _, o in sorted(outcomes["previous"])])
        entry["score_vs_previous"] = round(result.score, 4)
        entry["elo_gain"] = elo_difference(result.score, games=result.games)
    if config.reference:
        result = tally([o for _, o in sorted(outcomes["reference"])])
        entry["reference"] = config.reference
        entry["score_vs_reference"] = round(result.score, 4)
        entry["reference_losses"] = result.losses
    if table:
        evaluator = NetworkEvaluator(net, encoder, device)
        rate = mistake_rate(table, policy_chooser(evaluator, table))
        entry["mistake_rate"] = round(rate, 6)
        entry["mistakes"] = round(rate * len(table))
        entry["positions"] = len(table)
    return entry


SAMPLED_OPENING = "the network's first move sampled"
"""What the score against the reference carries in the progress line: the network's first move
of each game is drawn from its root visits at temperature 1 (so the games differ), so even a
network without a mistake can lose some games to a perfect reference."""


def describe_entry(entry: dict[str, Any]) -> str:
    """One line of a generation's figures (the log's and the command line's); the score against
    the reference says that the network's first move was sampled (:data:`SAMPLED_OPENING`).

    >>> print(describe_entry({"generation": 3, "games": 600, "loss": 1.0, "loss_policy": 0.7,
    ...     "loss_value": 0.3, "elo": 120.0, "reference": "alphabeta:depth=9",
    ...     "score_vs_reference": 0.38, "mistakes": 0, "positions": 4520, "mistake_rate": 0.0}))
    ... # doctest: +NORMALIZE_WHITESPACE
    generation 3, games 600, loss 1.000 (policy 0.700, value 0.300), Elo +120,
    vs alphabeta:depth=9 0.38 (the network's first move sampled), network mistakes 0/4520 (0.00%)
    """
    parts = [
        f"generation {entry['generation']}",
        f"games {entry['games']}",
        f"loss {entry['loss']:.3f} (policy {entry['loss_policy']:.3f}, "
        f"value {entry['loss_value']:.3f})",
        f"Elo {entry['elo']:+.0f}",
    ]
    if "score_vs_reference" in entry:
        parts.append(
            f"vs {entry['reference']} {entry['score_vs_reference']:.2f} ({SAMPLED_OPENING})"
        )
    if entry.get("mistake_rate") is not None and not math.isnan(entry["mistake_rate"]):
        if "mistakes" in entry:  # the count: a rate rounded to 0.0% can hide a mistake or two
            parts.append(
                f"network mistakes {entry['mistakes']}/{entry['positions']} "
                f"({100 * entry['mistake_rate']:.2f}%)"
            )
        else:
            parts.append(f"network mistakes {100 * entry['mistake_rate']:.1f}%")
    return ", ".join(parts)


def _plot(run: RunDirectory, entries: list[dict[str, Any]]) -> None:
    try:
        from searchlab.learning.alphazero.progress_plot import draw_progress
    except ImportError:  # Pillow (the cli extra) is not installed: no picture
        return
    draw_progress(run.path / "progress.png", entries, title=f"{run.game_name}: AlphaZero")
