"""The result of a game-tree search, as one immutable object.

Values are from the point of view of **the player to move at the root** (positive: good for
them), in the units of the game's ``returns()``. A *proven* value is exact (the search saw
every relevant line to the end of the game); otherwise it is an estimate from an evaluation
function at the depth horizon.

>>> result = SearchResult(action=4, value=0.0, principal_variation=(4, 0, 8), nodes=1234,
...                       depth=9, is_proven=True, algorithm="negamax")
>>> result.outcome, result.action
('draw', 4)
>>> SearchResult(action=None, value=1.0, is_proven=True, plies_to_end=3).outcome
'win'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Outcome", "SearchResult"]

Outcome = Literal["win", "loss", "draw", "unknown"]
"""A proven value seen by the player to move: ``win`` (> 0), ``loss`` (< 0), ``draw`` (0);
``unknown`` when the value is only an estimate."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a game-tree search found, and what it cost.

    Attributes:
        action: the best action at the root (``None`` on a terminal root).
        value: the value of the root for the player to move there.
        principal_variation: the expected line of play from the root, best action first.
        nodes: states visited (each call on a state counts once).
        depth: the depth (plies) of the completed search; the game length for a full solve.
        elapsed: wall-clock seconds.
        is_proven: ``value`` is exact (no evaluation at a depth horizon was involved).
        plies_to_end: for a proven win or loss, the plies until the game ends with best play
            (the winner hurries, the loser delays); ``None`` otherwise.
        stopped_by: ``"time"`` or ``"nodes"`` when a limit cut the search short (the result is
            then the last completed iteration), else ``None``.
        algorithm: the name of the algorithm that produced it.
        tier: ``"reference"`` (plain Python) or ``"compiled"`` (numba).
        stats: algorithm-specific extras (cutoffs, transposition-table hits, raw score, ...).
    """

    action: int | None
    value: float
    principal_variation: tuple[int, ...] = ()
    nodes: int = 0
    depth: int = 0
    elapsed: float = 0.0
    is_proven: bool = False
    plies_to_end: int | None = None
    stopped_by: str | None = None
    algorithm: str = ""
    tier: Literal["reference", "compiled"] = "reference"
    stats: Mapping[str, Any] = field(default_factory=dict)

    @property
    def outcome(self) -> Outcome:
        """``win``/``loss``/``draw`` for the player to move when proven, else ``unknown``."""
        if not self.is_proven:
            return "unknown"
        if self.value > 0:
            return "win"
        if self.value < 0:
            return "loss"
        return "draw"

    @property
    def nodes_per_second(self) -> float:
        """Search speed (0 when it took no measurable time)."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0
