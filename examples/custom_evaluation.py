"""Plug your own evaluation function into depth-limited negamax.

An evaluation is any function ``evaluate(state) -> float`` that estimates, for **the player to
move in** ``state``, how the game will end: a number strictly between -1 (lost) and +1 (won).
negamax calls it at the depth horizon; finished games are scored by their real result.

1. Tic-tac-toe with the textbook "open lines" heuristic (Russell & Norvig): lines still open
   for me minus lines still open for my opponent, out of the 8 lines.
2. Gomoku with the built-in line-pattern evaluation, re-weighted to love open threes, used
   both as the horizon evaluation and for move ordering.

Run it: ``python examples/custom_evaluation.py``.
"""

from __future__ import annotations

from searchlab.algorithms.adversarial.negamax import negamax
from searchlab.core.limits import Limits
from searchlab.domains.games.gomoku.eval import PatternEvaluation, PatternWeights, search_game
from searchlab.domains.games.tictactoe import MNKState, TicTacToe

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def open_lines(state: MNKState) -> float:
    """(lines without an opponent stone - lines without one of mine) / 8, for the mover."""
    me, them = state.current_player() + 1, 2 - state.current_player()  # board: 1 X, 2 O
    mine = sum(all(state.board[cell] != them for cell in line) for line in LINES)
    theirs = sum(all(state.board[cell] != me for cell in line) for line in LINES)
    return (mine - theirs) / 8


def main() -> dict[str, object]:
    """Run both; return what was found (the test checks it)."""
    # 1. Tic-tac-toe: one ply of look-ahead with the open-lines evaluation.
    tictactoe = TicTacToe()
    first = negamax(tictactoe, limits=Limits(depth=1), evaluate=open_lines)
    print(f"tic-tac-toe, depth 1: {first.action} ({first.value:+.3f})")

    # 2. Gomoku 9x9: a user's weights; the same object orders the candidate moves.
    threes_first = PatternEvaluation(PatternWeights(open_three=3_000, closed_three=300))
    gomoku = search_game(size=9, evaluation=threes_first)
    state = gomoku.position(black=["d5", "e5", "f5"], white=["a1", "i9", "a9"])
    found = negamax(gomoku, state, limits=Limits(depth=3), evaluate=threes_first)
    move = state.action_to_string(found.action)
    print(f"gomoku, depth 3: {move} ({found.value:+.3f}, {found.plies_to_end} plies to the end)")
    return {
        "tictactoe_action": first.action,
        "tictactoe_value": first.value,
        "gomoku_move": move,
        "gomoku_value": found.value,
        "gomoku_plies_to_end": found.plies_to_end,
    }


if __name__ == "__main__":
    main()
