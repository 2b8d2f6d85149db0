"""Perft: the number of move sequences (leaves of the game tree) of exactly ``depth`` plies.

Finished games are not extended, so a game that ends before ``depth`` adds nothing; this is
the convention of the published tic-tac-toe and Othello counts. ``divide`` splits the count
by first move, which localises a move-generator bug when a count is wrong.

>>> from searchlab.domains.games.tictactoe import TicTacToe
>>> root = TicTacToe().initial_state()
>>> [perft(root, depth) for depth in range(4)]
[1, 9, 72, 504]
>>> divide(root, 2)["b2"]
8
"""

from __future__ import annotations

from collections.abc import Mapping

from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import State

__all__ = ["divide", "perft", "perft_mismatch_report"]


def perft(state: State, depth: int) -> int:
    """Number of ``depth``-ply move sequences from ``state`` (``depth >= 0``)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise InvalidParameterError(f"perft depth must be an integer >= 0, got {depth!r}")
    return _perft(state, depth)


def _perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(_perft(state.apply(action), depth - 1) for action in actions)


def divide(state: State, depth: int) -> dict[str, int]:
    """Perft of ``depth`` split by first move: ``{notation: count}`` in action order
    (``depth >= 1``)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidParameterError(f"divide depth must be an integer >= 1, got {depth!r}")
    if state.is_terminal():
        return {}
    return {
        state.action_to_string(action): _perft(state.apply(action), depth - 1)
        for action in state.legal_actions()
    }


def perft_mismatch_report(
    state: State, depth: int, expected: int, expected_divide: Mapping[str, int] | None = None
) -> str | None:
    """``None`` when ``perft(state, depth) == expected``, else a report with the divide (and
    where each first move differs, when ``expected_divide`` is given).

    >>> from searchlab.domains.games.nim import Nim
    >>> print(perft_mismatch_report(Nim((1, 2)).initial_state(), 1, 4))
    perft(1) = 3, expected 4; divide:
      1:1 1
      2:1 1
      2:2 1
    """
    counts = divide(state, depth) if depth >= 1 else {}
    total = sum(counts.values()) if depth >= 1 else 1
    if total == expected:
        return None
    lines = [f"perft({depth}) = {total}, expected {expected}; divide:"]
    for move, count in counts.items():
        note = ""
        if expected_divide is not None and expected_divide.get(move) != count:
            note = f"   <- expected {expected_divide.get(move)}"
        lines.append(f"  {move} {count}{note}")
    return "\n".join(lines)
