"""``searchlab.games``: the game registry under its short name.

>>> from searchlab import games
>>> games.make("connect4").info.name
'connect4'
"""

from searchlab.domains.games import GAMES, game_names, make, register

__all__ = ["GAMES", "game_names", "make", "register"]
