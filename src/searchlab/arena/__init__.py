"""The arena: tournaments between agents, stored in SQLite, rated by Elo.

One concept per module: :mod:`~searchlab.arena.schedule` (the games to play, as data, with
their random openings), :mod:`~searchlab.arena.worker` (play one game: the unit a worker
process, or a Ray task, runs; the pools are :mod:`searchlab.core.workers`),
:mod:`~searchlab.arena.store` (the SQLite file every finished game goes to),
:mod:`~searchlab.arena.runner` (hand the jobs to workers, store results, resume, stop),
:mod:`~searchlab.arena.repeats` (games that repeat move for move),
:mod:`~searchlab.arena.match_rules` and :mod:`~searchlab.arena.matches` (whole matches of two
halves, sides swapped, decided by a game's own rule: Snake Go),
:mod:`~searchlab.arena.elo` (ratings and confidence intervals), :mod:`~searchlab.arena.sprt`
(the sequential probability ratio test), :mod:`~searchlab.arena.stopping` (when a tournament
starts no new game: the SPRT has decided, or its time is up) and :mod:`~searchlab.arena.standings`
(the table of results per agent).

>>> jobs = round_robin("tictactoe", ["random", "greedy"], games_per_pairing=4, seed=1)
>>> with ArenaStore.open(":memory:") as store:
...     summary = run_tournament(jobs, store)
...     table = standings(store.records(game=jobs[0].game_id))
>>> summary.played, sum(row.games for row in table)
(4, 8)
"""

from searchlab.arena.elo import EloRatings, MatchScore, elo_ratings, match_score
from searchlab.arena.matches import MatchRecord, decide_records, match_as_game, match_tallies
from searchlab.arena.repeats import Repetition, repetitions
from searchlab.arena.runner import (
    ArenaWorkerError,
    TournamentInterrupted,
    TournamentSummary,
    run_tournament,
)
from searchlab.arena.schedule import GameJob, round_robin
from searchlab.arena.sprt import SPRT, SPRTResult
from searchlab.arena.standings import Standing, standings
from searchlab.arena.stopping import StopRule
from searchlab.arena.store import ArenaDatabaseError, ArenaStore
from searchlab.arena.worker import GameRecord, play_game

__all__ = [
    "SPRT",
    "ArenaDatabaseError",
    "ArenaStore",
    "ArenaWorkerError",
    "EloRatings",
    "GameJob",
    "GameRecord",
    "MatchRecord",
    "MatchScore",
    "Repetition",
    "SPRTResult",
    "Standing",
    "StopRule",
    "TournamentInterrupted",
    "TournamentSummary",
    "decide_records",
    "elo_ratings",
    "match_as_game",
    "match_score",
    "match_tallies",
    "play_game",
    "repetitions",
    "round_robin",
    "run_tournament",
    "standings",
]
