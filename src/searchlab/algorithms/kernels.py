"""Every compiled kernel of searchlab, in one explicit registry.

:data:`KERNELS` maps ``(algorithm, domain type)`` to the compiled (numba) function that runs
that algorithm on exactly that type (a subclass may change the rules, so it runs the reference
tier). The public entry points (``best_first_search`` and the A* family, ``idastar``,
``jump_point_search``, ``solve``, ``mcts``) ask it through
:meth:`~searchlab.core.tier.KernelRegistry.run`; a kernel is called as
``kernel(domain, **request)``, returns a result in the reference tier's shape (same type,
same meaning of every field, the same ``algorithm`` name), or ``None`` when the request is
beyond it. Kernels are named as ``"module:function"`` strings, so numba modules load only
when a compiled search runs.

Adding a compiled algorithm is one ``KERNELS.register`` line here. A game joins the compiled
MCTS through the public compiled-game protocol
(:class:`~searchlab.core.compiled_game.CompiledGame`): :func:`register_compiled_game` is the
one call, for the built-in games below as for a game of your own
(``examples/breakthrough.py``); :func:`compiled_game_for` is the one place that finds a
game's compiled rules (its rollout policies, :func:`mcts_rollouts`, come with them). Go
registers through the same call, its rules using the protocol's optional hooks (priors,
superko, its playouts for RAVE); its ``mcts`` kernel entry is ``go_compiled.go_mcts``, the one
driver with Go's switches.

>>> from searchlab.domains.path.grid import GridProblem
>>> KERNELS.domains("best_first") == (GridProblem,)
True
>>> sorted(KERNELS.algorithms())[:3]
['best_first', 'idastar', 'jump_point_search']
>>> from searchlab.domains.games.snakego import SnakeGo
>>> mcts_rollouts(SnakeGo(size=8)), mcts_rollouts(GridProblem)
(('random', 'informed'), ('random',))
>>> sorted(mcts_features(SnakeGo(size=8))), sorted(mcts_features(GridProblem))
(['rave'], [])
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from searchlab.core.compiled_game import (
    CompiledGame,
    CompiledGameError,
    check_against_reference,
    check_shape,
)
from searchlab.core.tier import KernelRegistry
from searchlab.domains.games.connect4 import Connect4
from searchlab.domains.games.go import Go
from searchlab.domains.games.othello import Othello
from searchlab.domains.games.snakego import SnakeGo
from searchlab.domains.path.grid import GridProblem
from searchlab.domains.path.sliding_tile import SlidingTilePuzzle

__all__ = [
    "KERNELS",
    "MCTS_FEATURES",
    "MCTS_ROLLOUTS",
    "compiled_game_for",
    "mcts_features",
    "mcts_rollouts",
    "register_compiled_game",
]

KERNELS = KernelRegistry()
"""The one registry of compiled kernels."""

# --- path search -------------------------------------------------------------------------
# request: options (BestFirstOptions), limits, observer
KERNELS.register("best_first", GridProblem, "searchlab.algorithms.path.grid_astar:grid_best_first")
# request: heuristic, limits, observer
KERNELS.register(
    "idastar", SlidingTilePuzzle, "searchlab.algorithms.path.tile_idastar:tile_idastar"
)
# request: limits, observer
KERNELS.register("jump_point_search", GridProblem, "searchlab.algorithms.path.jps:grid_jps")

# --- exact solving -----------------------------------------------------------------------
# request: state; the result has the meaning of the reference ``solve``
KERNELS.register(
    "solve", Connect4, "searchlab.algorithms.adversarial.connect4_solver:solve_as_reference"
)
KERNELS.register(
    "solve", Othello, "searchlab.algorithms.adversarial.othello_endgame:solve_as_reference"
)

# --- Monte Carlo tree search -------------------------------------------------------------
# request: state, limits, options (MCTSOptions, checked), seed; None unless the kernel runs the
# options (MCTSOptions.why_not_compiled with the game's rollouts and features)
_MCTS_DRIVER = "searchlab.algorithms.mcts.compiled:compiled_mcts"

Rules = CompiledGame | Callable[[Any], CompiledGame] | str
"""What :func:`register_compiled_game` takes: the rules, a function of the game that makes
them (rules that depend on its parameters), or either as a ``"module:attribute"`` path."""

_COMPILED_GAMES: dict[type, tuple[Rules, bool]] = {}
"""Game type -> (its compiled rules as registered, whether to check them against the
reference tier)."""
_RESOLVED: dict[tuple[type, str], CompiledGame] = {}
"""The rules found for a game (by type and parameters), checked, per process."""


def register_compiled_game(game_type: type, rules: Rules, *, check_reference: bool = True) -> None:
    """Give games of exactly ``game_type`` (a subclass may change the rules) the compiled MCTS,
    with ``rules``: a :class:`~searchlab.core.compiled_game.CompiledGame`, a function
    ``game -> CompiledGame`` (rules that depend on the game's parameters), or either named as
    ``"module:attribute"`` (loaded on first use). A :class:`CompiledGame` is checked here
    (its shape: one :class:`~searchlab.core.compiled_game.CompiledGameError` line); the rules
    of a game of your own are also played against the game's reference tier on the first
    search in each process (:func:`~searchlab.core.compiled_game.check_against_reference`;
    ``check_reference=False`` skips it: the built-in games' rules are checked ply by ply
    against their reference tier by their own tests). Registering a type again replaces its
    rules.

    >>> class Toy:  # a game type (its rules would be a CompiledGame)
    ...     pass
    >>> register_compiled_game(Toy, 42)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    searchlab.core.compiled_game.CompiledGameError: Toy: compiled rules must be a CompiledGame, ...
    """
    if not isinstance(game_type, type):
        raise CompiledGameError(f"register_compiled_game needs a game class, got {game_type!r}")
    name = game_type.__name__
    if isinstance(rules, CompiledGame):
        check_shape(rules)
    elif not (callable(rules) or (isinstance(rules, str) and ":" in rules)):
        raise CompiledGameError(
            f"{name}: compiled rules must be a CompiledGame, a function of the game returning "
            f"one, or a 'module:attribute' path, got {rules!r}"
        )
    _COMPILED_GAMES[game_type] = (rules, check_reference)
    for key in [key for key in _RESOLVED if key[0] is game_type]:
        del _RESOLVED[key]
    if game_type not in KERNELS.domains("mcts"):
        KERNELS.register("mcts", game_type, _MCTS_DRIVER)


def _parameters(game: object) -> str:
    """The game's parameters, as a key: its rules may depend on them."""
    fields = getattr(game, "__dict__", None)
    if fields is None:
        return str(id(game))
    return repr(sorted((k, repr(v)) for k, v in fields.items() if k != "info"))


def compiled_game_for(game: object) -> CompiledGame | None:
    """The checked compiled rules registered for ``game``'s exact type, or ``None`` (no
    compiled rules: the reference tier runs). Found, made and checked once per process and
    game parameters; one :class:`~searchlab.core.compiled_game.CompiledGameError` line when
    they cannot be loaded or break the protocol."""
    entry = _COMPILED_GAMES.get(type(game))
    if entry is None:
        return None
    # rules that do not depend on the game and need no check serve every game of the type:
    # found by type alone (keying by a game's parameters costs its repr, about 0.4 ms for a
    # Snake Go game, and every search asks several times)
    found = _RESOLVED.get((type(game), ""))
    if found is not None:
        return found
    rules, check_reference = entry
    key = (type(game), _parameters(game))
    found = _RESOLVED.get(key)
    if found is not None:
        return found
    name = type(game).__name__
    if isinstance(rules, str):
        module, _, attribute = rules.partition(":")
        try:
            rules = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as error:
            raise CompiledGameError(
                f"{name}: cannot load its compiled rules {entry[0]!r} ({error})"
            ) from None
    fixed = isinstance(rules, CompiledGame) and not check_reference  # not made from the game
    if not isinstance(rules, CompiledGame):
        try:
            rules = rules(game)
        except CompiledGameError:
            raise
        except Exception as error:
            raise CompiledGameError(
                f"{name}: its compiled rules failed to build ({type(error).__name__}: {error})"
            ) from None
    compiled = check_shape(rules)
    if check_reference:
        check_against_reference(compiled, game)  # type: ignore[arg-type]
    _RESOLVED[(type(game), "") if fixed else key] = compiled
    return compiled


register_compiled_game(
    Connect4, "searchlab.domains.games.connect4.compiled:COMPILED", check_reference=False
)
register_compiled_game(
    Othello, "searchlab.domains.games.othello.compiled:COMPILED", check_reference=False
)
register_compiled_game(
    SnakeGo, "searchlab.domains.games.snakego.compiled:COMPILED", check_reference=False
)
# Go's rules use every optional hook of the protocol (priors, superko, its own playouts for
# RAVE, the moves the tree holds); its searches run the one loop and driver through
# go_compiled.GoSearcher (results without the "rave" stat, as Go's always were)
KERNELS.register("mcts", Go, "searchlab.algorithms.mcts.go_compiled:go_mcts")
register_compiled_game(Go, "searchlab.domains.games.go.compiled:compiled_go", check_reference=False)

MCTS_ROLLOUTS: dict[type, tuple[str, ...]] = {}
"""The rollout policies (``MCTSOptions.rollout`` names) of kernels registered outside the
compiled-game protocol, by the game's exact type (none now: a compiled game's own are its
``CompiledGame.rollouts``)."""


def mcts_rollouts(game: object) -> tuple[str, ...]:
    """The rollout policies the compiled MCTS kernel for ``game`` runs (``("random",)`` when
    it has none: the rollout is then never what rules the compiled tier out)."""
    if type(game) in MCTS_ROLLOUTS:
        return MCTS_ROLLOUTS[type(game)]
    if isinstance(game, type) or type(game) not in _COMPILED_GAMES:
        return ("random",)
    compiled = compiled_game_for(game)
    return ("random",) if compiled is None else compiled.rollouts


MCTS_FEATURES: dict[type, frozenset[str]] = {
    # Go's compiled rules tell their playouts' moves (the playout hook): RAVE over either
    # rollout policy. Listed here too so that tier="compiled" allows it before a game is known
    Go: frozenset({"rave", "rave_rollouts"}),
}
"""The options beyond plain UCT (``MCTSOptions`` field names, such as ``"rave"``) declared by
a game's exact type, what ``MCTSOptions`` allows with ``tier="compiled"`` before the game is
known; ``"rave_rollouts"``: RAVE with any of its rollout policies, not only the uniform one.
A game of the protocol runs ``"rave"`` when its rules say ``num_actions``, with its own
rollouts too when they have a ``playout`` hook (:func:`mcts_features`); any other game runs
none of them compiled (``MCTSOptions.why_not_plain`` then sends such options to the reference
tier)."""

_RAVE = frozenset({"rave"})
_RAVE_ROLLOUTS = frozenset({"rave", "rave_rollouts"})


def mcts_features(game: object) -> frozenset[str]:
    """The options beyond plain UCT the compiled MCTS kernel for ``game`` runs (empty when it
    has none, or no kernel)."""
    if type(game) in MCTS_FEATURES:
        return MCTS_FEATURES[type(game)]
    if isinstance(game, type) or type(game) not in _COMPILED_GAMES:
        return frozenset()
    compiled = compiled_game_for(game)
    if compiled is None or compiled.num_actions <= 0:
        return frozenset()
    return _RAVE_ROLLOUTS if compiled.playout is not None else _RAVE
