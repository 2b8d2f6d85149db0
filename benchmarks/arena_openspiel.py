"""searchlab's MCTS against OpenSpiel's C++ MCTS on Connect Four, at equal time per move.

Both sides run plain UCT with one uniformly random rollout per simulation, the same
exploration constant and the most-visited root move: searchlab's ``mcts:time=T`` (the
compiled tier on Connect Four) and ``pyspiel.MCTSBot`` with ``RandomRolloutEvaluator(1)``,
``max_wall_clock_time=T`` and an unreachable simulation cap. searchlab's ``c`` multiplies
``sqrt(2 ln N / n)`` and OpenSpiel's ``uct_c`` multiplies ``sqrt(ln N / n)``, so
``uct_c = c * sqrt(2)``. Solving (MCTS-Solver) is off on both sides.

The games go through searchlab's arena (``searchlab arena``'s code, one process), every game
stored in an SQLite file; each game pair starts from its own ``--openings`` random plies with
colours swapped. The score is searchlab's, with its 95 % interval (per-game variance of the
wins, draws and losses), and the measured mean seconds per move of both sides are read back
from the stored games. Rerunning with the same ``--db`` resumes.

    nice -n 10 python benchmarks/arena_openspiel.py --time 0.1 --games 160
    python benchmarks/arena_openspiel.py --quick            # 8 games, 0.05 s per move

The OpenSpiel side is the agent kind ``openspiel-mcts`` (parameters ``time``, ``simulations``,
``c``, ``seed``), registered by this script; OpenSpiel comes from PyPI (``pip install
open_spiel``).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from searchlab.agents import AgentBase, Param, make_agent, register_agent
from searchlab.arena import ArenaStore, match_score, standings
from searchlab.cli.main import main as searchlab
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits
from searchlab.domains.games.connect4 import Connect4State, parse_moves

DEFAULT_C = 1.0  # searchlab's default UCT constant (searchlab.algorithms.mcts.DEFAULT_C)
MEMORY_MB = 1000
UNREACHABLE_SIMULATIONS = 10**9


class OpenSpielMCTSAgent(AgentBase):
    """OpenSpiel's C++ UCT (``pyspiel.MCTSBot``) on Connect Four, behind searchlab's agent
    interface. The OpenSpiel state is rebuilt from the game's move string each move."""

    def __init__(
        self, name: str, *, time_limit: float | None, simulations: int | None, c: float, seed: int
    ) -> None:
        import pyspiel

        super().__init__(name)
        self._pyspiel = pyspiel
        self._game = pyspiel.load_game("connect_four")
        self._time = time_limit
        self._simulations = simulations
        self._uct_c = c * math.sqrt(2.0)
        self._seed = seed
        self._moves = 0
        check_column_numbering(self._game)

    def _bot(self, limits: Limits | None) -> Any:
        time_limit = limits.time if limits is not None and limits.time else self._time
        simulations = self._simulations or UNREACHABLE_SIMULATIONS
        seed = (self._seed * 1_000_003 + self._moves) % (2**31 - 1)
        evaluator = self._pyspiel.RandomRolloutEvaluator(1, seed)
        return self._pyspiel.MCTSBot(
            self._game,
            evaluator,
            self._uct_c,
            simulations,
            MEMORY_MB,
            False,  # solve: off, as searchlab's default
            seed,
            False,  # verbose
            self._pyspiel.ChildSelectionPolicy.UCT,
            time_limit if time_limit is not None else -1.0,
        )

    def act(self, state: State, limits: Limits | None = None) -> int:
        if not isinstance(state, Connect4State):
            raise InvalidParameterError("openspiel-mcts plays Connect Four only")
        spiel_state = self._game.new_initial_state()
        for column in state.moves:
            spiel_state.apply_action(int(column) - 1)
        if sorted(spiel_state.legal_actions()) != sorted(state.legal_actions()):
            raise AssertionError(f"legal moves differ after {state.moves!r}")
        self._moves += 1
        return int(self._bot(limits).step(spiel_state))


def check_column_numbering(game: Any) -> None:
    """searchlab's action ``c`` (notation ``c + 1``) is OpenSpiel's action ``c``: both drop a
    stone in the ``c``-th column from the left. Checked on the printed boards."""
    ours = str(parse_moves("1")).splitlines()[5]  # bottom row: "X . . . . . ."
    theirs = game.new_initial_state()
    theirs.apply_action(0)
    bottom = str(theirs).splitlines()[5]  # "x......"
    if not (ours.split()[0] == "X" and bottom[0] == "x" and set(bottom[1:]) == {"."}):
        raise AssertionError(f"column numbering differs: {ours!r} vs {bottom!r}")


def _openspiel_mcts(
    game: Game | None,
    *,
    name: str,
    seed: int | None,
    time: float | None,
    simulations: int | None,
    c: float,
) -> OpenSpielMCTSAgent:
    if getattr(getattr(game, "info", None), "name", None) != "connect4":
        raise InvalidParameterError(f"agent spec {name!r}: openspiel-mcts plays connect4 only")
    if time is None and simulations is None:
        raise InvalidParameterError(f"agent spec {name!r}: give time= or simulations=")
    return OpenSpielMCTSAgent(name, time_limit=time, simulations=simulations, c=c, seed=seed or 0)


register_agent(
    "openspiel-mcts",
    _openspiel_mcts,
    {
        "time": Param(float, help="seconds per move (max_wall_clock_time)"),
        "simulations": Param(int, help="simulations per move (max_simulations)"),
        "c": Param(float, DEFAULT_C, "UCT constant in searchlab's convention"),
    },
    "OpenSpiel's C++ MCTSBot (random rollouts), Connect Four only",
)


def warm_up(spec: str) -> None:
    """Compile searchlab's kernels before the clock matters (numba caches them on disk)."""
    from searchlab.games import make

    game = make("connect4")
    agent = make_agent(spec, game, seed=0)
    agent.act(game.initial_state())


def report(db: Path, ours: str, theirs: str) -> dict[str, Any]:
    with ArenaStore.open(db) as store:
        records = store.records(game="connect4")
    rows = {row.agent: row for row in standings(records)}
    wins = draws = losses = 0
    for record in records:
        if {record.first, record.second} != {ours, theirs}:
            continue
        score = record.first_score if record.first == ours else 1.0 - record.first_score
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
    match = match_score(wins, draws, losses)
    return {
        "games": match.games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": match.score,
        "score_ci": match.score_ci,
        "elo": match.elo,
        "elo_low": match.elo_low,
        "elo_high": match.elo_high,
        "ours_seconds_per_move": rows[ours].seconds_per_move,
        "theirs_seconds_per_move": rows[theirs].seconds_per_move,
        "ours_moves": rows[ours].moves,
        "theirs_moves": rows[theirs].moves,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move (0.1)")
    parser.add_argument("--games", type=int, default=160, help="games (160)")
    parser.add_argument("--openings", type=int, default=2, help="random plies per pair (2)")
    parser.add_argument("--c", type=float, default=DEFAULT_C, help="UCT constant, our units")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--db", type=Path, help="SQLite file (default: a temporary file)")
    parser.add_argument("--quick", action="store_true", help="8 games at 0.05 s per move")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return 1
    if args.quick:
        args.time, args.games = 0.05, 8
    ours = f"mcts:time={args.time:g},c={args.c:g}"
    theirs = f"openspiel-mcts:time={args.time:g},c={args.c:g}"
    db = args.db or Path(tempfile.mkdtemp(prefix="arena-openspiel-")) / "arena.sqlite"
    warm_up(ours)
    start = time.perf_counter()
    code = searchlab(
        [
            "arena", "connect4", ours, theirs,
            "--games", str(args.games),
            "--openings", str(args.openings),
            "--seed", str(args.seed),
            "--workers", str(args.workers),
            "--db", str(db),
        ]
    )  # fmt: skip
    if code != 0:
        return code
    result = report(db, ours, theirs)
    elapsed = time.perf_counter() - start
    print()
    print(f"searchlab {ours}  vs  OpenSpiel MCTSBot {theirs} (uct_c = c*sqrt(2))")
    print(
        f"  games {result['games']}: +{result['wins']} ={result['draws']} -{result['losses']}"
        f" (searchlab's wins, draws, losses)"
    )
    print(
        f"  score {result['score']:.3f} ± {result['score_ci']:.3f} (95 %)   "
        f"Elo {result['elo']:+.0f} [{result['elo_low']:+.0f}, {result['elo_high']:+.0f}]"
    )
    print(
        f"  seconds per move: searchlab {result['ours_seconds_per_move']:.4f} "
        f"({result['ours_moves']} moves), OpenSpiel {result['theirs_seconds_per_move']:.4f} "
        f"({result['theirs_moves']} moves)"
    )
    print(f"  games stored in {db}; wall time of this run {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
