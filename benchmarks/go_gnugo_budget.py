"""How many simulations "one second per move on one core" buys the Go agent, measured.

The match against GNU Go (docs/games/go.md) gives searchlab's agent a fixed number of
simulations per move instead of a wall-clock second, so that other jobs on this shared 2-core
machine cannot change the result: this script measures that number. It plays one seeded 9x9
game between two copies of the agent spec (each move searched for ``--seconds`` of wall time
with the tree kept between moves), and for every move reads the simulations the search made
and the CPU time the process spent on it. Simulations per CPU second, move by move, are printed
with their quartiles; the budget is the median times ``--seconds``, rounded to a thousand.
GNU Go's level is a search depth, not a clock (``clock=false`` in the gtp agent), so neither
side's strength depends on the load.

    .venv/bin/python benchmarks/go_gnugo_budget.py
    .venv/bin/python benchmarks/go_gnugo_budget.py --spec "mcts:rave=1000,c=0.3" --seconds 0.5
"""

from __future__ import annotations

import argparse
import statistics
import time

from searchlab.agents import make_agent
from searchlab.core.limits import Limits
from searchlab.games import make

DEFAULT_SPEC = "mcts:rave=1000,c=0.3,rollout=informed,reuse=true"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default=DEFAULT_SPEC, help="agent spec without a budget")
    parser.add_argument("--seconds", type=float, default=1.0, help="wall seconds per move")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--max-moves", type=int, default=120, help="stop the game after this")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = make("go", size=args.size, komi=7.5)
    agents = [make_agent(args.spec, game, seed=args.seed + side) for side in (0, 1)]
    state = game.initial_state()
    limits = Limits(time=args.seconds)
    agents[0].act(state, Limits(simulations=200))  # compile the kernels before measuring
    for agent in agents:
        agent.reset()
    rates: list[float] = []
    print(f"spec {args.spec}, {args.seconds:g} s a move (wall), {args.size}x{args.size}")
    print(f"{'move':>4} {'simulations':>11} {'cpu s':>6} {'sims/cpu s':>10}")
    move = 0
    while not state.is_terminal() and move < args.max_moves:
        agent = agents[state.current_player()]
        cpu = time.process_time()
        action = agent.act(state, limits)
        spent = time.process_time() - cpu
        result = agent.last_result
        simulations = int(result.stats["simulations"]) if result is not None else 0
        if spent > 0 and simulations:
            rates.append(simulations / spent)
            print(f"{move:>4} {simulations:>11} {spent:>6.2f} {simulations / spent:>10.0f}")
        state = state.apply(action)
        move += 1
    quartiles = statistics.quantiles(rates, n=4)
    median = statistics.median(rates)
    budget = max(1000, round(median * args.seconds / 1000) * 1000)
    print(
        f"simulations per CPU second over {len(rates)} moves: quartiles "
        f"{quartiles[0]:.0f} / {quartiles[1]:.0f} / {quartiles[2]:.0f}"
    )
    print(f"budget for {args.seconds:g} s a move on one core: simulations={budget}")


if __name__ == "__main__":
    main()
