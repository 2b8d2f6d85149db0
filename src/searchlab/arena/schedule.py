"""The games of a tournament, as data: one :class:`GameJob` per game to play.

A *round robin* pairs every two agents once; each pairing plays ``games_per_pairing`` games,
the two agents taking turns to move first (game 0: the first of the pair in sorted order moves
first, game 1: the other one, ...). Jobs are listed game number by game number across the
pairings, so a tournament stopped half-way has played every pairing about equally.

Each job has a *key* that names it completely (game, the pair, game number, master seed,
opening length, time per move): the store keeps one game per key, which is how a rerun resumes
without playing a game twice. The job's seed is derived from the master seed and its key, so
the same command plays the same games, in any order, on any number of workers.

*Randomised openings* (``openings=K``): each game starts after K uniformly random legal plies,
drawn from a generator seeded by the master seed and the game pair number, so both games of a
colour-swapped pair (and every pairing) start from the same position, and each pair from its
own: an opening that another pair already has is drawn again (up to 50 times, so a small game
with few openings repeats them only once they run out). Openings that finish the game are
drawn again too.

By default (``openings=None``) every pair of games starts from its own
:data:`DEFAULT_OPENING_PLIES` random plies (fewer only when the game cannot stay unfinished that
long). Without them two deterministic agents (alpha-beta; any agent given a fixed ``seed=``)
would play the same two games over and over, and their ratings would rest on two games.
``openings=0`` starts every game from the initial position.

*Games with a seed of their own.* A game that takes a ``seed`` parameter draws its own chance
from it before play (Snake Go: the item list). Each colour-swapped pair ``j`` then gets
``seed = base + j`` (``base``: the ``seed`` in ``game_params``, default the game's), so both
games of a pair are the same deal with the colours swapped and every pair has its own; the
stored game id keeps the base. These games vary without random plies, so their default is
no opening (``openings=0``); an explicit ``openings=K`` still adds K random plies.

*Matches.* For a game with a match rule (:mod:`~searchlab.arena.match_rules`), the pair is a
match: game ``2j`` is the first half of match ``j``, game ``2j + 1`` the second (the jobs'
``match_key`` and ``half``).

>>> jobs = round_robin("tictactoe", ["random", "greedy", "alphabeta:depth=2"], 2, seed=7)
>>> len(jobs), [(job.first, job.second) for job in jobs[:3]]
(6, [('greedy', 'random'), ('alphabeta:depth=2', 'random'), ('alphabeta:depth=2', 'greedy')])
>>> [(job.first, job.second) for job in jobs[3:]]
[('random', 'greedy'), ('random', 'alphabeta:depth=2'), ('greedy', 'alphabeta:depth=2')]
>>> jobs[0].key
'tictactoe|greedy vs random|seed=7|openings=2|move-time=none|game 0'
>>> jobs[0].opening == jobs[3].opening != ()  # game 0 and game 1 of a pairing: one opening
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from searchlab.agents import parse_spec
from searchlab.arena.match_rules import has_match_rule, match_key
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game

__all__ = [
    "DEFAULT_OPENING_PLIES",
    "GameJob",
    "agent_label",
    "canonical_spec",
    "derive_seed",
    "game_id",
    "game_seed_base",
    "pairings",
    "random_opening",
    "round_robin",
]

_OPENING_TRIES = 1000
_DISTINCT_TRIES = 50  # draws of a pair's opening before one already used is accepted

DEFAULT_OPENING_PLIES = 2
"""Random plies before each pair of games when no ``openings`` is given."""


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: everything a worker needs, and nothing that cannot be pickled.

    Attributes:
        game: the registered game name (``"connect4"``).
        game_params: the game's parameters as sorted ``(name, value)`` pairs.
        first: the agent spec that moves first (player 0).
        second: the agent spec that moves second.
        pairing: the number of the pairing in its schedule (for display).
        index: the game's number within its pairing, from 0.
        seed: the game's seed; both agents' seeds are derived from it.
        opening: the actions played before the agents take over.
        move_time: seconds per move given to both agents (``Limits(time=...)``), or ``None``
            for each agent's own budget.
        key: the job's identity in the store (see the module docstring).
        game_seed: the game's ``seed`` parameter for this game, for a game that takes one
            (its own chance drawn before play, such as Snake Go's items): the base seed plus
            the number of the colour-swapped pair, so both games of a pair get the same;
            ``None`` for other games.
        match_key: for a game played in matches (a match rule, see
            :mod:`~searchlab.arena.match_rules`): the match this game is a half of, else
            ``None``.
        half: 1 or 2, the half of that match; 0 for a game that is not a half.
    """

    game: str
    game_params: tuple[tuple[str, Any], ...]
    first: str
    second: str
    pairing: int
    index: int
    seed: int
    opening: tuple[int, ...]
    move_time: float | None
    key: str
    game_seed: int | None = None
    match_key: str | None = None
    half: int = 0

    @property
    def game_id(self) -> str:
        """The game and its parameters as stored: ``"nim(piles=3,4,5)"``."""
        return game_id(self.game, dict(self.game_params))

    @property
    def first_label(self) -> str:
        """The name the first agent is rated under."""
        return agent_label(self.first, self.move_time)

    @property
    def second_label(self) -> str:
        """The name the second agent is rated under."""
        return agent_label(self.second, self.move_time)


def derive_seed(*parts: object) -> int:
    """A seed in ``[0, 2**63)`` derived from ``parts`` (SHA-256 of their text): stable across
    runs, machines and Python versions, unlike ``hash``.

    >>> derive_seed(0, "tictactoe") == derive_seed(0, "tictactoe") != derive_seed(1, "tictactoe")
    True
    """
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def canonical_spec(text: str) -> str:
    """The spec as the arena records it (parsed and printed again: no stray spaces).

    >>> canonical_spec(" mcts: simulations=200 , c=0.5")
    'mcts:simulations=200,c=0.5'
    """
    return str(parse_spec(text))


def agent_label(spec: str, move_time: float | None) -> str:
    """The name an agent is stored and rated under: its spec, plus ``@Ts`` when the arena
    overrides its budget with ``T`` seconds per move (a different player).

    >>> agent_label("mcts:time=1", None), agent_label("mcts:time=1", 0.25)
    ('mcts:time=1', 'mcts:time=1@0.25s')
    """
    return spec if move_time is None else f"{spec}@{move_time:g}s"


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(_format_value(item) for item in value)
    return str(value)


def game_id(name: str, params: dict[str, Any] | None = None) -> str:
    """The game and its parameters as one string (parameters sorted by name).

    >>> game_id("tictactoe"), game_id("nim", {"piles": (3, 4, 5), "misere": True})
    ('tictactoe', 'nim(misere=true,piles=3,4,5)')
    """
    if not params:
        return name
    inner = ",".join(f"{key}={_format_value(params[key])}" for key in sorted(params))
    return f"{name}({inner})"


def random_opening(game: Game, plies: int, rng: np.random.Generator) -> tuple[int, ...]:
    """``plies`` uniformly random legal actions from the initial state that leave the game
    unfinished; drawn again (up to 1000 times) when a line ends the game early.

    >>> from searchlab.games import make
    >>> len(random_opening(make("connect4"), 6, np.random.default_rng(0)))
    6
    """
    if plies == 0:
        return ()
    for _ in range(_OPENING_TRIES):
        state = game.initial_state()
        actions: list[int] = []
        while len(actions) < plies and not state.is_terminal():
            legal = list(state.legal_actions())
            action = legal[int(rng.integers(len(legal)))]
            actions.append(action)
            state = state.apply(action)
        if not state.is_terminal():
            return tuple(actions)
    raise InvalidParameterError(
        f"openings={plies}: no random opening of {plies} plies left {game.info.name} unfinished "
        f"in {_OPENING_TRIES} tries; use fewer plies"
    )


def round_robin(
    game: str,
    specs: Sequence[str],
    games_per_pairing: int,
    *,
    seed: int = 0,
    openings: int | None = None,
    game_params: dict[str, Any] | None = None,
    move_time: float | None = None,
) -> list[GameJob]:
    """Every pairing of ``specs`` playing ``games_per_pairing`` games, colours alternating.

    ``openings``: random plies before each pair of colour-swapped games; ``None`` (the
    default) for :data:`DEFAULT_OPENING_PLIES`, or fewer when the game cannot stay open that
    long (the jobs' keys name the number used).

    Raises ``InvalidParameterError`` for fewer than two distinct specs, a spec given twice, a
    non-positive game count, negative openings or a non-positive ``move_time``.
    """
    labels = [canonical_spec(spec) for spec in specs]
    for spec in labels:
        if labels.count(spec) > 1:
            raise InvalidParameterError(
                f"agent spec {spec!r} given twice; every agent of a tournament needs its own "
                f"name (add a parameter, e.g. {spec.split(':')[0]}:seed=1)"
            )
    if len(labels) < 2:
        raise InvalidParameterError(f"a tournament needs at least two agents, got {len(labels)}")
    if games_per_pairing <= 0:
        raise InvalidParameterError(f"games per pairing must be > 0, got {games_per_pairing}")
    if openings is not None and openings < 0:
        raise InvalidParameterError(f"openings must be >= 0 plies, got {openings}")
    if move_time is not None and not move_time > 0:
        raise InvalidParameterError(f"move time must be > 0 seconds, got {move_time}")
    params = dict(game_params or {})
    gid = game_id(game, params)
    pairs = [tuple(sorted(pair)) for pair in combinations(labels, 2)]
    base = game_seed_base(game, params)
    if openings is None and base is not None:
        openings = 0  # the game's own seed varies the games: no random plies needed
    openings, openings_by_round = _openings(game, params, gid, seed, openings, games_per_pairing)
    matches = has_match_rule(game)
    timing = "none" if move_time is None else f"{move_time:g}"
    jobs = []
    for index in range(games_per_pairing):
        for pairing, (a, b) in enumerate(pairs):
            first, second = (a, b) if index % 2 == 0 else (b, a)
            key = (
                f"{gid}|{a} vs {b}|seed={seed}|openings={openings}|move-time={timing}|game {index}"
            )
            jobs.append(
                GameJob(
                    game=game,
                    game_params=tuple(sorted(params.items())),
                    first=first,
                    second=second,
                    pairing=pairing,
                    index=index,
                    seed=derive_seed(seed, key),
                    opening=openings_by_round[index // 2],
                    move_time=move_time,
                    key=key,
                    game_seed=None if base is None else base + index // 2,
                    match_key=match_key(key) if matches else None,
                    half=index % 2 + 1 if matches else 0,
                )
            )
    return jobs


def game_seed_base(game: str, params: dict[str, Any]) -> int | None:
    """For a game that takes a ``seed`` parameter (its own chance, drawn before play from
    it: Snake Go's item list), the seed of the first colour-swapped pair: the ``seed`` given
    in ``params``, else the game's default (0 when it has none); pair ``j`` plays with
    ``seed = base + j``. ``None`` for a game without a ``seed`` parameter.

    >>> game_seed_base("snakego", {"seed": 40}), game_seed_base("snakego", {})
    (40, 0)
    >>> game_seed_base("tictactoe", {}) is None
    True
    """
    from searchlab.domains.games.registry import game_parameters

    if "seed" not in game_parameters(game):
        return None
    default = game_parameters(game)["seed"]
    value = params.get("seed", default if isinstance(default, int) else 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidParameterError(f"{game}: seed must be a whole number >= 0, got {value!r}")
    return value


def _openings(
    game: str, params: dict[str, Any], gid: str, seed: int, plies: int | None, games: int
) -> tuple[int, list[tuple[int, ...]]]:
    """One opening per colour-swapped pair of games (the same for every pairing), and the
    number of plies used (``None``: the default, or fewer when the game ends sooner)."""
    rounds = (games + 1) // 2
    if plies == 0:
        return 0, [()] * rounds
    from searchlab.games import make

    rules = make(game, **params)
    if plies is None:
        plies = _default_plies(rules, gid, seed)
        if plies == 0:
            return 0, [()] * rounds
    openings: list[tuple[int, ...]] = []
    for r in range(rounds):
        for attempt in range(_DISTINCT_TRIES):  # another pair's opening: draw again
            parts = (seed, gid, plies, r) if attempt == 0 else (seed, gid, plies, r, attempt)
            opening = random_opening(rules, plies, np.random.default_rng(derive_seed(*parts)))
            if opening not in openings:
                break
        openings.append(opening)
    return plies, openings


def _default_plies(rules: Game, gid: str, seed: int) -> int:
    """:data:`DEFAULT_OPENING_PLIES`, or the most plies below it that can leave the game open."""
    for plies in range(DEFAULT_OPENING_PLIES, 0, -1):
        try:
            random_opening(rules, plies, np.random.default_rng(derive_seed(seed, gid, plies, 0)))
        except InvalidParameterError:
            continue
        return plies
    return 0


def pairings(jobs: Iterable[GameJob]) -> list[tuple[str, str]]:
    """The distinct pairings of ``jobs`` (sorted pairs of labels), in schedule order."""
    seen: dict[tuple[str, str], None] = {}
    for job in jobs:
        first, second = job.first_label, job.second_label
        seen.setdefault((min(first, second), max(first, second)), None)
    return list(seen)
