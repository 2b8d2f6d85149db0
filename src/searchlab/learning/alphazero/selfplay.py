"""Self-play: many games searched in lock step, their leaves evaluated in one batch per step.

AlphaZero's data: the network plays itself with PUCT (:mod:`~searchlab.algorithms.mcts.puct`)
at every move, and every searched position becomes a training sample: the planes (from the
mover's point of view), the search's visit distribution (the policy target) and the game's
final outcome **for that position's player to move** (the value target ``z``: +1 won, 0
drawn, -1 lost; read from the positions, so it is right where a player moves twice in a row).

**Lock step.** ``games_in_flight`` games are played at once. At each step every game's search
collects the positions it needs (its root first, then up to ``search_batch`` leaves under virtual
loss), all of them go to the evaluator in **one** ``evaluate_batch`` call, and the rows go back
to their searches; a search that has spent its simulations plays its move, and a finished game
makes room for the next one. Each game draws from its own generator, seeded by
``(seed, game index)``, and a search sees only its own positions: so the games are the same
whatever ``games_in_flight`` is (with an evaluator that answers a position the same in any
batch; a network on a CPU may differ in the last bits between batch sizes).

The AlphaZero details, each a field of :class:`SelfPlayConfig`:

* **Dirichlet noise** at each root (``search.dirichlet_alpha``, ``dirichlet_epsilon``);
* **temperature schedule**: for the first ``temperature_plies`` plies of a game the move is
  drawn with probability proportional to ``N ** (1 / temperature)``; afterwards the most
  visited move is played;
* **Gumbel self-play** (Danihelka et al. 2022, ``search.root="gumbel"``): the policy target
  is the search's improved policy ``softmax(logits + sigma(completed Q))`` instead of the
  visits, and the move played is the one the Gumbel root chose (the Gumbel draws are the
  exploration: the temperature schedule is PUCT's alone, and Dirichlet noise is refused, as it
  would noise the target); the value target is the same ``z``. With ``root="puct"`` (the
  default) nothing of this applies;
* **resignation** (AlphaGo Zero): a player resigns when the root value and the best child's
  value are both below ``resign_threshold``; in a fraction ``no_resign_fraction`` of the games
  resignation is disabled, and the positions where a player *would* have resigned are
  checked against the end: a **false positive** is a would-be resignation by a player who did
  not lose (:attr:`SelfPlayResult.resign_false_positive_rate`; AlphaGo Zero kept it below 5%
  by raising the threshold);
* **playout-cap randomisation** (KataGo, Wu 2019): with ``full_search_probability`` ``p < 1``
  a move gets the full search with probability ``p`` (noise on) and otherwise a cheap search of
  ``cheap_simulations`` (no noise); only full searches become training samples;
* **random openings** (``random_opening_plies`` ``k > 0``): each game starts with a number of
  uniformly random moves drawn uniformly from ``0..k`` (moves that would end the game are not
  drawn), which are neither searched nor samples; the rest of the game is self-play as usual,
  so the value targets come from play, not from the random moves. Self-play of a strong network
  otherwise keeps to a narrow set of lines, and the positions off them (after a blunder) are
  rare in the data: a tiny game wants its network right in every position.

>>> import numpy as np
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> class Cells:
...     def action_to_index(self, state, action): return action
...     def encode(self, state): return np.array(state.board, np.float32).reshape(1, 3, 3)
>>> class Uniform:
...     encoder = Cells()
...     def evaluate_batch(self, states):
...         return np.full((len(states), 9), 1 / 9), np.zeros(len(states))
>>> config = SelfPlayConfig(search=MCTSOptions(search_batch=1), simulations=25,
...                         games_in_flight=4, temperature_plies=2)
>>> result = self_play(TicTacToe(), Uniform(), games=6, config=config, seed=1)
>>> len(result.records), result.stats.evaluation_calls < result.stats.positions_evaluated
(6, True)
>>> record = result.records[0]
>>> [sample.value for sample in record.samples] == [
...     record.value_for(sample.player) for sample in record.samples]
True
>>> self_play(TicTacToe(), Uniform(), games=6, config=config, seed=1).records == result.records
True
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import numpy as np

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import (
    ActionIndexer,
    BatchEvaluator,
    PUCTTree,
    SearchOutcome,
    evaluate_step,
    indexer_of,
)
from searchlab.core.checks import check_integer, check_number
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State, check_capabilities
from searchlab.learning.networks.evaluation_cache import EvaluationCache

__all__ = [
    "GameRecord",
    "Sample",
    "SelfPlayConfig",
    "SelfPlayResult",
    "SelfPlayStats",
    "self_play",
]

_NAME = "self_play"


class SampleEncoder(ActionIndexer, Protocol):
    """What self-play needs of an encoder: planes and action indices."""

    def encode(self, state: Any) -> np.ndarray:
        """The position as planes from its mover's point of view."""
        ...


def _default_search() -> MCTSOptions:
    return MCTSOptions(search_batch=1, dirichlet_alpha=0.3)


@dataclass(frozen=True, slots=True, kw_only=True)
class SelfPlayConfig:
    """How self-play plays; making one checks every field (one clear line each).

    Attributes:
        search: how a move is searched: the PUCT knobs of an
            :class:`~searchlab.algorithms.mcts.options.MCTSOptions` (default batch 1,
            Dirichlet alpha 0.3, epsilon 0.25; the evaluator is self-play's own); with
            ``root="gumbel"`` (and ``dirichlet_alpha=None``), Gumbel self-play (see the
            module).
        simulations: the simulations of a full search (>= 1; default 100).
        games_in_flight: games searched in lock step (>= 1): the evaluator sees up to
            ``games_in_flight * search.search_batch`` positions per call.
        temperature: the move temperature of the opening plies (finite, > 0).
        temperature_plies: plies played at ``temperature`` from the start of a game (>= 0);
            the most visited move afterwards (a Gumbel root plays its chosen move throughout).
        resign_threshold: ``None`` (never resign), or a value in ``(-1, 1)``: resign when the
            root value and the best child's value are both below it.
        no_resign_fraction: the fraction of games played to the end whatever the values, to
            measure the false-positive rate (in ``[0, 1]``).
        full_search_probability: playout-cap randomisation: the probability of a full search
            (in ``(0, 1]``; 1: every move is a full search, the plain AlphaZero).
        cheap_simulations: the simulations of the other moves (>= 1, fewer than the full
            search's; needed when ``full_search_probability < 1``).
        random_opening_plies: the most uniformly random moves a game starts with (>= 0; the
            number is drawn uniformly from ``0..random_opening_plies`` per game; 0: none, and
            the games are exactly those of a config without the field).
        cache_size: positions whose evaluations are kept for the rest of the call, keyed by
            the network's input (an
            :class:`~searchlab.learning.networks.evaluation_cache.EvaluationCache` made per call, so
            a chunk of games is the same whatever ran before it; >= 0; 0: none, every leaf goes to
            the evaluator).
    """

    search: MCTSOptions = field(default_factory=_default_search)
    simulations: int = 100
    games_in_flight: int = 16
    temperature: float = 1.0
    temperature_plies: int = 8
    resign_threshold: float | None = None
    no_resign_fraction: float = 0.1
    full_search_probability: float = 1.0
    cheap_simulations: int | None = None
    random_opening_plies: int = 0
    cache_size: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.search, MCTSOptions):
            raise InvalidParameterError(
                f"{_NAME}: search must be an MCTSOptions, got {self.search!r}"
            )
        if self.search.root == "gumbel" and self.search.dirichlet_alpha is not None:
            raise InvalidParameterError(
                f"{_NAME}: a Gumbel root explores by its own Gumbel draws; "
                f"dirichlet_alpha={self.search.dirichlet_alpha!r} would noise the priors its "
                "improved policy (the target) is made from: set dirichlet_alpha=None"
            )
        _integer(self.simulations, "simulations", low=1)
        _integer(self.games_in_flight, "games_in_flight", low=1)
        _number(self.temperature, "temperature", low=0.0, open_low=True)
        _integer(self.temperature_plies, "temperature_plies", low=0)
        _integer(self.random_opening_plies, "random_opening_plies", low=0)
        _integer(self.cache_size, "cache_size", low=0)
        threshold = self.resign_threshold
        if threshold is not None:
            _number(threshold, "resign_threshold", low=-1.0, high=1.0, open_low=True)
            if threshold >= 1.0:
                raise InvalidParameterError(
                    f"{_NAME}: resign_threshold must be in (-1, 1) or None, got {threshold!r}"
                )
        _number(self.no_resign_fraction, "no_resign_fraction", low=0.0, high=1.0)
        _number(
            self.full_search_probability, "full_search_probability", low=0.0, high=1.0,
            open_low=True,
        )  # fmt: skip
        cheap = self.cheap_simulations
        if self.full_search_probability < 1.0 and cheap is None:
            raise InvalidParameterError(
                f"{_NAME}: full_search_probability={self.full_search_probability!r} needs "
                "cheap_simulations (the small search of the other moves)"
            )
        if cheap is not None:
            _integer(cheap, "cheap_simulations", low=1)
            if cheap >= self.simulations:
                raise InvalidParameterError(
                    f"{_NAME}: cheap_simulations={cheap!r} must be fewer than the full "
                    f"search's {self.simulations}"
                )


def _integer(value: Any, name: str, *, low: int) -> None:
    check_integer(value, name, owner=_NAME, low=low)


def _number(
    value: Any, name: str, *, low: float, high: float = math.inf, open_low: bool = False
) -> None:
    check_number(value, name, owner=_NAME, low=low, high=high, open_low=open_low)


# --- what self-play produces -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Sample:
    """One training position.

    Attributes:
        planes: the encoder's planes of the position (float32 ``[C, H, W]``, mover's view).
        policy: the search's visit distribution over the encoder's action indices (float32
            ``[num_actions]``, summing to 1; a Gumbel root's improved policy instead): the
            policy target.
        value: the game's outcome for ``player`` (+1, 0, -1): the value target ``z``.
        player: the player to move in the position.
        ply: the position's ply in its game (0: the initial position).
    """

    planes: np.ndarray
    policy: np.ndarray
    value: float
    player: int
    ply: int

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sample):
            return NotImplemented
        return (
            (self.value, self.player, self.ply) == (other.value, other.player, other.ply)
            and np.array_equal(self.planes, other.planes)
            and np.array_equal(self.policy, other.policy)
        )

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished self-play game.

    Attributes:
        index: the game's number (its generator is seeded by ``(seed, index)``).
        actions: the moves played, from the initial position.
        outcome: the result for players 0 and 1 (+1 / 0 / -1 each; a resigner gets -1).
        resigned_by: the player who resigned, or ``None`` (played to the end).
        resignation_disabled: this game was one of the ``no_resign_fraction``.
        would_resign: per player, the first ply at which they would have resigned in a game
            with resignation disabled (``None``: never).
        full_searches: per search (one per move played, and the resigner's last one), whether
            it was a full search (playout-cap randomisation).
        root_values: per search, its root value for the player to move.
        samples: the training positions (full searches only), in the order played.
        opening_plies: how many of ``actions`` were the random opening (not searched).
    """

    index: int
    actions: tuple[int, ...]
    outcome: tuple[float, float]
    resigned_by: int | None
    resignation_disabled: bool
    would_resign: tuple[int | None, int | None]
    full_searches: tuple[bool, ...]
    root_values: tuple[float, ...]
    samples: tuple[Sample, ...]
    opening_plies: int = 0

    def value_for(self, player: int) -> float:
        """The game's outcome for ``player``."""
        return self.outcome[player]

    @property
    def false_positives(self) -> int:
        """Would-be resignations (in a game played to the end) by a player who did not lose."""
        return sum(
            1
            for player, ply in enumerate(self.would_resign)
            if ply is not None and self.outcome[player] >= 0.0
        )


@dataclass(frozen=True, slots=True)
class SelfPlayStats:
    """Counts and times of one :func:`self_play` call.

    Attributes:
        games: games played.
        moves: moves played (searches run).
        positions_evaluated: positions the searches asked to evaluate (roots and leaves).
        evaluation_calls: ``evaluate_batch`` calls (one per lock step).
        seconds: wall-clock time of the whole call.
        evaluation_seconds: the part spent inside ``evaluate_batch`` (the cache's included).
        cache_hits: positions the config's cache answered (0 without one); the evaluator
            itself saw ``positions_evaluated - cache_hits``.
    """

    games: int
    moves: int
    positions_evaluated: int
    evaluation_calls: int
    seconds: float
    evaluation_seconds: float
    cache_hits: int = 0

    @property
    def network_positions(self) -> int:
        """Positions the evaluator itself evaluated (the cache's misses)."""
        return self.positions_evaluated - self.cache_hits

    @property
    def positions_per_second(self) -> float:
        """Positions evaluated per second of self-play (search overhead included)."""
        return self.positions_evaluated / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_batch(self) -> float:
        """Positions per ``evaluate_batch`` call."""
        return self.positions_evaluated / self.evaluation_calls if self.evaluation_calls else 0.0


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    """The games of one :func:`self_play` call, by index, and its statistics."""

    records: tuple[GameRecord, ...]
    stats: SelfPlayStats

    @property
    def samples(self) -> list[Sample]:
        """Every game's samples, game after game."""
        return [sample for record in self.records for sample in record.samples]

    @property
    def resign_false_positive_rate(self) -> float | None:
        """False positives over would-be resignations in the games played to the end
        (``None`` when no such game had one)."""
        would = sum(1 for record in self.records for ply in record.would_resign if ply is not None)
        if not would:
            return None
        return sum(record.false_positives for record in self.records) / would


# --- one game in progress ---------------------------------------------------------------------


def _outcome(state: State) -> tuple[float, float]:
    returns = state.returns()
    return tuple(1.0 if r > 0 else -1.0 if r < 0 else 0.0 for r in returns[:2])  # type: ignore[return-value]


class _Game:
    """A game being played: its position, its generator, its current search, its record."""

    def __init__(
        self,
        index: int,
        state: State,
        config: SelfPlayConfig,
        rng: np.random.Generator,
        indexer: ActionIndexer,
        encoder: SampleEncoder,
        num_actions: int,
    ) -> None:
        self.index = index
        self.state = state
        self.config = config
        self.rng = rng
        self.indexer = indexer
        self.encoder = encoder
        self.num_actions = num_actions
        self.resignation_disabled = (
            config.resign_threshold is not None and rng.random() < config.no_resign_fraction
        )
        self.actions: list[int] = []
        self.full: list[bool] = []
        self.root_values: list[float] = []
        self.pending: list[tuple[np.ndarray, np.ndarray, int, int]] = []
        self.would_resign: list[int | None] = [None, None]
        self.resigned_by: int | None = None
        self.record: GameRecord | None = None
        self.opening_plies = self._random_opening(config.random_opening_plies)
        self._cheap = (
            None
            if config.cheap_simulations is None
            else dataclasses.replace(config.search, dirichlet_alpha=None)
        )
        self.tree = self._new_tree()

    def _random_opening(self, most: int) -> int:
        """Play ``0..most`` uniformly random moves (none that ends the game); how many."""
        if most <= 0:
            return 0  # no draw at all: the generator's stream is the one without openings
        count = int(self.rng.integers(0, most + 1))
        for _ in range(count):
            moves = [a for a in self.state.legal_actions() if not self.state.apply(a).is_terminal()]
            if not moves:
                break
            action = moves[int(self.rng.integers(0, len(moves)))]
            self.actions.append(action)
            self.state = self.state.apply(action)
        return len(self.actions)

    def _new_tree(self) -> PUCTTree:
        config = self.config
        is_full = config.full_search_probability >= 1.0 or (
            self.rng.random() < config.full_search_probability
        )
        self.full.append(is_full)
        if is_full or self._cheap is None:
            return PUCTTree(
                self.state, config.search, self.indexer, self.rng, budget=config.simulations
            )
        return PUCTTree(
            self.state, self._cheap, self.indexer, self.rng, budget=config.cheap_simulations
        )

    def play_move(self) -> None:
        """The search is done: record the position, check resignation, play the move."""
        outcome = self.tree.outcome()
        ply = len(self.actions)
        player = self.state.current_player()
        self.root_values.append(outcome.root_value)
        if self.full[-1]:
            self.pending.append(
                (self.encoder.encode(self.state), self._policy(outcome), player, ply)
            )
        threshold = self.config.resign_threshold
        if threshold is not None and max(outcome.root_value, outcome.best_value()) < threshold:
            if not self.resignation_disabled:
                self.resigned_by = player
                self._finish()
                return
            if self.would_resign[player] is None:
                self.would_resign[player] = ply
        if outcome.chosen is not None:  # a Gumbel root: its own draw is the exploration
            action = outcome.best_action()
        else:
            temperature = self.config.temperature if ply < self.config.temperature_plies else 0.0
            action = outcome.sample_action(temperature, self.rng)
        self.actions.append(action)
        self.state = self.state.apply(action)
        if self.state.is_terminal():
            self._finish()
        else:
            self.tree = self._new_tree()

    def _policy(self, outcome: SearchOutcome) -> np.ndarray:
        """The policy target over the encoder's indices: a Gumbel root's improved policy,
        else the visit distribution."""
        policy = np.zeros(self.num_actions, dtype=np.float32)
        if outcome.improved_policy is not None:
            shares = outcome.improved_policy
        else:
            shares = outcome.visits / outcome.visits.sum()
        for action, share in zip(outcome.actions, shares, strict=True):
            policy[self.indexer.action_to_index(self.state, action)] = share
        return policy

    def _finish(self) -> None:
        if self.resigned_by is not None:
            loser = self.resigned_by
            result = (-1.0, 1.0) if loser == 0 else (1.0, -1.0)
        else:
            result = _outcome(self.state)
        samples = tuple(
            Sample(planes=planes, policy=policy, value=result[player], player=player, ply=ply)
            for planes, policy, player, ply in self.pending
        )
        self.record = GameRecord(
            index=self.index,
            actions=tuple(self.actions),
            outcome=result,
            resigned_by=self.resigned_by,
            resignation_disabled=self.resignation_disabled,
            would_resign=(self.would_resign[0], self.would_resign[1]),
            full_searches=tuple(self.full),
            root_values=tuple(self.root_values),
            samples=samples,
            opening_plies=self.opening_plies,
        )


class _Timed:
    """The evaluator, with the time spent inside ``evaluate_batch`` added up."""

    def __init__(self, evaluator: BatchEvaluator, encoder: ActionIndexer) -> None:
        self._evaluator = evaluator
        self.encoder = encoder
        self.seconds = 0.0

    def evaluate_batch(self, states: Any) -> tuple[Any, Any]:
        start = time.perf_counter()
        try:
            return self._evaluator.evaluate_batch(states)
        finally:
            self.seconds += time.perf_counter() - start


def _num_actions(encoder: Any, evaluator: Any, state: State) -> int:
    count = getattr(encoder, "num_actions", None)
    if isinstance(count, int) and count > 0:
        return count
    priors, _ = evaluator.evaluate_batch([state])  # a stand-in encoder: ask the evaluator
    return int(np.asarray(priors).shape[1])


def self_play(
    game: Game,
    evaluator: BatchEvaluator,
    games: int,
    *,
    config: SelfPlayConfig | None = None,
    seed: int = 0,
    first_game: int = 0,
    encoder: SampleEncoder | None = None,
) -> SelfPlayResult:
    """Play ``games`` games of ``game`` against itself with PUCT, in lock step.

    Args:
        game: a two-player, zero-sum, deterministic, perfect-information game.
        evaluator: ``evaluate_batch(states) -> (priors, values)`` with an ``encoder`` (see
            :mod:`~searchlab.algorithms.mcts.puct`); called once per step for every game's
            positions.
        games: how many games (>= 1).
        config: a :class:`SelfPlayConfig` (default: ``SelfPlayConfig()``).
        seed: an integer >= 0; game ``i`` draws from a generator seeded by ``(seed, i)``.
        first_game: the index of the first game (a later call with ``first_game`` past the
            last one continues the series with new games, none repeated).
        encoder: the planes of the samples (default: the evaluator's ``encoder``, which then
            also needs ``encode(state)``).

    Returns:
        A :class:`SelfPlayResult`: the records ordered by index, and the statistics.
    """
    check_capabilities(game, _NAME)
    config = config if config is not None else SelfPlayConfig()
    if not isinstance(config, SelfPlayConfig):
        raise InvalidParameterError(f"{_NAME}: config must be a SelfPlayConfig, got {config!r}")
    _integer(games, "games", low=1)
    _integer(seed, "seed", low=0)
    _integer(first_game, "first_game", low=0)
    indexer = indexer_of(evaluator)
    sample_encoder: Any = encoder if encoder is not None else indexer
    if not callable(getattr(sample_encoder, "encode", None)):
        raise InvalidParameterError(
            f"{_NAME}: the samples need an encoder with encode(state) -> planes, got "
            f"{sample_encoder!r}"
        )
    start = time.perf_counter()
    num_actions = _num_actions(sample_encoder, evaluator, game.initial_state())
    cache = EvaluationCache(evaluator, config.cache_size) if config.cache_size else None
    timed = _Timed(cast(BatchEvaluator, cache) if cache is not None else evaluator, indexer)
    positions = calls = moves = 0
    next_index = first_game
    end_index = first_game + games
    active: list[_Game] = []
    records: list[GameRecord] = []
    while active or next_index < end_index:
        while len(active) < config.games_in_flight and next_index < end_index:
            rng = np.random.default_rng(np.random.SeedSequence([seed, next_index]))
            active.append(
                _Game(
                    next_index, game.initial_state(), config, rng, indexer, sample_encoder,
                    num_actions,
                )
            )  # fmt: skip
            next_index += 1
        evaluated = evaluate_step([playing.tree for playing in active], timed)
        if evaluated:
            positions += evaluated
            calls += 1
        still: list[_Game] = []
        for playing in active:
            if playing.tree.done:
                moves += 1
                playing.play_move()
            if playing.record is None:
                still.append(playing)
            else:
                records.append(playing.record)
        active = still
    records.sort(key=lambda record: record.index)
    stats = SelfPlayStats(
        games=len(records),
        moves=moves,
        positions_evaluated=positions,
        evaluation_calls=calls,
        seconds=time.perf_counter() - start,
        evaluation_seconds=timed.seconds,
        cache_hits=cache.hits if cache is not None else 0,
    )
    return SelfPlayResult(records=tuple(records), stats=stats)
