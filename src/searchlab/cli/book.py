"""``searchlab book``: build and inspect Connect Four opening books.

  searchlab book build connect4 --depth D --out FILE [--workers W] [--ray [ADDRESS]]
  searchlab book info FILE

``build`` enumerates every distinct position up to ``D`` plies (mirror images folded), solves
the positions at exactly ``D`` plies on ``W`` local processes (or Ray), folds the scores back
to the empty board, and writes ``FILE``. Finished chunks are kept under ``FILE.partial/``: after
a kill or Ctrl-C the same command resumes without solving them again. Bad input (a depth the
memory cannot hold, ``--workers 0``, a Ray address that does not answer, a corrupt book) is one
line and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from searchlab.cli._common import add_command, add_ray_argument, worker_count
from searchlab.core.errors import InvalidParameterError

__all__ = ["register"]

EPILOG = """\
examples:
  searchlab book build connect4 --depth 4 --out connect4-d4.c4book --workers 2
  searchlab book build connect4 --depth 8 --out d8.c4book --ray --workers 8
  searchlab book build connect4 --depth 8 --out d8.c4book --ray 10.0.0.5:6379
  searchlab book info connect4-d4.c4book
  searchlab solve connect4 44 --book connect4-d4.c4book

--ray alone starts a Ray instance on this machine with --workers CPUs; --ray auto joins the
cluster this machine belongs to; --ray HOST:PORT joins that cluster. The same command resumes a
killed build. Exit codes: 0 done, 2 bad input, 130 interrupted (finished chunks are kept).
"""


def register(subparsers: Any) -> None:
    """Add ``book`` to the ``searchlab`` command line."""
    parser = add_command(
        subparsers,
        "book",
        "build or inspect a Connect Four opening book",
        "Build a Connect Four opening book (every position up to a depth, solved exactly), or "
        "describe one.",
        EPILOG,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    build = actions.add_parser("build", help="build a book: searchlab book build connect4 ...")
    build.add_argument("game", help="the game: connect4")
    build.add_argument("--depth", type=int, required=True, help="positions up to D plies")
    build.add_argument("--out", type=Path, required=True, help="the book file to write")
    build.add_argument(
        "--workers", type=worker_count, default=1, help="processes (or Ray CPUs), default 1"
    )
    add_ray_argument(
        build,
        "solve the chunks as Ray tasks: alone, on a local Ray instance of --workers CPUs; with "
        "ADDRESS (host:port, or auto), on that cluster (needs pip install 'searchlab[ray]')",
    )
    build.add_argument("--chunk", type=worker_count, default=64, help="positions per saved chunk")
    build.add_argument("--root", default="", help="only the positions below these moves")
    build.set_defaults(func=_build)
    info = actions.add_parser("info", help="describe a book file")
    info.add_argument("file", type=Path)
    info.set_defaults(func=_info)
    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    raise InvalidParameterError(
        "book needs an action: build or info (searchlab book build --help)"
    )


def _build(args: argparse.Namespace) -> int:
    import time

    from searchlab.algorithms.adversarial import connect4_book_build as building
    from searchlab.core.workers import ProcessPool, RayPool

    if args.game != "connect4":
        raise InvalidParameterError(
            f"searchlab book build: only connect4 has an opening book, got {args.game!r}"
        )
    building.check_root(args.root, building.check_depth(args.depth, len(args.root)))
    out = args.out
    if out.is_dir():
        raise InvalidParameterError(f"--out {out}: is a directory, not a file")
    if not out.parent.is_dir():
        raise InvalidParameterError(f"--out {out}: no such folder {out.parent}")
    pool: Any
    if args.ray is not None:
        pool = RayPool(args.ray, args.workers)
        where = f"Ray ({args.ray})"
    else:
        pool = ProcessPool(args.workers)
        where = f"{args.workers} local process{'es' if args.workers > 1 else ''}"
    start = time.perf_counter()
    print(f"building the depth-{args.depth} book on {where} -> {out}", file=sys.stderr)

    def report(progress: building.BuildProgress) -> None:
        print(
            f"  {progress.solved}/{progress.total} positions at ply {args.depth} solved "
            f"({progress.resumed} chunks resumed), {progress.elapsed:.1f} s",
            file=sys.stderr,
            flush=True,
        )

    try:
        book = building.build_book(
            args.depth, root=args.root, out=out, chunk=args.chunk, pool=pool, report=report
        )
    finally:
        pool.close()
    elapsed = time.perf_counter() - start
    size = out.stat().st_size
    print(f"{out}: depth {book.depth}, {len(book)} positions, {size:,} bytes, {elapsed:.1f} s")
    return 0


def _info(args: argparse.Namespace) -> int:
    from searchlab.algorithms.adversarial.connect4_book import Connect4Book

    book = Connect4Book.load(args.file)
    root = book.score(0, 0, 0)
    shown = "not in the book" if root is None else f"{root:+d}"
    print(f"{args.file}: depth {book.depth}, {len(book)} positions, empty board {shown}")
    return 0
