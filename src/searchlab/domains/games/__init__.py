"""Two-player games and their registry: Nim, tic-tac-toe and m,n,k-games, heap games (Kayles,
Dawson's chess, Grundy's game), Connect Four, Othello, Gomoku, and explicit game trees.

>>> from searchlab.domains.games import make
>>> make("tictactoe").info.max_game_length
9
>>> sorted(set(game_names()) & {"connect4", "othello", "gomoku"})
['connect4', 'gomoku', 'othello']
"""

from searchlab.domains.games.registry import GAMES, game_names, make, register

__all__ = ["GAMES", "game_names", "make", "register"]
