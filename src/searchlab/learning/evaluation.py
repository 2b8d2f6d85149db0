"""Measuring a generation: games against the previous one and a reference, Elo, mistakes.

* :func:`play_match` plays games between two players (colours alternate; the first
  ``opening_plies`` moves of each game are drawn at temperature 1 from a searching player's
  visits, with a generator seeded by the game's number, so the games differ) and returns the
  first player's score (win 1, draw 1/2, loss 0); :func:`play_game` is one of its games (the
  training loop hands them to its workers) and :func:`tally` sums them.
* :func:`elo_difference`: the Elo gap a score stands for, ``400 log10(s / (1 - s))``, with the
  score kept half a game off 0 and 1 so that a clean sweep stays finite.
* :func:`exact_table` and :func:`mistake_rate`: for a game small enough to enumerate
  (tic-tac-toe's 4,520 non-terminal positions), every position's optimal moves by memoised
  negamax, and the fraction of positions where a chooser (the network alone) picks a move
  that is not one of them (AlphaZero.jl's definition: another move has a strictly better
  game-theoretic outcome).

>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> table = exact_table(TicTacToe())
>>> len(table), round(elo_difference(0.5), 6), round(elo_difference(0.75), 1)
(4520, 0.0, 190.8)
>>> mistake_rate(table, lambda state: min(state.legal_actions())) > 0.1
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import BatchEvaluator, search
from searchlab.core.game import Game, State

__all__ = [
    "ExactEntry",
    "MatchResult",
    "Player",
    "agent_player",
    "elo_difference",
    "exact_table",
    "mistake_rate",
    "network_player",
    "play_game",
    "play_match",
    "policy_chooser",
    "tally",
]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The first player's tally over ``games`` games."""

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Points per game: (wins + draws / 2) / games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5


Player = Callable[[State, np.random.Generator, bool], int]
"""``(state, rng, opening) -> action``: ``opening`` asks for a varied (sampled) move."""


def network_player(evaluator: BatchEvaluator, options: MCTSOptions, simulations: int) -> Player:
    """PUCT with ``evaluator`` (``options``' knobs, ``simulations`` a move): the most visited
    move, or in the opening one drawn from the visits at temperature 1."""

    def choose(state: State, rng: np.random.Generator, opening: bool) -> int:
        outcome = search(state, evaluator, options, num_simulations=simulations)
        return outcome.sample_action(1.0, rng) if opening else outcome.best_action()

    return choose


def agent_player(agent: Any) -> Player:
    """An :class:`~searchlab.agents.base.Agent` as a player (its own moves throughout; the
    opening's variety comes from the other side)."""

    def choose(state: State, rng: np.random.Generator, opening: bool) -> int:
        return int(agent.act(state))

    return choose


def play_game(
    game: Game, first: Player, second: Player, *, number: int, seed: int, opening_plies: int = 2
) -> int:
    """Game ``number`` of a match: ``first`` takes player 0 when ``number`` is even, moves are
    drawn from a generator seeded by ``(seed, number)``; ``+1``, ``0`` or ``-1``: ``first``
    won, drew or lost. The games of a match are independent: any worker can play any one."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, number, 11]))
    seats = (first, second) if number % 2 == 0 else (second, first)
    mine = 0 if number % 2 == 0 else 1
    state = game.initial_state()
    ply = 0
    while not state.is_terminal():
        player = seats[state.current_player()]
        state = state.apply(player(state, rng, ply < opening_plies))
        ply += 1
    returns = state.returns()
    return (returns[mine] > returns[1 - mine]) - (returns[mine] < returns[1 - mine])


def tally(outcomes: Sequence[int]) -> MatchResult:
    """The :class:`MatchResult` of ``first``'s outcomes (+1, 0, -1) over a match's games."""
    wins = sum(1 for o in outcomes if o > 0)
    losses = sum(1 for o in outcomes if o < 0)
    return MatchResult(len(outcomes), wins, len(outcomes) - wins - losses, losses)


def play_match(
    game: Game, first: Player, second: Player, *, games: int, seed: int, opening_plies: int = 2
) -> MatchResult:
    """``games`` games (:func:`play_game` numbers ``0 .. games - 1``), ``first`` taking player
    0 in the even-numbered ones; the tally is ``first``'s."""
    return tally(
        [
            play_game(game, first, second, number=n, seed=seed, opening_plies=opening_plies)
            for n in range(games)
        ]
    )


def elo_difference(score: float, games: int = 0) -> float:
    """The Elo difference that ``score`` (in ``[0, 1]``) stands for; with ``games`` the score is
    kept within half a game of the ends."""
    low = 0.5 / games if games else 1e-3
    clipped = min(max(score, low), 1.0 - low)
    return 400.0 * math.log10(clipped / (1.0 - clipped))


@dataclass(frozen=True, slots=True)
class ExactEntry:
    """A position and the set of its optimal actions."""

    state: State
    optimal: frozenset[int]


def exact_table(game: Game, limit: int = 200_000) -> dict[Any, ExactEntry]:
    """Every non-terminal position reachable from the start, by ``state.key()``, with its
    optimal actions (by the sign of the exact game value: win > draw > loss); ``{}`` when
    there are more than ``limit`` positions (too big to enumerate)."""
    results: dict[Any, float] = {}  # the exact result for player 0 (+1, 0, -1)
    table: dict[Any, ExactEntry] = {}

    def result(state: State) -> float:
        key = state.key()
        known = results.get(key)
        if known is not None:
            return known
        if len(results) > limit:
            raise OverflowError
        if state.is_terminal():
            returns = state.returns()
            value = float(np.sign(returns[0] - returns[1]))
        else:
            sign = 1.0 if state.current_player() == 0 else -1.0
            mine = {action: sign * result(state.apply(action)) for action in state.legal_actions()}
            best = max(mine.values())
            table[key] = ExactEntry(state, frozenset(a for a, v in mine.items() if v == best))
            value = sign * best
        results[key] = value
        return value

    try:
        result(game.initial_state())
    except (OverflowError, RecursionError):
        return {}
    return table


def mistake_rate(table: dict[Any, ExactEntry], choose: Callable[[State], int]) -> float:
    """The fraction of ``table``'s positions where ``choose(state)`` is not an optimal move."""
    if not table:
        return math.nan
    wrong = sum(1 for entry in table.values() if choose(entry.state) not in entry.optimal)
    return wrong / len(table)


def policy_chooser(
    evaluator: BatchEvaluator, table: dict[Any, ExactEntry]
) -> Callable[[State], int]:
    """The network alone (the highest prior, no search) as a chooser, its priors computed for
    all of ``table``'s positions in batches up front."""
    encoder: Any = evaluator.encoder
    entries = list(table.values())
    best: dict[int, int] = {}
    for start in range(0, len(entries), 512):
        part = [entry.state for entry in entries[start : start + 512]]
        priors, _ = evaluator.evaluate_batch(part)
        for state, row in zip(part, priors, strict=True):
            legal = state.legal_actions()
            scores = [row[encoder.action_to_index(state, a)] for a in legal]
            best[id(state)] = legal[int(np.argmax(scores))]
    return lambda state: best[id(state)]
