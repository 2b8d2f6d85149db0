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

A search asked about a finished game answers with :meth:`SearchResult.for_terminal`, the one
way every algorithm builds that result.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from searchlab.core.game import State

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
        stats: algorithm-specific extras (cutoffs, transposition-table hits, ...).
        score: the solver's native score of the root, when it has one, for the player to move:
            Pons' score for Connect Four (``22 - k`` for a win with the mover's ``k``-th
            stone, ``k - 22`` for a loss to the opponent's ``k``-th stone, 0 a draw), the final
            disc difference for Othello; ``None`` for searches without one. ``value`` keeps
            the units of ``returns()``.
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
    score: int | None = None

    @classmethod
    def for_terminal(
        cls,
        state: State,
        *,
        algorithm: str,
        tier: Literal["reference", "compiled"] = "reference",
        start: float | None = None,
        nodes: int = 1,
        score: int | None = None,
        **stats: Any,
    ) -> SearchResult:
        """The exact result of a search started on a finished game: no action, the mover's
        return as ``value``, proven, ``plies_to_end`` 0 for a won or lost game (``None`` for
        a draw, as for every proven draw), depth 0, ``nodes`` (default 1: the position itself;
        Monte Carlo searches, which count tree nodes, pass 0).

        ``start`` is the ``time.perf_counter()`` reading when the search began (for
        ``elapsed``); ``stats`` become the result's ``stats`` (an algorithm's usual keys, so
        that callers find them on a finished game too).

        >>> from searchlab.domains.games.tictactoe import TicTacToe
        >>> from searchlab.core.game import play
        >>> won = play(TicTacToe().initial_state(), ["a1", "b1", "a2", "b2", "a3"])
        >>> result = SearchResult.for_terminal(won, algorithm="negamax", cutoffs=0)
        >>> result.action, result.value, result.outcome, result.plies_to_end, result.stats
        (None, -1.0, 'loss', 0, {'cutoffs': 0})
        """
        value = float(state.returns()[state.current_player()])
        return cls(
            action=None,
            value=value,
            nodes=nodes,
            elapsed=0.0 if start is None else time.perf_counter() - start,
            is_proven=True,
            plies_to_end=0 if value != 0 else None,
            algorithm=algorithm,
            tier=tier,
            stats=stats,
            score=score,
        )

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
