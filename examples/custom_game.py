"""A game of your own, in plain Python, run through every adversarial algorithm of searchlab.

The subtraction game: a pile of counters; players take 1, 2 or 3 in turn; whoever takes the
last counter wins. (The player to move loses exactly when the pile is a multiple of 4.)

Run it: ``python examples/custom_game.py``.

Every command that takes a game takes yours too, as ``FILE.py:CLASS`` or ``MODULE:CLASS`` (a
module on Python's path or in the current folder), with its constructor's keywords as ``-p``
parameters; ``searchlab.games.make`` accepts the same names::

    searchlab play examples/custom_game.py:Subtraction -p counters=15
    searchlab analyse examples/custom_game.py:Subtraction "3 2" --agent alphabeta
    searchlab perft examples/custom_game.py:Subtraction --depth 4
    searchlab arena examples/custom_game.py:Subtraction random alphabeta --games 10
    searchlab solve examples/custom_game.py:Subtraction -p counters=10 --json

``solve`` runs the plain-Python exact solver: the outcome for the player to move, the plies
to the end under best play, a best move and every move's value (``--time``/``--nodes`` stop
it).

The class must build a :class:`~searchlab.core.game.Game` (checked when it is loaded; a missing
class, a failed import or something that is not a game is one line naming the problem). An
optional ``notation`` attribute tells a person at ``searchlab play`` how to write a move.
"""

from __future__ import annotations

from searchlab.algorithms.adversarial.alphabeta import alphabeta
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.algorithms.adversarial.solver import solve
from searchlab.algorithms.adversarial.sprague_grundy import grundy_value
from searchlab.core.errors import IllegalMoveError, InvalidParameterError
from searchlab.core.game import GameInfo, parse_int_action
from searchlab.domains.games.conformance import assert_conforms
from searchlab.domains.games.perft import perft


class Subtraction:
    """The rules: a pile of ``counters``, take 1..3."""

    notation = "the number of counters to take, 1 to 3"

    def __init__(self, counters: int = 21) -> None:
        if isinstance(counters, bool) or not isinstance(counters, int) or counters < 1:
            raise InvalidParameterError(f"counters must be an integer >= 1, got {counters!r}")
        self.counters = counters
        self.info = GameInfo(name="subtraction", impartial=True, max_game_length=counters)

    def initial_state(self) -> Pile:
        return Pile(self.counters, 0)


class Pile:
    """One position: counters left and the player to move. Actions: how many to take."""

    def __init__(self, left: int, player: int) -> None:
        self.left, self.player = left, player

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[int]:
        return [take for take in (1, 2, 3) if take <= self.left]

    def apply(self, action: int) -> Pile:
        if action not in self.legal_actions():
            raise IllegalMoveError(f"cannot take {action!r} from {self.left}")
        return Pile(self.left - action, 1 - self.player)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> tuple[float, float]:
        if self.left:
            return (0.0, 0.0)
        # the previous player took the last counter and won
        return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)

    def key(self) -> tuple[int, int]:
        return (self.left, self.player)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return parse_int_action(text, self)

    def __str__(self) -> str:
        return f"{self.left} counters, player {self.player} to move"


def main() -> dict[str, object]:
    """Run every algorithm; return what each found (the test checks it)."""
    game, small = Subtraction(21), Subtraction(10)
    report = assert_conforms(game, num_playouts=10)
    found = {
        "conformance_states": report.states,
        "perft_3": perft(game.initial_state(), 3),
        "minimax_10": minimax(small).value,
        "alphabeta_10": alphabeta(small).value,
        "alphabeta_10_action": alphabeta(small).action,
        "negamax_21": negamax(game).value,
        "negamax_21_action": negamax(game).action,
        "solve_21": solve(game).value,
        "grundy_21": grundy_value(game),
    }
    for name, value in found.items():
        print(f"{name:>22}: {value}")
    return found


if __name__ == "__main__":
    main()
