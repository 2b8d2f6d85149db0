"""searchlab: classical AI search, correct and fast.

The curated public surface is re-exported here; the layers (``core`` <- ``domains`` <-
``algorithms`` <- ``viz`` <- ``cli``) are described in ``docs/architecture.md``.

>>> import searchlab
>>> grid = searchlab.GridMap.from_strings(["....", ".@@.", "...."])
>>> result = searchlab.astar(searchlab.GridProblem(grid, (0, 0), (3, 2)))
>>> result.status, result.cost, result.tier  # no corner cutting past the wall: 5 straight steps
('solved', 5.0, 'compiled')
>>> open_grid = searchlab.GridMap.from_strings(["....", "....", "...."])
>>> round(searchlab.astar(searchlab.GridProblem(open_grid, (0, 0), (3, 2))).cost, 4)
3.8284
"""

from searchlab import games
from searchlab.algorithms import *  # noqa: F403  (curated __all__)
from searchlab.algorithms import __all__ as _algorithms_all
from searchlab.core import *  # noqa: F403  (curated __all__)
from searchlab.core import __all__ as _core_all
from searchlab.domains import *  # noqa: F403  (curated __all__)
from searchlab.domains import __all__ as _domains_all

__version__ = "0.1.0"

__all__ = [*_core_all, *_domains_all, *_algorithms_all, "__version__", "games"]
