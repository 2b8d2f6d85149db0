"""Something that holds a resource (a process, a file, signal handlers) and is closed by
leaving a ``with`` block: :class:`Closing`, written once for every such class (the external
GTP engine, the arena's store, worker pool and stop signals).

>>> class Door(Closing):
...     def __init__(self): self.open = True
...     def close(self): self.open = False
>>> with Door() as door:
...     door.open
True
>>> door.open
False
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self

__all__ = ["Closing"]


class Closing(ABC):
    """``with`` returns the object and closes it on the way out: :meth:`__exit__` calls
    :meth:`_leave`, which calls :meth:`close` (a subclass may leave differently when the block
    raised: a worker pool ends its workers at once)."""

    @abstractmethod
    def close(self) -> None:
        """Release what the object holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._leave(failed=kind is not None)

    def _leave(self, *, failed: bool) -> None:
        """What leaving the ``with`` block does (``failed``: the block raised): close."""
        self.close()
