"""The ``searchlab`` console script: loads :mod:`searchlab.cli.main` and runs it.

It lives outside the ``searchlab`` package on purpose: importing anything inside the package
first runs ``searchlab/__init__.py`` (numpy, numba and the path searches, about half a second),
and a Ctrl-C in that window would otherwise end in a Python traceback. Here the import itself
is guarded, so Ctrl-C at any moment is one line and exit code 130.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the command line; Ctrl-C while it loads is ``searchlab: interrupted`` and 130."""
    try:
        from searchlab.cli.main import main as run
    except KeyboardInterrupt:
        print("searchlab: interrupted", file=sys.stderr)
        return 130
    return run()
