"""Helpers shared by the textbook searches (minimax, alpha-beta): checks, the node bookkeeping
of their engines, and results."""

from __future__ import annotations

import time
from typing import Any

from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Evaluation, Game, State, check_capabilities
from searchlab.core.game_events import Backup, Visit
from searchlab.core.observer import Observer
from searchlab.core.search_result import SearchResult

__all__ = ["TextbookEngine", "max_value_of", "prepare_search", "result_of"]


def prepare_search(
    game: Game,
    state: State | None,
    algorithm: str,
    depth: int | None,
    evaluate: Evaluation | None,
) -> State:
    """Check capabilities and parameters shared by the searches; return the root state."""
    check_capabilities(game, algorithm)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise InvalidParameterError(f"{algorithm}: depth must be an integer >= 1, got {depth!r}")
    if depth is not None and evaluate is None:
        raise InvalidParameterError(
            f"{algorithm}: a depth limit needs an evaluate(state) function for the horizon"
        )
    return game.initial_state() if state is None else state


def max_value_of(state: State, evaluate: Evaluation) -> float:
    """The horizon estimate of ``state`` for MAX (player 0)."""
    value = float(evaluate(state))
    return value if state.current_player() == 0 else -value


class TextbookEngine:
    """What the minimax and alpha-beta engines share: the depth limit and horizon estimate,
    the observer, the node count, and whether the horizon was reached (the value is then not
    proven). Their ``search`` methods call :meth:`enter` first and :meth:`leave` last."""

    def __init__(
        self, depth: int | None, evaluate: Evaluation | None, observer: Observer | None
    ) -> None:
        self.depth_limit = depth
        self.evaluate = evaluate
        self.observer = observer
        self.nodes = 0
        self.hit_horizon = False

    def enter(
        self, state: State, path: tuple[int, ...], ply: int, alpha: float, beta: float
    ) -> tuple[float, list[int]] | None:
        """Count the node and announce it (:class:`Visit` with ``alpha``, ``beta``); its value
        for MAX and an empty line when it is a leaf (the end of the game, or the horizon:
        ``evaluate``), else ``None``: the caller searches its children."""
        self.nodes += 1
        if self.observer is not None:
            self.observer(Visit(path, state.key(), alpha, beta, ply))
        if state.is_terminal():
            return float(state.returns()[0]), []
        if self.depth_limit is not None and ply >= self.depth_limit:
            self.hit_horizon = True
            return max_value_of(state, self.evaluate), []  # type: ignore[arg-type]
        return None

    def leave(
        self, state: State, path: tuple[int, ...], value: float, line: list[int]
    ) -> tuple[float, list[int]]:
        """Announce the node's value and best action (:class:`Backup`); returns both."""
        if self.observer is not None:
            self.observer(Backup(path, state.key(), value, line[0] if line else None))
        return value, line


def result_of(
    algorithm: str,
    root: State,
    max_value: float,
    line: list[int],
    engine: Any,
    elapsed: float,
    depth: int | None,
    **stats: Any,
) -> SearchResult:
    """Package a MAX-view value and line as a result for the player to move at ``root`` (a
    finished game at the root: :meth:`SearchResult.for_terminal`)."""
    if root.is_terminal():
        return SearchResult.for_terminal(
            root,
            algorithm=algorithm,
            start=time.perf_counter() - elapsed,
            nodes=engine.nodes,
            max_value=max_value,
            **stats,
        )
    value = max_value if root.current_player() == 0 else -max_value
    return SearchResult(
        action=line[0] if line else None,
        value=value,
        principal_variation=tuple(line),
        nodes=engine.nodes,
        depth=depth if depth is not None else len(line),
        elapsed=elapsed,
        is_proven=not engine.hit_horizon,
        algorithm=algorithm,
        stats={"max_value": max_value, **stats},
    )
