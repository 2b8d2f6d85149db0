"""The negamax alpha-beta engine for real play (reference tier, plain Python, any game).

A numbered recipe at every node (:meth:`_Engine.search`):

1. count the node; every 256 nodes, check the node and time limits;
2. a finished game scores its utility, preferring faster wins and slower losses;
3. at the depth horizon, the evaluation function scores the position;
4. transposition table lookup: a deep enough entry may answer at once; its move is tried first;
5. move ordering: TT move, then the two killer moves of this ply, then by history score;
6. principal variation search: the first move with the full window, the others with a null
   window ``(alpha, alpha + 1)``, searched again with the full window if they beat alpha (the
   window and score are negated only for a child where the opponent is to move);
7. a beta cutoff records a killer and a history bonus;
8. store the result (exact, lower or upper bound) in the transposition table.

:func:`iterative_deepening` searches depth 1, 2, 3, ... and yields a
:class:`~searchlab.core.search_result.SearchResult` per completed iteration (anytime: the
caller decides when to stop); :func:`negamax` returns the last one within its
:class:`~searchlab.core.limits.Limits` (``depth``, ``nodes``, ``time``). A search stops early
once its value is proven (an iteration used no evaluation at all).

Scores are integers for the player to move. The player to move is read from each state, never
from the parity of the depth: a child with the opponent to move is searched with the window
negated and its score negated (negamax proper); a child in which the same player moves again
(a run of consecutive plies, as in Snake Go) keeps the window and the score as they are.

A finished game with utility ``u`` (an integer: +1 win, -1 loss, a disc difference) scores
``u * MATE - plies`` for a win and ``u * MATE + plies`` for a loss, so a win in 1 beats a win
in 3 and a loss in 9 beats a loss in 3. An evaluation ``e`` (in ``(-1, 1)``) scores
``e * MATE / 4``, below every decisive score.

>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> result = negamax(TicTacToe())
>>> result.outcome, result.is_proven, result.depth
('draw', True, 9)
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, replace

from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import Evaluation, Game, State, check_capabilities
from searchlab.core.game_events import Visit
from searchlab.core.limits import Limits
from searchlab.core.observer import Observer
from searchlab.core.search_result import SearchResult

__all__ = ["MATE", "TranspositionEntry", "iterative_deepening", "negamax"]

MATE = 1_000_000
"""Score of one unit of utility; a game can last at most ``MATE // 2`` plies."""
_DECISIVE = MATE // 2
_EVAL_SCALE = MATE // 4
_INFINITY = 1 << 62
_PROVEN_DEPTH = 1 << 30  # a proven entry answers a search of any depth
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 256


@dataclass(slots=True)
class TranspositionEntry:
    """What the table keeps per position: search depth, score (relative to the position),
    bound type (0 exact, 1 lower, 2 upper), best action, and whether no evaluation was used."""

    depth: int
    score: int
    flag: int
    action: int | None
    proven: bool


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _terminal_score(state: State, ply: int) -> int:
    utility = state.returns()[state.current_player()]
    if utility != int(utility):
        raise InvalidParameterError(
            f"negamax needs integer utilities (win/loss/draw, disc differences), got "
            f"{utility!r} at {state}"
        )
    utility = int(utility)
    if utility > 0:
        return utility * MATE - ply
    if utility < 0:
        return utility * MATE + ply
    return 0


def _to_table(score: int, ply: int) -> int:
    """Decisive scores are stored relative to the position, not the root."""
    if score >= _DECISIVE:
        return score + ply
    if score <= -_DECISIVE:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= _DECISIVE:
        return score - ply
    if score <= -_DECISIVE:
        return score + ply
    return score


class _Engine:
    def __init__(
        self,
        evaluate: Evaluation | None,
        limits: Limits,
        observer: Observer | None,
        table: dict[Hashable, TranspositionEntry],
    ) -> None:
        self.evaluate = evaluate
        self.node_limit = limits.nodes
        self.deadline = None if limits.time is None else time.perf_counter() + limits.time
        self.observer = observer
        self.table = table
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        self.nodes = 0
        self.horizon_hits = 0
        self.cutoffs = 0
        self.table_hits = 0
        self.researches = 0
        self.path: list[int] = []

    def evaluation(self, state: State) -> int:
        if self.evaluate is None:
            return 0
        estimate = max(-1.0, min(1.0, float(self.evaluate(state))))
        return round(estimate * _EVAL_SCALE)

    def order(self, actions: list[int], table_action: int | None, ply: int) -> list[int]:
        history = self.history
        ordered = sorted(actions, key=lambda a: -history.get(a, 0))
        front = [a for a in self.killers.get(ply, ()) if a in actions]
        if table_action is not None and table_action in actions:
            front.insert(0, table_action)
        if not front:
            return ordered
        first = list(dict.fromkeys(front))  # without repeats, in order
        seen = set(first)
        return first + [a for a in ordered if a not in seen]

    def child_score(
        self, child: State, player: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The score of ``child`` for ``player`` (to move at its parent), searched with the
        window ``(alpha, beta)`` seen by ``player``: negated (score and window) when the
        child's player to move is the opponent, as is, when ``player`` moves again."""
        if child.current_player() == player:
            return self.search(child, depth, alpha, beta, ply)
        return -self.search(child, depth, -beta, -alpha, ply)

    def search(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        # Step 1. Count the node, check the limits now and then.
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            if self.node_limit is not None and self.nodes >= self.node_limit:
                raise _Stop("nodes")
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _Stop("time")
        if self.observer is not None:
            self.observer(Visit(tuple(self.path), state.key(), alpha, beta, ply))
        # Step 2. A finished game.
        if state.is_terminal():
            return _terminal_score(state, ply)
        # Step 3. The horizon.
        if depth <= 0:
            self.horizon_hits += 1
            return self.evaluation(state)
        # Step 4. Transposition table.
        key = state.key()
        entry = self.table.get(key)
        table_action = None
        if entry is not None:
            table_action = entry.action
            if entry.depth >= depth:
                score = _from_table(entry.score, ply)
                if (
                    entry.flag == _EXACT
                    or (entry.flag == _LOWER and score >= beta)
                    or (entry.flag == _UPPER and score <= alpha)
                ):
                    self.table_hits += 1
                    if not entry.proven:
                        self.horizon_hits += 1
                    return score
        # Step 5. Move ordering.
        actions = self.order(list(state.legal_actions()), table_action, ply)
        # Step 6. Principal variation search.
        original_alpha, hits_before = alpha, self.horizon_hits
        best, best_action = -_INFINITY, actions[0]
        player = state.current_player()
        for index, action in enumerate(actions):
            child = state.apply(action)
            self.path.append(action)
            if index == 0:
                score = self.child_score(child, player, depth - 1, alpha, beta, ply + 1)
            else:
                score = self.child_score(child, player, depth - 1, alpha, alpha + 1, ply + 1)
                if alpha < score < beta:
                    self.researches += 1
                    score = self.child_score(child, player, depth - 1, alpha, beta, ply + 1)
            self.path.pop()
            if score > best:
                best, best_action = score, action
            if score > alpha:
                alpha = score
            if alpha >= beta:
                # Step 7. Killer and history for the move that cut off.
                self.cutoffs += 1
                killers = self.killers.setdefault(ply, [])
                if action not in killers:
                    killers.insert(0, action)
                    del killers[2:]
                self.history[action] = self.history.get(action, 0) + depth * depth
                break
        # Step 8. Store.
        proven = self.horizon_hits == hits_before
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = TranspositionEntry(
            _PROVEN_DEPTH if proven else depth, _to_table(best, ply), flag, best_action, proven
        )
        return best


def _principal_variation(
    root: State, table: dict[Hashable, TranspositionEntry], limit: int
) -> tuple[int, ...]:
    line: list[int] = []
    state, seen = root, set()
    while not state.is_terminal() and len(line) < limit:
        entry = table.get(state.key())
        if entry is None or entry.action is None or state.key() in seen:
            break
        seen.add(state.key())
        line.append(entry.action)
        state = state.apply(entry.action)
    return tuple(line)


def _value_of(score: int, proven: bool) -> tuple[float, int | None]:
    """(value in utility units, plies to the end) of a root score."""
    if score >= _DECISIVE:
        units = round(score / MATE)
        return float(units), units * MATE - score
    if score <= -_DECISIVE:
        units = round(-score / MATE)
        return float(-units), units * MATE + score
    return (0.0 if proven else score / _EVAL_SCALE), None


def iterative_deepening(
    game: Game,
    state: State | None = None,
    *,
    limits: Limits | None = None,
    evaluate: Evaluation | None = None,
    observer: Observer | None = None,
    table: dict[Hashable, TranspositionEntry] | None = None,
) -> Iterator[SearchResult]:
    """Search depth 1, 2, ... and yield a result per completed iteration.

    Stops after the iteration that proves the value, at ``limits.depth``, or (without
    yielding the unfinished iteration) when ``limits.nodes`` or ``limits.time`` runs out. Pass
    a ``table`` (a dict) to keep the transposition table between calls.

    Args:
        game: a two-player, zero-sum, deterministic, perfect-information game with integer
            utilities.
        state: the root (default: the initial state).
        limits: ``depth`` (plies), ``nodes``, ``time`` (seconds); ``None``: until proven.
        evaluate: horizon estimate in ``(-1, 1)`` for the player to move (default 0).
        observer: receives a :class:`~searchlab.core.game_events.Visit` per node (alpha and
            beta in negamax form: for the player to move there).
    """
    check_capabilities(game, "negamax")
    root = game.initial_state() if state is None else state
    return _iterations(root, limits or Limits(), evaluate, observer, table, {})


def _iterations(
    root: State,
    limits: Limits,
    evaluate: Evaluation | None,
    observer: Observer | None,
    table: dict[Hashable, TranspositionEntry] | None,
    status: dict[str, str],
) -> Iterator[SearchResult]:
    if root.is_terminal():
        _terminal_score(root, 0)  # integer utilities only, as everywhere in negamax
        yield SearchResult.for_terminal(root, algorithm="negamax")
        return
    table = {} if table is None else table
    engine = _Engine(evaluate, limits, observer, table)
    start = time.perf_counter()
    depth = 0
    max_depth = limits.depth if limits.depth is not None else _DECISIVE - 1
    while depth < max_depth:
        depth += 1
        hits_before = engine.horizon_hits
        try:
            score = engine.search(root, depth, -_INFINITY, _INFINITY, 0)
        except _Stop as stop:
            status["stopped_by"] = stop.reason
            return
        # Proven only when no evaluation was used: a decisive score seen through a horizon
        # can still hide a bigger win or loss (utilities other than +-1) beyond it.
        proven = engine.horizon_hits == hits_before
        value, plies = _value_of(score, proven)
        line = _principal_variation(root, table, depth if not proven else _DECISIVE)
        yield SearchResult(
            action=line[0] if line else table[root.key()].action,
            value=value,
            principal_variation=line,
            nodes=engine.nodes,
            depth=depth,
            elapsed=time.perf_counter() - start,
            is_proven=proven,
            plies_to_end=plies,
            algorithm="negamax",
            stats={
                "score": score,
                "cutoffs": engine.cutoffs,
                "table_hits": engine.table_hits,
                "researches": engine.researches,
                "table_size": len(table),
            },
        )
        if proven:
            return


def negamax(
    game: Game,
    state: State | None = None,
    *,
    limits: Limits | None = None,
    evaluate: Evaluation | None = None,
    observer: Observer | None = None,
) -> SearchResult:
    """The last completed iteration of :func:`iterative_deepening` (same arguments).

    If a node or time limit stops the search before depth 1 completes, the result holds the
    first legal action, value 0, depth 0, and ``stopped_by`` says which limit.
    """
    check_capabilities(game, "negamax")
    root = game.initial_state() if state is None else state
    status: dict[str, str] = {}
    last: SearchResult | None = None
    for last in _iterations(root, limits or Limits(), evaluate, observer, None, status):  # noqa: B007
        pass
    stopped_by = status.get("stopped_by")
    if last is None:
        actions = root.legal_actions()
        return SearchResult(
            action=actions[0] if actions else None,
            value=0.0,
            stopped_by=stopped_by,
            algorithm="negamax",
        )
    return last if stopped_by is None else replace(last, stopped_by=stopped_by)
