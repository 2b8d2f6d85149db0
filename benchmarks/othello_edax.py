"""FFO endgames side by side: searchlab's exact Othello endgame solver and Edax, one position
at a time, in one run.

Per position (from ../shared/data/othello_ffo: the board, the exact score and the best moves):
searchlab's score, best move and check (``ok`` when the score is exact and the move one of the
file's best), nodes, seconds; Edax's score, nodes, seconds (its own count and clock, parsed
from its ``-solve`` table); and the ratio of the times (searchlab / Edax: below 1 is faster).
Then the totals: nodes, seconds, process time (the cores the run really had: the machine is
shared) and the nodes of the busiest thread, the work-span bound of a parallel run's time.
Exits 1 when a searchlab score or move disagrees with the file.

Edax is built from its public source in ``--edax-dir`` (an extracted github:abulmo/edax-reversi
tree; ``--build`` runs its makefile: ``make build ARCH=x86-64-v3 CC=gcc OS=linux`` in ``src``).
It needs its evaluation weights, ``data/eval.dat``, which come with its releases, not its
source: when the file is absent, Edax runs with a file of zero weights written here
(``zero-eval.dat``), and every line says so: its search is then Edax's own (move ordering by
mobility, parity, hash moves, shallow searches) without the learned evaluation that orders its
moves far better, so its node counts are not those of Edax as released. Edax runs exactly
(``-l 60``: no selective search), on ``--threads`` threads (``-n``), with a table of
``2**hash`` entries (``-h``); searchlab with the same threads and a table of ``2**hash``
entries (24 bytes each).

    python benchmarks/othello_edax.py --positions 41-47 --threads 2
    python benchmarks/othello_edax.py --positions 21-39 --threads 1,2 --no-edax  # speed-up
"""

from __future__ import annotations

import argparse
import csv
import re
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver, warm_up
from searchlab.core.limits import Limits
from searchlab.domains.games.othello import Othello, square_name

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "othello_ffo"
EDAX_DIR = Path("/work/peers/edax")
# Edax's evaluation file: 'EDAX', 'EVAL', version, release, build, date, then 61 plies of
# 114,364 packed 16-bit weights (src/eval.c, eval_open)
_EVAL_PLIES, _EVAL_WEIGHTS = 61, 114_364
_EDAX_ROW = re.compile(r"^\s*\d+\|\s*(\S+)\s+([+-]\d+)\s+([\d:.]+)\s+(\d+)\s+\d*\s*(\S+)?")


@dataclass(frozen=True, slots=True)
class Position:
    ffo_id: int
    empties: int
    board: str
    side: str
    score: int
    best_moves: frozenset[str]
    obf_line: str


@dataclass(frozen=True, slots=True)
class EdaxAnswer:
    score: int | None
    move: str
    nodes: int
    seconds: float
    note: str


def load_positions(wanted: set[int]) -> list[Position]:
    """The FFO positions ``wanted``, with their OBF lines (the files are in the same order)."""
    with (DATA / "ffo_endgame.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    lines = [line for line in (DATA / "ffo_endgame.obf").read_text().splitlines() if line]
    positions = []
    for row, line in zip(rows, lines, strict=True):
        if not line.startswith(row["board"]):
            raise SystemExit(f"ffo_endgame.obf and .tsv disagree at #{row['ffo_id']}")
        if int(row["ffo_id"]) in wanted:
            positions.append(
                Position(
                    int(row["ffo_id"]),
                    int(row["empties"]),
                    row["board"],
                    row["side_to_move"],
                    int(row["best_score"]),
                    frozenset(row["best_moves"].upper().split(",")),
                    line,
                )
            )
    return positions


def parse_ids(text: str) -> set[int]:
    """``"41-59"``, ``"21,23,25"`` or a mix: the FFO ids named."""
    ids: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        ids.update(range(int(low), int(high or low) + 1))
    return ids


def find_edax(edax_dir: Path, build: bool) -> Path:
    """Edax's binary in ``edax_dir/bin``, built first with ``build``."""
    if build:
        subprocess.run(
            ["make", "build", "ARCH=x86-64-v3", "CC=gcc", "OS=linux"],
            cwd=edax_dir / "src",
            check=True,
            capture_output=True,
        )
    binaries = sorted((edax_dir / "bin").glob("lEdax-*"))
    if not binaries:
        raise SystemExit(f"no Edax binary in {edax_dir}/bin: run with --build")
    return binaries[0]


def eval_file(edax_dir: Path) -> tuple[Path, str]:
    """Edax's ``data/eval.dat``, or a file of zero weights (and the label saying so)."""
    released = edax_dir / "data" / "eval.dat"
    if released.exists():
        return released, "Edax with its released eval.dat"
    zero = edax_dir / "zero-eval.dat"
    if not zero.exists():
        with zero.open("wb") as handle:
            handle.write(struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))
            handle.write(bytes(2 * _EVAL_PLIES * _EVAL_WEIGHTS))
    return zero, "Edax with ZERO evaluation weights (eval.dat is not in its source, not offline)"


def run_edax(
    binary: Path, weights: Path, position: Position, args: argparse.Namespace
) -> EdaxAnswer:
    """Edax ``-solve`` on the one position: its score, first move, nodes and time."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as handle:
        handle.write(position.obf_line + "\n")
    command = [str(binary), "-eval-file", str(weights), "-solve", handle.name, "-l", "60"]
    command += ["-n", str(args.edax_threads), "-h", str(args.hash), "-book-usage", "off"]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=args.cap, check=False
        )
    except subprocess.TimeoutExpired:
        return EdaxAnswer(None, "-", 0, args.cap, "stopped")
    finally:
        Path(handle.name).unlink()
    for line in done.stdout.splitlines():
        match = _EDAX_ROW.match(line)
        if match:
            clock = [float(part) for part in match.group(3).split(":")]
            seconds = sum(value * 60**power for power, value in enumerate(reversed(clock)))
            move = (match.group(5) or "-").upper()
            return EdaxAnswer(int(match.group(2)), move, int(match.group(4)), seconds, "")
    return EdaxAnswer(None, "-", 0, 0.0, "unparsed: " + (done.stdout + done.stderr)[-200:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", default="41-59", help="FFO ids: 41-59, 21,23, ...")
    parser.add_argument("--threads", default="1", help="searchlab's threads, e.g. 2 or 1,2")
    parser.add_argument(
        "--edax-threads", type=int, default=None, help="Edax -n (default: the last of --threads)"
    )
    parser.add_argument("--hash", type=int, default=22, help="log2 table entries, both")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds per position, each")
    parser.add_argument("--edax-dir", type=Path, default=EDAX_DIR, help="Edax's source tree")
    parser.add_argument("--build", action="store_true", help="build Edax first")
    parser.add_argument("--no-edax", action="store_true", help="searchlab alone")
    args = parser.parse_args(argv)
    thread_counts = [int(part) for part in args.threads.split(",")]
    args.edax_threads = args.edax_threads or thread_counts[-1]
    positions = load_positions(parse_ids(args.positions))
    if not positions:
        raise SystemExit(f"no FFO position among {args.positions} in {DATA}")

    edax = weights = None
    if not args.no_edax:
        edax = find_edax(args.edax_dir, args.build)
        weights, label = eval_file(args.edax_dir)
        print(f"# peer: {label}: {edax} -l 60 -n {args.edax_threads} -h {args.hash}")
    print(f"# searchlab: EndgameSolver(table_bits={args.hash}, threads=T), a fresh table each")
    for threads in thread_counts:
        warm_up(EndgameSolver(table_bits=12, threads=threads))

    game = Othello()
    header = f"{'ffo':>4} {'emp':>3} {'exp':>4} | " + " | ".join(
        f"searchlab T={t}".center(43) for t in thread_counts
    )
    if edax is not None:
        header += " | " + "Edax".center(31) + " | ratio"
    print(header)
    totals = {t: [0, 0.0, 0.0] for t in thread_counts}
    spans = dict.fromkeys(thread_counts, 0)  # the most nodes of one thread, summed
    edax_total = [0, 0.0]
    failures = stopped = 0
    for position in positions:
        state = game.state_from_board(position.board, position.side)
        cells = []
        for threads in thread_counts:
            solver = EndgameSolver(table_bits=args.hash, threads=threads)
            cpu = time.process_time()
            result = solver.solve(state, limits=Limits(time=args.cap))
            cpu = time.process_time() - cpu
            move = square_name(result.action).upper() if result.action is not None else "-"
            if result.stopped_by:
                lower, upper = result.stats["bounds"]
                check, score = "stopped", f"{lower}..{upper}"
                stopped += 1
            else:
                good = result.score == position.score and move in position.best_moves
                check, score = ("ok" if good else "WRONG"), f"{result.score:+d}"
                failures += not good
            totals[threads][0] += result.nodes
            totals[threads][1] += result.elapsed
            totals[threads][2] += cpu
            spans[threads] += max(result.stats.get("thread_nodes") or [result.nodes])
            cells.append(
                f"{score:>6} {move:>4} {check:>7} {result.nodes:>14,} {result.elapsed:>8.2f}"
            )
        line = f"{position.ffo_id:>4} {position.empties:>3} {position.score:>+4} | " + " | ".join(
            cells
        )
        if edax is not None and weights is not None:
            answer = run_edax(edax, weights, position, args)
            edax_total[0] += answer.nodes
            edax_total[1] += answer.seconds
            edax_score = "?" if answer.score is None else f"{answer.score:+d}"
            ratio = result.elapsed / answer.seconds if answer.seconds > 0 else float("nan")
            line += (
                f" | {edax_score:>4} {answer.move:>4} {answer.nodes:>12,} {answer.seconds:>8.2f}"
                f" | {ratio:5.2f} {answer.note}"
            )
        print(line, flush=True)
    for threads, (nodes, seconds, cpu) in totals.items():
        print(
            f"searchlab threads={threads}: {nodes:,} nodes in {seconds:.2f} s "
            f"(process time {cpu:.2f} s, {cpu / max(seconds, 1e-9):.2f} cores busy on average; "
            f"{nodes / max(seconds, 1e-9) / 1e6:.2f} M nodes/s); the busiest thread's nodes: "
            f"{spans[threads]:,}"
        )
    if len(thread_counts) > 1:
        first, last = totals[thread_counts[0]], totals[thread_counts[-1]]
        print(
            f"speed-up threads={thread_counts[-1]} over threads={thread_counts[0]}: "
            f"{first[1] / max(last[1], 1e-9):.2f}x the time, "
            f"{last[0] / max(first[0], 1):.2f}x the nodes; "
            f"{spans[thread_counts[0]] / max(spans[thread_counts[-1]], 1):.2f}x by the busiest "
            "thread's nodes (the speed-up with a free core for each thread)"
        )
    if edax is not None:
        ours = totals[thread_counts[-1]][1]
        print(
            f"Edax: {edax_total[0]:,} nodes in {edax_total[1]:.2f} s; searchlab (threads="
            f"{thread_counts[-1]}) / Edax time: {ours / max(edax_total[1], 1e-9):.2f}"
        )
    print(
        f"{len(positions)} positions, {failures} wrong, {stopped} stopped at the {args.cap:g} s cap"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
