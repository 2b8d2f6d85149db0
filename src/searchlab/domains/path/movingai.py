"""Reading the Moving AI grid benchmark formats: ``.map`` files and ``.map.scen`` scenarios.

Map files (Sturtevant 2012, movingai.com/benchmarks/formats.html)::

    type octile
    height <H>
    width <W>
    map
    <H lines of W characters>

Characters: ``.`` and ``G`` are passable ground, ``@`` and ``O`` are out of bounds, ``T`` are
trees. ``S`` (swamp) and ``W`` (water) have special rules in the original format (swamp is
passable from regular terrain, water only from water); searchlab reads ``S`` as passable and
``W`` as blocked, so every map is a plain passable/blocked grid. Any other character is an
error.

Scenario files start with ``version 1`` or ``version 1.0``, then one problem per line with
nine whitespace-separated fields: bucket, map, map width, map height, start x, start y, goal
x, goal y, optimal length.

>>> grid = parse_map("type octile\\nheight 2\\nwidth 3\\nmap\\n..@\\n...\\n", source="tiny.map")
>>> grid.width, grid.height, grid.is_passable(2, 0)
(3, 2, False)
>>> parse_map("type octile\\nheight 1\\nwidth 3\\nmap\\n..X\\n", source="bad.map")
Traceback (most recent call last):
...
searchlab.core.errors.MapFormatError: bad.map:5: unknown map character 'X' at column 2 in '..X'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from searchlab.core.errors import MapFormatError, ScenarioFormatError
from searchlab.core.text_file import read_text, require_entries
from searchlab.domains.path.grid import GridMap

__all__ = [
    "BLOCKED_CHARS",
    "PASSABLE_CHARS",
    "Scenario",
    "check_scenarios",
    "load_map",
    "load_scenarios",
    "parse_map",
    "parse_scenarios",
]

PASSABLE_CHARS = ".GS"
"""Map characters read as passable (``S`` swamp included)."""
BLOCKED_CHARS = "@OTW"
"""Map characters read as blocked (``W`` water included: it is not enterable from ground)."""

_HEADER = (
    ("type", re.compile(r"type\s+(\S+)")),
    ("height", re.compile(r"height\s+(\d+)")),
    ("width", re.compile(r"width\s+(\d+)")),
    ("map", re.compile(r"map")),
)
_LOOKUP = np.full(256, -1, dtype=np.int8)
for _char in PASSABLE_CHARS:
    _LOOKUP[ord(_char)] = 1
for _char in BLOCKED_CHARS:
    _LOOKUP[ord(_char)] = 0


def load_map(path: str | Path) -> GridMap:
    """Read a ``.map`` file; the map is named after the file (without ``.map``).

    Raises:
        FileNotFoundError: no such file.
        MapFormatError: the file is malformed; the message gives ``file:line`` and quotes it.
    """
    path = Path(path)
    text = read_text(path)
    grid = parse_map(text, source=str(path))
    grid.name = path.name.removesuffix(".map")
    return grid


def parse_map(text: str, source: str = "<string>") -> GridMap:
    """Parse the text of a ``.map`` file.

    Args:
        text: the file's contents.
        source: the file name used in error messages (``source:line: ...``).

    Raises:
        MapFormatError: bad header, wrong number of rows, a row of the wrong length, or an
            unknown character; the message quotes the offending text.

    >>> parse_map("type octile\\nheight 1\\nwidth 2\\nmap\\n.T\\n").passable.tolist()
    [[True, False]]
    """
    lines = text.splitlines()
    values: dict[str, str] = {}
    for number, (key, pattern) in enumerate(_HEADER, start=1):
        line = lines[number - 1].strip() if number <= len(lines) else ""
        match = pattern.fullmatch(line)
        if match is None:
            expected = {
                "type": "type octile",
                "height": "height <H>",
                "width": "width <W>",
                "map": "map",
            }[key]
            got = repr(line) if number <= len(lines) else "end of file"
            raise MapFormatError(f"{source}:{number}: expected {expected!r}, got {got}")
        if match.groups():
            values[key] = match.group(1)
    if values["type"] != "octile":
        raise MapFormatError(
            f"{source}:1: only 'type octile' maps are supported, got {lines[0].strip()!r}"
        )
    height, width = int(values["height"]), int(values["width"])
    if height == 0 or width == 0:
        raise MapFormatError(f"{source}:2: the map is empty (height {height}, width {width})")
    rows = lines[4:]
    while len(rows) > height and rows[-1].strip() == "":
        rows.pop()  # trailing blank lines
    if len(rows) != height:
        raise MapFormatError(
            f"{source}:{5 + min(len(rows), height)}: expected {height} map rows "
            f"(header says 'height {height}'), got {len(rows)}"
        )
    passable_rows = []  # rows are checked before anything of the header's size is allocated
    for y, row in enumerate(rows):
        line_number = 5 + y
        row = row.rstrip("\r")
        if len(row) != width:
            raise MapFormatError(
                f"{source}:{line_number}: expected {width} characters "
                f"(header says 'width {width}'), got {len(row)} in {_shorten(row)!r}"
            )
        codes = _LOOKUP[np.frombuffer(row.encode("latin-1", "replace"), dtype=np.uint8)]
        if (codes < 0).any() or not row.isascii():
            column = next(
                x for x, char in enumerate(row) if not char.isascii() or _LOOKUP[ord(char)] < 0
            )
            raise MapFormatError(
                f"{source}:{line_number}: unknown map character {row[column]!r} at column "
                f"{column} in {_shorten(row)!r}"
            )
        passable_rows.append(codes == 1)
    return GridMap(np.array(passable_rows, dtype=bool).reshape(height, width), name=source)


@dataclass(frozen=True, slots=True)
class Scenario:
    """One problem of a scenario file.

    Attributes:
        index: 0-based position of the problem in its file.
        bucket: the difficulty bucket written in the file (not ground truth).
        map_name: the map field as written by the generator (use the manifest to find maps).
        width, height: the map size the problem was made for.
        start, goal: cells ``(x, y)``, column then row.
        optimal_length: cost of a shortest path (8-connected, no corner cutting, diagonal
            ``sqrt(2)``), printed with limited precision: compare within about 0.01.
    """

    index: int
    bucket: int
    map_name: str
    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal_length: float


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Read a ``.map.scen`` file (``version 1`` tab-separated or ``version 1.0`` spaces).

    Raises:
        FileNotFoundError: no such file.
        ScenarioFormatError: a malformed line; the message gives ``file:line`` and quotes it.
    """
    path = Path(path)
    scenarios = parse_scenarios(read_text(path), source=str(path))
    require_entries(scenarios, path, "problems")
    return scenarios


def parse_scenarios(text: str, source: str = "<string>") -> list[Scenario]:
    """Parse the text of a scenario file.

    >>> text = "version 1\\n0\\tmaps/x.map\\t3\\t2\\t0\\t0\\t2\\t1\\t2.41421\\n"
    >>> parse_scenarios(text)[0]  # doctest: +NORMALIZE_WHITESPACE
    Scenario(index=0, bucket=0, map_name='maps/x.map', width=3, height=2, start=(0, 0),
             goal=(2, 1), optimal_length=2.41421)
    """
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    if not re.fullmatch(r"version\s+1(\.0)?", first):
        got = repr(first) if lines else "an empty file"
        raise ScenarioFormatError(f"{source}:1: expected 'version 1' or 'version 1.0', got {got}")
    scenarios: list[Scenario] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 9:
            raise ScenarioFormatError(
                f"{source}:{number}: expected 9 fields (bucket map width height start-x "
                f"start-y goal-x goal-y length), got {len(fields)} in {_shorten(line)!r}"
            )
        try:
            bucket, width, height, sx, sy, gx, gy = (int(fields[i]) for i in (0, 2, 3, 4, 5, 6, 7))
            optimal = float(fields[8])
        except ValueError:
            raise ScenarioFormatError(
                f"{source}:{number}: expected whole numbers and a length, got {_shorten(line)!r}"
            ) from None
        where = f"{source}:{number}"
        if width < 1 or height < 1:
            raise ScenarioFormatError(
                f"{where}: the map size must be positive, got {width}x{height} in "
                f"{_shorten(line)!r}"
            )
        if min(sx, sy, gx, gy) < 0:
            raise ScenarioFormatError(
                f"{where}: coordinates must be >= 0, got start {(sx, sy)} goal {(gx, gy)}"
            )
        if not (math.isfinite(optimal) and optimal >= 0):
            raise ScenarioFormatError(
                f"{where}: the optimal length must be a finite number >= 0, got {fields[8]!r}"
            )
        scenarios.append(
            Scenario(
                index=len(scenarios),
                bucket=bucket,
                map_name=fields[1],
                width=width,
                height=height,
                start=(sx, sy),
                goal=(gx, gy),
                optimal_length=optimal,
            )
        )
    return scenarios


def check_scenarios(grid: GridMap, scenarios: Iterable[Scenario]) -> None:
    """Check every scenario fits ``grid``: same size, start and goal on passable cells.

    Raises:
        ScenarioFormatError: the first scenario that does not fit, quoted.

    >>> grid = parse_map("type octile\\nheight 1\\nwidth 2\\nmap\\n.@\\n", source="x.map")
    >>> check_scenarios(grid, [Scenario(0, 0, "x.map", 2, 1, (0, 0), (1, 0), 1.0)])
    Traceback (most recent call last):
    ...
    searchlab.core.errors.ScenarioFormatError: scenario 0: goal (1, 0) is a blocked cell of 'x.map'
    """
    for scenario in scenarios:
        if (scenario.width, scenario.height) != (grid.width, grid.height):
            raise ScenarioFormatError(
                f"scenario {scenario.index}: made for a {scenario.width}x{scenario.height} map "
                f"but {grid.name!r} is {grid.width}x{grid.height}"
            )
        for role, (x, y) in (("start", scenario.start), ("goal", scenario.goal)):
            if not grid.in_bounds(x, y):
                raise ScenarioFormatError(
                    f"scenario {scenario.index}: {role} {(x, y)} is off the map {grid.name!r} "
                    f"({grid.width}x{grid.height})"
                )
            if not grid.passable[y, x]:
                raise ScenarioFormatError(
                    f"scenario {scenario.index}: {role} {(x, y)} is a blocked cell of {grid.name!r}"
                )


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
