"""What lambda does in AlphaGo's search: strength for lambda = 0, 0.5, 1 at equal time.

AlphaGo valued a new leaf by ``(1 - lambda) * v + lambda * z``: its value network ``v`` and the
result ``z`` of one fast rollout. This script trains (or reuses) a Connect Four pipeline
(``searchlab.learning.alphago.pipeline``), then for each lambda plays the ``alphago`` search against
a fixed opponent, searchlab's compiled ``mcts``, **at the same time per move**, colours
alternating, each pair of games from its own seeded two-ply opening. It prints the pipeline's
stage figures and one row per lambda: wins, draws, losses, the score with its 95% interval
(Wilson's) and the search's simulations per move.

    .venv/bin/python benchmarks/alphago_lambda.py --run runs/alphago --preset small \\
        --time 0.1 --games 20

The pipeline is trained in ``--run`` if it is not finished there (``--preset``: ``tiny``, the
tests' seconds-sized settings, ``small``, a few minutes, or ``default``); run again, it reuses
it. Raw output is kept with ``benchmarks/record.sh alphago_lambda ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import torch

from searchlab.agents.base import Agent
from searchlab.agents.registry import make_agent
from searchlab.agents.search import MCTSAgent
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.learning.alphago.pipeline import AlphaGoConfig, load_alphago, run_alphago
from searchlab.learning.alphazero.mistakes import wilson_interval

PRESETS = {
    "tiny": AlphaGoConfig.tiny(),
    "small": AlphaGoConfig(
        expert_positions=1200,
        test_positions=250,
        min_ply=12,
        network={"kind": "resnet", "blocks": 1, "channels": 32, "hidden": 64},
        sl_epochs=12,
        rl_iterations=40,
        rl_games=32,
        pool_every=10,
        value_positions=3000,
        value_epochs=5,
        match_games=200,
    ),
    "default": AlphaGoConfig(),
}


def play(
    agent: MCTSAgent,
    opponent: Agent,
    *,
    alphago_first: bool,
    opening: list[int],
    limits: Limits,
    simulations: list[int],
) -> float:
    """One game; the result for the alphago agent (+1, 0, -1). Its simulations per move go
    to ``simulations``."""
    state = Connect4().initial_state()
    for column in opening:
        state = state.apply(column)
    agent.reset()
    opponent.reset()
    while not state.is_terminal():
        if ((state.num_moves - len(opening)) % 2 == 0) == alphago_first:
            state = state.apply(agent.act(state, limits))
            assert agent.last_result is not None
            simulations.append(agent.last_result.stats["simulations"])
        else:
            state = state.apply(opponent.act(state))
    first = state.returns()[0 if len(opening) % 2 == 0 else 1]
    return first if alphago_first else -first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", required=True, help="the pipeline's directory")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="small")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move, both sides")
    parser.add_argument("--games", type=int, default=20, help="games per lambda (even)")
    parser.add_argument("--opponent", default="mcts", help="the fixed opponent's kind")
    parser.add_argument("--lambdas", default="0,0.5,1")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    started = time.perf_counter()
    record = run_alphago(
        args.run,
        PRESETS[args.preset],
        progress=lambda m: print(f"  [{time.perf_counter() - started:6.0f} s] {m}", flush=True),
    )
    print(f"pipeline ({args.preset}) in {args.run}:")
    print(json.dumps(record["stages"], indent=1))
    pipeline = load_alphago(args.run)
    game = Connect4()
    rng = np.random.default_rng(args.seed)
    pairs = max(1, args.games // 2)
    openings = [[int(rng.integers(7)), int(rng.integers(7))] for _ in range(pairs)]
    limits = Limits(time=args.time)
    print(f"\n{args.games} games per lambda against {args.opponent} at {args.time} s a move")
    print("| lambda | wins | draws | losses | score | 95% interval | simulations/move |")
    print("|---|---|---|---|---|---|---|")
    for text in args.lambdas.split(","):
        lambda_ = float(text)
        search = pipeline.search(lambda_=lambda_, seed=args.seed)
        agent = MCTSAgent(
            f"alphago:lambda={lambda_}", game, limits=limits, seed=args.seed,
            options=search.options, algorithm="alphago",
        )  # fmt: skip
        opponent = make_agent(f"{args.opponent}:time={args.time}", game, seed=args.seed)
        results: list[float] = []
        simulations: list[int] = []
        for opening in openings:
            for first in (True, False):
                result = play(
                    agent,
                    opponent,
                    alphago_first=first,
                    opening=opening,
                    limits=limits,
                    simulations=simulations,
                )
                results.append(result)
        wins = sum(r > 0 for r in results)
        draws = sum(r == 0 for r in results)
        losses = len(results) - wins - draws
        score = (wins + draws / 2) / len(results)
        low, high = wilson_interval(score * len(results), len(results))  # draws as half points
        print(
            f"| {lambda_:g} | {wins} | {draws} | {losses} | {score:.3f} | "
            f"{low:.2f}..{high:.2f} | "
            f"{np.mean(simulations):.0f} |",
            flush=True,
        )
    print(f"\ntotal {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
