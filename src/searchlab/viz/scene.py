"""A small vector scene (lines, squares, circles, text) written as SVG or drawn with Pillow:
one drawing, two formats, so a tree picture looks the same in a browser and in a PNG.

Coordinates are pixels, y downwards. Every shape may carry a ``css`` class and ``data``
attributes (``data-node="B"``) that the SVG keeps, so pages and tests can find a node's shape.
PNG text uses DejaVu Sans when the system has it (Greek letters and the infinity sign) and
Pillow's bundled font otherwise, with ``α``, ``β`` and ``∞`` spelled ``a``, ``b``, ``inf``.

>>> scene = Scene(120, 60, title="t")
>>> scene.add(Shape("rect", (10, 10, 30, 30), fill="#fff", css="max", data={"node": "A"}))
>>> scene.add(Text(60, 30, "α=3", size=12))
>>> svg = scene_svg(scene)
>>> svg.startswith("<svg"), 'data-node="A"' in svg, "α=3" in svg
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from searchlab.viz.image_file import image_format, save_image

__all__ = ["Line", "Scene", "Shape", "Text", "render_scene", "scene_svg"]

Colour = str
"""A colour as ``#rrggbb``."""

BACKGROUND = "#fafaf7"
INK = "#1e1e1e"


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line; ``dash`` draws it dashed; ``css`` names its class in the SVG."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: Colour = INK
    width: float = 1.5
    dash: bool = False
    css: str = ""
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Shape:
    """A ``"rect"`` (``box`` = left, top, right, bottom) or a ``"circle"`` (the box it fills)."""

    kind: str
    box: tuple[float, float, float, float]
    fill: Colour = "#ffffff"
    outline: Colour = INK
    width: float = 1.5
    dash: bool = False
    css: str = ""
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Text:
    """Text whose ``anchor`` (``start``, ``middle``, ``end``) sits at ``x``; ``y`` is the middle
    of the line."""

    x: float
    y: float
    text: str
    size: float = 12
    colour: Colour = INK
    anchor: str = "middle"
    bold: bool = False
    css: str = ""


@dataclass
class Scene:
    """Shapes in drawing order on a ``width`` x ``height`` canvas; ``title`` becomes the SVG's
    ``<title>``."""

    width: int
    height: int
    title: str = ""
    items: list[Line | Shape | Text] = field(default_factory=list)

    def add(self, item: Line | Shape | Text) -> None:
        """Draw ``item`` above what is already there."""
        self.items.append(item)


def _attrs(css: str, data: dict[str, str]) -> str:
    parts = [f" class={quoteattr(css)}"] if css else []
    parts += [f" data-{name}={quoteattr(value)}" for name, value in data.items()]
    return "".join(parts)


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def scene_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document (UTF-8 text)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
        f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
    ]
    for item in scene.items:
        if isinstance(item, Line):
            dash = ' stroke-dasharray="6 4"' if item.dash else ""
            out.append(
                f'<line x1="{_f(item.x1)}" y1="{_f(item.y1)}" x2="{_f(item.x2)}" '
                f'y2="{_f(item.y2)}" stroke="{item.colour}" stroke-width="{_f(item.width)}"'
                f"{dash}{_attrs(item.css, item.data)}/>"
            )
        elif isinstance(item, Shape):
            left, top, right, bottom = item.box
            dash = ' stroke-dasharray="4 3"' if item.dash else ""
            paint = (
                f'fill="{item.fill}" stroke="{item.outline}" stroke-width="{_f(item.width)}"{dash}'
            )
            if item.kind == "circle":
                out.append(
                    f'<circle cx="{_f((left + right) / 2)}" cy="{_f((top + bottom) / 2)}" '
                    f'r="{_f((right - left) / 2)}" {paint}{_attrs(item.css, item.data)}/>'
                )
            else:
                out.append(
                    f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(right - left)}" '
                    f'height="{_f(bottom - top)}" {paint}{_attrs(item.css, item.data)}/>'
                )
        else:
            weight = ' font-weight="bold"' if item.bold else ""
            out.append(
                f'<text x="{_f(item.x)}" y="{_f(item.y)}" font-size="{_f(item.size)}" '
                f'fill="{item.colour}" text-anchor="{item.anchor}" dominant-baseline="central"'
                f"{weight}{_attrs(item.css, {})}>{escape(item.text)}</text>"
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


_ASCII = str.maketrans({"α": "a", "β": "b", "∞": "inf", "−": "-", "≥": ">=", "≤": "<="})


@cache
def _font(size: int, bold: bool) -> tuple[Any, bool]:
    """A Pillow font of ``size`` pixels and whether it has Greek letters (DejaVu Sans)."""
    from PIL import ImageFont

    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf") if bold else ("DejaVuSans.ttf",):
        try:
            return ImageFont.truetype(name, size), True
        except OSError:
            continue
    return ImageFont.load_default(size=size), False


def _dashed(draw: Any, x1: float, y1: float, x2: float, y2: float, fill: Any, width: int) -> None:
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 or 1.0
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    position = 0.0
    while position < length:
        end = min(length, position + 6)
        draw.line(
            (x1 + dx * position, y1 + dy * position, x1 + dx * end, y1 + dy * end),
            fill=fill,
            width=width,
        )
        position += 10


def _band(x1: float, y1: float, x2: float, y2: float, half: float) -> list[tuple[float, float]]:
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 or 1.0
    px, py = -(y2 - y1) / length * half, (x2 - x1) / length * half
    return [(x1 + px, y1 + py), (x2 + px, y2 + py), (x2 - px, y2 - py), (x1 - px, y1 - py)]


def render_scene(scene: Scene, path: str | Path, *, scale: float = 1.0) -> Path:
    """Draw the scene with Pillow (``scale`` times its size) and write it to the picture file
    ``path`` (the format its extension names, see :mod:`searchlab.viz.image_file`)."""
    from PIL import Image, ImageDraw

    image_format(path)
    s = scale
    image = Image.new("RGB", (round(scene.width * s), round(scene.height * s)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for item in scene.items:
        if isinstance(item, Line):
            width = max(1, round(item.width * s))
            ends = (item.x1 * s, item.y1 * s, item.x2 * s, item.y2 * s)
            if item.dash:
                _dashed(draw, *ends, fill=item.colour, width=width)
            elif width >= 3:  # a wide line as a polygon: Pillow's wide lines show stripes
                draw.polygon(_band(*ends, width / 2), fill=item.colour)
            else:
                draw.line(ends, fill=item.colour, width=width)
        elif isinstance(item, Shape):
            box = tuple(v * s for v in item.box)
            width = max(1, round(item.width * s))
            if item.kind == "circle":
                draw.ellipse(box, fill=item.fill, outline=item.outline, width=width)
            else:
                draw.rectangle(box, fill=item.fill, outline=item.outline, width=width)
        else:
            font, greek = _font(max(6, round(item.size * s)), item.bold)
            text = item.text if greek else item.text.translate(_ASCII)
            anchor = {"start": "lm", "middle": "mm", "end": "rm"}[item.anchor]
            draw.text((item.x * s, item.y * s), text, fill=item.colour, font=font, anchor=anchor)
    return save_image(image, path)
