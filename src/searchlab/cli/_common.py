"""Helpers shared by the subcommands: argument parsing (the game parameters of every command,
``-p NAME=VALUE|@FILE``: :func:`parse_params`), output files checked before any search,
progress bars and tables, JSON lines.

The ``cli`` extra (rich, Pillow) is optional: without rich, progress bars are left out and
tables are plain text; a picture (``--png``) needs Pillow and says so in one line
(:func:`require_extra`) before anything runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from searchlab.core.errors import InvalidParameterError

__all__ = [
    "EXTRA_HINT",
    "MAX_WORKERS",
    "emit_json",
    "has_module",
    "output_file",
    "output_folder",
    "parse_param",
    "parse_params",
    "parse_xy",
    "picture_file",
    "positive_int",
    "print_table",
    "progress",
    "require_extra",
    "shorten_line",
    "stderr_console",
    "worker_count",
]

EXTRA_HINT = "pip install 'searchlab[cli]'"
"""How to install the optional packages of the command line."""

PV_SHOWN = 10
"""Moves of a principal variation shown in text output (JSON keeps the whole line)."""


def has_module(name: str) -> bool:
    """Whether ``name`` can be imported (``False`` also when an import of it is blocked)."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def require_extra(what: str, module: str = "PIL") -> None:
    """Raise a one-line error unless ``module`` (of the ``cli`` extra) is installed; ``what``
    names the feature, like ``"searchlab path --png"``."""
    if not has_module(module):
        raise InvalidParameterError(f"{what!r} needs the cli extra: {EXTRA_HINT}")


def output_file(text: str, option: str, example: str = "out") -> Path:
    """Check that ``text`` can be written as a file, before any work: not empty, not a folder,
    in a folder that exists (and is one) and that we may write to. Returns the path.
    ``example`` is the file name a message about a folder suggests."""
    if not text or not text.strip():
        raise InvalidParameterError(f"{option}: needs a file name, got {text!r}")
    path = Path(text)
    if path.is_dir() or text.endswith(("/", os.sep)):
        raise InvalidParameterError(
            f"{option}: {text!r} is a folder; give a file name in it, like {str(path / example)!r}"
        )
    folder = path.parent
    _no_file_in_the_way(folder, text, option)
    if not folder.is_dir():
        raise InvalidParameterError(f"{option}: no such folder {str(folder)!r} (for {text!r})")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidParameterError(f"{option}: permission denied, cannot write {text!r}")
    return path


def _no_file_in_the_way(folder: Path, text: str, option: str) -> None:
    """One line when the nearest existing folder-to-be of ``folder`` (itself or a parent) is a
    file: ``text`` cannot be written under it."""
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if ancestor.exists() and not ancestor.is_dir():
        raise InvalidParameterError(
            f"{option}: {str(ancestor)!r} is a file, not a folder (in {text!r})"
        )


def output_folder(text: str, option: str) -> Path:
    """The folder ``text`` for output files, created with its parents when missing (like
    ``mkdir -p``); one line when it cannot be a folder (a file is in the way, no permission).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top:
    ...     output_folder(os.path.join(top, "a", "b"), "--out").is_dir()
    True
    """
    if not text or not text.strip():
        raise InvalidParameterError(f"{option}: needs a folder name, got {text!r}")
    path = Path(text)
    _no_file_in_the_way(path, text, option)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidParameterError(
            f"{option}: cannot create the folder {text!r}: {reason}"
        ) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise InvalidParameterError(f"{option}: permission denied, cannot write in {text!r}")
    return path


def picture_file(text: str, option: str, command: str) -> Path:
    """:func:`output_file` for a picture: Pillow installed, and an extension naming a format it
    writes (the one rule of :mod:`searchlab.viz.image_file`)."""
    require_extra(f"searchlab {command} {option}", "PIL")
    path = output_file(text, option, example="out.png")
    from searchlab.viz.image_file import image_format

    try:
        image_format(path)
    except InvalidParameterError as error:
        raise InvalidParameterError(f"{option}: {error}") from None
    return path


def shorten_line(moves: Sequence[str], shown: int = PV_SHOWN) -> str:
    """A line of moves for people: the first ``shown``, then how many more.

    >>> shorten_line(["a", "b", "c"], shown=2)
    'a b ... (+1 more)'
    >>> shorten_line(["a", "b"], shown=2)
    'a b'
    """
    if len(moves) <= shown:
        return " ".join(moves)
    return " ".join(moves[:shown]) + f" ... (+{len(moves) - shown} more)"


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


def add_command(
    subparsers: Any, name: str, summary: str, description: str, epilog: str
) -> argparse.ArgumentParser:
    """The parser of the subcommand ``name``: ``summary`` in the command list; its ``--help``
    prints ``description`` and ``epilog`` (examples, exit codes) as written."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    """Add the optional positional ``game`` of the commands that can load a record instead
    (``play``, ``analyse``)."""
    parser.add_argument(
        "game",
        nargs="?",
        help="a registered game (connect4, othello, tictactoe, nim, ...) or your own as "
        "FILE.py:CLASS or MODULE:CLASS (with --load: the record's, may be left out)",
    )


def add_param_argument(parser: argparse.ArgumentParser, example: str = "piles=3,4,5") -> None:
    """Add the game-parameter option ``-p NAME=VALUE`` (repeatable) that every command taking a
    game shares; ``example`` shows a parameter of the games that command is used with."""
    parser.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"game parameter, e.g. {example} (repeatable, or several joined by commas: "
        "m=7,n=6,k=4); NAME=@FILE reads the value from FILE (e.g. items=@items.txt for snakego)",
    )


def parse_param(text: str) -> tuple[str, Any]:
    """``"piles=3,4,5"`` -> ``("piles", (3, 4, 5))``; ``"m=4"`` -> ``("m", 4)``; other values
    stay strings (the rule of :mod:`searchlab.domains.games.params_text`). ``NAME=@FILE`` gives
    the text of FILE (Snake Go's ``items=@items.txt``); a missing or unreadable file is the
    command's one-line error.

    >>> parse_param("piles=3,4,5"), parse_param("m=4"), parse_param("misere=true")
    (('piles', (3, 4, 5)), ('m', 4), ('misere', True))
    """
    from searchlab.core.text_file import read_text
    from searchlab.domains.games.params_text import param_from_text

    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise InvalidParameterError(f"-p expects NAME=VALUE, got {text!r}")
    if value.startswith("@"):
        if value == "@":
            raise InvalidParameterError(f"-p {name}=@FILE needs a file name, got {text!r}")
        try:
            return name, read_text(value[1:])
        except InvalidParameterError:
            raise
        except ValueError:  # a NUL in the name
            raise InvalidParameterError(f"-p {name}=@FILE: bad file name {value[1:]!r}") from None
    return param_from_text(text)


def parse_params(texts: Sequence[str]) -> dict[str, Any]:
    """The game parameters of every ``-p``: each one ``NAME=VALUE`` or several joined by
    commas (``m=7,n=6,k=4``), read by :func:`parse_param`; a name given again wins.

    >>> parse_params(["m=7,n=6,k=4"])
    {'m': 7, 'n': 6, 'k': 4}
    >>> parse_params(["piles=3,4,5,misere=true"])
    {'piles': (3, 4, 5), 'misere': True}
    """
    from searchlab.domains.games.params_text import split_params

    params: dict[str, Any] = {}
    for text in texts:
        parts = [text] if text.partition("=")[2].startswith("@") else split_params(text)
        for part in parts:
            name, value = parse_param(part)
            params[name] = value
    return params


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


MAX_WORKERS = 256
"""The most worker processes a command starts (``--workers`` of ``arena``, ``train``,
``serve``): more is a typo, and an operating system's limit on processes or open files
would fail far less clearly."""


def worker_count(text: str) -> int:
    """``argparse`` type for ``--workers``: a whole number of processes in
    ``1..MAX_WORKERS``.

    >>> worker_count("4")
    4
    >>> worker_count("1000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected at most 256 processes, got '1000'
    """
    import argparse

    value = positive_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} processes, got {text!r}")
    return value


def stderr_console() -> Any:
    """A rich console on stderr (stdout stays clean for ``--json``)."""
    from rich.console import Console

    return Console(stderr=True)


def progress_bar(*, remaining: bool) -> Any:
    """A rich progress display on stderr (description, bar, done/total, time elapsed and, with
    ``remaining``, time left), hidden when stderr is not a terminal; needs rich (the ``cli``
    extra). Use it as a context manager."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = stderr_console()
    columns: list[Any] = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    if remaining:
        columns.append(TimeRemainingColumn())
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


@contextmanager
def progress(total: int, description: str) -> Iterator[Any]:
    """A progress bar on stderr; yields a callable ``advance(n=1)``. Hidden when not a TTY,
    and left out when rich (the ``cli`` extra) is not installed."""
    if not has_module("rich"):

        def ignore(n: int = 1) -> None:
            return None

        yield ignore
        return
    with progress_bar(remaining=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def print_table(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    title: str = "",
    left: Sequence[str] = (),
    plain: bool = False,
) -> None:
    """Print a table on stdout: drawn by rich when it is installed (never wrapped when stdout is
    a file or a pipe), plain aligned text otherwise (or with ``plain``). Columns named in
    ``left`` are left-aligned, the others right-aligned.

    >>> rows = [["d3", 120], ["c4", 7]]
    >>> print_table(["move", "visits"], rows, title="root", left=["move"], plain=True)
    root
    move  visits
    d3       120
    c4         7
    """
    cells = [[str(cell) for cell in row] for row in rows]
    if not plain and has_module("rich"):
        from rich.console import Console
        from rich.table import Table

        table = Table(title=title or None, title_justify="left")
        for name in columns:
            table.add_column(name, justify="left" if name in left else "right")
        for row in cells:
            table.add_row(*row)
        console = Console()
        if not console.is_terminal:
            console = Console(width=1000)
        console.print(table)
        return
    widths = [max(len(name), *(len(row[i]) for row in cells)) for i, name in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.ljust(width) if name in left else value.rjust(width)
            for value, width, name in zip(values, widths, columns, strict=True)
        ]
        return "  ".join(parts).rstrip()

    if title:
        print(title)
    print(line(list(columns)))
    for row in cells:
        print(line(row))


def emit_json(obj: dict[str, Any]) -> None:
    """Print one JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")


def add_json_argument(
    parser: argparse.ArgumentParser, help: str = "one JSON object on stdout"
) -> None:
    """Add ``--json`` to ``parser`` (a flag, ``args.json``): the command's result as JSON on
    stdout instead of text, ``help`` saying its form.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_json_argument(parser)
    >>> parser.parse_args([]).json, parser.parse_args(["--json"]).json
    (False, True)
    """
    parser.add_argument("--json", action="store_true", help=help)


def add_ray_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """Add ``--ray [ADDRESS]`` to ``parser``: absent ``None``, alone ``"local"`` (a local Ray
    instance), else the address of a cluster (``HOST:PORT`` or ``auto``), as
    :func:`searchlab.core.workers.make_pool` takes it.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_ray_argument(parser, "run on Ray")
    >>> [parser.parse_args(argv).ray for argv in ([], ["--ray"], ["--ray", "auto"])]
    [None, 'local', 'auto']
    """
    parser.add_argument(
        "--ray", nargs="?", const="local", default=None, metavar="ADDRESS", help=help
    )
