"""Helpers shared by the subcommands: argument parsing, progress bars, JSON lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = ["emit_json", "parse_xy", "positive_int", "progress", "stderr_console"]


def parse_xy(text: str, option: str) -> tuple[int, int]:
    """Parse ``"X,Y"`` (column, row) into a pair of ints, or raise a one-line error."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (int(part) for part in parts)
    except ValueError:
        raise InvalidParameterError(
            f"{option} expects X,Y (column,row, integers), got {text!r}"
        ) from None
    return x, y


def positive_int(text: str) -> int:
    """``argparse`` type for a whole number > 0."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def stderr_console() -> Any:
    """A rich console on stderr (stdout stays clean for ``--json``)."""
    from rich.console import Console

    return Console(stderr=True)


@contextmanager
def progress(total: int, description: str) -> Iterator[Any]:
    """A progress bar on stderr; yields a callable ``advance(n=1)``. Hidden when not a TTY."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = stderr_console()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def emit_json(obj: dict[str, Any]) -> None:
    """Print one JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
