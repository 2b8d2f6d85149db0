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
    ``KeyboardInterrupt`` and the import goes on; and one that lands in a callback Python
    cannot raise from (the import system's module-lock callback: "Exception ignored in ...")
    is taken, not printed, by an unraisable-exception hook held while the package loads."""
    pressed: list[int] = []

    def interrupt(number: int, frame: object) -> None:
        pressed.append(number)
        raise KeyboardInterrupt

    def unraisable(info: sys.UnraisableHookArgs) -> None:
        if info.exc_type is KeyboardInterrupt:
            pressed.append(signal.SIGINT)
        else:
            sys.__unraisablehook__(info)

    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        signal.signal(signal.SIGINT, interrupt)
    sys.unraisablehook = unraisable
    try:
        from searchlab.cli.main import main as run
    except KeyboardInterrupt:
        pressed.append(signal.SIGINT)
    finally:
        sys.unraisablehook = sys.__unraisablehook__
    if pressed:
        print("searchlab: interrupted", file=sys.stderr)
        return 130
    if main_thread:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return run()
