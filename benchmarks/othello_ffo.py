"""FFO endgame positions solved exactly by the compiled Othello endgame solver.

Reads ../shared/data/othello_ffo/ffo_endgame.tsv (the odd FFO positions #1-#79, 14-36
empties, with the exact score of every move), solves them in order of empties, each with a
fresh table, and prints per position: FFO id, empties, score found, expected score, best move
found (``ok`` when the score is exact and the move one of the best), nodes (the ordering
searches' included), seconds and millions of nodes per second; then a total. Exits 1 if any
score or best move disagrees with the file.

Each position is capped by ``--cap SECONDS`` (a time limit: the solver runs in chunks of
nodes and reads the clock between them); a capped position is reported as ``stopped`` with
the bounds it proved, and the run ends after ``--stop-after`` stopped positions in a row.
The machine is shared: run it niced, and one position at a time while tuning (``--only``).

    nice -n 10 .venv/bin/python benchmarks/othello_ffo.py --cap 120      # as far as it gets
    nice -n 10 .venv/bin/python benchmarks/othello_ffo.py --max-empties 16  # #1-#21, ~1 s
    nice -n 10 .venv/bin/python benchmarks/othello_ffo.py --only 45,49   # these positions
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver
from searchlab.core.limits import Limits
from searchlab.domains.games.othello import Othello, parse_square, square_name

DEFAULT_FILE = (
    Path(__file__).resolve().parents[1].parent / "shared/data/othello_ffo/ffo_endgame.tsv"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the FFO table")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per position")
    parser.add_argument("--max-empties", type=int, default=64, help="skip deeper positions")
    parser.add_argument("--only", default="", help="comma-separated FFO ids to solve")
    parser.add_argument("--stop-after", type=int, default=2, help="stop after N capped in a row")
    parser.add_argument("--table-bits", type=int, default=22, help="log2 table entries")
    args = parser.parse_args(argv)

    with args.file.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if args.only:
        wanted = {int(ffo_id) for ffo_id in args.only.split(",")}
        rows = [row for row in rows if int(row["ffo_id"]) in wanted]
    rows.sort(key=lambda row: (int(row["empties"]), int(row["ffo_id"])))
    game = Othello()
    # compile or load the kernels outside the timings, on a table of its own
    warm_up = game.state_from_board(rows[0]["board"], rows[0]["side_to_move"])
    EndgameSolver(table_bits=10).solve(warm_up)

    header = f"{'ffo':>4} {'empties':>7} {'score':>9} {'expect':>6} {'move':>4} {'check':>7} "
    print(header + f"{'nodes':>14} {'seconds':>9} {'Mn/s':>6}")
    total_nodes, total_seconds, solved, failures, capped_in_a_row = 0, 0.0, 0, 0, 0
    stopped = []
    for row in rows:
        empties = int(row["empties"])
        if empties > args.max_empties or capped_in_a_row >= args.stop_after:
            break
        state = game.state_from_board(row["board"], row["side_to_move"])
        solver = EndgameSolver(table_bits=args.table_bits)
        result = solver.solve(state, limits=Limits(time=args.cap))
        expected = int(row["best_score"])
        best = {parse_square(move) for move in row["best_moves"].split(",")}
        if result.stopped_by:
            lower, upper = result.stats["bounds"]
            check, score, capped_in_a_row = "stopped", f"{lower}..{upper}", capped_in_a_row + 1
            stopped.append(f"#{row['ffo_id']}")
        else:
            ok = result.value == expected and result.action in best
            check, score, capped_in_a_row = ("ok" if ok else "WRONG"), f"{result.value:+.0f}", 0
            failures += not ok
            solved += 1
            total_nodes += result.nodes
            total_seconds += result.elapsed
        move = square_name(result.action) if result.action is not None else "-"
        print(
            f"{row['ffo_id']:>4} {empties:>7} {score:>9} {expected:>+6} {move:>4} {check:>7} "
            f"{result.nodes:>14,} {result.elapsed:>9.3f} {result.nodes_per_second / 1e6:>6.2f}",
            flush=True,
        )
    rate = total_nodes / total_seconds / 1e6 if total_seconds else 0.0
    print(
        f"solved {solved} ({failures} wrong): {total_nodes:,} nodes in {total_seconds:.2f} s "
        f"({rate:.2f} M nodes/s); stopped at the {args.cap:g} s cap: {', '.join(stopped) or '-'}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
