"""``searchlab arena GAME SPEC SPEC...``: a round-robin tournament between agents (in progress)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``arena`` to the ``searchlab`` command line."""
    parser = subparsers.add_parser("arena", help="a round-robin tournament between agents")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Not written yet."""
    print("searchlab arena: not written yet")
    return 1
