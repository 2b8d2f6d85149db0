"""``searchlab arena GAME SPEC SPEC [SPEC...] --games N``: a round-robin tournament.

Every two agents play N games against each other, taking turns to move first; every game is
stored in an SQLite file as soon as it ends, and the table rates every agent stored for the
game (Elo with 95 % intervals). Running the same command again resumes: finished games are
kept and not played again.

  searchlab arena tictactoe random greedy alphabeta:depth=4 --games 20
  searchlab arena connect4 mcts:time=0.5 alphabeta:time=0.5 --games 100 --workers 2 --openings 4
  searchlab arena connect4 mcts:simulations=2000 mcts:simulations=1000 --games 1000 --sprt 0,30
  searchlab arena connect4 mcts flatmc alphabeta --games 50 --move-time 0.2 --json
  searchlab arena othello mcts:time=1 alphabeta:time=1 --games 200 --workers 2 --time 3600
  searchlab arena snakego mcts:time=0.2 greedy --matches 20 -p size=10 -p rounds=60
  searchlab arena go mcts:time=1 random --games 10 -p size=9 --sgf games/
  searchlab arena connect4 mcts:time=0.5 alphabeta:time=0.5 --games 500 --workers 32 --ray HOST:PORT

Ctrl-C (SIGINT) or SIGTERM stops it cleanly: no new game starts, the games in progress are
abandoned (worker processes are terminated), one line says how many games are stored, and the
exit code is 130 (SIGINT) or 143 (SIGTERM). Run the same command again to play the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from typing import Any

from searchlab.cli._common import (
    add_json_argument,
    add_param_argument,
    add_ray_argument,
    positive_int,
    print_table,
    progress,
    worker_count,
)
from searchlab.core.errors import InvalidParameterError

__all__ = ["register"]

DEFAULT_DB = "arena.sqlite"

DESCRIPTION = """\
A round-robin tournament between agents on one game. Every two agents play --games N games
against each other (N per pairing), taking turns to move first. Each finished game is stored
at once in an SQLite file (--db): agents, opening, moves, seconds per move, result. The table
at the end rates every agent stored for this game in that file, from all its games: Elo by
maximum likelihood (mean 0) with 95 % confidence intervals.

Killing the tournament (Ctrl-C, SIGTERM, even SIGKILL) loses only the games in progress: run
the same command again to resume, it plays only the missing games. Ctrl-C or SIGTERM stops at
once with one line and exit code 130 or 143. --time S starts no game after S seconds. A larger
--games adds games; another --seed plays new ones.

Each pair of colour-swapped games starts from its own random opening, {plies} plies by default
(--openings K for K, 0 for none), shared by both games of the pair: deterministic agents
(alphabeta, or any agent given a fixed seed=) would otherwise play the same two games over
and over. When games of a pairing still repeat move for move, a warning says so.

A game with a seed of its own (Snake Go: the item list) plays each colour-swapped pair with
seed = S + j for pair j (S: -p seed=S, default 0; both games of a pair get the same items)
and no random opening by default. --matches M plays M whole matches per pairing instead of
games, for a game with a match rule (Snake Go: two halves with the same items and the sides
swapped, decided by halves won, then total score, then the earlier first item in the first
half, then the player who moved second in it); the table then rates the matches.

Agents are specs, KIND or KIND:NAME=VALUE,... : random, greedy, alphabeta:depth=6,
alphabeta:time=0.5, flatmc:simulations=2000, mcts:time=1,c=0.7. The agents' own budgets hold
unless --move-time gives every agent the same seconds per move (they are then rated as
SPEC@Ts, other players than SPEC). Every agent is built, and every external engine
(gtp:command=...) started and asked protocol_version and boardsize, before the first game: an
engine that cannot play (a typo in its options, a program that is not a GTP engine) is one
line and exit code 2, and nothing is played or stored."""

DEFAULT_OPENINGS_HELP = 2  # = arena.schedule.DEFAULT_OPENING_PLIES (not imported: startup time)

EXAMPLES = """\
examples:
  searchlab arena tictactoe random greedy alphabeta:depth=4 --games 20
      three agents, 20 games per pairing (60 games), stored in ./arena.sqlite
  searchlab arena connect4 mcts:time=0.5 alphabeta:time=0.5 --games 100 --workers 2 --openings 4
      two processes; every game pair starts from its own 4 random plies
  searchlab arena connect4 mcts:simulations=2000 mcts:simulations=1000 --games 1000 --sprt 0,30
      stop once the SPRT decides: is the first at least 30 Elo better (H1) or not (H0)?
  searchlab arena nim -p piles=3,4,5 random greedy --games 10 --db nim.sqlite --json
      the standings as one JSON list on stdout
  searchlab arena othello mcts:time=1 alphabeta:time=1 --games 200 --workers 2 --time 3600
      start no new game after an hour; run it again tomorrow to play the rest
  searchlab arena snakego mcts:time=0.2 greedy --matches 20 -p size=10 -p rounds=60
      20 Snake Go matches (40 halves); match j has the items of seed j
  searchlab arena go mcts:time=1 random --games 10 -p size=9 --sgf games/
      Go games, each also written to games/ as an SGF file when it ends
  searchlab arena connect4 mcts:time=0.5 greedy --games 100 --workers 4 --ray
      the games as Ray tasks on a local Ray instance of 4 CPUs (--ray HOST:PORT or --ray auto:
      on that cluster, --workers games at a time); this process stores them, so it resumes

The same seed plays the same games (agents with a time budget vary with the machine's speed).
"""


def register(subparsers: Any) -> None:
    """Add ``arena`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "arena",
        help="a round-robin tournament between agents, stored in SQLite, rated by Elo",
        description=DESCRIPTION.format(plies=DEFAULT_OPENINGS_HELP),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="a registered game: tictactoe, connect4, othello, nim, ...")
    parser.add_argument("agents", nargs="+", metavar="SPEC", help="two or more agent specs")
    amount = parser.add_mutually_exclusive_group(required=True)
    amount.add_argument("--games", type=positive_int, metavar="N", help="games per pairing")
    amount.add_argument(
        "--matches",
        type=positive_int,
        metavar="M",
        help="whole matches per pairing (2 M games: two halves each, sides swapped), for a "
        "game with a match rule (snakego)",
    )
    parser.add_argument(
        "--workers",
        type=worker_count,
        default=1,
        metavar="K",
        help="games at a time: local processes, or Ray tasks with --ray (default 1)",
    )
    add_ray_argument(
        parser,
        "play the games as Ray tasks: alone, on a local Ray instance of --workers CPUs; "
        "with ADDRESS (host:port, or auto), on that cluster; the results still go to --db "
        "from this process, so a stopped run resumes (needs pip install 'searchlab[ray]')",
    )
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="FILE",
        help=f"SQLite file of games, created if missing (default ./{DEFAULT_DB}; "
        "':memory:' keeps nothing)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument(
        "--openings",
        type=int,
        default=None,
        metavar="K",
        help="start each pair of colour-swapped games from its own K random plies (default "
        f"{DEFAULT_OPENINGS_HELP}, fewer when the game cannot stay open that long; 0: every "
        "game from the initial position, and deterministic agents repeat their games)",
    )
    parser.add_argument(
        "--sprt",
        metavar="ELO0,ELO1",
        help="two agents only: stop when the SPRT decides whether the first is ELO1 (H1) "
        "or ELO0 (H0) Elo better; optionally ELO0,ELO1,ALPHA,BETA (default 0.05 each)",
    )
    parser.add_argument(
        "--move-time", type=float, metavar="S", help="seconds per move for every agent"
    )
    parser.add_argument(
        "--time",
        type=float,
        metavar="S",
        help="start no new game after S seconds (the games then running are finished and "
        "stored; run the command again to play the rest)",
    )
    add_param_argument(parser)
    parser.add_argument(
        "--sgf",
        metavar="DIR",
        help="Go: write each game finished in this run as an SGF file in DIR (created if "
        "missing): players, result, date",
    )
    add_json_argument(parser, "the standings as one JSON list")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check everything, then play the missing games and print the standings.

    SIGTERM raises :class:`~searchlab.core.interrupts.SignalReceived` while this runs (the
    tournament itself handles it, and SIGINT, without raising; see ``core/interrupts.py``),
    so that every stop is one line and exit code 128 + the signal.
    """
    from searchlab.core.interrupts import SignalReceived, StopSignals, exit_code

    try:
        with StopSignals((signal.SIGTERM,)) as sigterm, sigterm.raising():
            return _run(args)
    except SignalReceived as stopped:
        print(f"searchlab: interrupted ({stopped})", file=sys.stderr)
        return exit_code(stopped.signal_number)


def _run(args: argparse.Namespace) -> int:
    from searchlab.arena import ArenaStore, round_robin, run_tournament, standings
    from searchlab.arena.repeats import repetitions
    from searchlab.arena.runner import TournamentInterrupted
    from searchlab.arena.sprt import SPRT
    from searchlab.arena.stopping import StopRule
    from searchlab.core.interrupts import exit_code, signal_name

    game_params, specs = _check_agents(args)
    sprt = SPRT.parse(args.sprt) if args.sprt is not None else None
    stop = StopRule.for_tournament(specs, sprt=sprt, seconds=args.time, move_time=args.move_time)
    if args.openings is not None and args.openings < 0:
        raise InvalidParameterError(f"--openings must be >= 0 plies, got {args.openings}")
    if args.matches is not None:
        from searchlab.arena.match_rules import rule_of

        rule_of(args.game)  # a game without a match rule: one line
        if sprt is not None:
            raise InvalidParameterError("--sprt counts games: use it with --games, not --matches")
    games = args.games if args.matches is None else 2 * args.matches
    jobs = round_robin(
        args.game,
        specs,
        games,
        seed=args.seed,
        openings=args.openings,
        game_params=game_params,
        move_time=args.move_time,
    )
    game_id = jobs[0].game_id
    save_sgf = _sgf_writer(args, jobs, game_params)
    with ArenaStore.open(args.db) as store:
        if stop.sprt is not None:
            stop.add_all(store.records(game=game_id))
        keys = {job.key for job in jobs}
        todo = len(jobs) - len(store.keys() & keys)
        with _ray_pool(args, todo) as pool:
            try:
                with progress(todo, f"arena {game_id}") as advance:

                    def on_record(record: Any) -> None:
                        advance()
                        if save_sgf is not None:
                            save_sgf(record)
                        stop.add(record)

                    summary = run_tournament(
                        jobs,
                        store,
                        workers=args.workers,
                        pool=pool,
                        on_record=on_record,
                        should_stop=stop.should_stop,
                    )
            except TournamentInterrupted as stopped:
                done = len(store.keys() & keys)
                print(
                    f"searchlab: interrupted ({signal_name(stopped.signal_number)}): {done} of "
                    f"{len(jobs)} games stored in {args.db}; run the same command again to resume",
                    file=sys.stderr,
                )
                return exit_code(stopped.signal_number)
        records = store.records(game=game_id)
        table = standings(records)
        total = store.count(game=game_id)
        matches = store.matches(game=game_id) if args.matches is not None else []
    repeated = repetitions(record for record in records if record.key in keys)
    if repeated:
        shown = "; ".join(
            f"{row.first} vs {row.second}: {row.distinct} different games of {row.games}"
            for row in repeated[:3]
        )
        more = f" (and {len(repeated) - 3} more pairings)" if len(repeated) > 3 else ""
        print(
            f"searchlab: warning: games repeat move for move ({shown}{more}): the agents are "
            "deterministic; --openings K starts each game pair from K random plies",
            file=sys.stderr,
        )
    if summary.is_stopped and stop.is_timed_out:
        print(
            f"searchlab: time limit of {args.time:g} s reached: played {summary.played} of the "
            f"{summary.scheduled - summary.skipped} games left; run the same command again to "
            "play the rest",
            file=sys.stderr,
        )
    if summary.forfeits:
        print(
            f"searchlab: warning: {summary.forfeits} game(s) lost by an agent error or illegal "
            f"move; see the 'error' column of {args.db}",
            file=sys.stderr,
        )
    if args.matches is not None:
        _report_matches(args, game_id, matches, records, summary)
        return 0
    if args.json:
        sys.stdout.write(json.dumps([row.as_json() for row in table]) + "\n")
        if stop.sprt is not None:  # stdout holds the standings only
            print(stop.sprt.result.describe(stop.sprt.test), file=sys.stderr)
        return 0
    _print_table(table, title=f"{game_id}: {total} games in {args.db}")
    resumed = f", {summary.skipped} already stored" if summary.skipped else ""
    print(f"played {summary.played} of {summary.scheduled} scheduled games{resumed}")
    if stop.sprt is not None:
        wins, draws, losses = stop.sprt.counts
        print(f"{stop.sprt.agent} vs {stop.sprt.opponent}: +{wins} ={draws} -{losses}")
        print(stop.sprt.result.describe(stop.sprt.test))
    return 0


@contextlib.contextmanager
def _ray_pool(args: argparse.Namespace, todo: int) -> Iterator[Any]:
    """The Ray pool of ``--ray`` (``None`` without it, or with no game left to play), shut
    down on the way out; an address where no cluster answers is one line."""
    if args.ray is None or not todo:
        yield None
        return
    from searchlab.core.workers import RayPool

    address = None if args.ray == "local" else args.ray
    pool = RayPool(address, args.workers)
    try:
        yield pool
    finally:
        pool.close()


def _report_matches(
    args: argparse.Namespace, game_id: str, matches: list[Any], records: list[Any], summary: Any
) -> None:
    """The standings of whole matches: a match is won or lost (never drawn), rated by Elo as
    games are; beside it each agent's halves won and points over its halves."""
    from searchlab.arena import standings
    from searchlab.arena.matches import match_as_game, match_tallies

    halves = {record.key: record for record in records}
    as_games = [
        match_as_game(
            match, [halves[key] for key in (match.first_half, match.second_half) if key in halves]
        )
        for match in matches
    ]
    table = standings(as_games)
    tallies = match_tallies(matches)
    if args.json:
        rows = []
        for row in table:
            tally = tallies[row.agent]
            rows.append(
                {
                    **row.as_json(),
                    "matches": row.games,
                    "halves_won": tally.halves_won,
                    "points": tally.points,
                }
            )
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    columns = ("#", "agent", "matches", "W", "L", "%", "Elo", "±95%", "halves", "points", "s/move")
    cells = []
    for rank, row in enumerate(table, start=1):
        tally = tallies[row.agent]
        cells.append(
            [
                rank,
                row.agent,
                row.games,
                row.wins,
                row.losses,
                f"{row.wins / row.games:.0%}" if row.games else "-",
                f"{row.elo:+.0f}",
                f"{row.elo_ci:.0f}",
                f"{tally.halves_won}/{2 * tally.matches}",
                tally.points,
                f"{row.seconds_per_move:.3f}",
            ]
        )
    title = f"{game_id}: {len(matches)} matches ({2 * len(matches)} halves) in {args.db}"
    print_table(columns, cells, title=title, left=["agent"])
    reasons: dict[str, int] = {}
    for match in matches:
        reasons[match.reason] = reasons.get(match.reason, 0) + 1
    if reasons:
        print("decided by: " + ", ".join(f"{why} {n}" for why, n in reasons.items()))
    resumed = f", {summary.skipped} already stored" if summary.skipped else ""
    print(f"played {summary.played} of {summary.scheduled} scheduled halves{resumed}")


def _sgf_writer(
    args: argparse.Namespace, jobs: list[Any], game_params: dict[str, Any]
) -> Any | None:
    """With ``--sgf DIR`` (Go only): a function that writes a finished game's record there."""
    if args.sgf is None:
        return None
    from searchlab.arena.go_sgf import arena_sgf
    from searchlab.cli._go_play import is_go, save_text, sgf_folder
    from searchlab.games import make

    if not is_go(make(args.game, **game_params)):
        raise InvalidParameterError(f"--sgf writes Go games: {args.game!r} is not Go")
    folder = sgf_folder(args.sgf)
    by_key = {job.key: job for job in jobs}

    def save(record: Any) -> None:
        name, text = arena_sgf(record, by_key[record.key])
        save_text(folder / name, text)

    return save


def _check_agents(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """Build the game and every agent once, so a bad spec fails before anything runs; an
    agent that runs an external engine starts it once and shakes hands with it
    (:func:`~searchlab.agents.match.check_ready`), so a broken engine is one line before any
    game is played or stored."""
    from searchlab.agents import make_agent, parse_spec
    from searchlab.agents.match import check_ready, close_agent
    from searchlab.cli._common import parse_params
    from searchlab.core.game import check_capabilities
    from searchlab.games import make

    for text in args.param:
        if text.partition("=")[2].startswith("@"):
            raise InvalidParameterError(
                f"-p {text}: the arena takes no parameter from a file (each game's parameters "
                "are part of its stored name); Snake Go's items come from -p seed=S (pair j "
                "of every pairing plays the items of seed S + j)"
            )
    params = parse_params(args.param)
    game = make(args.game, **params)
    check_capabilities(game, "the arena")
    if len(args.agents) < 2:
        raise InvalidParameterError(
            f"a tournament needs at least two agent specs, got {len(args.agents)}"
        )
    if args.move_time is not None and not args.move_time > 0:
        raise InvalidParameterError(f"--move-time must be > 0 seconds, got {args.move_time}")
    specs = []
    for text in args.agents:
        spec = parse_spec(text)
        if spec.kind == "human":
            raise InvalidParameterError(
                f"agent spec {text!r}: the arena plays agents against each other; "
                "to play yourself use: searchlab play"
            )
        agent = make_agent(spec, game, seed=0)
        try:
            check_ready(agent, game)
        finally:
            close_agent(agent)
        specs.append(str(spec))
    return params, specs


def _print_table(rows: list[Any], *, title: str) -> None:
    """The standings (drawn by rich when installed, plain aligned text otherwise)."""
    columns = ("#", "agent", "games", "W", "D", "L", "score", "%", "Elo", "±95%", "s/move")
    cells = []
    for rank, row in enumerate(rows, start=1):
        share = row.score / row.games if row.games else 0.0
        cells.append(
            [
                rank,
                row.agent,
                row.games,
                row.wins,
                row.draws,
                row.losses,
                f"{row.score:g}",
                f"{share:.0%}",
                f"{row.elo:+.0f}",
                f"{row.elo_ci:.0f}",
                f"{row.seconds_per_move:.3f}",
            ]
        )
    print_table(columns, cells, title=title, left=["agent"])
