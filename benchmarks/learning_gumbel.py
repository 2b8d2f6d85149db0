"""Gumbel self-play against PUCT self-play at few simulations, on tic-tac-toe (issue 31).

Each row is a fixed-generation AlphaZero run (``train_alphazero``, seeded, deterministic
whatever the machine's load) of a small tic-tac-toe network (MLP 2 x 64; 64 games and 120
training steps a generation, constant step size, no evaluation games), with PUCT self-play
(the visit distribution as the target, tic-tac-toe's Dirichlet noise and temperature) or
Gumbel self-play (``root = "gumbel"``, ``max_num_considered_actions = 4``: the improved policy
as the target, the Gumbel root's move). The figure is the network alone's mistake rate (its
highest prior, no search) over all 4,520 non-terminal positions, against the exact values,
after each generation (generation 0: the random network).

  PYTHONPATH=src python benchmarks/learning_gumbel.py [--generations 8]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch

from searchlab.domains.games.tictactoe import TicTacToe
from searchlab.learning.alphazero.evaluation import exact_table, mistake_rate, policy_chooser
from searchlab.learning.alphazero.pipeline import train_alphazero
from searchlab.learning.alphazero.train_config import config_for
from searchlab.learning.networks.checkpoint import load_checkpoint
from searchlab.learning.networks.evaluator import NetworkEvaluator

RULES = {
    "puct": {},
    "gumbel": {"root": "gumbel", "max_num_considered_actions": 4, "dirichlet_alpha": 0.0},
}
RUNS = ((4, 0), (4, 1), (8, 0), (8, 1), (16, 0))  # (simulations, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=8)
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = TicTacToe()
    table = exact_table(game)
    print(f"mistake rate of the network alone by generation (0..{args.generations})")
    for simulations, seed in RUNS:
        for rule, extra in RULES.items():
            keys = {
                "games_per_generation": 64, "simulations": simulations, "train_steps": 120,
                "eval_games": 0, "reference": "", "max_generations": args.generations,
                "hidden": 64, "blocks": 2, "lr_schedule": "constant", "seed": seed, **extra,
            }  # fmt: skip
            folder = Path(tempfile.mkdtemp()) / "run"
            start = time.perf_counter()
            train_alphazero(game, folder, config_for("tictactoe", keys), keep_checkpoints="all")
            rates = []
            for generation in range(args.generations + 1):
                path = folder / "checkpoints" / f"gen-{generation:04d}.pt"
                checkpoint = load_checkpoint(path, game)
                evaluator = NetworkEvaluator(checkpoint.net, checkpoint.encoder)
                rates.append(mistake_rate(table, policy_chooser(evaluator, table)))
            figures = " ".join(f"{rate:.3f}" for rate in rates)
            seconds = time.perf_counter() - start
            label = f"{rule:<6} simulations {simulations:>2} seed {seed}"
            print(f"{label}: {figures}  ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
