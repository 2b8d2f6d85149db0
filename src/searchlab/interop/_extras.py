"""An optional package an adapter needs, imported or named in one line with the extra that
installs it.

>>> require("json", "openspiel", "OpenSpiel", "mine").__name__
'json'
>>> require("no_such_package_here", "pettingzoo", "PettingZoo", "searchlab.interop.pettingzoo")
Traceback (most recent call last):
...
ModuleNotFoundError: searchlab.interop.pettingzoo needs PettingZoo (no_such_package_here is \
not installed): pip install 'searchlab[pettingzoo]'
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["install_hint", "require"]


def install_hint(extra: str) -> str:
    """The command that installs ``extra``, quoted for zsh (where ``searchlab[x]`` unquoted is
    a glob): ``pip install 'searchlab[openspiel]'``."""
    return f"pip install 'searchlab[{extra}]'"


def require(module: str, extra: str, package: str, needed_by: str) -> ModuleType:
    """Import ``module``, or raise a one-line ``ModuleNotFoundError`` (an ``ImportError``, as
    an import that fails should) saying that ``needed_by`` needs ``package``, which module is
    missing and the extra that installs it.

    Only a missing ``module`` itself becomes that line; an error inside an installed package
    (a broken build) keeps its own message.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.split(".")[0] != module.split(".")[0]:
            raise
        raise ModuleNotFoundError(
            f"{needed_by} needs {package} ({module} is not installed): {install_hint(extra)}",
            name=module,
        ) from None
