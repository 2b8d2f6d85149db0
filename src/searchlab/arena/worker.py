"""Play one game of a tournament: :func:`play_game`, the unit of work a worker runs.

``play_game(job) -> GameRecord`` is a pure top-level function of picklable values: it builds
the game and two fresh agents from the job's specs inside the worker (so no agent keeps
anything from one game to the next, and nothing unpicklable crosses a process boundary), plays
the opening and then the agents' moves through the one match loop
(:func:`searchlab.agents.match.play_game`, which the training loop's evaluation games use too),
and returns what happened. The same function runs
in-process, in a ``concurrent.futures.ProcessPoolExecutor`` worker, or as a Ray task
(``ray.remote(play_game)``): the parent alone writes the results to the store.

An agent that resigns (raises :class:`~searchlab.agents.human.Resign`: a person, or an external
engine answering ``resign``) loses the game with ``termination == "resign"``. An agent that
raises anything else (a crashed, hung or nonsense-answering external engine among them), or
answers an illegal action, loses the game (``termination`` says which, ``error`` says what);
the other agent is not penalised for it. Agents with a ``close()`` (those that run an external
engine) are closed when the game ends, however it ends, so no engine process outlives its game.

>>> from searchlab.arena.schedule import round_robin
>>> job = round_robin("tictactoe", ["alphabeta:depth=9", "random"], 1, seed=3)[0]
>>> record = play_game(job)
>>> record.first, record.result in ("1-0", "1/2-1/2"), record.termination
('alphabeta:depth=9', True, 'end')
>>> len(record.opening), len(record.moves) == len(record.move_times) == record.plies - 2
(2, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from searchlab.agents import Agent, make_agent, match
from searchlab.agents.match import RESULTS
from searchlab.arena.match_rules import MATCH_RULES
from searchlab.arena.schedule import GameJob, derive_seed
from searchlab.core.limits import Limits
from searchlab.domains.games.own_game import own_game_failure, raised_in_game

__all__ = ["RESULTS", "GameRecord", "play_game"]

_AGENT_SEED_MASK = 2**31 - 1  # the agents draw per-move seeds below 2**31 themselves


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game.

    Attributes:
        key: the job's key (unique in the store).
        game: the game and its parameters (``"nim(piles=3,4,5)"``).
        first: the label of the agent that moved first (player 0).
        second: the label of the agent that moved second.
        seed: the job's seed.
        opening: the opening's moves in the game's notation (played by nobody).
        moves: the agents' moves in notation, in order.
        movers: the player (0 or 1) who made each of ``moves``.
        move_times: seconds each of ``moves`` took (``perf_counter`` around ``act``).
        result: ``"1-0"`` (first won), ``"0-1"`` or ``"1/2-1/2"``.
        termination: ``"end"`` (the rules ended the game), ``"resign"`` (the agent to move
            resigned), ``"illegal move"`` or ``"error"`` (the agent to move forfeited).
        error: what went wrong for a forfeit (who resigned, for a resignation), else ``None``.
        game_seed: the game's ``seed`` for this game (games that take one), else ``None``.
        match_key: the match this game is a half of (games with a match rule), else ``None``.
        half: 1 or 2 for a half of a match, else 0.
        final: the half as its match rule summarises it (JSON text), else ``None``.
    """

    key: str
    game: str
    first: str
    second: str
    seed: int
    opening: tuple[str, ...]
    moves: tuple[str, ...]
    movers: tuple[int, ...]
    move_times: tuple[float, ...]
    result: str
    termination: str
    error: str | None = None
    game_seed: int | None = None
    match_key: str | None = None
    half: int = 0
    final: str | None = None

    @property
    def plies(self) -> int:
        """Moves played, the opening included."""
        return len(self.opening) + len(self.moves)

    @property
    def first_score(self) -> float:
        """The first player's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return RESULTS[self.result]


def play_game(job: GameJob) -> GameRecord:
    """Play ``job`` to the end and return its record (see the module docstring)."""
    from searchlab.games import make

    params = dict(job.game_params)
    if job.game_seed is not None:
        params["seed"] = job.game_seed
    game = make(job.game, **params)
    rule = MATCH_RULES.get(job.game) if job.match_key is not None else None
    agents = [
        make_agent(spec, game, seed=derive_seed(job.seed, side) & _AGENT_SEED_MASK)
        for spec, side in ((job.first, "first"), (job.second, "second"))
    ]
    try:
        return _play(job, game, agents, rule)
    except Exception as error:
        if raised_in_game(error, job.game):  # one line, made here: a pipe drops the traceback
            raise own_game_failure(error, job.game, "arena") from None
        raise
    finally:
        for agent in agents:
            match.close_agent(agent)


def _play(job: GameJob, game: Any, agents: list[Agent], rule: Any) -> GameRecord:
    limits = Limits(time=job.move_time) if job.move_time is not None else None
    played = match.play_game(game, agents, opening=job.opening, limits=limits)
    return GameRecord(
        job.key,
        job.game_id,
        job.first_label,
        job.second_label,
        job.seed,
        played.opening,
        tuple(move.notation for move in played.moves),
        tuple(move.mover for move in played.moves),
        tuple(move.seconds for move in played.moves),
        played.result,
        played.termination,
        played.error,
        job.game_seed,
        job.match_key,
        job.half,
        None if rule is None else rule.summarize(played.state, played.forfeit),
    )
