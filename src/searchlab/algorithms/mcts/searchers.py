"""The one choice of the compiled searcher that keeps its tree between moves, for every front
end (the ``mcts`` agent with ``reuse=true``, the web lab's live analysis): a
:class:`~searchlab.algorithms.mcts.compiled.CompiledSearcher` for a game with compiled rules,
Go's :class:`~searchlab.algorithms.mcts.go_compiled.GoSearcher` (the same driver with Go's
switches), or ``None`` where the reference tier keeps the tree. It sits above both drivers'
modules, so neither imports the other.

>>> from searchlab.algorithms.mcts.options import MCTSOptions
>>> from searchlab.games import make
>>> type(compiled_searcher(make("connect4"), MCTSOptions(), 1)).__name__
'CompiledSearcher'
>>> compiled_searcher(make("tictactoe"), MCTSOptions(), 1) is None
True
"""

from __future__ import annotations

from typing import Any

from searchlab.algorithms.kernels import compiled_game_for
from searchlab.algorithms.mcts.compiled import CompiledSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.game import Game

__all__ = ["compiled_searcher"]


def compiled_searcher(game: Game, options: MCTSOptions, seed: int | None) -> Any:
    """The compiled searcher that keeps its tree between moves for ``game`` and ``options``,
    chosen here once for every front end: a :class:`CompiledSearcher` for a game with
    compiled rules (on Go, :class:`~searchlab.algorithms.mcts.go_compiled.GoSearcher`: the
    same driver with Go's switches), or ``None`` (``tier="reference"``, options the kernel
    does not run, or no compiled tier: the reference tier keeps the tree)."""
    if options.tier == "reference" or options.why_not_compiled(game) is not None:
        return None
    from searchlab.domains.games.go import Go

    if type(game) is Go:
        from searchlab.algorithms.mcts.go_compiled import GoSearcher

        return GoSearcher(game, options, seed)
    if compiled_game_for(game) is None:
        return None
    return CompiledSearcher(game, options, seed)
