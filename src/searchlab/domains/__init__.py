"""Layer 1: the domains searched over. Imports core only.

Path-search domains (grid maps in the Moving AI format, explicit weighted graphs, sliding-tile
puzzles) live in :mod:`searchlab.domains.path`; two-player games in
:mod:`searchlab.domains.games`.
"""

from searchlab.domains.path import *  # noqa: F403  (curated __all__)
from searchlab.domains.path import __all__ as _path_all

__all__ = [*_path_all]
