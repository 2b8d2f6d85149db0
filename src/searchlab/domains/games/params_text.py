"""Game parameters as text, the way ``-p`` writes them: ``m=7,n=6,k=4``, ``piles=3,4,5``.

One rule, written once, for both directions: the command line's ``-p NAME=VALUE`` reads
parameters with it and game records (:mod:`searchlab.domains.games.record`) write and read
their ``params:`` line with it. A value is ``true`` or ``false`` (a bool), whole numbers
separated by commas (an int, or a tuple of ints when there is a comma), or else text.
Several parameters join with commas: a comma starts another parameter only when ``NAME=``
follows it, so ``piles=3,4,5`` keeps its commas.

>>> params_from_text("m=7,n=6,k=4")
{'m': 7, 'n': 6, 'k': 4}
>>> params_from_text("piles=3,4,5,misere=true")
{'piles': (3, 4, 5), 'misere': True}
>>> params_to_text({"piles": (3, 4, 5), "misere": True})
'piles=3,4,5,misere=true'
>>> params_from_text("m:7")
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: expected NAME=VALUE, got 'm:7'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "param_from_text",
    "params_from_text",
    "params_to_text",
    "split_params",
    "value_from_text",
    "value_to_text",
]

_NEXT_PARAM = re.compile(r",(?=[A-Za-z_]\w*=)")
"""A comma that starts another ``NAME=VALUE`` (``m=7,n=6,k=4``); other commas belong to the
value (``piles=3,4,5``)."""


def value_from_text(text: str) -> Any:
    """``"true"`` -> ``True``, ``"4"`` -> ``4``, ``"3,4,5"`` -> ``(3, 4, 5)``; anything else
    stays text.

    >>> value_from_text("False"), value_from_text("4"), value_from_text("3,4,5")
    (False, 4, (3, 4, 5))
    >>> value_from_text("7.5"), value_from_text("win_loss")
    ('7.5', 'win_loss')
    """
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        numbers = tuple(int(part) for part in text.split(","))
    except ValueError:
        return text
    return numbers if "," in text else numbers[0]


def value_to_text(value: Any) -> str:
    """The text of ``value`` that :func:`value_from_text` reads back as the command line would
    give it: a bool as ``true``/``false``, a tuple or list of ints joined by commas, anything
    else as ``str()``. Text on several lines (Snake Go's ``items=@FILE``) is written on one
    line, its line breaks as ``;`` (the item format reads ``;`` as a line break).

    >>> value_to_text(True), value_to_text((3, 4, 5)), value_to_text(7.5)
    ('true', '3,4,5', '7.5')
    >>> value_to_text("1 2 3 0 4\\n5 6 7 2 512\\n")
    '1 2 3 0 4;5 6 7 2 512'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(value_to_text(item) for item in value)
    if isinstance(value, str) and ("\n" in value or "\r" in value):
        return ";".join(line.strip() for line in value.strip().splitlines())
    return str(value)


def split_params(text: str) -> list[str]:
    """The ``NAME=VALUE`` parts of ``text`` (see the module docstring).

    >>> split_params("m=7,n=6,k=4"), split_params("piles=3,4,5")
    (['m=7', 'n=6', 'k=4'], ['piles=3,4,5'])
    """
    return _NEXT_PARAM.split(text)


def param_from_text(text: str) -> tuple[str, Any]:
    """``"piles=3,4,5"`` -> ``("piles", (3, 4, 5))``; one ``InvalidParameterError`` line unless
    ``text`` is ``NAME=VALUE`` with ``NAME`` an identifier.

    >>> param_from_text("m=4")
    ('m', 4)
    """
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise InvalidParameterError(f"expected NAME=VALUE, got {text!r}")
    return name, value_from_text(value)


def params_from_text(text: str) -> dict[str, Any]:
    """Every parameter of ``text`` (``m=7,n=6,k=4``); a name given again wins; empty text is
    no parameters."""
    if not text.strip():
        return {}
    params: dict[str, Any] = {}
    for part in split_params(text.strip()):
        name, value = param_from_text(part)
        params[name] = value
    return params


def params_to_text(params: Mapping[str, Any]) -> str:
    """``params`` as one line that :func:`params_from_text` reads back; ``None`` values (a
    parameter left at its unset default) are left out."""
    return ",".join(
        f"{name}={value_to_text(value)}" for name, value in params.items() if value is not None
    )
