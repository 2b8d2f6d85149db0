"""Every Moving AI scenario of ../shared/data/grid_movingai, solved by compiled A* and JPS.

Per map: the number of problems, cost mismatches against the scenario's optimal length
(tolerance 0.01) for each algorithm, mean expansions, expansions per second (search time
only, as measured inside each search), total wall time, and the JPS speedup (A* time / JPS
time). The compiled kernels are loaded (or compiled) before the clock starts.

Usage: python benchmarks/movingai_all.py [--quick] [--maps NAME ...]
    --quick: every 10th problem of each map.
Exit code 1 if any cost mismatches.
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
import time
from pathlib import Path

from searchlab.algorithms.path.grid_astar import grid_searcher
from searchlab.algorithms.path.jps import jump_point_searcher
from searchlab.domains.path.grid import GridMap
from searchlab.domains.path.movingai import check_scenarios, load_map, load_scenarios

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "grid_movingai"
TOLERANCE = 0.01


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every 10th problem")
    parser.add_argument("--maps", nargs="*", help="only maps whose name contains one of these")
    args = parser.parse_args(argv)
    with open(DATA / "MANIFEST.tsv", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if args.maps:
        rows = [row for row in rows if any(part in row["map_file"] for part in args.maps)]
    warm = GridMap.from_strings(["..", ".."])
    grid_searcher(warm).search((0, 0), (1, 1))
    jump_point_searcher(warm).search((0, 0), (1, 1))

    print(f"# Moving AI, all scenarios{' (every 10th: --quick)' if args.quick else ''}")
    stamp = time.strftime("%Y-%m-%d %H:%M")
    print(f"# {stamp}, {platform.machine()}, python {platform.python_version()}")
    print(
        f"{'map':24s} {'n':>6s} {'A* bad':>6s} {'JPS bad':>7s} {'A* mean exp':>11s} "
        f"{'A* Mexp/s':>9s} {'A* s':>7s} {'JPS mean exp':>12s} {'JPS s':>7s} {'JPS x':>6s}"
    )
    totals = {"n": 0, "bad_a": 0, "bad_j": 0, "exp_a": 0, "search_a": 0.0, "wall_a": 0.0,
              "exp_j": 0, "wall_j": 0.0}  # fmt: skip
    for row in rows:
        grid = load_map(DATA / row["map_file"])
        scenarios = load_scenarios(DATA / row["scen_file"])
        check_scenarios(grid, scenarios)
        if args.quick:
            scenarios = scenarios[::10]
        astar, jps = grid_searcher(grid), jump_point_searcher(grid)
        bad_a = bad_j = exp_a = exp_j = 0
        search_a = 0.0
        began = time.perf_counter()
        for scenario in scenarios:
            result = astar.search(scenario.start, scenario.goal)
            exp_a += result.expanded
            search_a += result.elapsed
            bad_a += abs(result.cost - scenario.optimal_length) > TOLERANCE
        wall_a = time.perf_counter() - began
        began = time.perf_counter()
        for scenario in scenarios:
            result = jps.search(scenario.start, scenario.goal)
            exp_j += result.expanded
            bad_j += abs(result.cost - scenario.optimal_length) > TOLERANCE
        wall_j = time.perf_counter() - began
        n = len(scenarios)
        name = row["map_file"].removeprefix("maps/").removesuffix(".map")
        print(
            f"{name:24s} {n:6d} {bad_a:6d} {bad_j:7d} {exp_a / n:11.0f} "
            f"{exp_a / search_a / 1e6:9.2f} {wall_a:7.2f} {exp_j / n:12.0f} {wall_j:7.2f} "
            f"{wall_a / wall_j:6.1f}",
            flush=True,
        )
        for key, value in (("n", n), ("bad_a", bad_a), ("bad_j", bad_j), ("exp_a", exp_a),
                           ("search_a", search_a), ("wall_a", wall_a), ("exp_j", exp_j),
                           ("wall_j", wall_j)):  # fmt: skip
            totals[key] += value
    t = totals
    print(
        f"{'all':24s} {t['n']:6d} {t['bad_a']:6d} {t['bad_j']:7d} {t['exp_a'] / t['n']:11.0f} "
        f"{t['exp_a'] / t['search_a'] / 1e6:9.2f} {t['wall_a']:7.2f} {t['exp_j'] / t['n']:12.0f} "
        f"{t['wall_j']:7.2f} {t['wall_a'] / t['wall_j']:6.1f}"
    )
    return 1 if t["bad_a"] or t["bad_j"] else 0


if __name__ == "__main__":
    sys.exit(main())
