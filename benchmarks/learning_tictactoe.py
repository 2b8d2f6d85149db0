"""The tic-tac-toe must-show of issue 9: learn from scratch in at most 5 minutes on this CPU,
then check the result against searchlab's exact solver.

    benchmarks/record.sh learning_tictactoe .venv/bin/python benchmarks/learning_tictactoe.py

1. ``searchlab train tictactoe --time 5m --out DIR`` from an empty DIR (wall clock measured);
2. the network alone (highest prior, no search) in **every** non-terminal position reachable
   from the start (4,520), each checked by ``searchlab.algorithms.adversarial.solver.solve``:
   a mistake is a move whose exact value is below the position's best (win > draw > loss);
3. the network with search (array PUCT, ``--simulations`` per move, no noise: deterministic)
   against the solver from both sides, the solver trying **every** optimal move at each of its
   turns (every game a perfect player can play against it), and also against **every** legal
   reply (any opponent at all): the number of games lost must be 0.

Options: ``--out DIR`` (default a fresh temporary folder), ``--time 5m``, ``--seed S`` (the
training run's seed, default 0), ``--simulations N`` (default 100), ``--skip-training`` (check
an existing DIR). Exits 1 unless both hold: no game lost and no mistake of the network alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

torch.set_num_threads(1)

from searchlab.algorithms.adversarial.solver import solve  # noqa: E402
from searchlab.algorithms.mcts.options import MCTSOptions  # noqa: E402
from searchlab.algorithms.mcts.puct import search  # noqa: E402
from searchlab.domains.games.tictactoe import TicTacToe  # noqa: E402
from searchlab.learning.networks.checkpoint import load_checkpoint  # noqa: E402
from searchlab.learning.networks.evaluator import NetworkEvaluator  # noqa: E402


def positions(game: TicTacToe) -> list:
    seen: dict = {}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal() or state.key() in seen:
            continue
        seen[state.key()] = state
        stack.extend(state.apply(a) for a in state.legal_actions())
    return list(seen.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    parser.add_argument("--time", default="5m")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--skip-training", action="store_true")
    args = parser.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="ttt-")) / "run"
    game = TicTacToe()
    if not args.skip_training:
        command = [
            sys.executable,
            "-m",
            "searchlab",
            "train",
            "tictactoe",
            "--time",
            args.time,
            "--seed",
            str(args.seed),
            "--out",
            str(out),
        ]
        print("$", " ".join(["searchlab", *command[3:]]), flush=True)
        start = time.monotonic()
        done = subprocess.run(command, check=False)
        wall = time.monotonic() - start
        print(
            f"training: exit {done.returncode}, {wall:.1f} s wall clock (process start, "
            "imports and compilation included)",
            flush=True,
        )
        if done.returncode != 0:
            return 1
    print((out / "train.log").read_text().rstrip())
    checkpoint = load_checkpoint(out / "latest.pt", game)
    print(
        f"checkpoint: generation {checkpoint.extra['generation']}, "
        f"{checkpoint.extra['next_game']} self-play games, {checkpoint.net.describe()}"
    )
    evaluator = NetworkEvaluator(checkpoint.net, checkpoint.encoder)
    encoder = checkpoint.encoder

    # 2. the network alone, every position, checked by the solver
    states = positions(game)
    start = time.monotonic()
    mistakes = []
    for begin in range(0, len(states), 512):
        part = states[begin : begin + 512]
        priors, _ = evaluator.evaluate_batch(part)
        for state, row in zip(part, priors, strict=True):
            legal = state.legal_actions()
            choice = max(legal, key=lambda a: row[encoder.action_to_index(state, a)])
            values = solve(game, state).stats["action_values"]
            best = max(values.values())
            if values[choice] < best:
                mistakes.append((state, choice))
    print(
        f"network alone: {len(mistakes)} mistakes in {len(states)} non-terminal positions "
        f"({100 * len(mistakes) / len(states):.2f}%; solver check {time.monotonic() - start:.0f} s)"
    )
    for state, choice in mistakes[:5]:
        print(f"  mistake: plays {state.action_to_string(choice)} in\n{state}")

    # 3. the network with search against the solver (every optimal reply) and any reply
    config = MCTSOptions(search_batch=1)
    cache: dict = {}

    def az(state) -> int:
        key = state.key()
        if key not in cache:
            cache[key] = search(
                state, evaluator, config, num_simulations=args.simulations
            ).best_action()
        return cache[key]

    def optimal_replies(state) -> list[int]:
        values = solve(game, state).stats["action_values"]
        best = max(values.values())
        return [a for a, v in values.items() if v == best]

    def tally(state, az_player: int, replies) -> tuple[int, int, int]:
        if state.is_terminal():
            r = state.returns()
            mine, theirs = r[az_player], r[1 - az_player]
            return (int(mine > theirs), int(mine == theirs), int(mine < theirs))
        if state.current_player() == az_player:
            return tally(state.apply(az(state)), az_player, replies)
        totals = [0, 0, 0]
        for action in replies(state):
            for i, n in enumerate(tally(state.apply(action), az_player, replies)):
                totals[i] += n
        return (totals[0], totals[1], totals[2])

    lost = 0
    for label, replies in (
        ("the solver (every optimal move)", optimal_replies),
        ("any opponent (every legal move)", lambda s: s.legal_actions()),
    ):
        for side in (0, 1):
            wins, draws, losses = tally(game.initial_state(), side, replies)
            lost += losses
            seat = "X (first)" if side == 0 else "O (second)"
            print(
                f"az ({args.simulations} simulations) as {seat} "
                f"against {label}: {wins + draws + losses} games, {wins} won, {draws} drawn, "
                f"{losses} lost"
            )
    passed = not mistakes and not lost
    print(
        f"must-show: (a) games lost {lost}, (b) network-alone mistakes {len(mistakes)}: "
        + ("PASS" if passed else "FAIL")
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
