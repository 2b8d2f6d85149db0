"""Connect Four mistake rates on Pascal Pons' test sets, for any agent, next to AlphaZero.jl's
published figures.

    python benchmarks/connect4_mistakes.py --agent alphabeta:depth=5 --limit 100
    python benchmarks/connect4_mistakes.py --agent az:checkpoint=DIR --agent policy:checkpoint=DIR
    python benchmarks/connect4_mistakes.py --agent azjl-minimax:depth=5 --sets Begin-Hard

A move is a **mistake** when another legal move has a strictly better game-theoretic outcome
(win > draw > loss) -- AlphaZero.jl's definition (``pons_benchmark.jl``: the sign of the chosen
move's value is below the best sign). The best outcome is the sign of the score in Pons' file;
the chosen move's outcome comes from searchlab's exact solver, cached in ``--cache`` (a JSON
file under ``benchmarks/results/``), so reruns and other agents choosing the same moves cost no
solving (see :mod:`searchlab.learning.mistakes`).

Agents are specs (``play``/``arena`` syntax), plus ``azjl-minimax:depth=D``, registered here:
a replica of AlphaZero.jl's baseline ``MinMax.Player(depth=5, amplify_rewards=true, τ=0)``
(plain minimax to depth D, wins +inf and losses -inf, its Connect Four heuristic at the
horizon: every four-cell alignment free of the opponent's stones is worth 0.1^(3 - stones of
the player), the mover's sum minus the opponent's; the first best column in 1..7 order, as
Julia's ``argmax``), so that its rates check the definition against the published 1.7 / 7.3 /
9.2 / 23.5 %. Each position is a fresh game for the agent (``reset()`` before each).

``--limit N`` takes the first N lines of each file (the data folder holds lines 1-500 of
Pons' files). The table gives each agent's rate per set with a 95% Wilson interval, the
published figures beside it, the agent's mean time per move and the solver's work.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from searchlab.agents import make_agent, register_agent
from searchlab.agents.base import AgentBase
from searchlab.agents.spec import Param
from searchlab.core.errors import SearchlabError
from searchlab.domains.games.connect4 import Connect4, bits, parse_moves
from searchlab.learning.alphago_data import ExpertPositions
from searchlab.learning.alphago_labelling import position_keys
from searchlab.learning.mistakes import (
    AZJL_ALPHAZERO,
    AZJL_MINIMAX,
    PONS_SETS,
    MistakeJudge,
    OutcomeCache,
    chooser,
    mistake_rate,
    published_key,
    read_pons_file,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "connect4_pons"
CACHE = ROOT / "benchmarks" / "results" / "connect4_mistakes_outcomes.json"

# --- AlphaZero.jl's minimax baseline, replicated -------------------------------------------


def _alignments() -> np.ndarray:
    """AlphaZero.jl's ALIGNMENTS in its order: directions (1,1), (1,-1), (0,1), (1,0) in
    (column, row), starts by column then row; as bitboards (bit 7 * column + row)."""
    masks = []
    for dc, dr in ((1, 1), (1, -1), (0, 1), (1, 0)):
        for column in range(7):
            for row in range(6):
                cells = [(column + i * dc, row + i * dr) for i in range(4)]
                if all(0 <= c < 7 and 0 <= r < 6 for c, r in cells):
                    masks.append(sum(1 << (7 * c + r) for c, r in cells))
    return np.array(masks, dtype=np.int64)


ALIGNMENTS = _alignments()
GAMMA_POWERS = np.array([0.1**3, 0.1**2, 0.1**1, 1.0], dtype=np.float64)  # by stones 0..3


@njit(cache=True)
def _side_value(mine, theirs, alignments, powers):  # pragma: no cover - compiled
    total = 0.0
    for index in range(alignments.shape[0]):
        cells = alignments[index]
        if cells & theirs:
            continue
        total += powers[bits.popcount(cells & mine)]
    return total


@njit(cache=True)
def _heuristic(current, mask, alignments, powers):  # pragma: no cover - compiled
    """AlphaZero.jl's ``heuristic_value``: the mover's alignments minus the opponent's."""
    opponent = current ^ mask
    return _side_value(current, opponent, alignments, powers) - _side_value(
        opponent, current, alignments, powers
    )


@njit(
    "float64(int64, int64, int64, int64, int64[:], float64[:])", cache=False
)  # self-recursive: numba's cache does not keep recursive functions safely
def _minimax_q(current, mask, column, depth, alignments, powers):  # pragma: no cover - compiled
    """AlphaZero.jl's ``qvalue`` with amplified rewards: +inf for a move that wins, 0 for one
    that fills the board, else minus the opponent's ``value`` (their best q-value, or the
    heuristic at the horizon) one ply shallower."""
    cell = bits.drop(mask, column)
    mine = current | cell
    new_mask = mask | cell
    if bits.has_four(mine):
        return np.inf
    if new_mask == bits.BOARD:
        return 0.0
    opponent = mine ^ new_mask
    if depth == 1:
        return -_heuristic(opponent, new_mask, alignments, powers)
    best = -np.inf
    for reply in range(7):
        if bits.can_play(new_mask, reply):
            q = _minimax_q(opponent, new_mask, reply, depth - 1, alignments, powers)
            if q > best:
                best = q
    return -best


@njit(cache=False)
def _minimax_root(current, mask, depth, alignments, powers):  # pragma: no cover - compiled
    best_column, best = -1, -np.inf
    for column in range(7):
        if bits.can_play(mask, column):
            q = _minimax_q(current, mask, column, depth, alignments, powers)
            if best_column < 0 or q > best:  # the first maximum, as Julia's argmax
                best_column, best = column, q
    return best_column


class AZJLMinimaxAgent(AgentBase):
    """AlphaZero.jl's ``MinMax.Player(depth, amplify_rewards=true, τ=0)`` on Connect Four."""

    def __init__(self, name: str, depth: int) -> None:
        super().__init__(name)
        self.depth = depth

    def act(self, state: Any, limits: Any = None) -> int:
        return int(_minimax_root(state.current, state.mask, self.depth, ALIGNMENTS, GAMMA_POWERS))


def _azjl_minimax(game: Any, *, name: str, seed: int | None, depth: int) -> AgentBase:
    return AZJLMinimaxAgent(name, depth)


register_agent(
    "azjl-minimax",
    _azjl_minimax,
    {"depth": Param(int, 5, "plies")},
    "AlphaZero.jl's minimax baseline (Connect Four only)",
)

# --- the benchmark -------------------------------------------------------------------------


def _sets(chosen: list[str] | None) -> list[tuple[str, str]]:
    if not chosen:
        return list(PONS_SETS)
    found = []
    for text in chosen:
        match = [
            (f, n)
            for f, n in PONS_SETS
            if text.lower() in (f.lower(), n.lower(), f.lower().removeprefix("test_"))
        ]
        if not match:
            known = ", ".join(n for _, n in PONS_SETS)
            sys.exit(f"connect4_mistakes: unknown set {text!r}; known: {known} (or L1_R3 ...)")
        found.extend(match)
    return found


def _precompute(args: argparse.Namespace) -> int:
    """Solve every legal move of the chosen positions into the cache."""
    cache = OutcomeCache(args.cache)
    judge = MistakeJudge(cache)
    started = time.perf_counter()
    for file, set_name in _sets(args.sets):
        entries = read_pons_file(args.data / file, args.limit)
        before = judge.solves
        for number, entry in enumerate(entries, 1):
            if entry.best >= 0:  # where every move loses, no move is a mistake
                for column in entry.state().legal_actions():
                    judge.outcome(entry, column)
            if number % 10 == 0:
                cache.save()
        cache.save()
        print(
            f"{set_name:<14} {len(entries)} positions, {judge.solves - before} solves, "
            f"{time.perf_counter() - started:.0f} s so far, cache {len(cache)}",
            flush=True,
        )
    return 0


def _curve(args: argparse.Namespace) -> int:
    """One row per SL epoch of an alphago run: CPU hours so far, the rate on each set."""
    from searchlab.learning.checkpoint import load_checkpoint

    snapshots = sorted(args.curve.glob("sl-epoch-*.ckpt"))
    if not snapshots:
        sys.exit(f"connect4_mistakes: no sl-epoch-*.ckpt in {args.curve}")
    game = Connect4()
    judge = MistakeJudge(OutcomeCache(args.cache))
    sets = _sets(args.sets)
    names = [name for _, name in sets]
    print(f"curve of {args.curve}: the network alone (policy agent), the first "
          f"{args.limit or 'all'} positions of each set; rate % (mistakes/positions)")  # fmt: skip
    print(f"{'epoch':>5} {'CPU h':>6} " + " ".join(f"{n:>15}" for n in names))
    rows = []
    for path in snapshots:
        extra = load_checkpoint(path, game).extra
        agent = make_agent(f"policy:checkpoint={path}", game, seed=args.seed)
        cells, row = [], {"checkpoint": path.name, **extra}
        for file, name in sets:
            entries = read_pons_file(args.data / file, args.limit)
            report = mistake_rate(chooser(agent), entries, judge, set_name=name)
            cells.append(f"{100 * report.rate:.1f} ({report.mistakes}/{report.positions})")
            row[name] = [report.mistakes, report.positions]
        judge.cache.save()
        hours = float(extra.get("cpu_seconds", 0.0)) / 3600
        print(f"{extra.get('epoch', '?'):>5} {hours:>6.2f} " + " ".join(f"{c:>15}" for c in cells),
              flush=True)  # fmt: skip
        rows.append(row)
    print(f"solver: {judge.solves} positions solved (cache misses)")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def _trained_keys(chunks: list[Path]) -> set[int]:
    """The keys of every position in the expert chunks."""
    return {parse_moves(m).key() for path in chunks for m in ExpertPositions.load(path).moves}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--agent",
        action="append",
        metavar="SPEC",
        help="agent spec (repeatable; default: azjl-minimax:depth=5 and alphabeta:depth=5)",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="first N positions of each set")
    parser.add_argument("--sets", nargs="+", metavar="SET", help="e.g. Begin-Hard or L1_R3")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of Pons' files")
    parser.add_argument("--cache", type=Path, default=CACHE, help="solver outcome cache (JSON)")
    parser.add_argument("--seed", type=int, default=0, help="agents' seed (default 0)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the rates as JSON")
    parser.add_argument(
        "--show-mistakes", action="store_true", help="list the positions each agent got wrong"
    )
    parser.add_argument(
        "--unseen",
        nargs="+",
        type=Path,
        metavar="CHUNK",
        help="score only the positions none of these expert chunks (DIR/expert/train-KKKK.npz "
        "of an alphago run) holds, mirror images included: the positions the network never "
        "trained on",
    )
    parser.add_argument(
        "--precompute",
        action="store_true",
        help="only fill the cache with the outcome of EVERY legal move of the chosen positions "
        "(then any agent is judged without solving); resumable, saved every 10 positions",
    )
    parser.add_argument(
        "--curve",
        type=Path,
        metavar="DIR",
        help="the learning curve of an alphago run: the network alone (policy agent) of every "
        "SL epoch's checkpoint DIR/sl-epoch-KK.ckpt, with the CPU hours spent up to it",
    )
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        sys.exit("connect4_mistakes: --limit must be >= 1")
    if args.precompute:
        return _precompute(args)
    if args.curve is not None:
        return _curve(args)
    specs = args.agent or ["azjl-minimax:depth=5", "alphabeta:depth=5"]
    try:
        trained = _trained_keys(args.unseen or [])
    except SearchlabError as error:
        sys.exit(f"connect4_mistakes: {error}")
    game = Connect4()
    agents = [make_agent(spec, game, seed=args.seed) for spec in specs]
    cache = OutcomeCache(args.cache)
    judge = MistakeJudge(cache)
    sets = _sets(args.sets)
    from searchlab.algorithms.adversarial.connect4_solver import warm_up

    warm_up()
    _minimax_root(0, 0, 1, ALIGNMENTS, GAMMA_POWERS)  # compile before timing
    print(f"positions: the first {args.limit or 'all'} of each file in {args.data}")
    if args.unseen:
        print(f"only those none of {len(args.unseen)} expert chunks holds (mirrors included)")
    print(f"outcome cache: {args.cache} ({len(cache)} positions before this run)")
    print()
    header = (
        f"{'agent':<28} {'set':<14} {'n':>4} {'mistakes':>8} {'rate %':>7} {'95% CI':>13} "
        f"{'AZ.jl minimax d5':>16} {'AZ.jl AlphaZero':>15} {'ms/move':>8} {'solves':>6}"
    )
    print(header)
    print("-" * len(header))
    rows = []
    for agent in agents:
        for file, set_name in sets:
            entries = read_pons_file(args.data / file, args.limit)
            entries = [e for e in entries if not position_keys(e.moves) & trained]
            solves_before, seconds_before = judge.solves, judge.solver_seconds

            report = mistake_rate(chooser(agent), entries, judge, set_name=set_name)
            cache.save()
            low, high = report.interval()
            key = published_key(set_name)
            print(
                f"{agent.name:<28} {set_name:<14} {report.positions:>4} {report.mistakes:>8} "
                f"{100 * report.rate:>7.1f} {f'{100 * low:.1f}-{100 * high:.1f}':>13} "
                f"{AZJL_MINIMAX[key]:>16.1f} {AZJL_ALPHAZERO[key]:>15} "
                f"{1000 * report.agent_seconds / max(report.positions, 1):>8.1f} "
                f"{judge.solves - solves_before:>6}",
                flush=True,
            )
            if report.disagreements:
                print(f"  !! {report.disagreements} moves judged better than the file's best")
            if args.show_mistakes and report.mistaken:
                print("  mistakes: " + " ".join(report.mistaken))
            rows.append(
                {
                    "agent": agent.name,
                    "set": set_name,
                    "file": file,
                    "positions": report.positions,
                    "mistakes": report.mistakes,
                    "rate": report.rate,
                    "ci95": [low, high],
                    "disagreements": report.disagreements,
                    "agent_seconds": report.agent_seconds,
                    "solver_solves": judge.solves - solves_before,
                    "solver_seconds": judge.solver_seconds - seconds_before,
                    "published_minimax_d5": AZJL_MINIMAX[key],
                }
            )
    print()
    print(
        f"solver: {judge.solves} positions solved in {judge.solver_seconds:.1f} s; "
        f"cache now {len(cache)} positions"
    )
    print(
        "published: AlphaZero.jl (docs, as quoted in issue 9): minimax depth 5 and AlphaZero "
        "after 15 iterations; its Easy figure covers the three Easy sets"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"wall time {time.perf_counter() - started:.1f} s")
    sys.exit(status)
