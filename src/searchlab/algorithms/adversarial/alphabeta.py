"""Alpha-beta pruning: the minimax value with fewer nodes (textbook MAX/MIN form, fail-soft).

``alpha`` is the best value MAX can already force on the path to a node, ``beta`` the best MIN
can; once ``alpha >= beta`` at a node (equality prunes too), its remaining children cannot
change the value at the root and are skipped. Whether a node is MAX's or MIN's is read from its
state (``current_player()``), so the bounds stay right through a run of plies by one player.
Children are searched in ``legal_actions()`` order. The value equals
:func:`~searchlab.algorithms.adversarial.minimax.minimax`'s; the best action is the first one
reaching it.

:func:`alphabeta_trace` lists, for every node searched, the alpha and beta it was given, its
value, and the children it pruned: on an explicit tree it is the picture of a textbook figure.

>>> from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
>>> tree = ExplicitTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> result = alphabeta(ExplicitTreeGame(tree))
>>> result.value, result.action, result.nodes, result.stats["pruned"]
(3.0, 0, 11, 2)
>>> [(e.name, e.alpha, e.beta, e.pruned) for e in alphabeta_trace(ExplicitTreeGame(tree))
...  if e.pruned]
[('R.2', 3.0, inf, ('R.2.2', 'R.2.3'))]
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from searchlab.algorithms.adversarial._common import TextbookEngine, prepare_search, result_of
from searchlab.core.game import Evaluation, Game, State
from searchlab.core.game_events import Backup, Prune, Visit
from searchlab.core.observer import Observer, TraceRecorder
from searchlab.core.search_result import SearchResult

__all__ = ["TraceEntry", "alphabeta", "alphabeta_trace", "pruned_leaves"]


class _AlphaBeta(TextbookEngine):
    def __init__(
        self, depth: int | None, evaluate: Evaluation | None, observer: Observer | None
    ) -> None:
        super().__init__(depth, evaluate, observer)
        self.cutoffs = 0
        self.pruned = 0

    def search(
        self, state: State, alpha: float, beta: float, path: tuple[int, ...], ply: int
    ) -> tuple[float, list[int]]:
        leaf = self.enter(state, path, ply, alpha, beta)
        if leaf is not None:
            return self.leave(state, path, *leaf)
        maximizing = state.current_player() == 0
        value = -math.inf if maximizing else math.inf
        line: list[int] = []
        actions = state.legal_actions()
        for index, action in enumerate(actions):
            child_value, child_line = self.search(
                state.apply(action), alpha, beta, (*path, action), ply + 1
            )
            if maximizing:
                if child_value > value:
                    value, line = child_value, [action, *child_line]
                alpha = max(alpha, value)
            else:
                if child_value < value:
                    value, line = child_value, [action, *child_line]
                beta = min(beta, value)
            if alpha >= beta:
                rest = tuple(actions[index + 1 :])
                if rest:
                    self.cutoffs += 1
                    self.pruned += len(rest)
                    if self.observer is not None:
                        self.observer(Prune(path, state.key(), alpha, beta, rest))
                break
        return self.leave(state, path, value, line)


def alphabeta(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluation | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """Alpha-beta value and best action of ``state`` (default: the initial state).

    Same arguments and errors as :func:`~searchlab.algorithms.adversarial.minimax.minimax`;
    ``observer`` also receives :class:`~searchlab.core.game_events.Prune` events.
    ``stats``: ``cutoffs`` (nodes that pruned), ``pruned`` (children skipped), ``max_value``.
    """
    root = prepare_search(game, state, "alphabeta", depth, evaluate)
    engine = _AlphaBeta(depth, evaluate, observer)
    start = time.perf_counter()
    value, line = engine.search(root, -math.inf, math.inf, (), 0)
    return result_of(
        "alphabeta",
        root,
        value,
        line,
        engine,
        time.perf_counter() - start,
        depth,
        cutoffs=engine.cutoffs,
        pruned=engine.pruned,
    )


@dataclass(frozen=True, slots=True)
class TraceEntry:
    """One searched node: its name (the state's key, e.g. an explicit tree's node name),
    ``alpha``/``beta`` when it was entered, its final value (MAX's view), and the children it
    pruned, with the ``cut_alpha``/``cut_beta`` (``alpha >= beta``) that caused it."""

    name: str
    depth: int
    alpha: float
    beta: float
    value: float
    pruned: tuple[str, ...] = ()
    cut_alpha: float | None = None
    cut_beta: float | None = None


def alphabeta_trace(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    evaluate: Evaluation | None = None,
) -> list[TraceEntry]:
    """Run :func:`alphabeta` and list every searched node in the order it was entered."""
    root = prepare_search(game, state, "alphabeta", depth, evaluate)
    recorder = TraceRecorder()
    alphabeta(game, root, depth=depth, evaluate=evaluate, observer=recorder)
    visits: dict[tuple[int, ...], Visit] = {}
    values: dict[tuple[int, ...], float] = {}
    prunes: dict[tuple[int, ...], Prune] = {}
    for event in recorder.events:
        if isinstance(event, Visit):
            visits[event.path] = event
        elif isinstance(event, Backup):
            values[event.path] = event.value
        elif isinstance(event, Prune):
            prunes[event.path] = event
    entries = []
    for path, visit in visits.items():
        prune = prunes.get(path)
        node = _walk(root, path)
        entries.append(
            TraceEntry(
                name=str(visit.key),
                depth=visit.depth,
                alpha=visit.alpha,
                beta=visit.beta,
                value=values[path],
                pruned=tuple(str(node.apply(a).key()) for a in prune.pruned) if prune else (),
                cut_alpha=prune.alpha if prune else None,
                cut_beta=prune.beta if prune else None,
            )
        )
    return entries


def pruned_leaves(game: Game, state: State | None = None) -> list[str]:
    """Names (keys) of the terminal states alpha-beta never visited, below pruned children,
    left to right: on an explicit tree, the leaves a textbook figure crosses out.

    >>> from searchlab.domains.games.explicit_tree import ExplicitTree, ExplicitTreeGame
    >>> pruned_leaves(ExplicitTreeGame(ExplicitTree.from_nested([[3, 12], [2, 4, 6]])))
    ['R.2.2', 'R.2.3']
    """
    root = prepare_search(game, state, "alphabeta", None, None)
    recorder = TraceRecorder()
    alphabeta(game, root, observer=recorder)
    leaves: list[str] = []
    for event in recorder.events:
        if isinstance(event, Prune):
            node = _walk(root, event.path)
            for action in event.pruned:
                leaves.extend(_terminal_keys(node.apply(action)))
    return leaves


def _walk(state: State, path: tuple[int, ...]) -> State:
    for action in path:
        state = state.apply(action)
    return state


def _terminal_keys(state: State) -> list[str]:
    if state.is_terminal():
        return [str(state.key())]
    return [key for a in state.legal_actions() for key in _terminal_keys(state.apply(a))]
