"""What a GPU buys AlphaZero on Connect Four, side by side on one machine: the same work on its
CPU cores alone and with its GPU, in one run (wall-clock seconds; the GPU machine is not shared).

Two networks: the default of ``searchlab train connect4`` (resnet 4x32, 200 simulations a move)
and one of AlphaZero.jl's Connect Four size (resnet 5x128, 600 simulations a move), each with
its initial, seeded weights (a forward pass costs the same whatever the weights). Every side
runs the code ``searchlab train`` runs:

* **forward alone**: the evaluator's inference copy (batch normalisation folded,
  channels-last) on ready-made planes, at batches 64, 512 and 2,048: on the CPU with all its
  cores as torch threads, and on the GPU (synchronised before the clock is read);
* **self-play, one process**: one chunk of ``--chunk-games`` games in lock step
  (:func:`searchlab.learning.alphazero.selfplay.self_play`, the config's Dirichlet noise,
  temperature and evaluation cache), the evaluator on the CPU (one torch thread, as a ``searchlab
  train`` worker) and on the GPU: network positions per second and games per hour;
* **self-play, the machine**: ``--workers`` local worker processes
  (:class:`searchlab.core.workers.ProcessPool`, as ``searchlab train --workers K``),
  one chunk each, warmed up first (torch imported, the compiled search loaded, the GPU's context
  made): games per hour of the whole machine, on its CPUs alone and with the GPU;
* **training**: :class:`searchlab.learning.alphazero.trainer.Trainer` steps (Adam, symmetry
  augmentation, minibatches drawn from a replay window of the chunk's games) at batch 128 and
  1,024: samples per second on the CPU (all cores) and on the GPU.

The ratios printed are GPU over CPU for each row; the last lines turn the machine's rates into
what one hour buys. The larger network's CPU self-play is not run (a chunk would take many
minutes on one core); its forward rows give the CPU's limit instead.

    python benchmarks/learning_gpu.py [--device cuda] [--workers 15] [--chunk-games 64]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from typing import Any

import numpy as np
import torch

from searchlab.core.workers import ProcessPool
from searchlab.domains.games.registry import make as make_game
from searchlab.learning.alphazero.replay import ReplayWindow, block_from_records
from searchlab.learning.alphazero.selfplay import self_play
from searchlab.learning.alphazero.train_config import TrainConfig, config_for
from searchlab.learning.alphazero.trainer import Trainer
from searchlab.learning.alphazero.workers import SelfPlayTask, play_chunk
from searchlab.learning.networks.encoders import encoder_for
from searchlab.learning.networks.evaluator import NetworkEvaluator, check_device
from searchlab.learning.networks.network import NetworkConfig, PolicyValueNet

GAME = "connect4"
NETWORKS: dict[str, tuple[NetworkConfig | None, int]] = {
    "default 4x32, 200 simulations": (None, 200),
    "AlphaZero.jl size 5x128, 600 simulations": (
        NetworkConfig(kind="resnet", blocks=5, channels=128, hidden=128),
        600,
    ),
}
FORWARD_BATCHES = (64, 512, 2048)
TRAIN_BATCHES = (128, 1024)


def network(config: TrainConfig, arch: NetworkConfig | None) -> PolicyValueNet:
    encoder = encoder_for(make_game(GAME))
    net = PolicyValueNet(
        encoder.shape, encoder.num_actions, arch or config.network(encoder.shape), seed=0
    )
    return net.eval()


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def forward_rate(net: PolicyValueNet, device: torch.device, batch: int, seconds: float) -> float:
    """Positions per wall-clock second of the inference copy alone at ``batch``."""
    copy = NetworkEvaluator(net, encoder_for(make_game(GAME)), str(device)).inference_net()
    planes = torch.rand(batch, *net.shape, generator=torch.Generator().manual_seed(0)).to(device)
    planes = planes.contiguous(memory_format=torch.channels_last)
    with torch.inference_mode():
        for _ in range(3):
            copy(planes)
        sync(device)
        passes = 0
        start = time.perf_counter()
        while True:
            copy(planes)
            passes += 1
            if passes % 4 == 0:
                sync(device)
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    return passes * batch / elapsed


def one_chunk(
    config: TrainConfig, net: PolicyValueNet, device: torch.device, games: int
) -> tuple[float, int, Any]:
    """Wall seconds, network positions and the records of one lock-step chunk."""
    game = make_game(GAME)
    evaluator = NetworkEvaluator(net, encoder_for(game), str(device))
    selfplay = replace(config.selfplay(), games_in_flight=games)
    with torch.inference_mode():  # warm-up: the compiled search loaded, the GPU's kernels
        self_play(game, evaluator, 1, config=selfplay, seed=1, first_game=10**6)
    evaluator.positions = 0
    start = time.perf_counter()
    with torch.inference_mode():
        result = self_play(game, evaluator, games, config=selfplay, seed=1, first_game=0)
    sync(device)
    return time.perf_counter() - start, evaluator.positions, result.records


def machine_rate(
    pool: ProcessPool,
    config: TrainConfig,
    net: PolicyValueNet,
    device: str,
    workers: int,
    games: int,
) -> tuple[float, int]:
    """Wall seconds for ``workers`` chunks of ``games`` games on ``workers`` processes, and the
    games played."""
    weights = net.cpu_weights()
    selfplay = replace(config.selfplay(), games_in_flight=games)

    def tasks(count: int, size: int, first: int) -> list[SelfPlayTask]:
        return [
            SelfPlayTask(
                GAME,
                {},
                net.config.to_dict(),
                weights,
                selfplay,
                1,
                first + i * size,
                size,
                0,
                device,
            )
            for i in range(count)
        ]

    for _ in pool.run(
        tasks(workers, 1, 10**6), play_chunk
    ):  # warm-up: imports, compiled code, context
        pass
    start = time.perf_counter()
    played = sum(task.games for task, _, _ in pool.run(tasks(workers, games, 0), play_chunk))
    return time.perf_counter() - start, played


def train_rate(
    config: TrainConfig,
    net: PolicyValueNet,
    device: torch.device,
    window: ReplayWindow,
    batch: int,
    steps: int,
) -> float:
    """Samples per wall-clock second of ``Trainer.train`` at ``batch``."""
    trainer = Trainer(net.to(device), batch_size=batch, device=device)
    symmetries = encoder_for(make_game(GAME)).symmetries()
    trainer.train(window, steps=3, seed=0, generation=0, symmetries=symmetries)  # warm-up
    sync(device)
    start = time.perf_counter()
    trainer.train(window, steps=steps, seed=0, generation=1, symmetries=symmetries)
    sync(device)
    return steps * batch / (time.perf_counter() - start)


def row(name: str, cpu: float | None, gpu: float | None, unit: str) -> None:
    cpu_text = f"{cpu:>14,.0f}" if cpu is not None else f"{'(not run)':>14}"
    gpu_text = f"{gpu:>14,.0f}" if gpu is not None else f"{'(failed)':>14}"
    ratio = f"{gpu / cpu:>8.1f}x" if cpu and gpu else f"{'':>9}"
    print(f"  {name:<46} {cpu_text} {gpu_text} {ratio}  {unit}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=" ".join((__doc__ or "").split("\n\n")[0].split()),
        epilog="The module docstring says what each row measures.",
    )
    parser.add_argument("--device", default="cuda", help="the GPU (default cuda)")
    parser.add_argument(
        "--workers",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        help="worker processes of the machine rows (default: the CPUs less one)",
    )
    parser.add_argument(
        "--chunk-games", type=int, default=64, help="games per chunk, in lock step (default 64)"
    )
    parser.add_argument(
        "--seconds", type=float, default=1.5, help="wall seconds of each forward row"
    )
    parser.add_argument("--train-steps", type=int, default=100, help="steps of each train row")
    parser.add_argument(
        "--skip-machine", action="store_true", help="leave out the multi-process rows"
    )
    parser.add_argument(
        "--networks",
        type=int,
        nargs="+",
        default=list(range(len(NETWORKS))),
        help="which networks, by their index in the list above (default: all)",
    )
    args = parser.parse_args(argv)
    if min(args.workers, args.chunk_games, args.train_steps) < 1 or not args.seconds > 0:
        parser.error("--workers, --chunk-games, --train-steps and --seconds must be positive")
    gpu = check_device(args.device)
    cpu = torch.device("cpu")
    cores = os.cpu_count() or 1
    name = torch.cuda.get_device_name(gpu) if gpu.type == "cuda" else str(gpu)
    print(
        f"AlphaZero on {GAME}: the CPU ({cores} cores) alone and with the GPU ({name}); torch "
        f"{torch.__version__}, numpy {np.__version__}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print(f"  {'row':<46} {'CPU':>14} {'GPU':>14} {'GPU/CPU':>9}  unit", flush=True)
    base = config_for(GAME)
    summary: dict[str, dict[str, float]] = {}
    chosen = [item for i, item in enumerate(NETWORKS.items()) if i in args.networks]
    for label, (arch, simulations) in chosen:
        config = replace(base, simulations=simulations)
        net = network(config, arch)
        print(
            f"== {label}: {net.describe()}; {config.search_batch} leaves a search, "
            f"{args.chunk_games} games in "
            f"lock step, cache {config.cache_size:,}",
            flush=True,
        )
        figures = summary.setdefault(label, {})
        for batch in FORWARD_BATCHES:
            torch.set_num_threads(cores)
            on_cpu = forward_rate(network(config, arch), cpu, batch, args.seconds)
            on_gpu = forward_rate(network(config, arch), gpu, batch, args.seconds)
            row(f"forward alone, batch {batch:,}", on_cpu, on_gpu, "positions/s")
        torch.set_num_threads(1)
        small = arch is None
        records = None
        cpu_games_h = None
        if small:
            seconds, positions, records = one_chunk(
                config, network(config, arch), cpu, args.chunk_games
            )
            cpu_games_h = args.chunk_games * 3600 / seconds
            cpu_positions = positions / seconds
        seconds, positions, gpu_records = one_chunk(
            config, network(config, arch), gpu, args.chunk_games
        )
        records = records or gpu_records
        gpu_games_h = args.chunk_games * 3600 / seconds
        row(
            "self-play, one process: network positions/s",
            cpu_positions if small else None,
            positions / seconds,
            "positions/s",
        )
        row("self-play, one process: games/h", cpu_games_h, gpu_games_h, "games/h")
        figures["one process games/h gpu"] = gpu_games_h
        if not args.skip_machine:
            pool = ProcessPool(args.workers)
            try:
                cpu_machine = None
                if small:
                    seconds, played = machine_rate(
                        pool, config, net, "cpu", args.workers, args.chunk_games
                    )
                    cpu_machine = played * 3600 / seconds
                seconds, played = machine_rate(
                    pool, config, net, str(gpu), args.workers, args.chunk_games
                )
                gpu_machine = played * 3600 / seconds
            finally:
                pool.close()
            row(
                f"self-play, {args.workers} processes: games/h", cpu_machine, gpu_machine, "games/h"
            )
            figures["machine games/h gpu"] = gpu_machine
            if cpu_machine:
                figures["machine games/h cpu"] = cpu_machine
        window = ReplayWindow(10**6)
        game = make_game(GAME)
        window.add(block_from_records(game, encoder_for(game), records, generation=0))
        for batch in TRAIN_BATCHES:
            torch.set_num_threads(cores)
            on_cpu = train_rate(
                config,
                network(config, arch),
                cpu,
                window,
                batch,
                max(5, args.train_steps // (4 if small else 16)),
            )
            on_gpu = train_rate(config, network(config, arch), gpu, window, batch, args.train_steps)
            row(f"training, batch {batch:,}: samples/s", on_cpu, on_gpu, "samples/s")
            figures[f"train {batch} gpu"] = on_gpu
        torch.set_num_threads(1)
    print("what one hour of this machine buys (self-play, the machine rows):")
    for label, figures in summary.items():
        parts = [
            f"{figures[key]:,.0f} games with the GPU"
            for key in ("machine games/h gpu",)
            if key in figures
        ]
        if "machine games/h cpu" in figures:
            parts.append(f"{figures['machine games/h cpu']:,.0f} on the CPUs alone")
        print(f"  {label}: {'; '.join(parts) or 'not measured'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
