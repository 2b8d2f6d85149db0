"""MCTS simulations per second on the empty 9x9 Go board (komi 7.5): searchlab's compiled
Go MCTS (:mod:`searchlab.algorithms.mcts.go_compiled`) against OpenSpiel's C++ ``go`` with
its C++ ``MCTSBot`` and a ``RandomRolloutEvaluator`` (one rollout a simulation), side by side
in one run, with the ratio.

Rows for searchlab: plain UCT without priors (the search OpenSpiel's bot runs), the default
search (priors) with ``rave=0`` and with ``rave=1000``, and the informed rollouts with
``rave=1000`` (where ``go.informed`` exists). Every search uses ``c = 1`` (OpenSpiel's
``uct_c = sqrt(2)``). The playouts differ as the two games do: searchlab's never fill the
mover's own eye and end after two passes (about 110 plies from the empty board), OpenSpiel's
are uniform over all legal moves and stop at its ``max_game_length`` (162 plies on 9x9).
Each figure is simulations per CPU second of this process, the best of ``--repeat`` single
searches from the empty board (one ``step`` for OpenSpiel), after a warm-up search.

    nice -n 10 python benchmarks/go_playouts.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from searchlab.algorithms.kernels import mcts_rollouts
from searchlab.algorithms.mcts.go_compiled import GoSearcher, warm_up
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.limits import Limits
from searchlab.domains.games.go import Go

C = 1.0
SEED = 1
TARGET = 5.0  # searchlab / OpenSpiel C++


def best_rate(run: Callable[[], Any], simulations: int, repeat: int) -> float:
    """Simulations per CPU second of the fastest of ``repeat`` runs."""
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return simulations / best


def searchlab_run(simulations: int, rave: float, rollout: str, priors: bool) -> Callable[[], Any]:
    game = Go(9, komi=7.5)
    state = game.initial_state()
    options = MCTSOptions(c=C, rave=rave, rollout=rollout)

    def run() -> Any:
        result = GoSearcher(game, options, SEED, priors=priors).search(
            state, Limits(simulations=simulations)
        )
        assert result.stats["simulations"] == simulations, result
        return result

    return run


def openspiel_run(simulations: int) -> Callable[[], Any] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    bot = pyspiel.MCTSBot(
        game,
        pyspiel.RandomRolloutEvaluator(1, SEED),
        C * math.sqrt(2.0),
        simulations,
        10_000,  # max_memory_mb: never reached here
        False,  # solve
        SEED,
        False,  # verbose
    )
    state = game.new_initial_state()
    return lambda: bot.step(state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small budgets")
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine (best is kept)")
    args = parser.parse_args(argv)
    simulations, cpp_simulations = (5_000, 1_000) if args.quick else (30_000, 5_000)
    warm_up()
    rows: list[tuple[str, Callable[[], Any], int]] = [
        (f"searchlab {name}", searchlab_run(simulations, rave, "random", priors), simulations)
        for name, rave, priors in (
            ("UCT, no priors", 0.0, False),
            ("priors, rave=0", 0.0, True),
            ("priors, rave=1000", 1000.0, True),
        )
    ]
    if "informed" in mcts_rollouts(Go(9)):
        try:
            import searchlab.domains.games.go.informed  # noqa: F401
        except ImportError:
            print("no go.informed module: the informed rollouts are not timed", file=sys.stderr)
        else:
            rows.append(
                ("searchlab informed, rave=1000",
                 searchlab_run(simulations // 3, 1000.0, "informed", True), simulations // 3)
            )  # fmt: skip
    cpp = openspiel_run(cpp_simulations)
    cpp_rate = None
    print("MCTS simulations per CPU second, empty 9x9 board, komi 7.5, one rollout each, c = 1")
    print(f"{'engine':<32} {'simulations':>11} {'sims/s':>10} {'x C++':>7}")
    if cpp is None:
        print("open_spiel is not installed (pip install open_spiel): searchlab only")
    else:
        cpp()
        cpp_rate = best_rate(cpp, cpp_simulations, args.repeat)
        print(
            f"{'OpenSpiel C++ MCTSBot':<32} {cpp_simulations:>11,} {cpp_rate:>10,.0f} {'1.0x':>7}"
        )
    missed = []
    for name, run, count in rows:
        run()
        rate = best_rate(run, count, args.repeat)
        ratio = "-" if cpp_rate is None else f"{rate / cpp_rate:.1f}x"
        print(f"{name:<32} {count:>11,} {rate:>10,.0f} {ratio:>7}")
        if cpp_rate is not None and "informed" not in name and rate / cpp_rate < TARGET:
            missed.append(f"{name}: {rate / cpp_rate:.1f}x")
    print(f"target (random rollouts / OpenSpiel C++): >= {TARGET:g}x")
    if missed:
        print(f"missed: {'; '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
