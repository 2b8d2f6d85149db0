"""A person at the terminal, as an agent: reads moves in the game's notation.

Besides moves, a person can type ``undo`` (take back their last move), ``resign``, ``moves``
(list the legal moves) and ``help`` (the game's notation, with an example move from the
position). An illegal or malformed move prints why and asks again.

>>> from searchlab.games import make
>>> lines = iter(["z9", "help", "b2"])
>>> shown = []
>>> agent = HumanAgent(read=lambda prompt: next(lines), write=shown.append,
...                    notation=notation_of(make("tictactoe")))
>>> state = make("tictactoe").initial_state()
>>> state.action_to_string(agent.act(state))
'b2'
>>> shown[0]
"illegal move 'z9': off the 3x3 board (type 'moves' for the legal moves, 'help' for more)"
>>> print(shown[1])
moves: a cell, column letter then row number (a1 is the bottom-left corner); e.g. a1
commands: moves (list the legal moves), undo (take back your last move), resign, help
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchlab.agents.base import AgentBase
from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import State
from searchlab.core.limits import Limits

__all__ = ["END_OF_INPUT", "NOTATIONS", "HumanAgent", "Resign", "Undo", "notation_of"]

COMMANDS = "commands: moves (list the legal moves), undo (take back your last move), resign, help"

NOTATIONS: dict[str, str] = {
    "connect4": "a column number 1..7 (1 is the leftmost)",
    "othello": "a square, column letter then row number (a1 is the top-left corner), "
    "or pass when you have no move",
    "tictactoe": "a cell, column letter then row number (a1 is the bottom-left corner)",
    "mnk": "a cell, column letter then row number (a1 is the bottom-left corner)",
    "gomoku": "a cell, column letter then row number (a1 is the bottom-left corner)",
    "nim": "PILE:COUNT, take COUNT counters from pile PILE (piles numbered from 1)",
    "kayles": "HEAP:OPTION, the OPTION-th way to play on heap HEAP (type moves to see them)",
    "dawsons_chess": "HEAP:OPTION, the OPTION-th way to play on heap HEAP (type moves to see them)",
    "grundys_game": "HEAP:OPTION, the OPTION-th way to split heap HEAP (type moves to see them)",
    "snakego": "the action of the snake the prompt names: up, down, left, right (or u, d, l, "
    "r), split, ray",
    "go": "a point, column letter (A..T, no I) then row number (A1 is the bottom-left "
    "corner; any case), or pass; undo also takes back the reply",
}
"""How a person writes a move, by game name (a game of your own may set ``notation``)."""


def notation_of(game: Any) -> str:
    """How moves of ``game`` are written: its own ``notation`` attribute, else the description
    of :data:`NOTATIONS`, else a generic one.

    >>> from searchlab.games import make
    >>> notation_of(make("connect4"))
    'a column number 1..7 (1 is the leftmost)'
    """
    own = getattr(game, "notation", None)
    if isinstance(own, str) and own:
        return own
    return NOTATIONS.get(game.info.name, "a move as the game writes it (type moves to see them)")


END_OF_INPUT = "end of input"
"""The reason of a :class:`Resign` raised when the input ends (Ctrl-D, a closed pipe)."""


class Resign(Exception):
    """The person resigned (or input ended)."""


class Undo(Exception):
    """The person asked to take back their last move."""


class HumanAgent(AgentBase):
    """Asks ``read(prompt)`` for a move until it gets a legal one; messages go to ``write``.
    ``notation`` describes the game's moves for ``help`` (see :func:`notation_of`)."""

    def __init__(
        self,
        name: str = "human",
        *,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        notation: str = "",
    ) -> None:
        super().__init__(name)
        self._read = read
        self._write = write
        self.notation = notation

    def help_text(self, state: State) -> str:
        """The notation, an example move legal in ``state``, and the commands."""
        actions = list(state.legal_actions())
        example = f"; e.g. {state.action_to_string(actions[0])}" if actions else ""
        notation = self.notation or "a move in the game's notation"
        return f"moves: {notation}{example}\n{COMMANDS}"

    def act(self, state: State, limits: Limits | None = None) -> int:
        while True:
            try:
                text = self._read("your move> ").strip()
            except EOFError:
                raise Resign(END_OF_INPUT) from None
            command = text.lower()
            if not text:
                continue
            if command in ("resign", "quit", "exit"):
                raise Resign(command)
            if command in ("undo", "takeback"):
                raise Undo()
            if command in ("help", "?"):
                self._write(self.help_text(state))
                continue
            if command == "moves":
                self._write(
                    "legal moves: "
                    + " ".join(state.action_to_string(a) for a in state.legal_actions())
                )
                continue
            try:
                return state.string_to_action(text)
            except (IllegalMoveError, ValueError) as error:
                self._write(f"{error} (type 'moves' for the legal moves, 'help' for more)")
