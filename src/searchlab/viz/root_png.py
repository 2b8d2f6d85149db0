"""A picture of a Monte Carlo search's root: one bar per move, as long as its share of the
visits, coloured by its value (red: losing, grey: even, green: winning for the player to move).

The move played is outlined; proven children are marked ``W``/``L``/``D``. Needs Pillow (the
``cli`` extra). ``rows`` are dicts with ``move``, ``visits``, ``value`` and ``proven``, as
``searchlab analyse --json`` prints them under ``children``.

>>> import tempfile, pathlib
>>> rows = [{"move": "4", "visits": 900, "value": 0.24, "proven": None},
...         {"move": "3", "visits": 60, "value": -0.05, "proven": None},
...         {"move": "1", "visits": 40, "value": -1.0, "proven": "loss"}]
>>> with tempfile.TemporaryDirectory() as folder:
...     out = render_root(rows, pathlib.Path(folder) / "root.png", title="connect4", chosen="4")
...     from PIL import Image
...     Image.open(out).size
(640, 124)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from searchlab.core.errors import InvalidParameterError
from searchlab.viz.image_file import image_format, save_image

__all__ = ["render_root", "value_colour"]

WIDTH = 640
ROW = 24
TOP = 28
LABEL = 70
TEXT = 215
_PROVEN = {"win": "W", "loss": "L", "draw": "D"}


def value_colour(value: float) -> tuple[int, int, int]:
    """Red (-1) through grey (0) to green (+1).

    >>> value_colour(-1.0), value_colour(0.0), value_colour(1.0)
    ((214, 39, 40), (150, 150, 150), (44, 160, 44))
    """
    v = max(-1.0, min(1.0, float(value)))
    grey, low, high = (150, 150, 150), (214, 39, 40), (44, 160, 44)
    end = high if v >= 0 else low
    t = abs(v)
    return tuple(round(g + (e - g) * t) for g, e in zip(grey, end, strict=True))  # type: ignore[return-value]


def render_root(
    rows: Sequence[Mapping[str, Any]],
    path: str | Path,
    *,
    title: str = "",
    chosen: str | None = None,
    limit: int = 20,
) -> Path:
    """Draw the root's children (most visited first, at most ``limit``) to the picture file
    ``path`` (the format its extension names, see :mod:`searchlab.viz.image_file`)."""
    from PIL import Image, ImageDraw, ImageFont

    image_format(path)

    if not rows:
        raise InvalidParameterError(
            "a root picture needs a Monte Carlo search (an agent whose result lists the root's "
            "children: mcts, flatmc)"
        )
    shown = sorted(rows, key=lambda row: -int(row["visits"]))[:limit]
    total = sum(int(row["visits"]) for row in rows) or 1
    height = TOP + ROW * len(shown) + 24
    image = Image.new("RGB", (WIDTH, height), (250, 250, 247))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)  # Pillow's bundled scalable font
    draw.text((8, 7), title or "root children", fill=(30, 30, 30), font=font)
    bar_width = WIDTH - LABEL - TEXT - 16
    most = max(int(row["visits"]) for row in shown) or 1
    for index, row in enumerate(shown):
        y = TOP + index * ROW
        visits = int(row["visits"])
        length = max(1, round(bar_width * visits / most))
        colour = value_colour(float(row["value"]))
        draw.text((8, y + 4), str(row["move"]), fill=(30, 30, 30), font=font)
        box = (LABEL, y + 3, LABEL + length, y + ROW - 3)
        draw.rectangle(
            box, fill=colour, outline=(20, 20, 20) if row["move"] == chosen else None, width=2
        )
        mark = _PROVEN.get(str(row.get("proven")), "")
        label = f"{100 * visits / total:5.1f}%  {visits} visits  {float(row['value']):+.3f} {mark}"
        draw.text((WIDTH - TEXT, y + 4), label, fill=(30, 30, 30), font=font)
    draw.text(
        (8, height - 20),
        f"{total} visits in all; colour: value for the player to move",
        fill=(90, 90, 90),
        font=font,
    )
    return save_image(image, path)
