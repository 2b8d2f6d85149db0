"""``searchlab exercise alphabeta|astar``: random course exercises with their answer keys.

  searchlab exercise alphabeta --seed 3
  searchlab exercise alphabeta --size large --seed 3
  searchlab exercise alphabeta --depth 4 --leaves 20 --min-cuts 6 --format svg --out q.svg
  searchlab exercise alphabeta --count 10 --format png --out exercises/
  searchlab exercise astar --nodes 6 --consistent --seed 2

Alpha-beta: --size small (default, pen and paper), medium or large sets the tree's shape
(--depth, --branching, --leaves, --min-cuts change one setting of it): a random tree (MAX at
the root, levels alternating, inner nodes with 2..B children, at most --leaves leaves, integer
leaf values LO..HI, exactly --depth plies deep),
drawn again until alpha-beta (children left to right, pruning when alpha >= beta) cuts at
least --min-cuts branches; the key gives the root value, the best move, every cut with its
alpha and beta, and alpha, beta and the value at every visited node. A*: a small random graph
from S to T with heuristic values (admissible, or consistent with --consistent); the key
gives the open and closed lists with f, g and h at every step, the reopenings, the path and
its cost. --format md (default) or json go to stdout unless --out names a file; svg and png
(alpha-beta) pictures go to --out (a file, or a folder for --count > 1, created if
missing). The same seed gives the same exercise; --count N makes the exercises of seeds S,
S+1, ..., S+N-1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from searchlab.cli._common import output_file, output_folder, picture_file
from searchlab.core.errors import InvalidParameterError
from searchlab.exercises.alphabeta_exercise import DEFAULT_SIZE, EXERCISE_SIZES, ExerciseSize

__all__ = ["register"]

MAX_COUNT = 1000
"""The most exercises one command makes."""


def register(subparsers: Any) -> None:
    """Add ``exercise`` to the ``searchlab`` command line."""
    doc = __doc__ or ""
    parser = subparsers.add_parser(
        "exercise",
        help="random alpha-beta and A* exercises with their answer keys",
        description=doc.split("\n\n")[2],
        epilog="examples:\n" + "\n".join(doc.split("\n\n")[1].splitlines()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = parser.add_subparsers(dest="exercise", metavar="KIND")
    parser.set_defaults(func=lambda args: _missing_kind(parser))
    ab = kinds.add_parser(
        "alphabeta",
        help="alpha-beta pruning on a random game tree",
        description="A random game tree and its alpha-beta answer key (see searchlab "
        "exercise --help).",
    )
    ab.add_argument(
        "--size",
        choices=tuple(EXERCISE_SIZES),
        default=DEFAULT_SIZE,
        help=f"the tree's shape (default {DEFAULT_SIZE}): "
        + "; ".join(f"{name}: {_describe_size(size)}" for name, size in EXERCISE_SIZES.items()),
    )
    ab.add_argument(
        "--depth",
        type=int,
        help="plies from the root to the deepest leaves (default: the size's)",
    )
    ab.add_argument(
        "--branching",
        type=int,
        help="most children of an inner node (2..B; default: the size's)",
    )
    ab.add_argument("--leaves", type=int, help="most leaves (default: the size's)")
    ab.add_argument(
        "--values",
        default="-10..10",
        metavar="LO..HI",
        help="whole leaf values LO..HI (default %(default)s)",
    )
    ab.add_argument("--min-cuts", type=int, help="least pruned branches (default: the size's)")
    _common_options(ab, ("md", "json", "svg", "png"))
    ab.add_argument("--count", type=int, default=1, help="how many exercises (default 1)")
    ab.add_argument("--no-answers", action="store_true", help="the question only (md, svg, png)")
    # "--values -10..10": argparse takes an argument starting with "-" for an option unless
    # it looks like a negative number; teach this parser that "-10..10" is one too.
    ab._negative_number_matcher = re.compile(r"^-\d+(\.\.[+-]?\d+)?$|^-\d*\.\d+$")
    ab.set_defaults(func=run_alphabeta)
    star = kinds.add_parser(
        "astar",
        help="A* on a small random graph with heuristic values",
        description="A random graph from S to T with heuristic values and the A* answer key "
        "(see searchlab exercise --help).",
    )
    star.add_argument(
        "--nodes", type=int, default=6, help="nodes between S and T (default %(default)s)"
    )
    star.add_argument(
        "--consistent",
        action="store_true",
        help="a consistent heuristic (default: admissible only)",
    )
    _common_options(star, ("md", "json", "svg"))
    star.add_argument("--no-answers", action="store_true", help="the question only (md, svg)")
    star.set_defaults(func=run_astar)


def _describe_size(size: ExerciseSize) -> str:
    """A size for a teacher: ``"3 plies, up to 12 leaves, 3+ cuts (pen and paper: ...)"``."""
    return (
        f"{size.depth} plies, up to {size.leaves} leaves, at least {size.min_cuts} cuts "
        f"({size.use})"
    )


def _shape(args: argparse.Namespace) -> dict[str, int]:
    """The tree's settings: the ``--size``'s, with any of them given on its own instead."""
    size = EXERCISE_SIZES[args.size]
    names = ("depth", "branching", "leaves", "min_cuts")
    return {
        name: getattr(size, name) if getattr(args, name) is None else getattr(args, name)
        for name in names
    }


def _common_options(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--format", choices=formats, default="md", help="output format (default md)"
    )
    parser.add_argument(
        "--out",
        metavar="FILE|DIR",
        help="write here instead of stdout; a folder (created if missing) for several "
        "pictures, or for a file per exercise when it ends in /",
    )


def _missing_kind(parser: argparse.ArgumentParser) -> int:
    raise InvalidParameterError(
        "exercise needs a kind: alphabeta or astar (searchlab exercise alphabeta --help)"
    )


def _targets(args: argparse.Namespace, stem: str, seeds: list[int]) -> list[Path] | Path | None:
    """Where the output goes: ``None`` (stdout), one file for everything, or a file per
    exercise in a folder. Checked before any work."""
    fmt = args.format
    picture = fmt in ("svg", "png")
    if args.out is None:
        if fmt == "png":
            raise InvalidParameterError("--format png needs --out FILE.png (or a folder)")
        if fmt == "svg" and len(seeds) > 1:
            raise InvalidParameterError(
                f"--count {len(seeds)} --format svg writes one file per exercise: "
                "give --out a folder"
            )
        return None
    if _names_a_folder(args.out, picture and len(seeds) > 1):
        folder = output_folder(args.out, "--out")
        return [output_file(str(folder / f"{stem}-seed{seed}.{fmt}"), "--out") for seed in seeds]
    if picture and len(seeds) > 1:
        raise InvalidParameterError(
            f"--count {len(seeds)} --format {fmt} writes one file per exercise: give --out a "
            f"folder, not {args.out!r}"
        )
    if fmt == "png":
        return picture_file(args.out, "--out", "exercise")
    return output_file(args.out, "--out", example=f"{stem}.{fmt}")


def _names_a_folder(out: str, several_pictures: bool) -> bool:
    """Whether ``--out OUT`` names a folder (created when missing): one that exists, a name
    ending in ``/``, or, for several pictures, a name without an extension."""
    path = Path(out)
    if path.is_dir() or out.endswith(("/", os.sep)):
        return True
    return several_pictures and not path.exists() and path.suffix == ""


def _write(text: str, target: Path | None) -> None:
    if target is None:
        sys.stdout.write(text)
    else:
        target.write_text(text, encoding="utf-8")


def run_alphabeta(args: argparse.Namespace) -> int:
    """Check the options and the output, generate, write."""
    from searchlab.exercises.alphabeta_exercise import (
        AlphaBetaSettings,
        generate_alphabeta,
        parse_value_range,
    )

    low, high = parse_value_range(args.values)
    shape = _shape(args)
    AlphaBetaSettings(low=low, high=high, seed=args.seed, **shape).checked()
    if not 1 <= args.count <= MAX_COUNT:
        raise InvalidParameterError(f"--count must be 1..{MAX_COUNT}, got {args.count}")
    if args.format == "png":
        from searchlab.cli._common import require_extra

        require_extra("searchlab exercise --format png", "PIL")
    seeds = [args.seed + i for i in range(args.count)]
    targets = _targets(args, "alphabeta", seeds)
    exercises = [generate_alphabeta(low=low, high=high, seed=seed, **shape) for seed in seeds]
    answers = not args.no_answers
    if args.format == "png":
        from searchlab.exercises.alphabeta_pictures import exercise_picture

        files = targets if isinstance(targets, list) else [targets]
        for exercise, path in zip(exercises, files, strict=True):
            assert path is not None
            exercise_picture(exercise, path, answers=answers)
            print(f"picture: {path}")
        return 0
    texts = [_alphabeta_text(exercise, args.format, answers) for exercise in exercises]
    _emit(texts, targets, args.format)
    return 0


def _alphabeta_text(exercise: Any, fmt: str, answers: bool) -> str:
    if fmt == "json":
        return json.dumps(exercise.to_dict(), separators=(",", ":")) + "\n"
    if fmt == "svg":
        from searchlab.exercises.alphabeta_pictures import exercise_svg

        return exercise_svg(exercise, answers=answers)
    from searchlab.exercises.alphabeta_markdown import exercise_markdown

    return exercise_markdown(exercise, answers=answers)


def _emit(texts: list[str], targets: list[Path] | Path | None, fmt: str) -> None:
    if isinstance(targets, list):
        for text, path in zip(texts, targets, strict=True):
            _write(text, path)
            print(f"wrote {path}")
        return
    joined = "".join(texts) if fmt == "json" else "\n---\n\n".join(texts)
    _write(joined, targets)
    if targets is not None:
        print(f"wrote {targets}")


def run_astar(args: argparse.Namespace) -> int:
    """Check the options and the output, generate, write."""
    from searchlab.exercises.astar_exercise import generate_astar
    from searchlab.exercises.astar_render import astar_markdown, astar_svg

    if args.format == "svg" and args.out is None:
        targets: list[Path] | Path | None = None
    else:
        targets = _targets(args, "astar", [args.seed])
    exercise = generate_astar(nodes=args.nodes, consistent=args.consistent, seed=args.seed)
    answers = not args.no_answers
    if args.format == "json":
        text = json.dumps(exercise.to_dict(), separators=(",", ":")) + "\n"
    elif args.format == "svg":
        text = astar_svg(exercise, answers=answers)
    else:
        text = astar_markdown(exercise, answers=answers)
    _emit([text], targets, args.format)
    return 0
