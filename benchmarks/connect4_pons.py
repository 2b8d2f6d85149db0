"""Pascal Pons' six Connect Four test sets through the compiled exact solver: per file, the
positions solved, mismatches against the expected scores, mean nodes and mean time per
position, nodes per second, next to Pons' own C++ solver (no opening book) for scale.

    python benchmarks/connect4_pons.py                    # all six files, every line
    python benchmarks/connect4_pons.py --quick            # 50 lines per file, 60 s cap each
    python benchmarks/connect4_pons.py --limit 100 --max-seconds 120 --files L1_R2 L1_R3

A file stops early at ``--limit`` lines or after ``--max-seconds`` (the line being solved
finishes): the table says how far it got. Times are wall-clock per solve (the kernels are
compiled before timing); ``cpu`` is the process time of the whole file, which is steadier on a
shared machine. Node counts do not depend on the machine or on earlier positions (the table is
cleared before each one).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, warm_up
from searchlab.domains.games.connect4 import parse_moves

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "connect4_pons"
FILES = [
    ("Test_L3_R1", "End-Easy"),
    ("Test_L2_R1", "Middle-Easy"),
    ("Test_L2_R2", "Middle-Medium"),
    ("Test_L1_R1", "Begin-Easy"),
    ("Test_L1_R2", "Begin-Medium"),
    ("Test_L1_R3", "Begin-Hard"),
]
# Pons' C++ solver without a book, as quoted in the issue: (mean nodes, mean seconds or None)
PONS = {
    "Test_L3_R1": ("~50", None),
    "Test_L2_R1": ("~450", None),
    "Test_L2_R2": ("~40 k", "7 ms"),
    "Test_L1_R1": ("~3 k", None),
    "Test_L1_R2": ("~1.2 M", "0.2 s"),
    "Test_L1_R3": ("?", "seconds"),
}


def run_file(
    solver: Connect4Solver, path: Path, limit: int | None, max_seconds: float | None
) -> dict[str, float]:
    lines = [line.split() for line in path.read_text().split("\n") if line.strip()]
    total = len(lines)
    if limit is not None:
        lines = lines[:limit]
    solved = mismatches = nodes = 0
    elapsed = slowest = 0.0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    for moves, expected in lines:
        result = solver.solve(parse_moves(moves), find_move=False)
        solved += 1
        mismatches += result.score != int(expected)
        nodes += result.nodes
        elapsed += result.elapsed
        slowest = max(slowest, result.elapsed)
        if max_seconds is not None and time.perf_counter() - wall_start > max_seconds:
            break
    return {
        "solved": solved,
        "total": total,
        "mismatches": mismatches,
        "mean_nodes": nodes / solved if solved else 0.0,
        "mean_ms": elapsed * 1000 / solved if solved else 0.0,
        "max_ms": slowest * 1000,
        "cpu_ms": (time.process_time() - cpu_start) * 1000 / solved if solved else 0.0,
        "rate": nodes / elapsed if elapsed > 0 else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the six files")
    parser.add_argument(
        "--files", nargs="*", help="subset, e.g. L3_R1 L2_R1 (default: all six, easy first)"
    )
    parser.add_argument("--limit", type=int, help="at most N lines per file")
    parser.add_argument("--max-seconds", type=float, help="stop a file after S seconds")
    parser.add_argument("--quick", action="store_true", help="--limit 50 --max-seconds 60")
    parser.add_argument("--table-log2", type=int, default=23, help="2**N table slots")
    args = parser.parse_args(argv)
    if args.quick:
        args.limit = args.limit or 50
        args.max_seconds = args.max_seconds or 60.0
    chosen = FILES
    if args.files:
        wanted = {name if name.startswith("Test_") else f"Test_{name}" for name in args.files}
        chosen = [(name, label) for name, label in FILES if name in wanted]
    warm_up()
    solver = Connect4Solver(table_log2=args.table_log2)
    header = (
        f"{'file':<11} {'set':<14} {'solved':>9} {'wrong':>5} {'mean nodes':>12} "
        f"{'mean time':>11} {'cpu/pos':>10} {'max time':>10} {'Mnodes/s':>8}  Pons (nodes, time)"
    )
    print(header)
    print("-" * len(header))
    failed = False
    for name, label in chosen:
        row = run_file(solver, args.data / name, args.limit, args.max_seconds)
        failed |= row["mismatches"] > 0
        pons_nodes, pons_time = PONS[name]
        print(
            f"{name:<11} {label:<14} {row['solved']:>4}/{row['total']:<4} {row['mismatches']:>5} "
            f"{row['mean_nodes']:>12,.0f} {row['mean_ms']:>9.3f}ms {row['cpu_ms']:>8.3f}ms "
            f"{row['max_ms']:>8.1f}ms {row['rate'] / 1e6:>8.2f}  {pons_nodes}, {pons_time or '-'}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
