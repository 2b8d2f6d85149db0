"""A Connect Four opening book: the exact score (Pons' convention) of every distinct position up
to a depth, in a compact table that the solver reads before searching.

A position is keyed by Pons' ``current + mask`` (unique per position; 49 bits), folded with its
mirror image: the key of a position is the smaller of its key and its mirror's (the two have the
same score). Positions where the mover can win at once are not stored (their score is known
without a search), nor are finished games.

The file (``*.c4book``) is a 32-byte header, then the sorted keys (uint64, little-endian), then
the scores (int8), one per key:

====== ======= =====================================================
offset size    field
====== ======= =====================================================
0      8       magic ``b"SLC4BOOK"``
8      4       format version (1), uint32
12     4       depth (the deepest ply stored), uint32
16     8       number of positions, uint64
24     4       CRC-32 of the keys and scores, uint32
28     4       zero
====== ======= =====================================================

A file that is not a book, of another version, truncated or corrupt is one
:class:`BookFormatError` line. :func:`default_book` is the book shipped with searchlab, loaded
on first use.

>>> book = Connect4Book.from_scores(2, {})  # empty: nothing stored
>>> book.score(0, 0, 0) is None
True
>>> canonical_key(1, 1) == canonical_key(1 << 42, 1 << 42)  # a stone in column 1 or column 7
True
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import numpy as np

from searchlab.algorithms.adversarial import _connect4_kernels as kernels
from searchlab.core.errors import InvalidParameterError
from searchlab.domains.games.connect4 import bits

__all__ = [
    "MAGIC",
    "VERSION",
    "BookFormatError",
    "Connect4Book",
    "canonical_key",
    "default_book",
    "mirror",
]

MAGIC = b"SLC4BOOK"
VERSION = 1
_HEADER = struct.Struct("<8sIIQII")
_CELLS = bits.CELLS
_playable = bits.playable.py_func
_column_mask = bits.column_mask.py_func
_COLUMN = (1 << bits.STRIDE) - 1


class BookFormatError(InvalidParameterError):
    """A file that is not a searchlab Connect Four book, or a corrupt one."""


def mirror(board: int) -> int:
    """The bitboard reflected left to right (column ``c`` moves to ``6 - c``).

    >>> mirror(0b1) == 1 << 42, mirror(mirror(12345)) == 12345
    (True, True)
    """
    out = 0
    for column in range(bits.WIDTH):
        out |= ((board >> (bits.STRIDE * column)) & _COLUMN) << (
            bits.STRIDE * (bits.WIDTH - 1 - column)
        )
    return out


def canonical_key(current: int, mask: int) -> int:
    """The book key of a position: ``current + mask`` or its mirror's, whichever is smaller
    (no carry crosses a column, so the mirror of the key is the mirror position's key)."""
    key = current + mask
    return min(key, mirror(key))


class Connect4Book:
    """An opening book: sorted keys (:func:`canonical_key`) and their exact scores.

    Args:
        depth: the deepest ply stored: every position with at most ``depth`` stones that is not
            finished and where the mover cannot win at once is in a complete book.
        keys, scores: sorted uint64 keys and int8 scores of the same length.
    """

    def __init__(self, depth: int, keys: np.ndarray, scores: np.ndarray) -> None:
        self.depth = int(depth)
        self.keys = np.ascontiguousarray(keys, dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores, dtype=np.int8)
        if self.keys.shape != self.scores.shape or self.keys.ndim != 1:
            raise InvalidParameterError("a book needs as many scores as keys")

    @classmethod
    def from_scores(cls, depth: int, scores: Mapping[int, int]) -> Connect4Book:
        """A book from ``{canonical key: score}``."""
        keys = np.array(sorted(scores), dtype=np.uint64)
        values = np.array([scores[int(k)] for k in keys], dtype=np.int8)
        return cls(depth, keys, values)

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def __repr__(self) -> str:
        return f"Connect4Book(depth={self.depth}, positions={len(self)})"

    def get(self, key: int) -> int | None:
        """The stored score under canonical ``key``, or ``None``."""
        index = int(np.searchsorted(self.keys, np.uint64(key)))
        if index < len(self) and int(self.keys[index]) == key:
            return int(self.scores[index])
        return None

    def score(self, current: int, mask: int, moves: int | str) -> int | None:
        """The exact score of a position with ``moves`` stones from the book: stored, or every
        child stored (or won at once by its mover); ``None`` when the book cannot tell.
        ``moves``: the number of stones (or the moves played, a string)."""
        if isinstance(moves, str):
            moves = len(moves)
        if moves > self.depth:
            return None
        if kernels.winning_cells(current, mask) & _playable(mask):
            return (_CELLS + 1 - moves) // 2
        stored = self.get(canonical_key(current, mask))
        if stored is not None or moves == self.depth:
            return stored
        best = None
        other = current ^ mask
        for column in range(bits.WIDTH):
            move = _playable(mask) & _column_mask(column)
            if not move:
                continue
            child = self.score(other, mask | move, moves + 1)
            if child is None:
                return None
            if best is None or -child > best:
                best = -child
        return best

    def save(self, path: Path) -> None:
        """Write the book to ``path`` atomically (a temporary file renamed over it)."""
        body = self.keys.astype("<u8").tobytes() + self.scores.tobytes()
        header = _HEADER.pack(MAGIC, VERSION, self.depth, len(self), zlib.crc32(body), 0)
        temporary = path.with_name(path.name + ".tmp")
        with open(temporary, "wb") as handle:
            handle.write(header + body)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: Path) -> Connect4Book:
        """Read a book written by :meth:`save`; a foreign or corrupt file raises
        :class:`BookFormatError` (one line naming the file)."""
        data = Path(path).read_bytes()
        return cls.from_bytes(data, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<book>") -> Connect4Book:
        """:meth:`load` from the bytes of a file."""
        if len(data) < _HEADER.size or data[:8] != MAGIC:
            raise BookFormatError(f"{name}: not a searchlab Connect Four book (no SLC4BOOK header)")
        _, version, depth, count, crc, _ = _HEADER.unpack_from(data)
        if version != VERSION:
            raise BookFormatError(
                f"{name}: book format version {version}, this searchlab reads version {VERSION}"
            )
        body = data[_HEADER.size :]
        if len(body) != 9 * count:
            raise BookFormatError(
                f"{name}: corrupt book: {len(body)} bytes after the header, expected {9 * count}"
                f" for {count} positions (truncated?)"
            )
        if zlib.crc32(body) != crc:
            raise BookFormatError(f"{name}: corrupt book: the checksum does not match")
        keys = np.frombuffer(body, dtype="<u8", count=count).astype(np.uint64)
        scores = np.frombuffer(body, dtype=np.int8, offset=8 * count, count=count)
        if count > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise BookFormatError(f"{name}: corrupt book: the keys are not sorted")
        if depth > _CELLS:
            raise BookFormatError(f"{name}: corrupt book: depth {depth} > {_CELLS}")
        return cls(depth, keys, scores.copy())


_DEFAULT: list[Connect4Book | None] = []
DEFAULT_BOOK_NAME = "connect4.c4book"


def default_book() -> Connect4Book | None:
    """The book shipped with searchlab (``searchlab/data/connect4.c4book``), read once on first
    use; ``None`` when the package holds none."""
    if not _DEFAULT:
        resource = resources.files("searchlab") / "data" / DEFAULT_BOOK_NAME
        book = None
        if resource.is_file():
            book = Connect4Book.from_bytes(
                resource.read_bytes(), f"searchlab/data/{DEFAULT_BOOK_NAME}"
            )
        _DEFAULT.append(book)
    return _DEFAULT[0]
