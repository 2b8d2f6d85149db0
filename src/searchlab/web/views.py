"""The view of a position for the Play lab: the board as a grid, and where each action is played.

:func:`build_view` turns a state into the JSON the page draws (the contract's *view*): the
text of the position, its board as a grid of one-character cells (rows top to bottom, as the
text shows them), every legal action with its label and the cell that plays it, the players'
names (:func:`~searchlab.domains.games.players.players`, the names ``searchlab play`` prints)
and what a game adds to its drawing. The grid is read from the state's own text, so a game's
drawing is written once (its ``__str__``), except Go's, which is read from its board:

* **square games** (tic-tac-toe, m,n,k, Othello, Gomoku): an action ``"b2"`` is the cell in
  column ``b`` of the row labelled ``2``; ``hints`` is true where the game marks a person's
  legal moves on its board, as ``searchlab play`` shows them (Othello's ``render(hints=True)``);
* **Connect Four**: an action (a column) is played by any cell of that column; ``cell`` is
  the square the disc lands on, ``cells`` the whole column;
* **Go**: an action is an intersection (``"D4"``, GTP's letters without ``I``), the pass a
  button; ``go`` holds the board size, its columns, star points, captures, the last move, the
  ko point and, once the game is over, the final count of the library
  (:func:`~searchlab.domains.games.go.score.settle_by_playouts`, as ``searchlab play go``
  scores it): the dead stones, each point's owner and the score;
* **Snake Go**: the board is drawn from the state; its actions (a direction, a split, a ray)
  move a snake, not a square, so they are buttons (``cell: null``); a move that kills the
  acting snake (off the board, into a wall or a snake) is ``deadly``
  (:func:`~searchlab.domains.games.snakego.policy.action_kinds`), and ``snake`` names the
  acting snake and its head's cell;
* **Nim and the heap games**: ``heaps`` holds the sizes; a Nim move names its pile and how
  many it takes (``heap``, ``take``), a heap game's move the heap and the heaps it leaves;
* **anything else** (a game of your own): the text, and every action as a button.

``counts`` is what the game counts per player (Go's captures, Othello's discs, Snake Go's
scores), when it counts something.

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
>>> view = build_view("go", play(make("go").initial_state(), ["E5", "D4"]), ["E5", "D4"])
>>> view["players"][0]["label"], view["go"]["last"], view["go"]["stars"][:2], view["legal"][-1]
('black', [5, 3], [[6, 2], [6, 6]], {'action': 81, 'label': 'pass', 'cell': None})
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from searchlab.core.game import State
from searchlab.domains.games.go import (
    COLUMNS,
    GoState,
    handicap_points,
    max_handicap,
    vertex_to_point,
)
from searchlab.domains.games.go.score import owners, result_of_score, settle_by_playouts
from searchlab.domains.games.heap_games import HeapState
from searchlab.domains.games.nim import NimState
from searchlab.domains.games.othello import OthelloState
from searchlab.domains.games.players import players
from searchlab.domains.games.snakego import SnakeGoState, snake_name
from searchlab.domains.games.snakego.policy import DEADLY, action_kinds

__all__ = ["GO_SETTLE_SEED", "MAX_LISTED_ACTIONS", "build_view", "result_text", "star_points"]

MAX_LISTED_ACTIONS = 5_000
"""The most legal actions a view lists (a larger list is refused: no page can show it)."""

GO_SETTLE_SEED = 0
"""The seed of the play-outs that settle a finished Go game's dead stones (the same count for
the same game, every time the page asks)."""

_SQUARE_GAMES = frozenset({"tictactoe", "mnk", "othello", "gomoku"})
_COLUMN_GAMES = frozenset({"connect4"})
_BOARD_ONLY_GAMES = frozenset({"snakego"})
_SQUARE_LABEL = re.compile(r"^([a-z])(\d+)$")
_STONES = ".XO"


def result_text(game: str, returns: tuple[float, ...] | list[float]) -> str:
    """``"first (X) wins"``, ``"white wins"``, ``"second wins"`` or ``"draw"`` for a finished
    game's returns, with the players' names (``searchlab play``'s).

    >>> result_text("tictactoe", (0.0, 0.0)), result_text("nim", (-1.0, 1.0))
    ('draw', 'second wins')
    >>> result_text("othello", (12.0, -12.0)), result_text("tictactoe", (-1.0, 1.0))
    ('black wins', 'second (O) wins')
    """
    first, second = float(returns[0]), float(returns[1])
    if first == second:
        return "draw"
    return f"{_player_text(game, 0 if first > second else 1)} wins"


def _player_text(game: str, player: int) -> str:
    """A player as the page names them: ``"black"``, ``"first (X)"`` (where the pieces are
    letters on the board, the letter too), ``"second"``."""
    named = players(game)
    if named.has_marks and named.names[player] not in ("black", "white"):
        return named.side(player)
    return named.names[player]


def star_points(size: int) -> list[int]:
    """The star points drawn on a ``size`` Go board: the fixed handicap points (GTP's, as
    :func:`~searchlab.domains.games.go.handicap_points` places them), nine from 15x15 up,
    five (the corners and the centre) on the other odd sizes, four on even ones, none below
    7x7.

    >>> from searchlab.domains.games.go import point_to_vertex
    >>> [point_to_vertex(p, 9) for p in star_points(9)], len(star_points(19)), star_points(5)
    (['C3', 'G3', 'E5', 'C7', 'G7'], 9, [])
    """
    most = max_handicap(size)
    if most < 2:
        return []
    return list(handicap_points(size, most if size >= 15 else min(most, 5)))


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
    named = players(game)
    view: dict[str, Any] = {
        "game": game,
        "moves": list(moves),
        "to_move": None if terminal else int(state.current_player()),
        "terminal": terminal,
        "returns": returns,
        "text": text,
        "grid": None,
        "legal": [],
        "result": None if returns is None else result_text(game, returns),
        "players": [
            {"name": named.names[p], "mark": named.marks[p], "label": _player_text(game, p)}
            for p in (0, 1)
        ],
        "hints": _marks_legal_moves(state),
        "counts": None,
        "go": None,
        "snake": None,
        "heaps": None,
    }
    if isinstance(state, GoState):
        _go_view(view, state, actions)
        return view
    labels, rows = _board_lines(text)
    if rows:
        view["grid"] = {"rows": len(rows), "cols": len(rows[0]), "cells": rows}
    view["legal"] = [_legal_entry(game, state, action, labels, rows) for action in actions]
    if isinstance(state, OthelloState):
        view["counts"] = {"what": "discs", "values": list(state.discs())}
    elif isinstance(state, SnakeGoState):
        _snake_view(view, state)
    elif isinstance(state, NimState | HeapState):
        _heaps_view(view, state)
    return view


def _marks_legal_moves(state: State) -> bool:
    """True when the game draws a person's legal moves on its board (a ``render`` that takes
    ``hints``, as ``searchlab play`` calls it: Othello)."""
    render = getattr(state, "render", None)
    if not callable(render):
        return False
    try:
        return "hints" in inspect.signature(render).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False


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


# --- Go -------------------------------------------------------------------------------------


def _go_view(view: dict[str, Any], state: GoState, actions: list[int]) -> None:
    """Go's board read from the state (row ``size`` at the top, as the text shows it), its
    intersections' moves, and what the page draws around them."""
    size = state.game.size

    def cell(point: int) -> list[int] | None:
        if not 0 <= point < size * size:
            return None  # the pass
        row, col = divmod(point, size)
        return [size - 1 - row, col]

    rows = [
        [_STONES[state.board[(size - 1 - r) * size + c]] for c in range(size)] for r in range(size)
    ]
    view["grid"] = {"rows": size, "cols": size, "cells": rows}
    view["legal"] = [
        {"action": int(a), "label": state.action_to_string(a), "cell": cell(a)} for a in actions
    ]
    view["counts"] = {"what": "captures", "values": list(state.captures)}
    last = state.last_move
    view["go"] = {
        "size": size,
        "columns": COLUMNS[:size],
        "komi": state.game.komi,
        "stars": [cell(p) for p in star_points(size)],
        "last": None if last is None else cell(last),
        "last_label": None if last is None else state.action_to_string(last),
        "ko": None if state.ko_point < 0 or state.is_terminal() else cell(state.ko_point),
        "passes": state.passes,
        "end": _go_end(view, state, cell) if state.is_terminal() else None,
    }


def _go_end(view: dict[str, Any], state: GoState, cell: Any) -> dict[str, Any]:
    """The final count of a finished Go game, as ``searchlab play go`` makes it: the dead
    stones settled by play-outs, then Tromp-Taylor area with komi. The view's result and
    returns are the count's (a dead stone counts for nobody)."""
    size = state.game.size
    settlement = settle_by_playouts(state, seed=GO_SETTLE_SEED)
    score = settlement.score
    result = result_of_score(score)
    owner = owners(settlement.settled.board, size)
    black = owner.count(1)
    white = owner.count(2)
    if score == 0:
        view["result"] = f"draw (jigo): {result}"
        view["returns"] = [0.0, 0.0]
    else:
        winner = 0 if score > 0 else 1
        view["result"] = f"{players('go').names[winner]} wins by {abs(score):g} points ({result})"
        view["returns"] = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
    dead = [
        {"cell": cell(vertex_to_point(label, size)), "label": label, "colour": colour}
        for colour, labels in enumerate(settlement.dead)
        for label in labels
    ]
    return {
        "result": result,
        "score": score,
        "area": [black, white],
        "dead": dead,
        "owners": [
            "".join(_STONES[owner[(size - 1 - r) * size + c]] for c in range(size))
            for r in range(size)
        ],
        "settled_by": settlement.settler,
        "why": "two passes" if state.passes >= 2 else f"{state.game.max_moves} moves",
    }


# --- Snake Go, Nim and the heap games -------------------------------------------------------


def _snake_view(view: dict[str, Any], state: SnakeGoState) -> None:
    """The acting snake (its name and head) and which of its moves kill it."""
    view["counts"] = {"what": "score", "values": list(state.scores())}
    if state.is_terminal():
        return
    snake = state.acting_snake()
    size = state.game.size
    x, y = snake.head
    view["snake"] = {"acting": snake_name(state.player, snake.id), "head": [size - 1 - y, x]}
    deadly = {action for action, kind in action_kinds(state) if kind == DEADLY}
    for entry in view["legal"]:
        entry["deadly"] = entry["action"] in deadly


def _heaps_view(view: dict[str, Any], state: NimState | HeapState) -> None:
    """The heaps, and what each move does to them: a Nim move takes ``take`` counters from
    the heap ``heap`` (0-based); a heap game's move leaves ``leaves`` in place of ``heap``."""
    if isinstance(state, NimState):
        sizes = list(state.piles)
        view["heaps"] = {"kind": "nim", "sizes": sizes}
        for entry in view["legal"]:
            pile, count = entry["label"].split(":")
            entry["heap"], entry["take"] = int(pile) - 1, int(count)
        return
    view["heaps"] = {"kind": "heaps", "sizes": list(state.heaps)}
    game = state.game
    for entry in view["legal"]:
        heap, option = (int(part) - 1 for part in entry["label"].split(":"))
        entry["heap"] = heap
        entry["leaves"] = list(game.heap_options(state.heaps[heap])[option])
