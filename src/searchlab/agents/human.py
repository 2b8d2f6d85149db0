"""A person at the terminal, as an agent: reads moves in the game's notation.

Besides moves, a person can type ``undo`` (take back their last move), ``resign``, ``moves``
(list the legal moves) and ``help``. An illegal or malformed move prints why and asks again.

>>> from searchlab.games import make
>>> lines = iter(["z9", "moves", "b2"])
>>> shown = []
>>> agent = HumanAgent(read=lambda prompt: next(lines), write=shown.append)
>>> state = make("tictactoe").initial_state()
>>> state.action_to_string(agent.act(state))
'b2'
>>> shown[0]
"illegal move: illegal move 'z9': off the 3x3 board"
"""

from __future__ import annotations

from collections.abc import Callable

from searchlab.agents.base import AgentBase
from searchlab.core.errors import IllegalMoveError
from searchlab.core.game import State
from searchlab.core.limits import Limits

__all__ = ["HumanAgent", "Resign", "Undo"]

HELP = "type a move in the game's notation, or: moves, undo, resign, help"


class Resign(Exception):
    """The person resigned (or input ended)."""


class Undo(Exception):
    """The person asked to take back their last move."""


class HumanAgent(AgentBase):
    """Asks ``read(prompt)`` for a move until it gets a legal one; messages go to ``write``."""

    def __init__(
        self,
        name: str = "human",
        *,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        super().__init__(name)
        self._read = read
        self._write = write

    def act(self, state: State, limits: Limits | None = None) -> int:
        while True:
            try:
                text = self._read("your move> ").strip()
            except EOFError:
                raise Resign("end of input") from None
            command = text.lower()
            if not text:
                continue
            if command in ("resign", "quit", "exit"):
                raise Resign(command)
            if command in ("undo", "takeback"):
                raise Undo()
            if command in ("help", "?"):
                self._write(HELP)
                continue
            if command == "moves":
                self._write(
                    "legal moves: "
                    + " ".join(state.action_to_string(a) for a in state.legal_actions())
                )
                continue
            try:
                return state.string_to_action(text)
            except IllegalMoveError as error:
                self._write(f"illegal move: {error}")
