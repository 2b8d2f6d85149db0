"""Connect Four mistake rates on a validation set of labelled expert positions, to choose an
agent's settings without touching Pons' test sets.

The positions are chunks that ``searchlab train connect4 --algorithm alphago`` labelled
(``DIR/expert/train-KKKK.npz``: every column's exact outcome), for example the openings of
uniformly random play that ``benchmarks/configs/connect4_openings.toml`` settles with twenty
million nodes a move. Only positions where a mistake is possible count; a move is a mistake
when another legal move has a strictly better outcome (Pons' and AlphaZero.jl's definition, as
in ``connect4_mistakes.py``), each position once (a position labelled in two chunks counts
once). No solver runs: the labels are the chunks' own.

    net=src/searchlab/learning/checkpoints/connect4.ckpt
    .venv/bin/python benchmarks/connect4_validation.py \\
        --chunks runs/c4-openings/expert/train-01{08..25}.npz --limit 500 \\
        --agent az:checkpoint=$net,simulations=800 \\
        --agent az:checkpoint=$net,simulations=800,c_puct=3
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from searchlab.agents import make_agent
from searchlab.core.errors import InvalidParameterError, SearchlabError
from searchlab.domains.games.connect4 import Connect4
from searchlab.learning.alphago.labelling import merge_chunks
from searchlab.learning.alphazero.mistakes import chooser, wilson_interval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", nargs="+", required=True, help="expert chunk files (.npz)")
    parser.add_argument("--agent", action="append", required=True, help="agent spec (repeatable)")
    parser.add_argument("--limit", type=int, default=None, help="first N informative positions")
    parser.add_argument(
        "--offset", type=int, default=0, help="skip the first K informative positions"
    )
    parser.add_argument("--seed", type=int, default=0, help="agents' seed (default 0)")
    args = parser.parse_args(argv)
    try:
        if args.limit is not None and args.limit < 1:
            raise InvalidParameterError(f"--limit must be at least 1, not {args.limit}")
        if args.offset < 0:
            raise InvalidParameterError(f"--offset must be at least 0, not {args.offset}")
        positions = merge_chunks(args.chunks)  # each position once, as the SL fit sees them
        positions = positions.subset(positions.informative())
        end = (
            len(positions) if args.limit is None else min(args.offset + args.limit, len(positions))
        )
        if args.offset >= end:
            raise InvalidParameterError(f"no positions after the first {args.offset}")
        positions = positions.subset(np.arange(args.offset, end))
        game = Connect4()
        agents = [(spec, make_agent(spec, game, seed=args.seed)) for spec in args.agent]
    except SearchlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    optimal = positions.optimal_mask()
    states = positions.states()
    plies = [len(m) for m in positions.moves]
    print(
        f"positions: {len(positions)} where a mistake is possible, ply {min(plies)}-{max(plies)}, "
        f"from {len(args.chunks)} chunk files"
    )
    print(f"{'agent':<80} {'mistakes':>8} {'rate %':>7} {'95% CI':>12} {'ms/move':>8}")
    try:
        for spec, agent in agents:
            choose = chooser(agent)
            started = time.perf_counter()
            mistakes = sum(not optimal[i, choose(state)] for i, state in enumerate(states))
            ms = 1000 * (time.perf_counter() - started) / len(states)
            low, high = wilson_interval(mistakes, len(states))
            print(
                f"{spec:<80} {mistakes:>8} {100 * mistakes / len(states):>7.1f} "
                f"{100 * low:>5.1f}-{100 * high:<5.1f} {ms:>8.1f}",
                flush=True,
            )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
