"""Compiling ahead everything a game's searches run (``searchlab warmup``).

Numba compiles searchlab's kernels on their first call and keeps them in its disk cache (in
``__pycache__`` beside the package's sources, numba's own rule, or ``$NUMBA_CACHE_DIR``; the
Monte Carlo loops bound to a game's rules, the longest to compile, in searchlab's cache folder,
``~/.cache/searchlab/kernels`` or ``$SEARCHLAB_KERNEL_DIR``:
:func:`~searchlab.algorithms.mcts._kernel_bind.kernel_folder`). Every search loads them before
its clock starts (:meth:`~searchlab.algorithms.mcts.compiled.CompiledSearcher.prepare`; with a
network, :meth:`~searchlab.algorithms.mcts.puct_search.PUCTSearcher.prepare`), so a first
search keeps its budget either way; :func:`warm_up_game` does the compiling ahead, once
per machine (after an install, say), for:

* the compiled MCTS of a game with compiled rules (UCT, and with the MCTS-Solver);
* the exact solvers of Connect Four and Othello (``searchlab solve``);
* the game's own rules (a short random game), for every game.

>>> from searchlab.games import make
>>> warm_up_game(make("tictactoe"))
['rules']
>>> warm_up_game(make("connect4"))
['rules', 'mcts', 'mcts solver', 'solver']
"""

from __future__ import annotations

import random

from searchlab.core.game import Game

__all__ = ["warm_up_game"]

_RANDOM_PLIES = 200
"""The random game that exercises a game's own rules stops here at the latest."""


def warm_up_game(game: Game) -> list[str]:
    """Load (or compile) every kernel ``game``'s searches use; return what was warmed
    (``rules``, ``mcts``, ``mcts solver``, ``solver``), in that order."""
    done = ["rules"]
    state = game.initial_state()
    rng = random.Random(0)
    for _ in range(_RANDOM_PLIES):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    done += _warm_mcts(game)
    done += _warm_solver(game)
    return done


def _warm_mcts(game: Game) -> list[str]:
    """The compiled MCTS of ``game`` (plain, then with the solver), where it has one."""
    from searchlab.algorithms.mcts.options import MCTSOptions
    from searchlab.algorithms.mcts.searchers import compiled_searcher

    done = []
    for name, options in (("mcts", MCTSOptions()), ("mcts solver", MCTSOptions(solver=True))):
        searcher = compiled_searcher(game, options, 0)
        if searcher is not None:
            searcher.prepare()
            done.append(name)
    return done


def _warm_solver(game: Game) -> list[str]:
    """The exact solver of Connect Four or Othello (exact types: a subclass changes rules)."""
    from searchlab.domains.games.connect4 import Connect4
    from searchlab.domains.games.othello import Othello

    if type(game) is Connect4:
        from searchlab.algorithms.adversarial.connect4_solver import warm_up

        warm_up()
        return ["solver"]
    if type(game) is Othello:
        from searchlab.algorithms.adversarial.othello_endgame import warm_up as warm_endgame

        warm_endgame()
        return ["solver"]
    return []
