"""The RL stage's three forms from the same SL policy, for the same number of games.

AlphaGo's RL stage improved its SL policy by policy gradient (REINFORCE); the course notes name
two more forms of reinforcement learning: actor-critic and value-based.
:func:`searchlab.learning.alphago.rl.reinforce` has all three (``form=``). This script starts
each form from **one** SL network, plays the same number of games against the pool of the
learner's earlier versions (same seed, same learning rate, same pool schedule), and measures
each result:

* **score against the SL policy** it started from (moves sampled from each policy, colours
  alternating, ``--match-games`` games, Wilson's 95% interval);
* **mistake rate of the network alone** (its most probable move, which is also the greedy move
  over the value form's action values) on Pons' test sets, judged by the exact solver
  (:mod:`searchlab.learning.alphazero.mistakes`, AlphaZero.jl's definition): ground truth no one
  here wrote.

The SL network on Connect Four is the checkpoint shipped with searchlab by default, a network
**taught by the exact solver's labels** (supervised, as AlphaGo's SL network was taught human
moves): ``--checkpoint`` gives another.

    .venv/bin/python benchmarks/alphago_rl_forms.py --iterations 40 --games 64

Raw output is kept with ``benchmarks/record.sh alphago_rl_forms ...``.
"""

from __future__ import annotations

import argparse
import copy
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from searchlab.domains.games.connect4 import Connect4
from searchlab.learning.alphago.rl import RL_FORMS, NetPolicy, match, reinforce, rl_policy
from searchlab.learning.alphazero.mistakes import (
    PONS_SETS,
    MistakeJudge,
    OutcomeCache,
    mistake_rates,
    wilson_interval,
)
from searchlab.learning.networks.checkpoint import load_checkpoint
from searchlab.learning.networks.encoders import Connect4Encoder
from searchlab.learning.shipped import shipped_checkpoint

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4_pons"
OUTCOMES = ROOT / "benchmarks" / "results" / "connect4_mistakes_outcomes.json"


def greedy(net: torch.nn.Module, encoder: Connect4Encoder):  # type: ignore[no-untyped-def]
    policy = NetPolicy(net, encoder)  # type: ignore[arg-type]

    def choose(state):  # type: ignore[no-untyped-def]
        return int(np.argmax(policy.probabilities([state])[0]))

    return choose


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default=None, help="the SL network (default: shipped)")
    parser.add_argument("--forms", nargs="+", default=list(RL_FORMS), choices=RL_FORMS)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--games", type=int, default=64, help="games per iteration")
    parser.add_argument("--learning-rate", type=float, default=1e-4)
    parser.add_argument("--pool-every", type=int, default=10)
    parser.add_argument("--temperature", type=float, default=0.1, help="the value form's")
    parser.add_argument("--match-games", type=int, default=400)
    parser.add_argument("--limit", type=int, default=500, help="positions of each Pons set")
    parser.add_argument(
        "--sets", nargs="+", default=["Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2"]
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    path = Path(args.checkpoint) if args.checkpoint else shipped_checkpoint("connect4")
    if path is None:
        print("no shipped connect4 checkpoint", file=sys.stderr)
        return 2
    loaded = load_checkpoint(path, Connect4())
    start, encoder = loaded.net, loaded.encoder
    sets = [(file, name) for file, name in PONS_SETS if file in args.sets]
    cache_file = Path(tempfile.mkdtemp()) / "outcomes.json"
    if OUTCOMES.exists():
        shutil.copy(OUTCOMES, cache_file)
    judge = MistakeJudge(OutcomeCache(cache_file))
    print(f"# SL network: {path}")
    print(
        f"# each form: {args.iterations} iterations x {args.games} games = "
        f"{args.iterations * args.games} games, learning rate {args.learning_rate}, "
        f"pool every {args.pool_every}, seed {args.seed}; value form's temperature "
        f"{args.temperature}"
    )
    print(f"# mistake rate: the network's most probable move, first {args.limit} of each set")
    header = f"{'form':<13} {'games':>6} {'seconds':>8}  {'score vs SL (95%)':<22}"
    header += "".join(f" {name:>14}" for _, name in sets)
    print(header)
    print("-" * len(header))

    def row(label: str, games: int, seconds: float, score: str, net: torch.nn.Module) -> None:
        reports = mistake_rates(greedy(net, encoder), DATA, judge, limit=args.limit, sets=sets)
        cells = "".join(f" {100.0 * r.mistakes / max(r.positions, 1):>13.1f}%" for r in reports)
        print(f"{label:<13} {games:>6} {seconds:>8.1f}  {score:<22}{cells}", flush=True)

    sl_policy = NetPolicy(start, encoder)
    row("SL (start)", 0, 0.0, "0.5 (itself)", start)
    if "value" in args.forms:
        # the value form plays softmax(tanh(output) / temperature): sharper than the SL
        # network's softmax, so its score has this baseline before any learning
        result = match(
            rl_policy(start, encoder, "value", args.temperature),
            sl_policy,
            games=args.match_games,
            seed=args.seed + 1,
        )
        low, high = wilson_interval(result.wins + 0.5 * result.draws, result.games)
        print(
            f"{'SL as values':<13} {0:>6} {0.0:>8.1f}  "
            f"{result.score:.3f} ({low:.3f}-{high:.3f})   (the start, played as the value "
            "form plays: its baseline)",
            flush=True,
        )
    for form in args.forms:
        net = copy.deepcopy(start)
        began = time.process_time()
        reinforce(
            net,
            encoder,
            iterations=args.iterations,
            games_per_iteration=args.games,
            learning_rate=args.learning_rate,
            pool_every=args.pool_every,
            seed=args.seed,
            form=form,
            temperature=args.temperature,
        )
        seconds = time.process_time() - began
        result = match(
            rl_policy(net, encoder, form, args.temperature),
            sl_policy,
            games=args.match_games,
            seed=args.seed + 1,
        )
        points = result.wins + 0.5 * result.draws
        low, high = wilson_interval(points, result.games)
        score = f"{result.score:.3f} ({low:.3f}-{high:.3f})"
        row(form, args.iterations * args.games, seconds, score, net)
    judge.cache.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
