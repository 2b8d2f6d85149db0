"""Pons' six Connect Four sets: searchlab's exact solver on 1 and 2 threads (no book) beside
Pons' C++ solver (strong, without its book), in one run. Per set: positions, wrong scores
(checked against the file), mean nodes, mean wall time, and the ratios.

    python benchmarks/connect4_threads.py --limit 40 [--pons /work/peers/pons/c4solver]

Build Pons' solver from its public source: fetch github:PascalPons/connect4 into a folder
and run ``make`` there (the binary is ``c4solver``). It is given ``-b /nonexistent`` so it
loads no opening book, and reads the positions on stdin in one process (its time includes
its start, a few ms).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, warm_up
from searchlab.domains.games.connect4 import parse_moves

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "connect4_pons"
FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]


def run_searchlab(lines: list[list[str]], threads: int) -> tuple[int, float, float]:
    solver = Connect4Solver(threads=threads, book=None)
    wrong = nodes = 0
    start = time.perf_counter()
    for moves, expected in lines:
        result = solver.solve(parse_moves(moves), find_move=False)
        wrong += result.score != int(expected)
        nodes += result.nodes
    elapsed = time.perf_counter() - start
    return wrong, nodes / len(lines), elapsed / len(lines)


def run_pons(binary: Path, lines: list[list[str]]) -> tuple[int, float]:
    start = time.perf_counter()
    text = "".join(moves + "\n" for moves, _ in lines)
    out = subprocess.run(
        [str(binary), "-b", "/nonexistent"], input=text, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    elapsed = time.perf_counter() - start
    wrong = sum(got.split()[-1] != expected for got, (_, expected) in zip(out, lines, strict=False))
    return wrong, elapsed / len(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=40, help="positions per set")
    parser.add_argument("--pons", type=Path, default=Path("/work/peers/pons/c4solver"))
    parser.add_argument("--files", nargs="*", default=FILES)
    args = parser.parse_args()
    warm_up()
    Connect4Solver(threads=2, book=None).solve("4455")
    print(
        f"{'set':<11} {'n':>4} | {'t1 wrong':>8} {'t1 nodes':>11} {'t1 ms':>9} | "
        f"{'t2 wrong':>8} {'t2 nodes':>11} {'t2 ms':>9} {'t1/t2':>6} | "
        f"{'Pons wrong':>10} {'Pons ms':>9} {'Pons/t1':>8}"
    )
    failed = False
    for name in args.files:
        lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
        lines = lines[: args.limit]
        w1, n1, s1 = run_searchlab(lines, 1)
        w2, n2, s2 = run_searchlab(lines, 2)
        pw, ps = run_pons(args.pons, lines) if args.pons.exists() else (-1, float("nan"))
        failed |= bool(w1 or w2 or pw > 0)
        print(
            f"{name:<11} {len(lines):>4} | {w1:>8} {n1:>11,.0f} {s1 * 1e3:>9.3f} | "
            f"{w2:>8} {n2:>11,.0f} {s2 * 1e3:>9.3f} {s1 / s2:>6.2f} | "
            f"{pw:>10} {ps * 1e3:>9.3f} {ps / s1:>8.2f}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
