"""The ``alphago`` agent kind: AlphaGo's search with a pipeline's networks, for play and arena.

``alphago:checkpoint=DIR[,simulations=N][,lambda=L][,c_puct=C][,batch=B][,seed=S][,device=D]``
loads the finished pipeline in ``DIR`` (:func:`~searchlab.learning.alphago.run_alphago`'s
directory: the SL policy, the value network and the rollout policy) and plays the most visited
move of :class:`~searchlab.learning.alphago_search.AlphaGoSearch`: ``simulations`` per move
(default 400), or as many as the arena's time per move allows when it gives one. ``lambda`` is
the rollouts' weight in the leaf value (AlphaGo's 0.5 by default; 0 the value network alone, 1
the rollouts alone). The kind is declared lazily in the agents layer (as ``az`` and
``policy``): the agents cannot import this layer, nor PyTorch.

>>> sorted(ALPHAGO_KIND.params)
['batch', 'c_puct', 'checkpoint', 'device', 'lambda', 'simulations']
"""

from __future__ import annotations

from typing import Any

from searchlab.agents.base import AgentBase
from searchlab.agents.spec import AgentKind, Param
from searchlab.algorithms.mcts.options import DEFAULT_C_PUCT, DEFAULT_SEARCH_BATCH
from searchlab.core.errors import InvalidParameterError
from searchlab.core.game import State
from searchlab.core.limits import Limits
from searchlab.core.search_result import SearchResult
from searchlab.learning.alphago import load_alphago
from searchlab.learning.alphago_search import AlphaGoSearch, check_lambda

__all__ = ["ALPHAGO_KIND", "AlphaGoAgent"]

DEFAULT_SIMULATIONS = 400


class AlphaGoAgent(AgentBase):
    """Plays the most visited move of ``search`` (see the module)."""

    def __init__(self, name: str, search: AlphaGoSearch, *, limits: Limits) -> None:
        super().__init__(name)
        self.search = search
        self._limits = limits

    def act(self, state: State, limits: Limits | None = None) -> int:
        """The most visited move; ``limits.simulations`` and ``limits.time`` are honoured."""
        limits = limits or self._limits
        outcome = self.search.search(state, simulations=limits.simulations, seconds=limits.time)
        index = outcome.best_index()
        children = [
            {"action": a, "visits": int(n), "value": float(q), "prior": float(p)}
            for a, n, q, p in zip(
                outcome.actions, outcome.visits, outcome.values, outcome.priors, strict=True
            )
        ]
        self.last_result = SearchResult(
            action=outcome.actions[index],
            value=float(outcome.values[index]),
            nodes=outcome.simulations,
            algorithm="alphago",
            stats={"children": children, "lambda": self.search.lambda_},
        )
        return outcome.actions[index]


def _alphago(
    game: Any,
    *,
    name: str,
    seed: int | None,
    checkpoint: str | None,
    simulations: int,
    c_puct: float,
    batch: int,
    device: str,
    **options: Any,
) -> AlphaGoAgent:
    if checkpoint is None:
        raise InvalidParameterError(f"agent spec {name!r}: alphago needs checkpoint=DIR")
    if game is not None and getattr(getattr(game, "info", None), "name", None) != "connect4":
        raise InvalidParameterError(
            f"agent spec {name!r}: the alphago pipeline plays connect4 only"
        )
    lambda_ = check_lambda(options.get("lambda", 0.5))
    pipeline = load_alphago(checkpoint, device=device)
    search = pipeline.search(
        simulations=simulations,
        lambda_=lambda_,
        c_puct=c_puct,
        batch_size=batch,
        seed=0 if seed is None else seed,
    )
    return AlphaGoAgent(name, search, limits=Limits(simulations=simulations))


ALPHAGO_KIND = AgentKind(
    "alphago",
    _alphago,
    {
        "checkpoint": Param(
            str,
            None,
            "the pipeline's directory (searchlab train connect4 --algorithm alphago --out DIR)",
        ),
        "simulations": Param(int, DEFAULT_SIMULATIONS, "simulations per move"),
        "lambda": Param(float, 0.5, "rollouts' weight in the leaf value, 0..1", positive=False),
        "c_puct": Param(float, DEFAULT_C_PUCT, "PUCT's exploration constant"),
        "batch": Param(int, DEFAULT_SEARCH_BATCH, "leaves evaluated per batch"),
        "device": Param(str, "cpu", "torch device"),
    },
    "AlphaGo's search: SL-policy priors, value network and rollouts mixed by lambda "
    "(checkpoint=DIR)",
)
"""The kind, resolved lazily by the agents registry."""
