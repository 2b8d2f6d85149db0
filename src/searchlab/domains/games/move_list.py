"""Positions from a move list written in each game's notation (what ``searchlab play``,
``analyse`` and ``solve`` take on the command line, and position files hold).

Moves are separated by spaces or commas (``"b2 a1"``, ``"1:3,2:1"``). Two compact forms are
accepted too: a digit string for Connect Four (Pons' notation, columns 1..7: ``"4453"``) and
concatenated squares for Othello (``"f5d6c3"``).

>>> from searchlab.games import make
>>> str(position_from_moves(make("connect4"), "44")).splitlines()[-3:-1]
['. . . O . . .', '. . . X . . .']
>>> position_from_moves(make("othello"), "f5d6").current_player()
0
>>> moves_in_notation(make("othello"), "F5d6"), moves_in_notation(make("connect4"), "44")
(['f5', 'd6'], ['4', '4'])
"""

from __future__ import annotations

import re

from searchlab.core.game import Game, State, play

__all__ = ["moves_in_notation", "position_from_moves"]

_OTHELLO_COMPACT = re.compile(r"(?:[a-hA-H][1-8]|pass)+")
_OTHELLO_SQUARE = re.compile(r"[a-hA-H][1-8]|pass")


def position_from_moves(game: Game, moves: str | None) -> State:
    """The state after ``moves`` from the initial position; raises ``IllegalMoveError``
    naming the bad move, its number and the whole sequence."""
    text = (moves or "").strip()
    name = game.info.name
    if name == "connect4" and text.isdigit():
        from searchlab.domains.games.connect4 import parse_moves

        return parse_moves(text)
    if _is_othello_compact(name, text):
        text = " ".join(_OTHELLO_SQUARE.findall(text))
    return play(game.initial_state(), text)


def moves_in_notation(game: Game, moves: str | None) -> list[str]:
    """Each move of ``moves`` (any form :func:`position_from_moves` reads) as the game writes
    it, one string a move: what a game record holds. Check the moves with
    :func:`position_from_moves` first (its messages name a bad move)."""
    text = (moves or "").strip()
    name = game.info.name
    if name == "connect4" and text.isdigit():
        tokens = list(text)
    elif _is_othello_compact(name, text):
        tokens = _OTHELLO_SQUARE.findall(text)
    else:
        tokens = text.replace(",", " ").split()
    state, names = game.initial_state(), []
    for token in tokens:
        action = state.string_to_action(token)
        names.append(state.action_to_string(action))
        state = state.apply(action)
    return names


def _is_othello_compact(name: str, text: str) -> bool:
    """Othello squares written together (``f5d6c3``)."""
    return (
        name == "othello"
        and " " not in text
        and "," not in text
        and _OTHELLO_COMPACT.fullmatch(text) is not None
    )
