"""Two-player games (Nim, tic-tac-toe and m,n,k, heap games, explicit trees) and their registry.

>>> from searchlab.domains.games import make
>>> make("tictactoe").info.max_game_length
9
"""

from searchlab.domains.games.registry import GAMES, game_names, make, register

__all__ = ["GAMES", "game_names", "make", "register"]
