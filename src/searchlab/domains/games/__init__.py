"""Two-player games and their registry: Nim, tic-tac-toe and m,n,k-games, heap games (Kayles,
Dawson's chess, Grundy's game), Connect Four, Othello, Gomoku, and explicit game trees.

>>> from searchlab.domains.games import make
>>> make("tictactoe").info.max_game_length
9
>>> sorted(set(game_names()) & {"connect4", "othello", "gomoku"})
['connect4', 'gomoku', 'othello']
"""

from searchlab.domains.games.connect4 import Connect4, Connect4State, parse_moves
from searchlab.domains.games.gomoku import Gomoku, GomokuState
from searchlab.domains.games.nim import Nim
from searchlab.domains.games.othello import Othello, OthelloState
from searchlab.domains.games.registry import GAMES, game_names, make, register
from searchlab.domains.games.tictactoe import MNKGame, TicTacToe

__all__ = [
    "GAMES",
    "Connect4",
    "Connect4State",
    "Gomoku",
    "GomokuState",
    "MNKGame",
    "Nim",
    "Othello",
    "OthelloState",
    "TicTacToe",
    "game_names",
    "make",
    "parse_moves",
    "register",
]
