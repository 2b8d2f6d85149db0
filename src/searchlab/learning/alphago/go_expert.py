"""Expert games that no one here wrote: GNU Go plays Go against itself, one SGF file a game.

:func:`generate_expert_games` fills a folder with ``games`` games of Go on a ``size`` x ``size``
board (9 by default) played by GNU Go (an outside program: ``gnugo --mode gtp``, at ``level``,
with ``komi``), for the AlphaGo pipeline's supervised stage or for anyone's use; read them back
with :func:`~searchlab.learning.alphago.expert_games.load_expert_games`.

**One game.** Game number ``n`` (0, 1, 2, ...) is played from a seeded plan
(:func:`game_plan`): a numpy generator seeded with ``(seed, n)`` draws ``opening`` uniformly
random legal moves (no pass) that start the game, and a ``--seed`` for each of the two GNU Go
processes (one plays black, one white, each started afresh for the game). GNU Go then plays both
sides to the end through the one match loop (:func:`~searchlab.agents.match.play_game`), every
move checked by searchlab's Go rules (a move GNU Go allows but positional superko forbids is a
pass; see :mod:`~searchlab.agents.gtp_agent`). The result is GNU Go's own count
(``final_score`` under ``--chinese-rules``: area scoring, as ``RU[Chinese]`` says, dead stones
removed as GNU Go judges them), or ``B+R`` / ``W+R`` when it
resigned. GNU Go is deterministic for a given ``--seed``, so game ``n`` is the same game
whatever the number of workers; the random opening is what makes the games differ (GNU Go's own
randomness varies little between seeds).

**Stored once.** A game is written as ``go9-KEY.sgf``, KEY the first 16 hex digits of
:func:`~searchlab.learning.alphago.expert_games.game_key` (SHA-256 of the size and the moves), by an
atomic write (:mod:`~searchlab.core.atomic_file`: a kill at any moment leaves whole files
only). A game whose file exists already is a duplicate: refused and counted. The root records
the players (``PB``/``PW``: GNU Go and its level), the result (``RE``), the rules (``RU``), and
the source (``SO``: the options and the game number), which is what resuming reads.

**Resumable.** Every ``*.sgf`` of the folder counts towards ``games``, and is read first (a
malformed or foreign-size record is one line naming it, and nothing is written). A run starts
the game numbers not yet stored by a run with the same options (``SO``), until the folder holds
``games`` games; so a rerun after a kill or Ctrl-C goes on where it stopped, and a rerun of a
finished folder plays nothing. A game interrupted half-way is played again from its start.

**Parallel.** ``workers`` games are played at once (threads, each driving its game's two GNU Go
processes, of which one thinks at a time; the work is GNU Go's). ``should_stop`` (checked every
0.2 seconds; the command line's Ctrl-C) stops the run: the GNU Go processes are killed, the
games finished are kept, and the report says ``stopped``. A GNU Go that is missing, refuses its
options or dies mid-game is one line (:class:`~searchlab.agents.gtp_client.EngineError`, saying
how many games are kept); the other games in progress are stopped and nothing stored is lost.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> missing = ExpertOptions(games=1, gnugo="no-such-gnugo")
>>> generate_expert_games(missing, folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.agents.gtp_client.EngineNotFound: GTP engine 'no-such-gnugo ...': no program ...
>>> game_plan(ExpertOptions(games=1), 0) == game_plan(ExpertOptions(games=1, workers=3), 0)
True
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.agents.gtp_agent import GtpAgent
from searchlab.agents.gtp_client import DEFAULT_TIMEOUT, EngineError
from searchlab.agents.match import play_game
from searchlab.core.atomic_file import write_atomically
from searchlab.core.checks import check_integer, check_number
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.go import Go
from searchlab.domains.games.go.sgf import write_sgf
from searchlab.domains.games.record import GO_RULES
from searchlab.learning.alphago.expert_games import game_key, read_expert_game

__all__ = [
    "EngineSet",
    "ExpertOptions",
    "ExpertReport",
    "GamePlan",
    "expert_file_name",
    "game_plan",
    "generate_expert_games",
    "play_expert_game",
]

_OWNER = "searchlab expert go"
_POLL_SECONDS = 0.2


@dataclass(frozen=True, slots=True)
class ExpertOptions:
    """What to generate (each checked once, in ``__post_init__``: one line when out of range).

    Attributes:
        games: how many games the folder should hold.
        level: GNU Go's ``--level`` (0..10; 10 its strongest usual level).
        komi: points given to white (a multiple of 0.5).
        size: the board size (5..19).
        opening: random legal moves that start every game (0: GNU Go plays from the empty
            board, and games differ only as much as GNU Go's seed makes them).
        seed: the seed of the game plans.
        workers: games played at once.
        gnugo: GNU Go's program (searched on ``PATH``, then in ``/usr/games``).
        timeout: seconds GNU Go may take to answer one command.
    """

    games: int
    level: int = 1
    komi: float = 7.5
    size: int = 9
    opening: int = 4
    seed: int = 0
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    gnugo: str = "gnugo"
    timeout: float = DEFAULT_TIMEOUT

    def __post_init__(self) -> None:
        check_integer(self.games, "games", owner=_OWNER, low=1)
        check_integer(self.level, "level", owner=_OWNER, low=0)
        if self.level > 10:
            raise InvalidParameterError(f"{_OWNER}: level must be 0..10, got {self.level}")
        check_integer(self.opening, "opening", owner=_OWNER, low=0)
        check_integer(self.seed, "seed", owner=_OWNER, low=0)
        check_integer(self.workers, "workers", owner=_OWNER, low=1)
        check_number(self.timeout, "timeout", owner=_OWNER, low=0.0, open_low=True)
        game = self.game()  # the size and the komi checked by the rules themselves
        if self.opening >= game.size * game.size // 2:
            raise InvalidParameterError(
                f"{_OWNER}: opening must be fewer than half the board's points "
                f"({game.size * game.size // 2}), got {self.opening}"
            )

    def game(self) -> Go:
        """The rules the games are played by."""
        return Go(self.size, komi=self.komi)

    @property
    def source(self) -> str:
        """The ``SO`` text of this run's games, without the game number: what a rerun with the
        same options recognises as its own."""
        return (
            f"searchlab expert go: gnugo level={self.level} komi={self.komi:g} "
            f"size={self.size} opening={self.opening} seed={self.seed}"
        )


@dataclass(frozen=True, slots=True)
class GamePlan:
    """Game ``number``'s plan: the ``opening`` actions, and each colour's GNU Go ``--seed``."""

    number: int
    opening: tuple[int, ...]
    seeds: tuple[int, int]


def game_plan(options: ExpertOptions, number: int) -> GamePlan:
    """The plan of game ``number`` (see the module docstring): the same for the same options
    and number, whatever the workers.

    >>> plan = game_plan(ExpertOptions(games=1, opening=3, seed=5), 7)
    >>> len(plan.opening), plan == game_plan(ExpertOptions(games=1, opening=3, seed=5), 7)
    (3, True)
    """
    rng = np.random.default_rng([options.seed, number])
    state = options.game().initial_state()
    pass_action = state.game.pass_action
    opening = []
    for _ in range(options.opening):
        choices = [action for action in state.legal_actions() if action != pass_action]
        action = int(choices[int(rng.integers(len(choices)))])
        opening.append(action)
        state = state.apply(action)
    black, white = (int(value) for value in rng.integers(1, 2**31 - 1, size=2))
    return GamePlan(number, tuple(opening), (black, white))


def expert_file_name(size: int, key: str) -> str:
    """The file a game with :func:`~searchlab.learning.alphago.expert_games.game_key` ``key`` is
    stored in.

    >>> expert_file_name(9, "0123456789abcdef0123")
    'go9-0123456789abcdef.sgf'
    """
    return f"go{size}-{key[:16]}.sgf"


def _command(options: ExpertOptions, seed: int) -> str:
    return f"{options.gnugo} --mode gtp --chinese-rules --level {options.level} --seed {seed}"


class EngineSet:
    """The GNU Go agents of the games in progress, which another thread may kill (thread-safe)."""

    def __init__(self) -> None:
        self._agents: set[GtpAgent] = set()
        self._lock = threading.Lock()

    def add(self, agent: GtpAgent) -> None:
        """Watch ``agent`` (its game has started)."""
        with self._lock:
            self._agents.add(agent)

    def discard(self, agent: GtpAgent) -> None:
        """Stop watching ``agent`` (its game is over)."""
        with self._lock:
            self._agents.discard(agent)

    def kill(self) -> None:
        """Kill the GNU Go process of every watched agent (its game then fails at once)."""
        with self._lock:
            pids = [agent.engine.pid for agent in self._agents]
        for pid in pids:
            if pid is not None:
                with suppress(OSError):  # already gone
                    os.killpg(pid, signal.SIGKILL)  # its own session: the engine's group


def play_expert_game(
    options: ExpertOptions, plan: GamePlan, *, live: EngineSet | None = None
) -> tuple[str, str]:
    """Play ``plan``'s game and return its file name and SGF text. ``live`` (a set the caller
    watches) holds the game's two GNU Go agents while it is played, so that another thread may
    kill their processes. A GNU Go that fails raises its
    :class:`~searchlab.agents.gtp_client.EngineError` (one line)."""
    game = options.game()
    agents = [
        GtpAgent(f"GNU Go level {options.level}", _command(options, seed), timeout=options.timeout)
        for seed in plan.seeds
    ]
    watched = live if live is not None else EngineSet()
    for agent in agents:
        watched.add(agent)
    try:
        played = play_game(game, agents, opening=plan.opening, strict=True)
        winner = "B" if played.result == "1-0" else "W"
        if played.termination == "resign":
            result = f"{winner}+R"
        else:  # GNU Go's count: the last mover's engine has the whole game on its board
            mover = played.moves[-1].mover if played.moves else 0
            result = agents[mover].engine.send("final_score").strip()
    finally:
        for agent in agents:
            watched.discard(agent)
            agent.close()
    state: Any = played.state
    notation = [*played.opening, *(move.notation for move in played.moves)]
    metadata = {
        "PB": agents[0].name,
        "PW": agents[1].name,
        "RE": result,
        "RU": GO_RULES,
        "SO": f"{options.source} game={plan.number}",
    }
    text = write_sgf(state, metadata=metadata)
    return expert_file_name(options.size, game_key(options.size, notation)), text


@dataclass(frozen=True, slots=True)
class ExpertReport:
    """What a run did: ``stored`` (games in the folder now), ``added`` (written by this run),
    ``duplicates`` (games refused as already stored), ``stopped`` (``should_stop`` said so
    before the folder was full)."""

    stored: int
    added: int
    duplicates: int
    stopped: bool = False


_SOURCE_GAME = re.compile(r"^(?P<source>.*) game=(?P<number>\d+)$")


def _scan(options: ExpertOptions, folder: Path) -> tuple[set[str], set[int]]:
    """The folder's SGF file names and the game numbers stored by runs with these options;
    every record is read (a bad one raises its one line)."""
    names: set[str] = set()
    numbers: set[int] = set()
    for path in sorted(folder.glob("*.sgf")):
        record = read_expert_game(path, size=options.size)
        names.add(path.name)
        match = _SOURCE_GAME.match(record.record.metadata.get("SO", ""))
        if match is not None and match["source"] == options.source:
            numbers.add(int(match["number"]))
    return names, numbers


def generate_expert_games(
    options: ExpertOptions,
    folder: str | Path,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[ExpertReport], None] | None = None,
) -> ExpertReport:
    """Fill ``folder`` (made if missing) with ``options.games`` games (see the module
    docstring). ``on_progress`` is called with the report so far when the folder has been read
    and after each game played."""
    where = Path(folder)
    where.mkdir(parents=True, exist_ok=True)
    names, done = _scan(options, where)
    added = duplicates = 0

    def report(stopped: bool = False) -> ExpertReport:
        return ExpertReport(len(names), added, duplicates, stopped)

    if on_progress is not None:
        on_progress(report())
    if len(names) >= options.games:
        return report()
    GtpAgent("gnugo", _command(options, 1), timeout=options.timeout).check_ready(options.game())
    live = EngineSet()
    numbers = (number for number in range(2**62) if number not in done)
    running: set[Future[tuple[str, str]]] = set()
    pool = ThreadPoolExecutor(max_workers=options.workers, thread_name_prefix="gnugo")
    try:
        while True:
            while len(running) < min(options.workers, options.games - len(names)):
                plan = game_plan(options, next(numbers))
                running.add(pool.submit(play_expert_game, options, plan, live=live))
            if not running:
                return report()
            finished, running = wait(running, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
            failures = [future.exception() for future in finished]
            for future in finished:
                if future.exception() is not None:
                    continue
                name, text = future.result()
                if name in names:
                    duplicates += 1
                    if duplicates > options.games + 10:
                        raise InvalidParameterError(
                            f"{_OWNER}: {duplicates} games were already stored: GNU Go repeats "
                            "itself; give more random opening moves (--opening) or another --seed"
                        )
                else:
                    write_atomically(where / name, text.encode())
                    names.add(name)
                    added += 1
                if on_progress is not None:
                    on_progress(report())
            for failure in failures:  # every finished game stored first, then the failure
                if failure is not None:
                    raise failure
            if should_stop is not None and should_stop() and len(names) < options.games:
                return report(stopped=True)
    except EngineError as error:
        raise EngineError(
            f"{error} ({len(names)} games stored in {where}, kept; run again to go on)"
        ) from None
    finally:
        while running:  # stop the games in progress: kill their engines until all are over
            live.kill()
            _, running = wait(running, timeout=_POLL_SECONDS)
        pool.shutdown(wait=True, cancel_futures=True)
