"""``searchlab analyse GAME [MOVES] --agent SPEC [--json]``: one search, and what it found.

  searchlab analyse connect4 4453 --agent mcts:simulations=20000
  searchlab analyse tictactoe "a1 b2" --agent alphabeta:depth=9
  searchlab analyse othello f5d6c3 --agent alphabeta:time=2 --json
  searchlab analyse connect4 44 --agent mcts:time=1 --png root.png
  searchlab analyse tictactoe b2 --agent mcts:simulations=3000 --tree-png tree.png
  searchlab analyse go --sgf game.sgf --move 30 --agent mcts:time=2
  searchlab analyse --load game.txt --move 12 --agent alphabeta:depth=8
  searchlab analyse connect4 --positions Test_L1_R2 --agent az:checkpoint=runs/c4 --json

Prints the chosen move, its value, the principal variation (alpha-beta) or the root's
children with their visits and values (Monte Carlo), the nodes or simulations, and the
search time. ``--json`` prints one object with ``action`` (the game's notation), ``value``,
``nodes`` or ``simulations``, ``seconds`` and the rest (the whole principal variation; the
text shows its first moves). ``--png`` writes the picture in the format its extension names
(.png, .jpg, .webp, ...), checked before the search; ``--tree-png`` draws the MCTS tree
``--tree-depth`` plies deep (the search keeps its tree, in the tier the engine chooses).
GAME may be ``FILE.py:CLASS`` or ``MODULE:CLASS`` for a game of your own. A position can come
from a saved game (``play --save``; for Go any SGF file, its main line): ``--load FILE``
analyses the position after its last move, ``--move N`` the one after move N (0: the start,
with Go's handicap or set-up stones); GAME may then be left out (given, it must be the
record's), and ``--sgf FILE`` is Go's older spelling of ``--load``. ``--positions FILE``
analyses every line of a file instead (Pons' ``MOVES SCORE`` or a move string per line; with
``--json`` one object per position: see :mod:`searchlab.cli.analyse_positions`). For ``az``
and ``policy`` the root children show the network's prior beside the visits.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from searchlab.cli._common import (
    add_game_argument,
    add_json_argument,
    add_param_argument,
    emit_json,
    picture_file,
    print_table,
    shorten_line,
)
from searchlab.cli.analyse_positions import add_positions_arguments, run_positions
from searchlab.core.errors import InvalidParameterError, InvalidStateError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``analyse`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="one search from a position: best move, value, line or visit counts",
        description=__doc__.split("\n\n", 1)[0].split(": ", 1)[1],
        epilog="examples:\n" + "\n".join(__doc__.split("\n\n")[1].splitlines()) + "\n\n"
        "agents: random, greedy, alphabeta:depth=D|time=S, flatmc:simulations=N|time=S,\n"
        "        mcts:simulations=N|time=S[,c=C,rollout=informed,solver=true,...],\n"
        "        az:checkpoint=FILE|DIR[,simulations=N] (network + PUCT: priors beside visits),\n"
        "        policy:checkpoint=FILE|DIR (the network alone)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(parser)
    parser.add_argument(
        "moves",
        nargs="?",
        default="",
        help="moves from the start in the game's notation (Connect Four: a digit string)",
    )
    parser.add_argument(
        "--agent", default="mcts:simulations=2000", help="agent spec (default: %(default)s)"
    )
    add_param_argument(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed for random agents (default 0)")
    parser.add_argument(
        "--load",
        metavar="FILE",
        help="the position from a saved game (play --save; Go: any SGF file, its main line)",
    )
    parser.add_argument("--sgf", metavar="FILE", help="Go: the same as --load")
    parser.add_argument(
        "--move",
        type=int,
        metavar="N",
        help="with --load: the position after move N (default: the last; 0: the start)",
    )
    add_json_argument(parser)
    add_positions_arguments(parser)
    parser.add_argument(
        "--png",
        metavar="FILE",
        help="picture of the root children: visit shares, coloured by value (mcts, flatmc)",
    )
    parser.add_argument(
        "--tree-png",
        metavar="FILE",
        help="picture of the MCTS tree: edge width by visits, labels move/visits/value (mcts)",
    )
    parser.add_argument(
        "--tree-depth",
        type=int,
        default=2,
        metavar="D",
        help="plies of the tree drawn by --tree-png (1..6, default %(default)s)",
    )
    parser.set_defaults(func=run)


def _tree_spec(text: str) -> Any:
    """The agent spec for ``--tree-png``: the MCTS of ``text``, keeping its tree (in the tier
    the engine chooses: the compiled searcher's arrays or the reference tier's nodes)."""
    from searchlab.agents.spec import AgentSpec, parse_spec

    spec = parse_spec(text)
    if spec.kind != "mcts":
        raise InvalidParameterError(
            f"--tree-png draws a Monte Carlo tree search's tree; agent {text!r} is not mcts"
        )
    return AgentSpec("mcts", {**spec.params, "reuse": "true"})


def _from_record(
    args: argparse.Namespace, path: str, option: str, params: dict[str, Any]
) -> tuple[Any, Any, int, str]:
    """The game, the position, its move number and how to name it, from ``--load FILE
    [--move N]`` (or ``--sgf``)."""
    from searchlab.cli._record import load_game
    from searchlab.domains.games.record import RecordError

    if args.moves:
        raise InvalidParameterError(f"{option} and MOVES: give one (the moves are in the file)")
    record = load_game(path, args.game, params, option, "analyse")
    move = len(record.moves) if args.move is None else args.move
    try:
        state = record.state_at(move)
    except RecordError as error:
        raise InvalidParameterError(f"--move {move}: {error}") from None
    return record.game, state, move, f"move {move} of {path}"


def run(args: argparse.Namespace) -> int:
    """Check every input and output, search once and print the result."""
    from searchlab.cli._record import which_file

    path, option = which_file(args.load, args.sgf, "--load")
    if args.game is None and (path is None or args.positions is not None):
        raise InvalidParameterError("analyse needs a GAME (like 'analyse connect4') or --load FILE")
    if args.positions is not None:
        return run_positions(args)
    from searchlab.agents import HumanAgent, make_agent
    from searchlab.agents.search import FlatMonteCarloAgent, MCTSAgent
    from searchlab.agents.spec import parse_spec
    from searchlab.cli._analysis import children_rows, result_json
    from searchlab.cli._common import parse_params
    from searchlab.core.game import line_notation
    from searchlab.domains.games import make
    from searchlab.domains.games.move_list import position_from_moves

    picture = picture_file(args.png, "--png", "analyse") if args.png is not None else None
    tree_picture = None
    if args.tree_png is not None:
        tree_picture = picture_file(args.tree_png, "--tree-png", "analyse")
        if not 1 <= args.tree_depth <= 6:
            raise InvalidParameterError(f"--tree-depth must be 1..6, got {args.tree_depth}")
    params = parse_params(args.param)
    where = repr(args.moves)
    move = None
    if path is not None:
        game, state, move, where = _from_record(args, path, option, params)
    else:
        if args.move is not None:
            raise InvalidParameterError(
                "--move N picks a move of a saved game: give --load FILE (Go: or --sgf FILE)"
            )
        game = make(args.game, **params)
        state = position_from_moves(game, args.moves)
    name = args.game or game.info.name
    if state.is_terminal():
        raise InvalidStateError(f"the game is already over after {where}: nothing to analyse")
    spec = _tree_spec(args.agent) if tree_picture is not None else parse_spec(args.agent)
    agent = make_agent(spec, game, seed=args.seed)
    if isinstance(agent, HumanAgent):
        raise InvalidParameterError("analyse needs a search agent, not 'human'")
    if picture is not None and not isinstance(agent, MCTSAgent | FlatMonteCarloAgent):
        raise InvalidParameterError(
            f"--png needs a Monte Carlo search (its root children are drawn); agent "
            f"{agent.name!r} has none: use mcts or flatmc"
        )
    start = time.perf_counter()
    action = agent.act(state)
    seconds = time.perf_counter() - start
    result = agent.last_result
    data = result_json(state, result, action, seconds)
    if picture is not None:
        from searchlab.viz.root_png import render_root

        title = f"{name} {_position_name(args)}: {agent.name} plays {data['action']}"
        render_root(data["children"], picture, title=title, chosen=data["action"])
    if tree_picture is not None:
        from searchlab.viz.mcts_tree_png import label_tree_view, mcts_tree_dict, render_mcts_tree

        assert isinstance(agent, MCTSAgent)
        view = agent.tree_view(args.tree_depth, 5)
        if view is not None:  # the compiled searcher's arrays
            tree = label_tree_view(view, state)
        else:  # the reference tier's nodes
            tree = mcts_tree_dict(agent.tree, state, depth=args.tree_depth)
        title = (
            f"{name} {_position_name(args)}: MCTS tree, {tree['visits']} simulations, "
            f"plays {data['action']}"
        )
        render_mcts_tree(tree, tree_picture, title=title)
    if args.json:
        source = {} if path is None else {option.lstrip("-"): path, "move": move}
        emit_json({"game": name, "moves": args.moves, **source, "agent": agent.name, **data})
        return 0
    print(state)
    print(f"{agent.name}: {data['action']}")
    if result is not None:
        if result.is_proven:
            print(f"value {result.value:+.4f} (proven {result.outcome})")
        else:
            print(f"value {result.value:+.4f} (for the player to move)")
        line = line_notation(state, result.principal_variation)
        if line:
            print("principal variation: " + shorten_line(line))
        rows = children_rows(state, result)
        if rows:
            _print_children(rows)
        if "simulations" in result.stats:
            print(f"simulations {result.stats['simulations']}, tree nodes {result.nodes}")
        else:
            print(f"nodes {result.nodes}, depth {result.depth}")
    print(f"time {seconds:.3f} s")
    if picture is not None:
        print(f"picture: {picture}")
    if tree_picture is not None:
        print(f"tree picture: {tree_picture}")
    return 0


def _position_name(args: argparse.Namespace) -> str:
    path = args.load if args.load is not None else args.sgf
    if path is not None:
        return f"{path}" + ("" if args.move is None else f" move {args.move}")
    return str(args.moves or "(start)")


def _print_children(rows: list[dict[str, Any]], limit: int = 10) -> None:
    table = [
        [
            row["move"],
            row["visits"],
            f"{row['value']:+.3f}",
            "" if row["prior"] is None else f"{row['prior']:.3f}",
            row["proven"] or "",
        ]
        for row in rows[:limit]
    ]
    print_table(
        ["move", "visits", "value", "prior", "proven"],
        table,
        title="root children",
        left=["move", "proven"],
    )
    if len(rows) > limit:
        print(f"... and {len(rows) - limit} more")
