"""The compiled MCTS for Go: the one search loop and driver
(:class:`~searchlab.algorithms.mcts.compiled.CompiledSearcher`) on Go's compiled rules and
hooks (:mod:`searchlab.domains.games.go.compiled`, registered for
:class:`~searchlab.domains.games.go.Go` through ``register_compiled_game`` like every compiled
game).

:func:`go_mcts` is the kernel :data:`~searchlab.algorithms.kernels.KERNELS` lists for Go;
:func:`searchlab.algorithms.mcts.mcts` reaches it when ``tier`` allows and the options are ones
it runs (``MCTSOptions.why_not_compiled``: rollouts ``"random"`` or ``"informed"``, ``rave``
any ``k``). :class:`GoSearcher` is the driver with Go's two internal switches (``priors``,
``expand``): the ``mcts`` agent with ``reuse=true`` on Go uses it.

What Go asks of the loop beyond the other compiled games (the optional hooks of the
compiled-game protocol, :mod:`searchlab.core.compiled_game`), all for playing strength:

* ``rave=k`` mixes each child's AMAF value in (Gelly and Silver 2007; ``k = 0``: plain UCT);
* new children start with heuristic priors (captures, atari escapes, self-ataris, lone
  first-line moves, contact with the last move, patterns;
  :mod:`searchlab.domains.games.go.compiled`);
  ``priors=False`` turns them off (then, with ``rave=0``, this is the reference tier's UCT);
* the tree holds the moves that do not fill the mover's own eye, and the pass (always); a
  legal move outside the tree (an own-eye fill) is reported with no visits;
* a node gets its children once it has been visited ``expand`` times (the root at once), a
  block at a time, so ``nodes`` counts the slots of the child blocks made;
* superko (the game's rule: positional, situational, or only the basic ko) is checked for
  every move the tree plays, against the root's ``history`` and the positions along the
  path; playouts check only the basic ko;
* ``solver`` has no effect (a game of Go ends only by passes or the move limit).

Speed and settings, measured (2026-11-23, 2-core EPYC VM shared with other jobs; raw output
``benchmarks/results/go_playouts_2026-11-23.txt``): on the empty 9x9 board 58 k simulations
per CPU second for plain UCT, 50 k with ``rave=1000`` and the priors, 26 k with the informed
rollouts, against 5.8 k for OpenSpiel's C++ ``MCTSBot`` (random rollouts). In seeded 9x9
self-play matches (colours alternated): ``rave=1000`` beat plain UCT 10/10 at 1000
simulations a move; ``k = 1000`` beat ``k = 300`` 7/10 and ``k = 3000`` 8/9; ``c = 0.3``
beat ``c = 1`` 7/10 (``c = 0.1`` against 0.3: 4/8); the informed rollouts beat the random
ones 8/10 at equal time (0.4 s a move); the priors on beat them off 6/10. Hence the spec for
strong play: ``mcts:time=1,rave=1000,c=0.3,rollout=informed,reuse=true``.

A finished game is worth the sign of the area score for the mover (the ``"outcome"`` value
scale, and any ``win_loss`` game) or the score over ``max_utility`` (``"normalised"`` with
``scoring="area"``). Time slices, growth of the arrays, the final-move rules and the result's
shape are those of :mod:`~searchlab.algorithms.mcts.compiled` (``stats``: ``simulations``,
``children``, ``reused_visits``, ``c``). Moved onto the one loop (2026-11-28), every search of
the golden cases (``tests/algorithms/mcts/golden_cases.py``) is node for node what Go's own
loop gave.

>>> from searchlab.core.limits import Limits
>>> from searchlab.domains.games.go import Go
>>> game = Go(7, komi=0.5)  # the row-4 white chain's last liberty is D3, the black row 5's D6
>>> state = game.position(black=[f"{c}5" for c in "ABCDEFG"] + ["A3", "B3", "C3", "E3", "F3", "G3"],
...                       white=[f"{c}4" for c in "ABCDEFG"] + ["A6", "B6", "C6", "E6", "F6", "G6"])
>>> result = go_mcts(game, state=state, limits=Limits(simulations=2000),
...                  options=MCTSOptions(rave=1000), seed=1)
>>> state.action_to_string(result.action), result.tier  # capture seven stones first
('D3', 'compiled')
"""

from __future__ import annotations

from searchlab.algorithms.mcts.compiled import CompiledSearcher
from searchlab.algorithms.mcts.options import MCTSOptions
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.domains.games.go import Go, GoState
from searchlab.domains.games.go.compiled import EXPAND_VISITS, compiled_go

__all__ = ["EXPAND_VISITS", "GoSearcher", "go_mcts", "warm_up"]


class GoSearcher(CompiledSearcher):
    """The compiled searcher (:class:`~searchlab.algorithms.mcts.compiled.CompiledSearcher`)
    on one :class:`~searchlab.domains.games.go.Go` game, keeping its tree between searches.

    :meth:`search` on a position that follows from the previous root by moves in the tree
    (the same game, the root's moves extended, the path's nodes made) keeps that subtree with
    its statistics, AMAF values and priors, copied to the front of the arrays
    (``stats["reused_visits"]``: the simulations it inherits); any other position starts a
    fresh tree. ``priors`` (the heuristic prior knowledge) and ``expand`` (the visits a node
    needs before its children are made) are internal switches.

    >>> from searchlab.core.limits import Limits
    >>> game = Go(size=7)
    >>> searcher = GoSearcher(game, MCTSOptions(rave=1000), seed=2)
    >>> first = searcher.search(game.initial_state(), Limits(simulations=3000))
    >>> state = game.initial_state().apply(first.action)
    >>> state = state.apply(first.principal_variation[1])  # the reply the tree expects
    >>> second = searcher.search(state, Limits(simulations=1000))
    >>> second.stats["reused_visits"] > 0, second.stats["simulations"]
    (True, 1000)
    """

    report_rave = False

    def __init__(
        self,
        game: Go,
        options: MCTSOptions,
        seed: int | None,
        *,
        priors: bool = True,
        expand: int = EXPAND_VISITS,
    ) -> None:
        if not isinstance(game, Go):
            raise InvalidParameterError(f"GoSearcher: a Go game is needed, got {game!r}")
        if isinstance(expand, bool) or not isinstance(expand, int) or expand < 1:
            raise InvalidParameterError(f"GoSearcher: expand must be >= 1, got {expand!r}")
        super().__init__(game, options, seed, rules=compiled_go(game, priors=priors, expand=expand))


def go_mcts(
    game: Go,
    *,
    state: GoState,
    limits: Limits,
    options: MCTSOptions,
    seed: int | None,
) -> SearchResult | None:
    """Compiled MCTS (RAVE with ``options.rave``, priors) from ``state`` of ``game``, with a
    fresh tree, or ``None`` when the options need the reference tier or ``state`` is not a
    :class:`~searchlab.domains.games.go.GoState`.

    The arguments are those :func:`searchlab.algorithms.mcts.mcts` has checked; the result
    has the reference tier's shape with ``tier="compiled"``.
    """
    if options.why_not_compiled(game) is not None or type(state) is not GoState:
        return None
    return GoSearcher(game, options, seed).search(state, limits)


def warm_up() -> None:
    """Load (or compile, on the first run: about 30 s) the Go kernels; a searcher's first
    search does it too, before its clock starts
    (:meth:`~searchlab.algorithms.mcts.compiled.CompiledSearcher.prepare`).

    >>> warm_up()
    """
    GoSearcher(Go(size=5), MCTSOptions(), 0).prepare()
