"""Grid path finding side by side: searchlab against networkx, python-pathfinding and pyastar2d.

The same queries (a seeded sample of Moving AI scenarios per map) run through:

8-connected, no corner cutting, diagonal sqrt(2) (the benchmark's movement model):
* searchlab compiled A* (``astar`` on a ``GridProblem``) and compiled JPS;
* networkx ``astar_path`` with the octile heuristic, on the same graph built beforehand (graph
  building is not timed);
* python-pathfinding ``AStarFinder`` with ``DiagonalMovement.only_when_no_obstacle`` (its rule
  for "diagonal only when both orthogonal cells are free", i.e. no corner cutting) and the
  octile heuristic; ``grid.cleanup()`` between queries is not timed.

4-connected (cardinal moves only):
* searchlab compiled A* with ``connectivity=4`` and pyastar2d (C++). pyastar2d's diagonal moves
  cut corners, so it cannot run the 8-connected model; on 4-connectivity both solve the same
  problem, and the costs are checked to agree.

Every peer's cost is checked against searchlab's (and, for 8-connectivity, the scenario's
optimal length). Timings are wall-clock seconds per query (the best of ``--repeat`` runs), summed
per map; the table prints the ratio peer time / searchlab time (higher = searchlab faster).

Usage: python benchmarks/grid_peers.py [--quick] [--per-map N] [--repeat R] [--seed S]
"""

from __future__ import annotations

import argparse
import csv
import math
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from searchlab.algorithms.path.best_first import astar
from searchlab.algorithms.path.grid_astar import grid_searcher
from searchlab.algorithms.path.jps import jump_point_search
from searchlab.domains.path.grid import GridMap, GridProblem, octile_distance
from searchlab.domains.path.movingai import Scenario, load_map, load_scenarios

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "grid_movingai"
QUICK_MAPS = ("dao/arena", "dao/den312d", "da2/ca_cave", "cities/Berlin_0_256", "sc1/Aftershock")
TOLERANCE = 0.01
KEYS = ("sl8", "raw8", "jps", "nx", "sl8_pf", "pf", "sl4", "raw4", "py2d")


def best_time(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, value = math.inf, None
    for _ in range(repeat):
        began = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - began)
    return best, value


def octile_graph(grid: GridMap, connectivity: int = 8):  # type: ignore[no-untyped-def]
    import networkx as nx

    graph = nx.Graph()
    passable = grid.passable
    height, width = passable.shape
    ys, xs = np.nonzero(passable)
    graph.add_nodes_from(zip(xs.tolist(), ys.tolist(), strict=True))
    steps = ((1, 0), (0, 1)) if connectivity == 4 else ((1, 0), (0, 1), (1, 1), (-1, 1))
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        for dx, dy in steps:
            nx_, ny = x + dx, y + dy
            if not (0 <= nx_ < width and 0 <= ny < height and passable[ny, nx_]):
                continue
            if dx and dy and not (passable[y, nx_] and passable[ny, x]):
                continue
            graph.add_edge((x, y), (nx_, ny), weight=math.sqrt(2.0) if dx and dy else 1.0)
    return graph


def sample(scenarios: list[Scenario], size: int, seed: int) -> list[Scenario]:
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(scenarios), size=min(size, len(scenarios)), replace=False)
    return [scenarios[int(i)] for i in sorted(picks)]


def run_map(name: str, queries: list[Scenario], grid: GridMap, args: argparse.Namespace) -> dict:
    import networkx as nx
    import pyastar2d
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid
    from pathfinding.core.heuristic import octile
    from pathfinding.finder.a_star import AStarFinder

    times = {key: 0.0 for key in KEYS}
    searcher, searcher4 = grid_searcher(grid), grid_searcher(grid, 4)
    problems = {"mismatch": 0}
    graph = octile_graph(grid)
    pf_grid = Grid(matrix=grid.passable.astype(int).tolist())
    pf_finder = AStarFinder(
        heuristic=octile,
        diagonal_movement=DiagonalMovement.only_when_no_obstacle,
        time_limit=math.inf,
        max_runs=math.inf,
    )
    weights = np.where(grid.passable, 1.0, np.inf).astype(np.float32)
    for index, q in enumerate(queries):
        problem = GridProblem(grid, q.start, q.goal)
        problem4 = GridProblem(grid, q.start, q.goal, connectivity=4)
        astar(problem)  # warm the per-map arrays and kernels
        t_ours, ours = best_time(lambda p=problem: astar(p), args.repeat)
        times["sl8"] += t_ours
        t, _ = best_time(lambda q=q: searcher.search(q.start, q.goal), args.repeat)
        times["raw8"] += t
        t, jps = best_time(lambda p=problem: jump_point_search(p), args.repeat)
        times["jps"] += t

        t, nx_path = best_time(
            lambda q=q: nx.astar_path(graph, q.start, q.goal, heuristic=octile_distance),
            1,
        )
        times["nx"] += t
        costs = {
            "astar": ours.cost,
            "jps": jps.cost,
            "networkx": problem.path_cost(nx_path),
        }
        if index < args.pathfinding_per_map:
            pf_grid.cleanup()
            start, end = pf_grid.node(*q.start), pf_grid.node(*q.goal)
            began = time.perf_counter()
            pf_path, _ = pf_finder.find_path(start, end, pf_grid)
            times["pf"] += time.perf_counter() - began
            times["sl8_pf"] += t_ours
            costs["pathfinding"] = problem.path_cost([(node.x, node.y) for node in pf_path])
        for label, cost in costs.items():
            if abs(cost - q.optimal_length) > TOLERANCE:
                problems["mismatch"] += 1
                print(
                    f"  {name}: {label} cost {cost} vs optimal {q.optimal_length}", file=sys.stderr
                )
        # 4-connectivity: searchlab vs pyastar2d (same model there)
        astar(problem4)
        t, ours4 = best_time(lambda p=problem4: astar(p), args.repeat)
        times["sl4"] += t
        t, _ = best_time(lambda q=q: searcher4.search(q.start, q.goal), args.repeat)
        times["raw4"] += t
        start_rc, goal_rc = (q.start[1], q.start[0]), (q.goal[1], q.goal[0])
        t, py_path = best_time(
            lambda s=start_rc, g=goal_rc: pyastar2d.astar_path(weights, s, g, allow_diagonal=False),
            args.repeat,
        )
        times["py2d"] += t
        py_cost = float(len(py_path) - 1)
        if abs(py_cost - ours4.cost) > 1e-9:
            problems["mismatch"] += 1
            print(f"  {name}: pyastar2d cost {py_cost} vs {ours4.cost}", file=sys.stderr)
    return {"times": times, **problems}


def table_row(name: str, t: dict[str, float], bad: int) -> str:
    return (
        f"{name:22s} {t['sl8'] * 1e3:7.1f} {t['raw8'] * 1e3:7.1f} {t['jps'] * 1e3:7.1f} "
        f"{t['sl8'] / t['jps']:6.1f} {t['nx'] / t['sl8']:5.0f} {t['nx'] / t['raw8']:6.0f} "
        f"{t['pf'] / t['sl8_pf']:5.0f} {t['sl4'] * 1e3:7.1f} {t['raw4'] * 1e3:7.1f} "
        f"{t['py2d'] / t['sl4']:6.2f} {t['py2d'] / t['raw4']:6.2f} {bad:4d}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 maps, 5 queries each")
    parser.add_argument("--per-map", type=int, default=20, help="queries per map (20)")
    parser.add_argument("--pathfinding-per-map", type=int, default=3, help="(slow) peer: 3")
    parser.add_argument("--repeat", type=int, default=3, help="best of R runs (3)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    with open(DATA / "MANIFEST.tsv", newline="") as handle:
        names = [
            row["map_file"].removeprefix("maps/").removesuffix(".map")
            for row in csv.DictReader(handle, delimiter="\t")
        ]
    if args.quick:
        names = [name for name in names if name in QUICK_MAPS]
        args.per_map = min(args.per_map, 5)
        args.pathfinding_per_map = min(args.pathfinding_per_map, 2)
    print(
        f"# grid peers, {time.strftime('%Y-%m-%d')}, {platform.processor() or platform.machine()}"
    )
    print(f"# {args.per_map} queries per map (seed {args.seed}), best of {args.repeat};")
    print("# 'A*': the public astar() on a GridProblem (validation, dispatch, result);")
    print("# 'raw': the cached searcher, grid_searcher(grid).search(start, goal) (same kernel);")
    print("# 'x' columns: peer time / searchlab time on the same queries (higher = we are faster)")
    header = (
        f"{'map':22s} {'A* ms':>7s} {'raw ms':>7s} {'JPS ms':>7s} {'JPS x':>6s} {'nx x':>5s} "
        f"{'nx/raw':>6s} {'pf x':>5s} {'A*4 ms':>7s} {'raw4 ms':>7s} {'py2d x':>6s} "
        f"{'/raw4':>6s} {'bad':>4s}"
    )
    print(header)
    total = {key: 0.0 for key in KEYS}
    mismatches = 0
    for seed, name in enumerate(names):
        grid = load_map(DATA / "maps" / f"{name}.map")
        scenarios = load_scenarios(DATA / "scenarios" / f"{name}.map.scen")
        queries = sample(scenarios, args.per_map, args.seed + seed)
        result = run_map(name, queries, grid, args)
        t = result["times"]
        for key in total:
            total[key] += t[key]
        mismatches += result["mismatch"]
        print(table_row(name, t, result["mismatch"]), flush=True)
    print(table_row("all", total, mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
