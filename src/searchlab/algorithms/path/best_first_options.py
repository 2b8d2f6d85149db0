"""The settings of one best-first search, validated once at the public boundary.

:func:`~searchlab.algorithms.path.best_first.best_first_search` (and ``astar``, ``dijkstra``,
... on top of it) turns its arguments into one :class:`BestFirstOptions` and passes that object,
unchanged, to whichever tier runs: the plain-Python loop or the compiled grid kernel
(:func:`~searchlab.algorithms.path.grid_astar.grid_best_first`). Nothing below the boundary
checks or renames a setting again.

>>> options = BestFirstOptions.checked("weighted_astar", h_weight=2)
>>> options.g_weight, options.h_weight, options.heuristic, options.algorithm
(1.0, 2.0, None, 'weighted_astar')
>>> BestFirstOptions.checked("astar", h_weight=float("nan"))
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: astar: h_weight must be a finite number >= 0, got nan
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from searchlab.core.checks import is_finite_number
from searchlab.core.errors import InvalidParameterError
from searchlab.core.problem import zero_heuristic

__all__ = ["SAME_COST", "BestFirstOptions", "check_weight"]

SAME_COST = 1e-13
"""Relative tolerance under which a new path to a node is *not* cheaper than the known one: a
successor is kept only when ``new_g < old_g * (1 - SAME_COST)``. Sums of octile costs (1 and
sqrt 2) added in another order differ in the last bits (16.656854249492383 against
16.65685424949238 on den312d); counting such a path as cheaper made A* "reopen" hundreds of cells
with a consistent heuristic, against the theory it teaches. One part in 10**13 is some 40 units
in the last place of a double: far above that rounding, far below any real saving. Both tiers
compare the same way."""


def check_weight(name: str, value: object, algorithm: str, *, minimum: float = 0.0) -> float:
    """``value`` as a float if it is a finite real number ``>= minimum`` (not a bool); else
    :class:`InvalidParameterError` quoting it.

    >>> check_weight("weight", 3, "weighted_astar", minimum=1.0)
    3.0
    >>> check_weight("weight", float("inf"), "weighted_astar", minimum=1.0)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: weighted_astar: weight must be a finite number >= 1, got inf
    """  # noqa: E501 (the doctest's expected line)
    if not is_finite_number(value) or not value >= minimum:
        raise InvalidParameterError(
            f"{algorithm}: {name} must be a finite number >= {minimum:g}, got {value!r}"
        )
    return float(value)


@dataclass(frozen=True, slots=True)
class BestFirstOptions:
    """One best-first search's settings: ``f = g_weight * g + h_weight * h``.

    Build it with :meth:`checked`; both tiers read it as it is.

    Attributes:
        algorithm: the name written into the result and into error messages.
        g_weight, h_weight: finite weights ``>= 0``.
        unit_cost: order by the number of steps (breadth-first) instead of their costs.
        reopen: put a closed node back on the open list when a cheaper path reaches it.
        heuristic: the caller's ``state -> float`` estimate, or ``None`` for the problem's own
            heuristic (always ``None`` when ``h_weight == 0``: then ``h`` is never evaluated).
    """

    algorithm: str = "best_first"
    g_weight: float = 1.0
    h_weight: float = 1.0
    unit_cost: bool = False
    reopen: bool = True
    heuristic: Callable[[Any], float] | None = None

    @classmethod
    def checked(
        cls,
        algorithm: str,
        *,
        g_weight: object = 1.0,
        h_weight: object = 1.0,
        unit_cost: object = False,
        reopen: object = True,
        heuristic: object = None,
    ) -> BestFirstOptions:
        """Validate the settings of a search called ``algorithm``; raise
        :class:`InvalidParameterError` (quoting the bad value) for a weight that is not a finite
        number ``>= 0`` or a heuristic that is not callable."""
        g = check_weight("g_weight", g_weight, algorithm)
        h = check_weight("h_weight", h_weight, algorithm)
        if heuristic is not None and not callable(heuristic):
            raise InvalidParameterError(
                f"{algorithm}: heuristic must be callable (state -> float), got {heuristic!r}"
            )
        return cls(
            algorithm=algorithm,
            g_weight=g,
            h_weight=h,
            unit_cost=bool(unit_cost),
            reopen=bool(reopen),
            heuristic=None if h == 0 else heuristic,
        )

    def heuristic_for(self, problem: Any) -> Callable[[Any], float] | None:
        """The estimate the search evaluates on ``problem``: ``None`` when ``h_weight == 0``,
        else the caller's heuristic, else the problem's own ``heuristic`` method, else 0."""
        if self.h_weight == 0:
            return None
        if self.heuristic is not None:
            return self.heuristic
        own = getattr(problem, "heuristic", None)
        return own if callable(own) else zero_heuristic
