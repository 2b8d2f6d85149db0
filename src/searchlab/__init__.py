"""searchlab: classical AI search, correct and fast.

The public surface is re-exported here; the layers (``core`` <- ``domains`` <- ``algorithms``
<- ``viz`` <- ``cli``) are described in ``docs/architecture.md``.
"""

from searchlab.core import *  # noqa: F403  (the core's __all__ is curated)
from searchlab.core import __all__ as _core_all

__version__ = "0.1.0"

__all__ = [*_core_all, "__version__"]
