"""Writing a picture: the file's extension names its format, the one rule for every picture
searchlab draws (``.png``, ``.jpg``/``.jpeg``, ``.webp``, ``.gif``, ``.bmp``, ``.tif``/``.tiff``,
as far as the installed Pillow can write them). Needs Pillow (the ``cli`` extra).

>>> image_format("root.png"), image_format("den312d.JPG")
('PNG', 'JPEG')
>>> image_format("root")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: 'root' has no picture extension: ...
>>> image_format("root.svg")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: 'root.svg': searchlab cannot write .svg pictures; ...
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = ["IMAGE_FORMATS", "image_format", "save_image"]

IMAGE_FORMATS: dict[str, str] = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".webp": "WEBP",
    ".gif": "GIF",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
}
"""Picture extensions (lower case) and the Pillow format each names."""


def _writable(extension: str) -> bool:
    from PIL import Image

    Image.init()
    return IMAGE_FORMATS[extension] in Image.SAVE


def image_format(path: str | Path) -> str:
    """The Pillow format the extension of ``path`` names; raises ``InvalidParameterError``
    (one line, listing the formats) for a missing, unknown or unwritable extension."""
    extension = Path(path).suffix.lower()
    names = ", ".join(IMAGE_FORMATS)
    if not extension:
        stem = Path(path).name or "picture"
        raise InvalidParameterError(
            f"{str(path)!r} has no picture extension: name it like {stem}.png (formats: {names})"
        )
    if extension not in IMAGE_FORMATS or not _writable(extension):
        known = ", ".join(e for e in IMAGE_FORMATS if _writable(e))
        raise InvalidParameterError(
            f"{str(path)!r}: searchlab cannot write {extension} pictures; use one of {known}"
        )
    return IMAGE_FORMATS[extension]


def save_image(image: Any, path: str | Path) -> Path:
    """Write the Pillow ``image`` to ``path`` in the format its extension names; return the
    path. JPEG and BMP have no transparency: such images are flattened to RGB first."""
    out = Path(path)
    fmt = image_format(out)
    if fmt in ("JPEG", "BMP") and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    image.save(out, format=fmt)
    return out
