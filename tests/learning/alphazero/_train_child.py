"""A training run in a child process, for the kill tests: ``python _train_child.py DIR
[KILL_AT]`` trains tic-tac-toe with tiny settings; with KILL_AT = N it SIGKILLs itself at the
N-th atomic rename (after the temporary file is written, before it replaces the old one). The
environment variable ``TRAIN_CHILD_OVERRIDES`` (a JSON object) adds config keys to the tiny
ones (the Gumbel self-play run's)."""

from __future__ import annotations

import json
import os
import signal
import sys

import torch

torch.set_num_threads(1)

TINY = {
    "games_per_generation": 8,
    "chunk_games": 4,
    "games_in_flight": 4,
    "simulations": 8,
    "search_batch": 2,
    "train_steps": 6,
    "train_batch": 16,
    "eval_games": 2,
    "eval_simulations": 4,
    "reference": "",
    "max_generations": 2,
    "window_games": 12,
    "hidden": 16,
}


def main() -> None:
    from searchlab.domains.games.tictactoe import TicTacToe
    from searchlab.learning.alphazero.pipeline import train_alphazero
    from searchlab.learning.alphazero.train_config import config_for

    if len(sys.argv) > 2:
        kill_at = int(sys.argv[2])
        real = os.replace
        calls = [0]

        def replace(source: str, target: str) -> None:
            calls[0] += 1
            if calls[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            real(source, target)

        os.replace = replace  # type: ignore[assignment]
    overrides = {**TINY, **json.loads(os.environ.get("TRAIN_CHILD_OVERRIDES", "{}"))}
    summary = train_alphazero(TicTacToe(), sys.argv[1], config_for("tictactoe", overrides))
    print(summary.generation, summary.games)


if __name__ == "__main__":
    main()
