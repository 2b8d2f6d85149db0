"""``searchlab exercise alphabeta|astar``: random exercises with their answer keys."""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``exercise`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser(
        "exercise",
        help="random alpha-beta and A* exercises with their answer keys",
    )
    parser.set_defaults(func=lambda args: 0)
