"""Flat Monte Carlo: a position's value is the mean return of random playouts from it.

* :func:`flat_monte_carlo` spreads playouts evenly over the root's actions (round robin, in
  legal order) and plays the action with the best mean: one ply of search, no tree
  (Brügmann 1993; Abramson's "expected outcome" 1990). The means are for the root's player
  to move, whoever moves after the action (the same player again, in a game such as Snake
  Go).
* :func:`monte_carlo_evaluation` makes an :data:`~searchlab.core.game.Evaluation` of it,
  ``evaluate(state) -> mean value for the player to move``, for the horizon of depth-limited
  minimax, alpha-beta or the negamax engine.

Both average the playouts on a value scale (:mod:`~searchlab.algorithms.mcts.value_scale`):
by default the outcome, +1 win / 0 draw / -1 loss, so a mean lies in ``[-1, 1]`` whatever the
game's returns (for Othello's disc differences too: strictly between its smallest win, +2, and
its smallest loss, as an evaluation for minimax must be); ``value_scale="normalised"``
averages the returns over the game's ``GameInfo.max_utility`` instead (play for the score).

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.nim import Nim
>>> result = flat_monte_carlo(Nim((1, 2)), limits=Limits(simulations=300), seed=1)
>>> result.action, result.value  # take 1 from the second pile: the opponent must lose
(2, 1.0)
>>> evaluate = monte_carlo_evaluation(50, seed=1)
>>> evaluate(Nim((1, 1)).initial_state())  # whatever happens, the player to move loses
-1.0
"""

from __future__ import annotations

import random
import time
from typing import Any

from searchlab.algorithms.mcts.options import check_budget, check_seed
from searchlab.algorithms.mcts.results import terminal_result
from searchlab.algorithms.mcts.rollout import (
    RolloutPolicy,
    playout,
    playout_limit,
    resolve_rollout,
)
from searchlab.algorithms.mcts.value_scale import ValueScale, returns_scale
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Game, State, check_capabilities
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult

__all__ = ["MonteCarloEvaluation", "flat_monte_carlo", "monte_carlo_evaluation"]


def flat_monte_carlo(
    game: Game,
    state: State | None = None,
    *,
    limits: Limits | None = None,
    seed: int | None = None,
    rollout: str | RolloutPolicy = "random",
    value_scale: ValueScale = "outcome",
) -> SearchResult:
    """Play ``limits.simulations`` playouts (and/or for ``limits.time`` seconds) from the
    children of ``state`` (default: the initial state), one action after the other, and pick
    the action whose playouts scored best for the player to move, on ``value_scale``
    (``"outcome"``: +1 / 0 / -1; ``"normalised"``: returns over ``GameInfo.max_utility``).

    Returns a :class:`~searchlab.core.search_result.SearchResult`: ``action`` the best mean
    (ties: more playouts, then the first legal action), ``value`` its mean value (in
    ``[-1, 1]``) for the player to move, ``nodes`` the root and its children, ``depth`` 1,
    ``algorithm`` ``"flat_monte_carlo"``, ``stats``: ``simulations`` and ``children`` (per action:
    ``action``, ``visits`` (playouts), ``value`` (mean), ``prior`` and ``proven`` ``None``;
    most playouts first). A terminal ``state`` gives its exact value and no action.

    Raises ``InvalidParameterError`` without a simulation or time budget, and
    ``UnknownNameError`` for an unknown ``rollout`` or ``value_scale`` name.
    """
    check_capabilities(game, "flat_monte_carlo")
    budget = check_budget(limits, "flat_monte_carlo")
    check_seed(seed, "flat_monte_carlo")
    policy = resolve_rollout(rollout, "flat_monte_carlo")
    scale = returns_scale(game, value_scale, "flat_monte_carlo")
    root = game.initial_state() if state is None else state
    start = time.perf_counter()
    if root.is_terminal():
        return terminal_result(root, algorithm="flat_monte_carlo", start=start, scale=scale)
    rng = random.Random(seed)
    player = root.current_player()
    actions = list(root.legal_actions())
    children = [root.apply(action) for action in actions]
    max_plies = playout_limit(game)
    totals = [0.0] * len(actions)
    counts = [0] * len(actions)
    deadline = None if budget.time is None else start + budget.time
    simulations = 0
    stopped_by = "simulations"
    while True:
        if budget.simulations is not None and simulations >= budget.simulations:
            break
        if deadline is not None and simulations and time.perf_counter() >= deadline:
            stopped_by = "time"
            break
        index = simulations % len(actions)
        totals[index] += scale(playout(children[index], policy, rng, max_plies))[player]
        counts[index] += 1
        simulations += 1
    means = [total / count if count else 0.0 for total, count in zip(totals, counts, strict=True)]
    best = max(range(len(actions)), key=lambda i: (counts[i] > 0, means[i], counts[i], -i))
    entries: list[dict[str, Any]] = [
        {"action": a, "visits": n, "value": m, "prior": None, "proven": None}
        for a, n, m in zip(actions, counts, means, strict=True)
    ]
    entries.sort(key=lambda entry: (-entry["visits"], entry["action"]))
    return SearchResult(
        action=actions[best],
        value=means[best],
        principal_variation=(actions[best],),
        nodes=1 + len(actions),
        depth=1,
        elapsed=time.perf_counter() - start,
        stopped_by=stopped_by,
        algorithm="flat_monte_carlo",
        stats={"simulations": simulations, "children": entries},
    )


class MonteCarloEvaluation:
    """``evaluate(state)``: the mean value, for the player to move, of ``num_playouts``
    playouts from ``state`` (a finished game: its exact value), on ``value_scale``
    (``"outcome"``, the default, or ``"normalised"``, which needs ``game`` for its
    ``GameInfo.max_utility``). One random stream, seeded once: a search that calls it in the
    same order gets the same values."""

    def __init__(
        self,
        num_playouts: int,
        *,
        seed: int | None = None,
        rollout: str | RolloutPolicy = "random",
        value_scale: ValueScale = "outcome",
        game: Game | None = None,
    ) -> None:
        if isinstance(num_playouts, bool) or not isinstance(num_playouts, int) or num_playouts < 1:
            raise InvalidParameterError(
                "monte_carlo_evaluation: num_playouts must be an integer >= 1, "
                f"got {num_playouts!r}"
            )
        check_seed(seed, "monte_carlo_evaluation")
        self.num_playouts = num_playouts
        self.policy = resolve_rollout(rollout, "monte_carlo_evaluation")
        self.scale = returns_scale(game, value_scale, "monte_carlo_evaluation")
        self.playouts = 0
        self._rng = random.Random(seed)
        self._max_plies = None if game is None else playout_limit(game)  # None: the state's

    def __call__(self, state: State) -> float:
        player = state.current_player()
        scale = self.scale
        if state.is_terminal():
            return scale(state.returns())[player]
        total = 0.0
        for _ in range(self.num_playouts):
            total += scale(playout(state, self.policy, self._rng, self._max_plies))[player]
        self.playouts += self.num_playouts
        return total / self.num_playouts

    def __repr__(self) -> str:
        return f"MonteCarloEvaluation(num_playouts={self.num_playouts})"


def monte_carlo_evaluation(
    num_playouts: int,
    *,
    seed: int | None = None,
    rollout: str | RolloutPolicy = "random",
    value_scale: ValueScale = "outcome",
    game: Game | None = None,
) -> MonteCarloEvaluation:
    """An evaluation function by ``num_playouts`` random playouts (see
    :class:`MonteCarloEvaluation`), for ``evaluate=`` of minimax, alpha-beta and negamax.

    >>> from searchlab.algorithms.adversarial.negamax import negamax
    >>> from searchlab.core.limits import Limits
    >>> from searchlab.domains.games.nim import Nim
    >>> result = negamax(Nim((2, 3)), limits=Limits(depth=1),
    ...                  evaluate=monte_carlo_evaluation(20, seed=0))
    >>> result.is_proven, result.depth
    (False, 1)
    """
    return MonteCarloEvaluation(
        num_playouts, seed=seed, rollout=rollout, value_scale=value_scale, game=game
    )
