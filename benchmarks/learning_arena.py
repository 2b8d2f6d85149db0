"""The trained az agent in the arena on Connect Four: against searchlab's compiled mcts at equal
time per move, and against alphabeta:depth=8.

``az`` searches ``--simulations`` (800) per move with the network of ``--checkpoint`` (a file or
a training directory; default: the network shipped inside searchlab). Each side has one core:
PyTorch runs on one thread, like the single-threaded mcts and alpha-beta.

**Equal time, as a fixed budget.** Before any game, az plays ``--calibration-games`` (2)
games against itself (from seeded 2-ply random openings) and its CPU seconds per move are
measured; mcts then gets the number of simulations that takes the same mean CPU time per move
on those same positions: ``mcts:simulations=B``, B from the mean cost of a simulation at a
probe budget, then timed and corrected until within 10 % (rounded to a thousand). The
positions of real games matter: in a decided position a simulation costs next to nothing, and
random positions hold many. A fixed budget, not a clock, so other jobs on the machine cannot
change the games. The stored games' measured seconds per move of both sides are printed
at the end as a second check. ``--mcts-simulations B`` skips the measurement; a rerun with the
same ``--db`` reads B back from the stored games and resumes.

**Games.** Two ``searchlab arena`` matches stored in one SQLite file (``--db``): az against
``mcts:simulations=B`` and az against ``alphabeta:depth=D``, ``--games`` each, colours
alternating; each pair of colour-swapped games starts from its own ``--openings`` random plies
(the arena's openings: distinct across pairs), so the deterministic agents play different
games. The score is az's (a draw counts half) with its Wilson 95 % interval (draws counted as
half a win, which is conservative: a draw varies less than a win or a loss), az's score as
first and as second player, the arena's Elo interval, and forfeits (there should be none).

**Time** (2 otherwise idle cores; the script prints its own estimate after measuring). The
measurement: 2-3 minutes (two az games, then mcts timed two or three times on their ~70
positions, one process). The games, two at a time: about games x 18 moves x (2 x az + mcts +
alphabeta seconds a move) / 2. At 800 simulations on one core az takes ~0.3-0.4 s a move with
a 4x32 network and ~0.6 s with 4x64: the default run (40 + 40 games) takes about 10 minutes
in all with 4x32 and about 15 with 4x64. Smoke test: ``--games 4 --calibration-games 1``,
about 2 minutes (add ``--simulations 50`` for well under one).

    nice -n 5 .venv/bin/python benchmarks/learning_arena.py \\
        --db benchmarks/results/learning_arena_2026-11-23.sqlite --json /tmp/arena.json
    .venv/bin/python benchmarks/learning_arena.py --checkpoint runs/c4 \\
        --games 4 --calibration-games 1   # smoke test
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch loads: one core per side
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.agents import make_agent
from searchlab.arena import ArenaStore, GameRecord, match_score, standings
from searchlab.arena.schedule import canonical_spec, random_opening
from searchlab.cli.main import main as searchlab
from searchlab.core.errors import SearchlabError
from searchlab.core.game import State
from searchlab.games import make
from searchlab.learning.alphazero.mistakes import wilson_interval

GAME = "connect4"
PLIES_PER_GAME = 36  # a typical Connect Four game between these agents, for the estimate
MCTS_PREFIX = "mcts:simulations="
PROBE = 100_000  # mcts simulations per move when measuring the cost of one


def az_positions(az: str, games: int, seed: int) -> tuple[list[State], list[float]]:
    """The positions az moved in over ``games`` games against itself (each from its own
    seeded 2-ply random opening), and the CPU seconds each of those moves took."""
    game = make(GAME)
    agent = make_agent(az, game, seed=0)
    agent.act(game.initial_state())  # warm up: torch allocates, numba compiles
    rng = np.random.default_rng(seed)
    positions: list[State] = []
    seconds: list[float] = []
    for _ in range(games):
        state = game.initial_state()
        for action in random_opening(game, 2, rng):
            state = state.apply(action)
        while not state.is_terminal():
            start = time.process_time()
            action = agent.act(state)
            seconds.append(time.process_time() - start)
            positions.append(state)
            state = state.apply(action)
    return positions, seconds


def cpu_seconds(spec: str, positions: list[State]) -> list[float]:
    """The CPU seconds ``spec`` takes to move in each of ``positions`` (a fresh search each
    time, after one move to warm up)."""
    agent = make_agent(spec, make(GAME), seed=0)
    agent.act(positions[0])
    seconds = []
    for state in positions:
        agent.reset()
        start = time.process_time()
        agent.act(state)
        seconds.append(time.process_time() - start)
    return seconds


def mcts_budget(target: float, positions: list[State]) -> tuple[int, float]:
    """The simulations per move that take mcts ``target`` CPU seconds a move on average over
    ``positions``, to the nearest thousand, and the mean it was measured to take: the mean
    cost of one simulation measured at a probe budget gives a first budget, which is timed and
    corrected (up to three timings) until it is within 10 % of ``target``."""
    costs = [seconds / PROBE for seconds in cpu_seconds(f"{MCTS_PREFIX}{PROBE}", positions)]
    budget = _thousands(target / statistics.fmean(costs))
    for attempt in range(3):
        mean = statistics.fmean(cpu_seconds(f"{MCTS_PREFIX}{budget}", positions))
        print(f"  {MCTS_PREFIX}{budget}: {mean:.3f} CPU s a move (target {target:.3f})")
        if abs(mean / target - 1) <= 0.1 or attempt == 2:
            break
        budget = _thousands(budget * target / mean)
    return budget, mean


def _thousands(simulations: float) -> int:
    return max(1000, round(simulations / 1000) * 1000)


def stored_budget(db: Path, az: str) -> int | None:
    """The mcts budget of the games against ``az`` already in ``db`` (a resumed run)."""
    if not db.exists():
        return None
    with ArenaStore.open(db) as store:
        records = store.records(game=GAME)
    budgets = {
        int(label[len(MCTS_PREFIX) :])
        for record in records
        if az in (record.first, record.second)
        for label in (record.first, record.second)
        if label.startswith(MCTS_PREFIX) and label[len(MCTS_PREFIX) :].isdigit()
    }
    return budgets.pop() if len(budgets) == 1 else None


def az_score(record: GameRecord, az: str) -> float:
    return record.first_score if record.first == az else 1.0 - record.first_score


def report(db: Path, az: str, opponent: str) -> dict[str, Any]:
    """az's results against ``opponent`` in ``db``: counts, score, intervals, times."""
    with ArenaStore.open(db) as store:
        records = [r for r in store.records(game=GAME) if {r.first, r.second} == {az, opponent}]
    scores = [az_score(record, az) for record in records]
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    games = len(records)
    # The score with draws as half a win: Wilson's formula holds for a fractional count.
    low, high = wilson_interval(wins + 0.5 * draws, games)
    match = match_score(wins, draws, losses)
    rows = {row.agent: row for row in standings(records)}
    sides = {}
    for side, name in ((0, "first"), (1, "second")):
        own = [az_score(r, az) for r in records if (r.first == az) == (side == 0)]
        sides[name] = {"games": len(own), "score": sum(own)}
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": (wins + 0.5 * draws) / games,
        "wilson95": [low, high],
        "elo": _finite(match.elo),  # None for a score of 0 or 1
        "elo95": [_finite(match.elo_low), _finite(match.elo_high)],
        "as_first": sides["first"],
        "as_second": sides["second"],
        "forfeits": sum(record.termination in ("illegal move", "error") for record in records),
        "az_seconds_per_move": rows[az].seconds_per_move,
        "opponent_seconds_per_move": rows[opponent].seconds_per_move,
    }


def _elo(value: float | None) -> str:
    """An Elo difference; none for a score of 0 or 1 (infinite)."""
    return "none" if value is None else f"{value:+.0f}"


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def print_report(result: dict[str, Any]) -> None:
    low, high = result["wilson95"]
    first, second = result["as_first"], result["as_second"]
    print(
        f"  against {result['opponent']}: {result['games']} games, az +{result['wins']} "
        f"={result['draws']} -{result['losses']}, score {result['score']:.3f} "
        f"(Wilson 95 % {low:.3f}-{high:.3f}), Elo {_elo(result['elo'])} "
        f"[{_elo(result['elo95'][0])}, {_elo(result['elo95'][1])}]"
    )
    print(
        f"    az as first {first['score']:g}/{first['games']}, as second "
        f"{second['score']:g}/{second['games']}; seconds per move (wall, stored): az "
        f"{result['az_seconds_per_move']:.3f}, opponent {result['opponent_seconds_per_move']:.3f}"
        + (f"; FORFEITS {result['forfeits']}" if result["forfeits"] else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="\n\n".join((__doc__ or "").split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--checkpoint", help="checkpoint file or training directory (default: the shipped one)"
    )
    parser.add_argument("--simulations", type=int, default=800, help="az's per move (800)")
    parser.add_argument("--games", type=int, default=40, help="games per opponent (40)")
    parser.add_argument("--openings", type=int, default=2, help="random plies per pair (2)")
    parser.add_argument("--depth", type=int, default=8, help="alphabeta's depth (8)")
    parser.add_argument(
        "--calibration-games", type=int, default=2, help="az self-play games timed (2)"
    )
    parser.add_argument("--mcts-simulations", type=int, help="mcts's budget (default: measured)")
    parser.add_argument("--workers", type=int, default=2, help="games at a time (2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", type=Path, help="SQLite file (default: a temporary file)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    az = f"az:checkpoint={args.checkpoint}," if args.checkpoint else "az:"
    az = canonical_spec(f"{az}simulations={args.simulations}")
    alphabeta = canonical_spec(f"alphabeta:depth={args.depth}")
    db = args.db or Path(tempfile.mkdtemp(prefix="learning-arena-")) / "arena.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    try:
        checkpoint = make_agent(az, make(GAME)).checkpoint  # type: ignore[attr-defined]
        print(f"az: {az} -> {checkpoint.path} ({checkpoint.config.describe()})")
        if checkpoint.extra.get("reproduce"):
            print(f"    made by: {checkpoint.extra['reproduce']} (seed {checkpoint.extra['seed']})")
        positions, az_times = az_positions(az, args.calibration_games, args.seed)
        az_seconds = statistics.fmean(az_times)
        ab_seconds = statistics.fmean(cpu_seconds(alphabeta, positions))
        print(
            f"CPU seconds per move over the {len(positions)} moves of {args.calibration_games} "
            f"az self-play games: az {az_seconds:.3f} (median {statistics.median(az_times):.3f}), "
            f"{alphabeta} {ab_seconds:.3f} on the same positions"
        )
        budget = args.mcts_simulations or stored_budget(db, az)
        if budget is not None:
            source = "given" if args.mcts_simulations else f"read back from {db}"
            mcts_seconds = statistics.fmean(cpu_seconds(f"{MCTS_PREFIX}{budget}", positions))
            print(
                f"mcts budget {budget:,} simulations ({source}): {mcts_seconds:.3f} CPU s a "
                "move on the same positions"
            )
        else:
            print("mcts: the simulations that take az's mean time, on the same positions")
            budget, mcts_seconds = mcts_budget(az_seconds, positions)
        mcts = canonical_spec(f"{MCTS_PREFIX}{budget}")
        half = PLIES_PER_GAME / 2 * args.games / max(1, args.workers)
        estimate = half * (2 * az_seconds + mcts_seconds + ab_seconds)
        print(f"estimated time of the games: {estimate / 60:.0f} min; games stored in {db}")
        for opponent in (mcts, alphabeta):
            code = searchlab(
                [
                    "arena", GAME, az, opponent,
                    "--games", str(args.games),
                    "--openings", str(args.openings),
                    "--seed", str(args.seed),
                    "--workers", str(args.workers),
                    "--db", str(db),
                ]
            )  # fmt: skip
            if code != 0:
                return code
        results = [report(db, az, opponent) for opponent in (mcts, alphabeta)]
    except SearchlabError as error:
        print(f"learning_arena: {error}", file=sys.stderr)
        return 2
    print()
    print(f"{az} on Connect Four ({checkpoint.config.describe()}, {checkpoint.path.name}):")
    for result in results:
        print_report(result)
    spent, other = results[0]["az_seconds_per_move"], results[0]["opponent_seconds_per_move"]
    if spent and abs(other / spent - 1) > 0.25:
        print(f"  note: mcts's stored time per move is {other / spent:.2f}x az's (load?)")
    elapsed = time.perf_counter() - start
    print(f"games in {db}; wall time of this run {elapsed / 60:.1f} min")
    if args.json:
        summary = {
            "az": az,
            "checkpoint": str(checkpoint.path),
            "network": checkpoint.config.describe(),
            "reproduce": checkpoint.extra.get("reproduce"),
            "seed": checkpoint.extra.get("seed"),
            "calibration": {
                "games": args.calibration_games,
                "positions": len(positions),
                "az_cpu_seconds_per_move": az_seconds,
                "mcts_simulations": budget,
                "mcts_cpu_seconds_per_move": mcts_seconds,
                "alphabeta_cpu_seconds_per_move": ab_seconds,
            },
            "results": results,
            "db": str(db),
            "wall_seconds": elapsed,
        }
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
