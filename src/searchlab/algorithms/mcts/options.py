"""The options of :func:`~searchlab.algorithms.mcts.mcts`, checked once, as one frozen object.

Every check raises one :class:`~searchlab.core.errors.InvalidParameterError` (or
:class:`~searchlab.core.errors.UnknownNameError` for an unknown name) quoting the bad value.

>>> make_options(c=-1)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: mcts: c must be a finite number >= 0, got -1
>>> make_options(final_move="max")
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: mcts: unknown final_move 'max'; known: best_value, \
most_visits, robust
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from searchlab.algorithms.mcts.evaluator import Evaluator
from searchlab.algorithms.mcts.rollout import RolloutPolicy, resolve_rollout
from searchlab.algorithms.path.best_first import check_tier
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.limits import Limits
from searchlab.core.observer import Observer

__all__ = ["DEFAULT_C", "FINAL_MOVES", "MCTSOptions", "check_budget", "make_options"]

DEFAULT_C = 1.0
"""UCT's exploration constant ``c`` in ``W/N + c * sqrt(2 ln N_parent / N)``: Auer et al.'s
UCB1 bonus ``sqrt(2 ln N / n)`` applied as is to returns in ``[-1, 1]`` (OpenSpiel's
``uct_c = sqrt(2) * c``; see docs/algorithms/mcts.md)."""

FINAL_MOVES = ("best_value", "most_visits", "robust")
"""How the move is chosen once the budget is spent (docs/algorithms/mcts.md)."""


@dataclass(frozen=True, slots=True)
class MCTSOptions:
    """The checked options (same names and meaning as :func:`~searchlab.algorithms.mcts.mcts`);
    ``policy`` is the resolved rollout policy."""

    c: float = DEFAULT_C
    rollout: Any = "random"
    policy: RolloutPolicy | None = None
    final_move: str = "most_visits"
    transpositions: bool = False
    solver: bool = False
    exact_endgame: int = 0
    evaluator: Evaluator | None = None
    c_puct: float = 1.5
    lambda_: float = 1.0
    dirichlet_alpha: float | None = None
    dirichlet_epsilon: float = 0.25
    seed: int | None = None
    tier: str = "auto"
    observer: Observer | None = None

    @property
    def is_plain(self) -> bool:
        """The options a compiled kernel can run: uniform rollouts, UCT, no table, no endgame
        search, no observer."""
        return (
            isinstance(self.rollout, str)
            and self.rollout == "random"
            and self.evaluator is None
            and not self.transpositions
            and self.exact_endgame == 0
            and self.observer is None
        )

    def why_not_plain(self) -> str:
        """The first option that rules the compiled tier out (for the error message)."""
        if not (isinstance(self.rollout, str) and self.rollout == "random"):
            return f"rollout={self.rollout!r}"
        if self.evaluator is not None:
            return "an evaluator (PUCT)"
        if self.transpositions:
            return "transpositions=True"
        if self.exact_endgame:
            return f"exact_endgame={self.exact_endgame}"
        return "an observer"


def _number(value: Any, name: str, algorithm: str, *, low: float, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        ok = False
    else:
        ok = low <= value <= high
    if not ok:
        bound = f">= {low:g}" if high == math.inf else f"in [{low:g}, {high:g}]"
        raise InvalidParameterError(
            f"{algorithm}: {name} must be a finite number {bound}, got {value!r}"
        )
    return float(value)


def make_options(algorithm: str = "mcts", **given: Any) -> MCTSOptions:
    """Check ``given`` (keyword options of :func:`~searchlab.algorithms.mcts.mcts`) and return
    them as an :class:`MCTSOptions`."""
    options = MCTSOptions(**given)
    _number(options.c, "c", algorithm, low=0.0)
    policy = resolve_rollout(options.rollout, algorithm)
    if options.final_move not in FINAL_MOVES:
        raise UnknownNameError(
            f"{algorithm}: unknown final_move {options.final_move!r}; known: "
            f"{', '.join(FINAL_MOVES)}"
        )
    for flag in ("transpositions", "solver"):
        if not isinstance(getattr(options, flag), bool):
            raise InvalidParameterError(
                f"{algorithm}: {flag} must be True or False, got {getattr(options, flag)!r}"
            )
    endgame = options.exact_endgame
    if isinstance(endgame, bool) or not isinstance(endgame, int) or endgame < 0:
        raise InvalidParameterError(
            f"{algorithm}: exact_endgame must be an integer >= 0 (plies), got {endgame!r}"
        )
    evaluator = options.evaluator
    if evaluator is not None and not callable(getattr(evaluator, "evaluate", None)):
        raise InvalidParameterError(
            f"{algorithm}: evaluator must have a method evaluate(state) -> (priors, value), "
            f"got {evaluator!r}"
        )
    _number(options.c_puct, "c_puct", algorithm, low=0.0)
    _number(options.lambda_, "lambda_", algorithm, low=0.0, high=1.0)
    if evaluator is None and options.lambda_ != 1.0:
        raise InvalidParameterError(
            f"{algorithm}: lambda_={options.lambda_!r} mixes an evaluator's value with the "
            "rollout; it needs an evaluator"
        )
    if options.dirichlet_alpha is not None:
        if evaluator is None:
            raise InvalidParameterError(
                f"{algorithm}: dirichlet_alpha={options.dirichlet_alpha!r} adds noise to the "
                "root priors; it needs an evaluator"
            )
        alpha = options.dirichlet_alpha
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not alpha > 0:
            raise InvalidParameterError(
                f"{algorithm}: dirichlet_alpha must be a number > 0, got {alpha!r}"
            )
    _number(options.dirichlet_epsilon, "dirichlet_epsilon", algorithm, low=0.0, high=1.0)
    seed = options.seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidParameterError(f"{algorithm}: seed must be an integer or None, got {seed!r}")
    check_tier(options.tier, algorithm)
    if options.observer is not None and not callable(options.observer):
        raise InvalidParameterError(
            f"{algorithm}: observer must be a callable taking one event, got {options.observer!r}"
        )
    return MCTSOptions(**{**given, "policy": policy})


def check_budget(limits: Any, algorithm: str) -> Limits:
    """``limits`` if it bounds simulations or time; else ``InvalidParameterError``."""
    if not isinstance(limits, Limits):
        if limits is None:
            raise InvalidParameterError(
                f"{algorithm} needs a budget: limits=Limits(simulations=...) and/or "
                "Limits(time=...) (seconds)"
            )
        raise InvalidParameterError(f"{algorithm}: limits must be a Limits, got {limits!r}")
    if limits.simulations is None and limits.time is None:
        raise InvalidParameterError(
            f"{algorithm} needs a budget in simulations or time, got {limits!r}; "
            "use Limits(simulations=...) and/or Limits(time=...)"
        )
    return limits
