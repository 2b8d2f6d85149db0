"""Reading a text file that a person gave on the command line (a map, a scenario file, a tree,
positions, a config, ``-p NAME=@FILE``): UTF-8, written once.

:func:`read_text` drops a leading byte-order mark (Windows Notepad writes one) and turns a
file that is not UTF-8 text (a binary file, or UTF-16 as PowerShell's ``>`` writes) into one
:class:`~searchlab.core.errors.InvalidParameterError` line that names the file, the first bad
byte and what to do; an unreadable file (missing, a folder, no permission) raises its
``OSError``, which the command line says in one line with the file's name.
:func:`require_entries` is the one line for a file that holds none of what it should.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "notepad.txt").write_bytes(b"\\xef\\xbb\\xbfversion 1\\n")
>>> read_text(folder / "notepad.txt")
'version 1\\n'
>>> _ = (folder / "powershell.txt").write_bytes("version 1\\n".encode("utf-16"))
>>> read_text(folder / "powershell.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: .../powershell.txt: not a UTF-8 text file (it is \
UTF-16: save it as UTF-8)
"""

from __future__ import annotations

import os
from collections.abc import Sized
from pathlib import Path

from searchlab.core.errors import InvalidParameterError

__all__ = ["read_text", "require_entries"]

_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of the UTF-8 file ``path`` (a leading byte-order mark dropped); one line naming
    the file when it is not UTF-8 text (see the module)."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if data.startswith(_UTF16_MARKS):
            why = "it is UTF-16: save it as UTF-8"
        else:
            why = f"byte 0x{data[error.start]:02x} at offset {error.start}; a binary file?"
        raise InvalidParameterError(f"{path}: not a UTF-8 text file ({why})") from None


def require_entries(entries: Sized, path: str | os.PathLike[str], what: str) -> None:
    """One line when ``entries`` (what was read from ``path``) is empty: a file of ``what``
    (``"positions"``, ``"problems"``) that holds none is a mistake, not zero results.

    >>> require_entries([], "empty.txt", "positions")
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: empty.txt: no positions in the file
    """
    if not len(entries):
        raise InvalidParameterError(f"{path}: no {what} in the file")
