"""The evaluation (and search variant) each built-in game's depth-limited agents use.

>>> from searchlab.games import make
>>> evaluation = default_evaluation(make("connect4"))
>>> -1 < evaluation(make("connect4").initial_state()) < 1
True
>>> default_evaluation(make("nim")) is None
True
"""

from __future__ import annotations

from searchlab.core.game import Evaluation, Game, State

__all__ = ["default_evaluation", "search_position"]


def default_evaluation(game: Game | None) -> Evaluation | None:
    """The built-in evaluation for ``game`` (Connect Four threats, Othello mobility/corners/
    discs, Gomoku line patterns, Snake Go material and Voronoi territory), or ``None`` for
    games small enough to search to the end."""
    name = getattr(getattr(game, "info", None), "name", None)
    if name == "connect4":
        from searchlab.domains.games.connect4.eval import ThreatEvaluation

        return ThreatEvaluation()
    if name == "othello":
        from searchlab.domains.games.othello.eval import OthelloEvaluation

        return OthelloEvaluation()
    if name == "gomoku":
        from searchlab.domains.games.gomoku.eval import evaluate

        return evaluate
    if name == "snakego":
        from searchlab.domains.games.snakego.eval import SnakeGoEvaluation

        return SnakeGoEvaluation()
    return None


def search_position(game: Game, state: State) -> tuple[Game, State]:
    """The game and state a depth-limited search should use for ``state``: the same ones,
    except Gomoku, searched in its candidate variant (moves near a stone, best first)."""
    if getattr(getattr(game, "info", None), "name", None) != "gomoku":
        return game, state
    from searchlab.domains.games.gomoku import Gomoku, GomokuState
    from searchlab.domains.games.gomoku.eval import search_game

    if not isinstance(game, Gomoku) or not isinstance(state, GomokuState):
        return game, state
    variant = search_game(game.size)
    return variant, variant.from_state(state)
