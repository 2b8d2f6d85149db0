"""Path searches checked against a MovingAI scenario file: each cost against the file's optimal
length, tallied over the file (what ``searchlab path --scen`` reports).

The file's lengths are 8-connected optima printed with limited precision: a cost counts as
optimal within :data:`TOLERANCE`. An optimal algorithm must match every length; weighted A*
must stay within ``weight * optimal`` (its bound); the others (breadth-first, greedy) are
only measured: their mean and worst ``cost / optimal``. With another connectivity the lengths
do not apply and nothing is compared.

>>> from searchlab.domains.path.movingai import Scenario
>>> from searchlab.core.results import PathResult
>>> tally = ScenarioTally(optimal=True)
>>> scenario = Scenario(0, 0, "m", 4, 4, (0, 0), (3, 3), 4.24264069)
>>> tally.add(scenario, PathResult("solved", cost=4.2426, expanded=10))
>>> tally.add(scenario, PathResult("solved", cost=5.0, expanded=30))
>>> tally.add(scenario, PathResult("limit", expanded=50))
>>> tally.count, tally.solved, tally.mismatches, tally.expanded, round(tally.worst_ratio, 3)
(3, 2, 1, 90, 1.179)
"""

from __future__ import annotations

from dataclasses import dataclass

from searchlab.core.results import PathResult
from searchlab.domains.path.movingai import Scenario

__all__ = ["TOLERANCE", "ScenarioTally"]

TOLERANCE = 0.01
"""How far a cost may be from a scenario's printed optimal length and still match it."""


@dataclass(slots=True)
class ScenarioTally:
    """The running check of one algorithm's results over a scenario file.

    ``optimal``: the algorithm guarantees a cheapest path; ``weight``: its suboptimality
    bound (weighted A*), ``None`` for none; ``comparable``: the searches were 8-connected, as
    the file's lengths are. :meth:`add` each result; ``mismatches`` counts the costs off the
    optimum (optimal algorithms) or over the bound (weighted ones)."""

    optimal: bool
    weight: float | None = None
    comparable: bool = True
    count: int = 0
    unsolved: int = 0
    mismatches: int = 0
    expanded: int = 0
    search_seconds: float = 0.0
    worst_ratio: float = 1.0
    ratio_sum: float = 0.0

    def add(self, scenario: Scenario, result: PathResult) -> None:
        """Count ``result``, the search of ``scenario``."""
        self.count += 1
        self.expanded += result.expanded
        self.search_seconds += result.elapsed
        if not result.is_solved:
            self.unsolved += 1
            return
        if not self.comparable:
            return
        assert result.cost is not None
        best = scenario.optimal_length
        ratio = result.cost / best if best else 1.0
        self.ratio_sum += ratio
        self.worst_ratio = max(self.worst_ratio, ratio)
        if self.optimal:
            self.mismatches += abs(result.cost - best) > TOLERANCE
        elif self.weight is not None:
            self.mismatches += result.cost > self.weight * best + TOLERANCE

    @property
    def solved(self) -> int:
        """The searches that found a path."""
        return self.count - self.unsolved

    @property
    def mean_ratio(self) -> float:
        """Mean ``cost / optimal`` over the solved searches (1.0 when none)."""
        return self.ratio_sum / self.solved if self.solved else 1.0

    @property
    def rate(self) -> float:
        """Expansions per second of search (0.0 when no time was measured)."""
        return self.expanded / self.search_seconds if self.search_seconds > 0 else 0.0

    @property
    def is_clean(self) -> bool:
        """Every search solved, none off the optimum or over the bound."""
        return self.unsolved == 0 and self.mismatches == 0
