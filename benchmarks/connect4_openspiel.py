"""Alpha-beta on the same Connect Four trees: searchlab's compiled tier, searchlab's reference
tier (plain Python) and OpenSpiel's Python ``alpha_beta_search``, side by side in one run.

The tree is the textbook one in all three: fixed depth, columns in order 1..7, no
transposition table, pruning on ``alpha >= beta``, a finished game worth +1/-1/0 and the
depth horizon worth 0. Before timing, the script checks that the three agree on the value and
the move, that the compiled and reference tiers visit the same number of nodes, and that the
horizon is evaluated as often in OpenSpiel as in the reference tier (the same tree).

    python benchmarks/connect4_openspiel.py [--quick] [--repeat N]

OpenSpiel comes from PyPI (``pip install open_spiel``); without it the script says so and
times searchlab's two tiers only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.adversarial.connect4_solver import alphabeta_connect4, warm_up
from searchlab.domains.games.connect4 import Connect4, parse_moves

# (moves in Pons' notation, depth): OpenSpiel needs about 0.3-3 s for each
CASES = [("", 10), ("4453", 8), ("44443355", 11), ("2252576253462244", 12)]
QUICK_CASES = [("", 6), ("4453", 6)]


def best_time(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (seconds) and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def openspiel_search(moves: str, depth: int) -> tuple[Callable[[], Any], list[int]] | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms.minimax import alpha_beta_search
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for char in moves:
        state.apply_action(int(char) - 1)
    calls = [0]

    def horizon(_: Any) -> float:
        calls[0] += 1
        return 0.0

    player = state.current_player()

    def run() -> Any:
        calls[0] = 0
        return alpha_beta_search(
            game,
            state=state,
            value_function=horizon,
            maximum_depth=depth,
            maximizing_player_id=player,
        )

    return run, calls


def compare(
    moves: str, depth: int, repeat: int, have_openspiel: bool
) -> tuple[str, float | None] | None:
    """One table row and the OpenSpiel/compiled ratio; ``None`` (after a message on stderr)
    when the engines disagree."""
    state = parse_moves(moves)
    compiled_time, compiled = best_time(lambda: alphabeta_connect4(state, depth), repeat)
    horizon_calls = [0]

    def zero(_: Any) -> float:
        horizon_calls[0] += 1
        return 0.0

    def reference_run() -> Any:
        horizon_calls[0] = 0
        return alphabeta(Connect4(), state, depth=depth, evaluate=zero)

    reference_time, reference = best_time(reference_run, 1)
    if (compiled.value, compiled.action, compiled.nodes) != (
        reference.value,
        reference.action,
        reference.nodes,
    ):
        print(f"MISMATCH compiled {compiled} vs reference {reference}", file=sys.stderr)
        return None
    openspiel_text, ratio_text, ratio = "-", "-", None
    if have_openspiel:
        search = openspiel_search(moves, depth)
        assert search is not None
        run, calls = search
        openspiel_time, (value, action) = best_time(run, 1)
        if (value, action, calls[0]) != (reference.value, reference.action, horizon_calls[0]):
            print(
                f"MISMATCH openspiel value {value} move {action} horizon calls {calls[0]} vs "
                f"reference {reference.value} {reference.action} {horizon_calls[0]}",
                file=sys.stderr,
            )
            return None
        ratio = openspiel_time / compiled_time
        openspiel_text, ratio_text = f"{openspiel_time:.3f}s", f"{ratio:.0f}x"
    line = (
        f"{moves or '(empty)':<18} {depth:>5} {compiled.nodes:>10,} "
        f"{compiled_time * 1000:>8.2f}ms {reference_time:>9.3f}s {openspiel_text:>10} "
        f"{reference_time / compiled_time:>8.0f}x {ratio_text:>9}"
    )
    return line, ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small depths only")
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine (best is kept)")
    args = parser.parse_args(argv)
    warm_up()
    cases = QUICK_CASES if args.quick else CASES
    have_openspiel = openspiel_search("", 1) is not None
    if not have_openspiel:
        print(
            "open_spiel is not installed (pip install open_spiel, the 'bench' extra): "
            "timing searchlab's tiers only",
            file=sys.stderr,
        )
    header = (
        f"{'position':<18} {'depth':>5} {'nodes':>10} {'compiled':>10} {'reference':>10} "
        f"{'openspiel':>10} {'ref/comp':>9} {'os/comp':>9}"
    )
    print(header)
    print("-" * len(header))
    ratios = []
    for moves, depth in cases:
        row = compare(moves, depth, args.repeat, have_openspiel)
        if row is None:
            return 1
        line, ratio = row
        print(line)
        if ratio is not None:
            ratios.append(ratio)
    if ratios:
        print(
            f"OpenSpiel Python alpha_beta_search / searchlab compiled: geometric mean "
            f"{statistics.geometric_mean(ratios):.0f}x (target >= 100x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
