"""Exact solving of small games: the game-theoretic value of every position, memoised by key.

Each position is solved once (a transposition table keyed by ``state.key()``), so the cost is
the number of distinct positions, not the size of the tree. Values are for the player to move,
read from each state (a child where the same player moves again, a run of consecutive plies as
in Snake Go, keeps its value; one where the opponent moves is negated); among moves of equal
value the solver prefers the fastest win and the slowest loss, so ``plies_to_end`` is the
length of the game under best play.

>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> result = solve(TicTacToe())
>>> result.outcome, result.depth, result.stats["positions"]
('draw', 9, 5478)

Two tiers, one call: :func:`solve` runs the compiled solver registered for the game's type in
:data:`~searchlab.algorithms.kernels.KERNELS` (Connect Four: Pons' solver; Othello: the
endgame solver), with the same meaning of value, plies and best action (see
``docs/algorithms/adversarial.md``, "Tiers"); ``tier="reference"`` forces this module's
plain-Python solver.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

from searchlab.algorithms.kernels import KERNELS
from searchlab.core.errors import SearchStopped
from searchlab.core.game import Game, State, check_capabilities
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.core.tier import Tier, check_tier, describe

__all__ = ["Solver", "solve", "solve_within"]


class Solver:
    """A memoising solver bound to one game; reuse it to share the table between positions.

    ``table[key] = (value, plies_to_end, best_action)`` for every solved position.

    ``limits`` (``time``: seconds from construction; ``nodes``: distinct positions) make
    :meth:`value` raise :class:`~searchlab.core.errors.SearchStopped` before it enters a new
    position past them; positions already in the table are still answered. Set ``limits`` to
    ``None`` to lift them (e.g. to read :meth:`action_values` once the root is solved).

    >>> from searchlab.domains.games.tictactoe import TicTacToe
    >>> Solver(TicTacToe(), limits=Limits(nodes=100)).value(TicTacToe().initial_state())
    Traceback (most recent call last):
    ...
    searchlab.core.errors.SearchStopped: solve: stopped after 100 positions (nodes limit)
    """

    def __init__(self, game: Game, limits: Limits | None = None) -> None:
        check_capabilities(game, "solve")
        self.game = game
        self.table: dict[Hashable, tuple[float, int, int | None]] = {}
        self.nodes = 0
        self.limits = limits
        self._deadline = (
            None if limits is None or limits.time is None else time.perf_counter() + limits.time
        )

    def _check_limits(self, limits: Limits) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchStopped("time", f"solve: stopped after {limits.time} s (time limit)")
        if limits.nodes is not None and self.nodes >= limits.nodes:
            raise SearchStopped(
                "nodes", f"solve: stopped after {limits.nodes} positions (nodes limit)"
            )

    def value(self, state: State) -> tuple[float, int, int | None]:
        """``(value for the player to move, plies to the end, best action)`` of ``state``."""
        key = state.key()
        entry = self.table.get(key)
        if entry is not None:
            return entry
        if self.limits is not None:
            self._check_limits(self.limits)
        self.nodes += 1
        player = state.current_player()
        if state.is_terminal():
            entry = (float(state.returns()[player]), 0, None)
        else:
            best: tuple[float, int, int | None] | None = None
            for action in state.legal_actions():
                child_value, child_plies = self._child_value(state.apply(action), player)
                candidate = (child_value, child_plies + 1, action)
                if best is None or _better(candidate, best):
                    best = candidate
            entry = best
        self.table[key] = entry  # type: ignore[assignment]
        return entry  # type: ignore[return-value]

    def _child_value(self, child: State, player: int) -> tuple[float, int]:
        """``(value for player, plies to the end)`` of ``child``, a position after a move of
        ``player``: its value is for its own player to move, negated when that is the
        opponent (zero-sum), as is when ``player`` moves again."""
        value, plies, _ = self.value(child)
        if child.current_player() != player:
            value = 0.0 - value  # no -0.0
        return value, plies

    def action_values(self, state: State) -> dict[int, tuple[float, int]]:
        """``{action: (value for the player to move, plies to the end)}`` for every move."""
        player = state.current_player()
        values = {}
        for action in state.legal_actions():
            child_value, child_plies = self._child_value(state.apply(action), player)
            values[action] = (child_value, child_plies + 1)
        return values

    def principal_variation(self, state: State) -> tuple[int, ...]:
        """The line of best play from ``state`` to the end of the game."""
        line = []
        while not state.is_terminal():
            action = self.value(state)[2]
            assert action is not None
            line.append(action)
            state = state.apply(action)
        return tuple(line)


def _better(a: tuple[float, int, int | None], b: tuple[float, int, int | None]) -> bool:
    """Is move ``a`` better than ``b``: higher value; for equal wins sooner, losses later."""
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] > 0:
        return a[1] < b[1]
    if a[0] < 0:
        return a[1] > b[1]
    return False


def solve(game: Game, state: State | None = None, *, tier: Tier = "auto") -> SearchResult:
    """Solve ``state`` (default: the initial state) exactly.

    The result is proven: ``value`` for the player to move (in the units of ``returns()``),
    ``plies_to_end`` the game length under best play for a win or loss (the winner hurries,
    the loser delays), ``action`` a best move (best value, then fastest win / slowest loss),
    ``principal_variation`` a best line to the end, ``stats["action_values"]`` each root
    action's value for the player to move. The reference tier adds ``stats["positions"]``,
    the distinct positions solved; the compiled tier's ``nodes`` and other ``stats`` are its
    solver's own.

    Args:
        tier: ``"auto"`` runs the compiled solver registered for the game's exact type when
            it takes the position (the built-in
            :class:`~searchlab.domains.games.connect4.Connect4`, and
            :class:`~searchlab.domains.games.othello.Othello` with ``scoring="discs"``), else
            the reference;
            ``"reference"`` always runs the plain-Python memoising solver; ``"compiled"``
            insists on the compiled one.

    Raises:
        InvalidParameterError: the game lacks a needed capability; ``tier`` is not one of
            ``"auto"``, ``"reference"``, ``"compiled"``; ``tier="compiled"`` for a game without
            a compiled solver.

    >>> from searchlab.domains.games.connect4 import Connect4
    >>> game = Connect4()
    >>> state = game.from_moves("2252576253462244111563365343671351441")  # Pons: scores -1
    >>> fast, slow = solve(game, state), solve(game, state, tier="reference")
    >>> (fast.value, fast.plies_to_end, fast.tier), (slow.value, slow.plies_to_end, slow.tier)
    ((-1.0, 4, 'compiled'), (-1.0, 4, 'reference'))
    """
    check_tier(tier, "solve")
    check_capabilities(game, "solve")
    root = game.initial_state() if state is None else state
    return KERNELS.run(
        "solve",
        game,
        tier,
        reference=lambda: solve_within(game, root),
        why_not=(
            f"no compiled tier for this position of {describe(game)} (compiled solvers: the "
            'built-in Connect4 and Othello, with scoring="discs", on their own states)'
        ),
        state=root,
    )


def solve_within(game: Game, state: State, limits: Limits | None = None) -> SearchResult:
    """The plain-Python tier of :func:`solve` (:class:`Solver`), under ``limits`` (``time``:
    seconds; ``nodes``: distinct positions entered).

    Solved, the result is :func:`solve`'s: proven, ``stats["action_values"]`` the value of
    every move. When a limit stops it first, nothing is known: ``action`` ``None``, value 0,
    not proven, ``stopped_by`` the limit, ``nodes`` the positions entered.

    >>> from searchlab.domains.games.tictactoe import TicTacToe
    >>> game = TicTacToe()
    >>> stopped = solve_within(game, game.initial_state(), Limits(nodes=100))
    >>> stopped.stopped_by, stopped.action, stopped.nodes, stopped.is_proven
    ('nodes', None, 100, False)
    >>> solve_within(game, game.initial_state()).nodes
    5478
    """
    start = time.perf_counter()
    if state.is_terminal():
        return SearchResult.for_terminal(
            state, algorithm="solve", start=start, positions=1, action_values={}
        )
    solver = Solver(game, limits)
    try:
        value, plies, action = solver.value(state)
    except SearchStopped as stop:
        return SearchResult(
            action=None,
            value=0.0,
            nodes=solver.nodes,
            elapsed=time.perf_counter() - start,
            stopped_by=stop.limit,
            algorithm="solve",
            stats={"positions": len(solver.table), "action_values": {}},
        )
    solver.limits = None  # every position below the root is solved now
    root = state
    action_values = {a: v for a, (v, _) in solver.action_values(root).items()}
    line = solver.principal_variation(root)
    return SearchResult(
        action=action,
        value=value,
        principal_variation=line,
        nodes=solver.nodes,
        depth=plies,
        elapsed=time.perf_counter() - start,
        is_proven=True,
        plies_to_end=plies if value != 0 else None,
        algorithm="solve",
        stats={"positions": len(solver.table), "action_values": action_values},
    )
