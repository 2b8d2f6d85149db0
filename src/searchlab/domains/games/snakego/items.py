"""Snake Go's items: the item type, the seeded generator of the rules, and the item-list format.

An item is ``(x, y, time, type, param)``: it lies on cell ``(x, y)`` during rounds
``time .. time + 15`` (:data:`ITEM_LIFETIME` rounds) unless a snake eats it. Two types exist:
:data:`LENGTH` (``type 0``, ``param`` 1..5 goes into the eating snake's length bank) and
:data:`RAY` (``type 2``, a melt ray; ``param`` is unused, 512 by convention).

The generator (:func:`generate_items`) follows the rules page, with
``numpy.random.default_rng(seed)`` as its only source of randomness, drawn in this order for
each round ``r = 1 .. rounds``:

1. ``rng.random() < 0.25``: an item appears this round (else nothing more is drawn);
2. the cell: ``free[rng.integers(len(free))]`` where ``free`` lists, by increasing cell index
   ``y * size + x``, the cells of the centred square (side ``min(4 + 2 * ((r - 1) // 20),
   size)``, lowest corner ``((size - side) // 2, (size - side) // 2)``) holding no earlier
   item at round ``r`` (an item of time ``t`` with ``r - 15 <= t``); no free cell: no item,
   nothing more drawn;
3. the type: ``rng.random() < p`` is a length item, else a ray, with ``p`` = 5/6 in rounds
   1-64, 5/7 in rounds 65-384, 4/7 from round 385 on;
4. a length item's ``param``: ``rng.integers(1, 6)`` (uniform in 1..5); a ray's is 512.

So no two items ever share a cell while both are on the board; :func:`parse_items` rejects a
list where they would.

>>> items = generate_items(3)
>>> items[0]
Item(x=8, y=6, time=1, type=0, param=2)
>>> parse_items(format_items(items), 16, 512) == items
True
>>> parse_items("7 6 1 0 5\\n8 8 2 2 512", 16, 512)
(Item(x=7, y=6, time=1, type=0, param=5), Item(x=8, y=8, time=2, type=2, param=512))
>>> parse_items("7 6 1 1 5", 16, 512)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: items line 1 '7 6 1 1 5': type 1 is not 0 \
(length) or 2 (ray)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "APPEAR_PROBABILITY",
    "ITEM_LIFETIME",
    "LENGTH",
    "RAY",
    "RAY_PARAM",
    "Item",
    "format_items",
    "generate_items",
    "item_square",
    "length_share",
    "parse_items",
    "validate_items",
]

LENGTH = 0
"""Item type 0: a length item; its ``param`` (1..5) goes into the eater's length bank."""
RAY = 2
"""Item type 2: a melt ray."""
RAY_PARAM = 512
"""The ``param`` the generator gives a ray (unused by the rules)."""
ITEM_LIFETIME = 16
"""Rounds an item stays on the board: ``time .. time + 15``."""
APPEAR_PROBABILITY = 0.25
"""Chance that the generator places an item in a round."""


class Item(NamedTuple):
    """One item: cell ``(x, y)``, first round on the board ``time``, ``type`` (:data:`LENGTH`
    or :data:`RAY`) and ``param`` (the length for a length item)."""

    x: int
    y: int
    time: int
    type: int
    param: int

    def last_round(self) -> int:
        """The last round the item is on the board (``time + 15``).

        >>> Item(1, 2, 10, LENGTH, 3).last_round()
        25
        """
        return self.time + ITEM_LIFETIME - 1

    def present(self, round_number: int) -> bool:
        """True when the item is on the board in round ``round_number`` (if not eaten).

        >>> [Item(1, 2, 10, LENGTH, 3).present(r) for r in (9, 10, 25, 26)]
        [False, True, True, False]
        """
        return self.time <= round_number < self.time + ITEM_LIFETIME


def item_square(round_number: int, size: int) -> tuple[int, int]:
    """``(low, side)`` of the centred square where the generator places round
    ``round_number``'s item: cells ``low .. low + side - 1`` in x and in y.

    >>> item_square(1, 16), item_square(21, 16), item_square(121, 16), item_square(1, 5)
    ((6, 4), (5, 6), (0, 16), (0, 4))
    """
    side = min(4 + 2 * ((round_number - 1) // 20), size)
    return (size - side) // 2, side


def length_share(round_number: int) -> float:
    """Probability that round ``round_number``'s item is a length item (length:ray = 5:1 in
    rounds 1-64, 5:2 in 65-384, 4:3 from 385 on).

    >>> [round(length_share(r), 4) for r in (64, 65, 384, 385, 600)]
    [0.8333, 0.7143, 0.7143, 0.5714, 0.5714]
    """
    if round_number <= 64:
        return 5 / 6
    if round_number <= 384:
        return 5 / 7
    return 4 / 7


def generate_items(seed: int, size: int = 16, rounds: int = 512) -> tuple[Item, ...]:
    """The item list of the rules' generator for ``seed`` (see the module docstring for the
    exact order of the draws), sorted by time.

    >>> items = generate_items(7)
    >>> items == generate_items(7), items == generate_items(8)
    (True, False)
    >>> all(6 <= item.x <= 9 and 6 <= item.y <= 9 for item in items if item.time <= 20)
    True
    """
    rng = np.random.default_rng(seed)
    items: list[Item] = []
    for round_number in range(1, rounds + 1):
        if rng.random() >= APPEAR_PROBABILITY:
            continue
        low, side = item_square(round_number, size)
        taken = {(item.x, item.y) for item in items if item.time > round_number - ITEM_LIFETIME}
        free = [
            (x, y)
            for y in range(low, low + side)
            for x in range(low, low + side)
            if (x, y) not in taken
        ]
        if not free:
            continue
        x, y = free[int(rng.integers(len(free)))]
        if rng.random() < length_share(round_number):
            items.append(Item(x, y, round_number, LENGTH, int(rng.integers(1, 6))))
        else:
            items.append(Item(x, y, round_number, RAY, RAY_PARAM))
    return tuple(items)


def format_items(items: Sequence[Item]) -> str:
    """The items one per line, ``x y time type param`` (what :func:`parse_items` reads).

    >>> print(format_items([Item(7, 6, 1, 0, 5), Item(8, 8, 2, 2, 512)]))
    7 6 1 0 5
    8 8 2 2 512
    """
    return "\n".join(" ".join(str(int(field)) for field in item) for item in items)


def parse_items(text: str, size: int = 16, rounds: int = 512) -> tuple[Item, ...]:
    """Read an item list: one item per line, ``x y time type param`` (fields separated by
    spaces or commas; lines by newlines or ``;``; blank lines and ``#`` comments skipped), or
    a JSON list of 5-lists. The items are returned in the order given.

    Raises ``InvalidParameterError`` in one line quoting the first bad line or entry: wrong
    number of fields, a non-integer, a cell off the ``size`` x ``size`` board, a time outside
    ``1..rounds``, a type other than 0 or 2, a length param outside 1..5, or two items on one
    cell at the same time.

    >>> parse_items("# two items\\n1 2 3 0 4;  5,6,7,2,512", 16, 512)[1]
    Item(x=5, y=6, time=7, type=2, param=512)
    >>> parse_items("[[1, 2, 3, 0, 4]]", 16, 512)
    (Item(x=1, y=2, time=3, type=0, param=4),)
    >>> parse_items("1 2 3 0", 16, 512)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: items line 1 '1 2 3 0': expected 5 integers \
(x y time type param), got 4 fields
    """
    if not isinstance(text, str):
        raise InvalidParameterError(
            f"items must be a string of item lines or a JSON list, got {type(text).__name__}"
        )
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            entries = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise InvalidParameterError(
                f"items: not a valid JSON list of 5-lists ({error.msg} at character {error.pos})"
            ) from None
        if not isinstance(entries, list):  # pragma: no cover - '[' starts a list
            raise InvalidParameterError("items: the JSON must be a list of 5-lists")
        return validate_items(entries, size, rounds)
    rows: list[tuple[str, list[Any]]] = []
    number = 0
    for physical in text.splitlines():
        for line in physical.split(";"):
            number += 1
            content = line.split("#", 1)[0].strip()
            if not content:
                continue
            fields: list[Any] = content.replace(",", " ").split()
            where = f"line {number} {line.strip()!r}"
            values: list[Any] = []
            for field in fields:
                try:
                    values.append(int(field))
                except ValueError:
                    values.append(field)  # validate_items names it
            rows.append((where, values))
    return _validate_rows(rows, size, rounds)


def validate_items(entries: Sequence[Any], size: int = 16, rounds: int = 512) -> tuple[Item, ...]:
    """Check a sequence of 5-sequences ``(x, y, time, type, param)`` and return the items;
    raises ``InvalidParameterError`` quoting the first bad entry (numbered from 1), as
    :func:`parse_items`.

    >>> validate_items([(1, 2, 3, 2, 512)], 16, 512)
    (Item(x=1, y=2, time=3, type=2, param=512),)
    >>> validate_items([(1, 2, 3, 0, 9)], 16, 512)
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: items entry 1 (1, 2, 3, 0, 9): a length \
item's param must be in 1..5, got 9
    """
    if isinstance(entries, str | bytes) or not isinstance(entries, Sequence):
        raise InvalidParameterError(
            f"items must be a sequence of (x, y, time, type, param), got {_short(entries)}"
        )
    rows: list[tuple[str, list[Any]]] = []
    for number, entry in enumerate(entries, start=1):
        where = f"entry {number} {_short(entry)}"
        if isinstance(entry, str | bytes) or not isinstance(entry, Sequence):
            raise InvalidParameterError(
                f"items {where}: expected 5 integers (x y time type param), "
                f"got a {type(entry).__name__}"
            )
        rows.append((where, list(entry)))
    return _validate_rows(rows, size, rounds)


def _validate_rows(rows: list[tuple[str, list[Any]]], size: int, rounds: int) -> tuple[Item, ...]:
    items: list[Item] = []
    seen: dict[tuple[int, int], list[int]] = {}
    for where, values in rows:
        if len(values) != 5:
            raise InvalidParameterError(
                f"items {where}: expected 5 integers (x y time type param), "
                f"got {len(values)} field{'s' if len(values) != 1 else ''}"
            )
        for name, value in zip(("x", "y", "time", "type", "param"), values, strict=True):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidParameterError(
                    f"items {where}: {name} {_short(value)} is not an integer"
                )
        x, y, time, kind, param = (int(value) for value in values)
        if not (0 <= x < size and 0 <= y < size):
            raise InvalidParameterError(
                f"items {where}: cell ({x}, {y}) is off the {size}x{size} board"
            )
        if not 1 <= time <= rounds:
            raise InvalidParameterError(f"items {where}: time {time} is not in 1..{rounds}")
        if kind not in (LENGTH, RAY):
            raise InvalidParameterError(f"items {where}: type {kind} is not 0 (length) or 2 (ray)")
        if kind == LENGTH and not 1 <= param <= 5:
            raise InvalidParameterError(
                f"items {where}: a length item's param must be in 1..5, got {param}"
            )
        times = seen.setdefault((x, y), [])
        clash = [t for t in times if abs(t - time) < ITEM_LIFETIME]
        if clash:
            raise InvalidParameterError(
                f"items {where}: cell ({x}, {y}) already holds the item of time {clash[0]} "
                f"in round {max(time, clash[0])} (items on one cell need times "
                f"{ITEM_LIFETIME} apart)"
            )
        times.append(time)
        items.append(Item(x, y, time, kind, param))
    return tuple(items)


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
