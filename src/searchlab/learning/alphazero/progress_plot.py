"""``DIR/progress.png``: a training run's curves, drawn with Pillow (no plotting library).

Three panels over the generations, one above the other: the **losses** (total, policy, value),
the **Elo** of each generation (generation 0, the random network, at 0; each next one by its
score against its predecessor) with the score against the reference agent, and the **mistake
rate** of the network alone when the game is small enough to know every exact value. The file
is written atomically, so a viewer that reloads it never sees half a picture.

>>> import tempfile, pathlib
>>> entries = [{"generation": g, "loss": 2.0 / g, "loss_policy": 1.5 / g,
...             "loss_value": 0.5 / g, "elo": 40.0 * g, "mistake_rate": 0.3 / g}
...            for g in (1, 2, 3)]
>>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.png"
>>> draw_progress(path, entries, title="demo").stat().st_size > 1000
True
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

__all__ = ["draw_progress"]

WIDTH, PANEL, MARGIN_LEFT, MARGIN_RIGHT, TOP = 760, 220, 70, 150, 36
_COLOURS = {
    "loss": (30, 30, 30),
    "loss_policy": (31, 119, 180),
    "loss_value": (214, 39, 40),
    "elo": (44, 160, 44),
    "score_vs_reference": (148, 103, 189),
    "mistake_rate": (255, 127, 14),
}
_LABELS = {
    "loss": "loss (total)",
    "loss_policy": "policy cross-entropy",
    "loss_value": "value MSE",
    "elo": "Elo (vs previous)",
    "score_vs_reference": "score vs reference x1000",
    "mistake_rate": "network mistakes %",
}


def _series(
    entries: Sequence[dict[str, Any]], key: str, scale: float = 1.0
) -> list[tuple[float, float]]:
    points = []
    for entry in entries:
        value = entry.get(key)
        if isinstance(value, int | float) and math.isfinite(value):
            points.append((float(entry["generation"]), float(value) * scale))
    return points


def _panel(
    draw: ImageDraw.ImageDraw,
    top: int,
    title: str,
    lines: list[tuple[str, list[tuple[float, float]]]],
    font: Any,
    generations: tuple[float, float],
) -> None:
    left, right, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, top + PANEL - 30
    draw.text((left, top), title, fill=(0, 0, 0), font=font)
    plot_top = top + 16
    draw.rectangle((left, plot_top, right, bottom), outline=(160, 160, 160))
    values = [v for _, points in lines for _, v in points]
    if not values:
        draw.text((left + 10, plot_top + 10), "no data yet", fill=(120, 120, 120), font=font)
        return
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1.0, high + 1.0
    g_low, g_high = generations
    g_span = max(g_high - g_low, 1.0)

    def xy(g: float, v: float) -> tuple[float, float]:
        x = left + (g - g_low) / g_span * (right - left)
        y = bottom - (v - low) / (high - low) * (bottom - plot_top)
        return x, y

    for fraction in (0.0, 0.5, 1.0):
        value = low + fraction * (high - low)
        _, y = xy(g_low, value)
        draw.line((left - 4, y, left, y), fill=(120, 120, 120))
        text = f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"  # 1,464 not 1.46e+03
        draw.text((4, y - 6), text, fill=(80, 80, 80), font=font)
    draw.text((left, bottom + 4), f"generation {g_low:g}", fill=(80, 80, 80), font=font)
    draw.text((right - 80, bottom + 4), f"{g_high:g}", fill=(80, 80, 80), font=font)
    for row, (key, points) in enumerate(lines):
        colour = _COLOURS[key]
        if len(points) > 1:
            draw.line([xy(g, v) for g, v in points], fill=colour, width=2)
        for g, v in points:
            x, y = xy(g, v)
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
        draw.text((right + 10, plot_top + 14 * row), _LABELS[key], fill=colour, font=font)


def draw_progress(path: str | Path, entries: Sequence[dict[str, Any]], *, title: str = "") -> Path:
    """Draw ``entries`` (``progress.json``'s generations) to ``path`` (PNG, atomically)."""
    from searchlab.learning.alphazero.run_dir import write_atomically

    target = Path(path)
    panels = [
        ("losses", [(k, _series(entries, k)) for k in ("loss", "loss_policy", "loss_value")]),
        (
            "Elo across generations",
            [
                ("elo", _series(entries, "elo")),
                ("score_vs_reference", _series(entries, "score_vs_reference", 1000.0)),
            ],
        ),
    ]
    mistakes = _series(entries, "mistake_rate", 100.0)
    if mistakes:
        panels.append(
            (
                "mistake rate of the network alone (all positions, exact values)",
                [("mistake_rate", mistakes)],
            )
        )
    image = Image.new("RGB", (WIDTH, TOP + PANEL * len(panels)), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=12)  # the default 10 px draws spaces 2 px wide
    draw.text((MARGIN_LEFT, 8), title or "training progress", fill=(0, 0, 0), font=font)
    gens = [float(e["generation"]) for e in entries] or [0.0, 1.0]
    for index, (name, lines) in enumerate(panels):
        lines = [(k, p) for k, p in lines if p] or lines[:1]
        _panel(draw, TOP + index * PANEL, name, lines, font, (min(gens), max(gens)))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    write_atomically(target, buffer.getvalue())
    return target
