"""The options of Monte Carlo tree search, written and checked once: :class:`MCTSOptions`.

:func:`~searchlab.algorithms.mcts.mcts`, :class:`~searchlab.algorithms.mcts.MCTS` and the
``mcts`` agent take an ``MCTSOptions`` (``options=``) or its fields as keywords, build it once,
and pass that one object down unchanged to the reference search and to the compiled kernels.
Making one checks every field: a bad value raises one
:class:`~searchlab.core.errors.InvalidParameterError` (or
:class:`~searchlab.core.errors.UnknownNameError` for an unknown name) quoting it, and nothing
below checks again.

>>> MCTSOptions(c=0.7, solver=True).is_plain
True
>>> informed = MCTSOptions(rollout="informed")
>>> informed.why_not_plain(), informed.why_not_plain(("random", "informed"))
("rollout='informed'", None)
>>> MCTSOptions(c=-1)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: mcts: c must be a finite number >= 0, got -1
>>> MCTSOptions(rave=-1)
Traceback (most recent call last):
...
searchlab.core.errors.InvalidParameterError: mcts: rave must be a finite number >= 0, got -1
>>> MCTSOptions(rave=1000).why_not_plain()
'rave=1000'
>>> MCTSOptions(final_move="max")
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: mcts: unknown final_move 'max'; known: best_value, \
most_visits, robust
>>> make_options(None, {"cc": 1})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
searchlab.core.errors.UnknownNameError: mcts: unknown option 'cc'; known: c, rollout, ...
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from searchlab.algorithms.kernels import KERNELS, MCTS_FEATURES, mcts_features, mcts_rollouts
from searchlab.algorithms.mcts.evaluator import BatchEvaluator, Evaluator
from searchlab.algorithms.mcts.gumbel import (
    DEFAULT_C_SCALE,
    DEFAULT_C_VISIT,
    DEFAULT_MAX_CONSIDERED,
)
from searchlab.algorithms.mcts.rollout import ROLLOUT_POLICIES, RolloutPolicy, resolve_rollout
from searchlab.algorithms.mcts.value_scale import VALUE_SCALES, ValueScale, check_value_scale
from searchlab.core.checks import check_integer, check_number
from searchlab.core.errors import InvalidParameterError, UnknownNameError
from searchlab.core.limits import Limits
from searchlab.core.observer import Observer
from searchlab.core.tier import TIERS, Tier, check_tier

__all__ = [
    "DEFAULT_C",
    "DEFAULT_C_PUCT",
    "DEFAULT_DIRICHLET_EPSILON",
    "DEFAULT_FPU",
    "DEFAULT_SEARCH_BATCH",
    "DEFAULT_VIRTUAL_LOSS",
    "FINAL_MOVES",
    "FPU_MODES",
    "GUMBEL_OPTIONS",
    "ROOT_RULES",
    "FPUMode",
    "MCTSOptions",
    "RootRule",
    "check_budget",
    "check_compiled",
    "check_seed",
    "make_options",
    "option_help",
]

DEFAULT_C = 1.0
"""UCT's exploration constant ``c`` in ``W/N + c * sqrt(2 ln N_parent / N)``: Auer et al.'s
UCB1 bonus ``sqrt(2 ln N / n)`` applied as is to values in ``[-1, 1]`` (OpenSpiel's
``uct_c = sqrt(2) * c``; see docs/algorithms/mcts.md)."""

DEFAULT_C_PUCT = 1.5
"""PUCT's exploration constant ``c_puct`` in ``Q + c_puct * P * sqrt(N_parent) / (1 + N)``,
the one default of every PUCT search (the reference tier, the array PUCT, the ``az``,
``policy`` and ``alphago`` agents, training); chosen on held-out solved Connect Four openings
(docs/learning.md)."""
DEFAULT_DIRICHLET_EPSILON = 0.25
"""The weight of AlphaZero's root Dirichlet noise, ``(1 - epsilon) * P + epsilon * Dir(alpha)``
(Silver et al. 2017), the one default of every PUCT search."""
DEFAULT_SEARCH_BATCH = 8
"""Leaves a PUCT search with a network collects under virtual loss before one batched
evaluation (the array PUCT's ``batch_size``, the agents' ``batch``, training's
``search_batch``)."""
DEFAULT_VIRTUAL_LOSS = 1.0
"""Visits, each lost for its mover, that a leaf in flight adds to every node of its path."""
DEFAULT_FPU = 0.0
"""First-play urgency: the ``Q`` of an unvisited child (``fpu_mode="absolute"``, the
default), or what the parent's mean loses (``"reduction"``)."""

FPUMode = Literal["absolute", "reduction"]
"""``"absolute"``: an unvisited child's ``Q`` is ``fpu``; ``"reduction"``: the parent's mean
for its player to move, minus ``fpu`` (Leela Zero's)."""

FPU_MODES: tuple[str, ...] = get_args(FPUMode)

RootRule = Literal["puct", "gumbel"]
"""How a PUCT search selects (at the root: ``root``; below it: ``nonroot``): ``"puct"``, or
``"gumbel"`` (:mod:`~searchlab.algorithms.mcts.gumbel`)."""

ROOT_RULES: tuple[str, ...] = get_args(RootRule)

FINAL_MOVES = ("best_value", "most_visits", "robust")
PARALLEL_FORMS = ("tree", "root")
"""How threads share a search: ``tree`` (one tree, virtual loss:
:mod:`~searchlab.algorithms.mcts.tree_parallel`) or ``root`` (a tree a thread, merged:
:mod:`~searchlab.algorithms.mcts.root_parallel`)."""
"""How the move is chosen once the budget is spent (docs/algorithms/mcts.md)."""

_ALGORITHM = "mcts"
_COMPILED_ROLLOUTS = tuple(ROLLOUT_POLICIES)
"""The rollout policies a compiled kernel may run: any named one (which game's kernel, and so
which of them, is known only once a game is given: :func:`check_compiled`)."""


def _about(text: str, choices: tuple[str, ...] = ()) -> dict[str, Any]:
    """A field's line of help and its choices, written once with its default in the
    declaration: the ``mcts`` agent's spec parameters are made from them
    (:func:`option_help`)."""
    return {"help": text, "choices": choices}


def option_help(name: str) -> tuple[Any, str, tuple[str, ...]]:
    """``(default, help, choices)`` of the :class:`MCTSOptions` field ``name``, as written
    once in its declaration.

    >>> option_help("final_move")
    ('most_visits', 'final move choice', ('best_value', 'most_visits', 'robust'))
    """
    for item in dataclasses.fields(MCTSOptions):
        if item.name == name and "help" in item.metadata:
            return item.default, item.metadata["help"], item.metadata["choices"]
    raise UnknownNameError(f"{_ALGORITHM}: no documented option {name!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class MCTSOptions:
    """How a Monte Carlo tree search searches (the budget is a separate
    :class:`~searchlab.core.limits.Limits`, the seed a separate argument).

    Attributes:
        c: UCT exploration constant in ``W/N + c * sqrt(2 ln N_parent / N)`` (finite, >= 0;
            default 1: UCB1's bonus on values in ``[-1, 1]``, OpenSpiel's ``uct_c = sqrt(2) * c``).
        rollout: ``"random"``, ``"informed"`` (win now, else no move that leaves the opponent
            a win), or a callable ``(state, rng: random.Random) -> action``.
        final_move: ``"most_visits"`` (default), ``"best_value"`` or ``"robust"`` (most visits
            and best value agree, searching on by up to half the budget until they do).
        transpositions: share one node per ``state.key()`` (the tree becomes a DAG).
        solver: MCTS-Solver: back up proven wins, losses and draws; stop once the root is
            proven.
        exact_endgame: ``K > 0`` runs a ``K``-ply proof search (node budget 5000) at each new
            node; a proven node is valued exactly instead of by a rollout.
        rave: RAVE (Gelly and Silver 2007): ``k > 0`` mixes each child's AMAF value (the mean
            return of the simulations in which its mover played its action later on, "all
            moves as first") into its UCT value with weight ``beta = sqrt(k / (3 N + k))``
            (``N`` the child's visits); ``k`` is the equivalence parameter, the visits at
            which both weigh the same; 0 (default) is plain UCT. Finite, >= 0; UCT only (not
            with an evaluator). A compiled kernel runs it only where it says so
            (:data:`~searchlab.algorithms.kernels.MCTS_FEATURES`: Go's); see
            docs/algorithms/mcts.md.
        evaluator: an :class:`~searchlab.algorithms.mcts.evaluator.Evaluator` switches to PUCT
            ``Q + c_puct * P * sqrt(N_parent) / (1 + N)`` with its priors.
        c_puct: PUCT's exploration constant (finite, >= 0).
        lambda_: with an evaluator, leaf value ``(1 - lambda_) * value + lambda_ * rollout``
            (in ``[0, 1]``); 1 uses the evaluator for priors only, 0 (AlphaZero) never rolls out.
        dirichlet_alpha, dirichlet_epsilon: with an evaluator, root priors become
            ``(1 - epsilon) * P + epsilon * Dir(alpha)`` (AlphaZero's exploration noise).
        root, nonroot: with a batch evaluator, how the root and the nodes below it select:
            ``"puct"`` (default) or ``"gumbel"`` (Danihelka et al. 2022,
            :mod:`~searchlab.algorithms.mcts.gumbel`): at the root, Gumbel top-k of
            ``max_num_considered_actions`` actions (an integer >= 1; default 16) and
            sequential halving over the simulation budget, the move the one left; below it,
            ``argmax pi'(a) - N(a) / (1 + sum N)``. ``sigma(q) = (c_visit + max N) * c_scale *
            q`` (finite, >= 0; defaults 50 and 1.0) weighs the completed Q-values in the
            improved policy ``pi' = softmax(logits + sigma(completed Q))``.
        value_scale: what a finished game is worth to the search
            (:mod:`~searchlab.algorithms.mcts.value_scale`): ``"outcome"`` (default: +1 win,
            0 draw, -1 loss, whatever the game's returns) or ``"normalised"`` (the returns over
            the game's ``GameInfo.max_utility``: play for the score). Every value the search
            reports is on this scale, in ``[-1, 1]``.
        threads: how many threads search at once (an integer >= 1; default 1), in the
            compiled tier only (:meth:`why_not_threads`); a simulation budget is split
            between them (``simulations=N`` runs ``N`` in all). ``threads=1`` is the
            single-threaded search.
        parallel: how the threads share the search (``threads > 1``): ``"tree"`` (default)
            simulate in one tree, each simulation a virtual loss on its way down
            (:mod:`~searchlab.algorithms.mcts.tree_parallel`; plain UCT, with or without the
            solver; not reproducible simulation by simulation), or ``"root"``: each thread
            grows its own tree with its own seed (thread 0 the search's seed), the root
            children's visits and values merged for the final move
            (:mod:`~searchlab.algorithms.mcts.root_parallel`; with a fixed seed and a
            simulation budget the same result on every run). RAVE and Go's priors search on
            ``"root"`` whatever is asked (the result's ``stats["parallel"]`` says which ran).
        tier: ``"auto"`` runs a compiled kernel when the game has one and the options are
            plain for it (:meth:`why_not_plain`: uniform rollouts, or a rollout policy the
            game's kernel compiles, such as Snake Go's ``"informed"``), else the reference
            tier; ``"reference"`` always runs the reference tier; ``"compiled"`` insists on a
            kernel (and on options it runs).
        observer: receives the search's events (reference tier only).
        policy: the rollout policy ``rollout`` names (set from it, not an argument).
    """

    c: float = field(default=DEFAULT_C, metadata=_about("UCT exploration constant"))
    rollout: str | RolloutPolicy = field(
        default="random", metadata=_about("rollout policy", tuple(ROLLOUT_POLICIES))
    )
    final_move: str = field(
        default="most_visits", metadata=_about("final move choice", FINAL_MOVES)
    )
    transpositions: bool = field(
        default=False, metadata=_about("share statistics between equal states")
    )
    solver: bool = field(
        default=False, metadata=_about("MCTS-Solver: back up proven wins and losses")
    )
    exact_endgame: int = field(
        default=0, metadata=_about("solve exactly at leaves this close to the end")
    )
    rave: float = field(default=0.0, metadata=_about("RAVE equivalence parameter k (0: plain UCT)"))
    evaluator: Evaluator | BatchEvaluator | None = None
    c_puct: float = field(
        default=DEFAULT_C_PUCT, metadata=_about("PUCT exploration constant (with a network)")
    )
    lambda_: float = 1.0
    dirichlet_alpha: float | None = field(
        default=None, metadata=_about("root Dirichlet noise concentration (none: no noise)")
    )
    dirichlet_epsilon: float = field(
        default=DEFAULT_DIRICHLET_EPSILON, metadata=_about("weight of the root noise")
    )
    search_batch: int = field(
        default=DEFAULT_SEARCH_BATCH,
        metadata=_about("leaves evaluated per forward pass (under virtual loss)"),
    )
    virtual_loss: float = field(
        default=DEFAULT_VIRTUAL_LOSS, metadata=_about("virtual loss of a leaf in flight")
    )
    fpu: float = field(default=DEFAULT_FPU, metadata=_about("first-play urgency (see fpu_mode)"))
    fpu_mode: FPUMode = field(
        default="absolute",
        metadata=_about("absolute (Q of unvisited = fpu) or reduction", FPU_MODES),
    )
    root: RootRule = field(
        default="puct",
        metadata=_about(
            "root selection: puct, or gumbel (Gumbel top-k and sequential halving)", ROOT_RULES
        ),
    )
    nonroot: RootRule = field(
        default="puct",
        metadata=_about(
            "selection below the root: puct, or gumbel (argmax pi' - N/(1+sum N))", ROOT_RULES
        ),
    )
    max_num_considered_actions: int = field(
        default=DEFAULT_MAX_CONSIDERED,
        metadata=_about("Gumbel root: actions considered at most (m)"),
    )
    c_visit: float = field(
        default=DEFAULT_C_VISIT, metadata=_about("Gumbel: c_visit in (c_visit + max N) c_scale q")
    )
    c_scale: float = field(
        default=DEFAULT_C_SCALE, metadata=_about("Gumbel: c_scale in (c_visit + max N) c_scale q")
    )
    value_scale: ValueScale = field(
        default="outcome",
        metadata=_about(
            "a finished game's worth: outcome (+1/0/-1) or normalised score", VALUE_SCALES
        ),
    )
    threads: int = field(
        default=1,
        metadata=_about("threads searching at once (compiled tier; 1: one)"),
    )
    parallel: str = field(
        default="tree",
        metadata=_about("threads share one tree (virtual loss) or a tree each", PARALLEL_FORMS),
    )
    tier: Tier = field(default="auto", metadata=_about("compiled or reference tier", TIERS))
    observer: Observer | None = None
    policy: RolloutPolicy = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _number(self.c, "c", low=0.0)
        object.__setattr__(self, "policy", resolve_rollout(self.rollout, _ALGORITHM))
        if self.final_move not in FINAL_MOVES:
            raise UnknownNameError(
                f"{_ALGORITHM}: unknown final_move {self.final_move!r}; known: "
                f"{', '.join(FINAL_MOVES)}"
            )
        for flag in ("transpositions", "solver"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidParameterError(
                    f"{_ALGORITHM}: {flag} must be True or False, got {getattr(self, flag)!r}"
                )
        endgame = self.exact_endgame
        if isinstance(endgame, bool) or not isinstance(endgame, int) or endgame < 0:
            raise InvalidParameterError(
                f"{_ALGORITHM}: exact_endgame must be an integer >= 0 (plies), got {endgame!r}"
            )
        _number(self.rave, "rave", low=0.0)
        evaluator = self.evaluator
        if evaluator is not None and self.rave:
            raise InvalidParameterError(
                f"{_ALGORITHM}: rave={self.rave!r} mixes AMAF values into UCT; it does not "
                "combine with an evaluator (PUCT)"
            )
        if evaluator is not None and not (
            callable(getattr(evaluator, "evaluate", None)) or self.is_batched
        ):
            raise InvalidParameterError(
                f"{_ALGORITHM}: evaluator must have a method evaluate(state) -> "
                "(priors, value), or evaluate_batch(states) -> (priors, values) and an "
                f"encoder, got {evaluator!r}"
            )
        _number(self.c_puct, "c_puct", low=0.0)
        _number(self.lambda_, "lambda_", low=0.0, high=1.0)
        if self.dirichlet_alpha is not None:
            alpha = self.dirichlet_alpha
            if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not alpha > 0:
                raise InvalidParameterError(
                    f"{_ALGORITHM}: dirichlet_alpha must be a number > 0, got {alpha!r}"
                )
            _number(alpha, "dirichlet_alpha", low=0.0)  # and finite
        _number(self.dirichlet_epsilon, "dirichlet_epsilon", low=0.0, high=1.0)
        check_integer(self.search_batch, "search_batch", owner=_ALGORITHM, low=1)
        _number(self.virtual_loss, "virtual_loss", low=0.0)
        _number(self.fpu, "fpu", low=-2.0, high=2.0)
        if self.fpu_mode not in FPU_MODES:
            raise UnknownNameError(
                f"{_ALGORITHM}: unknown fpu_mode {self.fpu_mode!r}; known: {', '.join(FPU_MODES)}"
            )
        for rule in ("root", "nonroot"):
            if getattr(self, rule) not in ROOT_RULES:
                raise UnknownNameError(
                    f"{_ALGORITHM}: unknown {rule} {getattr(self, rule)!r}; known: "
                    f"{', '.join(ROOT_RULES)}"
                )
        check_integer(
            self.max_num_considered_actions, "max_num_considered_actions", owner=_ALGORITHM, low=1
        )
        _number(self.c_visit, "c_visit", low=0.0)
        _number(self.c_scale, "c_scale", low=0.0)
        check_value_scale(self.value_scale, _ALGORITHM)
        check_integer(self.threads, "threads", owner=_ALGORITHM, low=1)
        if self.parallel not in PARALLEL_FORMS:
            raise UnknownNameError(
                f"{_ALGORITHM}: unknown parallel {self.parallel!r}; known: "
                f"{', '.join(PARALLEL_FORMS)}"
            )
        check_tier(self.tier, _ALGORITHM)
        if self.observer is not None and not callable(self.observer):
            raise InvalidParameterError(
                f"{_ALGORITHM}: observer must be a callable taking one event, got {self.observer!r}"
            )
        if self.tier == "compiled":
            # the game is not known yet: only what no compiled kernel runs is an error here
            # (check_compiled, given the game, checks the rest)
            # (RAVE with uniform playouts: the one loop of every compiled game that says its
            # num_actions)
            features = frozenset({"rave"}).union(*MCTS_FEATURES.values())
            reason = self.why_not_plain(_COMPILED_ROLLOUTS, features)
            if reason is not None:
                raise _compiled_error(f"{reason} needs the reference tier")

    @property
    def is_batched(self) -> bool:
        """The evaluator evaluates leaves in batches (``evaluate_batch`` and an ``encoder``:
        a network): the search is the compiled PUCT of :mod:`~searchlab.algorithms.mcts.puct`
        on the one tree, its leaves collected under virtual loss."""
        evaluator = self.evaluator
        return callable(getattr(evaluator, "evaluate_batch", None)) and callable(
            getattr(getattr(evaluator, "encoder", None), "action_to_index", None)
        )

    def check_evaluator_knobs(self) -> None:
        """``InvalidParameterError`` when a knob that only means something with an evaluator
        (``lambda_``, ``dirichlet_alpha``) is set without one: a search without an evaluator
        (UCT) would silently ignore it. The PUCT knobs themselves may be set in options made
        before their evaluator (training's), so this is asked where a search starts."""
        if self.evaluator is not None:
            return
        if self.lambda_ != 1.0:
            raise InvalidParameterError(
                f"{_ALGORITHM}: lambda_={self.lambda_!r} mixes an evaluator's value with the "
                "rollout; it needs an evaluator"
            )
        if self.dirichlet_alpha is not None:
            raise InvalidParameterError(
                f"{_ALGORITHM}: dirichlet_alpha={self.dirichlet_alpha!r} adds noise to "
                "the root priors; it needs an evaluator"
            )
        for rule in ("root", "nonroot"):
            if getattr(self, rule) != "puct":
                raise InvalidParameterError(
                    f"{_ALGORITHM}: {rule}={getattr(self, rule)!r} selects by a network's "
                    "priors and values; it needs an evaluator"
                )

    @property
    def draws_at_root(self) -> bool:
        """A PUCT search of these options draws noise at its root (Dirichlet's, or a Gumbel
        root's): it needs the search's seeded generator."""
        return self.dirichlet_alpha is not None or self.root == "gumbel"

    @property
    def is_plain(self) -> bool:
        """The options every compiled kernel can run: uniform rollouts, UCT (no RAVE), no
        table, no endgame search, no observer (``c``, ``final_move``, ``solver`` and
        ``value_scale`` may be anything)."""
        return self.why_not_plain() is None

    def why_not_plain(
        self, rollouts: Collection[str] = ("random",), features: Collection[str] = ()
    ) -> str | None:
        """The first option that rules out a compiled kernel whose rollout policies are
        ``rollouts`` (names; ``kernels.mcts_rollouts(game)`` gives a game's) and whose options
        beyond plain UCT are ``features`` (``kernels.mcts_features(game)``: ``"rave"`` runs
        ``rave > 0`` compiled only where the kernel says so), as it reads in a message
        (``None`` when such a kernel runs these options). :meth:`why_not_compiled` asks with a
        game's own."""
        if not (isinstance(self.rollout, str) and self.rollout in rollouts):
            return f"rollout={self.rollout!r}"
        if self.rave and "rave" not in features:
            return f"rave={self.rave:g}"
        if self.rave and self.rollout != "random" and "rave_rollouts" not in features:
            return f"rave={self.rave:g} with rollout={self.rollout!r}"
        if self.evaluator is not None:
            return "an evaluator (PUCT)"
        if self.transpositions:
            return "transpositions=True"
        if self.exact_endgame:
            return f"exact_endgame={self.exact_endgame}"
        if self.observer is not None:
            return "an observer"
        return None

    def why_not_compiled(self, game: object) -> str | None:
        """:meth:`why_not_plain` for the compiled MCTS kernel of ``game`` (its rollout
        policies and features from :mod:`~searchlab.algorithms.kernels`)."""
        return self.why_not_plain(mcts_rollouts(game), mcts_features(game))

    def why_not_threads(self, game: object) -> str | None:
        """With ``threads > 1``, one line saying why these options cannot search ``game`` on
        several threads (only the compiled tier runs them: no ``tier="reference"``, no option
        that needs the reference tier, a game with a compiled kernel); ``None`` when they can
        (or ``threads == 1``).

        >>> from searchlab.domains.games.connect4 import Connect4
        >>> from searchlab.domains.games.tictactoe import TicTacToe
        >>> MCTSOptions(threads=2).why_not_threads(Connect4()) is None
        True
        >>> print(MCTSOptions(threads=2).why_not_threads(TicTacToe()))
        mcts: threads=2 runs in the compiled tier only, and tictactoe has no compiled MCTS kernel; \
use threads=1
        """
        if self.threads == 1:
            return None
        if self.tier == "reference":
            why = "tier='reference' was asked"
        elif (reason := self.why_not_compiled(game)) is not None:
            why = f"{reason} needs the reference tier"
        elif not isinstance(game, KERNELS.domains("mcts")):
            name = getattr(getattr(game, "info", None), "name", type(game).__name__)
            why = f"{name} has no compiled MCTS kernel"
        else:
            return None
        return (
            f"{_ALGORITHM}: threads={self.threads} runs in the compiled tier only, and {why}; "
            "use threads=1"
        )

    @property
    def algorithm(self) -> str:
        """The name results carry: ``"puct"`` with an evaluator, else ``"mcts"``."""
        return "puct" if self.evaluator is not None else "mcts"


GUMBEL_OPTIONS: tuple[str, ...] = (
    "root",
    "nonroot",
    "max_num_considered_actions",
    "c_visit",
    "c_scale",
)
"""The fields of Gumbel search (:mod:`~searchlab.algorithms.mcts.gumbel`): the ``az`` agent's
spec parameters of the same names."""

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(MCTSOptions) if f.init)
"""The keyword arguments :class:`MCTSOptions` takes, in declaration order."""


def make_options(options: MCTSOptions | None, overrides: Mapping[str, Any]) -> MCTSOptions:
    """The options of a call that takes ``options=`` and/or keyword ``overrides``: ``options``
    itself when there are no overrides (the same object, checked when it was made), else a
    new checked :class:`MCTSOptions` (``options``' fields, replaced by ``overrides``)."""
    unknown = [name for name in overrides if name not in OPTION_NAMES]
    if unknown:
        raise UnknownNameError(
            f"{_ALGORITHM}: unknown option {unknown[0]!r}; known: {', '.join(OPTION_NAMES)}"
        )
    if options is None:
        made = MCTSOptions(**overrides)
    elif not isinstance(options, MCTSOptions):
        raise InvalidParameterError(
            f"{_ALGORITHM}: options must be an MCTSOptions, got {options!r}"
        )
    else:
        made = dataclasses.replace(options, **overrides) if overrides else options
    made.check_evaluator_knobs()
    return made


def check_compiled(options: MCTSOptions, game: object) -> None:
    """With ``tier="compiled"``, ``InvalidParameterError`` when ``options`` ask for something
    the compiled kernel for ``game`` does not run (a rollout policy it does not compile, for
    one); nothing otherwise. (Whether ``game`` has a kernel at all is the registry's answer,
    when the search runs.)

    >>> from searchlab.domains.games.connect4 import Connect4
    >>> from searchlab.domains.games.snakego import SnakeGo
    >>> options = MCTSOptions(rollout="informed", tier="compiled")
    >>> check_compiled(options, SnakeGo(size=8))
    >>> check_compiled(options, Connect4())
    Traceback (most recent call last):
    ...
    searchlab.core.errors.InvalidParameterError: mcts: the compiled tier runs plain UCT only, \
and rollout='informed' needs the reference tier (Connect4's kernel runs rollout='random' \
only); use tier='auto' or tier='reference'
    """
    if options.tier != "compiled":
        return
    rollouts = mcts_rollouts(game)
    reason = options.why_not_compiled(game)
    if reason is None:
        return
    reason += " needs the reference tier"
    if reason.startswith("rollout=") and type(game) in KERNELS.domains("mcts"):
        names = " or ".join(repr(name) for name in rollouts)
        reason += f" ({type(game).__name__}'s kernel runs rollout={names} only)"
    raise _compiled_error(reason)


def _compiled_error(reason: str) -> InvalidParameterError:
    return InvalidParameterError(
        f"{_ALGORITHM}: the compiled tier runs plain UCT only, and {reason}; use tier='auto' "
        "or tier='reference'"
    )


def _number(value: Any, name: str, *, low: float, high: float = math.inf) -> None:
    check_number(value, name, owner=_ALGORITHM, low=low, high=high)


def check_seed(seed: Any, algorithm: str) -> int | None:
    """``seed`` if it is ``None`` or an integer, else ``InvalidParameterError``."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidParameterError(f"{algorithm}: seed must be an integer or None, got {seed!r}")
    return seed


def check_budget(limits: Any, algorithm: str) -> Limits:
    """``limits`` if it bounds simulations or time; else ``InvalidParameterError``."""
    if not isinstance(limits, Limits):
        if limits is None:
            raise InvalidParameterError(
                f"{algorithm} needs a budget: limits=Limits(simulations=...) and/or "
                "Limits(time=...) (seconds)"
            )
        raise InvalidParameterError(f"{algorithm}: limits must be a Limits, got {limits!r}")
    if limits.simulations is None and limits.time is None:
        raise InvalidParameterError(
            f"{algorithm} needs a budget in simulations or time, got {limits!r}; "
            "use Limits(simulations=...) and/or Limits(time=...)"
        )
    return limits
