"""The ``searchlab`` console script: loads :mod:`searchlab.cli.main` and runs it.

It lives outside the ``searchlab`` package on purpose: importing anything inside the package
first runs ``searchlab/__init__.py`` (numpy, numba and the path searches, about half a second),
and a Ctrl-C in that window would otherwise end in a Python traceback. Here the import itself
is guarded, so Ctrl-C at any moment is one line and exit code 130.
"""

from __future__ import annotations

import signal
import sys
import threading


def main() -> int:
    """Run the command line; Ctrl-C while it loads is ``searchlab: interrupted`` and 130.

    SIGINT is taken from the first line, even when the process inherited it as ignored (a
    shell's background job, some process supervisors): an ignored signal is dropped, so a
    Ctrl-C while the package loads would otherwise be lost and the command run to its end.
    The Ctrl-C is also remembered, in case a library being imported swallows the
    ``KeyboardInterrupt`` and the import goes on."""
    pressed: list[int] = []

    def interrupt(number: int, frame: object) -> None:
        pressed.append(number)
        raise KeyboardInterrupt

    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        signal.signal(signal.SIGINT, interrupt)
    try:
        from searchlab.cli.main import main as run
    except KeyboardInterrupt:
        pressed.append(signal.SIGINT)
    if pressed:
        print("searchlab: interrupted", file=sys.stderr)
        return 130
    if main_thread:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return run()
