"""The view of a position for the Play lab: the board as a grid, and where each action is played.

:func:`build_view` turns a state into the JSON the page draws (the contract's *view*): the
text of the position, its board as a grid of one-character cells (rows top to bottom, as the
text shows them), and every legal action with its label and the cell that plays it. The grid
is read from the state's own text, so a game's drawing is written once (its ``__str__``):

* **square games** (tic-tac-toe, m,n,k, Othello, Gomoku): an action ``"b2"`` is the cell in
  column ``b`` of the row labelled ``2``;
* **Connect Four**: an action (a column) is played by any cell of that column; ``cell`` is
  the square the disc lands on, ``cells`` the whole column;
* **Snake Go**: the board is drawn from the state; its actions (a direction, a split, a ray)
  move a snake, not a square, so they are buttons (``cell: null``);
* **anything else** (Nim and the heap games, Go when it lands, a game of your own): the text,
  and every action as a button.

>>> from searchlab.games import make
>>> from searchlab.core.game import play
>>> view = build_view("tictactoe", play(make("tictactoe").initial_state(), ["b2"]), ["b2"])
>>> view["grid"]["cells"][1], view["to_move"], view["legal"][0]
(['.', 'X', '.'], 1, {'action': 0, 'label': 'a1', 'cell': [2, 0]})
>>> view = build_view("connect4", make("connect4").initial_state(), [])
>>> view["legal"][3]["cell"], len(view["legal"][3]["cells"])
([5, 3], 6)
>>> build_view("nim", make("nim").initial_state(), [])["grid"] is None
True
"""

from __future__ import annotations

import re
from typing import Any

from searchlab.core.game import State

__all__ = ["MAX_LISTED_ACTIONS", "build_view", "result_text", "side_names"]

MAX_LISTED_ACTIONS = 5_000
"""The most legal actions a view lists (a larger list is refused: no page can show it)."""

_SQUARE_GAMES = frozenset({"tictactoe", "mnk", "othello", "gomoku"})
_COLUMN_GAMES = frozenset({"connect4"})
_BOARD_ONLY_GAMES = frozenset({"snakego"})
_SIDES = {name: ("X", "O") for name in ("tictactoe", "mnk", "connect4", "othello", "gomoku")}
_SQUARE_LABEL = re.compile(r"^([a-z])(\d+)$")


def side_names(game: str) -> tuple[str, str]:
    """What the page calls players 0 and 1 (``("X", "O")`` on the boards that show them).

    >>> side_names("connect4"), side_names("nim")
    (('X', 'O'), ('player 0', 'player 1'))
    """
    return _SIDES.get(game, ("player 0", "player 1"))


def result_text(game: str, returns: tuple[float, ...] | list[float]) -> str:
    """``"X wins"``, ``"player 1 wins"`` or ``"draw"`` for a finished game's returns.

    >>> result_text("tictactoe", (0.0, 0.0)), result_text("nim", (-1.0, 1.0))
    ('draw', 'player 1 wins')
    """
    first, second = float(returns[0]), float(returns[1])
    if first == second:
        return "draw"
    return f"{side_names(game)[0 if first > second else 1]} wins"


def _board_lines(text: str) -> tuple[list[str | None], list[list[str]]]:
    """The board's rows in ``text``: (row labels, cells), top to bottom; empty when none.

    A board row is a line of single-character cells separated by spaces, optionally after a
    numeric row label; the rows of one board have the same width. Column-label lines (letters
    ``a b c ...`` or numbers ``1 2 3 ...``) are not rows.
    """
    labels: list[str | None] = []
    rows: list[list[str]] = []
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) < 2:
            if rows:
                break
            continue
        label: str | None = None
        if tokens[0].isdigit() and len(tokens) > 2 and all(len(t) == 1 for t in tokens[1:]):
            label, tokens = tokens[0], tokens[1:]
        if not all(len(t) == 1 for t in tokens) or _is_axis(tokens):
            if rows:
                break
            continue
        if rows and len(tokens) != len(rows[0]):
            break
        labels.append(label)
        rows.append(tokens)
    return labels, rows


def _is_axis(tokens: list[str]) -> bool:
    """Column labels: ``a b c ...`` or ``0 1 2 ...`` / ``1 2 3 ...``."""
    if all(t.isdigit() for t in tokens):
        return True
    return "".join(tokens) == "abcdefghijklmnopqrstuvwxyz"[: len(tokens)]


def build_view(game: str, state: State, moves: list[str]) -> dict[str, Any]:
    """The view of ``state`` (reached by ``moves`` from the start) of the registered ``game``.

    Raises ``ValueError`` when the position has more than :data:`MAX_LISTED_ACTIONS` legal
    actions (a page could not list them).
    """
    text = str(state)
    terminal = state.is_terminal()
    returns = [float(r) for r in state.returns()] if terminal else None
    actions = [] if terminal else list(state.legal_actions())
    if len(actions) > MAX_LISTED_ACTIONS:
        raise ValueError(
            f"this position has {len(actions)} legal moves, more than a page can list "
            f"({MAX_LISTED_ACTIONS}): choose smaller game parameters"
        )
    labels, rows = _board_lines(text)
    grid = {"rows": len(rows), "cols": len(rows[0]), "cells": rows} if rows else None
    legal = [_legal_entry(game, state, action, labels, rows) for action in actions]
    return {
        "game": game,
        "moves": list(moves),
        "to_move": None if terminal else int(state.current_player()),
        "terminal": terminal,
        "returns": returns,
        "text": text,
        "grid": grid,
        "legal": legal,
        "result": None if returns is None else result_text(game, returns),
        "sides": list(side_names(game)),
    }


def _legal_entry(
    game: str, state: State, action: int, labels: list[str | None], rows: list[list[str]]
) -> dict[str, Any]:
    label = state.action_to_string(action)
    entry: dict[str, Any] = {"action": int(action), "label": label, "cell": None}
    if not rows or game in _BOARD_ONLY_GAMES:
        return entry
    if game in _SQUARE_GAMES:
        match = _SQUARE_LABEL.match(label)
        if match and match.group(2) in labels:
            column = ord(match.group(1)) - ord("a")
            if column < len(rows[0]):
                entry["cell"] = [labels.index(match.group(2)), column]
    elif game in _COLUMN_GAMES and label.isdigit():
        column = int(label) - 1
        if 0 <= column < len(rows[0]):
            empty = [r for r in range(len(rows)) if rows[r][column] == "."]
            entry["cell"] = [empty[-1] if empty else 0, column]
            entry["cells"] = [[r, column] for r in range(len(rows))]
    return entry
