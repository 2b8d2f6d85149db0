"""searchlab: classical AI search, correct and fast.

``import searchlab`` gives what a user reaches for first:

* games and their searches: the protocols :class:`Game`, :class:`State` and :class:`GameInfo`,
  :class:`SearchResult`, :class:`Limits`; :mod:`games` (``games.make("connect4")``, the
  built-in games by name); :func:`minimax`, :func:`alphabeta`, :func:`negamax`, :func:`solve`
  (exact) and :func:`mcts`;
* agents (a search, or a person, behind ``act(state)``): :class:`Agent`, :func:`make_agent`
  (``make_agent("mcts:time=1", game)``);
* path search: :func:`astar` and the best-first family (:func:`dijkstra`,
  :func:`weighted_astar`, ...), :func:`idastar`, :func:`bidirectional_search`,
  :func:`jump_point_search`; the problems (``Problem``, ``GridMap``, ``GridProblem``,
  ``SlidingTilePuzzle``, ``GraphProblem``, ...) and :class:`PathResult`;
* errors: :class:`SearchlabError` and its subclasses (bad input also subclasses
  ``ValueError``, unknown names ``LookupError``).

Everything else lives in the layers, which import downward only (``docs/architecture.md``)::

    core <- domains <- algorithms <- agents, viz, exercises <- arena, learning <- cli, web, interop

The adversarial and Monte Carlo searches and the agents load on first use (their compiled
kernels are modules of their own), so ``import searchlab`` stays as quick as path search needs.

>>> import searchlab
>>> grid = searchlab.GridMap.from_strings(["....", ".@@.", "...."])
>>> result = searchlab.astar(searchlab.GridProblem(grid, (0, 0), (3, 2)))
>>> result.status, result.cost, result.tier  # no corner cutting past the wall: 5 straight steps
('solved', 5.0, 'compiled')
>>> game = searchlab.games.make("tictactoe")
>>> searchlab.solve(game).value  # perfect play draws
0.0
>>> searchlab.negamax(game, limits=searchlab.Limits(depth=9)).value
0.0
>>> searchlab.make_agent("alphabeta:depth=2", game).act(game.initial_state()) in range(9)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from searchlab import games
from searchlab.algorithms import *  # noqa: F403  (curated __all__: path search)
from searchlab.algorithms import __all__ as _algorithms_all
from searchlab.core import *  # noqa: F403  (curated __all__)
from searchlab.core import __all__ as _core_all
from searchlab.core.game import Game, GameInfo, State
from searchlab.core.search_result import SearchResult
from searchlab.domains import *  # noqa: F403  (curated __all__: path domains)
from searchlab.domains import __all__ as _domains_all

if TYPE_CHECKING:  # what __getattr__ below loads on first use
    from searchlab.agents import Agent, make_agent
    from searchlab.algorithms.adversarial import alphabeta, minimax, negamax, solve
    from searchlab.algorithms.mcts import mcts

__version__ = "0.1.0"

_ADVERSARIAL = ("alphabeta", "minimax", "negamax", "solve")
_AGENTS = ("Agent", "make_agent")
_ON_FIRST_USE = (*_ADVERSARIAL, "mcts", *_AGENTS)

__all__ = [
    *_core_all,
    *_domains_all,
    *_algorithms_all,
    "Agent",
    "Game",
    "GameInfo",
    "SearchResult",
    "State",
    "__version__",
    "alphabeta",
    "games",
    "make_agent",
    "mcts",
    "minimax",
    "negamax",
    "solve",
]


def __getattr__(name: str) -> Any:
    """The names loaded on first use (PEP 562): the adversarial and Monte Carlo searches and
    the agents."""
    if name in _ADVERSARIAL:
        from searchlab.algorithms import adversarial

        value = getattr(adversarial, name)
    elif name == "mcts":
        from searchlab.algorithms.mcts.search import mcts

        value = mcts
    elif name in _AGENTS:
        from searchlab import agents

        value = getattr(agents, name)
    else:
        raise AttributeError(f"module 'searchlab' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_FIRST_USE})
