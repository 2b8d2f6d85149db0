"""The compiled MCTS before and after a change of the engine, side by side in one run, with
OpenSpiel's C++ ``MCTSBot`` as the yardstick.

A refactor of the Monte Carlo engine must keep its speed (issue 27: no figure may drop by more
than 5%). This script checks out ``--base`` (a commit; default ``HEAD~1``) into a temporary git
worktree and times, in child processes that alternate between the two trees (``--rounds``
times, so that a change in the machine's load falls on both), compiled MCTS simulations per
CPU second from the initial position:

* Connect Four and Othello (``win_loss``), uniform random rollouts, ``c = 1`` (the figures of
  ``benchmarks/mcts_openspiel.py``), with OpenSpiel's C++ ``MCTSBot`` timed in the same child
  (the ratios ``compiled / C++``, against the 12.2-13.9x and 66-86x of docs/benchmarks.md);
* Snake Go (16 x 16, 512 rounds, seeded items), random and informed rollouts;
* Go 9x9 (komi 7.5): the default search (heuristic priors, uniform eye-avoiding playouts), with
  OpenSpiel's C++ ``MCTSBot`` on its ``go`` (the 10.0x of docs/benchmarks.md is against the
  search without priors, ``benchmarks/go_playouts.py``), and ``rave=1000`` with the informed
  rollouts;
* Connect Four with the MCTS-Solver;
* PUCT on arrays (``searchlab.algorithms.mcts.puct``, AlphaZero's search) from the Connect
  Four start with uniform priors and no network, leaves one at a time and 8 under virtual
  loss: the tree's own cost (selection, expansion, backup, the positions made in Python).

Each figure is the best over the rounds (each round's own best of ``--repeat`` searches, after
a warm-up search that loads the kernels); the last column is after / before.

    nice -n 5 python benchmarks/mcts_before_after.py [--base REF] [--rounds N] [--quick]

Without OpenSpiel (``pip install open_spiel``, the ``bench`` extra) the C++ column says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, math, sys, time
from searchlab.algorithms.mcts import mcts
from searchlab.core.limits import Limits
from searchlab.games import make

quick, repeat = json.loads(sys.argv[1])
CASES = {
    "connect4": (make("connect4"), {}, 20_000 if quick else 100_000, "connect_four"),
    "othello": (make("othello", scoring="win_loss"), {}, 1_000 if quick else 5_000, "othello"),
    "connect4 solver": (make("connect4"), {"solver": True}, 20_000 if quick else 100_000, None),
    "snakego random": (make("snakego", seed=1), {}, 2_000 if quick else 20_000, None),
    "snakego informed": (
        make("snakego", seed=1), {"rollout": "informed"}, 100 if quick else 400, None),
    "go9": (make("go", size=9, komi=7.5), {}, 4_000 if quick else 20_000,
            "go(board_size=9,komi=7.5)"),
    "go9 rave informed": (make("go", size=9, komi=7.5), {"rave": 1000, "rollout": "informed"},
                          1_500 if quick else 6_000, None),
}

def best(run, simulations):
    run()
    fastest = math.inf
    for _ in range(repeat):
        began = time.process_time()
        run()
        fastest = min(fastest, time.process_time() - began)
    return simulations / fastest

out = {}
for name, (game, options, simulations, spiel) in CASES.items():
    state = game.initial_state()
    def run(game=game, options=options, simulations=simulations, state=state):
        result = mcts(game, state, limits=Limits(simulations=simulations), c=1.0, seed=1,
                      tier="compiled", **options)
        assert result.tier == "compiled"
    out[name] = {"searchlab": best(run, simulations)}
    if spiel is not None:
        try:
            import pyspiel
        except ImportError:
            continue
        sgame = pyspiel.load_game(spiel)
        bot = pyspiel.MCTSBot(sgame, pyspiel.RandomRolloutEvaluator(1, 1), math.sqrt(2.0),
                              simulations, 10_000, False, 1, False)
        sstate = sgame.new_initial_state()
        out[name]["openspiel_cpp"] = best(lambda: bot.step(sstate), simulations)
import numpy as np
try:  # PUCT on arrays, in the engine since 0465562: an older base has no PUCT rows
    from searchlab.algorithms.mcts.puct import search as puct_search
except ImportError:
    puct_search = None


class _Cells:  # Connect Four's action index is the column itself
    def action_to_index(self, state, action):
        return action


class _Uniform:  # equal priors, value 0: the tree's own cost, no network
    encoder = _Cells()

    def evaluate_batch(self, states):
        return np.full((len(states), 7), 1 / 7), np.zeros(len(states))


puct_state = make("connect4").initial_state()
for batch in (1, 8) if puct_search is not None else ():
    simulations = 2_000 if quick else 10_000
    def run_puct(batch=batch, simulations=simulations):
        outcome = puct_search(puct_state, _Uniform(), num_simulations=simulations,
                              search_batch=batch)
        assert outcome.simulations == simulations
    out[f"puct batch {batch}"] = {"searchlab": best(run_puct, simulations)}
print(json.dumps(out))
"""


def measure(src: Path, quick: bool, repeat: int) -> dict[str, dict[str, float]]:
    """One child process timing the engine of the tree whose package is under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([quick, repeat])],
        env=env, capture_output=True, text=True, check=False, cwd=src.parent,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"mcts_before_after: the timing run in {src} failed:\n{done.stderr}")
    result: dict[str, dict[str, float]] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD~1", help="the commit before the change")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two trees")
    parser.add_argument("--repeat", type=int, default=3, help="searches per figure per round")
    parser.add_argument("--quick", action="store_true", help="small budgets")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be >= 1")
    base = subprocess.run(
        ["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True, text=True
    )
    if base.returncode != 0:
        parser.error(f"--base {args.base!r} is not a commit of this repository")
    commit = base.stdout.strip()
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    best: dict[str, dict[str, dict[str, float]]] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), commit],
            cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
        try:
            for round_ in range(args.rounds):
                for label, src in (("before", tree / "src"), ("after", ROOT / "src")):
                    figures = measure(src, args.quick, args.repeat)
                    print(f"round {round_ + 1} {label}: {json.dumps(figures)}", flush=True)
                    for case, engines in figures.items():
                        kept = best[label].setdefault(case, {})
                        for engine, rate in engines.items():
                            kept[engine] = max(kept.get(engine, 0.0), rate)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False
            )
    print()
    print(f"compiled MCTS simulations per CPU second, initial position, c = 1, best of "
          f"{args.rounds} rounds x {args.repeat}; before = {commit}, after = {head} "
          f"(+ working tree)")  # fmt: skip
    header = (
        f"{'case':<17} {'before':>11} {'after':>11} {'after/before':>13} "
        f"{'before/C++':>11} {'after/C++':>10}"
    )
    print(header)
    print("-" * len(header))
    for case, engines in best["after"].items():
        after = engines["searchlab"]
        cpp_after = engines.get("openspiel_cpp")
        vs_after = f"{after / cpp_after:.1f}x" if cpp_after else "-"
        if case not in best["before"]:  # a case the base cannot run
            print(f"{case:<17} {'-':>11} {after:>11,.0f} {'-':>13} {'-':>11} {vs_after:>10}")
            continue
        before = best["before"][case]["searchlab"]
        cpp_before = best["before"][case].get("openspiel_cpp")
        vs_before = f"{before / cpp_before:.1f}x" if cpp_before else "-"
        print(
            f"{case:<17} {before:>11,.0f} {after:>11,.0f} {after / before:>12.3f}x "
            f"{vs_before:>11} {vs_after:>10}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
