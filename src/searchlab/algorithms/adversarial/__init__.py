"""Adversarial search: minimax, alpha-beta, the negamax engine, exact solvers, Sprague-Grundy,
and the compiled Connect Four and Othello-endgame solvers."""

from searchlab.algorithms.adversarial.alphabeta import alphabeta, alphabeta_trace, pruned_leaves
from searchlab.algorithms.adversarial.connect4_solver import Connect4Solver, solve_connect4
from searchlab.algorithms.adversarial.minimax import minimax
from searchlab.algorithms.adversarial.negamax import iterative_deepening, negamax
from searchlab.algorithms.adversarial.othello_endgame import EndgameSolver, solve_endgame
from searchlab.algorithms.adversarial.solver import Solver, solve
from searchlab.algorithms.adversarial.sprague_grundy import (
    grundy_value,
    heap_grundy_values,
    mex,
    winning_moves,
)

__all__ = [
    "Connect4Solver",
    "EndgameSolver",
    "Solver",
    "alphabeta",
    "alphabeta_trace",
    "grundy_value",
    "heap_grundy_values",
    "iterative_deepening",
    "mex",
    "minimax",
    "negamax",
    "pruned_leaves",
    "solve",
    "solve_connect4",
    "solve_endgame",
    "winning_moves",
]
