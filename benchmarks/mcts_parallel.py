"""Parallel MCTS (``threads=2``; ``--parallel tree``, the default, or ``root``) against one
thread, side by side in one run:
simulations a second of wall-clock time, and an arena at equal time per move (issue 32: on 2
cores at least 1.8x the simulations a second of one core, and the parallel search scoring at
least 0.5 over at least 100 games).

Two parts, each short enough to run alone under the shared lock:

* ``speed``: compiled MCTS from the initial position of Connect Four, Othello and Go 9x9
  (uniform random rollouts, ``c = 1``, a simulation budget), ``threads=1`` and ``threads=2``
  in alternation, ``--rounds`` times each (so that a change in the machine's load falls on
  both); simulations over wall-clock seconds, best and median of the rounds, and the ratios
  two threads / one. On a machine shared with other jobs the best of many short rounds is
  the machine's speed when its cores are free; the CPU seconds each search got per wall
  second are printed beside it (the cores it really had), and the simulations per CPU second
  (the work a thread does, whatever the load: 1.0 means no parallel overhead).
* ``arena``: ``searchlab arena GAME mcts:time=T,threads=2 mcts:time=T`` with ``--workers 1``
  (one game at a time, so that the parallel search has both cores while it moves),
  ``--games N`` (colours alternated, each pair of games from its own 4-ply random opening),
  games stored in ``--db`` so that a run stopped by ``--time`` goes on where it stopped when
  run again; the table of every game stored, then the parallel search's score. ``--budget
  simulations=N`` (and ``--parallel-budget``) compare the searches at equal (or given) work
  instead of equal time: what root parallelism costs a simulation, apart from the machine.

    flock /tmp/cpu.lock benchmarks/record.sh mcts_parallel_speed \\
        python benchmarks/mcts_parallel.py speed
    flock /tmp/cpu.lock benchmarks/record.sh mcts_parallel_arena_connect4 \\
        python benchmarks/mcts_parallel.py arena --game connect4 --games 100 --budget time=0.1
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _speed(rounds: int, quick: bool, parallel: str) -> None:
    from searchlab.algorithms.mcts import mcts
    from searchlab.core.limits import Limits
    from searchlab.games import make

    cases = {
        "connect4": (make("connect4"), 50_000 if quick else 200_000),
        "othello": (make("othello"), 10_000 if quick else 50_000),
        "go 9x9": (make("go", size=9, komi=7.5), 5_000 if quick else 20_000),
    }
    print(f"cores: {os.cpu_count()}, usable here: {len(os.sched_getaffinity(0))}")
    print(f"rounds: {rounds}, wall-clock seconds (perf_counter), simulations from the start")
    print(f"two threads: parallel={parallel} (Go 9x9's priors: root parallelism whatever is asked)")
    print(
        "simulations a wall-clock second (best and median of the rounds); 'cores' is the\n"
        "median CPU seconds over wall seconds of a search (2.0: both cores its own all the\n"
        "time), 'per CPU s' the simulations per CPU second, two threads over one"
    )
    header = (
        f"{'game':<10} {'simulations':>11} {'1 thread best':>14} {'median':>10} "
        f"{'2 threads best':>15} {'median':>10} {'best ratio':>11} {'median ratio':>13} "
        f"{'cores 1/2':>10} {'per CPU s':>10}"
    )
    print(header)
    for name, (game, budget) in cases.items():
        state = game.initial_state()
        for threads in (1, 2):  # load (or compile) the kernels first
            mcts(
                game, state, limits=Limits(simulations=2_000), seed=0, c=1.0, threads=threads,
                parallel=parallel,
            )  # fmt: skip
        rates: dict[int, list[float]] = {1: [], 2: []}
        cores: dict[int, list[float]] = {1: [], 2: []}
        per_cpu: dict[int, list[float]] = {1: [], 2: []}
        for round_ in range(rounds):
            order = (1, 2) if round_ % 2 == 0 else (2, 1)
            for threads in order:
                began, cpu = time.perf_counter(), time.process_time()
                result = mcts(
                    game, state, limits=Limits(simulations=budget), seed=round_ + 1, c=1.0,
                    threads=threads, tier="compiled", parallel=parallel,
                )  # fmt: skip
                seconds = time.perf_counter() - began
                cpu = time.process_time() - cpu
                assert result.stats["simulations"] == budget
                rates[threads].append(budget / seconds)
                cores[threads].append(cpu / seconds)
                per_cpu[threads].append(budget / max(cpu, 1e-9))
        one, two = rates[1], rates[2]
        median_ratio = statistics.median(two) / statistics.median(one)
        print(
            f"{name:<10} {budget:>11,} {max(one):>14,.0f} {statistics.median(one):>10,.0f} "
            f"{max(two):>15,.0f} {statistics.median(two):>10,.0f} "
            f"{max(two) / max(one):>11.2f} {median_ratio:>13.2f} "
            f"{statistics.median(cores[1]):>4.2f}/{statistics.median(cores[2]):<4.2f} "
            f"{max(per_cpu[2]) / max(per_cpu[1]):>10.2f}",
            flush=True,
        )


def _arena(
    game: str,
    games: int,
    budget: str,
    parallel_budget: str,
    db: str,
    seconds: float | None,
    form: str,
) -> int:
    parallel = f"mcts:{parallel_budget or budget},threads=2,parallel={form}"
    single = f"mcts:{budget}"
    command = [
        sys.executable, "-m", "searchlab", "arena", game, parallel, single,
        "--games", str(games), "--workers", "1", "--openings", "4", "--db", db,
    ]  # fmt: skip
    if seconds is not None:
        command += ["--time", str(seconds)]
    print("$", " ".join(command[1:]), flush=True)
    began = time.perf_counter()
    code = subprocess.call(command, cwd=ROOT)
    print(f"arena: exit {code}, {time.perf_counter() - began:.0f} s", flush=True)
    # the score from the games stored (asking the arena for --json would play the games
    # a --time limit left out)
    wins = draws = losses = 0
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT first, second, result FROM games WHERE game = ? AND error IS NULL",
            (game,),
        ).fetchall()
    for first, second, result in rows:
        if {first, second} != {parallel, single}:
            continue
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == (first == parallel):
            wins += 1
        else:
            losses += 1
    played = wins + draws + losses
    fraction = (wins + draws / 2) / played if played else float("nan")
    print(
        f"{parallel} against {single}: {played} games stored, +{wins} ={draws} -{losses}, "
        f"score {fraction:.3f}"
    )
    return 0 if played >= games else 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parts = parser.add_subparsers(dest="part", required=True)
    speed = parts.add_parser("speed", help="simulations a second, 1 and 2 threads")
    speed.add_argument("--rounds", type=int, default=15)
    speed.add_argument("--quick", action="store_true", help="small budgets (a smoke test)")
    arena = parts.add_parser("arena", help="threads=2 against threads=1 at equal time")
    for part in (speed, arena):
        part.add_argument("--parallel", choices=("tree", "root"), default="tree")
    arena.add_argument("--game", default="connect4")
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument(
        "--budget", default="time=0.1", help="each side's budget a move (default: %(default)s)"
    )
    arena.add_argument(
        "--parallel-budget",
        default="",
        help="the parallel side's, when another (e.g. simulations=40000 against "
        "--budget simulations=20000: two threads that had two cores)",
    )
    arena.add_argument("--db", default="benchmarks/results/mcts_parallel_arena.sqlite")
    arena.add_argument("--time", type=float, default=None, help="start no game after S seconds")
    args = parser.parse_args(argv)
    if args.part == "speed":
        _speed(args.rounds, args.quick, args.parallel)
        return 0
    return _arena(
        args.game, args.games, args.budget, args.parallel_budget, args.db, args.time, args.parallel
    )


if __name__ == "__main__":
    sys.exit(main())
