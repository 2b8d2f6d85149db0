"""``searchlab tree FILE [--alphabeta] [--json] [--svg OUT] [--png OUT]``: search an explicit
game tree and show it.

Prints the minimax value (for MAX), the chosen child, the principal variation, the nodes
visited and, with ``--alphabeta``, the pruned nodes and a trace: for each node the alpha and
beta it was given, its value and the children it pruned. ``--svg``/``--png`` draw the tree
(MAX squares, MIN circles) with each node's value, and with ``--alphabeta`` its alpha and
beta, the pruned branches crossed out and the nodes never visited in grey.

  searchlab tree examples/trees/aima_fig5_2.tree --alphabeta
  searchlab tree examples/trees/deep_cutoff.tree --alphabeta --png cutoff.png
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from searchlab.cli._common import add_json_argument, emit_json, output_file, picture_file

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``tree`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "tree",
        help="minimax / alpha-beta on an explicit game tree file",
        description="Search an explicit game tree (text or JSON format, see docs/games/"
        "explicit_tree.md) and show the value, the chosen child and the pruned nodes.",
    )
    parser.add_argument("file", help="a .tree (text) or .json tree file")
    parser.add_argument("--alphabeta", action="store_true", help="alpha-beta with its trace")
    add_json_argument(parser)
    parser.add_argument("--svg", metavar="FILE", help="draw the searched tree as SVG")
    parser.add_argument(
        "--png", metavar="FILE", help="draw the searched tree as a picture (.png, .jpg, ...)"
    )
    parser.set_defaults(func=run)


def _number(value: float) -> float | int | str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def _text(value: float | None) -> str:
    return "" if value is None else str(_number(value))


def run(args: argparse.Namespace) -> int:
    """Load, search, print."""
    from searchlab.algorithms.adversarial.alphabeta import (
        alphabeta,
        alphabeta_trace,
        pruned_leaves,
    )
    from searchlab.algorithms.adversarial.minimax import minimax
    from searchlab.domains.games.explicit_tree import ExplicitTreeGame, load_tree

    svg = output_file(args.svg, "--svg", "tree.svg") if args.svg is not None else None
    png = picture_file(args.png, "--png", "tree") if args.png is not None else None
    tree = load_tree(args.file)
    game = ExplicitTreeGame(tree)
    root = game.initial_state()
    search = alphabeta if args.alphabeta else minimax
    result = search(game)
    line, state = [], root
    for action in result.principal_variation:
        line.append(state.action_to_string(action))
        state = state.apply(action)
    best = line[0] if line else None
    max_value = result.stats["max_value"]
    trace = alphabeta_trace(game) if args.alphabeta else []
    pruned = [name for entry in trace for name in entry.pruned]
    leaves = pruned_leaves(game) if args.alphabeta else []
    if svg is not None or png is not None:
        _draw(args, tree, svg, png)
    if args.json:
        emit_json(
            {
                "file": args.file,
                "algorithm": result.algorithm,
                "root": tree.root,
                "value": _number(max_value),
                "best_child": best,
                "principal_variation": line,
                "nodes": result.nodes,
                "tree_nodes": len(tree),
                "pruned": pruned,
                "pruned_leaves": leaves,
                "trace": [
                    {
                        "node": e.name,
                        "alpha": _number(e.alpha),
                        "beta": _number(e.beta),
                        "value": _number(e.value),
                        "pruned": list(e.pruned),
                    }
                    for e in trace
                ],
            }
        )
        return 0
    print(f"{args.file}: {len(tree)} nodes, root {tree.root} ({tree.kind(tree.root)})")
    print(f"value: {_text(max_value)} (for MAX)")
    print(f"best child: {best}")
    print(f"principal variation: {' '.join([tree.root, *line])}")
    print(f"{result.algorithm}: visited {result.nodes} of {len(tree)} nodes")
    if args.alphabeta:
        print(f"pruned: {', '.join(pruned) or '(none)'}")
        print(f"pruned leaves: {', '.join(leaves) or '(none)'}")
        print("trace (node, alpha and beta on entry, value, pruned children):")
        for e in trace:
            cut = (
                f"  prunes {', '.join(e.pruned)} (alpha {_text(e.cut_alpha)} >= beta "
                f"{_text(e.cut_beta)})"
                if e.pruned
                else ""
            )
            print(
                f"  {'  ' * e.depth}{e.name}: alpha {_text(e.alpha)}, beta {_text(e.beta)}, "
                f"value {_text(e.value)}{cut}"
            )
    return 0


def _draw(args: argparse.Namespace, tree: Any, svg: Any, png: Any) -> None:
    """The pictures: the searched tree, titled with the file, the search and its answer."""
    from searchlab.exercises.alphabeta_key import answer_key
    from searchlab.exercises.alphabeta_pictures import key_notes, minimax_notes
    from searchlab.viz.tree_picture import render_tree, tree_svg

    if args.alphabeta:
        key = answer_key(tree)
        notes = key_notes(key)
        title = (
            f"{Path(args.file).name}: alpha-beta, value {_text(key.value)}, "
            f"best move {key.best_move}, {len(key.pruned)} pruned branches"
        )
    else:
        notes = minimax_notes(tree)
        value = notes.notes[tree.root].value
        best = notes.pv[0] if notes.pv else None
        title = f"{Path(args.file).name}: minimax, value {_text(value)}, best move {best}"
    if svg is not None:
        svg.write_text(tree_svg(tree, notes, title=title), encoding="utf-8")
    if png is not None:
        render_tree(tree, png, notes, title=title)
