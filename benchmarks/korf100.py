"""Korf's 15-puzzle instances solved by the compiled IDA* (Manhattan + linear conflicts).

Reads ../shared/data/sliding_tile/korf100_15puzzle.tsv (instances 1-50, goal blank-first),
solves the chosen instances and prints per instance: id, optimal length (from the file),
length found, nodes expanded and generated, seconds, and millions of expansions per second;
then a total. Exits 1 if any length found differs from the optimal one.

    .venv/bin/python benchmarks/korf100.py --quick            # 6 easy instances, ~1 s
    .venv/bin/python benchmarks/korf100.py --ids 1-10,17 --max-seconds 60
    .venv/bin/python benchmarks/korf100.py --max-seconds 120  # all 50
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from searchlab.algorithms.path.tile_idastar import compiled_tile_idastar
from searchlab.core.limits import Limits
from searchlab.domains.path.sliding_tile import HEURISTICS, SlidingTilePuzzle

DEFAULT_FILE = (
    Path(__file__).resolve().parents[1].parent / "shared/data/sliding_tile/korf100_15puzzle.tsv"
)
QUICK_IDS = (16, 42, 12, 9, 13, 19)  # the easiest in the file: 42, 42, 45, 46, 46, 46 moves


def parse_ids(text: str) -> list[int]:
    """``"1-5,17,42"`` -> [1, 2, 3, 4, 5, 17, 42]."""
    ids: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        try:
            ids += list(range(int(first), int(last or first) + 1))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected ids like 1-5,17 got {text!r}") from None
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the instance file")
    parser.add_argument("--ids", type=parse_ids, help="instances to run, e.g. 1-10,17")
    parser.add_argument("--quick", action="store_true", help=f"only ids {QUICK_IDS}")
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="time limit per instance (default none)"
    )
    parser.add_argument("--heuristic", default="linear_conflict", choices=HEURISTICS)
    args = parser.parse_args(argv)

    with args.file.open(encoding="utf-8") as handle:
        rows = {int(row["id"]): row for row in csv.DictReader(handle, delimiter="\t")}
    ids = list(QUICK_IDS) if args.quick else (args.ids or sorted(rows))
    missing = [i for i in ids if i not in rows]
    if missing:
        parser.error(f"ids not in {args.file}: {missing}")
    limits = Limits(time=args.max_seconds) if args.max_seconds else None

    # Load (or compile) the kernel once, outside every measurement.
    compiled_tile_idastar(SlidingTilePuzzle((1, 0, 2, 3)))
    header = f"{'id':>4} {'optimal':>7} {'found':>6} {'expanded':>14} {'generated':>14}"
    print(f"{header} {'seconds':>9} {'Mexp/s':>7} {'Mgen/s':>7}", flush=True)
    total_expanded = total_generated = solved = wrong = 0
    total_seconds = 0.0
    started = time.perf_counter()
    for instance in ids:
        row = rows[instance]
        puzzle = SlidingTilePuzzle(row["tiles"], goal="blank-first", heuristic=args.heuristic)
        result = compiled_tile_idastar(puzzle, limits=limits)
        optimal = int(row["optimal_length"])
        found = "-" if result.length is None else str(result.length)
        if result.is_solved:
            solved += 1
            wrong += result.length != optimal
        total_expanded += result.expanded
        total_generated += result.generated
        total_seconds += result.elapsed
        rate = result.expanded / result.elapsed / 1e6 if result.elapsed else 0.0
        grate = result.generated / result.elapsed / 1e6 if result.elapsed else 0.0
        flag = "" if found in ("-", str(optimal)) else "  WRONG"
        print(
            f"{instance:>4} {optimal:>7} {found:>6} {result.expanded:>14,} "
            f"{result.generated:>14,} {result.elapsed:>9.2f} {rate:>7.1f} {grate:>7.1f}{flag}",
            flush=True,
        )
    rate = total_expanded / total_seconds / 1e6 if total_seconds else 0.0
    grate = total_generated / total_seconds / 1e6 if total_seconds else 0.0
    print(
        f"{'all':>4} {'':>7} {f'{solved}/{len(ids)}':>6} {total_expanded:>14,} "
        f"{total_generated:>14,} {total_seconds:>9.2f} {rate:>7.1f} {grate:>7.1f}"
    )
    cap = f", {args.max_seconds:g} s cap per instance" if args.max_seconds else ""
    print(
        f"solved {solved} of {len(ids)} optimally ({wrong} wrong){cap}; "
        f"wall {time.perf_counter() - started:.1f} s; heuristic {args.heuristic}"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
