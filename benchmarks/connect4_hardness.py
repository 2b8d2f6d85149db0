"""How many positions of Pons' sets the expert labeller settles within a solver budget.

The AlphaGo pipeline labels a position with every column's exact outcome and skips it when a
column is not settled within ``node_budget`` nodes (``move_outcomes``). This script applies the
same rule to Pons' test sets, to show which kind of position a budget leaves out of the
training data: at a million nodes a move it keeps almost every Begin-Medium position and skips
almost every Begin-Hard one. Each position is solved with a fresh table (a labelling worker's
table is warm from its earlier positions, so it settles a few more). No agent runs.

    .venv/bin/python benchmarks/connect4_hardness.py --sets Begin-Hard Begin-Medium \\
        --limit 100 --budgets 1000000 20000000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.learning.alphago.data import move_outcomes
from searchlab.learning.alphazero.mistakes import PONS_SETS, read_pons_file

_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4_pons"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=["Begin-Hard"], help="e.g. Begin-Hard")
    parser.add_argument("--limit", type=int, default=100, help="first N positions of each set")
    parser.add_argument(
        "--budgets", nargs="+", type=int, default=[1_000_000], help="solver nodes a move"
    )
    parser.add_argument("--data", default=str(_DATA), help="folder of Pons' files")
    args = parser.parse_args(argv)
    names = {name: file for file, name in PONS_SETS}
    try:
        if args.limit < 1:
            raise InvalidParameterError(f"--limit must be at least 1, not {args.limit}")
        bad = [b for b in args.budgets if b < 1]
        if bad:
            raise InvalidParameterError(f"a budget must be at least 1 node, not {bad[0]}")
        unknown = [s for s in args.sets if s not in names]
        if unknown:
            raise InvalidParameterError(f"unknown set {unknown[0]!r}; known: {', '.join(names)}")
        sets = {s: read_pons_file(Path(args.data) / names[s], args.limit) for s in args.sets}
    except SearchlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{'set':<15} {'budget':>12} {'n':>5} {'settled':>8} {'skipped':>8} {'CPU s':>8}")
    try:
        for name, entries in sets.items():
            for budget in args.budgets:
                started = time.process_time()
                settled = sum(
                    move_outcomes(e.state(), Connect4Solver(table_log2=20), node_budget=budget)
                    is not None
                    for e in entries
                )
                seconds = time.process_time() - started
                print(
                    f"{name:<15} {budget:>12} {len(entries):>5} {settled:>8} "
                    f"{len(entries) - settled:>8} {seconds:>8.1f}",
                    flush=True,
                )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
