"""MCTS simulations per second from the initial position of Connect Four and Othello:
searchlab's compiled tier, searchlab's reference tier (plain Python), OpenSpiel's Python
``MCTSBot`` and OpenSpiel's C++ ``pyspiel.MCTSBot``, side by side in one run.

The search is the same in all four: UCT with one uniformly random rollout per simulation, no
solver, exploration ``c = 1`` in searchlab's ``W/N + c * sqrt(2 ln N / n)``, which is
OpenSpiel's ``uct_c = c * sqrt(2)`` in its ``W/N + uct_c * sqrt(ln N / n)``. Othello is
searchlab's ``Othello(scoring="win_loss")`` (returns +-1/0, as OpenSpiel's). The compiled tier
and the C++ bot run the same number of simulations (so their trees are alike in size); the two
Python searches run fewer, and their rate hardly depends on it. Each figure is the best of
``--repeat`` runs in CPU time of this process (all four are single-threaded and run in it, so
a loaded machine does not skew the ratios), one ``step``/search call each, after a warm-up
call.

    nice -n 10 python benchmarks/mcts_openspiel.py [--quick] [--repeat N]

OpenSpiel comes from PyPI (``pip install open_spiel``); without it the script says so and
times searchlab's two tiers only.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from searchlab.algorithms.mcts import mcts
from searchlab.algorithms.mcts.compiled import warm_up
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.othello import Othello

C = 1.0
SEED = 1
# game: (searchlab game, OpenSpiel name, simulations for compiled and C++, for the Python ones)
GAMES: dict[str, tuple[Any, str, int, int]] = {
    "connect4": (Connect4(), "connect_four", 100_000, 2_000),
    "othello": (Othello(scoring="win_loss"), "othello", 5_000, 300),
}
QUICK_SIMULATIONS = {"connect4": (20_000, 500), "othello": (1_000, 100)}
TARGETS = {"connect4": 2.0, "othello": 10.0}  # compiled / C++ sims per second


def best_rate(run: Callable[[], Any], simulations: int, repeat: int) -> float:
    """Simulations per CPU second of the fastest of ``repeat`` runs."""
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return simulations / best


def searchlab_run(game: Any, simulations: int, tier: str) -> Callable[[], Any]:
    state = game.initial_state()

    def run() -> Any:
        result = mcts(
            game, state, limits=Limits(simulations=simulations), c=C, seed=SEED, tier=tier
        )
        assert result.tier == tier and result.stats["simulations"] == simulations, result
        return result

    return run


def openspiel_runs(
    name: str, simulations: int, python_simulations: int
) -> tuple[Callable[[], Any], Callable[[], Any]] | None:
    """``(C++ bot step, Python bot step)`` from the initial state; ``None`` without OpenSpiel."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts as os_mcts
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    uct_c = C * math.sqrt(2.0)
    cpp_bot = pyspiel.MCTSBot(
        game,
        pyspiel.RandomRolloutEvaluator(1, SEED),
        uct_c,
        simulations,
        10_000,  # max_memory_mb: never reached here
        False,  # solve
        SEED,
        False,  # verbose
    )
    python_bot = os_mcts.MCTSBot(
        game,
        uct_c,
        python_simulations,
        os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(SEED)),
        solve=False,
        random_state=np.random.RandomState(SEED),
    )
    state = game.new_initial_state()
    return (lambda: cpp_bot.step(state)), (lambda: python_bot.step(state))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small budgets")
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine (best is kept)")
    args = parser.parse_args(argv)
    warm_up()
    have_openspiel = openspiel_runs("tic_tac_toe", 1, 1) is not None
    if not have_openspiel:
        print(
            "open_spiel is not installed (pip install open_spiel, the 'bench' extra): "
            "timing searchlab's tiers only",
            file=sys.stderr,
        )
    header = (
        f"{'game':<9} {'compiled':>11} {'reference':>11} {'os C++':>11} {'os Python':>11} "
        f"{'comp/C++':>9} {'comp/osPy':>9} {'comp/ref':>9}"
    )
    print("simulations per CPU second, initial position, uniform random rollouts, c = 1")
    print(header)
    print("-" * len(header))
    missed = []
    for key, (game, openspiel_name, simulations, python_simulations) in GAMES.items():
        if args.quick:
            simulations, python_simulations = QUICK_SIMULATIONS[key]
        compiled_run = searchlab_run(game, simulations, "compiled")
        compiled_run()  # warm: load the kernel
        compiled = best_rate(compiled_run, simulations, max(args.repeat, 5))
        reference = best_rate(
            searchlab_run(game, python_simulations, "reference"), python_simulations, args.repeat
        )
        cpp_text = python_text = cpp_ratio = python_ratio = "-"
        if have_openspiel:
            runs = openspiel_runs(openspiel_name, simulations, python_simulations)
            assert runs is not None
            cpp_run, python_run = runs
            cpp_run()
            cpp = best_rate(cpp_run, simulations, args.repeat)
            python = best_rate(python_run, python_simulations, args.repeat)
            cpp_text, python_text = f"{cpp:,.0f}", f"{python:,.0f}"
            cpp_ratio, python_ratio = f"{compiled / cpp:.1f}x", f"{compiled / python:.0f}x"
            if compiled / cpp < TARGETS[key]:
                missed.append(f"{key}: {compiled / cpp:.1f}x < {TARGETS[key]:g}x")
        print(
            f"{key:<9} {compiled:>11,.0f} {reference:>11,.0f} {cpp_text:>11} {python_text:>11} "
            f"{cpp_ratio:>9} {python_ratio:>9} {compiled / reference:>8.0f}x"
        )
    targets = ", ".join(f"{key} >= {target:g}x" for key, target in TARGETS.items())
    print(f"targets (compiled / OpenSpiel C++): {targets}")
    if missed:
        print(f"missed: {'; '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
