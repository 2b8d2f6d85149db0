"""The ``alphago`` agent kind: AlphaGo's search with a pipeline's networks, for play and arena.

``alphago:checkpoint=DIR[,simulations=N][,lambda=L][,c_puct=C][,batch=B][,seed=S][,device=D]``
loads the finished pipeline in ``DIR`` (:func:`~searchlab.learning.alphago.pipeline.run_alphago`'s
directory: the SL policy, the value network and the rollout policy) and is the ``mcts`` agent
(:class:`~searchlab.agents.search.MCTSAgent`, one code path with ``az``) guided by
:class:`~searchlab.learning.alphago.search.AlphaGoEvaluator`: PUCT with the SL policy's priors
and leaves valued by the lambda mix, ``simulations`` per move (default 400), or as many as the
arena's time per move allows when it gives one; the most visited move. ``lambda`` is
the rollouts' weight in the leaf value (AlphaGo's 0.5 by default; 0 the value network alone, 1
the rollouts alone). The kind is declared lazily in the agents layer (as ``az`` and
``policy``): the agents cannot import this layer, nor PyTorch.

>>> sorted(ALPHAGO_KIND.params)
['batch', 'c_puct', 'checkpoint', 'device', 'lambda', 'simulations']
"""

from __future__ import annotations

from typing import Any

from searchlab.agents.kinds import option_param
from searchlab.agents.search import MCTSAgent
from searchlab.agents.spec import AgentKind, Param
from searchlab.core.errors import InvalidParameterError
from searchlab.core.limits import Limits
from searchlab.learning.alphago.pipeline import load_alphago
from searchlab.learning.alphago.search import check_lambda

__all__ = ["ALPHAGO_KIND"]

DEFAULT_SIMULATIONS = 400


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
) -> MCTSAgent:
    if checkpoint is None:
        raise InvalidParameterError(f"agent spec {name!r}: alphago needs checkpoint=DIR")
    if game is not None and getattr(getattr(game, "info", None), "name", None) not in (
        "connect4",
        "go",
    ):
        raise InvalidParameterError(
            f"agent spec {name!r}: the alphago pipeline plays connect4 and go only"
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
    return MCTSAgent(
        name,
        game,
        limits=Limits(simulations=simulations),
        seed=seed,
        options=search.options,
        algorithm="alphago",
    )


ALPHAGO_KIND = AgentKind(
    "alphago",
    _alphago,
    {
        "checkpoint": Param(
            str,
            None,
            "the pipeline's directory (searchlab train connect4|go --algorithm alphago --out DIR)",
        ),
        "simulations": Param(int, DEFAULT_SIMULATIONS, "simulations per move"),
        "lambda": Param(float, 0.5, "rollouts' weight in the leaf value, 0..1", positive=False),
        "c_puct": option_param("c_puct"),
        "batch": option_param("search_batch", positive=True),
        "device": Param(str, "cpu", "torch device"),
    },
    "AlphaGo's search: SL-policy priors, value network and rollouts mixed by lambda "
    "(checkpoint=DIR)",
)
"""The kind, resolved lazily by the agents registry."""
