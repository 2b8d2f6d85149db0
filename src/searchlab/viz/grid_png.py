"""A picture of a grid search: the map, the cells the search expanded, the path, start and goal.

Blocked cells are dark, free cells light, expanded cells tinted blue, the path red, the start a
green square and the goal a purple one. Small maps are scaled up (nearest neighbour, so cells
stay crisp) to be at least about 480 pixels across; large maps are drawn one pixel per cell.
Needs Pillow (the ``cli`` extra).

>>> import tempfile, pathlib
>>> from searchlab.domains.path.grid import GridMap, GridProblem
>>> from searchlab.algorithms.path.best_first import astar
>>> grid = GridMap.from_strings(["......", ".@@@@.", "......"])
>>> result = astar(GridProblem(grid, (0, 2), (5, 0)))
>>> with tempfile.TemporaryDirectory() as folder:
...     out = render_search(grid, result, pathlib.Path(folder) / "search.png")
...     from PIL import Image
...     Image.open(out).size
(480, 240)
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from searchlab.core.errors import InvalidParameterError
from searchlab.core.results import PathResult
from searchlab.domains.path.grid import GridMap
from searchlab.viz.image_file import image_format, save_image

__all__ = ["COLOURS", "auto_scale", "render_search"]

COLOURS: dict[str, tuple[int, int, int]] = {
    "blocked": (38, 40, 48),
    "free": (236, 234, 226),
    "expanded": (146, 186, 232),
    "path": (214, 39, 40),
    "start": (44, 160, 44),
    "goal": (148, 52, 196),
}
"""RGB colours of the picture's elements."""

MIN_PIXELS = 480
MAX_SCALE = 80


def auto_scale(grid: GridMap) -> int:
    """Pixels per cell: enough for the picture to be about 480 px across, at most 80.

    >>> auto_scale(GridMap.from_strings(["." * 49] * 49)), auto_scale(GridMap([[True] * 512]))
    (10, 1)
    """
    longest = max(grid.width, grid.height)
    return max(1, min(MAX_SCALE, math.ceil(MIN_PIXELS / longest)))


def render_search(
    grid: GridMap,
    result: PathResult | None,
    path: str | Path,
    *,
    scale: int | None = None,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> Path:
    """Draw ``grid`` and what ``result`` found, and write it to the picture file ``path`` (the
    format its extension names: ``.png``, ``.jpg``, ... see :mod:`searchlab.viz.image_file`).

    Args:
        grid: the map searched.
        result: a search result on ``grid`` (or ``None`` for the bare map); its
            ``stats["expanded_mask"]`` (if any) is tinted and its ``path`` drawn.
        path: the picture file to write (overwritten).
        scale: pixels per cell; ``None`` chooses one with :func:`auto_scale`.
        start, goal: cells to mark; default: the ends of the result's path (give them to mark
            the endpoints of a search that found no path).

    Returns:
        The path written.

    Raises:
        InvalidParameterError: ``scale`` is not a whole number >= 1, the expanded mask does
            not have the map's shape, or ``path`` has no known picture extension.
    """
    from PIL import Image, ImageDraw

    image_format(path)  # before drawing: an unknown extension is one line

    if scale is None:
        scale = auto_scale(grid)
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise InvalidParameterError(f"scale must be a whole number >= 1, got {scale!r}")
    rgb = np.empty((grid.height, grid.width, 3), dtype=np.uint8)
    rgb[:] = COLOURS["blocked"]
    rgb[grid.passable] = COLOURS["free"]
    cells: list[Any] = []
    if result is not None:
        mask = result.stats.get("expanded_mask")
        if mask is not None:
            mask = np.asarray(mask, dtype=bool)
            if mask.shape != grid.passable.shape:
                raise InvalidParameterError(
                    f"expanded mask has shape {mask.shape}, the map {grid.passable.shape}"
                )
            rgb[mask & grid.passable] = COLOURS["expanded"]
        cells = list(result.path or [])
    for x, y in cells:
        rgb[y, x] = COLOURS["path"]
    image = Image.fromarray(rgb, mode="RGB")
    if scale > 1:
        image = image.resize((grid.width * scale, grid.height * scale), Image.Resampling.NEAREST)
    if cells:
        start = cells[0] if start is None else start
        goal = cells[-1] if goal is None else goal
    markers = [(cell, COLOURS[name]) for cell, name in ((start, "start"), (goal, "goal")) if cell]
    if markers:
        draw = ImageDraw.Draw(image)
        radius = max(scale * 0.6, 2.5)  # markers stay visible at one pixel per cell
        for (x, y), colour in markers:
            cx, cy = (x + 0.5) * scale, (y + 0.5) * scale
            draw.rectangle(
                (cx - radius, cy - radius, cx + radius, cy + radius),
                fill=colour,
                outline=(0, 0, 0),
            )
    return save_image(image, path)
