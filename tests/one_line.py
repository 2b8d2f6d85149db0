"""Bad input to the library: one exception whose message is one line naming the fault.

>>> raises_one_line(ValueError, lambda: int("x"), "invalid literal")
"invalid literal for int() with base 10: 'x'"
"""

from __future__ import annotations

from collections.abc import Callable

import pytest


def raises_one_line(error: type[BaseException], call: Callable[[], object], *fragments: str) -> str:
    """Call ``call``: it must raise ``error`` with a one-line message holding every fragment
    of ``fragments``; returns the message."""
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message
