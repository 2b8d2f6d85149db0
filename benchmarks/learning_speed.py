"""Speed of AlphaZero self-play, side by side in one run: lock-step PUCT against the network's
raw forward throughput, and against a search that evaluates one position at a time.

The game's default network and search of ``searchlab train GAME`` (Connect Four: a resnet
4x32, 200 simulations a move, 8 leaves a search under virtual loss, 32 games in lock step;
tic-tac-toe: an MLP 3x256, 96 simulations, 4 leaves, 64 games), with the network's initial
weights (seeded: a forward pass costs the same whatever the weights), one torch thread (as
``searchlab train`` runs), on the CPU. Times are CPU seconds of this process (the machine is
shared: its other jobs lengthen wall-clock times, much less CPU times). Each repetition
measures every side, one after the other (A B C A B C ...: the machine's load falls on every
side alike; the ratios are of the medians):

* **forward alone**: ``net(planes)`` under ``torch.inference_mode`` on ready-made planes: the
  network as trained (evaluation mode) at the full lock-step batch (``games_in_flight *
  search_batch``), and the evaluator's inference copy (batch normalisation folded,
  channels-last) at the full batch, at the mean batch self-play sent, and at batch 1. The best
  of the batched rows is **the limit**;
* **lock-step self-play** (:func:`searchlab.learning.alphazero.selfplay.self_play` over
  :mod:`searchlab.algorithms.mcts.puct`): one chunk of ``games_in_flight`` games, as
  ``searchlab train`` plays them (Dirichlet noise, temperature, one ``evaluate_batch`` per
  step: encoding, legal masks, masked softmax and the trees all counted), with the config's
  evaluation cache (``cache_size``, Connect Four's default: the evaluations of a chunk's last
  131,072 positions, :mod:`searchlab.learning.networks.evaluation_cache`); the positions the
  *network* evaluated per CPU second (the cache's misses), and games per hour. With a cache, the
  same chunk again **without** it, on its own row: the same games (the script checks it), so the
  cache's share of the speed is in plain view;
* **one position at a time**: the first of those games (whole games, at least
  ``--baseline-moves`` moves) played again, move by move, each position searched with the same
  simulations and the same network by a search that asks it one position at a time (batch 1,
  no lock step): the reference PUCT (:func:`searchlab.algorithms.mcts.mcts`,
  ``tier="reference"``, ``lambda_=0``, the evaluator's ``evaluate(state)``) and the array PUCT
  at ``batch_size=1``; with a cache, the array PUCT at batch 1 also with one (the same
  capacity, kept from move to move of the replayed games as self-play keeps it). Replaying
  the very games makes the sides search the same positions, so games per hour compare
  directly.

The ratios: lock-step network positions per second over the limit (target >= 60%), and
lock-step games per hour over the reference PUCT's one at a time (target >= 10x), with the
cache and without it, and over the cached array PUCT at batch 1 (batching alone, the cache on
both sides). The games-per-hour ratio is the product of the forward pass's own gain from
batching (the limit over batch 1), the share of its forward rate each side keeps (lock-step of
the limit, the reference PUCT of batch 1's), and the ratio of the positions the network
evaluated per game (the cache's part); the script prints the factors. The games (their
moves) are the same in every repetition (a seed) and without the cache: the script checks it.
The targets are Connect Four's; tic-tac-toe's MLP is so cheap that the search's Python, not
the network, sets its pace.

    nice -n 15 python benchmarks/learning_speed.py [--games connect4 tictactoe] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import torch

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.puct import search
from searchlab.core.limits import Limits
from searchlab.domains.games.registry import make as make_game
from searchlab.learning.alphazero.selfplay import GameRecord, SelfPlayConfig, self_play
from searchlab.learning.alphazero.train_config import TrainConfig, config_for
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluation_cache import EvaluationCache
from searchlab.learning.networks.evaluator import NetworkEvaluator
from searchlab.learning.networks.network import PolicyValueNet

POSITION_TARGET = 0.60  # lock-step positions per second / the forward limit
GAMES_TARGET = 10.0  # lock-step games per hour / the reference PUCT's one at a time
TARGET_GAME = "connect4"

NET_FULL = "forward alone: the network, full batch"
COPY_FULL = "forward alone: inference copy, full batch"
COPY_MEAN = "forward alone: inference copy, mean batch"
COPY_ONE = "forward alone: inference copy, batch 1"
LOCK_STEP = "lock-step self-play (the array PUCT)"
LOCK_STEP_BARE = "lock-step self-play, no cache"
REFERENCE = "one at a time: reference PUCT (mcts)"
ARRAYS_ONE = "one at a time: array PUCT, batch 1"
ARRAYS_CACHED = "one at a time: array PUCT, batch 1, cache"


@dataclass
class Setup:
    """A game with its default network, evaluator and self-play settings."""

    name: str
    game: Any
    config: TrainConfig
    selfplay: SelfPlayConfig
    net: PolicyValueNet
    evaluator: NetworkEvaluator


def setup(name: str, seed: int) -> Setup:
    game = make_game(name)
    encoder = encoder_for(game)
    config = config_for(name)
    net = PolicyValueNet(
        encoder.shape, encoder.num_actions, config.network(encoder.shape), seed=seed
    )
    net.eval()
    return Setup(name, game, config, config.selfplay(), net, NetworkEvaluator(net, encoder))


def forward_rate(net: PolicyValueNet, batch: int, seconds: float) -> float:
    """Positions per CPU second of ``net(planes)`` alone at ``batch`` (after a warm-up pass),
    the planes made beforehand in the layout of the network's convolutions."""
    planes = torch.rand(batch, *net.shape, generator=torch.Generator().manual_seed(0))
    if next(net.parameters()).is_contiguous(memory_format=torch.channels_last):
        planes = planes.contiguous(memory_format=torch.channels_last)
    with torch.inference_mode():
        net(planes)
        passes = 0
        start = time.process_time()
        while True:
            net(planes)
            passes += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds and passes >= 3:
                return passes * batch / elapsed


def replay_one_at_a_time(
    run: Setup, records: Sequence[GameRecord], searcher: Callable[[Any], Any]
) -> tuple[float, int]:
    """CPU seconds to search every position of ``records`` with ``searcher`` (one search per
    move played), and the number of searches."""
    searches = 0
    start = time.process_time()
    for record in records:
        state = run.game.initial_state()
        for action in record.actions:
            searcher(state)
            searches += 1
            state = state.apply(action)
    return time.process_time() - start, searches


def first_moves(records: Sequence[GameRecord], moves: int) -> tuple[GameRecord, ...]:
    """The first games of ``records`` (by index), as few as hold at least ``moves`` moves."""
    chosen: list[GameRecord] = []
    for record in records:
        if sum(len(game.actions) for game in chosen) >= moves:
            break
        chosen.append(record)
    return tuple(chosen)


def reference_searcher(run: Setup) -> Callable[[Any], Any]:
    """The reference PUCT with the network, one position per evaluation."""
    simulations = run.selfplay.simulations
    c_puct = run.selfplay.search.c_puct

    def searcher(state: Any) -> Any:
        return mcts(
            run.game,
            state,
            limits=Limits(simulations=simulations),
            evaluator=run.evaluator,
            lambda_=0.0,
            c_puct=c_puct,
            tier="reference",
        )

    return searcher


def array_searcher(run: Setup, cache_size: int = 0) -> Callable[[Any], Any]:
    """The array PUCT of self-play at batch 1, one game at a time (with an evaluation cache of
    ``cache_size`` positions kept across its searches, when > 0)."""
    base = run.selfplay.search
    evaluator: Any = EvaluationCache(run.evaluator, cache_size) if cache_size else run.evaluator

    def searcher(state: Any) -> Any:
        return search(
            state, evaluator, base, num_simulations=run.selfplay.simulations, search_batch=1,
            virtual_loss=0.0, dirichlet_alpha=None,
        )  # fmt: skip

    return searcher


class Table:
    """The rows of one game, printed as they come, with their medians at the end."""

    def __init__(self) -> None:
        self.rates: dict[str, list[float]] = {}
        self.hours: dict[str, list[float]] = {}
        self.positions: dict[str, int] = {}
        self.games: dict[str, int] = {}
        print(
            f"{'rep':>3} {'side':<42} {'batch':>6} {'games':>5} {'moves':>5} {'positions':>9} "
            f"{'CPU s':>7} {'positions/s':>11} {'games/h':>8}"
        )

    def row(self, rep: int, side: str, batch: str, seconds: float, rate: float,
            games: int | None = None, moves: int | None = None,
            positions: int | None = None) -> None:  # fmt: skip
        per_hour = None if games is None else games / seconds * 3600
        print(
            f"{rep:>3} {side:<42} {batch:>6} {_blank(games):>5} {_blank(moves):>5} "
            f"{_blank(positions):>9} {seconds:>7.2f} {rate:>11,.0f} {_blank(per_hour):>8}"
        )
        self.rates.setdefault(side, []).append(rate)
        if per_hour is not None:
            self.hours.setdefault(side, []).append(per_hour)
        if games and positions:
            self.games[side] = self.games.get(side, 0) + games
            self.positions[side] = self.positions.get(side, 0) + positions

    def rate(self, side: str) -> float:
        return statistics.median(self.rates[side])

    def per_hour(self, side: str) -> float:
        return statistics.median(self.hours[side])

    def per_game(self, side: str) -> float:
        """Positions evaluated per game, over every repetition."""
        return self.positions[side] / self.games[side]

    def print_medians(self) -> None:
        print("medians:")
        for side in self.rates:
            hours = _blank(self.per_hour(side)) if side in self.hours else ""
            print(f"{'':>3} {side:<42} {'':>40} {self.rate(side):>11,.0f} {hours:>8}")


def _blank(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f}"


def measure(run: Setup, repeat: int, baseline_moves: int, seed: int, seconds: float) -> bool:
    """Run the repetitions of one game, print its table and ratios; ``True`` when both
    targets are met."""
    sp = run.selfplay
    chunk = sp.games_in_flight
    full_batch = sp.games_in_flight * sp.search.search_batch
    cache = sp.cache_size
    print(
        f"\n== {run.name}: {run.net.describe()}; {sp.simulations} simulations a "
        f"move, {sp.search.search_batch} leaves a search, {sp.games_in_flight} games in lock "
        f"step (one chunk of {chunk} games, seed {seed}), "
        f"{f'an evaluation cache of {cache:,} positions' if cache else 'no evaluation cache'}; "
        f"one at a time: its first games, at least {baseline_moves} moves"
    )
    table = Table()
    first_games: tuple[GameRecord, ...] | None = None
    same = True
    lock_steps = [(LOCK_STEP, sp)]
    if cache:
        lock_steps.append((LOCK_STEP_BARE, replace(sp, cache_size=0)))
    one_at_a_time = [(REFERENCE, lambda: reference_searcher(run)),
                     (ARRAYS_ONE, lambda: array_searcher(run))]  # fmt: skip
    if cache:
        one_at_a_time.append((ARRAYS_CACHED, lambda: array_searcher(run, cache)))
    for rep in range(1, repeat + 1):
        mean_batch = 1
        for side, config in lock_steps:
            start = time.process_time()
            result = self_play(run.game, run.evaluator, chunk, config=config, seed=seed)
            elapsed = time.process_time() - start
            stats = result.stats
            if first_games is None:
                first_games = result.records
            elif [r.actions for r in result.records] != [r.actions for r in first_games]:
                same = False  # the same moves (a cached row may differ in the last float bit)
            network_batch = stats.network_positions / max(1, stats.evaluation_calls)
            if side == LOCK_STEP:
                mean_batch = max(1, round(network_batch))
            table.row(
                rep,
                side,
                f"{network_batch:.1f}",
                elapsed,
                stats.network_positions / elapsed,
                stats.games,
                stats.moves,
                stats.network_positions,
            )
        inference = run.evaluator.inference_net()
        for side, net, batch in (
            (NET_FULL, run.net, full_batch),
            (COPY_FULL, inference, full_batch),
            (COPY_MEAN, inference, mean_batch),
            (COPY_ONE, inference, 1),
        ):
            table.row(rep, side, str(batch), seconds, forward_rate(net, batch, seconds))
        assert first_games is not None
        records = first_moves(first_games, baseline_moves)
        for side, make_searcher in one_at_a_time:
            before = run.evaluator.positions
            elapsed, searches = replay_one_at_a_time(run, records, make_searcher())
            positions = run.evaluator.positions - before
            table.row(
                rep, side, "1", elapsed, positions / elapsed, len(records), searches, positions
            )
    table.print_medians()
    limit = max(table.rate(side) for side in (NET_FULL, COPY_FULL, COPY_MEAN))
    share = table.rate(LOCK_STEP) / limit
    speedup = table.per_hour(LOCK_STEP) / table.per_hour(REFERENCE)
    batching = limit / table.rate(COPY_ONE)
    kept = table.rate(REFERENCE) / table.rate(COPY_ONE)
    print(
        f"lock-step network positions/s over the limit (the best batched forward alone): "
        f"{share:.0%} (target >= {POSITION_TARGET:.0%})"
    )
    print(
        f"lock-step games/h over one at a time: {speedup:.1f}x the reference PUCT (target >= "
        f"{GAMES_TARGET:g}x), "
        f"{table.per_hour(LOCK_STEP) / table.per_hour(ARRAYS_ONE):.1f}x the array PUCT at batch 1"
    )
    if cache:
        bare = table.per_hour(LOCK_STEP_BARE)
        print(
            f"without the cache: {table.rate(LOCK_STEP_BARE) / limit:.0%} of the limit, "
            f"{bare / table.per_hour(REFERENCE):.1f}x the reference PUCT's games/h; the cache "
            f"alone: {table.per_hour(LOCK_STEP) / bare:.2f}x lock-step's games/h, "
            f"{table.per_hour(ARRAYS_CACHED) / table.per_hour(ARRAYS_ONE):.2f}x the array "
            f"PUCT's at batch 1; batching alone, the cache on both sides: "
            f"{table.per_hour(LOCK_STEP) / table.per_hour(ARRAYS_CACHED):.1f}x"
        )
    per_game = table.per_game(REFERENCE) / table.per_game(LOCK_STEP)
    print(
        f"the factors: the forward pass gains {batching:.1f}x from batching (the limit over "
        f"batch 1) x lock-step keeps {share:.2f} of the limit / the reference PUCT keeps "
        f"{kept:.2f} of batch 1's rate x network positions per game "
        f"{table.per_game(REFERENCE):.0f} / {table.per_game(LOCK_STEP):.0f} = "
        f"{batching * share / kept * per_game:.1f}x"
    )
    print(f"the same games in every repetition{' and without the cache' if cache else ''}: "
          f"{'yes' if same else 'NO'}")  # fmt: skip
    return share >= POSITION_TARGET and speedup >= GAMES_TARGET


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=" ".join((__doc__ or "").split("\n\n")[0].split()),
        epilog="The module docstring says what each side measures.",
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=[TARGET_GAME, "tictactoe"],
        help="games to measure (default: connect4 tictactoe)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument(
        "--baseline-moves",
        type=int,
        default=20,
        help="replay one position at a time the first games up to at least this many moves "
        "(default 20)",
    )
    parser.add_argument(
        "--forward-seconds",
        type=float,
        default=1.0,
        help="CPU seconds of each forward-alone measurement (default 1)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="torch threads (default 1, as searchlab train)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="self-play seed: game i draws from (seed, i) (default 1)",
    )
    args = parser.parse_args(argv)
    if min(args.repeat, args.baseline_moves, args.threads) < 1 or args.seed < 0:
        parser.error("--repeat, --baseline-moves and --threads must be >= 1, --seed >= 0")
    if not args.forward_seconds > 0:
        parser.error("--forward-seconds must be > 0")
    torch.set_num_threads(args.threads)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"AlphaZero self-play speed on the CPU, {args.threads} torch thread(s), torch "
        f"{torch.__version__}, numpy {np.__version__}; {os.cpu_count()} CPUs, load average "
        f"(1, 5, 15 min) {load}"
    )
    met = None
    for name in args.games:
        wall = time.perf_counter()
        ok = measure(
            setup(name, seed=0), args.repeat, args.baseline_moves, args.seed, args.forward_seconds
        )
        if name == TARGET_GAME:
            met = ok
        print(f"({name}: {time.perf_counter() - wall:.0f} s wall clock)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if met is not None:
        print(f"{TARGET_GAME}: {'both targets met' if met else 'a target missed'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
