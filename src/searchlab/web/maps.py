"""The grid maps the Path lab offers: the bundled ``examples/maps`` and, when present, the
Moving AI benchmark maps of ``../shared/data/grid_movingai`` (and any folder in the
``SEARCHLAB_MAPS`` environment variable, ``:``-separated).

A map is named by its file name without ``.map`` (``arena``); a Moving AI map by its set and
name (``dao/arena``), so that the two never clash. Its scenario file, when one lies beside it
(``NAME.map.scen``) or in the benchmark's ``scenarios/`` tree, gives the first problems.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import searchlab

__all__ = ["MapEntry", "default_map_dirs", "find_maps"]


@dataclass(frozen=True, slots=True)
class MapEntry:
    """One map: its name, file, scenario file (or ``None``) and size."""

    name: str
    file: Path
    scen: Path | None
    width: int
    height: int


def default_map_dirs() -> list[tuple[str, Path]]:
    """``(prefix, folder)`` pairs to look in: the repository's examples, the shared Moving AI
    benchmark (``prefix`` is the set folder's name there), and ``SEARCHLAB_MAPS``."""
    root = Path(searchlab.__file__).resolve().parents[2]
    found: list[tuple[str, Path]] = [("", root / "examples" / "maps")]
    movingai = root.parent / "shared" / "data" / "grid_movingai"
    found.append(("movingai", movingai))
    for folder in os.environ.get("SEARCHLAB_MAPS", "").split(os.pathsep):
        if folder:
            found.append(("", Path(folder)))
    return found


def _size(path: Path) -> tuple[int, int] | None:
    """``(width, height)`` from a Moving AI header, or ``None`` when it is not one."""
    width = height = None
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for _ in range(4):
                parts = handle.readline().split()
                if len(parts) == 2 and parts[0] == "width" and parts[1].isdigit():
                    width = int(parts[1])
                elif len(parts) == 2 and parts[0] == "height" and parts[1].isdigit():
                    height = int(parts[1])
    except OSError:
        return None
    return None if width is None or height is None else (width, height)


def find_maps(dirs: list[tuple[str, Path]] | None = None) -> dict[str, MapEntry]:
    """Every readable map of ``dirs`` (default :func:`default_map_dirs`), by name."""
    maps: dict[str, MapEntry] = {}
    for prefix, folder in default_map_dirs() if dirs is None else dirs:
        if prefix == "movingai":
            files = sorted((folder / "maps").glob("*/*.map")) if folder.is_dir() else []
        else:
            files = sorted(folder.glob("*.map")) if folder.is_dir() else []
        for file in files:
            size = _size(file)
            if size is None:
                continue
            if prefix == "movingai":
                name = f"{file.parent.name}/{file.stem}"
                scen = folder / "scenarios" / file.parent.name / f"{file.name}.scen"
            else:
                name = file.stem
                scen = file.with_name(f"{file.name}.scen")
            if name not in maps:
                maps[name] = MapEntry(name, file, scen if scen.is_file() else None, *size)
    return maps
