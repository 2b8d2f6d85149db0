"""Every compiled kernel of searchlab, in one explicit registry.

:data:`KERNELS` maps ``(algorithm, domain type)`` to the compiled (numba) function that runs
that algorithm on exactly that type (a subclass may change the rules, so it runs the reference
tier). The public entry points (``best_first_search`` and the A* family, ``idastar``,
``jump_point_search``, ``solve``, ``mcts``) ask it through
:meth:`~searchlab.core.tier.KernelRegistry.run`; a kernel is called as
``kernel(domain, **request)``, returns a result in the reference tier's shape (same type,
same meaning of every field, the same ``algorithm`` name), or ``None`` when the request is
beyond it. Kernels are named as ``"module:function"`` strings, so numba modules load only
when a compiled search runs.

Adding a compiled game or algorithm is one ``KERNELS.register`` line here (and, for an MCTS
kernel, its entry in :data:`MCTS_ROLLOUTS`: the rollout policies it compiles, and in
:data:`MCTS_FEATURES` any option beyond plain UCT it runs, such as ``rave``).

>>> from searchlab.domains.path.grid import GridProblem
>>> KERNELS.domains("best_first") == (GridProblem,)
True
>>> sorted(KERNELS.algorithms())[:3]
['best_first', 'idastar', 'jump_point_search']
>>> from searchlab.domains.games.snakego import SnakeGo
>>> mcts_rollouts(SnakeGo(size=8)), mcts_rollouts(GridProblem)
(('random', 'informed'), ('random',))
>>> "rave" in mcts_features(SnakeGo(size=8))
False
"""

from __future__ import annotations

from searchlab.core.tier import KernelRegistry
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.go import Go
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.snakego import SnakeGo
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle

__all__ = ["KERNELS", "MCTS_FEATURES", "MCTS_ROLLOUTS", "mcts_features", "mcts_rollouts"]

KERNELS = KernelRegistry()
"""The one registry of compiled kernels."""

# --- path search -------------------------------------------------------------------------
# request: options (BestFirstOptions), limits, observer
KERNELS.register("best_first", GridProblem, "searchlab.algorithms.path.grid_astar:grid_best_first")
# request: heuristic, limits, observer
KERNELS.register(
    "idastar", SlidingTilePuzzle, "searchlab.algorithms.path.tile_idastar:tile_idastar"
)
# request: limits, observer
KERNELS.register("jump_point_search", GridProblem, "searchlab.algorithms.path.jps:grid_jps")

# --- exact solving -----------------------------------------------------------------------
# request: state; the result has the meaning of the reference ``solve``
KERNELS.register(
    "solve", Connect4, "searchlab.algorithms.adversarial.connect4_solver:solve_as_reference"
)
KERNELS.register(
    "solve", Othello, "searchlab.algorithms.adversarial.othello_endgame:solve_as_reference"
)

# --- Monte Carlo tree search -------------------------------------------------------------
# request: state, limits, options (MCTSOptions, checked), seed; None unless the kernel runs the
# options (MCTSOptions.why_not_plain with the game's MCTS_ROLLOUTS)
KERNELS.register("mcts", Connect4, "searchlab.algorithms.mcts.compiled:compiled_mcts")
KERNELS.register("mcts", Othello, "searchlab.algorithms.mcts.compiled:compiled_mcts")
KERNELS.register("mcts", SnakeGo, "searchlab.algorithms.mcts.compiled:compiled_mcts")
KERNELS.register("mcts", Go, "searchlab.algorithms.mcts.go_compiled:go_mcts")  # RAVE, priors

MCTS_ROLLOUTS: dict[type, tuple[str, ...]] = {
    Connect4: ("random",),
    Othello: ("random",),
    SnakeGo: ("random", "informed"),  # the course notes' policy, compiled (_snakego_arrays)
    Go: ("random", "informed"),  # eye-avoiding uniform; capture/atari/3x3 patterns (_go_informed)
}
"""The rollout policies (``MCTSOptions.rollout`` names) each compiled MCTS kernel runs, by
the game's exact type: a capability of the kernel, which options and driver read here."""


def mcts_rollouts(game: object) -> tuple[str, ...]:
    """The rollout policies the compiled MCTS kernel for ``game`` runs (``("random",)`` when
    it has none: the rollout is then never what rules the compiled tier out)."""
    return MCTS_ROLLOUTS.get(type(game), ("random",))


MCTS_FEATURES: dict[type, frozenset[str]] = {
    Go: frozenset({"rave"}),  # go_compiled: AMAF statistics from every simulation's moves
}
"""The options beyond plain UCT (``MCTSOptions`` field names, such as ``"rave"``) each
compiled MCTS kernel runs, by the game's exact type; a game not listed runs none of them
compiled (``MCTSOptions.why_not_plain`` then sends such options to the reference tier)."""


def mcts_features(game: object) -> frozenset[str]:
    """The options beyond plain UCT the compiled MCTS kernel for ``game`` runs (empty when it
    has none, or no kernel)."""
    return MCTS_FEATURES.get(type(game), frozenset())
