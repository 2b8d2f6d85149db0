"""Tier selection: the public call is the same, the compiled tier runs when the domain has one.

Each function returns ``None`` when the problem has no compiled path for the request (a user
heuristic, an unsupported domain), and the caller then runs the reference tier.
"""

from __future__ import annotations

import time
from typing import Any

from searchlab.core.limits import Limits
from searchlab.core.results import PathResult
from searchlab.core.search_result import SearchResult

__all__ = ["compiled_best_first", "compiled_idastar", "compiled_solve"]


def compiled_best_first(
    problem: Any,
    *,
    heuristic: Any,
    g_weight: float,
    h_weight: float,
    unit_cost: bool,
    reopen: bool,
    limits: Limits | None,
    observer: Any,
) -> PathResult | None:
    """Run the compiled best-first engine if ``problem`` is a grid and uses its own heuristic."""
    if heuristic is not None:
        return None
    from searchlab.domains.path.grid import GridProblem

    if not isinstance(problem, GridProblem):
        return None
    from searchlab.algorithms.path.grid_astar import compiled_grid_best_first

    return compiled_grid_best_first(
        problem,
        g_weight=g_weight,
        h_weight=h_weight,
        unit_cost=unit_cost,
        reopen=reopen,
        limits=limits,
        observer=observer,
    )


def compiled_idastar(
    problem: Any, *, heuristic: Any, limits: Limits | None, observer: Any
) -> PathResult | None:
    """Run the compiled IDA* if ``problem`` is a sliding-tile puzzle using its own heuristic."""
    if heuristic is not None or observer is not None:
        return None
    from searchlab.domains.path.sliding_tile import SlidingTilePuzzle

    if not isinstance(problem, SlidingTilePuzzle):
        return None
    from searchlab.algorithms.path.tile_idastar import compiled_tile_idastar

    return compiled_tile_idastar(problem, limits=limits)


# --- exact game solving ------------------------------------------------------------------
#
# ``solve`` (reference) returns, for the player to move: the value in the units of the
# state's ``returns()``, the plies to the end under best play (fastest win, slowest loss;
# ties to the first action in ``legal_actions()`` order) and a best action, with
# ``stats["action_values"]`` for every root move. The compiled solvers score differently
# (Pons' score for Connect Four, the disc difference for Othello); the functions below map
# their answers onto exactly that meaning, or return ``None``.


def compiled_solve(game: Any, state: Any) -> SearchResult | None:
    """Solve ``state`` of ``game`` with a compiled solver, with the meaning of the reference
    :func:`~searchlab.algorithms.adversarial.solver.solve`; ``None`` when the game has none
    (only the built-in Connect Four and Othello classes, not subclasses, qualify)."""
    from searchlab.domains.games.connect4 import Connect4, Connect4State
    from searchlab.domains.games.othello import Othello, OthelloState

    if type(game) is Connect4 and type(state) is Connect4State:
        return _solve_connect4(state)
    if type(game) is Othello and type(state) is OthelloState:
        return _solve_othello(state)
    return None


def _terminal_result(state: Any, start: float) -> SearchResult:
    return SearchResult(
        action=None,
        value=float(state.returns()[state.current_player()]),
        nodes=1,
        elapsed=time.perf_counter() - start,
        is_proven=True,
        algorithm="solve",
        tier="compiled",
        stats={"action_values": {}},
    )


def _sign(x: float) -> float:
    return float((x > 0) - (x < 0))


def _solve_connect4(state: Any) -> SearchResult:
    """Pons' score ``s`` maps to value ``sign(s)`` (the game's returns are +-1/0) and
    ``plies_to_end(s)``: a higher score is a sooner win or a later loss, the reference's
    preference; a draw fills the board. The best move keeps the exact score."""
    from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, plies_to_end

    start = time.perf_counter()
    if state.is_terminal():
        return _terminal_result(state, start)
    solver = Connect4Solver(table_log2=20 if state.num_moves >= 16 else 23)
    found = solver.solve(state, principal_variation=True)
    score = int(found.stats["score"])
    action_values = {}
    for action in state.legal_actions():
        child = state.apply(action)
        if child.is_terminal():
            action_values[action] = float(child.returns()[state.current_player()])
        else:
            action_values[action] = 0.0 - _sign(solver.score(child, weak=True))
    ending = plies_to_end(score, state.num_moves)
    return SearchResult(
        action=found.action,
        value=_sign(score),
        principal_variation=found.principal_variation,
        nodes=int(solver._counter[0]),  # the score, moves, line and move values
        depth=len(found.principal_variation),
        elapsed=time.perf_counter() - start,
        is_proven=True,
        plies_to_end=ending,
        algorithm="solve",
        tier="compiled",
        stats={"action_values": action_values, "score": score},
    )


def _solve_othello(state: Any) -> SearchResult | None:
    """With ``scoring="discs"`` the endgame solver's exact disc difference is the value.
    Plies are not part of its score, so the line is rebuilt as the reference builds it: among
    the moves that keep the exact value (each checked by a null-window search around it), the
    fastest win / slowest loss (ties: first in ``legal_actions()`` order), recursively with
    memoisation; a draw follows its first drawing move. ``scoring="win_loss"`` is left to the
    reference: every winning move would have to be followed, not only the disc-optimal ones."""
    if state.scoring != "discs":
        return None
    import numpy as np

    from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver

    start = time.perf_counter()
    if state.is_terminal():
        return _terminal_result(state, start)
    solver = EndgameSolver(table_bits=16 if state.empties() <= 12 else 20)
    counters = np.array([0, np.iinfo(np.int64).max, 0], dtype=np.int64)
    table: dict[Any, tuple[int, int | None]] = {}
    root = solver.solve(state, move_scores=True)
    root_scores: dict[int, int] = dict(root.stats["move_scores"])

    def keeps(position: Any, action: int, value: int) -> bool:
        """Does ``action`` keep the exact ``value`` of ``position`` (for its mover)?"""
        if position is state:
            return root_scores[action] == value
        child = position.apply(action)
        if child.is_terminal():
            return -child.score() == value
        mine, theirs = child.mover_bits()
        return solver.score(mine, theirs, -value - 1, -value + 1, counters) == -value

    def best_line(position: Any, value: int) -> tuple[int, int | None]:
        """``(plies to the end, best action)`` of ``position``, whose exact value is known."""
        key = position.key()
        entry = table.get(key)
        if entry is not None:
            return entry
        action, plies = None, 0
        if not position.is_terminal():
            for candidate in position.legal_actions():
                if not keeps(position, candidate, value):
                    continue
                child_plies = best_line(position.apply(candidate), -value)[0] + 1
                if (
                    action is None
                    or (value > 0 and child_plies < plies)
                    or (value < 0 and child_plies > plies)
                ):
                    action, plies = candidate, child_plies
                if value == 0:
                    break  # the reference keeps the first drawing move
        table[key] = entry = (plies, action)
        return entry

    value = int(root.stats["score"])
    plies, action = best_line(state, value)
    line = []
    position, step_value = state, value
    while not position.is_terminal():
        step = best_line(position, step_value)[1]
        assert step is not None
        line.append(step)
        position, step_value = position.apply(step), -step_value
    return SearchResult(
        action=action,
        value=float(value),
        principal_variation=tuple(line),
        nodes=root.nodes + int(counters[0]),
        depth=plies,
        elapsed=time.perf_counter() - start,
        is_proven=True,
        plies_to_end=plies if value != 0 else None,
        algorithm="solve",
        tier="compiled",
        stats={
            "action_values": {a: float(root_scores[a]) for a in state.legal_actions()},
            "score": value,
        },
    )
