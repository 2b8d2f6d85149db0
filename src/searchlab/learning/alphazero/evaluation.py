"""Measuring a generation: games against the previous one and a reference, Elo, mistakes.

* :func:`network_agent`: the ``mcts`` agent with a network's evaluator (the ``az`` spec's
  agent): the most visited move, except that its first move of a game is drawn at temperature
  1 from the root's visits with the game's generator (so the games of a match differ).
* :func:`evaluation_game` plays game ``number`` of a match through the one match loop
  (:func:`searchlab.agents.match.play_game`, the arena's): colours alternate (``first`` takes
  player 0 in the even-numbered games); :func:`game_generator` is the generator a game's
  network agents draw their opening moves from, seeded by the match's seed and the game's
  number, so any worker can play any game and get the same one. :func:`play_match` plays a
  whole match in this process and :func:`tally` sums its outcomes into a :class:`MatchResult`.
* The Elo gain of a score is :func:`searchlab.core.elo.elo_difference` (the arena's formula),
  the score kept half a game off 0 and 1 so that a clean sweep stays finite.
* :func:`exact_table` and :func:`mistake_rate`: for a game small enough to enumerate
  (tic-tac-toe's 4,520 non-terminal positions), every position's optimal moves by memoised
  negamax, and the fraction of positions where a chooser (the network alone) picks a move
  that is not one of them (AlphaZero.jl's definition: another move has a strictly better
  game-theoretic outcome).

The opening's meaning: the first two plies of a game (each side's first move) are drawn from
a searching side's visits at temperature 1; a reference agent plays its own moves throughout.

>>> from searchlab.agents import make_agent
>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> table = exact_table(TicTacToe())
>>> len(table)
4520
>>> mistake_rate(table, lambda state: min(state.legal_actions())) > 0.1
True
>>> game = TicTacToe()
>>> result = play_match(
...     game,
...     lambda rng: make_agent("alphabeta:depth=9", game),
...     lambda rng: make_agent("random", game, seed=int(rng.integers(1000))),
...     games=4,
...     seed=0,
... )
>>> result.games, result.losses, result.score >= 0.5
(4, 0, True)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchlab.agents.base import Agent
from searchlab.agents.match import play_game
from searchlab.agents.search import MCTSAgent
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.algorithms.mcts.puct import BatchEvaluator
from searchlab.core.game import Game, State
from searchlab.core.limits import Limits

__all__ = [
    "AgentMaker",
    "ExactEntry",
    "MatchResult",
    "evaluation_game",
    "exact_table",
    "game_generator",
    "mistake_rate",
    "network_agent",
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


def network_agent(
    evaluator: BatchEvaluator,
    options: MCTSOptions,
    simulations: int,
    *,
    rng: np.random.Generator,
    opening_moves: int = 1,
    name: str = "network",
) -> MCTSAgent:
    """The ``mcts`` agent with ``evaluator`` (``options``' knobs; ``simulations`` a move, or
    a caller's ``limits``): the most visited move, except the first ``opening_moves`` moves of
    each game (since ``reset()``), drawn at temperature 1 from the root's visits with ``rng``.
    The ``az`` spec's agent is the same agent; here a game's two networks share the game's
    generator for their first moves (:func:`game_generator`), so that the games of a match
    differ and each is the same whichever worker plays it.

    >>> from searchlab.domains.games.tictactoe import TicTacToe
    >>> from searchlab.learning.networks.encoders import encoder_for
    >>> from searchlab.learning.networks.evaluator import NetworkEvaluator
    >>> from searchlab.learning.networks.network import PolicyValueNet
    >>> encoder = encoder_for(TicTacToe())
    >>> net = PolicyValueNet(encoder.shape, encoder.num_actions, seed=0).eval()
    >>> agent = network_agent(
    ...     NetworkEvaluator(net, encoder), MCTSOptions(), 20, rng=game_generator(0, 0)
    ... )
    >>> state = TicTacToe().initial_state()
    >>> agent.act(state) in state.legal_actions(), agent.last_result.stats["simulations"]
    (True, 20)
    """
    return MCTSAgent(
        name,
        None,
        limits=Limits(simulations=simulations),
        seed=None,
        rng=rng,
        temperature=1.0,
        temperature_moves=opening_moves,
        options=dataclasses.replace(options, evaluator=evaluator),
    )


AgentMaker = Callable[[np.random.Generator], Agent]
"""Makes one side's agent for one game from the game's generator (:func:`game_generator`): a
:func:`network_agent` draws its opening move from it; an agent with a seed of its own may
ignore it."""


def game_generator(seed: int, number: int) -> np.random.Generator:
    """The generator of game ``number`` of the match seeded by ``seed``: the game's network
    agents share it (each draws its opening move from it, in the order they move)."""
    return np.random.default_rng(np.random.SeedSequence([seed, number, 11]))


def evaluation_game(game: Game, first: Agent, second: Agent, *, number: int) -> int:
    """Game ``number`` of a match through the one match loop: ``first`` takes player 0 when
    ``number`` is even; ``+1``, ``0`` or ``-1``: ``first`` won, drew or lost (a resignation
    loses; a crash or an illegal move raises: it is a bug here, not a result)."""
    seat = number % 2
    agents = (first, second) if seat == 0 else (second, first)
    return play_game(game, agents, strict=True).outcome(seat)


def tally(outcomes: Sequence[int]) -> MatchResult:
    """The :class:`MatchResult` of ``first``'s outcomes (+1, 0, -1) over a match's games."""
    wins = sum(1 for o in outcomes if o > 0)
    losses = sum(1 for o in outcomes if o < 0)
    return MatchResult(len(outcomes), wins, len(outcomes) - wins - losses, losses)


def play_match(
    game: Game, first: AgentMaker, second: AgentMaker, *, games: int, seed: int
) -> MatchResult:
    """``games`` games in this process (:func:`evaluation_game` numbers ``0 .. games - 1``,
    each side made afresh for each game from the game's :func:`game_generator`), ``first``
    taking player 0 in the even-numbered ones; the tally is ``first``'s."""
    outcomes = []
    for number in range(games):
        rng = game_generator(seed, number)
        outcomes.append(evaluation_game(game, first(rng), second(rng), number=number))
    return tally(outcomes)


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
