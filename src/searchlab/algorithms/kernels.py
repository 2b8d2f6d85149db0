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

Adding a compiled game or algorithm is one ``KERNELS.register`` line here.

>>> from searchlab.domains.path.grid import GridProblem
>>> KERNELS.domains("best_first") == (GridProblem,)
True
>>> sorted(KERNELS.algorithms())[:3]
['best_first', 'idastar', 'jump_point_search']
"""

from __future__ import annotations

from searchlab.core.tier import KernelRegistry
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.othello import Othello
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle

__all__ = ["KERNELS"]

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
# request: state, limits, options (MCTSOptions, checked), seed; None unless the options are plain
KERNELS.register("mcts", Connect4, "searchlab.algorithms.mcts.compiled:compiled_mcts")
KERNELS.register("mcts", Othello, "searchlab.algorithms.mcts.compiled:compiled_mcts")
