"""A solver's result checked against the exact score a test file expects: Pons' Connect Four
sets (``MOVES SCORE``) and the FFO Othello endgames (an OBF line's move scores), as
``searchlab solve connect4 --positions`` and ``solve othello --obf`` report them.

A solve stopped by a limit proves bounds on the score (``stats["bounds"]``): it disagrees with
the file only when the expected score lies outside them.

>>> from searchlab.core.search_result import SearchResult
>>> solved = SearchResult(action=3, value=1.0, score=18)
>>> stopped = SearchResult(action=None, value=0.0, stopped_by="nodes", stats={"bounds": (-2, 4)})
>>> score_verdict(18, solved), score_verdict(17, solved)
(True, False)
>>> score_verdict(3, stopped), score_verdict(5, stopped)
(None, False)
"""

from __future__ import annotations

from typing import Literal

from searchlab.core.search_result import SearchResult
from searchlab.domains.games.othello.obf import ObfPosition

__all__ = ["EndgameStatus", "endgame_status", "proved_bounds", "score_verdict"]

EndgameStatus = Literal["ok", "mismatch", "unchecked", "stopped"]


def proved_bounds(result: SearchResult) -> tuple[int, int] | None:
    """``(lower, upper)`` proved on the score by a stopped solve, ``None`` when it has none."""
    bounds = result.stats.get("bounds")
    return None if bounds is None else (int(bounds[0]), int(bounds[1]))


def score_verdict(expected: int, result: SearchResult) -> bool | None:
    """``True``: solved with the ``expected`` score; ``False``: a different score, or stopped
    with bounds that exclude it; ``None``: stopped with ``expected`` inside the bounds."""
    if result.stopped_by:
        bounds = proved_bounds(result)
        if bounds is not None and not bounds[0] <= expected <= bounds[1]:
            return False
        return None
    return result.score == expected


def endgame_status(position: ObfPosition, result: SearchResult) -> EndgameStatus:
    """``stopped`` (a limit ended the solve), ``unchecked`` (the line lists no move scores),
    ``ok`` (the best score, and a move reaching it when the line names them) or
    ``mismatch``."""
    if result.stopped_by:
        return "stopped"
    expected = position.best_score
    if expected is None:
        return "unchecked"
    best_moves = position.best_moves
    if result.score == expected and (not best_moves or result.action in best_moves):
        return "ok"
    return "mismatch"
